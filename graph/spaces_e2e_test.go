package graph_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"quire/internal/catalog"
	"quire/internal/testing/testenv"
)

func TestGraphQLSpaceMutations(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		clock := time.Now().UTC().Truncate(time.Millisecond)
		cat := e.Server.Resolver().Catalog
		cat.Now = func() time.Time { return clock }
		col := restCollection(t, e, team.Admin.Token, team.Org.ID, "Guides", nil)
		long := strings.Repeat("ü", 51)

		const create = `mutation($in: CreateSpaceInput!) { createSpace(input: $in) { ` + spaceFields + ` } }`
		var created, atRoot string
		t.Run("create", func(t *testing.T) {
			runMutations(t, e, create, restCreateCall("spaces"), []mutationCase{
				{name: "in a collection", token: team.Admin.Token,
					vars: map[string]any{"in": map[string]any{"organization": team.Org.ID, "title": "Handbook", "emoji": "📘", "parent": col, "language": "pt_br", "editMode": "locked"}},
					check: func(t *testing.T, d map[string]any) {
						s := d["createSpace"].(map[string]any)
						created = str(s["id"])
						if s["title"] != "Handbook" || s["emoji"] != "📘" || id(s["parent"]) != col || id(s["organization"]) != team.Org.ID ||
							s["language"] != "pt_br" || s["editMode"] != "locked" || s["visibility"] != "in_collection" ||
							s["defaultLevel"] != "inherit" || s["deletedAt"] != nil || str(s["revision"]) == "" {
							t.Errorf("created = %v", s)
						}
						r := restGet(t, e, team.Admin.Token, "/v1/spaces/"+created)
						if r["visibility"] != "in-collection" || r["language"] != "pt-br" {
							t.Errorf("REST spelling: visibility %v language %v", r["visibility"], r["language"])
						}
						sameSpace(t, s, r)
					}},
				{name: "at the root", token: team.Admin.Token, vars: map[string]any{"in": map[string]any{"organization": team.Org.ID, "title": "Root"}},
					check: func(t *testing.T, d map[string]any) {
						s := d["createSpace"].(map[string]any)
						atRoot = str(s["id"])
						if s["parent"] != nil || s["visibility"] != "private" || s["language"] != nil || s["editMode"] != "live" {
							t.Errorf("created = %v", s)
						}
						r := restGet(t, e, team.Admin.Token, "/v1/spaces/"+atRoot)
						if r["visibility"] != "private" {
							t.Errorf("REST visibility = %v", r["visibility"])
						}
						sameSpace(t, s, r)
					}},
				{name: "title too long", token: team.Admin.Token, vars: map[string]any{"in": map[string]any{"organization": team.Org.ID, "title": long}}, code: "BAD_REQUEST", field: "title"},
				{name: "emoji too long", token: team.Admin.Token, vars: map[string]any{"in": map[string]any{"organization": team.Org.ID, "emoji": long}}, code: "BAD_REQUEST", field: "emoji"},
				{name: "unknown parent", token: team.Admin.Token, vars: map[string]any{"in": map[string]any{"organization": team.Org.ID, "parent": "C0000000000000000000"}}, code: "BAD_REQUEST", field: "parent"},
				{name: "editor", token: team.Editor.Token, vars: map[string]any{"in": map[string]any{"organization": team.Org.ID}}, code: "FORBIDDEN"},
				{name: "reader", token: team.Reader.Token, vars: map[string]any{"in": map[string]any{"organization": team.Org.ID}}, code: "FORBIDDEN"},
				{name: "reader in collection", token: team.Reader.Token, vars: map[string]any{"in": map[string]any{"organization": team.Org.ID, "parent": col}}, code: "FORBIDDEN"},
				{name: "outsider", token: team.Outsider.Token, vars: map[string]any{"in": map[string]any{"organization": team.Org.ID}}, code: "NOT_FOUND"},
			})
		})
		if created == "" || atRoot == "" {
			t.Fatal("spaces not created")
		}

		t.Run("REST created", func(t *testing.T) {
			r := restCreate(t, e, team.Admin.Token, "/v1/orgs/"+team.Org.ID+"/spaces", map[string]any{"title": "From REST", "parent": col, "language": "pt-br", "emoji": "🦜"})
			g := gqlSpace(t, e, team.Editor.Token, str(r["id"]))
			if g["language"] != "pt_br" || g["visibility"] != "in_collection" || g["title"] != "From REST" || g["emoji"] != "🦜" || g["id"] != r["id"] {
				t.Errorf("GraphQL space = %v", g)
			}
			sameSpace(t, g, restGet(t, e, team.Editor.Token, "/v1/spaces/"+str(r["id"])))
			// REST wants the REST spelling and GraphQL the enum name.
			if r := e.Do(team.Admin.Token, "POST", "/v1/orgs/"+team.Org.ID+"/spaces", map[string]any{"language": "pt_br"}); r.Status != http.StatusBadRequest {
				t.Errorf("REST language pt_br: %d %s", r.Status, r.Body)
			}
			r2 := e.GraphQL(team.Admin.Token, create, map[string]any{"in": map[string]any{"organization": team.Org.ID, "language": "pt-br"}})
			if len(r2.Errors) == 0 || r2.Data["createSpace"] != nil {
				t.Errorf("GraphQL language pt-br: %s", r2.Raw)
			} else {
				t.Logf("GraphQL language \"pt-br\": HTTP %d code %s", r2.Status, r2.Code())
			}
		})

		const update = `mutation($id: ID!, $in: UpdateSpaceInput!) { updateSpace(id: $id, input: $in) { ` + spaceFields + ` mergeRules { type rules { rule users } } urls { icon } } }`
		t.Run("update", func(t *testing.T) {
			runMutations(t, e, update, restIDCall("PATCH", "spaces", ""), []mutationCase{
				{name: "reader", token: team.Reader.Token, vars: map[string]any{"id": created, "in": map[string]any{"title": "X"}}, code: "FORBIDDEN"},
				{name: "outsider", token: team.Outsider.Token, vars: map[string]any{"id": created, "in": map[string]any{"title": "X"}}, code: "NOT_FOUND"},
				{name: "unknown", token: team.Admin.Token, vars: map[string]any{"id": "S0000000000000000000", "in": map[string]any{"title": "X"}}, code: "NOT_FOUND"},
				{name: "editor edits the title", token: team.Editor.Token, vars: map[string]any{"id": created, "in": map[string]any{"title": "Edited", "language": "fr"}},
					check: func(t *testing.T, d map[string]any) {
						s := d["updateSpace"].(map[string]any)
						if s["title"] != "Edited" || s["language"] != "fr" {
							t.Errorf("updated = %v", s)
						}
						sameSpace(t, s, restGet(t, e, team.Editor.Token, "/v1/spaces/"+created))
					}},
				{name: "editor sets editMode", token: team.Editor.Token, vars: map[string]any{"id": created, "in": map[string]any{"editMode": "live"}}, code: "FORBIDDEN"},
				{name: "editor sets defaultLevel", token: team.Editor.Token, vars: map[string]any{"id": created, "in": map[string]any{"defaultLevel": "read"}}, code: "FORBIDDEN"},
				{name: "editor sets mergeRules", token: team.Editor.Token, vars: map[string]any{"id": created, "in": map[string]any{"mergeRules": map[string]any{"type": "none"}}}, code: "FORBIDDEN"},
				{name: "title too long", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"title": long}}, code: "BAD_REQUEST", field: "title"},
				{name: "title null", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"title": nil}}, code: "BAD_REQUEST", field: "title"},
				{name: "editMode null", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"editMode": nil}}, code: "BAD_REQUEST", field: "editMode"},
				{name: "mergeRules null", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"mergeRules": nil}}, code: "BAD_REQUEST", field: "mergeRules"},
				{name: "emoji too long", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"emoji": long}}, code: "BAD_REQUEST", field: "emoji"},
				{name: "icon not a URL", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"icon": "ftp://x"}}, code: "BAD_REQUEST", field: "icon"},
				{name: "emoji and icon", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"emoji": "🙂", "icon": "https://example.com/i.png"}}, code: "BAD_REQUEST", field: "icon"},
				{name: "mergeRules type", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"mergeRules": map[string]any{"type": "bogus"}}}, code: "BAD_REQUEST", field: "mergeRules.type"},
				{name: "mergeRules unknown rule", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"mergeRules": map[string]any{"type": "rules", "rules": []any{map[string]any{"rule": "nope"}}}}}, code: "BAD_REQUEST", field: "mergeRules.rules"},
				{name: "admin", token: team.Admin.Token,
					vars: map[string]any{"id": created, "in": map[string]any{"editMode": "live", "defaultLevel": "comment", "language": "pt_br", "emoji": nil, "icon": "https://example.com/i.png",
						"mergeRules": map[string]any{"type": "rules", "rules": []any{map[string]any{"rule": "require_specific_reviewers", "users": []any{team.Editor.User.ID}}}}}},
					check: func(t *testing.T, d map[string]any) {
						s := d["updateSpace"].(map[string]any)
						if s["editMode"] != "live" || s["defaultLevel"] != "comment" || s["language"] != "pt_br" || s["emoji"] != "" ||
							testenv.Path(s, "urls", "icon") != "https://example.com/i.png" || testenv.Path(s, "mergeRules", "type") != "rules" ||
							testenv.Path(s, "mergeRules", "rules", 0, "users", 0) != team.Editor.User.ID {
							t.Errorf("updated = %v", s)
						}
						r := restGet(t, e, team.Admin.Token, "/v1/spaces/"+created)
						sameSpace(t, s, r)
						if r["language"] != "pt-br" || testenv.Path(r, "urls", "icon") != "https://example.com/i.png" ||
							testenv.Path(r, "mergeRules", "rules", 0, "rule") != "require_specific_reviewers" {
							t.Errorf("REST after update = %v", r)
						}
					}},
				// The editor's level on the space is now its defaultLevel:
				// comment, below edit.
				{name: "editor below edit", token: team.Editor.Token, vars: map[string]any{"id": created, "in": map[string]any{"title": "X"}}, code: "FORBIDDEN"},
				{name: "null clears", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"language": nil, "icon": nil, "defaultLevel": "inherit"}},
					check: func(t *testing.T, d map[string]any) {
						s := d["updateSpace"].(map[string]any)
						if s["language"] != nil || testenv.Path(s, "urls", "icon") != nil || s["defaultLevel"] != "inherit" || s["title"] != "Edited" {
							t.Errorf("updated = %v", s)
						}
						sameSpace(t, s, restGet(t, e, team.Admin.Token, "/v1/spaces/"+created))
					}},
			})
			// A REST patch is seen through GraphQL, with GraphQL spelling.
			r := e.Do(team.Admin.Token, "PATCH", "/v1/spaces/"+created, map[string]any{"language": "pt-br", "title": "Patched"})
			if r.Status != http.StatusOK {
				t.Fatalf("REST patch: %d %s", r.Status, r.Body)
			}
			if g := gqlSpace(t, e, team.Reader.Token, created); g["language"] != "pt_br" || g["title"] != "Patched" {
				t.Errorf("GraphQL after REST patch = %v", g)
			}
			r2 := e.GraphQL(team.Admin.Token, update, map[string]any{"id": created, "in": map[string]any{"editMode": "bogus"}})
			if len(r2.Errors) == 0 || r2.Data["updateSpace"] != nil {
				t.Errorf("editMode bogus: %s", r2.Raw)
			} else {
				t.Logf("GraphQL editMode \"bogus\": HTTP %d code %s", r2.Status, r2.Code())
			}
		})

		const dup = `mutation($id: ID!) { duplicateSpace(id: $id) { ` + spaceFields + ` } }`
		t.Run("duplicate", func(t *testing.T) {
			runMutations(t, e, dup, restIDCall("POST", "spaces", "/duplicate"), []mutationCase{
				{name: "reader", token: team.Reader.Token, vars: map[string]any{"id": created}, code: "FORBIDDEN"},
				{name: "outsider", token: team.Outsider.Token, vars: map[string]any{"id": created}, code: "NOT_FOUND"},
				{name: "unknown", token: team.Admin.Token, vars: map[string]any{"id": "S0000000000000000000"}, code: "NOT_FOUND"},
				{name: "admin", token: team.Admin.Token, vars: map[string]any{"id": created},
					check: func(t *testing.T, d map[string]any) {
						s := d["duplicateSpace"].(map[string]any)
						orig := gqlSpace(t, e, team.Admin.Token, created)
						if s["id"] == created || s["title"] != "Patched (copy)" || id(s["parent"]) != col || s["language"] != "pt_br" ||
							s["visibility"] != orig["visibility"] || s["revision"] == orig["revision"] {
							t.Errorf("duplicate = %v, original %v", s, orig)
						}
						sameSpace(t, s, restGet(t, e, team.Admin.Token, "/v1/spaces/"+str(s["id"])))
					}},
			})
		})

		const mv = `mutation($id: ID!, $in: MoveInput!) { moveSpace(id: $id, input: $in) { ` + spaceFields + ` } }`
		t.Run("move", func(t *testing.T) {
			other := restCollection(t, e, team.Admin.Token, team.Org.ID, "Other", nil)
			runMutations(t, e, mv, restIDCall("POST", "spaces", "/move"), []mutationCase{
				{name: "empty input", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{}}, code: "BAD_REQUEST", field: "parent"},
				{name: "reader", token: team.Reader.Token, vars: map[string]any{"id": created, "in": map[string]any{"parent": nil}}, code: "FORBIDDEN"},
				{name: "editor", token: team.Editor.Token, vars: map[string]any{"id": created, "in": map[string]any{"parent": nil}}, code: "FORBIDDEN"},
				{name: "outsider", token: team.Outsider.Token, vars: map[string]any{"id": created, "in": map[string]any{"parent": nil}}, code: "NOT_FOUND"},
				{name: "unknown parent", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"parent": "C0000000000000000000"}}, code: "BAD_REQUEST", field: "parent"},
				{name: "pointer without id", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"position": map[string]any{"after": map[string]any{"type": "collection"}}}}, code: "BAD_REQUEST", field: "position.after"},
				{name: "pointer not a sibling", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"position": map[string]any{"before": map[string]any{"type": "space", "space": atRoot}}}}, code: "BAD_REQUEST", field: "position.before"},
				{name: "nothing changes", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"parent": col}}, code: "CONFLICT"},
				{name: "to another collection", token: team.Admin.Token, vars: map[string]any{"id": created, "in": map[string]any{"parent": other}},
					check: func(t *testing.T, d map[string]any) {
						s := d["moveSpace"].(map[string]any)
						if id(s["parent"]) != other || s["visibility"] != "in_collection" {
							t.Errorf("moved = %v", s)
						}
						sameSpace(t, s, restGet(t, e, team.Admin.Token, "/v1/spaces/"+created))
					}},
				{name: "to the root before a sibling", token: team.Admin.Token,
					vars: map[string]any{"id": created, "in": map[string]any{"parent": nil, "position": map[string]any{"before": map[string]any{"type": "space", "space": atRoot}}}},
					check: func(t *testing.T, d map[string]any) {
						s := d["moveSpace"].(map[string]any)
						if s["parent"] != nil || s["visibility"] != "private" {
							t.Errorf("moved = %v", s)
						}
						r := restGet(t, e, team.Admin.Token, "/v1/spaces/"+created)
						if r["visibility"] != "private" {
							t.Errorf("REST visibility = %v", r["visibility"])
						}
						sameSpace(t, s, r)
						// Before atRoot in the organization's root.
						l := restGet(t, e, team.Admin.Token, "/v1/orgs/"+team.Org.ID+"/spaces")
						pos := map[any]int{}
						for i, it := range l["items"].([]any) {
							pos[testenv.Path(it, "id")] = i
						}
						if pos[created] >= pos[atRoot] {
							t.Errorf("order: moved space at %d, sibling at %d", pos[created], pos[atRoot])
						}
					}},
			})
		})

		const del = `mutation($id: ID!) { deleteSpace(id: $id) { id deleted } }`
		const restore = `mutation($id: ID!) { restoreSpace(id: $id) { ` + spaceFields + ` } }`
		t.Run("delete and restore", func(t *testing.T) {
			doomed := restSpace(t, e, team.Admin.Token, team.Org.ID, "Doomed", col)
			payload := func(deleted bool) func(t *testing.T, d map[string]any) {
				return func(t *testing.T, d map[string]any) {
					if testenv.Path(d, "deleteSpace", "id") != doomed || testenv.Path(d, "deleteSpace", "deleted") != deleted {
						t.Errorf("deleteSpace = %v, want deleted %v", d, deleted)
					}
				}
			}
			runMutations(t, e, restore, restIDCall("POST", "spaces", "/restore"), []mutationCase{
				{name: "restore not deleted", token: team.Admin.Token, vars: map[string]any{"id": doomed}, code: "BAD_REQUEST", field: "spaceId"},
			})
			runMutations(t, e, del, restIDCall("DELETE", "spaces", ""), []mutationCase{
				{name: "reader", token: team.Reader.Token, vars: map[string]any{"id": doomed}, code: "FORBIDDEN"},
				{name: "editor", token: team.Editor.Token, vars: map[string]any{"id": doomed}, code: "FORBIDDEN"},
				{name: "outsider", token: team.Outsider.Token, vars: map[string]any{"id": doomed}, check: payload(false)},
				{name: "admin", token: team.Admin.Token, vars: map[string]any{"id": doomed}, check: payload(true)},
				{name: "again", token: team.Admin.Token, vars: map[string]any{"id": doomed}, check: payload(false)},
			})
			for _, tok := range []string{team.Outsider.Token, team.Admin.Token} {
				if r := e.Do(tok, "DELETE", "/v1/spaces/"+doomed, nil); r.Status != http.StatusNoContent || len(r.Body) != 0 {
					t.Errorf("REST delete again: %d %s", r.Status, r.Body)
				}
			}
			// Still readable through both doors, with deletedAt.
			g := gqlSpace(t, e, team.Admin.Token, doomed)
			r := restGet(t, e, team.Admin.Token, "/v1/spaces/"+doomed)
			sameSpace(t, g, r)
			if g["deletedAt"] == nil {
				t.Errorf("deleted space = %v", g)
			} else if d, err := time.Parse(time.RFC3339Nano, str(g["deletedAt"])); err != nil || !d.Equal(clock) {
				t.Errorf("deletedAt = %v, want %v", g["deletedAt"], clock)
			}
			// Lists leave it out.
			d := gqlOK(t, e.GraphQL(team.Admin.Token, `query($id: ID!) { collection(id: $id) { spaces { nodes { id } } } organization(id: "`+team.Org.ID+`") { spaces { nodes { id } } } }`, map[string]any{"id": col}))
			if strings.Contains(fmt.Sprint(d), doomed) {
				t.Errorf("deleted space listed: %v", d)
			}
			// Deleted spaces cannot be changed until restored.
			gqlErr(t, e.GraphQL(team.Admin.Token, update, map[string]any{"id": doomed, "in": map[string]any{"title": "X"}}), "BAD_REQUEST", "spaceId")
			gqlErr(t, e.GraphQL(team.Admin.Token, dup, map[string]any{"id": doomed}), "BAD_REQUEST", "spaceId")
			runMutations(t, e, restore, restIDCall("POST", "spaces", "/restore"), []mutationCase{
				{name: "reader", token: team.Reader.Token, vars: map[string]any{"id": doomed}, code: "FORBIDDEN"},
				{name: "outsider", token: team.Outsider.Token, vars: map[string]any{"id": doomed}, code: "NOT_FOUND"},
				{name: "unknown", token: team.Admin.Token, vars: map[string]any{"id": "S0000000000000000000"}, code: "NOT_FOUND"},
				{name: "admin", token: team.Admin.Token, vars: map[string]any{"id": doomed},
					check: func(t *testing.T, d map[string]any) {
						s := d["restoreSpace"].(map[string]any)
						if s["deletedAt"] != nil || id(s["parent"]) != col {
							t.Errorf("restored = %v", s)
						}
						sameSpace(t, s, restGet(t, e, team.Admin.Token, "/v1/spaces/"+doomed))
					}},
			})
			// After the retention period it cannot be restored.
			gqlOK(t, e.GraphQL(team.Admin.Token, del, map[string]any{"id": doomed}))
			clock = clock.Add(catalog.Retention + time.Minute)
			runMutations(t, e, restore, restIDCall("POST", "spaces", "/restore"), []mutationCase{
				{name: "after 7 days", token: team.Admin.Token, vars: map[string]any{"id": doomed}, code: "NOT_FOUND"},
			})
		})

		const transfer = `mutation($id: ID!, $org: ID!) { transferSpace(id: $id, organization: $org) { ` + spaceFields + ` } }`
		t.Run("transfer", func(t *testing.T) {
			e.Member(team.Other, team.Admin.User, "admin")
			third := e.Org("Third")
			fourth := e.Org("Fourth")
			e.Member(fourth, team.Admin.User, "read")
			moving := restSpace(t, e, team.Admin.Token, team.Org.ID, "Moving", col)
			trashed := restSpace(t, e, team.Admin.Token, team.Org.ID, "Trashed", nil)
			gqlOK(t, e.GraphQL(team.Admin.Token, del, map[string]any{"id": trashed}))
			runMutations(t, e, transfer, restIDCall("POST", "spaces", "/transfer"), []mutationCase{
				{name: "reader", token: team.Reader.Token, vars: map[string]any{"id": moving, "org": team.Other.ID}, code: "FORBIDDEN"},
				{name: "outsider", token: team.Outsider.Token, vars: map[string]any{"id": moving, "org": team.Other.ID}, code: "NOT_FOUND"},
				{name: "empty organization", token: team.Admin.Token, vars: map[string]any{"id": moving, "org": ""}, code: "BAD_REQUEST", field: "organization"},
				{name: "same organization", token: team.Admin.Token, vars: map[string]any{"id": moving, "org": team.Org.ID}, code: "CONFLICT"},
				{name: "target not a member", token: team.Admin.Token, vars: map[string]any{"id": moving, "org": third.ID}, code: "NOT_FOUND"},
				{name: "target not admin", token: team.Admin.Token, vars: map[string]any{"id": moving, "org": fourth.ID}, code: "FORBIDDEN"},
				{name: "deleted", token: team.Admin.Token, vars: map[string]any{"id": trashed, "org": team.Other.ID}, code: "PRECONDITION_FAILED"},
				{name: "admin of both", token: team.Admin.Token, vars: map[string]any{"id": moving, "org": team.Other.ID},
					check: func(t *testing.T, d map[string]any) {
						s := d["transferSpace"].(map[string]any)
						if id(s["organization"]) != team.Other.ID || s["parent"] != nil || s["visibility"] != "private" {
							t.Errorf("transferred = %v", s)
						}
						r := restGet(t, e, team.Admin.Token, "/v1/spaces/"+moving)
						sameSpace(t, s, r)
						// The outsider administers Other: the space is theirs now.
						restGet(t, e, team.Outsider.Token, "/v1/spaces/"+moving)
					}},
			})
			if r := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+moving, nil); r.Status != http.StatusNotFound {
				t.Errorf("reader after transfer: %d %s", r.Status, r.Body)
			}
		})
	})
}
