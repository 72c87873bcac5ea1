package rest_test

import (
	"context"
	"net/url"
	"sort"
	"strings"
	"testing"

	"quire/ent/sitesection"
	"quire/ent/sitesectiongroup"
	"quire/ent/sitesharelink"
	"quire/ent/sitespace"
	"quire/internal/testing/testenv"
)

// ---- delete, publish, share links ----

func TestSiteDeleteCascade(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		ctx := context.Background()
		a, b, c := f.space(t, "Alpha"), f.space(t, "Beta"), f.space(t, "Gamma")
		id := f.site(t, map[string]any{"title": "Doomed", "spaces": []string{a}})["id"].(string)
		keep := f.site(t, map[string]any{"title": "Kept", "spaces": []string{a}})["id"].(string)
		sec := f.section(t, id, b, "Second")["id"].(string)
		f.siteSpace(t, id, c, sec)
		f.do(t, "POST", f.path(id, "section-groups"), map[string]any{"title": "Group", "sections": []string{sec}}, 201)
		f.do(t, "POST", f.path(id, "share-links"), map[string]any{"name": "Preview"}, 201)
		f.do(t, "PUT", f.path(id, "customization"), map[string]any{"styling": map[string]any{"theme": "bold"}}, 200)

		count := func() (secs, groups, sss, links int) {
			t.Helper()
			var err error
			if secs, err = e.Client().SiteSection.Query().Where(sitesection.SiteID(id)).Count(ctx); err != nil {
				t.Fatal(err)
			}
			if groups, err = e.Client().SiteSectionGroup.Query().Where(sitesectiongroup.SiteID(id)).Count(ctx); err != nil {
				t.Fatal(err)
			}
			if sss, err = e.Client().SiteSpace.Query().Where(sitespace.SiteID(id)).Count(ctx); err != nil {
				t.Fatal(err)
			}
			if links, err = e.Client().SiteShareLink.Query().Where(sitesharelink.SiteID(id)).Count(ctx); err != nil {
				t.Fatal(err)
			}
			return
		}
		if s, g, ss, l := count(); s != 2 || g != 1 || ss != 3 || l != 1 {
			t.Fatalf("before delete: %d sections, %d groups, %d site spaces, %d share links", s, g, ss, l)
		}

		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(id), nil), 205, "delete site")
		if s, g, ss, l := count(); s+g+ss+l != 0 {
			t.Errorf("after delete: %d sections, %d groups, %d site spaces, %d share links remain", s, g, ss, l)
		}
		sitErr(t, e.Do(f.tok, "GET", f.path(id), nil), 404, "", "get deleted site")
		sitErr(t, e.Do(f.tok, "GET", f.path(id, "structure"), nil), 404, "", "structure of deleted site")
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(id), nil), 204, "delete again")
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path("nope"), nil), 204, "delete unknown site")
		if got := sitIDs(f.do(t, "GET", sitsPath(f.org), nil, 200)); len(got) != 1 || got[0] != keep {
			t.Errorf("sites after delete: %v", got)
		}
		// The spaces themselves stay, undeleted, and still serve the other site.
		for _, sp := range []string{a, b, c} {
			v := f.do(t, "GET", "/v1/spaces/"+sp, nil, 200)
			if v["deletedAt"] != nil {
				t.Errorf("space %s deletedAt %v", sp, v["deletedAt"])
			}
		}
		if _, out := f.outline(t, keep); out != "Alpha" {
			t.Errorf("other site's structure %q", out)
		}
	})
}

