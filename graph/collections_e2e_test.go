package graph_test

import (
	"net/http"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// ---------------------------------------------------------------------------
// Mutations

func TestGraphQLCollectionMutations(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		const create = `mutation($in: CreateCollectionInput!) { createCollection(input: $in) { ` + collectionFields + ` } }`
		long := strings.Repeat("é", 51)
		var created string
		t.Run("create", func(t *testing.T) {
			runMutations(t, e, create, restCreateCall("collections"), []mutationCase{
				{name: "admin", token: team.Admin.Token, vars: map[string]any{"in": map[string]any{"organization": team.Org.ID, "title": "Handbook"}},
					check: func(t *testing.T, d map[string]any) {
						c := d["createCollection"].(map[string]any)
						created = str(c["id"])
						if c["title"] != "Handbook" || c["defaultLevel"] != "inherit" || id(c["organization"]) != team.Org.ID || c["parent"] != nil {
							t.Errorf("created = %v", c)
						}
						sameCollection(t, c, restGet(t, e, team.Admin.Token, "/v1/collections/"+created))
					}},
				{name: "untitled", token: team.Admin.Token, vars: map[string]any{"in": map[string]any{"organization": team.Org.ID}},
					check: func(t *testing.T, d map[string]any) {
						if testenv.Path(d, "createCollection", "title") != "Untitled" {
							t.Errorf("created = %v", d)
						}
					}},
				{name: "title too long", token: team.Admin.Token, vars: map[string]any{"in": map[string]any{"organization": team.Org.ID, "title": long}}, code: "BAD_REQUEST", field: "title"},
				{name: "unknown parent", token: team.Admin.Token, vars: map[string]any{"in": map[string]any{"organization": team.Org.ID, "parent": "C0000000000000000000"}}, code: "BAD_REQUEST", field: "parent"},
				{name: "editor", token: team.Editor.Token, vars: map[string]any{"in": map[string]any{"organization": team.Org.ID, "title": "X"}}, code: "FORBIDDEN"},
				{name: "reader", token: team.Reader.Token, vars: map[string]any{"in": map[string]any{"organization": team.Org.ID, "title": "X"}}, code: "FORBIDDEN"},
				{name: "outsider", token: team.Outsider.Token, vars: map[string]any{"in": map[string]any{"organization": team.Org.ID, "title": "X"}}, code: "NOT_FOUND"},
			})
			// The same validation through REST names the same field.
			r := e.Do(team.Admin.Token, "POST", "/v1/orgs/"+team.Org.ID+"/collections", map[string]any{"title": long})
			if r.Status != http.StatusBadRequest || !strings.Contains(str(testenv.Path(r.JSON(), "error", "message")), "title") {
				t.Errorf("REST title too long: %d %s", r.Status, r.Body)
			}
		})
		if created == "" {
			t.Fatal("no collection created")
		}

		// An object created through REST reads the same through GraphQL.
		t.Run("REST created", func(t *testing.T) {
			r := restCreate(t, e, team.Admin.Token, "/v1/orgs/"+team.Org.ID+"/collections", map[string]any{"title": "From REST", "parent": created})
			g := gqlCollection(t, e, team.Reader.Token, str(r["id"]))
			sameCollection(t, g, restGet(t, e, team.Reader.Token, "/v1/collections/"+str(r["id"])))
			if g["title"] != "From REST" || id(g["parent"]) != created {
				t.Errorf("GraphQL collection = %v", g)
			}
		})

		const update = `mutation($id: ID!, $in: UpdateCollectionInput!) { updateCollection(id: $id, input: $in) { ` + collectionFields + ` } }`
		t.Run("update", func(t *testing.T) {
			runMutations(t, e, update, restIDCall("PATCH", "collections", ""), []mutationCase{
				{name: "reader", token: team.Reader.Token, vars: map[string]any{"id": created, "in": map[string]any{"title": "X"}}, code: "FORBIDDEN"},
				{name: "editor", token: team.Editor.Token, vars: map[string]any{"id": created, "in": map[string]any{"title": "X"}}, code: "FORBIDDEN"},
				{name: "outsider", token: team.Outsider.Token, vars: map[string]any{"id": created, "in": map[string]any{"title": "X"}}, code: "NOT_FOUND"},
				{name: "unknown", token: team.Admin.Token, vars: map[string]any{"id": "C0000000000000000000", "in": map[string]any{"title": "X"}}, code: "NOT_FOUND"},
				{name: "title too long", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"title": long}}, code: "BAD_REQUEST", field: "title"},
				{name: "title null", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"title": nil}}, code: "BAD_REQUEST", field: "title"},
				{name: "description too long", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"description": strings.Repeat("d", 101)}}, code: "BAD_REQUEST", field: "description"},
				{name: "admin", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"title": "Manual", "description": "All about it", "defaultLevel": "comment"}},
					check: func(t *testing.T, d map[string]any) {
						c := d["updateCollection"].(map[string]any)
						if c["title"] != "Manual" || c["description"] != "All about it" || c["defaultLevel"] != "comment" {
							t.Errorf("updated = %v", c)
						}
						sameCollection(t, c, restGet(t, e, team.Admin.Token, "/v1/collections/"+created))
					}},
				{name: "omitted fields stay", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{}},
					check: func(t *testing.T, d map[string]any) {
						c := d["updateCollection"].(map[string]any)
						if c["title"] != "Manual" || c["description"] != "All about it" || c["defaultLevel"] != "comment" {
							t.Errorf("updated = %v", c)
						}
					}},
				{name: "null description", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"description": nil}},
					check: func(t *testing.T, d map[string]any) {
						c := d["updateCollection"].(map[string]any)
						if c["description"] != nil || c["title"] != "Manual" {
							t.Errorf("updated = %v", c)
						}
					}},
			})
			// The reader now has comment level on the collection (its
			// defaultLevel); REST says the same.
			g := gqlCollection(t, e, team.Reader.Token, created)
			sameCollection(t, g, restGet(t, e, team.Reader.Token, "/v1/collections/"+created))
			// A REST patch is seen through GraphQL.
			r := e.Do(team.Admin.Token, "PATCH", "/v1/collections/"+created, map[string]any{"title": "Patched", "defaultLevel": "inherit"})
			if r.Status != http.StatusOK {
				t.Fatalf("REST patch: %d %s", r.Status, r.Body)
			}
			if g := gqlCollection(t, e, team.Admin.Token, created); g["title"] != "Patched" || g["defaultLevel"] != "inherit" {
				t.Errorf("GraphQL after REST patch = %v", g)
			}
			// Unknown enum values are refused by GraphQL validation; REST
			// answers 400 naming the field.
			r2 := e.GraphQL(team.Admin.Token, update, map[string]any{"id": created, "in": map[string]any{"defaultLevel": "owner"}})
			if len(r2.Errors) == 0 || r2.Data["updateCollection"] != nil {
				t.Errorf("defaultLevel owner: %s", r2.Raw)
			} else {
				t.Logf("GraphQL defaultLevel \"owner\": HTTP %d code %s", r2.Status, r2.Code())
			}
			r3 := e.Do(team.Admin.Token, "PATCH", "/v1/collections/"+created, map[string]any{"defaultLevel": "owner"})
			if r3.Status != http.StatusBadRequest || !strings.Contains(string(r3.Body), "defaultLevel") {
				t.Errorf("REST defaultLevel owner: %d %s", r3.Status, r3.Body)
			}
		})

		const move = `mutation($id: ID!, $in: MoveInput!) { moveCollection(id: $id, input: $in) { ` + collectionFields + ` } }`
		t.Run("move", func(t *testing.T) {
			a := restCollection(t, e, team.Admin.Token, team.Org.ID, "A", nil)
			b := restCollection(t, e, team.Admin.Token, team.Org.ID, "B", nil)
			inB := restSpace(t, e, team.Admin.Token, team.Org.ID, "In B", b)
			runMutations(t, e, move, restIDCall("POST", "collections", "/move"), []mutationCase{
				{name: "empty input", token: team.Admin.Token, vars: map[string]any{"id": a, "in": map[string]any{}}, code: "BAD_REQUEST", field: "parent"},
				{name: "reader", token: team.Reader.Token, vars: map[string]any{"id": a, "in": map[string]any{"parent": b}}, code: "FORBIDDEN"},
				{name: "outsider", token: team.Outsider.Token, vars: map[string]any{"id": a, "in": map[string]any{"parent": b}}, code: "NOT_FOUND"},
				{name: "into itself", token: team.Admin.Token, vars: map[string]any{"id": a, "in": map[string]any{"parent": a}}, code: "BAD_REQUEST", field: "parent"},
				{name: "unknown parent", token: team.Admin.Token, vars: map[string]any{"id": a, "in": map[string]any{"parent": "C0000000000000000000"}}, code: "BAD_REQUEST", field: "parent"},
				{name: "pointer without id", token: team.Admin.Token, vars: map[string]any{"id": a, "in": map[string]any{"position": map[string]any{"before": map[string]any{"type": "space"}}}}, code: "BAD_REQUEST", field: "position.before"},
				{name: "pointer not a sibling", token: team.Admin.Token, vars: map[string]any{"id": a, "in": map[string]any{"position": map[string]any{"after": map[string]any{"type": "space", "space": inB}}}}, code: "BAD_REQUEST", field: "position.after"},
				{name: "into B", token: team.Admin.Token, vars: map[string]any{"id": a, "in": map[string]any{"parent": b}},
					check: func(t *testing.T, d map[string]any) {
						c := d["moveCollection"].(map[string]any)
						if id(c["parent"]) != b {
							t.Errorf("moved = %v", c)
						}
						sameCollection(t, c, restGet(t, e, team.Admin.Token, "/v1/collections/"+a))
					}},
				{name: "nothing changes", token: team.Admin.Token, vars: map[string]any{"id": a, "in": map[string]any{"parent": b}}, code: "CONFLICT"},
				{name: "into own descendant", token: team.Admin.Token, vars: map[string]any{"id": b, "in": map[string]any{"parent": a}}, code: "BAD_REQUEST", field: "parent"},
				{name: "before a sibling", token: team.Admin.Token, vars: map[string]any{"id": a, "in": map[string]any{"position": map[string]any{"before": map[string]any{"type": "space", "space": inB}}}},
					check: func(t *testing.T, d map[string]any) {
						if id(testenv.Path(d, "moveCollection", "parent")) != b {
							t.Errorf("moved = %v", d)
						}
					}},
				{name: "back to the root", token: team.Admin.Token, vars: map[string]any{"id": a, "in": map[string]any{"parent": nil}},
					check: func(t *testing.T, d map[string]any) {
						c := d["moveCollection"].(map[string]any)
						if c["parent"] != nil {
							t.Errorf("moved = %v", c)
						}
						sameCollection(t, c, restGet(t, e, team.Admin.Token, "/v1/collections/"+a))
					}},
			})
			// The REST door names the same field for the same mistake.
			r := e.Do(team.Admin.Token, "POST", "/v1/collections/"+a+"/move", map[string]any{"parent": a})
			if r.Status != http.StatusBadRequest {
				t.Errorf("REST move into itself: %d %s", r.Status, r.Body)
			}
		})

		const transfer = `mutation($id: ID!, $org: ID!) { transferCollection(id: $id, organization: $org) { ` + collectionFields + ` } }`
		t.Run("transfer", func(t *testing.T) {
			e.Member(team.Other, team.Admin.User, "admin")
			third := e.Org("Third")   // the admin is not a member
			fourth := e.Org("Fourth") // the admin only edits
			e.Member(fourth, team.Admin.User, "edit")
			moving := restCollection(t, e, team.Admin.Token, team.Org.ID, "Moving", nil)
			sub := restCollection(t, e, team.Admin.Token, team.Org.ID, "Sub", moving)
			inside := restSpace(t, e, team.Admin.Token, team.Org.ID, "Inside", sub)
			holding := restCollection(t, e, team.Admin.Token, team.Org.ID, "Holding trash", nil)
			trashed := restSpace(t, e, team.Admin.Token, team.Org.ID, "Trashed", holding)
			if r := e.Do(team.Admin.Token, "DELETE", "/v1/spaces/"+trashed, nil); r.Status != http.StatusResetContent {
				t.Fatalf("delete: %d %s", r.Status, r.Body)
			}
			runMutations(t, e, transfer, restIDCall("POST", "collections", "/transfer"), []mutationCase{
				{name: "reader", token: team.Reader.Token, vars: map[string]any{"id": moving, "org": team.Other.ID}, code: "FORBIDDEN"},
				{name: "outsider", token: team.Outsider.Token, vars: map[string]any{"id": moving, "org": team.Other.ID}, code: "NOT_FOUND"},
				{name: "empty organization", token: team.Admin.Token, vars: map[string]any{"id": moving, "org": ""}, code: "BAD_REQUEST", field: "organization"},
				{name: "same organization", token: team.Admin.Token, vars: map[string]any{"id": moving, "org": team.Org.ID}, code: "CONFLICT"},
				{name: "target not a member", token: team.Admin.Token, vars: map[string]any{"id": moving, "org": third.ID}, code: "NOT_FOUND"},
				{name: "target not admin", token: team.Admin.Token, vars: map[string]any{"id": moving, "org": fourth.ID}, code: "FORBIDDEN"},
				{name: "holds deleted spaces", token: team.Admin.Token, vars: map[string]any{"id": holding, "org": team.Other.ID}, code: "PRECONDITION_FAILED"},
				{name: "admin of both", token: team.Admin.Token, vars: map[string]any{"id": moving, "org": team.Other.ID},
					check: func(t *testing.T, d map[string]any) {
						c := d["transferCollection"].(map[string]any)
						if id(c["organization"]) != team.Other.ID || c["parent"] != nil {
							t.Errorf("transferred = %v", c)
						}
						sameCollection(t, c, restGet(t, e, team.Admin.Token, "/v1/collections/"+moving))
					}},
			})
			// Everything inside went along.
			if r := restGet(t, e, team.Admin.Token, "/v1/spaces/"+inside); r["organization"] != team.Other.ID || r["parent"] != sub {
				t.Errorf("space inside after transfer = %v", r)
			}
			if r := restGet(t, e, team.Admin.Token, "/v1/collections/"+sub); r["organization"] != team.Other.ID || r["parent"] != moving {
				t.Errorf("sub-collection after transfer = %v", r)
			}
			// The reader of Acme no longer sees them.
			gqlErr(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { collection(id: $id) { id } }`, map[string]any{"id": moving}), "NOT_FOUND", "")
		})

		const del = `mutation($id: ID!) { deleteCollection(id: $id) { id deleted } }`
		t.Run("delete", func(t *testing.T) {
			doomed := restCollection(t, e, team.Admin.Token, team.Org.ID, "Doomed", nil)
			inside := restSpace(t, e, team.Admin.Token, team.Org.ID, "Inside", doomed)
			payload := func(deleted bool) func(t *testing.T, d map[string]any) {
				return func(t *testing.T, d map[string]any) {
					if testenv.Path(d, "deleteCollection", "id") != doomed || testenv.Path(d, "deleteCollection", "deleted") != deleted {
						t.Errorf("deleteCollection = %v, want deleted %v", d, deleted)
					}
				}
			}
			runMutations(t, e, del, restIDCall("DELETE", "collections", ""), []mutationCase{
				{name: "reader", token: team.Reader.Token, vars: map[string]any{"id": doomed}, code: "FORBIDDEN"},
				{name: "editor", token: team.Editor.Token, vars: map[string]any{"id": doomed}, code: "FORBIDDEN"},
				// Invisible to the outsider: nothing deleted, like REST's 204.
				{name: "outsider", token: team.Outsider.Token, vars: map[string]any{"id": doomed}, check: payload(false)},
				{name: "admin", token: team.Admin.Token, vars: map[string]any{"id": doomed}, check: payload(true)},
				{name: "again", token: team.Admin.Token, vars: map[string]any{"id": doomed}, check: payload(false)},
			})
			// REST agrees: 204 for what is gone or invisible.
			for _, tok := range []string{team.Outsider.Token, team.Admin.Token} {
				if r := e.Do(tok, "DELETE", "/v1/collections/"+doomed, nil); r.Status != http.StatusNoContent || len(r.Body) != 0 {
					t.Errorf("REST delete again: %d %s", r.Status, r.Body)
				}
			}
			if r := e.Do(team.Admin.Token, "GET", "/v1/collections/"+doomed, nil); r.Status != http.StatusNotFound {
				t.Errorf("REST get deleted collection: %d %s", r.Status, r.Body)
			}
			// Its space went to the trash, at the root.
			r := restGet(t, e, team.Admin.Token, "/v1/spaces/"+inside)
			if r["deletedAt"] == nil || r["parent"] != nil {
				t.Errorf("space of deleted collection = %v", r)
			}
			g := gqlSpace(t, e, team.Admin.Token, inside)
			sameSpace(t, g, r)
		})
	})
}
