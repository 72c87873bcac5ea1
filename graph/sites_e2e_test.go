package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"quire/ent/sitesharelink"
	"quire/ent/sitespace"
	"quire/internal/testing/testenv"
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