func TestSitePublish(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a, b, c := f.space(t, "Alpha"), f.space(t, "Beta"), f.space(t, "Gamma")
		st := f.site(t, map[string]any{"title": "Launch", "spaces": []string{a, b}})
		id := st["id"].(string)
		base := e.URL + "/s/" + f.org + "/launch"

		noPublished := func(what string) {
			t.Helper()
			v := f.do(t, "GET", f.path(id), nil, 200)
			if v["published"] != false || sitStr(v, "urls", "published") != "" {
				t.Errorf("%s: published %v urls %v", what, v["published"], v["urls"])
			}
			for _, ss := range f.do(t, "GET", f.path(id, "site-spaces"), nil, 200)["items"].([]any) {
				if sitStr(ss, "urls", "published") != "" {
					t.Errorf("%s: site space has a published URL: %v", what, testenv.Path(ss, "urls"))
				}
			}
		}
		noPublished("new site")

		p := f.do(t, "POST", f.path(id, "publish"), nil, 200)
		sitCheckSite(t, p, "published site")
		if p["published"] != true || sitStr(p, "urls", "published") != base {
			t.Errorf("publish: published %v urls %v, want %s", p["published"], p["urls"], base)
		}
		if v := f.do(t, "GET", f.path(id), nil, 200); v["published"] != true || sitStr(v, "urls", "published") != base {
			t.Errorf("get after publish: %v %v", v["published"], v["urls"])
		}
		// Root site spaces: the default at the site URL, the others below it.
		ss := f.do(t, "GET", f.path(id, "site-spaces"), nil, 200)
		if sitStr(ss, "items", 0, "urls", "published") != base || sitStr(ss, "items", 1, "urls", "published") != base+"/beta" {
			t.Errorf("site space URLs %v %v", testenv.Path(ss, "items", 0, "urls"), testenv.Path(ss, "items", 1, "urls"))
		}
		if testenv.Path(ss, "items", 0, "default") != true || testenv.Path(ss, "items", 1, "default") != false {
			t.Errorf("default flags: %v %v", testenv.Path(ss, "items", 0, "default"), testenv.Path(ss, "items", 1, "default"))
		}
		// With sections: the default section at the site URL.
		f.section(t, id, c, "Reference")
		secs := f.do(t, "GET", f.path(id, "sections"), nil, 200)
		if sitStr(secs, "items", 0, "urls", "published") != base || sitStr(secs, "items", 1, "urls", "published") != base+"/reference" {
			t.Errorf("section URLs %v %v", testenv.Path(secs, "items", 0, "urls"), testenv.Path(secs, "items", 1, "urls"))
		}
		if sitStr(secs, "items", 1, "siteSpaces", 0, "urls", "published") != base+"/reference" {
			t.Errorf("default site space of a section: %v", testenv.Path(secs, "items", 1, "siteSpaces", 0, "urls"))
		}
		if sitStr(secs, "items", 0, "siteSpaces", 1, "urls", "published") != base+"/beta" {
			t.Errorf("second site space of the default section: %v", testenv.Path(secs, "items", 0, "siteSpaces", 1, "urls"))
		}
		// Publishing twice is fine; a custom hostname changes the URL.
		f.do(t, "POST", f.path(id, "publish"), nil, 200)
		p = f.do(t, "PATCH", f.path(id), map[string]any{"hostname": "docs.acme.example"}, 200)
		if sitStr(p, "urls", "published") != "https://docs.acme.example" {
			t.Errorf("published URL with hostname: %v", p["urls"])
		}
		f.do(t, "PATCH", f.path(id), map[string]any{"hostname": nil}, 200)
		if got := sitIDs(f.do(t, "GET", sitsPath(f.org)+"?published=true", nil, 200)); len(got) != 1 || got[0] != id {
			t.Errorf("published filter %v", got)
		}

		u := f.do(t, "POST", f.path(id, "unpublish"), nil, 200)
		sitCheckSite(t, u, "unpublished site")
		if u["published"] != false || sitStr(u, "urls", "published") != "" {
			t.Errorf("unpublish: %v %v", u["published"], u["urls"])
		}
		noPublished("after unpublish")
		f.do(t, "POST", f.path(id, "unpublish"), nil, 200)
		sitErr(t, e.Do(f.tok, "POST", f.path("nope", "publish"), nil), 404, "", "publish unknown site")
	})
}

