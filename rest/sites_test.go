package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"

	"quire/ent/sitesection"
	"quire/ent/sitesectiongroup"
	"quire/ent/sitesharelink"
	"quire/ent/sitespace"
	"quire/internal/testenv"
)

// ---- helpers shared by sites_test.go and sites_structure_test.go (prefix sit) ----

// sitFx is a team with the admin's token at hand, for building sites.
type sitFx struct {
	e    *testenv.Env
	team *testenv.Team
	org  string
	tok  string
}

func sitNew(e *testenv.Env) *sitFx {
	team := e.NewTeam()
	return &sitFx{e: e, team: team, org: team.Org.ID, tok: team.Admin.Token}
}

// sitsPath is the path of an organization's sites.
func sitsPath(orgID string) string { return "/v1/orgs/" + orgID + "/sites" }

// sitPath is the path of a site of an organization, or below it.
func sitPath(orgID, siteID string, tail ...string) string {
	p := sitsPath(orgID) + "/" + siteID
	for _, t := range tail {
		p += "/" + t
	}
	return p
}

func (f *sitFx) path(siteID string, tail ...string) string { return sitPath(f.org, siteID, tail...) }

// sitWant fails the test unless r has the status, and returns its JSON.
func sitWant(t *testing.T, r *testenv.Response, status int, what string) map[string]any {
	t.Helper()
	if r.Status != status {
		t.Fatalf("%s: status %d, want %d; body %s", what, r.Status, status, r.Body)
	}
	return r.JSON()
}

// sitErr checks an error response: status, the documented error shape and,
// when given, that the message names field (or holds the given text).
func sitErr(t *testing.T, r *testenv.Response, status int, field, what string) {
	t.Helper()
	if r.Status != status {
		t.Errorf("%s: status %d, want %d; body %s", what, r.Status, status, r.Body)
		return
	}
	v := r.JSON()
	if len(v) != 1 {
		t.Errorf("%s: body is not {\"error\":...}: %s", what, r.Body)
		return
	}
	if code, _ := testenv.Path(v, "error", "code").(float64); int(code) != status {
		t.Errorf("%s: error.code = %v, want %d", what, testenv.Path(v, "error", "code"), status)
	}
	msg, _ := testenv.Path(v, "error", "message").(string)
	if msg == "" {
		t.Errorf("%s: empty error.message; body %s", what, r.Body)
	}
	if field != "" && !strings.Contains(msg, field) {
		t.Errorf("%s: error.message %q does not name %q", what, msg, field)
	}
}

// sitEmpty checks a bodiless response with the status.
func sitEmpty(t *testing.T, r *testenv.Response, status int, what string) {
	t.Helper()
	if r.Status != status || len(r.Body) != 0 {
		t.Errorf("%s: status %d body %q, want %d with an empty body", what, r.Status, r.Body, status)
	}
}

// do sends a request as the admin and checks the status.
func (f *sitFx) do(t *testing.T, method, path string, body any, status int) map[string]any {
	t.Helper()
	return sitWant(t, f.e.Do(f.tok, method, path, body), status, method+" "+path)
}

// space creates a space in the organization and returns its id.
func (f *sitFx) space(t *testing.T, title string) string {
	t.Helper()
	v := f.do(t, "POST", "/v1/orgs/"+f.org+"/spaces", map[string]any{"title": title}, 201)
	return v["id"].(string)
}

// site creates a site and returns its JSON.
func (f *sitFx) site(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	v := f.do(t, "POST", sitsPath(f.org), body, 201)
	sitCheckSite(t, v, "created site")
	return v
}

// section adds a section with a first space and returns its JSON.
func (f *sitFx) section(t *testing.T, siteID, spaceID, title string) map[string]any {
	t.Helper()
	b := map[string]any{"spaceId": spaceID}
	if title != "" {
		b["title"] = title
	}
	v := f.do(t, "POST", f.path(siteID, "sections"), b, 201)
	sitCheckSection(t, v, "added section")
	return v
}

// siteSpace adds a space to a site (to sectionID when not "") and returns
// the site space JSON.
func (f *sitFx) siteSpace(t *testing.T, siteID, spaceID, sectionID string) map[string]any {
	t.Helper()
	b := map[string]any{"spaceId": spaceID}
	if sectionID != "" {
		b["sectionId"] = sectionID
	}
	v := f.do(t, "POST", f.path(siteID, "site-spaces"), b, 201)
	sitCheckSiteSpace(t, v, "added site space")
	return v
}

// outline returns the site's structure type and a compact rendering of it:
// site spaces by title, sections as Title[site spaces], groups as
// Title{children}; it also checks the shape of every item.
func (f *sitFx) outline(t *testing.T, siteID string) (string, string) {
	t.Helper()
	v := f.do(t, "GET", f.path(siteID, "structure"), nil, 200)
	typ, _ := v["type"].(string)
	items, ok := v["structure"].([]any)
	if !ok {
		t.Fatalf("structure is not an array: %v", v)
	}
	return typ, sitOutlineItems(t, items)
}

func sitOutlineItems(t *testing.T, items []any) string {
	t.Helper()
	var parts []string
	for _, it := range items {
		m, _ := it.(map[string]any)
		switch m["object"] {
		case "site-space":
			sitCheckSiteSpace(t, m, "structure item")
			parts = append(parts, m["title"].(string))
		case "site-section":
			sitCheckSection(t, m, "structure item")
			ss, _ := m["siteSpaces"].([]any)
			parts = append(parts, m["title"].(string)+"["+sitOutlineItems(t, ss)+"]")
		case "site-section-group":
			sitCheckGroup(t, m, "structure item")
			ch, _ := m["children"].([]any)
			parts = append(parts, m["title"].(string)+"{"+sitOutlineItems(t, ch)+"}")
		default:
			t.Errorf("structure item with unexpected object: %v", m)
		}
	}
	return strings.Join(parts, " ")
}

// sitIDs returns the ids of a list response's items.
func sitIDs(v map[string]any) []string {
	items, _ := v["items"].([]any)
	out := make([]string, 0, len(items))
	for _, it := range items {
		id, _ := testenv.Path(it, "id").(string)
		out = append(out, id)
	}
	return out
}

func sitStr(v any, keys ...any) string {
	s, _ := testenv.Path(v, keys...).(string)
	return s
}

// sitHas checks that every key is present (and not null) in v.
func sitHas(t *testing.T, what string, v map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if x, ok := v[k]; !ok || x == nil {
			t.Errorf("%s: required field %q missing in %v", what, k, v)
		}
	}
}

func sitObject(t *testing.T, what string, v map[string]any, object string) {
	t.Helper()
	if v["object"] != object {
		t.Errorf("%s: object = %v, want %q", what, v["object"], object)
	}
}

// sitCheckSite checks the documented Site object's required fields.
func sitCheckSite(t *testing.T, v map[string]any, what string) {
	t.Helper()
	sitObject(t, what, v, "site")
	sitHas(t, what, v, "id", "type", "title", "visibility", "published", "createdAt", "siteSpaces", "features", "agentsContext", "urls")
	if _, ok := v["published"].(bool); !ok {
		t.Errorf("%s: published = %v, want a boolean", what, v["published"])
	}
	if _, ok := v["siteSpaces"].(float64); !ok {
		t.Errorf("%s: siteSpaces = %v, want a number", what, v["siteSpaces"])
	}
	if _, ok := v["features"].([]any); !ok {
		t.Errorf("%s: features = %v, want an array", what, v["features"])
	}
	if sitStr(v, "urls", "location") == "" || sitStr(v, "urls", "app") == "" {
		t.Errorf("%s: urls = %v, want location and app", what, v["urls"])
	}
	if loc := sitStr(v, "urls", "location"); !strings.HasSuffix(loc, "/v1/orgs/"+sitOrgOf(loc)+"/sites/"+sitStr(v, "id")) {
		t.Errorf("%s: urls.location = %q does not name the site", what, loc)
	}
}

