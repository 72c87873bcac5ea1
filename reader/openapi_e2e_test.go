package reader_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"quire/internal/content"
	"quire/internal/testing/testenv"
)

// References to OpenAPI specifications lead readers to a public
// specification's latest version, and render as text for a private one
// or one that does not exist.
func TestOpenAPIReferences(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		e.StartJobs()
		team := e.NewTeam()
		admin, org := team.Admin.Token, team.Org.ID
		const spec = "openapi: 3.0.3\ninfo: {title: Pets, version: \"1\"}\npaths: {}\n"
		for slug, vis := range map[string]string{"pets": "public", "internal": "private"} {
			rest(t, e, admin, "POST", "/v1/orgs/"+org+"/openapi", map[string]any{"slug": slug, "source": map[string]any{"text": spec}}, http.StatusCreated)
			if vis == "public" {
				rest(t, e, admin, "PATCH", "/v1/orgs/"+org+"/openapi/"+slug, map[string]any{"visibility": vis}, http.StatusOK)
			}
			// Processing is a job: wait for the job runner to store a version.
			deadline := time.Now().Add(30 * time.Second)
			for str(rest(t, e, admin, "GET", "/v1/orgs/"+org+"/openapi/"+slug, nil, http.StatusOK)["processingState"]) != "complete" {
				if time.Now().After(deadline) {
					t.Fatalf("%s never processed", slug)
				}
				time.Sleep(testenv.JobPoll)
			}
		}
		md := "Read [the pets API](openapi://pets), [the internal API](openapi://internal) and [a missing one](openapi://nope).\n"
		sp := space(t, e, team, "API")
		seedPages(t, e, team, sp, &content.CreatePage{Title: "Reference", Markdown: &md})
		_, url := site(t, e, team, "API docs", "public", sp)

		p := get(t, e, url, "")
		if p.Status != 200 {
			t.Fatalf("page: %d %.300s", p.Status, p.Body)
		}
		links := hrefs(p.doc(t), nil)
		want := e.URL + "/openapi/" + org + "/pets"
		if !has(links, want) {
			t.Errorf("no link to %s among %v", want, links)
		}
		for _, l := range links {
			if strings.Contains(l, "internal") || strings.Contains(l, "nope") || strings.HasPrefix(l, "openapi:") {
				t.Errorf("a reference readers may not follow is a link: %s", l)
			}
		}
		if !strings.Contains(p.Body, "the internal API") || !strings.Contains(p.Body, "a missing one") {
			t.Errorf("references readers may not follow lost their text")
		}
		// Members open the specification's urls.app in the members' area.
		got := rest(t, e, admin, "GET", "/v1/orgs/"+org+"/openapi/pets", nil, http.StatusOK)
		app := str(got["urls"].(map[string]any)["app"])
		m := newMember(t, e)
		m.signIn(admin, "/app/")
		if p := m.get(app); p.Status != 200 || !strings.Contains(p.Body, "Versions") {
			t.Errorf("GET %s: %d %.300s", app, p.Status, p.Body)
		}
		// The link leads to the specification.
		if spec := get(t, e, want, ""); spec.Status != http.StatusFound {
			t.Errorf("GET %s: %d", want, spec.Status)
		}
	})
}
