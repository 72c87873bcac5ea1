package reader_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"quire/internal/content"
	"quire/internal/orgs"
	"quire/internal/testing/testenv"
)

// Who may read which site: the status each reader gets, as the site's
// visibility, publication, share links and organization change.
func TestWhoMayRead(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		admin, org := team.Admin.Token, team.Org.ID
		sp := space(t, e, team, "Handbook")
		guide(t, e, team, sp)
		id, url := site(t, e, team, "Acme docs", "public", sp)
		path := "/v1/orgs/" + org + "/sites/" + id
		status := func(u string, host ...string) int {
			h := ""
			if len(host) > 0 {
				h = host[0]
			}
			return get(t, e, u, h).Status
		}
		if got := status(url); got != http.StatusOK {
			t.Fatalf("public: %d", got)
		}
		if got := status(e.URL + "/s/" + org + "/no-such-site"); got != http.StatusNotFound {
			t.Errorf("unknown basename: %d", got)
		}
		if got := status(e.URL + "/s/" + team.Other.ID + "/acme-docs"); got != http.StatusNotFound {
			t.Errorf("the basename under another organization: %d", got)
		}

		rest(t, e, admin, "POST", path+"/unpublish", nil, http.StatusOK)
		if got := status(url); got != http.StatusNotFound {
			t.Errorf("unpublished: %d", got)
		}
		rest(t, e, admin, "POST", path+"/publish", nil, http.StatusOK)

		rest(t, e, admin, "PATCH", path, map[string]any{"visibility": "visitor-auth"}, http.StatusOK)
		if got := status(url); got != http.StatusUnauthorized {
			t.Errorf("visitor-auth without a token: %d", got)
		}

		rest(t, e, admin, "PATCH", path, map[string]any{"visibility": "share-link"}, http.StatusOK)
		if got := status(url); got != http.StatusNotFound {
			t.Errorf("share-link without a key: %d", got)
		}
		link := rest(t, e, admin, "POST", path+"/share-links", map[string]any{"name": "Reviewers"}, http.StatusCreated)
		shared := str(link["urls"].(map[string]any)["published"])
		if !strings.HasPrefix(shared, url+"/~share/") {
			t.Fatalf("share link URL %q", shared)
		}
		sh := get(t, e, shared+"/guides/installation", "")
		if sh.Status != http.StatusOK || sh.Header.Get("Cache-Control") != "private, no-cache" || sh.Header.Get("X-Robots-Tag") != "noindex" {
			t.Fatalf("share link: %d %q", sh.Status, sh.Header.Get("Cache-Control"))
		}
		// Its links keep the key.
		if !has(hrefs(sh.doc(t), nil), shared+"/welcome") {
			t.Errorf("links of a shared page lose the key: %v", hrefs(sh.doc(t), nil))
		}
		if got := status(url + "/~share/not-a-key"); got != http.StatusNotFound {
			t.Errorf("a wrong key: %d", got)
		}
		rest(t, e, admin, "PATCH", path+"/share-links/"+str(link["id"]), map[string]any{"active": false}, http.StatusOK)
		if got := status(shared); got != http.StatusNotFound {
			t.Errorf("a revoked key: %d", got)
		}

		rest(t, e, admin, "PATCH", path, map[string]any{"visibility": "public"}, http.StatusOK)
		if _, err := orgs.Block(context.Background(), e.Client(), org, "Unpaid"); err != nil {
			t.Fatal(err)
		}
		if got := status(url); got != http.StatusNotFound {
			t.Errorf("a blocked organization's site: %d", got)
		}
		if _, err := orgs.Unblock(context.Background(), e.Client(), org); err != nil {
			t.Fatal(err)
		}
		if got := status(url); got != http.StatusOK {
			t.Errorf("unblocked: %d", got)
		}

		rest(t, e, admin, "DELETE", "/v1/spaces/"+sp, nil, http.StatusResetContent)
		if got := status(url + "/guides/installation"); got != http.StatusNotFound {
			t.Errorf("a page of a deleted space: %d", got)
		}
	})
}