func sitOrgOf(location string) string {
	_, after, _ := strings.Cut(location, "/v1/orgs/")
	org, _, _ := strings.Cut(after, "/")
	return org
}

// sitCheckSection checks the documented SiteSection object.
func sitCheckSection(t *testing.T, v map[string]any, what string) {
	t.Helper()
	sitObject(t, what, v, "site-section")
	sitHas(t, what, v, "id", "title", "path", "siteSpaces", "urls")
	ss, ok := v["siteSpaces"].([]any)
	if !ok {
		t.Errorf("%s: siteSpaces = %v, want an array", what, v["siteSpaces"])
	}
	for _, s := range ss {
		m, _ := s.(map[string]any)
		sitCheckSiteSpace(t, m, what+" site space")
		if sitStr(m, "section") != sitStr(v, "id") {
			t.Errorf("%s: site space %v has section %q, want %q", what, m["id"], sitStr(m, "section"), sitStr(v, "id"))
		}
	}
	if _, ok := v["urls"].(map[string]any); !ok {
		t.Errorf("%s: urls = %v, want an object", what, v["urls"])
	}
}

// sitCheckSiteSpace checks the documented SiteSpace object.
func sitCheckSiteSpace(t *testing.T, v map[string]any, what string) {
	t.Helper()
	sitObject(t, what, v, "site-space")
	sitHas(t, what, v, "id", "space", "title", "path", "urls")
	sp, _ := v["space"].(map[string]any)
	if sp["object"] != "space" || sitStr(sp, "id") == "" {
		t.Errorf("%s: space = %v, want an embedded space object", what, v["space"])
	}
	if sp != nil && sp["title"] != v["title"] {
		t.Errorf("%s: title %v, want the space's title %v", what, v["title"], sp["title"])
	}
	if _, ok := v["urls"].(map[string]any); !ok {
		t.Errorf("%s: urls = %v, want an object", what, v["urls"])
	}
}

// sitCheckGroup checks the documented SiteSectionGroup object.
func sitCheckGroup(t *testing.T, v map[string]any, what string) {
	t.Helper()
	sitObject(t, what, v, "site-section-group")
	sitHas(t, what, v, "id", "title", "sections", "children")
	secs, ok1 := v["sections"].([]any)
	children, ok2 := v["children"].([]any)
	if !ok1 || !ok2 {
		t.Errorf("%s: sections/children are not arrays: %v", what, v)
		return
	}
	// sections are the section children, in the same order.
	var want []string
	for _, c := range children {
		if testenv.Path(c, "object") == "site-section" {
			want = append(want, sitStr(c, "id"))
		}
	}
	var got []string
	for _, s := range secs {
		m, _ := s.(map[string]any)
		sitCheckSection(t, m, what+" section")
		got = append(got, sitStr(m, "id"))
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%s: sections %v, want the section children %v", what, got, want)
	}
}

// sitCheckShareLink checks the documented ShareLink object.
func sitCheckShareLink(t *testing.T, v map[string]any, what string) {
	t.Helper()
	sitObject(t, what, v, "share-link")
	sitHas(t, what, v, "id", "createdAt", "urls")
	if sitStr(v, "urls", "published") == "" {
		t.Errorf("%s: urls.published missing: %v", what, v["urls"])
	}
}

// sitShareKey extracts the key from a share link's published URL.
func sitShareKey(t *testing.T, link map[string]any) string {
	t.Helper()
	u := sitStr(link, "urls", "published")
	_, key, ok := strings.Cut(u, "/~share/")
	if !ok || key == "" {
		t.Fatalf("share link URL %q holds no key", u)
	}
	return key
}

// ---- sites: create, list, get, patch ----

func TestSiteCreateGetPatch(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a, b := f.space(t, "Alpha"), f.space(t, "Beta")

		// Defaults.
		r := e.Do(f.tok, "POST", sitsPath(f.org), map[string]any{})
		def := sitWant(t, r, 201, "create site with defaults")
		sitCheckSite(t, def, "default site")
		if def["type"] != "basic" || def["visibility"] != "public" || def["published"] != false || def["siteSpaces"] != 0.0 {
			t.Errorf("defaults: type %v visibility %v published %v siteSpaces %v", def["type"], def["visibility"], def["published"], def["siteSpaces"])
		}
		if title, _ := def["title"].(string); len(title) < 2 {
			t.Errorf("default title %q", title)
		}
		if sitStr(def, "urls", "published") != "" {
			t.Errorf("unpublished site has urls.published %v", def["urls"])
		}
		if loc := r.Header.Get("Location"); loc != sitStr(def, "urls", "location") {
			t.Errorf("Location %q, want %q", loc, sitStr(def, "urls", "location"))
		}

		// Everything given, spaces become root site spaces.
		st := f.site(t, map[string]any{"title": "Product Docs", "type": "premium", "visibility": "unlisted", "spaces": []string{a, b}})
		if st["title"] != "Product Docs" || st["type"] != "premium" || st["visibility"] != "unlisted" || st["siteSpaces"] != 2.0 {
			t.Errorf("created site %v", st)
		}
		if st["basename"] != "product-docs" {
			t.Errorf("basename %v, want product-docs", st["basename"])
		}
		id := st["id"].(string)
		typ, out := f.outline(t, id)
		if typ != "siteSpaces" || out != "Alpha Beta" {
			t.Errorf("structure %s %q, want siteSpaces \"Alpha Beta\"", typ, out)
		}
		for _, v := range []string{"share-link", "visitor-auth", "public"} {
			s := f.site(t, map[string]any{"title": "Vis " + v, "visibility": v})
			if s["visibility"] != v {
				t.Errorf("visibility %v, want %s", s["visibility"], v)
			}
		}

		// Get.
		got := f.do(t, "GET", f.path(id), nil, 200)
		sitCheckSite(t, got, "get site")
		if got["id"] != id || got["title"] != "Product Docs" || got["createdAt"] != st["createdAt"] {
			t.Errorf("get site %v", got)
		}
		sitErr(t, e.Do(f.tok, "GET", f.path("nope"), nil), 404, "", "unknown site")
		// A site addressed under another organization's path is not found.
		other := f.team.Outsider
		sitErr(t, e.Do(other.Token, "GET", sitPath(f.team.Other.ID, id), nil), 404, "", "site under the other org's path")

		// Patch: each field; omitted fields unchanged.
		p := f.do(t, "PATCH", f.path(id), map[string]any{"title": "Renamed Docs"}, 200)
		sitCheckSite(t, p, "patched site")
		if p["title"] != "Renamed Docs" || p["visibility"] != "unlisted" || p["type"] != "premium" || p["basename"] != "product-docs" {
			t.Errorf("patch title: %v", p)
		}
		p = f.do(t, "PATCH", f.path(id), map[string]any{"visibility": "share-link", "agentsContext": "excluded", "adaptiveContent": map[string]any{"enabled": true}, "basename": "docs-v2"}, 200)
		if p["visibility"] != "share-link" || p["agentsContext"] != "excluded" || testenv.Path(p, "adaptiveContent", "enabled") != true || p["basename"] != "docs-v2" || p["title"] != "Renamed Docs" {
			t.Errorf("patch several: %v", p)
		}
		p = f.do(t, "PATCH", f.path(id), map[string]any{"agentsContext": "included", "adaptiveContent": map[string]any{"enabled": false}}, 200)
		if p["agentsContext"] != "included" || testenv.Path(p, "adaptiveContent", "enabled") != false {
			t.Errorf("patch back: %v", p)
		}
		p = f.do(t, "PATCH", f.path(id), map[string]any{"proxy": "example.com/docs", "hostname": "docs.example.com"}, 200)
		if sitStr(p, "proxy", "origin") != "example.com/docs" || p["hostname"] != "docs.example.com" {
			t.Errorf("patch proxy/hostname: proxy %v hostname %v", p["proxy"], p["hostname"])
		}
		p = f.do(t, "PATCH", f.path(id), map[string]any{"proxy": nil, "hostname": nil}, 200)
		if _, ok := p["proxy"]; ok {
			t.Errorf("proxy null did not remove it: %v", p["proxy"])
		}
		if _, ok := p["hostname"]; ok {
			t.Errorf("hostname null did not remove it: %v", p["hostname"])
		}
		got = f.do(t, "GET", f.path(id), nil, 200)
		if got["title"] != "Renamed Docs" || got["basename"] != "docs-v2" || got["visibility"] != "share-link" {
			t.Errorf("get after patches: %v", got)
		}
		// The same basename again is fine (it is the site's own).
		f.do(t, "PATCH", f.path(id), map[string]any{"basename": "docs-v2"}, 200)
	})
}

