package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"quire/ent"
	"quire/ent/sitesection"
	"quire/ent/sitesectiongroup"
	"quire/ent/sitesharelink"
	"quire/ent/sitespace"
	"quire/internal/loaders"
	"quire/internal/testing/testenv"
)

// FetchStructures reads sections, groups and site spaces in one statement
// and must give what ent's own queries give, every column included (nested
// groups, a hidden site space with a condition and a customization, a
// section with a description and an icon), on both databases.
func TestFetchStructuresMatchesEntQueries(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		tok := team.Admin.Token
		call := restCall(t, e, tok)
		space := func(title string) string {
			return call("POST", "/v1/orgs/"+team.Org.ID+"/spaces", map[string]any{"title": title}, http.StatusCreated)["id"].(string)
		}
		var sites []string
		for range 2 {
			site := call("POST", "/v1/orgs/"+team.Org.ID+"/sites", map[string]any{"title": "Docs"}, http.StatusCreated)["id"].(string)
			sites = append(sites, site)
			base := "/v1/orgs/" + team.Org.ID + "/sites/" + site
			sec := call("POST", base+"/sections", map[string]any{"spaceId": space("A"), "title": "Guides"}, http.StatusCreated)["id"].(string)
			call("PATCH", base+"/sections/"+sec, map[string]any{"description": "All guides", "icon": "book"}, http.StatusOK)
			sec2 := call("POST", base+"/sections", map[string]any{"spaceId": space("B"), "title": "API"}, http.StatusCreated)["id"].(string)
			outer := call("POST", base+"/section-groups", map[string]any{"title": "Outer", "sections": []string{sec}}, http.StatusCreated)["id"].(string)
			call("POST", base+"/section-groups", map[string]any{"title": "Inner", "sections": []string{sec2}, "parent": outer}, http.StatusCreated)
			ss := call("POST", base+"/site-spaces", map[string]any{"spaceId": space("C"), "sectionId": sec}, http.StatusCreated)["id"].(string)
			call("PATCH", base+"/site-spaces/"+ss, map[string]any{"hidden": true, "condition": `visitor.claims.plan == "pro"`}, http.StatusOK)
			call("PATCH", base+"/site-spaces/"+ss+"/customization", map[string]any{"styling": map[string]any{"theme": "bold"}}, http.StatusOK)
		}
		// A site with no structure gets empty lists, not a later load.
		empty := call("POST", "/v1/orgs/"+team.Org.ID+"/sites", map[string]any{"title": "Empty"}, http.StatusCreated)["id"].(string)
		sites = append(sites, empty)

		ctx := context.Background()
		l := loaders.New(e.DB.Client)
		ctx = loaders.With(ctx, l)
		before := e.Statements()
		if err := l.Sites.FetchStructures(ctx, sites, false); err != nil {
			t.Fatal(err)
		}
		if n := e.Statements() - before; n != 1 {
			t.Errorf("FetchStructures of %d sites: %d statements, want 1", len(sites), n)
		}
		before = e.Statements()
		for _, site := range sites {
			secs, err1 := l.Sites.SectionsBySite.Load(ctx, site)()
			groups, err2 := l.Sites.GroupsBySite.Load(ctx, site)()
			sss, err3 := l.Sites.SiteSpacesBySite.Load(ctx, site)()
			if err1 != nil || err2 != nil || err3 != nil {
				t.Fatal(err1, err2, err3)
			}
			wantSecs, _ := e.DB.Client.SiteSection.Query().Where(sitesection.SiteID(site)).All(ctx)
			wantGroups, _ := e.DB.Client.SiteSectionGroup.Query().Where(sitesectiongroup.SiteID(site)).All(ctx)
			wantSS, _ := e.DB.Client.SiteSpace.Query().Where(sitespace.SiteID(site)).All(ctx)
			same(t, "sections", secs, wantSecs)
			same(t, "groups", groups, wantGroups)
			same(t, "site spaces", sss, wantSS)
			if site != empty && (len(secs) != 2 || len(groups) != 2 || len(sss) != 3) {
				t.Errorf("site %s: %d sections, %d groups, %d site spaces; want 2, 2, 3", site, len(secs), len(groups), len(sss))
			}
		}
		// The ent queries above are the only statements since.
		if n := e.Statements() - before; n != int64(3*len(sites)) {
			t.Errorf("loads after FetchStructures sent %d statements of their own", n-int64(3*len(sites)))
		}
	})
}