func TestSiteShareLinks(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a, b := f.space(t, "Alpha"), f.space(t, "Beta")
		id := f.site(t, map[string]any{"title": "Secret", "visibility": "share-link", "spaces": []string{a}})["id"].(string)
		sec := f.section(t, id, b, "Reference")["id"].(string)
		f.do(t, "POST", f.path(id, "publish"), nil, 200)

		// CRUD.
		r := e.Do(f.tok, "POST", f.path(id, "share-links"), map[string]any{"name": "Partners"})
		link := sitWant(t, r, 201, "create share link")
		sitCheckShareLink(t, link, "share link")
		if link["name"] != "Partners" || link["active"] != true {
			t.Errorf("share link %v", link)
		}
		if loc := r.Header.Get("Location"); !strings.HasSuffix(loc, f.path(id, "share-links", link["id"].(string))) {
			t.Errorf("Location %q", loc)
		}
		key := sitShareKey(t, link)
		base := e.URL + "/s/" + f.org + "/secret"
		if sitStr(link, "urls", "published") != base+"/~share/"+key {
			t.Errorf("share link URL %q", sitStr(link, "urls", "published"))
		}
		second := f.do(t, "POST", f.path(id, "share-links"), map[string]any{"name": ""}, 201)
		if sitShareKey(t, second) == key {
			t.Errorf("two share links share a key")
		}
		list := f.do(t, "GET", f.path(id, "share-links"), nil, 200)
		if got := sitIDs(list); len(got) != 2 || got[0] != link["id"] || list["count"] != 2.0 {
			t.Errorf("share links %v", list)
		}
		for _, it := range list["items"].([]any) {
			sitCheckShareLink(t, it.(map[string]any), "listed share link")
		}
		p := f.do(t, "PATCH", f.path(id, "share-links", link["id"].(string)), map[string]any{"name": "Partners 2"}, 200)
		if p["name"] != "Partners 2" || p["active"] != true || sitShareKey(t, p) != key {
			t.Errorf("patched name: %v", p)
		}
		sitErr(t, e.Do(f.tok, "PATCH", f.path(id, "share-links", link["id"].(string)), map[string]any{}), 400, "", "empty patch")
		sitErr(t, e.Do(f.tok, "PATCH", f.path(id, "share-links", link["id"].(string)), map[string]any{"active": "no"}), 400, "active", "bad active")
		sitErr(t, e.Do(f.tok, "PATCH", f.path(id, "share-links", "nope"), map[string]any{"name": "x"}), 404, "", "unknown share link")

		// Visibility by key.
		withKey := func(k string) string { return "?shareKey=" + url.QueryEscape(k) }
		for _, tail := range [][]string{nil, {"published"}, {"structure"}, {"sections"}, {"site-spaces"}} {
			p := f.path(id, tail...)
			sitErr(t, e.Do(f.tok, "GET", p+withKey("wrong-key"), nil), 404, "", "wrong key on "+p)
			sitWant(t, e.Do(f.tok, "GET", p+withKey(key), nil), 200, "right key on "+p)
			sitWant(t, e.Do(f.tok, "GET", p, nil), 200, "no key on "+p)
		}
		shared := base + "/~share/" + key
		v := f.do(t, "GET", f.path(id)+withKey(key), nil, 200)
		if sitStr(v, "urls", "published") != shared {
			t.Errorf("site with key: urls %v, want %s", v["urls"], shared)
		}
		v = f.do(t, "GET", f.path(id), nil, 200)
		if sitStr(v, "urls", "published") != "" {
			t.Errorf("site without key shows urls.published %v", v["urls"])
		}
		secs := f.do(t, "GET", f.path(id, "sections")+withKey(key), nil, 200)
		if got := sitStr(secs, "items", 1, "urls", "published"); got != shared+"/reference" {
			t.Errorf("section URL with key %q", got)
		}
		if got := sitStr(secs, "items", 1, "siteSpaces", 0, "urls", "published"); got != shared+"/reference" {
			t.Errorf("site space URL with key in section %q", got)
		}
		ss := f.do(t, "GET", f.path(id, "site-spaces")+withKey(key), nil, 200)
		for _, it := range ss["items"].([]any) {
			if u := sitStr(it, "urls", "published"); !strings.HasPrefix(u, shared) {
				t.Errorf("site space URL with key %q", u)
			}
		}
		ss = f.do(t, "GET", f.path(id, "site-spaces"), nil, 200)
		for _, it := range ss["items"].([]any) {
			if u := sitStr(it, "urls", "published"); u != "" {
				t.Errorf("site space URL without key %q", u)
			}
		}
		pub := f.do(t, "GET", f.path(id, "published")+withKey(key), nil, 200)
		if sitStr(pub, "site", "urls", "published") != shared {
			t.Errorf("published profile with key: %v", testenv.Path(pub, "site", "urls"))
		}
		if sitStr(pub, "structure", "structure", 0, "urls", "published") != shared {
			t.Errorf("published structure with key: %v", testenv.Path(pub, "structure", "structure", 0, "urls"))
		}
		st := f.do(t, "GET", f.path(id, "structure")+withKey(key), nil, 200)
		if sitStr(st, "structure", 1, "urls", "published") != shared+"/reference" {
			t.Errorf("structure with key: %v", testenv.Path(st, "structure", 1, "urls"))
		}

		// A deactivated link's key no longer works; the other still does.
		p = f.do(t, "PATCH", f.path(id, "share-links", link["id"].(string)), map[string]any{"active": false}, 200)
		if p["active"] != false || p["name"] != "Partners 2" {
			t.Errorf("deactivated: %v", p)
		}
		sitErr(t, e.Do(f.tok, "GET", f.path(id)+withKey(key), nil), 404, "", "inactive key")
		f.do(t, "GET", f.path(id)+withKey(sitShareKey(t, second)), nil, 200)
		f.do(t, "PATCH", f.path(id, "share-links", link["id"].(string)), map[string]any{"active": true}, 200)
		f.do(t, "GET", f.path(id)+withKey(key), nil, 200)

		// On a public site the key is ignored.
		f.do(t, "PATCH", f.path(id), map[string]any{"visibility": "public"}, 200)
		v = f.do(t, "GET", f.path(id)+withKey("wrong-key"), nil, 200)
		if sitStr(v, "urls", "published") != base {
			t.Errorf("public site urls %v", v["urls"])
		}
		f.do(t, "PATCH", f.path(id), map[string]any{"visibility": "share-link"}, 200)

		// Delete.
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(id, "share-links", link["id"].(string)), nil), 205, "delete share link")
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(id, "share-links", link["id"].(string)), nil), 204, "delete share link again")
		sitErr(t, e.Do(f.tok, "GET", f.path(id)+withKey(key), nil), 404, "", "deleted key")
		if got := sitIDs(f.do(t, "GET", f.path(id, "share-links"), nil, 200)); len(got) != 1 || got[0] != second["id"] {
			t.Errorf("share links after delete %v", got)
		}
		_ = sec
	})
}