func TestSiteList(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a := f.space(t, "Alpha")
		s1 := f.site(t, map[string]any{"title": "Alpha Docs", "spaces": []string{a}})["id"].(string)
		s2 := f.site(t, map[string]any{"title": "Beta Guide", "type": "premium"})["id"].(string)
		s3 := f.site(t, map[string]any{"title": "internal alpha", "type": "ultimate"})["id"].(string)
		f.do(t, "POST", f.path(s2, "publish"), nil, 200)

		list := func(query string) map[string]any {
			t.Helper()
			v := f.do(t, "GET", sitsPath(f.org)+query, nil, 200)
			items, _ := v["items"].([]any)
			for _, it := range items {
				sitCheckSite(t, it.(map[string]any), "listed site")
			}
			return v
		}
		for _, c := range []struct {
			query string
			want  []string
		}{
			{"", []string{s1, s2, s3}},
			{"?title=ALPHA", []string{s1, s3}},
			{"?title=" + url.QueryEscape("beta g"), []string{s2}},
			{"?space=" + a, []string{s1}},
			{"?published=true", []string{s2}},
			{"?published=false", []string{s1, s3}},
			{"?type=basic", []string{s1}},
			{"?type=basic&type=premium", []string{s1, s2}},
			{"?type=ultimate&title=alpha", []string{s3}},
		} {
			v := list(c.query)
			if got := sitIDs(v); strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("list %q: %v, want %v", c.query, got, c.want)
			}
			if v["count"] != float64(len(c.want)) {
				t.Errorf("list %q: count %v, want %d", c.query, v["count"], len(c.want))
			}
		}
		// Paging.
		p1 := list("?limit=2")
		if len(sitIDs(p1)) != 2 || p1["count"] != 3.0 || sitStr(p1, "next", "page") == "" {
			t.Fatalf("first page %v", p1)
		}
		p2 := list("?limit=2&page=" + url.QueryEscape(sitStr(p1, "next", "page")))
		if got := sitIDs(p2); len(got) != 1 || got[0] != s3 {
			t.Errorf("second page %v", got)
		}
		if _, ok := p2["next"]; ok {
			t.Errorf("last page has next: %v", p2["next"])
		}
		// Bad filters.
		sitErr(t, e.Do(f.tok, "GET", sitsPath(f.org)+"?type=gold", nil), 400, "type", "unknown type")
		sitErr(t, e.Do(f.tok, "GET", sitsPath(f.org)+"?published=maybe", nil), 400, "published", "bad published")
		sitErr(t, e.Do(f.tok, "GET", sitsPath(f.org)+"?limit=1001", nil), 400, "limit", "bad limit")
		sitErr(t, e.Do(f.tok, "GET", sitsPath(f.org)+"?page=zzz", nil), 400, "page", "bad page")
		// Members with a role read them; another organization's list is its own.
		if got := sitIDs(sitWant(t, e.Do(f.team.Reader.Token, "GET", sitsPath(f.org), nil), 200, "reader list")); len(got) != 3 {
			t.Errorf("reader sees %v", got)
		}
		if got := sitIDs(sitWant(t, e.Do(f.team.Outsider.Token, "GET", sitsPath(f.team.Other.ID), nil), 200, "outsider own list")); len(got) != 0 {
			t.Errorf("other org lists %v", got)
		}
	})
}

// ---- validation ----

