package reader_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"quire/internal/content"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

// member is a browser of the members' area: it keeps cookies and does not
// follow redirects.
type member struct {
	t *testing.T
	e *testenv.Env
	c *http.Client
}

func newMember(t *testing.T, e *testenv.Env) *member {
	jar, _ := cookiejar.New(nil)
	c := *e.HTTP.Client() // a copy: the test server's client is shared
	c.Jar = jar
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &member{t: t, e: e, c: &c}
}

func (m *member) do(req *http.Request) page {
	m.t.Helper()
	resp, err := m.c.Do(req)
	if err != nil {
		m.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return page{Status: resp.StatusCode, Header: resp.Header, Body: string(b)}
}

func (m *member) get(u string) page {
	m.t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	return m.do(req)
}

// signIn posts the sign-in form with a token and where to go next;
// headers are extra request headers (name, value, ...).
func (m *member) signIn(token, next string, headers ...string) page {
	m.t.Helper()
	req, _ := http.NewRequest("POST", m.e.URL+"/app/sign-in", strings.NewReader(url.Values{"token": {token}, "next": {next}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return m.do(req)
}

func TestMembersPreview(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		admin, org := team.Admin.Token, team.Org.ID
		md := func(s string) *string { return &s }
		sp := space(t, e, team, "Handbook")
		ids := seedPages(t, e, team, sp,
			&content.CreatePage{Title: "Welcome", Markdown: md("Published **welcome** text.\n")},
			&content.CreatePage{Title: "Setup", Markdown: md("Install it.\n")},
		)
		// A change request adds a page that only its preview shows.
		cr := rest(t, e, admin, "POST", "/v1/spaces/"+sp+"/change-requests", map[string]any{"subject": "Add a chapter"}, http.StatusCreated)
		ctx := jobs.NewContext(context.Background(), e.Client(), team.Admin.User)
		if _, err := e.Server.Resolver().Content.Edit(ctx, str(cr["id"]), &content.CreatePage{Title: "Draft chapter", Markdown: md("Not merged yet.\n")}); err != nil {
			t.Fatal(err)
		}
		// An unpublished site over the space.
		st := rest(t, e, admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": "Docs", "visibility": "public"}, http.StatusCreated)
		rest(t, e, admin, "POST", "/v1/orgs/"+org+"/sites/"+str(st["id"])+"/site-spaces", map[string]any{"spaceId": sp}, http.StatusCreated)

		spaceApp := e.URL + "/app/o/" + org + "/s/" + sp
		m := newMember(t, e)

		t.Run("signed out, every page leads to the sign-in form", func(t *testing.T) {
			p := m.get(spaceApp + "/setup")
			if p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/app/sign-in?next="+url.QueryEscape("/app/o/"+org+"/s/"+sp+"/setup") {
				t.Fatalf("signed out: %d Location %q", p.Status, p.Header.Get("Location"))
			}
			form := m.get(e.URL + p.Header.Get("Location"))
			if form.Status != 200 || !strings.Contains(form.Body, `name="token"`) || !strings.Contains(form.Body, `value="/app/o/`+org+`/s/`+sp+`/setup"`) {
				t.Fatalf("sign-in form: %d %.400s", form.Status, form.Body)
			}
		})

		t.Run("refused sign-ins", func(t *testing.T) {
			if p := m.signIn("not-a-token", "/app/"); p.Status != http.StatusUnauthorized || !strings.Contains(p.Body, "not valid") {
				t.Errorf("bad token: %d %.300s", p.Status, p.Body)
			}
			if p := m.signIn(admin, "/app/", "Sec-Fetch-Site", "cross-site"); p.Status != http.StatusForbidden {
				t.Errorf("cross-site sign-in: %d", p.Status)
			}
			if p := m.signIn(admin, "/app/", "Origin", "https://evil.test"); p.Status != http.StatusForbidden {
				t.Errorf("sign-in from another origin: %d", p.Status)
			}
			if p := m.get(spaceApp); p.Status != http.StatusSeeOther {
				t.Errorf("a refused sign-in opened a session: %d", p.Status)
			}
		})

		t.Run("sign in, then preview the space, a change request and the site", func(t *testing.T) {
			// A next pointing elsewhere returns to the members' home, never away.
			p := m.signIn(admin, "https://evil.test/app/")
			if p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/app/" {
				t.Fatalf("sign-in: %d Location %q", p.Status, p.Header.Get("Location"))
			}
			var session *http.Cookie
			for _, c := range p.Header["Set-Cookie"] {
				if strings.HasPrefix(c, "quire-session=") {
					session, _ = http.ParseSetCookie(c)
				}
			}
			if session == nil || !session.HttpOnly || session.SameSite != http.SameSiteLaxMode || session.Path != "/app" {
				t.Fatalf("session cookie: %v", p.Header["Set-Cookie"])
			}

			home := m.get(e.URL + "/app/")
			if home.Status != 200 || !has(hrefs(home.doc(t), nil), e.URL+"/app/o/"+org) {
				t.Errorf("members' home: %d %.400s", home.Status, home.Body)
			}
			pg := m.get(spaceApp + "/setup")
			if pg.Status != 200 || !strings.Contains(pg.Body, "Install it.") || !strings.Contains(pg.Body, "Preview of the space") {
				t.Fatalf("space preview: %d %.400s", pg.Status, pg.Body)
			}
			if cc := pg.Header.Get("Cache-Control"); !strings.Contains(cc, "private") {
				t.Errorf("preview Cache-Control %q", cc)
			}
			if !strings.Contains(pg.Body, `<meta name="robots" content="noindex">`) {
				t.Errorf("a preview may be indexed")
			}
			if sb := hrefs(pg.doc(t), nil); has(sb, spaceApp+"/draft-chapter") {
				t.Errorf("the space's preview shows the change request's page")
			}
			n, _ := cr["number"].(float64)
			crApp := spaceApp + "/~/changes/" + strconv.Itoa(int(n))
			draft := m.get(crApp + "/draft-chapter")
			if draft.Status != 200 || !strings.Contains(draft.Body, "Not merged yet.") || !strings.Contains(draft.Body, "Add a chapter") {
				t.Errorf("change request preview: %d %.400s", draft.Status, draft.Body)
			}
			if p := m.get(spaceApp + "/~/changes/999"); p.Status != 404 {
				t.Errorf("unknown change request: %d", p.Status)
			}
			siteApp := m.get(e.URL + "/app/o/" + org + "/sites/" + str(st["id"]) + "/setup")
			if siteApp.Status != 200 || !strings.Contains(siteApp.Body, "Install it.") || !strings.Contains(siteApp.Body, "once published") {
				t.Errorf("unpublished site preview: %d %.400s", siteApp.Status, siteApp.Body)
			}
			if p := get(t, e, e.URL+"/app/o/"+org+"/s/"+sp, ""); p.Status != http.StatusSeeOther {
				t.Errorf("the preview without the session: %d", p.Status)
			}
		})

		t.Run("every urls.app answers 200 to the member", func(t *testing.T) {
			col := rest(t, e, admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Guides"}, http.StatusCreated)
			var apps []string
			for _, path := range []string{"/v1/orgs/" + org, "/v1/spaces/" + sp, "/v1/orgs/" + org + "/sites/" + str(st["id"]),
				"/v1/collections/" + str(col["id"]), "/v1/spaces/" + sp + "/change-requests/" + str(cr["id"]),
				"/v1/spaces/" + sp + "/content", "/v1/spaces/" + sp + "/content/page/" + ids[1]} {
				got := rest(t, e, admin, "GET", path, nil, http.StatusOK)
				u, _ := got["urls"].(map[string]any)
				if str(u["app"]) == "" {
					t.Errorf("%s has no urls.app: %v", path, got["urls"])
					continue
				}
				apps = append(apps, str(u["app"]))
			}
			// A user's urls.location is the API's, for callers who may see them.
			me := rest(t, e, team.Editor.Token, "GET", "/v1/user", nil, http.StatusOK)
			loc := str(me["urls"].(map[string]any)["location"])
			if got := rest(t, e, admin, "GET", strings.TrimPrefix(loc, e.URL), nil, http.StatusOK); got["id"] != me["id"] {
				t.Errorf("user at %s: %v", loc, got)
			}
			rest(t, e, team.Outsider.Token, "GET", strings.TrimPrefix(loc, e.URL), nil, http.StatusNotFound)
			for _, a := range apps {
				if p := m.get(a); p.Status != 200 {
					t.Errorf("GET %s: %d %.300s", a, p.Status, p.Body)
				}
			}
		})

		t.Run("other organizations' members see nothing", func(t *testing.T) {
			out := newMember(t, e)
			if p := out.signIn(team.Outsider.Token, "/app/o/"+org+"/s/"+sp); p.Status != http.StatusSeeOther {
				t.Fatalf("outsider sign-in: %d", p.Status)
			}
			for _, u := range []string{spaceApp, spaceApp + "/~/changes/1", e.URL + "/app/o/" + org, e.URL + "/app/o/" + org + "/sites/" + str(st["id"])} {
				if p := out.get(u); p.Status != 404 {
					t.Errorf("outsider GET %s: %d", u, p.Status)
				}
			}
			// The space addressed under another organization is not found either.
			if p := m.get(e.URL + "/app/o/" + team.Other.ID + "/s/" + sp); p.Status != 404 {
				t.Errorf("space under another organization: %d", p.Status)
			}
		})

		t.Run("sign out ends the session", func(t *testing.T) {
			req, _ := http.NewRequest("POST", e.URL+"/app/sign-out", nil)
			if p := m.do(req); p.Status != http.StatusSeeOther {
				t.Fatalf("sign out: %d", p.Status)
			}
			if p := m.get(spaceApp); p.Status != http.StatusSeeOther {
				t.Errorf("after sign-out: %d", p.Status)
			}
			if p := m.get(e.URL + "/app/sign-out"); p.Status != http.StatusMethodNotAllowed {
				t.Errorf("GET sign-out: %d", p.Status)
			}
		})
	})
}
