package graph_test

import (
	"testing"

	"quire/internal/testenv"
)

func TestGraphQLNode(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		colID := restCollection(t, e, team.Admin.Token, team.Org.ID, "Guides", nil)
		spaceID := restSpace(t, e, team.Admin.Token, team.Org.ID, "Handbook", colID)
		otherSpace := restSpace(t, e, team.Outsider.Token, team.Other.ID, "Secret", nil)
		otherCol := restCollection(t, e, team.Outsider.Token, team.Other.ID, "Secret collection", nil)

		const doc = `query($id: ID!) { node(id: $id) { __typename id
			... on Organization { title }
			... on Collection { title }
			... on Space { title parent { id } }
			... on User { displayName } } }`
		for _, c := range []struct {
			name, id, typename, field, value string
		}{
			{"organization", team.Org.ID, "Organization", "title", "Acme"},
			{"collection", colID, "Collection", "title", "Guides"},
			{"space", spaceID, "Space", "title", "Handbook"},
			{"user self", team.Reader.User.ID, "User", "displayName", "reader"},
			{"user sharing an organization", team.Admin.User.ID, "User", "displayName", "admin"},
		} {
			t.Run(c.name, func(t *testing.T) {
				d := gqlOK(t, e.GraphQL(team.Reader.Token, doc, map[string]any{"id": c.id}))
				n := d["node"].(map[string]any)
				if n["__typename"] != c.typename || n["id"] != c.id || n[c.field] != c.value {
					t.Errorf("node(%s) = %v", c.id, n)
				}
			})
		}
		t.Run("space fragment", func(t *testing.T) {
			d := gqlOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { node(id: $id) { id ...S } } fragment S on Space { title parent { title } }`, map[string]any{"id": spaceID}))
			if testenv.Path(d, "node", "title") != "Handbook" || testenv.Path(d, "node", "parent", "title") != "Guides" {
				t.Errorf("node = %v", d)
			}
			// The id is the REST id.
			rest := restGet(t, e, team.Reader.Token, "/v1/spaces/"+spaceID)
			if rest["id"] != testenv.Path(d, "node", "id") || rest["title"] != "Handbook" {
				t.Errorf("REST space = %v", rest)
			}
		})
		for _, c := range []struct{ name, id string }{
			{"other organization", team.Other.ID},
			{"space of another organization", otherSpace},
			{"collection of another organization", otherCol},
			{"user sharing no organization", team.Outsider.User.ID},
			{"unknown space", "S0000000000000000000"},
			{"not an id", "hello"},
			{"member id kind", "M0000000000000000000"},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := e.GraphQL(team.Reader.Token, doc, map[string]any{"id": c.id})
				gqlErr(t, r, "NOT_FOUND", "")
				if r.Data == nil {
					t.Errorf("data = null, want {node: null} (node is nullable): %s", r.Raw)
				} else if v, ok := r.Data["node"]; !ok || v != nil {
					t.Errorf("data.node = %v, want null", v)
				}
			})
		}
	})
}

func TestGraphQLNodes(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		colID := restCollection(t, e, team.Admin.Token, team.Org.ID, "Guides", nil)
		spaceID := restSpace(t, e, team.Admin.Token, team.Org.ID, "Handbook", colID)
		otherSpace := restSpace(t, e, team.Outsider.Token, team.Other.ID, "Secret", nil)
		otherCol := restCollection(t, e, team.Outsider.Token, team.Other.ID, "Secret collection", nil)

		list := []string{
			spaceID, otherSpace, "S0000000000000000000", team.Org.ID, team.Other.ID,
			colID, otherCol, team.Admin.User.ID, team.Outsider.User.ID, "nonsense", spaceID,
		}
		visible := []bool{true, false, false, true, false, true, false, true, false, false, true}
		d := gqlOK(t, e.GraphQL(team.Reader.Token, `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Space { title } } }`, map[string]any{"ids": list}))
		got := d["nodes"].([]any)
		if len(got) != len(list) {
			t.Fatalf("nodes: %d results for %d ids: %v", len(got), len(list), got)
		}
		for i, n := range got {
			if !visible[i] {
				if n != nil {
					t.Errorf("nodes[%d] (%s) = %v, want null", i, list[i], n)
				}
				continue
			}
			if testenv.Path(n, "id") != list[i] {
				t.Errorf("nodes[%d] = %v, want id %s", i, n, list[i])
			}
		}
		if testenv.Path(got, 0, "title") != "Handbook" || testenv.Path(got, 0, "__typename") != "Space" {
			t.Errorf("nodes[0] = %v", got[0])
		}
		// Too many ids.
		many := make([]string, 101)
		for i := range many {
			many[i] = spaceID
		}
		gqlErr(t, e.GraphQL(team.Reader.Token, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": many}), "BAD_REQUEST", "ids")
	})
}