func TestSiteValidation(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a, b, c := f.space(t, "Alpha"), f.space(t, "Beta"), f.space(t, "Gamma")
		id := f.site(t, map[string]any{"title": "Main", "spaces": []string{a}})["id"].(string)
		f.site(t, map[string]any{"title": "Taken"})
		sec := f.section(t, id, b, "Second")
		secID := sec["id"].(string)
		ssB := testenv.Path(sec, "siteSpaces", 0, "id").(string)
		ssC := f.siteSpace(t, id, c, secID)["id"].(string)
		// The other section (gathered from the root) holds Alpha.
		secs := f.do(t, "GET", f.path(id, "sections"), nil, 200)
		firstSec := sitStr(secs, "items", 0, "id")
		ssA := sitStr(secs, "items", 0, "siteSpaces", 0, "id")
		foreign := sitStr(sitWant(t, e.Do(f.team.Outsider.Token, "POST", "/v1/orgs/"+f.team.Other.ID+"/spaces", map[string]any{"title": "Foreign"}), 201, "foreign space"), "id")

		long := func(n int) string { return strings.Repeat("a", n) }
		syntax := `visitor.claims.plan === "pro"`
		multiline := "visitor.claims.plan == \"pro\" &&\n  visitor.claims.("
		for _, c := range []struct {
			name, method, path string
			body               any
			field              string
		}{
			// create site
			{"create title too short", "POST", sitsPath(f.org), map[string]any{"title": "x"}, "title"},
			{"create title too long", "POST", sitsPath(f.org), map[string]any{"title": long(129)}, "title"},
			{"create title wrong type", "POST", sitsPath(f.org), map[string]any{"title": 5}, "title"},
			{"create bad visibility", "POST", sitsPath(f.org), map[string]any{"visibility": "secret"}, "visibility"},
			{"create bad type", "POST", sitsPath(f.org), map[string]any{"type": "gold"}, "type"},
			{"create spaces not array", "POST", sitsPath(f.org), map[string]any{"spaces": "abc"}, "spaces"},
			{"create unknown space", "POST", sitsPath(f.org), map[string]any{"spaces": []string{"nope"}}, "spaces"},
			{"create space of another org", "POST", sitsPath(f.org), map[string]any{"spaces": []string{foreign}}, "spaces"},
			{"create malformed JSON", "POST", sitsPath(f.org), `{"title":`, "body"},
			{"create array body", "POST", sitsPath(f.org), `[]`, "body"},
			// patch site
			{"patch title too short", "PATCH", f.path(id), map[string]any{"title": "x"}, "title"},
			{"patch title too long", "PATCH", f.path(id), map[string]any{"title": long(129)}, "title"},
			{"patch title null", "PATCH", f.path(id), map[string]any{"title": nil}, "title"},
			{"patch bad visibility", "PATCH", f.path(id), map[string]any{"visibility": "secret"}, "visibility"},
			{"patch bad agentsContext", "PATCH", f.path(id), map[string]any{"agentsContext": "sometimes"}, "agentsContext"},
			{"patch agentsContext null", "PATCH", f.path(id), map[string]any{"agentsContext": nil}, "agentsContext"},
			{"patch proxy without path", "PATCH", f.path(id), map[string]any{"proxy": "example.com"}, "proxy"},
			{"patch proxy with scheme", "PATCH", f.path(id), map[string]any{"proxy": "https://example.com/docs"}, "proxy"},
			{"patch proxy bad tld", "PATCH", f.path(id), map[string]any{"proxy": "example.c/docs"}, "proxy"},
			{"patch hostname uppercase", "PATCH", f.path(id), map[string]any{"hostname": "Docs.Example.com"}, "hostname"},
			{"patch hostname single label", "PATCH", f.path(id), map[string]any{"hostname": "localhost"}, "hostname"},
			{"patch hostname two labels", "PATCH", f.path(id), map[string]any{"hostname": "example.com"}, "hostname"},
			{"patch basename with space", "PATCH", f.path(id), map[string]any{"basename": "Bad Name"}, "basename"},
			{"patch basename double dash", "PATCH", f.path(id), map[string]any{"basename": "a--b"}, "basename"},
			{"patch basename taken", "PATCH", f.path(id), map[string]any{"basename": "taken"}, "basename"},
			{"patch adaptiveContent without enabled", "PATCH", f.path(id), map[string]any{"adaptiveContent": map[string]any{}}, "adaptiveContent.enabled"},
			{"patch adaptiveContent wrong type", "PATCH", f.path(id), map[string]any{"adaptiveContent": "yes"}, "adaptiveContent"},
			{"patch unknown defaultSiteSpace", "PATCH", f.path(id), map[string]any{"defaultSiteSpace": "nope"}, "defaultSiteSpace"},
			{"patch unknown defaultSiteSection", "PATCH", f.path(id), map[string]any{"defaultSiteSection": "nope"}, "defaultSiteSection"},
			{"patch malformed JSON", "PATCH", f.path(id), `{"title" "x"}`, "body"},
			{"patch empty body", "PATCH", f.path(id), "", "body"},
			// sections
			{"add section without space", "POST", f.path(id, "sections"), map[string]any{"title": "Sec"}, "spaceId"},
			{"add section unknown space", "POST", f.path(id, "sections"), map[string]any{"spaceId": "nope"}, "spaceId"},
			{"add section title too short", "POST", f.path(id, "sections"), map[string]any{"spaceId": c, "title": "x"}, "title"},
			{"add section icon too long", "POST", f.path(id, "sections"), map[string]any{"spaceId": c, "icon": long(51)}, "icon"},
			{"add section malformed JSON", "POST", f.path(id, "sections"), `{`, "body"},
			{"section title too short", "PATCH", f.path(id, "sections", secID), map[string]any{"title": "x"}, "title"},
			{"section title too long", "PATCH", f.path(id, "sections", secID), map[string]any{"title": long(129)}, "title"},
			{"section path empty", "PATCH", f.path(id, "sections", secID), map[string]any{"path": ""}, "path"},
			{"section path too long", "PATCH", f.path(id, "sections", secID), map[string]any{"path": long(101)}, "path"},
			{"section path with slash", "PATCH", f.path(id, "sections", secID), map[string]any{"path": "a/b"}, "path"},
			{"section path taken", "PATCH", f.path(id, "sections", secID), map[string]any{"path": sitStr(secs, "items", 0, "path")}, "path"},
			{"section condition syntax", "PATCH", f.path(id, "sections", secID), map[string]any{"condition": syntax}, "condition: syntax error at line 1, column 23"},
			{"section condition multiline syntax", "PATCH", f.path(id, "sections", secID), map[string]any{"condition": multiline}, "condition: syntax error at line 2, column 18"},
			{"section condition unknown name", "PATCH", f.path(id, "sections", secID), map[string]any{"condition": "user.beta"}, "condition"},
			{"section condition too long", "PATCH", f.path(id, "sections", secID), map[string]any{"condition": "visitor.claims.a == \"" + long(1010) + "\""}, "condition: must be at most 1024 characters"},
			{"section icon too long", "PATCH", f.path(id, "sections", secID), map[string]any{"icon": long(51)}, "icon"},
			{"section description too long", "PATCH", f.path(id, "sections", secID), map[string]any{"description": long(257)}, "description"},
			{"section defaultSiteSpace of another section", "PATCH", f.path(id, "sections", secID), map[string]any{"defaultSiteSpace": ssA}, "defaultSiteSpace"},
			{"section title wrong type", "PATCH", f.path(id, "sections", secID), map[string]any{"title": 3}, "title"},
			// site spaces
			{"add site space without space", "POST", f.path(id, "site-spaces"), map[string]any{}, "spaceId"},
			{"add site space unknown section", "POST", f.path(id, "site-spaces"), map[string]any{"spaceId": c, "sectionId": "nope"}, "sectionId"},
			{"add site space unknown space", "POST", f.path(id, "site-spaces"), map[string]any{"spaceId": "nope"}, "spaceId"},
			{"site space path empty", "PATCH", f.path(id, "site-spaces", ssC), map[string]any{"path": ""}, "path"},
			{"site space path too long", "PATCH", f.path(id, "site-spaces", ssC), map[string]any{"path": long(101)}, "path"},
			{"site space path taken in section", "PATCH", f.path(id, "site-spaces", ssC), map[string]any{"path": "beta"}, "path"},
			{"site space condition syntax", "PATCH", f.path(id, "site-spaces", ssC), map[string]any{"condition": multiline}, "condition: syntax error at line 2, column 18"},
			{"site space condition too long", "PATCH", f.path(id, "site-spaces", ssC), map[string]any{"condition": long(1025)}, "condition"},
			{"site space unknown space", "PATCH", f.path(id, "site-spaces", ssC), map[string]any{"spaceId": "nope"}, "spaceId"},
			{"site space hidden wrong type", "PATCH", f.path(id, "site-spaces", ssC), map[string]any{"hidden": "yes"}, "hidden"},
			{"site space malformed JSON", "PATCH", f.path(id, "site-spaces", ssC), `nope`, "body"},
			// groups
			{"group without title", "POST", f.path(id, "section-groups"), map[string]any{}, "title"},
			{"group title empty", "POST", f.path(id, "section-groups"), map[string]any{"title": ""}, "title"},
			{"group title too long", "POST", f.path(id, "section-groups"), map[string]any{"title": long(101)}, "title"},
			{"group icon too long", "POST", f.path(id, "section-groups"), map[string]any{"title": "G", "icon": long(51)}, "icon"},
			{"group unknown parent", "POST", f.path(id, "section-groups"), map[string]any{"title": "G", "parent": "nope"}, "parent"},
			{"group unknown section", "POST", f.path(id, "section-groups"), map[string]any{"title": "G", "sections": []string{"nope"}}, "sections"},
			{"group sections not array", "POST", f.path(id, "section-groups"), map[string]any{"title": "G", "sections": "x"}, "sections"},
			{"add to group without section", "POST", f.path(id, "section-groups", "nope", "sections"), map[string]any{}, "sectionId"},
			// share links
			{"share link without name", "POST", f.path(id, "share-links"), map[string]any{}, "name"},
			{"share link name too long", "POST", f.path(id, "share-links"), map[string]any{"name": long(51)}, "name"},
			// sort
			{"sort without item", "PATCH", f.path(id, "structure", "sort"), map[string]any{"position": map[string]any{}}, "item"},
			{"sort bad item type", "PATCH", f.path(id, "structure", "sort"), map[string]any{"item": map[string]any{"type": "page", "id": secID}}, "item.type"},
			{"sort item without id", "PATCH", f.path(id, "structure", "sort"), map[string]any{"item": map[string]any{"type": "site-section"}}, "item.id"},
			{"sort bad pointer type", "PATCH", f.path(id, "structure", "sort"), map[string]any{"item": map[string]any{"type": "site-section", "id": secID}, "position": map[string]any{"before": map[string]any{"type": "page", "id": firstSec}}}, "position.before.type"},
			{"sort malformed JSON", "PATCH", f.path(id, "structure", "sort"), `{"item":`, "body"},
			// customization
			{"customization bad theme", "PUT", f.path(id, "customization"), map[string]any{"styling": map[string]any{"theme": "neon"}}, "styling.theme"},
			{"customization bad color", "PUT", f.path(id, "customization"), map[string]any{"styling": map[string]any{"primaryColor": map[string]any{"light": "blue", "dark": "#000"}}}, "styling.primaryColor.light"},
			{"customization unknown key", "PUT", f.path(id, "customization"), map[string]any{"colour": map[string]any{}}, "colour"},
			{"customization unknown nested key", "PUT", f.path(id, "customization"), map[string]any{"styling": map[string]any{"sparkle": true}}, "styling.sparkle"},
			{"customization bad locale", "PUT", f.path(id, "customization"), map[string]any{"internationalization": map[string]any{"locale": "xx"}}, "internationalization.locale"},
			{"customization wrong type", "PUT", f.path(id, "customization"), map[string]any{"pdf": map[string]any{"enabled": "yes"}}, "pdf.enabled"},
			{"customization malformed JSON", "PUT", f.path(id, "customization"), `{"styling":`, "body"},
			{"site space customization bad enum", "PATCH", f.path(id, "site-spaces", ssB, "customization"), map[string]any{"styling": map[string]any{"corners": "square"}}, "styling.corners"},
			{"site space customization bad color", "PATCH", f.path(id, "site-spaces", ssB, "customization"), map[string]any{"styling": map[string]any{"dangerColor": map[string]any{"light": "#12", "dark": "#000"}}}, "styling.dangerColor.light"},
			{"site space customization not overridable", "PATCH", f.path(id, "site-spaces", ssB, "customization"), map[string]any{"styling": map[string]any{"font": "Inter"}}, "styling.font"},
			{"site space customization unknown key", "PATCH", f.path(id, "site-spaces", ssB, "customization"), map[string]any{"pageActions": map[string]any{"mcp": false}}, "pageActions"},
			{"site space customization malformed JSON", "PATCH", f.path(id, "site-spaces", ssB, "customization"), `]`, "body"},
			// adaptive schema
			{"adaptive schema missing", "PUT", f.path(id, "adaptive-schema"), map[string]any{}, "jsonSchema"},
			{"adaptive schema not object", "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": "object"}, "jsonSchema"},
			{"adaptive schema invalid draft-07", "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": map[string]any{"type": 5}}, "jsonSchema.type"},
			{"adaptive schema invalid draft-07 nested", "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{"plan": map[string]any{"type": "date"}}}}, "jsonSchema.properties.plan.type"},
			{"adaptive schema other draft", "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": map[string]any{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}}, "jsonSchema.$schema"},
			{"adaptive schema open object", "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": map[string]any{"type": "object", "properties": map[string]any{"plan": map[string]any{"type": "string"}}}}, "jsonSchema.additionalProperties"},
			{"adaptive schema not an object schema", "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": map[string]any{"type": "string"}}, "jsonSchema.type"},
			{"adaptive schema unsigned string", "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{"unsigned": map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{"beta": map[string]any{"type": "string"}}}}}}, "jsonSchema.properties.unsigned.properties.beta.type"},
			{"adaptive schema unsupported keyword", "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{"n": map[string]any{"type": "number", "minimum": 1}}}}, "jsonSchema.properties.n.minimum"},
			{"adaptive schema malformed JSON", "PUT", f.path(id, "adaptive-schema"), `{"jsonSchema": {`, "body"},
		} {
			r := e.Do(f.tok, c.method, c.path, c.body)
			sitErr(t, r, 400, c.field, c.name)
		}

		// Nothing of the above changed the site.
		typ, out := f.outline(t, id)
		if typ != "sections" || out != "Main[Alpha] Second[Beta Gamma]" {
			t.Errorf("structure after failed requests: %s %q", typ, out)
		}
		got := f.do(t, "GET", f.path(id), nil, 200)
		if got["title"] != "Main" || got["visibility"] != "public" || got["basename"] != "main" {
			t.Errorf("site after failed requests: %v", got)
		}
		sitErr(t, e.Do(f.tok, "GET", f.path(id, "adaptive-schema"), nil), 404, "", "schema after failed puts")
		if cust := f.do(t, "GET", f.path(id, "customization"), nil, 200); testenv.Path(cust, "styling", "theme") != "clean" {
			t.Errorf("customization changed: %v", cust["styling"])
		}
		// Limits accepted at their bounds.
		f.do(t, "PATCH", f.path(id, "sections", secID), map[string]any{"title": long(128), "path": long(100), "icon": long(50), "description": long(256),
			"condition": "visitor.claims.a == \"" + long(1024-len("visitor.claims.a == \"\"")) + "\""}, 200)
		f.do(t, "PATCH", f.path(id), map[string]any{"title": long(128)}, 200)
		f.do(t, "PATCH", f.path(id), map[string]any{"title": "ab"}, 200)
		f.do(t, "POST", f.path(id, "share-links"), map[string]any{"name": long(50)}, 201)
		f.do(t, "POST", f.path(id, "section-groups"), map[string]any{"title": long(100)}, 201)
	})
}

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

