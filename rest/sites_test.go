package rest_test

import (
	"strings"
	"testing"

	"quire/internal/testing/testenv"
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