// With links, the same one statement reads the sites' share links too, as
// ent reads them (the key included), and no site's structure again.
func TestFetchStructuresWithShareLinks(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		call := restCall(t, e, team.Admin.Token)
		base := "/v1/orgs/" + team.Org.ID + "/sites/"
		shared := call("POST", "/v1/orgs/"+team.Org.ID+"/sites", map[string]any{"title": "Shared", "visibility": "share-link"}, http.StatusCreated)["id"].(string)
		call("POST", base+shared+"/share-links", map[string]any{"name": "Reviewers"}, http.StatusCreated)
		off := call("POST", base+shared+"/share-links", map[string]any{"name": "Old"}, http.StatusCreated)["id"].(string)
		call("PATCH", base+shared+"/share-links/"+off, map[string]any{"active": false}, http.StatusOK)
		plain := call("POST", "/v1/orgs/"+team.Org.ID+"/sites", map[string]any{"title": "Plain"}, http.StatusCreated)["id"].(string)

		l := loaders.New(e.DB.Client)
		ctx := loaders.With(context.Background(), l)
		before := e.Statements()
		if err := l.Sites.FetchStructures(ctx, []string{shared, plain}, true); err != nil {
			t.Fatal(err)
		}
		if n := e.Statements() - before; n != 1 {
			t.Errorf("FetchStructures with links: %d statements, want 1", n)
		}
		before = e.Statements()
		for _, site := range []string{shared, plain} {
			links, err := l.Sites.ShareLinksBySite.Load(ctx, site)()
			if err != nil {
				t.Fatal(err)
			}
			want, _ := e.DB.Client.SiteShareLink.Query().Where(sitesharelink.SiteID(site)).All(ctx)
			same(t, "share links", links, want)
			keys := func(list []*ent.SiteShareLink) string {
				var out []string
				for _, x := range list {
					out = append(out, fmt.Sprint(x.ID, x.Key, x.Active))
				}
				sort.Strings(out)
				return strings.Join(out, ",")
			}
			if keys(links) != keys(want) {
				t.Errorf("share links of %s: %s, want %s", site, keys(links), keys(want))
			}
		}
		if n := e.Statements() - before; n != 2 {
			t.Errorf("loads after FetchStructures sent %d statements of their own", n-2)
		}
		// A second read with links finds every list kept and sends nothing.
		before = e.Statements()
		if err := l.Sites.FetchStructures(ctx, []string{shared, plain}, true); err != nil {
			t.Fatal(err)
		}
		if n := e.Statements() - before; n != 0 {
			t.Errorf("FetchStructures of kept sites: %d statements, want 0", n)
		}
	})
}

// restCall returns a function that sends a REST request with tok and
// decodes its answer, failing the test on another status than want.
func restCall(t *testing.T, e *testenv.Env, tok string) func(method, path string, body any, want int) map[string]any {
	return func(method, path string, body any, want int) map[string]any {
		t.Helper()
		r := e.Do(tok, method, path, body)
		if r.Status != want {
			t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
		}
		var v map[string]any
		_ = json.Unmarshal(r.Body, &v)
		return v
	}
}

// same compares entities by their JSON (every field; the unexported client
// configuration aside), in order of their JSON.
func same[T, U any](t *testing.T, what string, got []T, want []U) {
	t.Helper()
	if g, w := jsonOf(t, got), jsonOf(t, want); g != w {
		t.Errorf("%s:\n got %s\nwant %s", what, g, w)
	}
}