// ---- customization ----

// sitCustomizationKeys are the keys the documented settings object always
// holds.
var sitCustomizationKeys = []string{
	"styling.theme", "styling.primaryColor.light", "styling.primaryColor.dark",
	"styling.infoColor.light", "styling.infoColor.dark", "styling.successColor.light", "styling.successColor.dark",
	"styling.warningColor.light", "styling.warningColor.dark", "styling.dangerColor.light", "styling.dangerColor.dark",
	"styling.corners", "styling.depth", "styling.links", "styling.font", "styling.monospaceFont",
	"styling.background", "styling.icons", "styling.sidebar.background", "styling.sidebar.list", "styling.search",
	"internationalization.locale", "favicon", "header.preset", "header.links", "footer.groups",
	"themes.default", "themes.toggeable", "pdf.enabled", "feedback.enabled", "ai.mode",
	"advancedCustomization.enabled", "git.showEditLink", "pageActions.externalAI", "pageActions.markdown",
	"pageActions.mcp", "externalLinks.target", "pagination.enabled", "trademark.enabled",
	"privacyPolicy", "socialPreview", "insights.trackingCookie",
}

func sitAt(v any, dotted string) any {
	var keys []any
	for _, k := range strings.Split(dotted, ".") {
		keys = append(keys, k)
	}
	return testenv.Path(v, keys...)
}

