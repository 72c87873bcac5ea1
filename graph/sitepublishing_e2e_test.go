package graph_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

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