// ---- published profile ----

func TestSitePublishedProfile(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a, b, c := f.space(t, "Alpha"), f.space(t, "Beta"), f.space(t, "Gamma")
		id := f.site(t, map[string]any{"title": "Profile", "spaces": []string{a, b}})["id"].(string)
		f.do(t, "POST", f.path(id, "publish"), nil, 200)
		f.do(t, "PUT", f.path(id, "customization"), map[string]any{"styling": map[string]any{"theme": "bold"}}, 200)

		check := func(what, wantType, wantOutline string) map[string]any {
			t.Helper()
			p := f.do(t, "GET", f.path(id, "published"), nil, 200)
			if p["object"] != "published-content-site" {
				t.Errorf("%s: object %v", what, p["object"])
			}
			site, _ := p["site"].(map[string]any)
			sitCheckSite(t, site, what+" site")
			if site["id"] != id || site["published"] != true || sitStr(site, "urls", "published") == "" {
				t.Errorf("%s: site %v", what, site)
			}
			if typ := sitStr(p, "structure", "type"); typ != wantType {
				t.Errorf("%s: structure type %q, want %q", what, typ, wantType)
			}
			items, _ := testenv.Path(p, "structure", "structure").([]any)
			if got := sitOutlineItems(t, items); got != wantOutline {
				t.Errorf("%s: structure %q, want %q", what, got, wantOutline)
			}
			// customizations: the site's, and one entry per site space.
			sitCheckSettings(t, testenv.Path(p, "customizations", "site"), what+" site customization")
			if sitAt(p, "customizations.site.styling.theme") != "bold" {
				t.Errorf("%s: site customization theme %v", what, sitAt(p, "customizations.site.styling.theme"))
			}
			per, _ := testenv.Path(p, "customizations", "siteSpaces").(map[string]any)
			var ids []string
			for _, it := range f.do(t, "GET", f.path(id, "site-spaces"), nil, 200)["items"].([]any) {
				ids = append(ids, sitStr(it, "id"))
			}
			var keys []string
			for k, v := range per {
				keys = append(keys, k)
				sitCheckSettings(t, v, what+" site space customization")
			}
			sort.Strings(ids)
			sort.Strings(keys)
			if strings.Join(keys, ",") != strings.Join(ids, ",") {
				t.Errorf("%s: customizations.siteSpaces keyed by %v, want every site space %v", what, keys, ids)
			}
			if s, ok := p["scripts"].([]any); !ok || len(s) != 0 {
				t.Errorf("%s: scripts = %v, want []", what, p["scripts"])
			}
			return p
		}
		p := check("root site spaces", "siteSpaces", "Alpha Beta")
		// Embedded spaces.
		if sitStr(p, "structure", "structure", 0, "space", "id") != a || sitStr(p, "structure", "structure", 1, "space", "id") != b {
			t.Errorf("embedded spaces %v", testenv.Path(p, "structure", "structure"))
		}

		sec := f.section(t, id, c, "Reference")["id"].(string)
		f.do(t, "POST", f.path(id, "section-groups"), map[string]any{"title": "Group", "sections": []string{sec}}, 201)
		ssC := ""
		for _, it := range f.do(t, "GET", f.path(id, "site-spaces"), nil, 200)["items"].([]any) {
			if sitStr(it, "space", "id") == c {
				ssC = sitStr(it, "id")
			}
		}
		f.do(t, "PATCH", f.path(id, "site-spaces", ssC, "customization"), map[string]any{"styling": map[string]any{"theme": "gradient"}}, 200)
		p = check("sections and groups", "sections", "Profile[Alpha Beta] Group{Reference[Gamma]}")
		if got := sitAt(testenv.Path(p, "customizations", "siteSpaces", ssC), "styling.theme"); got != "gradient" {
			t.Errorf("overridden site space customization theme %v", got)
		}
		if got := sitStr(p, "structure", "structure", 1, "children", 0, "siteSpaces", 0, "space", "id"); got != c {
			t.Errorf("space embedded in a grouped section: %q", got)
		}
		sitErr(t, e.Do(f.tok, "GET", f.path("nope", "published"), nil), 404, "", "profile of unknown site")
	})
}