// sitCheckSettings checks that settings hold every documented key.
func sitCheckSettings(t *testing.T, v any, what string) {
	t.Helper()
	for _, k := range sitCustomizationKeys {
		if sitAt(v, k) == nil {
			t.Errorf("%s: documented key %s missing", what, k)
		}
	}
}

func TestSiteCustomization(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a, b := f.space(t, "Alpha"), f.space(t, "Beta")
		id := f.site(t, map[string]any{"title": "Styled", "spaces": []string{a, b}})["id"].(string)
		items := f.do(t, "GET", f.path(id, "site-spaces"), nil, 200)["items"].([]any)
		ssA, ssB := sitStr(items[0], "id"), sitStr(items[1], "id")

		def := f.do(t, "GET", f.path(id, "customization"), nil, 200)
		sitCheckSettings(t, def, "default settings")
		for k, want := range map[string]any{
			"styling.theme": "clean", "styling.primaryColor.light": "#346DDB", "styling.corners": "rounded",
			"styling.font": "Inter", "styling.monospaceFont": "IBMPlexMono", "internationalization.locale": "en",
			"header.preset": "default", "themes.default": "light", "themes.toggeable": true, "pdf.enabled": true,
			"feedback.enabled": false, "ai.mode": "search", "externalLinks.target": "self", "insights.trackingCookie": true,
		} {
			if got := sitAt(def, k); got != want {
				t.Errorf("default %s = %v, want %v", k, got, want)
			}
		}
		if l, ok := sitAt(def, "header.links").([]any); !ok || len(l) != 0 {
			t.Errorf("default header.links = %v, want []", sitAt(def, "header.links"))
		}

		// PUT merges the body over the defaults.
		put := f.do(t, "PUT", f.path(id, "customization"), map[string]any{
			"styling":  map[string]any{"theme": "bold", "primaryColor": map[string]any{"light": "#ff0000", "dark": "#00f"}},
			"feedback": map[string]any{"enabled": true},
			"title":    "Styled Docs",
		}, 200)
		sitCheckSettings(t, put, "put settings")
		if sitAt(put, "styling.theme") != "bold" || sitAt(put, "styling.primaryColor.dark") != "#00f" || sitAt(put, "feedback.enabled") != true ||
			sitAt(put, "styling.corners") != "rounded" || sitAt(put, "pdf.enabled") != true || put["title"] != "Styled Docs" {
			t.Errorf("put result %v", put)
		}
		got := f.do(t, "GET", f.path(id, "customization"), nil, 200)
		if fmt.Sprint(got) != fmt.Sprint(put) {
			t.Errorf("get after put differs:\n%v\n%v", got, put)
		}
		// A second PUT replaces: what it leaves out is back to its default.
		put = f.do(t, "PUT", f.path(id, "customization"), map[string]any{"styling": map[string]any{"theme": "muted"}}, 200)
		if sitAt(put, "styling.theme") != "muted" || sitAt(put, "feedback.enabled") != false || put["title"] != nil || sitAt(put, "styling.primaryColor.light") != "#346DDB" {
			t.Errorf("second put %v", put)
		}

		// Site spaces show the site's settings until overridden.
		ssPath := f.path(id, "site-spaces", ssA, "customization")
		if v := f.do(t, "GET", ssPath, nil, 200); fmt.Sprint(v) != fmt.Sprint(put) {
			t.Errorf("site space without overrides shows %v", v)
		}
		o := f.do(t, "PATCH", ssPath, map[string]any{"styling": map[string]any{"theme": "gradient"}, "pdf": map[string]any{"enabled": false}}, 200)
		sitCheckSettings(t, o, "overridden settings")
		if sitAt(o, "styling.theme") != "gradient" || sitAt(o, "pdf.enabled") != false || sitAt(o, "styling.corners") != "rounded" {
			t.Errorf("override result %v", o)
		}
		if v := f.do(t, "GET", ssPath, nil, 200); fmt.Sprint(v) != fmt.Sprint(o) {
			t.Errorf("get after override differs")
		}
		// The site and the other site space are unchanged.
		if v := f.do(t, "GET", f.path(id, "customization"), nil, 200); sitAt(v, "styling.theme") != "muted" || sitAt(v, "pdf.enabled") != true {
			t.Errorf("site settings changed by an override: %v", v["styling"])
		}
		if v := f.do(t, "GET", f.path(id, "site-spaces", ssB, "customization"), nil, 200); sitAt(v, "styling.theme") != "muted" {
			t.Errorf("other site space shows %v", sitAt(v, "styling.theme"))
		}
		// PATCH merges: a later patch keeps earlier overrides.
		o = f.do(t, "PATCH", ssPath, map[string]any{"styling": map[string]any{"corners": "straight"}}, 200)
		if sitAt(o, "styling.theme") != "gradient" || sitAt(o, "styling.corners") != "straight" || sitAt(o, "pdf.enabled") != false {
			t.Errorf("merged override %v", o)
		}
		// null resets one override: the site's value shows again.
		o = f.do(t, "PATCH", ssPath, map[string]any{"styling": map[string]any{"theme": nil}}, 200)
		if sitAt(o, "styling.theme") != "muted" || sitAt(o, "styling.corners") != "straight" || sitAt(o, "pdf.enabled") != false {
			t.Errorf("reset one override %v", o)
		}
		// The site's later changes show through keys not overridden.
		f.do(t, "PUT", f.path(id, "customization"), map[string]any{"styling": map[string]any{"theme": "bold"}}, 200)
		if v := f.do(t, "GET", ssPath, nil, 200); sitAt(v, "styling.theme") != "bold" || sitAt(v, "styling.corners") != "straight" {
			t.Errorf("site change through override: %v", v["styling"])
		}
		// DELETE removes every override: 205, then 204.
		sitEmpty(t, e.Do(f.tok, "DELETE", ssPath, nil), 205, "delete overrides")
		site := f.do(t, "GET", f.path(id, "customization"), nil, 200)
		if v := f.do(t, "GET", ssPath, nil, 200); fmt.Sprint(v) != fmt.Sprint(site) {
			t.Errorf("after delete the site space shows %v, want the site's", v)
		}
		sitEmpty(t, e.Do(f.tok, "DELETE", ssPath, nil), 204, "delete overrides again")
		sitErr(t, e.Do(f.tok, "GET", f.path(id, "site-spaces", "nope", "customization"), nil), 404, "", "unknown site space customization")
		sitErr(t, e.Do(f.tok, "PATCH", f.path(id, "site-spaces", "nope", "customization"), map[string]any{}), 404, "", "override unknown site space")
	})
}

// ---- adaptive schema ----

