package rest_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"quire/internal/content"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

// searchFixture is a space with a group holding two pages, and a second
// space with a page of its own.
type searchFixture struct {
	team          *testenv.Team
	space, other  string
	group, config string // page ids
}

func newSearchFixture(t *testing.T, e *testenv.Env) *searchFixture {
	t.Helper()
	f := &searchFixture{team: e.NewTeam()}
	f.space = newSpace(t, e, f.team, "Handbook")
	f.other = newSpace(t, e, f.team, "Runbooks")
	svc := e.Server.Resolver().Content
	ctx := jobs.NewContext(context.Background(), e.Client(), f.team.Editor.User)
	res, err := svc.EditSpace(ctx, f.space, &content.CreatePage{Type: content.TypeGroup, Title: "Operations"})
	if err != nil {
		t.Fatal(err)
	}
	f.group = res.IDs[0]
	setup := "Install the agent first.\n\n## Configure the proxy\n\nSet the proxy address in the settings file.\n\n## Rotate credentials\n\nRotate the proxy password every month.\n"
	other := "The proxy sits in front of the database.\n"
	res, err = svc.EditSpace(ctx, f.space,
		&content.CreatePage{Title: "Proxy setup", Parent: f.group, Markdown: &setup},
		&content.CreatePage{Title: "Database", Parent: f.group, Markdown: &other})
	if err != nil {
		t.Fatal(err)
	}
	f.config = res.IDs[0]
	runbook := "When the proxy fails, restart it.\n"
	if _, err := svc.EditSpace(ctx, f.other, &content.CreatePage{Title: "Proxy outage", Markdown: &runbook}); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestSearchSpace(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := newSearchFixture(t, e)
		r := e.Do(f.team.Reader.Token, "GET", "/v1/spaces/"+f.space+"/search?query="+url.QueryEscape("configuring proxy"), nil)
		if r.Status != 200 {
			t.Fatalf("search: %d %s", r.Status, r.Body)
		}
		body := r.JSON()
		if body["count"] != float64(1) {
			t.Fatalf("search: %s", r.Body)
		}
		page := testenv.Path(body, "items", 0).(map[string]any)
		base := e.URL + "/app/o/" + f.team.Org.ID + "/s/" + f.space + "/operations/proxy-setup"
		if page["id"] != f.config || page["title"] != "Proxy setup" || page["path"] != "operations/proxy-setup" ||
			testenv.Path(page, "urls", "app") != base || testenv.Path(page, "ancestors", 0, "title") != "Operations" {
			t.Errorf("page: %s", r.Body)
		}
		sec := testenv.Path(page, "sections", 0).(map[string]any)
		if sec["id"] != "configure-the-proxy" || sec["title"] != "Configure the proxy" ||
			sec["path"] != "operations/proxy-setup#configure-the-proxy" ||
			testenv.Path(sec, "urls", "app") != base+"#configure-the-proxy" ||
			!strings.Contains(sec["body"].(string), "proxy address") {
			t.Errorf("section: %s", r.Body)
		}

		// Paged: one page at a time.
		r = e.Do(f.team.Reader.Token, "GET", "/v1/spaces/"+f.space+"/search?query=proxy&limit=1", nil)
		next := testenv.Path(r.JSON(), "next", "page")
		if r.Status != 200 || r.JSON()["count"] != float64(2) || next == nil {
			t.Fatalf("first page: %d %s", r.Status, r.Body)
		}
		r2 := e.Do(f.team.Reader.Token, "GET", "/v1/spaces/"+f.space+"/search?query=proxy&limit=1&page="+url.QueryEscape(next.(string)), nil)
		if r2.Status != 200 || testenv.Path(r2.JSON(), "next") != nil ||
			testenv.Path(r2.JSON(), "items", 0, "id") == testenv.Path(r.JSON(), "items", 0, "id") {
			t.Errorf("second page: %s after %s", r2.Body, r.Body)
		}
	})
}

func TestSearchOrganization(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := newSearchFixture(t, e)
		r := e.Do(f.team.Reader.Token, "GET", "/v1/orgs/"+f.team.Org.ID+"/search?query=proxy", nil)
		if r.Status != 200 || r.JSON()["count"] != float64(2) {
			t.Fatalf("search: %d %s", r.Status, r.Body)
		}
		got := map[string][]any{}
		for _, it := range r.JSON()["items"].([]any) {
			s := it.(map[string]any)
			got[s["title"].(string)] = s["pages"].([]any)
			if s["id"] != f.space && s["id"] != f.other {
				t.Errorf("space %v", s["id"])
			}
		}
		if len(got["Handbook"]) != 2 || len(got["Runbooks"]) != 1 {
			t.Errorf("spaces: %s", r.Body)
		}
		// A space the reader may not read is not searched.
		if r := e.Do(f.team.Admin.Token, "PATCH", "/v1/spaces/"+f.other, map[string]any{"defaultLevel": nil}); r.Status != 200 {
			t.Fatalf("restrict: %d %s", r.Status, r.Body)
		}
		r = e.Do(f.team.Reader.Token, "GET", "/v1/orgs/"+f.team.Org.ID+"/search?query=proxy", nil)
		if r.Status != 200 || r.JSON()["count"] != float64(1) || testenv.Path(r.JSON(), "items", 0, "id") != f.space {
			t.Errorf("reader after the restriction: %s", r.Body)
		}
		r = e.Do(f.team.Admin.Token, "GET", "/v1/orgs/"+f.team.Org.ID+"/search?query=proxy", nil)
		if r.JSON()["count"] != float64(2) {
			t.Errorf("admin after the restriction: %s", r.Body)
		}
	})
}

func TestSearchRefusals(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := newSearchFixture(t, e)
		tok := f.team.Reader.Token
		for _, c := range []struct {
			path   string
			status int
			msg    string
		}{
			{"/v1/spaces/" + f.space + "/search", 400, "query is required"},
			{"/v1/spaces/" + f.space + "/search?query=", 400, "query is required"},
			{"/v1/spaces/" + f.space + "/search?query=" + strings.Repeat("a", 513), 400, "query"},
			{"/v1/orgs/" + f.team.Org.ID + "/search?query=%20%20", 400, "query must not be empty"},
			{"/v1/spaces/" + f.space + "/search?query=proxy&limit=1001", 400, "limit"},
			{"/v1/spaces/" + f.space + "/search?query=proxy&page=nope", 400, "page"},
			{"/v1/spaces/missing/search?query=proxy", 404, ""},
			{"/v1/orgs/missing/search?query=proxy", 404, ""},
		} {
			r := e.Do(tok, "GET", c.path, nil)
			msg, _ := testenv.Path(r.JSON(), "error", "message").(string)
			if r.Status != c.status || !strings.Contains(msg, c.msg) {
				t.Errorf("%.80s: %d %s", c.path, r.Status, r.Body)
			}
		}
		// The longest query is answered.
		q := strings.Repeat("proxy ", 85) + "xy"
		if r := e.Do(tok, "GET", "/v1/spaces/"+f.space+"/search?query="+url.QueryEscape(q), nil); r.Status != 200 {
			t.Errorf("512 characters: %d %s", r.Status, r.Body)
		}
		// Another organization's member gets 404, as for an unknown id.
		if r := e.Do(f.team.Outsider.Token, "GET", "/v1/spaces/"+f.space+"/search?query=proxy", nil); r.Status != 404 {
			t.Errorf("outsider: %d %s", r.Status, r.Body)
		}
	})
}
