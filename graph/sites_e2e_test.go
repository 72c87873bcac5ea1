package graph_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"quire/ent/sitesharelink"
	"quire/ent/sitespace"
	"quire/internal/testenv"
)

// ---------------------------------------------------------------------------
// Helpers (prefixed sx: other files of the package have their own)

// sxOK fails unless the GraphQL response is a 200 without errors.
func sxOK(t *testing.T, r *testenv.GQLResponse) map[string]any {
	t.Helper()
	if r.Status != http.StatusOK || len(r.Errors) > 0 || r.Data == nil {
		t.Fatalf("GraphQL: want data without errors, got HTTP %d %s", r.Status, r.Raw)
	}
	return r.Data
}

// sxDo sends a REST request and fails unless it answers want.
func sxDo(t *testing.T, e *testenv.Env, token, method, path string, body any, want int) map[string]any {
	t.Helper()
	r := e.Do(token, method, path, body)
	if r.Status != want {
		t.Fatalf("%s %s: %d %s, want %d", method, path, r.Status, r.Body, want)
	}
	return r.JSON()
}

func sxStr(v any) string {
	s, _ := v.(string)
	return s
}

func sxID(v any) any {
	if v == nil {
		return nil
	}
	return testenv.Path(v, "id")
}

func sxList(v any) []any {
	l, _ := v.([]any)
	return l
}

// ---------------------------------------------------------------------------
// Statement counts

// sxSite is a published docs site built for statement counts.
type sxSite struct {
	ID, Path             string
	Sections, PerSection int
	ShareKey             string
}