func TestSiteAdaptiveSchema(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a := f.space(t, "Alpha")
		id := f.site(t, map[string]any{"title": "Adaptive", "spaces": []string{a}})["id"].(string)

		sitErr(t, e.Do(f.tok, "GET", f.path(id, "adaptive-schema"), nil), 404, "", "no schema yet")
		tc := f.do(t, "GET", f.path(id, "adaptive-schema", "template-conditions"), nil, 200)
		if items, ok := tc["items"].([]any); !ok || len(items) != 0 {
			t.Errorf("template conditions without schema: %v", tc)
		}

		schema := map[string]any{
			"$schema":              "http://json-schema.org/draft-07/schema#",
			"type":                 "object",
			"additionalProperties": false,
			"properties": map[string]any{
				"beta":  map[string]any{"type": "boolean", "description": "Beta tester"},
				"plan":  map[string]any{"type": "string", "enum": []string{"free", "pro"}},
				"seats": map[string]any{"type": "number"},
				"unsigned": map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
					"preview": map[string]any{"type": "boolean"},
				}},
			},
		}
		put := f.do(t, "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": schema}, 200)
		if put["object"] != "site-adaptive-schema" || sitStr(put, "updatedAt") == "" {
			t.Errorf("put schema %v", put)
		}
		if fmt.Sprint(put["jsonSchema"]) != fmt.Sprint(sitRoundTrip(schema)) {
			t.Errorf("jsonSchema %v", put["jsonSchema"])
		}
		got := f.do(t, "GET", f.path(id, "adaptive-schema"), nil, 200)
		if got["object"] != "site-adaptive-schema" || fmt.Sprint(got["jsonSchema"]) != fmt.Sprint(put["jsonSchema"]) || got["updatedAt"] != put["updatedAt"] {
			t.Errorf("get schema %v, want %v", got, put)
		}
		sitWant(t, e.Do(f.team.Reader.Token, "GET", f.path(id, "adaptive-schema"), nil), 200, "reader reads the schema")

		tc = f.do(t, "GET", f.path(id, "adaptive-schema", "template-conditions"), nil, 200)
		items, _ := tc["items"].([]any)
		conds := map[string]string{}
		for _, it := range items {
			c, d := sitStr(it, "condition"), sitStr(it, "description")
			if c == "" || d == "" {
				t.Errorf("template condition without condition or description: %v", it)
			}
			conds[c] = d
		}
		want := []string{`visitor.claims.beta`, `visitor.claims.plan == "free"`, `visitor.claims.seats > 0`, `visitor.claims.unsigned.preview`}
		if len(items) != len(want) {
			t.Errorf("template conditions %v, want one per claim %v", items, want)
		}
		for _, c := range want {
			if _, ok := conds[c]; !ok {
				t.Errorf("template condition %q missing from %v", c, conds)
			}
		}
		if conds["visitor.claims.beta"] != "Beta tester" {
			t.Errorf("description of beta %q", conds["visitor.claims.beta"])
		}
		// Every template condition is accepted as a section condition.
		sec := f.section(t, id, f.space(t, "Beta"), "Gated")["id"].(string)
		for c := range conds {
			v := f.do(t, "PATCH", f.path(id, "sections", sec), map[string]any{"condition": c}, 200)
			if v["condition"] != c {
				t.Errorf("condition %v, want %q", v["condition"], c)
			}
		}

		// A new PUT replaces the schema.
		small := map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
			"roles": map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": []string{"admin", "dev"}}},
		}}
		f.do(t, "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": small}, 200)
		tc = f.do(t, "GET", f.path(id, "adaptive-schema", "template-conditions"), nil, 200)
		if items, _ := tc["items"].([]any); len(items) != 1 || sitStr(items[0], "condition") != `"admin" in visitor.claims.roles` {
			t.Errorf("template conditions after replace %v", tc)
		}
		sitErr(t, e.Do(f.tok, "GET", f.path("nope", "adaptive-schema"), nil), 404, "", "unknown site")
	})
}

// sitRoundTrip passes a value through JSON, as the server sees it.
func sitRoundTrip(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
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

// ---- permission matrix ----

// sitMatrix is a site with one of everything, for the permission matrix.
type sitMatrix struct {
	ids map[string]string // route placeholders to ids
	// spare is a space of the organization not on the site.
	spare string
}

func sitMatrixFixture(t *testing.T, f *sitFx) sitMatrix {
	t.Helper()
	a, b, c := f.space(t, "Alpha"), f.space(t, "Beta"), f.space(t, "Gamma")
	id := f.site(t, map[string]any{"title": "Matrix", "spaces": []string{a}})["id"].(string)
	secB := f.section(t, id, b, "Bee")["id"].(string)
	secC := f.section(t, id, c, "Sea")["id"].(string)
	g := f.do(t, "POST", f.path(id, "section-groups"), map[string]any{"title": "Group", "sections": []string{secC}}, 201)["id"].(string)
	link := f.do(t, "POST", f.path(id, "share-links"), map[string]any{"name": "Link"}, 201)["id"].(string)
	f.do(t, "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": sitSchema}, 200)
	secs := f.do(t, "GET", f.path(id, "sections"), nil, 200)
	secD := sitStr(secs, "items", 0, "id")
	ssA := sitStr(secs, "items", 0, "siteSpaces", 0, "id")
	f.do(t, "PATCH", f.path(id, "site-spaces", ssA, "customization"), map[string]any{"styling": map[string]any{"theme": "bold"}}, 200)
	return sitMatrix{
		ids: map[string]string{
			"{organizationId}": f.org, "{siteId}": id, "{siteSpaceId}": ssA, "{siteSectionId}": secC,
			"{siteSectionGroupId}": g, "{shareLinkId}": link, "secB": secB, "secD": secD,
		},
		spare: f.space(t, "Spare"),
	}
}

var sitSchema = map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
	"beta": map[string]any{"type": "boolean"},
}}

// path fills a route pattern, with org as the organization.
func (m sitMatrix) path(pattern, org string) string {
	p := "/v1" + pattern
	for k, v := range m.ids {
		if k == "{organizationId}" {
			v = org
		}
		p = strings.ReplaceAll(p, k, v)
	}
	return p
}

// sitRoute is one row of the matrix.
type sitRoute struct {
	method, pattern string
	body            func(m sitMatrix) any
	// read routes answer 200 to every member with a role; writersOnly read
	// routes (share links) answer 403 to them.
	read, writersOnly bool
	admin             int
}

