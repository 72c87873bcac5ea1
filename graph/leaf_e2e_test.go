package graph_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// SpacePermissions, SpaceUrls, MergeRules and MergeRule are written by
// graph/leaf rather than field by field by gqlgen: the answer must be what
// gqlgen writes for any selection (aliases, repeated fields, fragments,
// @skip/@include, __typename, field order, nulls), and hold the values REST
// shows.
func TestGraphQLLeafObjectsFollowTheSelection(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		sp := restSpace(t, e, team.Admin.Token, team.Org.ID, "Rules", nil)
		set := e.GraphQL(team.Admin.Token, `mutation($id: ID!, $in: UpdateSpaceInput!) { updateSpace(id: $id, input: $in) { id } }`,
			map[string]any{"id": sp, "in": map[string]any{"mergeRules": map[string]any{"type": "rules", "rules": []any{
				map[string]any{"rule": "require_specific_reviewers", "users": []any{team.Editor.User.ID, team.Admin.User.ID}},
			}}}})
		gqlOK(t, set)

		const query = `query($id: ID!, $no: Boolean!) { space(id: $id) {
			permissions { __typename canView: view view ...P edit @skip(if: true) admin @include(if: true) view }
			urls { app location loc2: location icon published }
			mergeRules { __typename type rules { r: rule users ... on MergeRule { rule } expression } again: rules @skip(if: $no) { rule } }
		} }
		fragment P on SpacePermissions { merge review }`
		for _, who := range []struct {
			name string
			user testenv.Actor
		}{{"admin", team.Admin}, {"reader", team.Reader}} {
			t.Run(who.name, func(t *testing.T) {
				rest := restGet(t, e, who.user.Token, "/v1/spaces/"+sp)
				perm := rest["permissions"].(map[string]any)
				urls := rest["urls"].(map[string]any)
				users, _ := json.Marshal([]string{team.Editor.User.ID, team.Admin.User.ID})
				want := fmt.Sprintf(`{"data":{"space":{`+
					`"permissions":{"__typename":"SpacePermissions","canView":%v,"view":%v,"merge":%v,"review":%v,"admin":%v},`+
					`"urls":{"app":%q,"location":%q,"loc2":%q,"icon":null,"published":null},`+
					`"mergeRules":{"__typename":"MergeRules","type":"rules","rules":[{"r":"require_specific_reviewers","users":%s,"rule":"require_specific_reviewers","expression":null}],"again":[{"rule":"require_specific_reviewers"}]}`+
					`}}}`,
					perm["view"], perm["view"], perm["merge"], perm["review"], perm["admin"],
					urls["app"], urls["location"], urls["location"], users)
				r := e.GraphQL(who.user.Token, query, map[string]any{"id": sp, "no": false})
				gqlOK(t, r)
				if string(r.Raw) != want {
					t.Errorf("answer:\n got %s\nwant %s", r.Raw, want)
				}
				// @skip with a variable.
				r = e.GraphQL(who.user.Token, query, map[string]any{"id": sp, "no": true})
				gqlOK(t, r)
				if _, ok := testenv.Path(r.Data, "space", "mergeRules").(map[string]any)["again"]; ok {
					t.Errorf("again is skipped, but answered: %s", r.Raw)
				}
			})
		}

		// No rules: the list is null, as gqlgen writes a nil list.
		gqlOK(t, e.GraphQL(team.Admin.Token, `mutation($id: ID!) { updateSpace(id: $id, input: {mergeRules: {type: "none"}}) { id } }`, map[string]any{"id": sp}))
		r := e.GraphQL(team.Admin.Token, `query($id: ID!) { space(id: $id) { mergeRules { type rules { rule } } } }`, map[string]any{"id": sp})
		gqlOK(t, r)
		if want := `{"data":{"space":{"mergeRules":{"type":"none","rules":null}}}}`; string(r.Raw) != want {
			t.Errorf("no rules:\n got %s\nwant %s", r.Raw, want)
		}
	})
}

// leafReach is, for each type bound to a graph/leaf Go type in gqlgen.yml, a
// query that reaches an object of it, with %s where its selection goes
// ($space: a space with merge rules; $site: a published site of it).
var leafReach = map[string]string{
	"SpacePermissions": `query($space: ID!) { space(id: $space) { permissions { %s } } }`,
	"SpaceUrls":        `query($space: ID!) { space(id: $space) { urls { %s } } }`,
	"MergeRules":       `query($space: ID!) { space(id: $space) { mergeRules { %s } } }`,
	"PublishedUrls":    `query($site: ID!) { site(id: $site) { allSiteSpaces(first: 1) { nodes { urls { %s } } } } }`,
}

// leafTypes reads gqlgen.yml for the GraphQL types bound to graph/leaf.
func leafTypes(t *testing.T) []string {
	t.Helper()
	cfg, err := os.ReadFile("../gqlgen.yml")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile(`(?m)^  (\w+):\n    model: quire/graph/leaf\.\w+$`).FindAllSubmatch(cfg, -1) {
		out = append(out, string(m[1]))
	}
	if len(out) == 0 {
		t.Fatal("gqlgen.yml binds no type to graph/leaf")
	}
	return out
}