// A custom hostname selects its site, and only its own.
func TestCustomHostname(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		sp := space(t, e, team, "Handbook")
		guide(t, e, team, sp)
		id, _ := site(t, e, team, "Acme docs", "public", sp)
		path := "/v1/orgs/" + team.Org.ID + "/sites/" + id
		rest(t, e, team.Admin.Token, "PATCH", path, map[string]any{"hostname": "docs.acme.test"}, http.StatusOK)
		got := rest(t, e, team.Admin.Token, "GET", path, nil, http.StatusOK)
		if u := str(got["urls"].(map[string]any)["published"]); u != "https://docs.acme.test" {
			t.Fatalf("published URL with a hostname: %q", u)
		}

		home := get(t, e, e.URL+"/guides/installation", "docs.acme.test")
		if home.Status != http.StatusOK {
			t.Fatalf("by hostname: %d %s", home.Status, home.Body)
		}
		if !has(hrefs(home.doc(t), nil), "https://docs.acme.test/welcome") {
			t.Errorf("links on the hostname: %v", hrefs(home.doc(t), nil))
		}
		css := find(home.doc(t), func(n *html.Node) bool { return n.Data == "link" && attr(n, "rel") == "stylesheet" })
		for _, l := range css {
			href := strings.TrimPrefix(attr(l, "href"), "https://docs.acme.test")
			if got := get(t, e, e.URL+href, "docs.acme.test"); got.Status != http.StatusOK || !strings.HasPrefix(got.Header.Get("Content-Type"), "text/css") {
				t.Errorf("stylesheet %s on the hostname: %d", href, got.Status)
			}
		}
		// /app/ on a site's hostname is the site's path, not the members'
		// area (this site has no page there).
		if r := get(t, e, e.URL+"/app/o/"+team.Org.ID, "docs.acme.test"); r.Status != http.StatusNotFound || r.Header.Get("Location") != "" {
			t.Errorf("/app/ on a site's hostname: %d %s", r.Status, r.Header.Get("Location"))
		}
		// The API stays where it is, on any host.
		if r := get(t, e, e.URL+"/healthz", "docs.acme.test"); r.Status != http.StatusOK {
			t.Errorf("/healthz on a site's hostname: %d", r.Status)
		}
		if got := get(t, e, e.URL+"/", "unknown.example.test"); got.Status != http.StatusNotFound {
			t.Errorf("a hostname no site holds: %d", got.Status)
		}

		// Another organization may not take the hostname.
		other := str(rest(t, e, team.Outsider.Token, "POST", "/v1/orgs/"+team.Other.ID+"/sites", map[string]any{"title": "Other"}, http.StatusCreated)["id"])
		r := e.Do(team.Outsider.Token, "PATCH", "/v1/orgs/"+team.Other.ID+"/sites/"+other, map[string]any{"hostname": "docs.acme.test"})
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "hostname") {
			t.Fatalf("a hostname taken by another organization's site: %d %s", r.Status, r.Body)
		}
		// Were two sites to hold it (written around the check), neither is
		// served under it.
		if err := e.Client().Site.UpdateOneID(other).SetHostname("docs.acme.test").SetPublished(true).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := get(t, e, e.URL+"/", "docs.acme.test"); got.Status != http.StatusNotFound {
			t.Errorf("a hostname two sites hold: %d", got.Status)
		}
	})
}

// Sections are tabs, the site spaces of a section its variants; each is
// served at its path.
func TestSectionsAndVariants(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		admin, org := team.Admin.Token, team.Org.ID
		md := func(s string) *string { return &s }
		mk := func(title, body string) string {
			sp := space(t, e, team, title)
			seedPages(t, e, team, sp, &content.CreatePage{Title: title + " intro", Markdown: md(body)})
			return sp
		}
		guides, v1, v2 := mk("Guides", "Guides body."), mk("API v1", "Old API."), mk("API v2", "New API.")
		st := rest(t, e, admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": "Acme docs", "visibility": "public"}, http.StatusCreated)
		path := "/v1/orgs/" + org + "/sites/" + str(st["id"])
		rest(t, e, admin, "POST", path+"/sections", map[string]any{"spaceId": guides, "title": "Guides"}, http.StatusCreated)
		api := rest(t, e, admin, "POST", path+"/sections", map[string]any{"spaceId": v2, "title": "API"}, http.StatusCreated)
		rest(t, e, admin, "POST", path+"/site-spaces", map[string]any{"spaceId": v1, "sectionId": api["id"]}, http.StatusCreated)
		rest(t, e, admin, "POST", path+"/publish", nil, http.StatusOK)
		url := str(rest(t, e, admin, "GET", path, nil, http.StatusOK)["urls"].(map[string]any)["published"])

		home := get(t, e, url, "")
		if home.Status != http.StatusOK || !strings.Contains(home.Body, "Guides body.") {
			t.Fatalf("the default section at the root: %d", home.Status)
		}
		tabs := hrefs(home.doc(t), nil)
		apiURL := url + "/api"
		if !has(tabs, apiURL) {
			t.Fatalf("section tabs: %v", tabs)
		}
		apiPage := get(t, e, apiURL, "")
		if apiPage.Status != http.StatusOK || !strings.Contains(apiPage.Body, "New API.") {
			t.Fatalf("the API section shows its default site space: %d", apiPage.Status)
		}
		links := hrefs(apiPage.doc(t), nil)
		var old string
		for _, l := range links {
			if strings.HasPrefix(l, apiURL+"/") && !strings.Contains(l, "intro") {
				old = l
			}
		}
		if old == "" {
			t.Fatalf("no variant link in the API section: %v", links)
		}
		if v := get(t, e, old, ""); v.Status != http.StatusOK || !strings.Contains(v.Body, "Old API.") {
			t.Fatalf("the other variant at %s: %d", old, v.Status)
		}
	})
}