func sitRoutes() []sitRoute {
	const s = "/orgs/{organizationId}/sites/{siteId}"
	body := func(v any) func(sitMatrix) any { return func(sitMatrix) any { return v } }
	read := func(p string) sitRoute { return sitRoute{method: "GET", pattern: p, read: true, admin: 200} }
	write := func(method, p string, b func(sitMatrix) any, status int) sitRoute {
		return sitRoute{method: method, pattern: p, body: b, admin: status}
	}
	return []sitRoute{
		read("/orgs/{organizationId}/sites"),
		write("POST", "/orgs/{organizationId}/sites", body(map[string]any{"title": "New site"}), 201),
		read(s),
		write("PATCH", s, body(map[string]any{"title": "Renamed"}), 200),
		write("DELETE", s, nil, 205),
		write("POST", s+"/publish", nil, 200),
		write("POST", s+"/unpublish", nil, 200),
		read(s + "/published"),
		read(s + "/structure"),
		write("PATCH", s+"/structure/sort", func(m sitMatrix) any {
			return map[string]any{"item": map[string]any{"type": "site-section", "id": m.ids["secB"]},
				"position": map[string]any{"before": map[string]any{"type": "site-section", "id": m.ids["secD"]}}}
		}, 200),
		read(s + "/site-spaces"),
		write("POST", s+"/site-spaces", func(m sitMatrix) any { return map[string]any{"spaceId": m.spare} }, 201),
		write("PATCH", s+"/site-spaces/{siteSpaceId}", body(map[string]any{"hidden": true}), 200),
		write("DELETE", s+"/site-spaces/{siteSpaceId}", nil, 205),
		write("POST", s+"/site-spaces/{siteSpaceId}/move", body(map[string]any{}), 200),
		read(s + "/site-spaces/{siteSpaceId}/customization"),
		write("PATCH", s+"/site-spaces/{siteSpaceId}/customization", body(map[string]any{"styling": map[string]any{"corners": "straight"}}), 200),
		write("DELETE", s+"/site-spaces/{siteSpaceId}/customization", nil, 205),
		read(s + "/sections"),
		write("POST", s+"/sections", func(m sitMatrix) any { return map[string]any{"spaceId": m.spare} }, 201),
		write("PATCH", s+"/sections/{siteSectionId}", body(map[string]any{"title": "Renamed"}), 200),
		write("DELETE", s+"/sections/{siteSectionId}", nil, 205),
		write("POST", s+"/sections/{siteSectionId}/move", body(map[string]any{}), 200),
		read(s + "/section-groups"),
		write("POST", s+"/section-groups", body(map[string]any{"title": "New group"}), 201),
		write("PATCH", s+"/section-groups/{siteSectionGroupId}", body(map[string]any{"title": "Renamed"}), 200),
		write("DELETE", s+"/section-groups/{siteSectionGroupId}", nil, 205),
		write("POST", s+"/section-groups/{siteSectionGroupId}/sections", func(m sitMatrix) any { return map[string]any{"sectionId": m.ids["secB"]} }, 201),
		write("DELETE", s+"/section-groups/{siteSectionGroupId}/sections/{siteSectionId}", nil, 205),
		write("POST", s+"/section-groups/{siteSectionGroupId}/move", body(map[string]any{}), 200),
		read(s + "/customization"),
		write("PUT", s+"/customization", body(map[string]any{"styling": map[string]any{"theme": "muted"}}), 200),
		read(s + "/adaptive-schema"),
		write("PUT", s+"/adaptive-schema", body(map[string]any{"jsonSchema": sitSchema}), 200),
		read(s + "/adaptive-schema/template-conditions"),
		{method: "GET", pattern: s + "/share-links", read: true, writersOnly: true, admin: 200},
		write("POST", s+"/share-links", body(map[string]any{"name": "New"}), 201),
		write("PATCH", s+"/share-links/{shareLinkId}", body(map[string]any{"active": false}), 200),
		write("DELETE", s+"/share-links/{shareLinkId}", nil, 205),
	}
}

func TestSitePermissionMatrix(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		routes := sitRoutes()

		// The matrix covers every site route of the API.
		covered := map[string]bool{}
		for _, r := range routes {
			covered[r.method+" "+r.pattern] = true
		}
		n := 0
		for _, r := range e.Server.API().Routes() {
			if !strings.Contains(r.Pattern, "/sites") {
				continue
			}
			n++
			if !covered[r.Method+" "+r.Pattern] {
				t.Errorf("route %s %s is not in the matrix", r.Method, r.Pattern)
			}
		}
		if n != len(routes) {
			t.Errorf("the API has %d site routes, the matrix %d", n, len(routes))
		}

		// Everyone but the admin, on one site: none of them may change it.
		m := sitMatrixFixture(t, f)
		site := m.ids["{siteId}"]
		_, before := f.outline(t, site)
		team := f.team
		other := team.Other.ID
		gu, guest := e.User("guest@acme.test")
		e.Member(team.Org, gu, "")
		var observed []string
		for _, r := range routes {
			name := r.method + " " + r.pattern
			var b any
			if r.body != nil {
				b = r.body(m)
			}
			p := m.path(r.pattern, f.org)
			isDelete := r.method == "DELETE"
			orgLevel := !strings.Contains(r.pattern, "{siteId}")

			for _, who := range []struct {
				name string
				tok  string
			}{{"editor", team.Editor.Token}, {"reader", team.Reader.Token}} {
				res := e.Do(who.tok, r.method, p, b)
				switch {
				case r.read && !r.writersOnly:
					sitWant(t, res, 200, who.name+" "+name)
				default:
					sitErr(t, res, 403, "", who.name+" "+name)
				}
			}

			// The outsider, and a guest of the organization (a member without
			// a role): the site does not exist for them.
			for _, who := range []struct {
				name string
				tok  string
			}{{"outsider", team.Outsider.Token}, {"guest", guest}} {
				res := e.Do(who.tok, r.method, p, b)
				if isDelete && res.Status == 204 {
					sitEmpty(t, res, 204, who.name+" "+name)
				} else {
					sitErr(t, res, 404, "", who.name+" "+name)
				}
				if isDelete {
					observed = append(observed, fmt.Sprintf("%s %s -> %d", who.name, name, res.Status))
				}
			}
			if !orgLevel {
				// The site of Org addressed under Other's path, by Other's admin
				// and by Org's admin.
				for _, who := range []struct {
					name string
					tok  string
				}{{"outsider", team.Outsider.Token}, {"admin", team.Admin.Token}} {
					res := e.Do(who.tok, r.method, m.path(r.pattern, other), b)
					if isDelete && res.Status == 204 {
						sitEmpty(t, res, 204, who.name+" under Other's path "+name)
					} else {
						sitErr(t, res, 404, "", who.name+" under Other's path "+name)
					}
					if isDelete {
						observed = append(observed, fmt.Sprintf("%s under Other's path %s -> %d", who.name, name, res.Status))
					}
				}
			}
			// Anonymous.
			sitErr(t, e.Do(team.Anon.Token, r.method, p, b), 401, "", "anonymous "+name)
		}
		for _, o := range observed {
			t.Log(o)
		}
		if _, after := f.outline(t, site); after != before {
			t.Errorf("structure changed by refused requests: %q -> %q", before, after)
		}
		if got := f.do(t, "GET", f.path(site), nil, 200); got["title"] != "Matrix" || got["published"] != false {
			t.Errorf("site changed by refused requests: %v", got)
		}
		if got := sitIDs(f.do(t, "GET", f.path(site, "share-links"), nil, 200)); len(got) != 1 {
			t.Errorf("share links changed by refused requests: %v", got)
		}
		if got := f.do(t, "GET", f.path(site, "site-spaces", m.ids["{siteSpaceId}"], "customization"), nil, 200); sitAt(got, "styling.theme") != "bold" {
			t.Errorf("override changed by refused requests: %v", sitAt(got, "styling.theme"))
		}

		// The admin, each route on a fresh site.
		for _, r := range routes {
			m := sitMatrixFixture(t, f)
			var b any
			if r.body != nil {
				b = r.body(m)
			}
			res := e.Do(f.tok, r.method, m.path(r.pattern, f.org), b)
			name := "admin " + r.method + " " + r.pattern
			switch r.admin {
			case 204, 205:
				sitEmpty(t, res, r.admin, name)
			default:
				v := sitWant(t, res, r.admin, name)
				if v == nil {
					t.Errorf("%s: no JSON body: %s", name, res.Body)
				}
			}
		}
	})
}