// sxBuild creates, as the admin, a published site of sections × perSection
// site spaces; every space lives two collections deep (a top collection,
// then one per section), all inheriting, so that the reader's permissions
// walk the whole chain.
func sxBuild(t *testing.T, e *testenv.Env, team *testenv.Team, name string, sections, perSection int, visibility string) sxSite {
	t.Helper()
	admin, org := team.Admin.Token, team.Org.ID
	top := sxStr(sxDo(t, e, admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": name}, http.StatusCreated)["id"])
	st := sxDo(t, e, admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": name + " docs", "visibility": visibility}, http.StatusCreated)
	s := sxSite{ID: sxStr(st["id"]), Sections: sections, PerSection: perSection}
	s.Path = "/v1/orgs/" + org + "/sites/" + s.ID
	for i := 0; i < sections; i++ {
		col := sxStr(sxDo(t, e, admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": fmt.Sprintf("%s C%d", name, i), "parent": top}, http.StatusCreated)["id"])
		var section string
		for j := 0; j < perSection; j++ {
			sp := sxStr(sxDo(t, e, admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": fmt.Sprintf("%s S%d.%d", name, i, j), "parent": col}, http.StatusCreated)["id"])
			if j == 0 {
				section = sxStr(sxDo(t, e, admin, "POST", s.Path+"/sections", map[string]any{"spaceId": sp, "title": fmt.Sprintf("Section %d", i)}, http.StatusCreated)["id"])
				continue
			}
			sxDo(t, e, admin, "POST", s.Path+"/site-spaces", map[string]any{"spaceId": sp, "sectionId": section}, http.StatusCreated)
		}
	}
	sxDo(t, e, admin, "POST", s.Path+"/publish", nil, http.StatusOK)
	if visibility == "share-link" {
		d := sxOK(t, e.GraphQL(admin, `mutation($s: ID!) { createSiteShareLink(site: $s, name: "Reviewers") { urls { published } } }`, map[string]any{"s": s.ID}))
		u := sxStr(testenv.Path(d, "createSiteShareLink", "urls", "published"))
		i := strings.LastIndex(u, "/~share/")
		if i < 0 {
			t.Fatalf("share link URL without key: %q", u)
		}
		s.ShareKey = u[i+len("/~share/"):]
	}
	return s
}

// The queries of the brief.
const (
	sxSectionsQuery = `query($id: ID!){ site(id:$id){ title sections(first:100){ nodes{ id title siteSpaces(first:100){ nodes{ id path default space{ id title permissions{ edit } organization{ id title } } } } } } } }`
	// The same with published URLs, which need the share key on share-link sites.
	sxSectionsURLsQuery = `query($id: ID!, $key: String){ site(id:$id){ title urls(shareKey:$key){ published } sections(first:100){ nodes{ id title urls(shareKey:$key){ published } siteSpaces(first:100){ nodes{ id path default urls(shareKey:$key){ published } space{ id title permissions{ edit } organization{ id title } } } } } } } }`
	sxPublishedQuery    = `query($id: ID!, $key: String){ site(id:$id){ publishedContent(shareKey:$key) { structure { structure { ... on SiteSection { siteSpaces { nodes { space { title } } } } } } customizations { site } } } }`
	// Spaces without permissions, and the structure with them.
	sxAllSiteSpacesQuery = `query($id: ID!){ site(id:$id){ allSiteSpaces(first:1000){ totalCount nodes{ id title default section { title } space{ title organization { title } } } } } }`
	sxStructureQuery     = `query($id: ID!, $key: String){ site(id:$id){ structure(shareKey:$key){ type structure { ... on SiteSection { id default siteSpaces { nodes { id space { permissions { edit view } } } } } } } } }`
)

// sxCheckSections checks the answer of the sections queries.
func sxCheckSections(t *testing.T, d map[string]any, s sxSite, urls bool) {
	t.Helper()
	secs := sxList(testenv.Path(d, "site", "sections", "nodes"))
	if len(secs) != s.Sections {
		t.Fatalf("%d sections, want %d", len(secs), s.Sections)
	}
	for _, sec := range secs {
		sss := sxList(testenv.Path(sec, "siteSpaces", "nodes"))
		if len(sss) != s.PerSection {
			t.Fatalf("section with %d site spaces, want %d", len(sss), s.PerSection)
		}
		if urls && testenv.Path(sec, "urls", "published") == nil {
			t.Fatalf("section without published URL: %v", sec)
		}
		for i, ss := range sss {
			if testenv.Path(ss, "space", "permissions", "edit") != false || testenv.Path(ss, "space", "organization", "title") != "Acme" ||
				testenv.Path(ss, "default") != (i == 0) || sxStr(testenv.Path(ss, "path")) == "" {
				t.Fatalf("site space = %v", ss)
			}
			if urls && testenv.Path(ss, "urls", "published") == nil {
				t.Fatalf("site space without published URL: %v", ss)
			}
		}
	}
}

func sxCheckPublished(t *testing.T, d map[string]any, s sxSite) {
	t.Helper()
	secs := sxList(testenv.Path(d, "site", "publishedContent", "structure", "structure"))
	if len(secs) != s.Sections {
		t.Fatalf("published structure of %d sections, want %d", len(secs), s.Sections)
	}
	for _, sec := range secs {
		sss := sxList(testenv.Path(sec, "siteSpaces", "nodes"))
		if len(sss) != s.PerSection || testenv.Path(sss[0], "space", "title") == nil {
			t.Fatalf("published section = %v", sec)
		}
	}
	if testenv.Path(d, "site", "publishedContent", "customizations", "site", "styling") == nil {
		t.Fatalf("published customizations = %v", testenv.Path(d, "site", "publishedContent", "customizations"))
	}
}

// sxMinCounts measures the statements of two requests, retrying up to 5
// times until their minimums agree, and returns the minimums. Loaders batch
// the loads that reach them within a 1 ms window: a scheduler stall (the
// tests share the machine) can split a batch and add a statement, never
// remove one. A load per item adds statements on every run, so it still
// shows in the minimum.
func sxMinCounts(a, b func() int64) (int64, int64) {
	minA, minB := a(), b()
	for i := 1; i < 5 && minA != minB; i++ {
		minA, minB = min(minA, a()), min(minB, b())
	}
	return minA, minB
}

func TestSitesE2EStatementsDoNotGrowWithStructure(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		for _, vis := range []string{"public", "share-link"} {
			t.Run(vis, func(t *testing.T) {
				small := sxBuild(t, e, team, "Small "+vis, 3, 2, vis)
				big := sxBuild(t, e, team, "Big "+vis, 20, 5, vis)
				vars := func(s sxSite) map[string]any {
					v := map[string]any{"id": s.ID}
					if s.ShareKey != "" {
						v["key"] = s.ShareKey
					}
					return v
				}
				queries := []struct {
					name  string
					doc   string
					check func(t *testing.T, d map[string]any, s sxSite)
				}{
					{"sections", sxSectionsQuery, func(t *testing.T, d map[string]any, s sxSite) { sxCheckSections(t, d, s, false) }},
					{"sections with urls", sxSectionsURLsQuery, func(t *testing.T, d map[string]any, s sxSite) { sxCheckSections(t, d, s, true) }},
					{"publishedContent", sxPublishedQuery, sxCheckPublished},
					{"allSiteSpaces", sxAllSiteSpacesQuery, func(t *testing.T, d map[string]any, s sxSite) {
						nodes := sxList(testenv.Path(d, "site", "allSiteSpaces", "nodes"))
						if len(nodes) != s.Sections*s.PerSection || testenv.Path(nodes[0], "title") != testenv.Path(nodes[0], "space", "title") ||
							testenv.Path(nodes[0], "space", "organization", "title") != "Acme" || testenv.Path(nodes[0], "section", "title") != "Section 0" {
							t.Fatalf("allSiteSpaces = %v", d)
						}
					}},
					{"structure", sxStructureQuery, func(t *testing.T, d map[string]any, s sxSite) {
						secs := sxList(testenv.Path(d, "site", "structure", "structure"))
						if len(secs) != s.Sections {
							t.Fatalf("structure of %d sections, want %d", len(secs), s.Sections)
						}
						for _, sec := range secs {
							for _, ss := range sxList(testenv.Path(sec, "siteSpaces", "nodes")) {
								if testenv.Path(ss, "space", "permissions", "edit") != false || testenv.Path(ss, "space", "permissions", "view") != true {
									t.Fatalf("site space = %v", ss)
								}
							}
						}
					}},
				}
				for _, q := range queries {
					t.Run(q.name, func(t *testing.T) {
						measure := func(s sxSite) int64 {
							t.Helper()
							v := vars(s)
							if q.doc == sxSectionsQuery || q.doc == sxAllSiteSpacesQuery {
								delete(v, "key")
							}
							before := e.Statements()
							d := sxOK(t, e.GraphQL(team.Reader.Token, q.doc, v))
							n := e.Statements() - before
							q.check(t, d, s)
							return n
						}
						measure(small) // warm the query cache
						n1, n2 := sxMinCounts(func() int64 { return measure(small) }, func() int64 { return measure(big) })
						t.Logf("GraphQL %s: 3×2 → %d statements, 20×5 → %d", q.name, n1, n2)
						if n1 != n2 {
							t.Errorf("GraphQL %s grows with the structure: 3 sections × 2 site spaces → %d statements, 20 × 5 → %d", q.name, n1, n2)
						}
					})
				}
			})
		}
	})
}

// ---------------------------------------------------------------------------
// Mutations, through both doors

// sxCase is one call of a mutation: code "" is a success, checked by check.
type sxCase struct {
	name  string
	token string
	vars  map[string]any
	code  string
	field string
	// noREST skips the REST comparison of an error (deletes answer 204
	// to a caller who cannot see the site: GraphQL says deleted false).
	noREST bool
	check  func(t *testing.T, data map[string]any)
}

// sxREST is the REST call equivalent to a mutation's variables.
type sxREST func(v map[string]any) (method, path string, body any)

var sxStatus = map[string]int{
	"BAD_REQUEST": http.StatusBadRequest,
	"FORBIDDEN":   http.StatusForbidden,
	"NOT_FOUND":   http.StatusNotFound,
}

// sxRun runs each case through GraphQL. An error must carry
// extensions.code (and extensions.field), and the same call through REST
// must fail with the status of that code and, for validation errors, the
// same message.
func sxRun(t *testing.T, e *testenv.Env, doc string, toREST sxREST, cases []sxCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.GraphQL(c.token, doc, c.vars)
			if c.code == "" {
				d := sxOK(t, r)
				if c.check != nil {
					c.check(t, d)
				}
				return
			}
			if len(r.Errors) == 0 {
				t.Fatalf("want %s, got %s", c.code, r.Raw)
			}
			if r.Status != http.StatusOK || r.Code() != c.code {
				t.Errorf("HTTP %d, extensions.code %q, want 200 and %q: %s", r.Status, r.Code(), c.code, r.Raw)
			}
			if got, _ := r.Errors[0].Extensions["field"].(string); got != c.field {
				t.Errorf("extensions.field = %q, want %q: %s", got, c.field, r.Raw)
			}
			for k, v := range r.Data {
				if v != nil {
					t.Errorf("data.%s = %v after an error", k, v)
				}
			}
			if toREST == nil || c.noREST {
				return
			}
			method, path, body := toREST(c.vars)
			rr := e.Do(c.token, method, path, body)
			want := sxStatus[c.code]
			if rr.Status != want || testenv.Path(rr.JSON(), "error", "code") != float64(want) {
				t.Errorf("REST %s %s: %d %s, want %d like GraphQL's %s", method, path, rr.Status, rr.Body, want, c.code)
			} else if msg := testenv.Path(rr.JSON(), "error", "message"); c.code == "BAD_REQUEST" && msg != r.Errors[0].Message {
				t.Errorf("REST message %q, GraphQL message %q", msg, r.Errors[0].Message)
			}
		})
	}
}

// sxRESTBody renames GraphQL input fields to their REST names and spells
// enum values the REST way.
func sxRESTBody(in any, rename map[string]string, enums ...string) any {
	m, ok := in.(map[string]any)
	if !ok {
		return in
	}
	out := map[string]any{}
	for k, v := range m {
		for _, en := range enums {
			if k == en {
				if s, ok := v.(string); ok {
					v = strings.ReplaceAll(s, "_", "-")
				}
			}
		}
		if r, ok := rename[k]; ok {
			k = r
		}
		out[k] = v
	}
	return out
}

// sxWorld is the cast and content the mutation tests share: spaces in a
// collection, and a site.
type sxWorld struct {
	team   *testenv.Team
	org    string
	col    string
	spaces []string
	// otherSpace belongs to the other organization.
	otherSpace string
}

func sxNewWorld(t *testing.T, e *testenv.Env) *sxWorld {
	t.Helper()
	w := &sxWorld{team: e.NewTeam()}
	w.org = w.team.Org.ID
	admin := w.team.Admin.Token
	w.col = sxStr(sxDo(t, e, admin, "POST", "/v1/orgs/"+w.org+"/collections", map[string]any{"title": "Docs"}, http.StatusCreated)["id"])
	for i := 0; i < 8; i++ {
		w.spaces = append(w.spaces, sxStr(sxDo(t, e, admin, "POST", "/v1/orgs/"+w.org+"/spaces", map[string]any{"title": fmt.Sprintf("Space %d", i), "parent": w.col}, http.StatusCreated)["id"]))
	}
	w.otherSpace = sxStr(sxDo(t, e, w.team.Outsider.Token, "POST", "/v1/orgs/"+w.team.Other.ID+"/spaces", map[string]any{"title": "Elsewhere"}, http.StatusCreated)["id"])
	return w
}

func (w *sxWorld) sitePath(site string) string { return "/v1/orgs/" + w.org + "/sites/" + site }

// site creates a site through GraphQL with the given spaces.
func (w *sxWorld) site(t *testing.T, e *testenv.Env, title string, spaces ...string) string {
	t.Helper()
	d := sxOK(t, e.GraphQL(w.team.Admin.Token, `mutation($in: CreateSiteInput!) { createSite(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"organization": w.org, "title": title, "spaces": spaces}}))
	return sxStr(testenv.Path(d, "createSite", "id"))
}

const sxSiteFields = `id object type appliedType title basename visibility published siteSpaces createdAt agentsContext
	adaptiveContent { enabled } proxy { origin target } hostname urls { location app published } organization { id }
	defaultSiteSpace { id } defaultSiteSection { id } features { id plan } ads { status }`

// sxSameSite checks that a GraphQL site and its REST reading agree.
func sxSameSite(t *testing.T, g, r map[string]any) {
	t.Helper()
	for _, k := range []string{"id", "object", "title", "basename", "published", "siteSpaces", "hostname"} {
		if fmt.Sprint(g[k]) != fmt.Sprint(r[k]) {
			t.Errorf("%s: GraphQL %v, REST %v", k, g[k], r[k])
		}
	}
	for _, k := range []string{"type", "appliedType", "visibility", "agentsContext"} {
		if strings.ReplaceAll(sxStr(g[k]), "_", "-") != r[k] {
			t.Errorf("%s: GraphQL %v, REST %v", k, g[k], r[k])
		}
	}
	if fmt.Sprint(g["adaptiveContent"]) != fmt.Sprint(r["adaptiveContent"]) || fmt.Sprint(g["proxy"]) != fmt.Sprint(r["proxy"]) {
		t.Errorf("adaptiveContent/proxy: GraphQL %v %v, REST %v %v", g["adaptiveContent"], g["proxy"], r["adaptiveContent"], r["proxy"])
	}
	for _, k := range []string{"location", "app", "published"} {
		if testenv.Path(g, "urls", k) != testenv.Path(r, "urls", k) {
			t.Errorf("urls.%s: GraphQL %v, REST %v", k, testenv.Path(g, "urls", k), testenv.Path(r, "urls", k))
		}
	}
	gf, rf := sxList(g["features"]), sxList(r["features"])
	if len(gf) == 0 || len(gf) != len(rf) {
		t.Errorf("features: GraphQL %v, REST %v", g["features"], r["features"])
	}
	for i := range min(len(gf), len(rf)) {
		// Each door spells the plan its own way.
		if testenv.Path(gf[i], "id") != testenv.Path(rf[i], "id") ||
			strings.ReplaceAll(sxStr(testenv.Path(gf[i], "plan")), "_", "-") != testenv.Path(rf[i], "plan") || testenv.Path(gf[i], "plan") != g["type"] {
			t.Errorf("features[%d]: GraphQL %v, REST %v", i, gf[i], rf[i])
		}
	}
}

func TestSitesE2ESiteMutations(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		w := sxNewWorld(t, e)
		team := w.team
		restSite := func(id string) map[string]any {
			return sxDo(t, e, team.Reader.Token, "GET", w.sitePath(id), nil, http.StatusOK)
		}

		t.Run("createSite", func(t *testing.T) {
			doc := `mutation($in: CreateSiteInput!) { createSite(input: $in) { ` + sxSiteFields + ` } }`
			toREST := func(v map[string]any) (string, string, any) {
				in := sxRESTBody(v["in"], nil, "type", "visibility").(map[string]any)
				delete(in, "organization")
				return "POST", "/v1/orgs/" + sxStr(testenv.Path(v, "in", "organization")) + "/sites", in
			}
			in := func(kv ...any) map[string]any {
				m := map[string]any{"organization": w.org}
				for i := 0; i < len(kv); i += 2 {
					m[kv[i].(string)] = kv[i+1]
				}
				return map[string]any{"in": m}
			}
			sxRun(t, e, doc, toREST, []sxCase{
				{name: "defaults", token: team.Admin.Token, vars: in(), check: func(t *testing.T, d map[string]any) {
					g := d["createSite"].(map[string]any)
					if g["object"] != "site" || g["type"] != "basic" || g["visibility"] != "public" || g["published"] != false ||
						g["siteSpaces"] != float64(0) || g["title"] != "Docs site" || g["agentsContext"] == nil {
						t.Errorf("createSite = %v", g)
					}
					sxSameSite(t, g, restSite(sxStr(g["id"])))
				}},
				{name: "legacy_basic share_link with spaces", token: team.Admin.Token,
					vars: in("title", "Guide", "type", "legacy_basic", "visibility", "share_link", "spaces", []any{w.spaces[0], w.spaces[1]}),
					check: func(t *testing.T, d map[string]any) {
						g := d["createSite"].(map[string]any)
						if g["type"] != "legacy_basic" || g["visibility"] != "share_link" || g["siteSpaces"] != float64(2) ||
							g["basename"] != "guide" || sxID(g["defaultSiteSpace"]) == nil {
							t.Errorf("createSite = %v", g)
						}
						r := restSite(sxStr(g["id"]))
						if r["type"] != "legacy-basic" || r["visibility"] != "share-link" {
							t.Errorf("REST spelling: type %v, visibility %v", r["type"], r["visibility"])
						}
						sxSameSite(t, g, r)
						// The site spaces sit at the root, in the given order.
						ss := sxDo(t, e, team.Reader.Token, "GET", w.sitePath(sxStr(g["id"]))+"/site-spaces", nil, http.StatusOK)
						items := sxList(ss["items"])
						if len(items) != 2 || testenv.Path(items[0], "space", "id") != w.spaces[0] || testenv.Path(items[1], "space", "id") != w.spaces[1] ||
							testenv.Path(items[0], "section") != nil || testenv.Path(items[0], "default") != true || testenv.Path(items[0], "id") != sxID(g["defaultSiteSpace"]) {
							t.Errorf("site spaces = %v", items)
						}
					}},
				{name: "title too short", token: team.Admin.Token, vars: in("title", "x"), code: "BAD_REQUEST", field: "title"},
				{name: "title too long", token: team.Admin.Token, vars: in("title", strings.Repeat("t", 129)), code: "BAD_REQUEST", field: "title"},
				{name: "unknown space", token: team.Admin.Token, vars: in("spaces", []any{"Snope"}), code: "BAD_REQUEST", field: "spaces"},
				{name: "space of another organization", token: team.Admin.Token, vars: in("spaces", []any{w.otherSpace}), code: "BAD_REQUEST", field: "spaces"},
				{name: "editor", token: team.Editor.Token, vars: in("title", "Nope"), code: "FORBIDDEN"},
				{name: "reader", token: team.Reader.Token, vars: in("title", "Nope"), code: "FORBIDDEN"},
				{name: "outsider", token: team.Outsider.Token, vars: in("title", "Nope"), code: "NOT_FOUND"},
			})
			// No site was created by the failures (nor by REST's).
			l := sxDo(t, e, team.Admin.Token, "GET", "/v1/orgs/"+w.org+"/sites", nil, http.StatusOK)
			if l["count"] != float64(2) {
				t.Errorf("sites after createSite cases: %v", l["count"])
			}
		})

		site := w.site(t, e, "Handbook", w.spaces[0], w.spaces[1])
		other := w.site(t, e, "Taken name")

		t.Run("updateSite", func(t *testing.T) {
			doc := `mutation($id: ID!, $in: UpdateSiteInput!) { updateSite(id: $id, input: $in) { ` + sxSiteFields + ` } }`
			toREST := func(v map[string]any) (string, string, any) {
				return "PATCH", w.sitePath(sxStr(v["id"])), sxRESTBody(v["in"], nil, "visibility", "agentsContext")
			}
			vars := func(in map[string]any) map[string]any { return map[string]any{"id": site, "in": in} }
			ssID := sxStr(testenv.Path(sxOK(t, e.GraphQL(team.Admin.Token, `query($id: ID!) { site(id: $id) { allSiteSpaces { nodes { id } } } }`,
				map[string]any{"id": site})), "site", "allSiteSpaces", "nodes", 1, "id"))
			sxRun(t, e, doc, toREST, []sxCase{
				{name: "every field", token: team.Admin.Token, vars: vars(map[string]any{
					"title": "Handbook 2", "visibility": "unlisted", "basename": "hand-book", "adaptiveContent": map[string]any{"enabled": true},
					"agentsContext": "included", "proxy": "example.com/docs", "hostname": "docs.example.com", "defaultSiteSpace": ssID,
				}), check: func(t *testing.T, d map[string]any) {
					g := d["updateSite"].(map[string]any)
					if g["title"] != "Handbook 2" || g["visibility"] != "unlisted" || g["basename"] != "hand-book" ||
						testenv.Path(g, "adaptiveContent", "enabled") != true || g["agentsContext"] != "included" ||
						!strings.Contains(sxStr(testenv.Path(g, "proxy", "origin")), "example.com/docs") || g["hostname"] != "docs.example.com" ||
						sxID(g["defaultSiteSpace"]) != ssID {
						t.Errorf("updateSite = %v", g)
					}
					sxSameSite(t, g, restSite(site))
				}},
				{name: "null proxy and hostname remove them", token: team.Admin.Token, vars: vars(map[string]any{"proxy": nil, "hostname": nil}),
					check: func(t *testing.T, d map[string]any) {
						g := d["updateSite"].(map[string]any)
						if g["proxy"] != nil || g["hostname"] != nil || g["title"] != "Handbook 2" {
							t.Errorf("updateSite = %v", g)
						}
					}},
				{name: "empty input changes nothing", token: team.Admin.Token, vars: vars(map[string]any{}), check: func(t *testing.T, d map[string]any) {
					if testenv.Path(d, "updateSite", "title") != "Handbook 2" {
						t.Errorf("updateSite = %v", d)
					}
				}},
				{name: "title too short", token: team.Admin.Token, vars: vars(map[string]any{"title": "H"}), code: "BAD_REQUEST", field: "title"},
				{name: "title null", token: team.Admin.Token, vars: vars(map[string]any{"title": nil}), code: "BAD_REQUEST", field: "title"},
				{name: "basename pattern", token: team.Admin.Token, vars: vars(map[string]any{"basename": "Not OK"}), code: "BAD_REQUEST", field: "basename"},
				{name: "basename taken", token: team.Admin.Token, vars: vars(map[string]any{"basename": sxStr(restSite(other)["basename"])}), code: "BAD_REQUEST", field: "basename"},
				{name: "proxy pattern", token: team.Admin.Token, vars: vars(map[string]any{"proxy": "example.com"}), code: "BAD_REQUEST", field: "proxy"},
				{name: "hostname pattern", token: team.Admin.Token, vars: vars(map[string]any{"hostname": "localhost"}), code: "BAD_REQUEST", field: "hostname"},
				{name: "unknown default site space", token: team.Admin.Token, vars: vars(map[string]any{"defaultSiteSpace": "nope"}), code: "BAD_REQUEST", field: "defaultSiteSpace"},
				{name: "unknown default section", token: team.Admin.Token, vars: vars(map[string]any{"defaultSiteSection": "nope"}), code: "BAD_REQUEST", field: "defaultSiteSection"},
				{name: "agentsContext null", token: team.Admin.Token, vars: vars(map[string]any{"agentsContext": nil}), code: "BAD_REQUEST", field: "agentsContext"},
				{name: "editor", token: team.Editor.Token, vars: vars(map[string]any{"title": "Nope"}), code: "FORBIDDEN"},
				{name: "reader", token: team.Reader.Token, vars: vars(map[string]any{"title": "Nope"}), code: "FORBIDDEN"},
				{name: "outsider", token: team.Outsider.Token, vars: vars(map[string]any{"title": "Nope"}), code: "NOT_FOUND"},
				{name: "unknown site", token: team.Admin.Token, vars: map[string]any{"id": "Wnope", "in": map[string]any{"title": "Nope"}}, code: "NOT_FOUND"},
			})
			if r := restSite(site); r["title"] != "Handbook 2" || r["basename"] != "hand-book" {
				t.Errorf("site after failed updates = %v", r)
			}
		})

		t.Run("publishSite and unpublishSite", func(t *testing.T) {
			for _, m := range []struct {
				name      string
				published bool
			}{{"publishSite", true}, {"unpublishSite", false}, {"publishSite", true}} {
				doc := `mutation($id: ID!) { ` + m.name + `(id: $id) { id published urls { published } } }`
				toREST := func(v map[string]any) (string, string, any) {
					return "POST", w.sitePath(sxStr(v["id"])) + "/" + strings.TrimSuffix(m.name, "Site"), nil
				}
				sxRun(t, e, doc, toREST, []sxCase{
					{name: m.name + " editor", token: team.Editor.Token, vars: map[string]any{"id": site}, code: "FORBIDDEN"},
					{name: m.name + " reader", token: team.Reader.Token, vars: map[string]any{"id": site}, code: "FORBIDDEN"},
					{name: m.name + " outsider", token: team.Outsider.Token, vars: map[string]any{"id": site}, code: "NOT_FOUND"},
					{name: m.name, token: team.Admin.Token, vars: map[string]any{"id": site}, check: func(t *testing.T, d map[string]any) {
						g := d[m.name].(map[string]any)
						if g["published"] != m.published || (testenv.Path(g, "urls", "published") != nil) != m.published {
							t.Errorf("%s = %v", m.name, g)
						}
						r := restSite(site)
						if r["published"] != m.published || testenv.Path(r, "urls", "published") != testenv.Path(g, "urls", "published") {
							t.Errorf("REST after %s = %v", m.name, r)
						}
					}},
				})
			}
		})

		t.Run("deleteSite", func(t *testing.T) {
			doc := `mutation($id: ID!) { deleteSite(id: $id) { id deleted } }`
			toREST := func(v map[string]any) (string, string, any) { return "DELETE", w.sitePath(sxStr(v["id"])), nil }
			doomed := w.site(t, e, "Doomed", w.spaces[2])
			// A share link and a section group, to see the cascade.
			sxOK(t, e.GraphQL(team.Admin.Token, `mutation($s: ID!) { createSiteShareLink(site: $s, name: "x") { id } }`, map[string]any{"s": doomed}))
			payload := func(deleted bool) func(t *testing.T, d map[string]any) {
				return func(t *testing.T, d map[string]any) {
					if testenv.Path(d, "deleteSite", "id") != doomed || testenv.Path(d, "deleteSite", "deleted") != deleted {
						t.Errorf("deleteSite = %v, want deleted %v", d, deleted)
					}
				}
			}
			sxRun(t, e, doc, toREST, []sxCase{
				{name: "editor", token: team.Editor.Token, vars: map[string]any{"id": doomed}, code: "FORBIDDEN"},
				{name: "reader", token: team.Reader.Token, vars: map[string]any{"id": doomed}, code: "FORBIDDEN"},
				// Invisible to the outsider: nothing deleted, like REST's 204.
				{name: "outsider", token: team.Outsider.Token, vars: map[string]any{"id": doomed}, check: payload(false)},
				{name: "admin", token: team.Admin.Token, vars: map[string]any{"id": doomed}, check: payload(true)},
				{name: "again", token: team.Admin.Token, vars: map[string]any{"id": doomed}, check: payload(false)},
			})
			if r := e.Do(team.Admin.Token, "GET", w.sitePath(doomed), nil); r.Status != http.StatusNotFound {
				t.Errorf("REST GET deleted site: %d %s", r.Status, r.Body)
			}
			if r := e.GraphQL(team.Admin.Token, `query($id: ID!) { site(id: $id) { id } }`, map[string]any{"id": doomed}); r.Code() != "NOT_FOUND" {
				t.Errorf("GraphQL site(id:) of a deleted site: %s", r.Raw)
			}
			// Its rows went with it; the space stays.
			ctx := context.Background()
			n1, err1 := e.Client().SiteSpace.Query().Where(sitespace.SiteID(doomed)).Count(ctx)
			n2, err2 := e.Client().SiteShareLink.Query().Where(sitesharelink.SiteID(doomed)).Count(ctx)
			if err1 != nil || err2 != nil || n1+n2 != 0 {
				t.Errorf("rows left by the deleted site: %d site spaces, %d share links (%v %v)", n1, n2, err1, err2)
			}
			sxDo(t, e, team.Admin.Token, "GET", "/v1/spaces/"+w.spaces[2], nil, http.StatusOK)
			if r := e.Do(team.Outsider.Token, "DELETE", w.sitePath(site), nil); r.Status != http.StatusNoContent {
				t.Errorf("REST outsider delete: %d %s", r.Status, r.Body)
			}
		})
	})
}

// sxStructure reads a site's structure through REST as a compact string:
// sections as "Title[space titles...]", groups as "{Title: ...}", root
// site spaces as their space titles.
func sxStructure(t *testing.T, e *testenv.Env, token, path string) string {
	t.Helper()
	b := sxDo(t, e, token, "GET", path+"/structure", nil, http.StatusOK)
	var item func(v any) string
	item = func(v any) string {
		switch testenv.Path(v, "object") {
		case "site-space":
			return sxStr(testenv.Path(v, "space", "title"))
		case "site-section":
			var ss []string
			for _, x := range sxList(testenv.Path(v, "siteSpaces")) {
				ss = append(ss, item(x))
			}
			return sxStr(testenv.Path(v, "title")) + "[" + strings.Join(ss, " ") + "]"
		case "site-section-group":
			var cs []string
			for _, x := range sxList(testenv.Path(v, "children")) {
				cs = append(cs, item(x))
			}
			return "{" + sxStr(testenv.Path(v, "title")) + ": " + strings.Join(cs, " ") + "}"
		}
		return fmt.Sprintf("?%v", v)
	}
	var out []string
	for _, x := range sxList(b["structure"]) {
		out = append(out, item(x))
	}
	return sxStr(b["type"]) + ": " + strings.Join(out, " ")
}

func TestSitesE2EStructureMutations(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		w := sxNewWorld(t, e)
		team := w.team
		site := w.site(t, e, "Handbook", w.spaces[0], w.spaces[1])
		path := w.sitePath(site)
		structure := func(t *testing.T, want string) {
			t.Helper()
			if got := sxStructure(t, e, team.Reader.Token, path); got != want {
				t.Errorf("structure:\n got %s\nwant %s", got, want)
			}
		}
		structure(t, "siteSpaces: Space 0 Space 1")
		allSiteSpaces := func() map[string]string { // space title → site space id
			d := sxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { site(id: $id) { allSiteSpaces { nodes { id space { title } } } } }`, map[string]any{"id": site}))
			out := map[string]string{}
			for _, n := range sxList(testenv.Path(d, "site", "allSiteSpaces", "nodes")) {
				out[sxStr(testenv.Path(n, "space", "title"))] = sxStr(testenv.Path(n, "id"))
			}
			return out
		}
		perms := func(doc string, vars map[string]any) []sxCase {
			return []sxCase{
				{name: "editor", token: team.Editor.Token, vars: vars, code: "FORBIDDEN"},
				{name: "reader", token: team.Reader.Token, vars: vars, code: "FORBIDDEN"},
				{name: "outsider", token: team.Outsider.Token, vars: vars, code: "NOT_FOUND"},
			}
		}
		const siteSpaceFields = `id object path section { id } space { id title } title default condition hidden hasAdvancedCustomizationFeature site { id } urls { published }`

		t.Run("addSiteSpace", func(t *testing.T) {
			doc := `mutation($s: ID!, $in: AddSiteSpaceInput!) { addSiteSpace(site: $s, input: $in) { ` + siteSpaceFields + ` } }`
			toREST := func(v map[string]any) (string, string, any) {
				return "POST", w.sitePath(sxStr(v["s"])) + "/site-spaces", sxRESTBody(v["in"], map[string]string{"space": "spaceId", "section": "sectionId"})
			}
			vars := func(in map[string]any) map[string]any { return map[string]any{"s": site, "in": in} }
			cases := []sxCase{
				{name: "to the root", token: team.Admin.Token, vars: vars(map[string]any{"space": w.spaces[2]}), check: func(t *testing.T, d map[string]any) {
					g := d["addSiteSpace"].(map[string]any)
					if g["object"] != "site-space" || g["section"] != nil || testenv.Path(g, "space", "id") != w.spaces[2] || g["title"] != "Space 2" ||
						g["path"] != "space-2" || g["default"] != false || g["hidden"] != false || g["condition"] != nil || sxID(g["site"]) != site {
						t.Errorf("addSiteSpace = %v", g)
					}
					// Ids are the same in both doors.
					r := sxDo(t, e, team.Reader.Token, "GET", path+"/site-spaces/"+sxStr(g["id"])+"/customization", nil, http.StatusOK)
					if r["styling"] == nil {
						t.Errorf("REST customization of the new site space = %v", r)
					}
				}},
				{name: "unknown space", token: team.Admin.Token, vars: vars(map[string]any{"space": "Snope"}), code: "BAD_REQUEST", field: "spaceId"},
				{name: "space of another organization", token: team.Admin.Token, vars: vars(map[string]any{"space": w.otherSpace}), code: "BAD_REQUEST", field: "spaceId"},
				{name: "unknown section", token: team.Admin.Token, vars: vars(map[string]any{"space": w.spaces[3], "section": "nope"}), code: "BAD_REQUEST", field: "sectionId"},
				{name: "a space already on the site", token: team.Admin.Token, vars: vars(map[string]any{"space": w.spaces[0]}), code: "BAD_REQUEST", field: "spaceId"},
			}
			sxRun(t, e, doc, toREST, append(cases, perms(doc, vars(map[string]any{"space": w.spaces[3]}))...))
			structure(t, "siteSpaces: Space 0 Space 1 Space 2")
		})

		var api string // the API section
		t.Run("addSiteSection", func(t *testing.T) {
			doc := `mutation($s: ID!, $in: AddSiteSectionInput!) { addSiteSection(site: $s, input: $in) {
				id object title path default icon description condition sectionGroup { id } site { id } defaultSiteSpace { id space { id } }
				siteSpaces { totalCount nodes { id space { id } section { id } default } } urls { published } } }`
			toREST := func(v map[string]any) (string, string, any) {
				return "POST", w.sitePath(sxStr(v["s"])) + "/sections", sxRESTBody(v["in"], map[string]string{"space": "spaceId"})
			}
			vars := func(in map[string]any) map[string]any { return map[string]any{"s": site, "in": in} }
			cases := []sxCase{
				{name: "title too short", token: team.Admin.Token, vars: vars(map[string]any{"space": w.spaces[3], "title": "A"}), code: "BAD_REQUEST", field: "title"},
				{name: "icon too long", token: team.Admin.Token, vars: vars(map[string]any{"space": w.spaces[3], "icon": strings.Repeat("i", 51)}), code: "BAD_REQUEST", field: "icon"},
				{name: "unknown space", token: team.Admin.Token, vars: vars(map[string]any{"space": "Snope"}), code: "BAD_REQUEST", field: "spaceId"},
			}
			cases = append(cases, perms(doc, vars(map[string]any{"space": w.spaces[3]}))...)
			cases = append(cases, sxCase{name: "first section gathers the root", token: team.Admin.Token, vars: vars(map[string]any{"space": w.spaces[3], "title": "API", "icon": "book"}),
				check: func(t *testing.T, d map[string]any) {
					g := d["addSiteSection"].(map[string]any)
					api = sxStr(g["id"])
					nodes := sxList(testenv.Path(g, "siteSpaces", "nodes"))
					if g["object"] != "site-section" || g["title"] != "API" || g["path"] != "api" || g["icon"] != "book" || g["default"] != false ||
						g["sectionGroup"] != nil || sxID(g["site"]) != site || testenv.Path(g, "siteSpaces", "totalCount") != float64(1) ||
						testenv.Path(nodes[0], "space", "id") != w.spaces[3] || sxID(testenv.Path(nodes[0], "section")) != api ||
						testenv.Path(nodes[0], "default") != true || testenv.Path(g, "defaultSiteSpace", "space", "id") != w.spaces[3] {
						t.Errorf("addSiteSection = %v", g)
					}
				}})
			sxRun(t, e, doc, toREST, cases)
			structure(t, "sections: Handbook[Space 0 Space 1 Space 2] API[Space 3]")
			// The gathered section is the default one, read through REST by the GraphQL id.
			r := sxDo(t, e, team.Reader.Token, "GET", path+"/sections", nil, http.StatusOK)
			items := sxList(r["items"])
			if len(items) != 2 || testenv.Path(items[0], "default") != true || testenv.Path(items[1], "id") != api || testenv.Path(items[1], "icon") != "book" {
				t.Errorf("REST sections = %v", r)
			}
			// Site spaces added without a section now go to the default section.
			sxOK(t, e.GraphQL(team.Admin.Token, `mutation($s: ID!, $sp: ID!) { addSiteSpace(site: $s, input: {space: $sp}) { id } }`, map[string]any{"s": site, "sp": w.spaces[4]}))
			sxOK(t, e.GraphQL(team.Admin.Token, `mutation($s: ID!, $sp: ID!, $sec: ID!) { addSiteSpace(site: $s, input: {space: $sp, section: $sec}) { section { id } } }`,
				map[string]any{"s": site, "sp": w.spaces[5], "sec": api}))
			structure(t, "sections: Handbook[Space 0 Space 1 Space 2 Space 4] API[Space 3 Space 5]")
		})
		if api == "" {
			t.Fatal("no API section")
		}
		ids := allSiteSpaces()

		t.Run("updateSiteSpace", func(t *testing.T) {
			doc := `mutation($s: ID!, $id: ID!, $in: UpdateSiteSpaceInput!) { updateSiteSpace(site: $s, id: $id, input: $in) { ` + siteSpaceFields + ` } }`
			toREST := func(v map[string]any) (string, string, any) {
				return "PATCH", w.sitePath(sxStr(v["s"])) + "/site-spaces/" + sxStr(v["id"]), sxRESTBody(v["in"], map[string]string{"space": "spaceId"})
			}
			target := ids["Space 5"]
			vars := func(in map[string]any) map[string]any { return map[string]any{"s": site, "id": target, "in": in} }
			cases := []sxCase{
				{name: "path condition hidden", token: team.Admin.Token, vars: vars(map[string]any{"path": "intro", "condition": "visitor.claims.beta", "hidden": true}),
					check: func(t *testing.T, d map[string]any) {
						g := d["updateSiteSpace"].(map[string]any)
						if g["path"] != "intro" || g["condition"] != "visitor.claims.beta" || g["hidden"] != true || sxID(g["section"]) != api {
							t.Errorf("updateSiteSpace = %v", g)
						}
					}},
				{name: "omitted fields stay, null condition removes it", token: team.Admin.Token, vars: vars(map[string]any{"condition": nil}),
					check: func(t *testing.T, d map[string]any) {
						g := d["updateSiteSpace"].(map[string]any)
						if g["path"] != "intro" || g["condition"] != nil || g["hidden"] != true {
							t.Errorf("updateSiteSpace = %v", g)
						}
						r := sxDo(t, e, team.Reader.Token, "GET", path+"/site-spaces", nil, http.StatusOK)
						for _, it := range sxList(r["items"]) {
							if testenv.Path(it, "id") == target && (testenv.Path(it, "path") != "intro" || testenv.Path(it, "hidden") != true || testenv.Path(it, "condition") != nil) {
								t.Errorf("REST site space = %v", it)
							}
						}
					}},
				{name: "another space", token: team.Admin.Token, vars: vars(map[string]any{"space": w.spaces[6]}), check: func(t *testing.T, d map[string]any) {
					if testenv.Path(d, "updateSiteSpace", "space", "id") != w.spaces[6] || testenv.Path(d, "updateSiteSpace", "title") != "Space 6" {
						t.Errorf("updateSiteSpace = %v", d)
					}
				}},
				{name: "a space already on the site", token: team.Admin.Token, vars: vars(map[string]any{"space": w.spaces[1]}), code: "BAD_REQUEST", field: "spaceId"},
				{name: "path with a slash", token: team.Admin.Token, vars: vars(map[string]any{"path": "a/b"}), code: "BAD_REQUEST", field: "path"},
				{name: "empty path", token: team.Admin.Token, vars: vars(map[string]any{"path": ""}), code: "BAD_REQUEST", field: "path"},
				{name: "path too long", token: team.Admin.Token, vars: vars(map[string]any{"path": strings.Repeat("p", 101)}), code: "BAD_REQUEST", field: "path"},
				{name: "path taken in the section", token: team.Admin.Token, vars: vars(map[string]any{"path": "space-3"}), code: "BAD_REQUEST", field: "path"},
				{name: "path null", token: team.Admin.Token, vars: vars(map[string]any{"path": nil}), code: "BAD_REQUEST", field: "path"},
				{name: "condition syntax", token: team.Admin.Token, vars: vars(map[string]any{"condition": "visitor.claims.("}), code: "BAD_REQUEST", field: "condition"},
				{name: "hidden null", token: team.Admin.Token, vars: vars(map[string]any{"hidden": nil}), code: "BAD_REQUEST", field: "hidden"},
				{name: "unknown space", token: team.Admin.Token, vars: vars(map[string]any{"space": "Snope"}), code: "BAD_REQUEST", field: "spaceId"},
				{name: "space null", token: team.Admin.Token, vars: vars(map[string]any{"space": nil}), code: "BAD_REQUEST", field: "spaceId"},
				{name: "unknown site space", token: team.Admin.Token, vars: map[string]any{"s": site, "id": "nope", "in": map[string]any{"hidden": false}}, code: "NOT_FOUND"},
			}
			sxRun(t, e, doc, toREST, append(cases, perms(doc, vars(map[string]any{"hidden": false}))...))
		})

		t.Run("updateSiteSection", func(t *testing.T) {
			doc := `mutation($s: ID!, $id: ID!, $in: UpdateSiteSectionInput!) { updateSiteSection(site: $s, id: $id, input: $in) {
				id title path condition icon description defaultSiteSpace { id } default } }`
			toREST := func(v map[string]any) (string, string, any) {
				return "PATCH", w.sitePath(sxStr(v["s"])) + "/sections/" + sxStr(v["id"]), v["in"]
			}
			vars := func(in map[string]any) map[string]any { return map[string]any{"s": site, "id": api, "in": in} }
			cases := []sxCase{
				{name: "every field", token: team.Admin.Token, vars: vars(map[string]any{"title": "API reference", "path": "reference",
					"condition": `visitor.claims.plan == "pro"`, "icon": nil, "description": "Endpoints", "defaultSiteSpace": ids["Space 5"]}),
					check: func(t *testing.T, d map[string]any) {
						g := d["updateSiteSection"].(map[string]any)
						if g["title"] != "API reference" || g["path"] != "reference" || g["condition"] != `visitor.claims.plan == "pro"` ||
							g["icon"] != nil || g["description"] != "Endpoints" || sxID(g["defaultSiteSpace"]) != ids["Space 5"] || g["default"] != false {
							t.Errorf("updateSiteSection = %v", g)
						}
					}},
				{name: "null condition and description remove them", token: team.Admin.Token, vars: vars(map[string]any{"condition": nil, "description": nil}),
					check: func(t *testing.T, d map[string]any) {
						g := d["updateSiteSection"].(map[string]any)
						if g["condition"] != nil || g["description"] != nil || g["title"] != "API reference" {
							t.Errorf("updateSiteSection = %v", g)
						}
					}},
				{name: "title too short", token: team.Admin.Token, vars: vars(map[string]any{"title": "A"}), code: "BAD_REQUEST", field: "title"},
				{name: "title null", token: team.Admin.Token, vars: vars(map[string]any{"title": nil}), code: "BAD_REQUEST", field: "title"},
				{name: "empty path", token: team.Admin.Token, vars: vars(map[string]any{"path": ""}), code: "BAD_REQUEST", field: "path"},
				{name: "path taken", token: team.Admin.Token, vars: vars(map[string]any{"path": "handbook"}), code: "BAD_REQUEST", field: "path"},
				{name: "condition syntax", token: team.Admin.Token, vars: vars(map[string]any{"condition": "1 +"}), code: "BAD_REQUEST", field: "condition"},
				{name: "condition too long", token: team.Admin.Token, vars: vars(map[string]any{"condition": strings.Repeat("a", 1025)}), code: "BAD_REQUEST", field: "condition"},
				{name: "icon too long", token: team.Admin.Token, vars: vars(map[string]any{"icon": strings.Repeat("i", 51)}), code: "BAD_REQUEST", field: "icon"},
				{name: "description too long", token: team.Admin.Token, vars: vars(map[string]any{"description": strings.Repeat("d", 257)}), code: "BAD_REQUEST", field: "description"},
				{name: "default site space of another section", token: team.Admin.Token, vars: vars(map[string]any{"defaultSiteSpace": ids["Space 0"]}), code: "BAD_REQUEST", field: "defaultSiteSpace"},
				{name: "unknown section", token: team.Admin.Token, vars: map[string]any{"s": site, "id": "nope", "in": map[string]any{"title": "Nope"}}, code: "NOT_FOUND"},
			}
			sxRun(t, e, doc, toREST, append(cases, perms(doc, vars(map[string]any{"title": "Nope"}))...))
			structure(t, "sections: Handbook[Space 0 Space 1 Space 2 Space 4] API reference[Space 3 Space 6]")
		})

		// A third section, and groups.
		third := sxStr(testenv.Path(sxOK(t, e.GraphQL(team.Admin.Token, `mutation($s: ID!, $sp: ID!) { addSiteSection(site: $s, input: {space: $sp, title: "Guides"}) { id } }`,
			map[string]any{"s": site, "sp": w.spaces[7]})), "addSiteSection", "id"))
		var group, inner string
		handbook := sxStr(testenv.Path(sxDo(t, e, team.Reader.Token, "GET", path+"/sections", nil, http.StatusOK), "items", 0, "id"))

		t.Run("createSiteSectionGroup", func(t *testing.T) {
			doc := `mutation($s: ID!, $in: CreateSiteSectionGroupInput!) { createSiteSectionGroup(site: $s, input: $in) {
				id object title icon sectionGroup { id } site { id } sections { id }
				children { totalCount nodes { __typename ... on SiteSection { id title } ... on SiteSectionGroup { id title } } } } }`
			toREST := func(v map[string]any) (string, string, any) {
				return "POST", w.sitePath(sxStr(v["s"])) + "/section-groups", v["in"]
			}
			vars := func(in map[string]any) map[string]any { return map[string]any{"s": site, "in": in} }
			cases := []sxCase{
				{name: "with sections", token: team.Admin.Token, vars: vars(map[string]any{"title": "Reference", "icon": "book", "sections": []any{api, third}}),
					check: func(t *testing.T, d map[string]any) {
						g := d["createSiteSectionGroup"].(map[string]any)
						group = sxStr(g["id"])
						kids := sxList(testenv.Path(g, "children", "nodes"))
						if g["object"] != "site-section-group" || g["title"] != "Reference" || g["icon"] != "book" || g["sectionGroup"] != nil ||
							sxID(g["site"]) != site || len(kids) != 2 || testenv.Path(kids[0], "__typename") != "SiteSection" ||
							testenv.Path(kids[0], "id") != api || testenv.Path(kids[1], "id") != third || len(sxList(g["sections"])) != 2 {
							t.Errorf("createSiteSectionGroup = %v", g)
						}
					}},
				{name: "nested", token: team.Admin.Token, vars: vars(map[string]any{"title": "Inner", "parent": "PARENT"}),
					check: func(t *testing.T, d map[string]any) {
						g := d["createSiteSectionGroup"].(map[string]any)
						inner = sxStr(g["id"])
						if sxID(g["sectionGroup"]) != group || testenv.Path(g, "children", "totalCount") != float64(0) {
							t.Errorf("createSiteSectionGroup = %v", g)
						}
					}},
				{name: "empty title", token: team.Admin.Token, vars: vars(map[string]any{"title": ""}), code: "BAD_REQUEST", field: "title"},
				{name: "title too long", token: team.Admin.Token, vars: vars(map[string]any{"title": strings.Repeat("t", 101)}), code: "BAD_REQUEST", field: "title"},
				{name: "icon too long", token: team.Admin.Token, vars: vars(map[string]any{"title": "G", "icon": strings.Repeat("i", 51)}), code: "BAD_REQUEST", field: "icon"},
				{name: "unknown section", token: team.Admin.Token, vars: vars(map[string]any{"title": "G", "sections": []any{"nope"}}), code: "BAD_REQUEST", field: "sections"},
				{name: "unknown parent", token: team.Admin.Token, vars: vars(map[string]any{"title": "G", "parent": "nope"}), code: "BAD_REQUEST", field: "parent"},
			}
			sxRun(t, e, doc, toREST, cases[:1])
			// The parent of the nested group is the group the first case created.
			cases[1].vars["in"].(map[string]any)["parent"] = group
			sxRun(t, e, doc, toREST, append(cases[1:], perms(doc, vars(map[string]any{"title": "Nope"}))...))
			structure(t, "sections: Handbook[Space 0 Space 1 Space 2 Space 4] {Reference: API reference[Space 3 Space 6] Guides[Space 7] {Inner: }}")
			// A site without sections has nothing to group.
			flat := w.site(t, e, "Flat", w.spaces[0])
			sxRun(t, e, doc, toREST, []sxCase{{name: "site without sections", token: team.Admin.Token,
				vars: map[string]any{"s": flat, "in": map[string]any{"title": "G"}}, code: "BAD_REQUEST", field: "sections"}})
		})
		if group == "" || inner == "" {
			t.Fatal("no groups")
		}

		t.Run("updateSiteSectionGroup", func(t *testing.T) {
			doc := `mutation($s: ID!, $id: ID!, $in: UpdateSiteSectionGroupInput!) { updateSiteSectionGroup(site: $s, id: $id, input: $in) { id title icon } }`
			toREST := func(v map[string]any) (string, string, any) {
				return "PATCH", w.sitePath(sxStr(v["s"])) + "/section-groups/" + sxStr(v["id"]), v["in"]
			}
			vars := func(in map[string]any) map[string]any { return map[string]any{"s": site, "id": inner, "in": in} }
			cases := []sxCase{
				{name: "title and icon", token: team.Admin.Token, vars: vars(map[string]any{"title": "Deep", "icon": "star"}), check: func(t *testing.T, d map[string]any) {
					if testenv.Path(d, "updateSiteSectionGroup", "title") != "Deep" || testenv.Path(d, "updateSiteSectionGroup", "icon") != "star" {
						t.Errorf("updateSiteSectionGroup = %v", d)
					}
				}},
				{name: "null icon removes it", token: team.Admin.Token, vars: vars(map[string]any{"icon": nil}), check: func(t *testing.T, d map[string]any) {
					if testenv.Path(d, "updateSiteSectionGroup", "title") != "Deep" || testenv.Path(d, "updateSiteSectionGroup", "icon") != nil {
						t.Errorf("updateSiteSectionGroup = %v", d)
					}
				}},
				{name: "empty title", token: team.Admin.Token, vars: vars(map[string]any{"title": ""}), code: "BAD_REQUEST", field: "title"},
				{name: "title null", token: team.Admin.Token, vars: vars(map[string]any{"title": nil}), code: "BAD_REQUEST", field: "title"},
				{name: "icon too long", token: team.Admin.Token, vars: vars(map[string]any{"icon": strings.Repeat("i", 51)}), code: "BAD_REQUEST", field: "icon"},
				{name: "unknown group", token: team.Admin.Token, vars: map[string]any{"s": site, "id": "nope", "in": map[string]any{"title": "X"}}, code: "NOT_FOUND"},
			}
			sxRun(t, e, doc, toREST, append(cases, perms(doc, vars(map[string]any{"title": "Nope"}))...))
		})

		t.Run("addSectionToGroup and removeSectionFromGroup", func(t *testing.T) {
			add := `mutation($s: ID!, $g: ID!, $sec: ID!) { addSectionToGroup(site: $s, group: $g, section: $sec) {
				id children { nodes { ... on SiteSection { id } } } } }`
			addREST := func(v map[string]any) (string, string, any) {
				return "POST", w.sitePath(sxStr(v["s"])) + "/section-groups/" + sxStr(v["g"]) + "/sections", map[string]any{"sectionId": v["sec"]}
			}
			vars := func(g, sec string) map[string]any { return map[string]any{"s": site, "g": g, "sec": sec} }
			cases := []sxCase{
				{name: "add", token: team.Admin.Token, vars: vars(inner, third), check: func(t *testing.T, d map[string]any) {
					if testenv.Path(d, "addSectionToGroup", "id") != inner || testenv.Path(d, "addSectionToGroup", "children", "nodes", 0, "id") != third {
						t.Errorf("addSectionToGroup = %v", d)
					}
				}},
				{name: "unknown section", token: team.Admin.Token, vars: vars(inner, "nope"), code: "BAD_REQUEST", field: "sectionId"},
				{name: "unknown group", token: team.Admin.Token, vars: vars("nope", third), code: "NOT_FOUND"},
			}
			sxRun(t, e, add, addREST, append(cases, perms(add, vars(inner, handbook))...))
			structure(t, "sections: Handbook[Space 0 Space 1 Space 2 Space 4] {Reference: API reference[Space 3 Space 6] {Deep: Guides[Space 7]}}")

			remove := `mutation($s: ID!, $g: ID!, $sec: ID!) { removeSectionFromGroup(site: $s, group: $g, section: $sec) { id deleted } }`
			removeREST := func(v map[string]any) (string, string, any) {
				return "DELETE", w.sitePath(sxStr(v["s"])) + "/section-groups/" + sxStr(v["g"]) + "/sections/" + sxStr(v["sec"]), nil
			}
			payload := func(deleted bool) func(t *testing.T, d map[string]any) {
				return func(t *testing.T, d map[string]any) {
					if testenv.Path(d, "removeSectionFromGroup", "id") != third || testenv.Path(d, "removeSectionFromGroup", "deleted") != deleted {
						t.Errorf("removeSectionFromGroup = %v, want deleted %v", d, deleted)
					}
				}
			}
			cases = []sxCase{
				{name: "unknown group", token: team.Admin.Token, vars: vars("nope", third), code: "NOT_FOUND"},
			}
			cases = append(cases, perms(remove, vars(inner, third))...)
			cases = append(cases,
				sxCase{name: "remove", token: team.Admin.Token, vars: vars(inner, third), check: payload(true)},
				sxCase{name: "again", token: team.Admin.Token, vars: vars(inner, third), check: payload(false)})
			sxRun(t, e, remove, removeREST, cases)
			// Out of Deep, into its parent.
			structure(t, "sections: Handbook[Space 0 Space 1 Space 2 Space 4] {Reference: API reference[Space 3 Space 6] {Deep: } Guides[Space 7]}")
		})

		t.Run("sortSiteStructure", func(t *testing.T) {
			doc := `mutation($s: ID!, $in: SortSiteStructureInput!) { sortSiteStructure(site: $s, input: $in) {
				__typename ... on SiteSection { id } ... on SiteSectionGroup { id } ... on SiteSpace { id } } }`
			toREST := func(v map[string]any) (string, string, any) {
				in := v["in"].(map[string]any)
				ptr := func(p any) any {
					if p == nil {
						return nil
					}
					return sxRESTBody(p, nil, "type")
				}
				pos := map[string]any{}
				for k, p := range in["position"].(map[string]any) {
					pos[k] = ptr(p)
				}
				return "PATCH", w.sitePath(sxStr(v["s"])) + "/structure/sort", map[string]any{"item": ptr(in["item"]), "position": pos}
			}
			ref := func(typ, id string) map[string]any { return map[string]any{"type": typ, "id": id} }
			vars := func(item map[string]any, pos map[string]any) map[string]any {
				return map[string]any{"s": site, "in": map[string]any{"item": item, "position": pos}}
			}
			moved := func(typename, want string) func(t *testing.T, d map[string]any) {
				return func(t *testing.T, d map[string]any) {
					if testenv.Path(d, "sortSiteStructure", "__typename") != typename || testenv.Path(d, "sortSiteStructure", "id") != want {
						t.Errorf("sortSiteStructure = %v", d)
					}
				}
			}
			cases := []sxCase{
				{name: "group before a section", token: team.Admin.Token, vars: vars(ref("site_section_group", group), map[string]any{"before": ref("site_section", handbook)}),
					check: moved("SiteSectionGroup", group)},
				{name: "site space after another", token: team.Admin.Token, vars: vars(ref("site_space", ids["Space 0"]), map[string]any{"after": ref("site_space", ids["Space 4"])}),
					check: moved("SiteSpace", ids["Space 0"])},
				{name: "section into a group", token: team.Admin.Token, vars: vars(ref("site_section", handbook), map[string]any{"after": ref("site_section", api)}),
					check: moved("SiteSection", handbook)},
				{name: "site space next to a section", token: team.Admin.Token, vars: vars(ref("site_space", ids["Space 0"]), map[string]any{"before": ref("site_section", api)}),
					code: "BAD_REQUEST", field: "position.before"},
				{name: "next to itself", token: team.Admin.Token, vars: vars(ref("site_section", api), map[string]any{"after": ref("site_section", api)}),
					code: "BAD_REQUEST", field: "position.after"},
				{name: "group inside itself", token: team.Admin.Token, vars: vars(ref("site_section_group", group), map[string]any{"after": ref("site_section", api)}),
					code: "BAD_REQUEST", field: "position"},
				{name: "unknown pointer", token: team.Admin.Token, vars: vars(ref("site_section", api), map[string]any{"after": ref("site_section", "nope")}),
					code: "BAD_REQUEST", field: "position.after"},
				{name: "unknown item", token: team.Admin.Token, vars: vars(ref("site_section", "nope"), map[string]any{}), code: "NOT_FOUND"},
			}
			sxRun(t, e, doc, toREST, append(cases, perms(doc, vars(ref("site_section", api), map[string]any{}))...))
			structure(t, "sections: {Reference: API reference[Space 3 Space 6] Handbook[Space 1 Space 2 Space 4 Space 0] {Deep: } Guides[Space 7]}")
		})

		t.Run("deletes", func(t *testing.T) {
			type del struct {
				mutation, id string
				rest         string
			}
			deleted := func(name, id string, want bool) func(t *testing.T, d map[string]any) {
				return func(t *testing.T, d map[string]any) {
					if testenv.Path(d, name, "id") != id || testenv.Path(d, name, "deleted") != want {
						t.Errorf("%s = %v, want deleted %v", name, d, want)
					}
				}
			}
			for _, x := range []del{
				{"deleteSiteSectionGroup", group, "section-groups"},
				{"deleteSiteSection", api, "sections"},
				{"deleteSiteSpace", ids["Space 1"], "site-spaces"},
			} {
				t.Run(x.mutation, func(t *testing.T) {
					doc := `mutation($s: ID!, $id: ID!) { ` + x.mutation + `(site: $s, id: $id) { id deleted } }`
					toREST := func(v map[string]any) (string, string, any) {
						return "DELETE", w.sitePath(sxStr(v["s"])) + "/" + x.rest + "/" + sxStr(v["id"]), nil
					}
					v := map[string]any{"s": site, "id": x.id}
					sxRun(t, e, doc, toREST, []sxCase{
						{name: "editor", token: team.Editor.Token, vars: v, code: "FORBIDDEN"},
						{name: "reader", token: team.Reader.Token, vars: v, code: "FORBIDDEN"},
						// Invisible to the outsider: nothing deleted, like REST's 204.
						{name: "outsider", token: team.Outsider.Token, vars: v, check: deleted(x.mutation, x.id, false)},
						{name: "admin", token: team.Admin.Token, vars: v, check: deleted(x.mutation, x.id, true)},
						{name: "again", token: team.Admin.Token, vars: v, check: deleted(x.mutation, x.id, false)},
					})
					if r := e.Do(team.Outsider.Token, "DELETE", path+"/"+x.rest+"/"+x.id, nil); r.Status != http.StatusNoContent {
						t.Errorf("REST outsider delete: %d %s", r.Status, r.Body)
					}
				})
			}
			// The group's children moved up; the deleted section took its site
			// spaces along; the default section stays.
			structure(t, "sections: Handbook[Space 2 Space 4 Space 0] {Deep: } Guides[Space 7]")
		})

		t.Run("deleting defaults picks others", func(t *testing.T) {
			const q = `query($id: ID!) { site(id: $id) { defaultSiteSection { id title defaultSiteSpace { id space { title } } }
				sections { nodes { title default } } allSiteSpaces(default: true) { nodes { space { title } section { title } } } } }`
			read := func() map[string]any {
				return sxOK(t, e.GraphQL(team.Reader.Token, q, map[string]any{"id": site}))["site"].(map[string]any)
			}
			s := read()
			if testenv.Path(s, "defaultSiteSection", "title") != "Handbook" || testenv.Path(s, "defaultSiteSection", "defaultSiteSpace", "space", "title") != "Space 0" {
				t.Fatalf("defaults = %v", s)
			}
			defaults := func(s map[string]any) []string {
				var out []string
				for _, n := range sxList(testenv.Path(s, "allSiteSpaces", "nodes")) {
					out = append(out, sxStr(testenv.Path(n, "section", "title"))+"/"+sxStr(testenv.Path(n, "space", "title")))
				}
				return out
			}
			if got := strings.Join(defaults(s), ", "); got != "Handbook/Space 0, Guides/Space 7" {
				t.Errorf("default site spaces = %s", got)
			}
			// The default site space of Handbook goes: the first left takes over.
			sxOK(t, e.GraphQL(team.Admin.Token, `mutation($s: ID!, $id: ID!) { deleteSiteSpace(site: $s, id: $id) { deleted } }`,
				map[string]any{"s": site, "id": sxID(testenv.Path(s, "defaultSiteSection", "defaultSiteSpace"))}))
			if got := strings.Join(defaults(read()), ", "); got != "Handbook/Space 2, Guides/Space 7" {
				t.Errorf("default site spaces after deleting one = %s", got)
			}
			// The default section goes: another becomes the default.
			sxOK(t, e.GraphQL(team.Admin.Token, `mutation($s: ID!, $id: ID!) { deleteSiteSection(site: $s, id: $id) { deleted } }`,
				map[string]any{"s": site, "id": handbook}))
			s = read()
			if testenv.Path(s, "defaultSiteSection", "title") != "Guides" || testenv.Path(s, "sections", "nodes", 0, "default") != true {
				t.Errorf("defaults after deleting the default section = %v", s)
			}
		})
	})
}

