package graph_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

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