// A graph/leaf type writes the fields of its object itself: every field the
// schema gives the type (and the object types below it) must be written,
// alone and all together, and non-null ones with a value. A field added to
// the schema but not to the Go type answers null with an error, which this
// test reports.
func TestGraphQLLeafTypesWriteEveryField(t *testing.T) {
	types := leafTypes(t)
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		admin := team.Admin.Token
		sp := restSpace(t, e, admin, team.Org.ID, "Leaves", nil)
		gqlOK(t, e.GraphQL(admin, `mutation($id: ID!, $in: UpdateSpaceInput!) { updateSpace(id: $id, input: $in) { id } }`,
			map[string]any{"id": sp, "in": map[string]any{"icon": "https://example.com/icon.png", "mergeRules": map[string]any{"type": "rules", "rules": []any{
				map[string]any{"rule": "require_specific_reviewers", "users": []any{team.Editor.User.ID}},
				map[string]any{"rule": "custom", "users": []any{team.Admin.User.ID}, "expression": "true"},
			}}}}))
		site, _ := testenv.Path(gqlOK(t, e.GraphQL(admin, `mutation($o: ID!, $sp: ID!) { createSite(input: {organization: $o, title: "Leaves", spaces: [$sp]}) { id } }`,
			map[string]any{"o": team.Org.ID, "sp": sp})), "createSite", "id").(string)
		gqlOK(t, e.GraphQL(admin, `mutation($s: ID!) { publishSite(id: $s) { id } }`, map[string]any{"s": site}))
		vars := map[string]any{"space": sp, "site": site}

		// fields returns the fields of an object type by introspection:
		// each with its selection (a sub-selection of every field for
		// objects) and whether it is non-null.
		type field struct {
			name, selection string
			nonNull         bool
		}
		var fields func(t *testing.T, typ string) []field
		fields = func(t *testing.T, typ string) []field {
			t.Helper()
			d := gqlOK(t, e.GraphQL(admin, `query($t: String!) { __type(name: $t) { kind fields { name type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }`, map[string]any{"t": typ}))
			if testenv.Path(d, "__type", "kind") != "OBJECT" {
				t.Fatalf("%s is not an object type: %v", typ, d)
			}
			var out []field
			for _, f := range testenv.Path(d, "__type", "fields").([]any) {
				name := testenv.Path(f, "name").(string)
				ref := testenv.Path(f, "type")
				out1 := field{name: name, selection: name, nonNull: testenv.Path(ref, "kind") == "NON_NULL"}
				for testenv.Path(ref, "ofType") != nil {
					ref = testenv.Path(ref, "ofType")
				}
				if testenv.Path(ref, "kind") == "OBJECT" {
					var sub []string
					for _, s := range fields(t, testenv.Path(ref, "name").(string)) {
						sub = append(sub, s.selection)
					}
					out1.selection = name + " { " + strings.Join(sub, " ") + " }"
				}
				out = append(out, out1)
			}
			return out
		}
		// objects returns the objects the query answers at the leaf type
		// (the selection's parent), whatever the path to them.
		var objects func(v any, depth int) []map[string]any
		objects = func(v any, depth int) []map[string]any {
			if depth == 0 {
				m, _ := v.(map[string]any)
				return []map[string]any{m}
			}
			var out []map[string]any
			switch v := v.(type) {
			case map[string]any:
				for _, x := range v {
					out = append(out, objects(x, depth-1)...)
				}
			case []any:
				for _, x := range v {
					out = append(out, objects(x, depth)...)
				}
			}
			return out
		}

		for _, typ := range types {
			t.Run(typ, func(t *testing.T) {
				reach, ok := leafReach[typ]
				if !ok {
					t.Fatalf("gqlgen.yml binds %s to graph/leaf: add a query reaching it to leafReach", typ)
				}
				depth := strings.Count(reach[:strings.Index(reach, "%s")], "{") - 1
				all := fields(t, typ)
				check := func(t *testing.T, asked []field) {
					t.Helper()
					sel := make([]string, len(asked))
					for i, f := range asked {
						sel[i] = f.selection
					}
					r := e.GraphQL(admin, fmt.Sprintf(reach, strings.Join(sel, " ")), vars)
					d := gqlOK(t, r)
					objs := objects(d, depth)
					if len(objs) == 0 {
						t.Fatalf("no %s object in %s", typ, r.Raw)
					}
					for _, o := range objs {
						if len(o) != len(asked) {
							t.Errorf("%s answered %d fields for %d asked: %v", typ, len(o), len(asked), o)
						}
						for _, f := range asked {
							v, ok := o[f.name]
							if !ok || (f.nonNull && v == nil) {
								t.Errorf("%s.%s: %v (present %v), non-null %v, in %s", typ, f.name, v, ok, f.nonNull, r.Raw)
							}
						}
					}
				}
				for _, f := range all {
					t.Run(f.name, func(t *testing.T) { check(t, []field{f}) })
				}
				t.Run("all", func(t *testing.T) { check(t, all) })
			})
		}
	})
}
