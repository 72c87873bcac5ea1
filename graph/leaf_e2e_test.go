package graph_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"quire/internal/testenv"
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