// sxJSON is a compact JSON-ish rendering for comparisons of decoded values.
func sxJSON(v any) string { return fmt.Sprintf("%v", v) }

func TestSitesE2ESettingsMutations(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		w := sxNewWorld(t, e)
		team := w.team
		site := w.site(t, e, "Handbook", w.spaces[0], w.spaces[1])
		path := w.sitePath(site)
		var ss0, ss1 string
		{
			d := sxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { site(id: $id) { allSiteSpaces { nodes { id } } } }`, map[string]any{"id": site}))
			ss0 = sxStr(testenv.Path(d, "site", "allSiteSpaces", "nodes", 0, "id"))
			ss1 = sxStr(testenv.Path(d, "site", "allSiteSpaces", "nodes", 1, "id"))
		}
		perms := func(vars map[string]any) []sxCase {
			return []sxCase{
				{name: "editor", token: team.Editor.Token, vars: vars, code: "FORBIDDEN"},
				{name: "reader", token: team.Reader.Token, vars: vars, code: "FORBIDDEN"},
				{name: "outsider", token: team.Outsider.Token, vars: vars, code: "NOT_FOUND"},
			}
		}
		restJSON := func(p string) map[string]any { return sxDo(t, e, team.Reader.Token, "GET", p, nil, http.StatusOK) }

		t.Run("updateSiteCustomization", func(t *testing.T) {
			doc := `mutation($s: ID!, $set: JSON!) { updateSiteCustomization(site: $s, settings: $set) }`
			toREST := func(v map[string]any) (string, string, any) {
				return "PUT", w.sitePath(sxStr(v["s"])) + "/customization", v["set"]
			}
			vars := func(set any) map[string]any { return map[string]any{"s": site, "set": set} }
			cases := []sxCase{
				{name: "merged over the defaults", token: team.Admin.Token, vars: vars(map[string]any{"styling": map[string]any{"theme": "bold"}, "favicon": map[string]any{"emoji": "🎉"}}),
					check: func(t *testing.T, d map[string]any) {
						g := d["updateSiteCustomization"]
						if testenv.Path(g, "styling", "theme") != "bold" || testenv.Path(g, "styling", "corners") != "rounded" ||
							testenv.Path(g, "styling", "primaryColor", "light") != "#346DDB" || testenv.Path(g, "pdf", "enabled") != true {
							t.Errorf("updateSiteCustomization = %v", g)
						}
						if r := restJSON(path + "/customization"); sxJSON(r) != sxJSON(g) {
							t.Errorf("REST customization %v, GraphQL %v", r, g)
						}
						q := sxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { site(id: $id) { customization icon { emoji } } }`, map[string]any{"id": site}))
						if sxJSON(testenv.Path(q, "site", "customization")) != sxJSON(g) || testenv.Path(q, "site", "icon", "emoji") != "🎉" {
							t.Errorf("Site.customization = %v", q)
						}
						if testenv.Path(restJSON(path), "icon", "emoji") != "🎉" {
							t.Errorf("REST site icon = %v", restJSON(path)["icon"])
						}
					}},
				{name: "keys left out take their defaults", token: team.Admin.Token, vars: vars(map[string]any{"title": "Docs"}),
					check: func(t *testing.T, d map[string]any) {
						g := d["updateSiteCustomization"]
						if testenv.Path(g, "styling", "theme") != "clean" || testenv.Path(g, "title") != "Docs" || testenv.Path(restJSON(path), "icon") != nil {
							t.Errorf("updateSiteCustomization = %v", g)
						}
					}},
				{name: "unknown enum value", token: team.Admin.Token, vars: vars(map[string]any{"styling": map[string]any{"theme": "neon"}}), code: "BAD_REQUEST", field: "styling.theme"},
				{name: "unknown key", token: team.Admin.Token, vars: vars(map[string]any{"colour": "red"}), code: "BAD_REQUEST", field: "colour"},
				{name: "bad color", token: team.Admin.Token, vars: vars(map[string]any{"styling": map[string]any{"primaryColor": map[string]any{"light": "#ggg", "dark": "#000"}}}),
					code: "BAD_REQUEST", field: "styling.primaryColor.light"},
				{name: "wrong type", token: team.Admin.Token, vars: vars(map[string]any{"pdf": map[string]any{"enabled": "yes"}}), code: "BAD_REQUEST", field: "pdf.enabled"},
				// REST refuses a non-object body before the settings are read
				// (another message): only GraphQL is checked.
				{name: "not an object", token: team.Admin.Token, vars: vars([]any{}), code: "BAD_REQUEST", field: "body", noREST: true},
			}
			sxRun(t, e, doc, toREST, append(cases, perms(vars(map[string]any{"title": "Nope"}))...))
			if testenv.Path(restJSON(path+"/customization"), "title") != "Docs" {
				t.Errorf("customization changed by a failed call")
			}
		})

		t.Run("overrideSiteSpaceCustomization and deleteSiteSpaceCustomization", func(t *testing.T) {
			doc := `mutation($s: ID!, $ss: ID!, $set: JSON!) { overrideSiteSpaceCustomization(site: $s, siteSpace: $ss, settings: $set) }`
			toREST := func(v map[string]any) (string, string, any) {
				return "PATCH", w.sitePath(sxStr(v["s"])) + "/site-spaces/" + sxStr(v["ss"]) + "/customization", v["set"]
			}
			vars := func(ss string, set any) map[string]any { return map[string]any{"s": site, "ss": ss, "set": set} }
			cases := []sxCase{
				{name: "override", token: team.Admin.Token, vars: vars(ss1, map[string]any{"title": "Beta", "styling": map[string]any{"theme": "muted"}}),
					check: func(t *testing.T, d map[string]any) {
						g := d["overrideSiteSpaceCustomization"]
						if testenv.Path(g, "title") != "Beta" || testenv.Path(g, "styling", "theme") != "muted" || testenv.Path(g, "styling", "corners") != "rounded" {
							t.Errorf("overrideSiteSpaceCustomization = %v", g)
						}
						if r := restJSON(path + "/site-spaces/" + ss1 + "/customization"); sxJSON(r) != sxJSON(g) {
							t.Errorf("REST site space customization %v, GraphQL %v", r, g)
						}
						q := sxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { site(id: $id) { allSiteSpaces { nodes { id customization } } } }`, map[string]any{"id": site}))
						for _, n := range sxList(testenv.Path(q, "site", "allSiteSpaces", "nodes")) {
							want := "Docs" // the site's
							if testenv.Path(n, "id") == ss1 {
								want = "Beta"
							}
							if testenv.Path(n, "customization", "title") != want {
								t.Errorf("SiteSpace.customization of %v = %v, want title %q", testenv.Path(n, "id"), testenv.Path(n, "customization", "title"), want)
							}
						}
						// The site's own settings do not change.
						if testenv.Path(restJSON(path+"/customization"), "title") != "Docs" {
							t.Errorf("site customization changed by a site space override")
						}
					}},
				{name: "null resets one override, the others stay", token: team.Admin.Token, vars: vars(ss1, map[string]any{"title": nil}),
					check: func(t *testing.T, d map[string]any) {
						g := d["overrideSiteSpaceCustomization"]
						if testenv.Path(g, "title") != "Docs" || testenv.Path(g, "styling", "theme") != "muted" {
							t.Errorf("overrideSiteSpaceCustomization = %v", g)
						}
					}},
				{name: "not a site space key", token: team.Admin.Token, vars: vars(ss1, map[string]any{"styling": map[string]any{"font": "Inter"}}), code: "BAD_REQUEST", field: "styling.font"},
				{name: "unknown enum value", token: team.Admin.Token, vars: vars(ss1, map[string]any{"styling": map[string]any{"theme": "neon"}}), code: "BAD_REQUEST", field: "styling.theme"},
				{name: "unknown site space", token: team.Admin.Token, vars: vars("nope", map[string]any{"title": "X"}), code: "NOT_FOUND"},
			}
			sxRun(t, e, doc, toREST, append(cases, perms(vars(ss1, map[string]any{"title": "Nope"}))...))

			del := `mutation($s: ID!, $ss: ID!) { deleteSiteSpaceCustomization(site: $s, siteSpace: $ss) { id deleted } }`
			delREST := func(v map[string]any) (string, string, any) {
				return "DELETE", w.sitePath(sxStr(v["s"])) + "/site-spaces/" + sxStr(v["ss"]) + "/customization", nil
			}
			deleted := func(want bool) func(t *testing.T, d map[string]any) {
				return func(t *testing.T, d map[string]any) {
					if testenv.Path(d, "deleteSiteSpaceCustomization", "id") != ss1 || testenv.Path(d, "deleteSiteSpaceCustomization", "deleted") != want {
						t.Errorf("deleteSiteSpaceCustomization = %v, want deleted %v", d, want)
					}
				}
			}
			dv := map[string]any{"s": site, "ss": ss1}
			cases = append(perms(dv), sxCase{name: "unknown site space", token: team.Admin.Token, vars: map[string]any{"s": site, "ss": "nope"}, code: "NOT_FOUND"},
				sxCase{name: "delete", token: team.Admin.Token, vars: dv, check: deleted(true)},
				sxCase{name: "again", token: team.Admin.Token, vars: dv, check: deleted(false)})
			sxRun(t, e, del, delREST, cases)
			if r := restJSON(path + "/site-spaces/" + ss1 + "/customization"); testenv.Path(r, "styling", "theme") != "clean" || r["title"] != "Docs" {
				t.Errorf("site space customization after delete = %v", r)
			}
			// Through REST: 205, then 204.
			sxOK(t, e.GraphQL(team.Admin.Token, doc, vars(ss0, map[string]any{"title": "Alpha"})))
			if r := e.Do(team.Admin.Token, "DELETE", path+"/site-spaces/"+ss0+"/customization", nil); r.Status != http.StatusResetContent || len(r.Body) != 0 {
				t.Errorf("REST delete customization: %d %s", r.Status, r.Body)
			}
			if r := e.Do(team.Admin.Token, "DELETE", path+"/site-spaces/"+ss0+"/customization", nil); r.Status != http.StatusNoContent {
				t.Errorf("REST delete customization again: %d %s", r.Status, r.Body)
			}
		})

		t.Run("updateSiteAdaptiveSchema", func(t *testing.T) {
			doc := `mutation($s: ID!, $js: JSON!) { updateSiteAdaptiveSchema(site: $s, jsonSchema: $js) { object jsonSchema updatedAt } }`
			toREST := func(v map[string]any) (string, string, any) {
				return "PUT", w.sitePath(sxStr(v["s"])) + "/adaptive-schema", map[string]any{"jsonSchema": v["js"]}
			}
			vars := func(js any) map[string]any { return map[string]any{"s": site, "js": js} }
			// Claims declared in alphabetical order: see the known issue below.
			schema := map[string]any{
				"type": "object", "additionalProperties": false,
				"properties": map[string]any{
					"beta": map[string]any{"type": "boolean", "description": "Beta tester"},
					"plan": map[string]any{"type": "string", "enum": []any{"free", "pro"}},
					"unsigned": map[string]any{"type": "object", "additionalProperties": false,
						"properties": map[string]any{"bookmarked": map[string]any{"type": "boolean"}}},
				},
			}
			if r := e.Do(team.Reader.Token, "GET", path+"/adaptive-schema", nil); r.Status != http.StatusNotFound {
				t.Errorf("REST adaptive schema before any: %d %s", r.Status, r.Body)
			}
			q := sxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { site(id: $id) { adaptiveSchema { object } templateConditions { condition } } }`, map[string]any{"id": site}))
			if testenv.Path(q, "site", "adaptiveSchema") != nil || len(sxList(testenv.Path(q, "site", "templateConditions"))) != 0 {
				t.Errorf("adaptive schema before any = %v", q)
			}
			cases := []sxCase{
				{name: "set", token: team.Admin.Token, vars: vars(schema), check: func(t *testing.T, d map[string]any) {
					g := d["updateSiteAdaptiveSchema"].(map[string]any)
					if g["object"] != "site-adaptive-schema" || sxJSON(g["jsonSchema"]) != sxJSON(schema) || sxStr(g["updatedAt"]) == "" {
						t.Errorf("updateSiteAdaptiveSchema = %v", g)
					}
					r := restJSON(path + "/adaptive-schema")
					if r["object"] != "site-adaptive-schema" || sxJSON(r["jsonSchema"]) != sxJSON(schema) || r["updatedAt"] != g["updatedAt"] {
						t.Errorf("REST adaptive schema = %v, GraphQL %v", r, g)
					}
					q := sxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { site(id: $id) { adaptiveSchema { jsonSchema updatedAt } templateConditions { description condition } } }`,
						map[string]any{"id": site}))
					rc := restJSON(path + "/adaptive-schema/template-conditions")
					want := `[map[condition:visitor.claims.beta description:Beta tester] map[condition:visitor.claims.plan == "free" description:Visitor plan is "free"] map[condition:visitor.claims.unsigned.bookmarked description:Visitor has bookmarked]]`
					if got := sxJSON(testenv.Path(q, "site", "templateConditions")); got != want || sxJSON(rc["items"]) != want {
						t.Errorf("templateConditions:\nGraphQL %s\n   REST %v\n   want %s", got, rc["items"], want)
					}
					if sxJSON(testenv.Path(q, "site", "adaptiveSchema", "jsonSchema")) != sxJSON(schema) || testenv.Path(q, "site", "adaptiveSchema", "updatedAt") != g["updatedAt"] {
						t.Errorf("Site.adaptiveSchema = %v", q)
					}
				}},
				{name: "not an object schema", token: team.Admin.Token, vars: vars(map[string]any{"type": "string"}), code: "BAD_REQUEST", field: "jsonSchema.type"},
				{name: "additional properties allowed", token: team.Admin.Token, vars: vars(map[string]any{"type": "object", "properties": map[string]any{}}),
					code: "BAD_REQUEST", field: "jsonSchema.additionalProperties"},
				{name: "claim of an unknown type", token: team.Admin.Token, vars: vars(map[string]any{"type": "object", "additionalProperties": false,
					"properties": map[string]any{"x": map[string]any{"type": "integer"}}}), code: "BAD_REQUEST", field: "jsonSchema.properties.x.type"},
				{name: "not draft-07", token: team.Admin.Token, vars: vars(map[string]any{"type": 5}), code: "BAD_REQUEST", field: "jsonSchema.type"},
			}
			sxRun(t, e, doc, toREST, append(cases, perms(vars(schema))...))

			// Template conditions follow the declaration order of the claims.
			const unordered = `{"type":"object","additionalProperties":false,"properties":{"plan":{"type":"string"},"beta":{"type":"boolean"}}}`
			order := func() string {
				var out []string
				for _, it := range sxList(restJSON(path + "/adaptive-schema/template-conditions")["items"]) {
					out = append(out, sxStr(testenv.Path(it, "condition")))
				}
				return strings.Join(out, "; ")
			}
			sxDo(t, e, team.Admin.Token, "PUT", path+"/adaptive-schema", `{"jsonSchema":`+unordered+`}`, http.StatusOK)
			const declared = `visitor.claims.plan != nil && visitor.claims.plan != ""; visitor.claims.beta`
			if got := order(); got != declared {
				t.Errorf("REST template conditions: %s, want %s", got, declared)
			}
			// Through GraphQL too, written inline or as a variable (gqlgen
			// hands the resolver a map; the order comes from the request).
			sxDo(t, e, team.Admin.Token, "PUT", path+"/adaptive-schema", `{"jsonSchema":{"type":"object","additionalProperties":false,"properties":{"a":{"type":"boolean"}}}}`, http.StatusOK)
			sxOK(t, e.GraphQL(team.Admin.Token, `mutation($s: ID!) { updateSiteAdaptiveSchema(site: $s, jsonSchema: `+
				`{type: "object", additionalProperties: false, properties: {plan: {type: "string"}, beta: {type: "boolean"}}}) { object } }`,
				map[string]any{"s": site}))
			if got := order(); got != declared {
				t.Errorf("after updateSiteAdaptiveSchema with a literal, template conditions are %q, want the declaration order %q", got, declared)
			}
			sxDo(t, e, team.Admin.Token, "PUT", path+"/adaptive-schema", `{"jsonSchema":{"type":"object","additionalProperties":false,"properties":{"a":{"type":"boolean"}}}}`, http.StatusOK)
			sxOK(t, e.GraphQL(team.Admin.Token, `mutation($s: ID!, $js: JSON!) { updateSiteAdaptiveSchema(site: $s, jsonSchema: $js) { object } }`,
				map[string]any{"s": site, "js": json.RawMessage(unordered)}))
			if got := order(); got != declared {
				t.Errorf("after updateSiteAdaptiveSchema with a variable, template conditions are %q, want the declaration order %q", got, declared)
			}
		})

		t.Run("share links", func(t *testing.T) {
			// A published share-link site.
			sxOK(t, e.GraphQL(team.Admin.Token, `mutation($id: ID!) { updateSite(id: $id, input: {visibility: share_link}) { id } publishSite(id: $id) { published } }`, map[string]any{"id": site}))
			create := `mutation($s: ID!, $name: String!) { createSiteShareLink(site: $s, name: $name) { id object name active createdAt urls { published } } }`
			createREST := func(v map[string]any) (string, string, any) {
				return "POST", w.sitePath(sxStr(v["s"])) + "/share-links", map[string]any{"name": v["name"]}
			}
			var link, key string
			cases := []sxCase{
				{name: "create", token: team.Admin.Token, vars: map[string]any{"s": site, "name": "Reviewers"}, check: func(t *testing.T, d map[string]any) {
					g := d["createSiteShareLink"].(map[string]any)
					link = sxStr(g["id"])
					u := sxStr(testenv.Path(g, "urls", "published"))
					if g["object"] != "share-link" || g["name"] != "Reviewers" || g["active"] != true || !strings.Contains(u, "/~share/") {
						t.Fatalf("createSiteShareLink = %v", g)
					}
					key = u[strings.LastIndex(u, "/~share/")+len("/~share/"):]
					l := sxDo(t, e, team.Admin.Token, "GET", path+"/share-links", nil, http.StatusOK)
					if l["count"] != float64(1) || testenv.Path(l, "items", 0, "id") != link || testenv.Path(l, "items", 0, "urls", "published") != u {
						t.Errorf("REST share links = %v", l)
					}
				}},
				{name: "name too long", token: team.Admin.Token, vars: map[string]any{"s": site, "name": strings.Repeat("n", 51)}, code: "BAD_REQUEST", field: "name"},
			}
			sxRun(t, e, create, createREST, append(cases, perms(map[string]any{"s": site, "name": "Nope"})...))

			published := func(token string, shareKey any) *testenv.GQLResponse {
				return e.GraphQL(token, `query($id: ID!, $k: String) { site(id: $id) { urls(shareKey: $k) { published }
					publishedContent(shareKey: $k) { object site { id } structure { type structure { ... on SiteSpace { id urls(shareKey: $k) { published } } } } } } }`,
					map[string]any{"id": site, "k": shareKey})
			}
			d := sxOK(t, published(team.Reader.Token, key))
			if u := sxStr(testenv.Path(d, "site", "urls", "published")); !strings.HasSuffix(u, "/~share/"+key) ||
				testenv.Path(d, "site", "publishedContent", "object") != "published-content-site" ||
				!strings.HasPrefix(sxStr(testenv.Path(d, "site", "publishedContent", "structure", "structure", 0, "urls", "published")), u) {
				t.Errorf("with the key: %v", d)
			}
			d = sxOK(t, published(team.Reader.Token, nil))
			if testenv.Path(d, "site", "urls", "published") != nil || testenv.Path(d, "site", "publishedContent", "structure", "structure", 0, "urls", "published") != nil {
				t.Errorf("without a key, published URLs show: %v", d)
			}
			if r := published(team.Reader.Token, "wrong"); r.Code() != "NOT_FOUND" {
				t.Errorf("wrong key: %s", r.Raw)
			}
			if r := e.Do(team.Reader.Token, "GET", path+"/published?shareKey=wrong", nil); r.Status != http.StatusNotFound {
				t.Errorf("REST wrong key: %d", r.Status)
			}
			// Readers may not list share links.
			if r := e.GraphQL(team.Reader.Token, `query($id: ID!) { site(id: $id) { shareLinks { totalCount } } }`, map[string]any{"id": site}); r.Code() != "FORBIDDEN" {
				t.Errorf("reader shareLinks: %s", r.Raw)
			}
			q := sxOK(t, e.GraphQL(team.Admin.Token, `query($id: ID!) { site(id: $id) { shareLinks { totalCount nodes { id name active } } } }`, map[string]any{"id": site}))
			if testenv.Path(q, "site", "shareLinks", "totalCount") != float64(1) || testenv.Path(q, "site", "shareLinks", "nodes", 0, "id") != link {
				t.Errorf("shareLinks = %v", q)
			}

			update := `mutation($s: ID!, $id: ID!, $in: UpdateSiteShareLinkInput!) { updateSiteShareLink(site: $s, id: $id, input: $in) { id name active } }`
			updateREST := func(v map[string]any) (string, string, any) {
				return "PATCH", w.sitePath(sxStr(v["s"])) + "/share-links/" + sxStr(v["id"]), v["in"]
			}
			uv := func(in map[string]any) map[string]any { return map[string]any{"s": site, "id": link, "in": in} }
			cases = []sxCase{
				{name: "deactivate", token: team.Admin.Token, vars: uv(map[string]any{"active": false}), check: func(t *testing.T, d map[string]any) {
					g := d["updateSiteShareLink"].(map[string]any)
					if g["active"] != false || g["name"] != "Reviewers" {
						t.Errorf("updateSiteShareLink = %v", g)
					}
					// An inactive link's key no longer opens the site.
					if r := published(team.Reader.Token, key); r.Code() != "NOT_FOUND" {
						t.Errorf("inactive key: %s", r.Raw)
					}
				}},
				{name: "rename and reactivate", token: team.Admin.Token, vars: uv(map[string]any{"name": "QA", "active": true}), check: func(t *testing.T, d map[string]any) {
					if testenv.Path(d, "updateSiteShareLink", "name") != "QA" || testenv.Path(d, "updateSiteShareLink", "active") != true {
						t.Errorf("updateSiteShareLink = %v", d)
					}
					sxOK(t, published(team.Reader.Token, key))
				}},
				{name: "nothing to change", token: team.Admin.Token, vars: uv(map[string]any{}), code: "BAD_REQUEST", field: "body"},
				{name: "name too long", token: team.Admin.Token, vars: uv(map[string]any{"name": strings.Repeat("n", 51)}), code: "BAD_REQUEST", field: "name"},
				{name: "name null", token: team.Admin.Token, vars: uv(map[string]any{"name": nil}), code: "BAD_REQUEST", field: "name"},
				{name: "active null", token: team.Admin.Token, vars: uv(map[string]any{"active": nil}), code: "BAD_REQUEST", field: "active"},
				{name: "unknown link", token: team.Admin.Token, vars: map[string]any{"s": site, "id": "nope", "in": map[string]any{"active": true}}, code: "NOT_FOUND"},
			}
			sxRun(t, e, update, updateREST, append(cases, perms(uv(map[string]any{"active": false}))...))

			del := `mutation($s: ID!, $id: ID!) { deleteSiteShareLink(site: $s, id: $id) { id deleted } }`
			delREST := func(v map[string]any) (string, string, any) {
				return "DELETE", w.sitePath(sxStr(v["s"])) + "/share-links/" + sxStr(v["id"]), nil
			}
			deleted := func(want bool) func(t *testing.T, d map[string]any) {
				return func(t *testing.T, d map[string]any) {
					if testenv.Path(d, "deleteSiteShareLink", "id") != link || testenv.Path(d, "deleteSiteShareLink", "deleted") != want {
						t.Errorf("deleteSiteShareLink = %v, want deleted %v", d, want)
					}
				}
			}
			dv := map[string]any{"s": site, "id": link}
			sxRun(t, e, del, delREST, []sxCase{
				{name: "editor", token: team.Editor.Token, vars: dv, code: "FORBIDDEN"},
				{name: "reader", token: team.Reader.Token, vars: dv, code: "FORBIDDEN"},
				{name: "outsider", token: team.Outsider.Token, vars: dv, check: deleted(false)},
				{name: "delete", token: team.Admin.Token, vars: dv, check: deleted(true)},
				{name: "again", token: team.Admin.Token, vars: dv, check: deleted(false)},
			})
			if r := published(team.Reader.Token, key); r.Code() != "NOT_FOUND" {
				t.Errorf("deleted link's key: %s", r.Raw)
			}
		})
	})
}

// ---------------------------------------------------------------------------
// Queries

func TestSitesE2EQueries(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		w := sxNewWorld(t, e)
		team := w.team
		admin := team.Admin.Token
		guestUser, guest := e.User("guest@acme.test")
		e.Member(team.Org, guestUser, "")

		// Three sites, created through both doors.
		alpha := w.site(t, e, "Alpha Docs", w.spaces[0], w.spaces[1])
		beta := sxStr(sxDo(t, e, admin, "POST", "/v1/orgs/"+w.org+"/sites", map[string]any{"title": "Beta guide", "type": "premium", "spaces": []any{w.spaces[2]}}, http.StatusCreated)["id"])
		api := sxStr(testenv.Path(sxOK(t, e.GraphQL(admin, `mutation($o: ID!) { createSite(input: {organization: $o, title: "alpha API", type: legacy_basic, visibility: share_link}) { id } }`,
			map[string]any{"o": w.org})), "createSite", "id"))
		sxOK(t, e.GraphQL(admin, `mutation($id: ID!) { publishSite(id: $id) { id } }`, map[string]any{"id": alpha}))

		t.Run("Organization.sites filters", func(t *testing.T) {
			const q = `query($o: ID!, $first: Int, $after: String, $space: ID, $title: String, $published: Boolean, $type: [SiteType!]) {
				organization(id: $o) { sites(first: $first, after: $after, space: $space, title: $title, published: $published, type: $type) {
					totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id } } nodes { id type } } } }`
			gql := func(token string, vars map[string]any) ([]string, map[string]any) {
				t.Helper()
				vars["o"] = w.org
				d := sxOK(t, e.GraphQL(token, q, vars))
				conn := testenv.Path(d, "organization", "sites").(map[string]any)
				var ids []string
				for _, n := range sxList(conn["nodes"]) {
					ids = append(ids, sxStr(testenv.Path(n, "id")))
				}
				return ids, conn
			}
			restIDs := func(query string) []string {
				t.Helper()
				l := sxDo(t, e, team.Reader.Token, "GET", "/v1/orgs/"+w.org+"/sites"+query, nil, http.StatusOK)
				var ids []string
				for _, it := range sxList(l["items"]) {
					ids = append(ids, sxStr(testenv.Path(it, "id")))
				}
				if l["count"] != float64(len(ids)) {
					t.Errorf("REST %s: count %v for %d items", query, l["count"], len(ids))
				}
				return ids
			}
			for _, c := range []struct {
				name  string
				vars  map[string]any
				query string
				want  []string
			}{
				{"all, oldest first", map[string]any{}, "", []string{alpha, beta, api}},
				{"title contains, any case", map[string]any{"title": "ALPHA"}, "?title=ALPHA", []string{alpha, api}},
				{"published", map[string]any{"published": true}, "?published=true", []string{alpha}},
				{"unpublished", map[string]any{"published": false}, "?published=false", []string{beta, api}},
				{"types", map[string]any{"type": []any{"premium", "legacy_basic"}}, "?type=premium&type=legacy-basic", []string{beta, api}},
				{"space", map[string]any{"space": w.spaces[0]}, "?space=" + w.spaces[0], []string{alpha}},
				{"space and title", map[string]any{"space": w.spaces[2], "title": "alpha"}, "?space=" + w.spaces[2] + "&title=alpha", nil},
			} {
				t.Run(c.name, func(t *testing.T) {
					got, conn := gql(team.Reader.Token, c.vars)
					if fmt.Sprint(got) != fmt.Sprint(c.want) || conn["totalCount"] != float64(len(c.want)) {
						t.Errorf("GraphQL sites = %v (totalCount %v), want %v", got, conn["totalCount"], c.want)
					}
					if r := restIDs(c.query); fmt.Sprint(r) != fmt.Sprint(c.want) {
						t.Errorf("REST sites%s = %v, want %v", c.query, r, c.want)
					}
				})
			}
			t.Run("enum spelling", func(t *testing.T) {
				_, conn := gql(team.Reader.Token, map[string]any{"type": []any{"legacy_basic"}})
				if testenv.Path(conn, "nodes", 0, "type") != "legacy_basic" {
					t.Errorf("GraphQL type = %v", conn["nodes"])
				}
				if r := e.GraphQL(team.Reader.Token, q, map[string]any{"o": w.org, "type": []any{"legacy-basic"}}); r.Code() != "GRAPHQL_VALIDATION_FAILED" && len(r.Errors) == 0 {
					t.Errorf("GraphQL accepted the REST spelling legacy-basic: %s", r.Raw)
				}
				if r := e.Do(team.Reader.Token, "GET", "/v1/orgs/"+w.org+"/sites?type=bogus", nil); r.Status != http.StatusBadRequest ||
					!strings.Contains(sxStr(testenv.Path(r.JSON(), "error", "message")), "type") {
					t.Errorf("REST ?type=bogus: %d %s", r.Status, r.Body)
				}
				rs := sxDo(t, e, team.Reader.Token, "GET", w.sitePath(api), nil, http.StatusOK)
				if rs["type"] != "legacy-basic" || rs["visibility"] != "share-link" {
					t.Errorf("REST spelling: %v %v", rs["type"], rs["visibility"])
				}
				d := sxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { site(id: $id) { type appliedType visibility } }`, map[string]any{"id": api}))
				if testenv.Path(d, "site", "type") != "legacy_basic" || testenv.Path(d, "site", "visibility") != "share_link" {
					t.Errorf("GraphQL spelling: %v", d)
				}
			})
			t.Run("paging", func(t *testing.T) {
				page1, conn := gql(team.Reader.Token, map[string]any{"first": 2})
				if fmt.Sprint(page1) != fmt.Sprint([]string{alpha, beta}) || testenv.Path(conn, "pageInfo", "hasNextPage") != true ||
					conn["totalCount"] != float64(3) || testenv.Path(conn, "edges", 1, "cursor") != testenv.Path(conn, "pageInfo", "endCursor") {
					t.Fatalf("first page = %v", conn)
				}
				page2, conn := gql(team.Reader.Token, map[string]any{"first": 2, "after": testenv.Path(conn, "pageInfo", "endCursor")})
				if fmt.Sprint(page2) != fmt.Sprint([]string{api}) || testenv.Path(conn, "pageInfo", "hasNextPage") != false {
					t.Errorf("second page = %v", conn)
				}
				l := sxDo(t, e, team.Reader.Token, "GET", "/v1/orgs/"+w.org+"/sites?limit=2", nil, http.StatusOK)
				if l["count"] != float64(3) || len(sxList(l["items"])) != 2 || testenv.Path(l, "next", "page") == nil {
					t.Errorf("REST first page = %v", l)
				}
			})
			t.Run("who may list", func(t *testing.T) {
				if r := e.GraphQL(guest, q, map[string]any{"o": w.org}); r.Code() != "NOT_FOUND" {
					t.Errorf("guest: %s", r.Raw)
				}
				if r := e.GraphQL(team.Outsider.Token, q, map[string]any{"o": w.org}); r.Code() != "NOT_FOUND" {
					t.Errorf("outsider: %s", r.Raw)
				}
				for _, tok := range []string{guest, team.Outsider.Token} {
					if r := e.Do(tok, "GET", "/v1/orgs/"+w.org+"/sites", nil); r.Status != http.StatusNotFound {
						t.Errorf("REST list: %d %s", r.Status, r.Body)
					}
				}
				if r := e.GraphQL("", q, map[string]any{"o": w.org}); r.Code() != "UNAUTHENTICATED" {
					t.Errorf("no token: %s", r.Raw)
				}
			})
		})

		t.Run("site(id:)", func(t *testing.T) {
			q := `query($id: ID!) { site(id: $id) { ` + sxSiteFields + ` } }`
			for _, id := range []string{alpha, beta, api} {
				g := sxOK(t, e.GraphQL(team.Reader.Token, q, map[string]any{"id": id}))["site"].(map[string]any)
				sxSameSite(t, g, sxDo(t, e, team.Reader.Token, "GET", w.sitePath(id), nil, http.StatusOK))
				if testenv.Path(g, "organization", "id") != w.org {
					t.Errorf("organization = %v", g["organization"])
				}
			}
			for _, c := range []struct {
				name, token, id string
			}{{"outsider", team.Outsider.Token, alpha}, {"guest", guest, alpha}, {"unknown", admin, "Wnope"}} {
				r := e.GraphQL(c.token, `query($id: ID!) { site(id: $id) { id } }`, map[string]any{"id": c.id})
				if r.Code() != "NOT_FOUND" || r.Data != nil && r.Data["site"] != nil {
					t.Errorf("%s: %s", c.name, r.Raw)
				} else if strings.Contains(r.Errors[0].Message, w.org) {
					t.Errorf("%s: the error names the site's organization: %q", c.name, r.Errors[0].Message)
				}
			}
			// The site of another organization is not found through this one's REST path.
			other := sxStr(sxDo(t, e, team.Outsider.Token, "POST", "/v1/orgs/"+team.Other.ID+"/sites", map[string]any{"title": "Other site"}, http.StatusCreated)["id"])
			if r := e.Do(admin, "GET", "/v1/orgs/"+w.org+"/sites/"+other, nil); r.Status != http.StatusNotFound {
				t.Errorf("REST other org's site: %d", r.Status)
			}
		})

		// A structure with sections, groups (nested) and site spaces.
		sec1 := sxStr(testenv.Path(sxOK(t, e.GraphQL(admin, `mutation($s: ID!, $sp: ID!) { addSiteSection(site: $s, input: {space: $sp, title: "Guides"}) { id } }`,
			map[string]any{"s": alpha, "sp": w.spaces[3]})), "addSiteSection", "id"))
		sec2 := sxStr(sxDo(t, e, admin, "POST", w.sitePath(alpha)+"/sections", map[string]any{"spaceId": w.spaces[4], "title": "Reference"}, http.StatusCreated)["id"])
		sxDo(t, e, admin, "POST", w.sitePath(alpha)+"/site-spaces", map[string]any{"spaceId": w.spaces[5], "sectionId": sec2}, http.StatusCreated)
		outer := sxStr(testenv.Path(sxOK(t, e.GraphQL(admin, `mutation($s: ID!, $secs: [ID!]) { createSiteSectionGroup(site: $s, input: {title: "Outer", sections: $secs}) { id } }`,
			map[string]any{"s": alpha, "secs": []any{sec1}})), "createSiteSectionGroup", "id"))
		innerG := sxStr(sxDo(t, e, admin, "POST", w.sitePath(alpha)+"/section-groups", map[string]any{"title": "Inner", "parent": outer, "sections": []any{sec2}}, http.StatusCreated)["id"])
		defSec := sxStr(testenv.Path(sxDo(t, e, team.Reader.Token, "GET", w.sitePath(alpha)+"/sections", nil, http.StatusOK), "items", 0, "id"))

		t.Run("structure", func(t *testing.T) {
			want := "sections: Alpha Docs[Space 0 Space 1] {Outer: Guides[Space 3] {Inner: Reference[Space 4 Space 5]}}"
			if got := sxStructure(t, e, team.Reader.Token, w.sitePath(alpha)); got != want {
				t.Errorf("REST structure:\n got %s\nwant %s", got, want)
			}
			const q = `query($id: ID!) { site(id: $id) {
				defaultSiteSection { id }
				structure { type structure { __typename
					... on SiteSection { id title default siteSpaces { nodes { space { title } } } }
					... on SiteSectionGroup { id title sectionGroup { id } sections { id }
						children { totalCount nodes { __typename
							... on SiteSection { id title sectionGroup { id } }
							... on SiteSectionGroup { id title sectionGroup { id } children { nodes { ... on SiteSection { id title } } } } } } } } }
				sections(first: 10) { totalCount nodes { id title } }
				sectionGroups { totalCount nodes { id title } }
				allSiteSpaces { totalCount nodes { id space { title } section { id } default } }
				defaults: allSiteSpaces(default: true) { nodes { space { title } } }
				others: allSiteSpaces(default: false) { nodes { space { title } } } } }`
			d := sxOK(t, e.GraphQL(team.Reader.Token, q, map[string]any{"id": alpha}))["site"].(map[string]any)
			st := testenv.Path(d, "structure").(map[string]any)
			items := sxList(st["structure"])
			if st["type"] != "sections" || len(items) != 2 || testenv.Path(items[0], "__typename") != "SiteSection" || testenv.Path(items[0], "id") != defSec ||
				testenv.Path(items[0], "default") != true || sxID(d["defaultSiteSection"]) != defSec || testenv.Path(items[1], "__typename") != "SiteSectionGroup" {
				t.Fatalf("structure = %v", st)
			}
			g := items[1].(map[string]any)
			kids := sxList(testenv.Path(g, "children", "nodes"))
			if g["id"] != outer || g["sectionGroup"] != nil || testenv.Path(g, "children", "totalCount") != float64(2) ||
				testenv.Path(kids[0], "__typename") != "SiteSection" || testenv.Path(kids[0], "id") != sec1 || testenv.Path(kids[0], "sectionGroup", "id") != outer ||
				testenv.Path(kids[1], "__typename") != "SiteSectionGroup" || testenv.Path(kids[1], "id") != innerG || testenv.Path(kids[1], "sectionGroup", "id") != outer ||
				testenv.Path(kids[1], "children", "nodes", 0, "id") != sec2 || len(sxList(g["sections"])) != 1 || testenv.Path(g, "sections", 0, "id") != sec1 {
				t.Errorf("group = %v", g)
			}
			var titles []string
			for _, n := range sxList(testenv.Path(d, "sections", "nodes")) {
				titles = append(titles, sxStr(testenv.Path(n, "title")))
			}
			if strings.Join(titles, ",") != "Alpha Docs,Guides,Reference" || testenv.Path(d, "sections", "totalCount") != float64(3) {
				t.Errorf("sections in structure order = %v", titles)
			}
			titles = nil
			for _, n := range sxList(testenv.Path(d, "sectionGroups", "nodes")) {
				titles = append(titles, sxStr(testenv.Path(n, "title")))
			}
			if strings.Join(titles, ",") != "Outer,Inner" {
				t.Errorf("sectionGroups = %v", titles)
			}
			spaceTitles := func(key string) string {
				var out []string
				for _, n := range sxList(testenv.Path(d, key, "nodes")) {
					out = append(out, sxStr(testenv.Path(n, "space", "title")))
				}
				return strings.Join(out, ",")
			}
			if got := spaceTitles("allSiteSpaces"); got != "Space 0,Space 1,Space 3,Space 4,Space 5" {
				t.Errorf("allSiteSpaces = %s", got)
			}
			if got := spaceTitles("defaults"); got != "Space 0,Space 3,Space 4" {
				t.Errorf("allSiteSpaces(default: true) = %s", got)
			}
			if got := spaceTitles("others"); got != "Space 1,Space 5" {
				t.Errorf("allSiteSpaces(default: false) = %s", got)
			}
			// The same through REST, by the same ids.
			r := sxDo(t, e, team.Reader.Token, "GET", w.sitePath(alpha)+"/site-spaces?default=true", nil, http.StatusOK)
			var restDefaults []string
			for _, it := range sxList(r["items"]) {
				restDefaults = append(restDefaults, sxStr(testenv.Path(it, "space", "title")))
			}
			if strings.Join(restDefaults, ",") != "Space 0,Space 3,Space 4" {
				t.Errorf("REST ?default=true = %v", restDefaults)
			}
			gr := sxDo(t, e, team.Reader.Token, "GET", w.sitePath(alpha)+"/section-groups", nil, http.StatusOK)
			if gr["count"] != float64(2) || testenv.Path(gr, "items", 0, "id") != outer || testenv.Path(gr, "items", 1, "id") != innerG ||
				testenv.Path(gr, "items", 1, "sectionGroup") != outer || testenv.Path(gr, "items", 0, "children", 1, "id") != innerG {
				t.Errorf("REST section groups = %v", gr)
			}
		})

		t.Run("publishedContent", func(t *testing.T) {
			sxOK(t, e.GraphQL(admin, `mutation($s: ID!, $ss: ID!) { overrideSiteSpaceCustomization(site: $s, siteSpace: $ss, settings: {title: "Five"}) }`,
				map[string]any{"s": alpha, "ss": sxID(testenv.Path(sxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { site(id: $id) { allSiteSpaces(default: false) { nodes { id } } } }`,
					map[string]any{"id": alpha})), "site", "allSiteSpaces", "nodes", 1))}))
			const q = `query($id: ID!) { site(id: $id) { publishedContent { object site { id published urls { published } }
				structure { type structure { __typename ... on SiteSection { id urls { published } siteSpaces { nodes { id urls { published } } } } ... on SiteSectionGroup { id } } }
				customizations { site siteSpaces } scripts { script } } } }`
			g := testenv.Path(sxOK(t, e.GraphQL(team.Reader.Token, q, map[string]any{"id": alpha})), "site", "publishedContent").(map[string]any)
			r := sxDo(t, e, team.Reader.Token, "GET", w.sitePath(alpha)+"/published", nil, http.StatusOK)
			if g["object"] != "published-content-site" || r["object"] != g["object"] || testenv.Path(g, "site", "id") != alpha || testenv.Path(r, "site", "id") != alpha ||
				len(sxList(g["scripts"])) != 0 || len(sxList(r["scripts"])) != 0 {
				t.Errorf("published: GraphQL %v, REST %v", g, r)
			}
			if testenv.Path(g, "structure", "type") != testenv.Path(r, "structure", "type") ||
				testenv.Path(g, "structure", "structure", 0, "id") != testenv.Path(r, "structure", "structure", 0, "id") ||
				testenv.Path(g, "structure", "structure", 0, "urls", "published") != testenv.Path(r, "structure", "structure", 0, "urls", "published") ||
				testenv.Path(g, "structure", "structure", 0, "siteSpaces", "nodes", 1, "urls", "published") != testenv.Path(r, "structure", "structure", 0, "siteSpaces", 1, "urls", "published") ||
				testenv.Path(g, "structure", "structure", 1, "id") != testenv.Path(r, "structure", "structure", 1, "id") {
				t.Errorf("published structure: GraphQL %v, REST %v", g["structure"], r["structure"])
			}
			if u := sxStr(testenv.Path(g, "structure", "structure", 0, "siteSpaces", "nodes", 1, "urls", "published")); !strings.HasSuffix(u, "/space-1") {
				t.Errorf("published URL of a non-default site space in the default section = %q", u)
			}
			gs, rs := testenv.Path(g, "customizations", "siteSpaces").(map[string]any), testenv.Path(r, "customizations", "siteSpaces").(map[string]any)
			if len(gs) != 5 || sxJSON(gs) != sxJSON(rs) || sxJSON(testenv.Path(g, "customizations", "site")) != sxJSON(testenv.Path(r, "customizations", "site")) {
				t.Errorf("customizations: GraphQL %v, REST %v", g["customizations"], r["customizations"])
			}
			var titles []string
			for _, set := range gs {
				titles = append(titles, sxStr(testenv.Path(set, "title")))
			}
			if n := strings.Count(strings.Join(titles, ","), "Five"); n != 1 {
				t.Errorf("site space titles in customizations = %v", titles)
			}
			// An unpublished site has a profile without published URLs.
			pb := testenv.Path(sxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { site(id: $id) { publishedContent { site { published urls { published } } } } }`,
				map[string]any{"id": beta})), "site", "publishedContent", "site").(map[string]any)
			if pb["published"] != false || testenv.Path(pb, "urls", "published") != nil {
				t.Errorf("unpublished profile = %v", pb)
			}
			// A share-link site needs the right key; a wrong one is not found.
			if r := e.GraphQL(team.Reader.Token, `query($id: ID!) { site(id: $id) { publishedContent(shareKey: "wrong") { object } } }`, map[string]any{"id": api}); r.Code() != "NOT_FOUND" {
				t.Errorf("wrong share key: %s", r.Raw)
			}
			if r := e.GraphQL(team.Reader.Token, `query($id: ID!) { site(id: $id) { structure(shareKey: "wrong") { type } } }`, map[string]any{"id": api}); r.Code() != "NOT_FOUND" {
				t.Errorf("wrong share key on structure: %s", r.Raw)
			}
		})

		t.Run("settings fields", func(t *testing.T) {
			const q = `query($id: ID!) { site(id: $id) { customization adaptiveSchema { object } templateConditions { condition } } }`
			d := sxOK(t, e.GraphQL(team.Reader.Token, q, map[string]any{"id": alpha}))
			if sxJSON(testenv.Path(d, "site", "customization")) != sxJSON(sxDo(t, e, team.Reader.Token, "GET", w.sitePath(alpha)+"/customization", nil, http.StatusOK)) {
				t.Errorf("customization differs across doors")
			}
			if testenv.Path(d, "site", "adaptiveSchema") != nil || len(sxList(testenv.Path(d, "site", "templateConditions"))) != 0 {
				t.Errorf("no adaptive schema: %v", d)
			}
			if r := e.Do(team.Reader.Token, "GET", w.sitePath(alpha)+"/adaptive-schema/template-conditions", nil); r.Status != http.StatusOK || len(sxList(r.JSON()["items"])) != 0 {
				t.Errorf("REST template conditions without schema: %d %s", r.Status, r.Body)
			}
			// Share links: writers only, through both doors.
			if r := e.GraphQL(team.Editor.Token, `query($id: ID!) { site(id: $id) { title shareLinks { totalCount } } }`, map[string]any{"id": api}); r.Code() != "FORBIDDEN" {
				t.Errorf("editor shareLinks: %s", r.Raw)
			}
			if r := e.Do(team.Reader.Token, "GET", w.sitePath(api)+"/share-links", nil); r.Status != http.StatusForbidden {
				t.Errorf("REST reader share links: %d", r.Status)
			}
		})

		t.Run("ids across doors", func(t *testing.T) {
			// Created through GraphQL, read through REST.
			d := sxOK(t, e.GraphQL(admin, `mutation($s: ID!, $sp: ID!) {
				sec: addSiteSection(site: $s, input: {space: $sp, title: "Extra"}) { id siteSpaces { nodes { id } } } }`, map[string]any{"s": beta, "sp": w.spaces[0]}))
			secID := sxStr(testenv.Path(d, "sec", "id"))
			ssID := sxStr(testenv.Path(d, "sec", "siteSpaces", "nodes", 0, "id"))
			d = sxOK(t, e.GraphQL(admin, `mutation($s: ID!, $sec: ID!) {
				g: createSiteSectionGroup(site: $s, input: {title: "G", sections: [$sec]}) { id }
				l: createSiteShareLink(site: $s, name: "L") { id } }`, map[string]any{"s": beta, "sec": secID}))
			gID, lID := sxStr(testenv.Path(d, "g", "id")), sxStr(testenv.Path(d, "l", "id"))
			p := w.sitePath(beta)
			sxDo(t, e, admin, "PATCH", p+"/sections/"+secID, map[string]any{"title": "Extra 2"}, http.StatusOK)
			sxDo(t, e, admin, "PATCH", p+"/site-spaces/"+ssID, map[string]any{"hidden": true}, http.StatusOK)
			sxDo(t, e, admin, "PATCH", p+"/section-groups/"+gID, map[string]any{"title": "G 2"}, http.StatusOK)
			sxDo(t, e, admin, "PATCH", p+"/share-links/"+lID, map[string]any{"name": "L 2"}, http.StatusOK)
			// Created through REST, read and changed through GraphQL.
			rs := sxDo(t, e, admin, "POST", p+"/site-spaces", map[string]any{"spaceId": w.spaces[5], "sectionId": secID}, http.StatusCreated)
			rl := sxDo(t, e, admin, "POST", p+"/share-links", map[string]any{"name": "R"}, http.StatusCreated)
			d = sxOK(t, e.GraphQL(admin, `mutation($s: ID!, $ss: ID!, $l: ID!, $sec: ID!, $g: ID!) {
				ss: updateSiteSpace(site: $s, id: $ss, input: {path: "rest-made"}) { id path section { id } }
				l: updateSiteShareLink(site: $s, id: $l, input: {name: "R 2"}) { id name }
				sec: updateSiteSection(site: $s, id: $sec, input: {path: "extra"}) { id title }
				g: updateSiteSectionGroup(site: $s, id: $g, input: {icon: "x"}) { id title } }`,
				map[string]any{"s": beta, "ss": rs["id"], "l": rl["id"], "sec": secID, "g": gID}))
			if testenv.Path(d, "ss", "id") != rs["id"] || testenv.Path(d, "ss", "section", "id") != secID || testenv.Path(d, "l", "name") != "R 2" ||
				testenv.Path(d, "sec", "title") != "Extra 2" || testenv.Path(d, "g", "title") != "G 2" {
				t.Errorf("GraphQL over REST-made objects = %v", d)
			}
			d = sxOK(t, e.GraphQL(admin, `query($id: ID!) { site(id: $id) { id title shareLinks { nodes { id name } } sections { nodes { id sectionGroup { id } siteSpaces { nodes { id hidden path } } } } } }`,
				map[string]any{"id": beta}))
			if testenv.Path(d, "site", "shareLinks", "nodes", 0, "name") != "L 2" || testenv.Path(d, "site", "shareLinks", "nodes", 1, "id") != rl["id"] {
				t.Errorf("share links = %v", testenv.Path(d, "site", "shareLinks"))
			}
			found := false
			for _, sec := range sxList(testenv.Path(d, "site", "sections", "nodes")) {
				if testenv.Path(sec, "id") != secID {
					continue
				}
				found = true
				if testenv.Path(sec, "sectionGroup", "id") != gID || testenv.Path(sec, "siteSpaces", "nodes", 0, "id") != ssID ||
					testenv.Path(sec, "siteSpaces", "nodes", 0, "hidden") != true || testenv.Path(sec, "siteSpaces", "nodes", 1, "path") != "rest-made" {
					t.Errorf("section = %v", sec)
				}
			}
			if !found {
				t.Errorf("section %s not in %v", secID, d)
			}
		})
	})
}
