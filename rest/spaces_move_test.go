package rest_test

import (
	"fmt"
	"testing"

	"quire/internal/testing/testenv"
)

func TestSpaceMove(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		adm := team.Admin.Token
		a := spcCreate(t, e, adm, team.Org.ID, map[string]any{"title": "A"}).ID
		b := spcCreate(t, e, adm, team.Org.ID, map[string]any{"title": "B"}).ID
		c := spcCreate(t, e, adm, team.Org.ID, map[string]any{"title": "C"}).ID
		col := spcCreateCollection(t, e, adm, team.Org.ID, map[string]any{"title": "Col"})
		move := func(token, id string, body any) *testenv.Response {
			t.Helper()
			return e.Do(token, "POST", spcPath(id, "move"), body)
		}
		order := func() []string {
			t.Helper()
			return spcIDs(spcList(t, e, adm, team.Org.ID, "").Items)
		}
		colSpaces := func() []string {
			t.Helper()
			r := e.Do(adm, "GET", "/v1/collections/"+col+"/spaces", nil)
			spcStatus(t, r, 200, "collection spaces")
			var l spcPage
			r.Decode(t, &l)
			return spcIDs(l.Items)
		}
		after := func(kind, id string) map[string]any {
			return map[string]any{"after": map[string]any{"type": kind, kind: id}}
		}
		before := func(kind, id string) map[string]any {
			return map[string]any{"before": map[string]any{"type": kind, kind: id}}
		}

		t.Run("within the root", func(t *testing.T) {
			r := move(adm, c, map[string]any{"position": before("space", a)})
			spcStatus(t, r, 200, "move c before a")
			if r.JSON()["id"] != c {
				t.Errorf("move answered %s", r.Body)
			}
			if got := order(); !spcSame(got, []string{c, a, b}) {
				t.Errorf("after c before a: %v", got)
			}
			spcStatus(t, move(adm, c, map[string]any{"position": after("space", b)}), 200, "move c after b")
			if got := order(); !spcSame(got, []string{a, b, c}) {
				t.Errorf("after c after b: %v", got)
			}
			spcStatus(t, move(adm, a, map[string]any{"position": after("space", b)}), 200, "move a after b")
			if got := order(); !spcSame(got, []string{b, a, c}) {
				t.Errorf("after a after b: %v", got)
			}
			spcStatus(t, move(adm, a, map[string]any{"position": map[string]any{
				"after":  map[string]any{"type": "space", "space": c},
				"before": nil,
			}}), 200, "move a after c")
			if got := order(); !spcSame(got, []string{b, c, a}) {
				t.Errorf("after a after c: %v", got)
			}
			spcStatus(t, move(adm, a, map[string]any{"position": map[string]any{
				"after":  map[string]any{"type": "space", "space": b},
				"before": map[string]any{"type": "space", "space": c},
			}}), 200, "move a between b and c")
			if got := order(); !spcSame(got, []string{b, a, c}) {
				t.Errorf("after a between b and c: %v", got)
			}
			// Relative to a collection at the root.
			spcStatus(t, move(adm, b, map[string]any{"position": after("collection", col)}), 200, "move b after the collection")
			if got := order(); !spcSame(got, []string{a, c, b}) {
				t.Errorf("after b after collection: %v", got)
			}
		})

		t.Run("into a collection and back", func(t *testing.T) {
			r := move(adm, a, map[string]any{"parent": col})
			spcStatus(t, r, 200, "move a into col")
			var s spcSpace
			r.Decode(t, &s)
			if s.Parent == nil || *s.Parent != col {
				t.Errorf("parent after move = %v", s.Parent)
			}
			if got := colSpaces(); !spcSame(got, []string{a}) {
				t.Errorf("collection spaces = %v", got)
			}
			// Before another space inside the collection.
			spcStatus(t, move(adm, b, map[string]any{"parent": col, "position": before("space", a)}), 200, "move b into col before a")
			if got := colSpaces(); !spcSame(got, []string{b, a}) {
				t.Errorf("collection spaces = %v, want [b a]", got)
			}
			// Back to the root, after c.
			r = move(adm, a, map[string]any{"parent": nil, "position": after("space", c)})
			spcStatus(t, r, 200, "move a to root")
			if p, has := r.JSON()["parent"]; has && p != nil {
				t.Errorf("parent after moving to root = %v", p)
			}
			if g := spcGet(t, e, adm, a); g.Parent != nil {
				t.Errorf("GET parent after moving to root = %v", *g.Parent)
			}
			if got := colSpaces(); !spcSame(got, []string{b}) {
				t.Errorf("collection spaces = %v, want [b]", got)
			}
			spcStatus(t, move(adm, b, map[string]any{"parent": nil}), 200, "move b to root")
			if got := colSpaces(); len(got) != 0 {
				t.Errorf("collection spaces = %v, want none", got)
			}
		})

		t.Run("invalid", func(t *testing.T) {
			other := spcCreate(t, e, team.Outsider.Token, team.Other.ID, map[string]any{"title": "Foreign"}).ID
			inCol := spcCreate(t, e, adm, team.Org.ID, map[string]any{"title": "In col", "parent": col}).ID
			otherCol := spcCreateCollection(t, e, team.Outsider.Token, team.Other.ID, map[string]any{"title": "Foreign col"})
			for _, tc := range []struct {
				name   string
				body   any
				status int
				field  string
			}{
				{"empty object", map[string]any{}, 400, "parent"},
				{"no body", nil, 400, "body"},
				{"malformed JSON", `{"parent":`, 400, "JSON"},
				{"pointer to an unknown space", map[string]any{"position": after("space", "nope")}, 400, "position"},
				{"pointer to a foreign space", map[string]any{"position": after("space", other)}, 400, "position"},
				{"pointer not a sibling in the target", map[string]any{"position": before("space", inCol)}, 400, "position"},
				{"pointer type bogus", map[string]any{"position": map[string]any{"after": map[string]any{"type": "page", "space": b}}}, 400, "type"},
				{"pointer without id", map[string]any{"position": map[string]any{"after": map[string]any{"type": "space"}}}, 400, "position"},
				{"pointer to itself", map[string]any{"position": after("space", a)}, 400, "position"},
				{"unknown parent", map[string]any{"parent": "nope"}, 400, "parent"},
				{"foreign parent", map[string]any{"parent": otherCol}, 400, "parent"},
				{"parent of wrong type", map[string]any{"parent": 5}, 400, "parent"},
				{"nothing changes: same parent", map[string]any{"parent": nil}, 409, ""},
				{"nothing changes: same place", map[string]any{"position": after("space", c)}, 409, ""},
			} {
				t.Run(tc.name, func(t *testing.T) {
					want := order()
					spcWantError(t, move(adm, a, tc.body), tc.status, tc.field, tc.name)
					if got := order(); !spcSame(got, want) {
						t.Errorf("a refused move reordered %v -> %v", want, got)
					}
				})
			}
			spcWantError(t, move(adm, inCol, map[string]any{"parent": col}), 409, "", "same collection")
			spcWantError(t, move(adm, "nope", map[string]any{"parent": nil}), 404, "", "unknown space")
		})

		t.Run("deleted space", func(t *testing.T) {
			d := spcCreate(t, e, adm, team.Org.ID, map[string]any{"title": "D"}).ID
			spcStatus(t, e.Do(adm, "DELETE", spcPath(d), nil), 205, "delete d")
			spcWantError(t, move(adm, d, map[string]any{"parent": col}), 400, "", "move deleted")
			// A deleted space is no valid pointer either.
			spcWantError(t, move(adm, a, map[string]any{"position": after("space", d)}), 400, "position", "pointer to deleted")
		})

		t.Run("callers", func(t *testing.T) {
			body := map[string]any{"parent": col}
			spcWantError(t, move(team.Editor.Token, a, body), 403, "", "editor")
			spcWantError(t, move(team.Reader.Token, a, body), 403, "", "reader")
			spcWantError(t, move(team.Outsider.Token, a, body), 404, "", "outsider")
			spcWantError(t, move("", a, body), 401, "", "anonymous")
			if g := spcGet(t, e, adm, a); g.Parent != nil {
				t.Errorf("refused moves moved the space")
			}
		})
	})
}

func TestSpaceTransfer(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		adm := team.Admin.Token
		// The admin of Acme is also admin of a third organization, and a
		// reader of the outsider's one.
		third := e.Org("Third")
		e.Member(third, team.Admin.User, "admin")
		e.Member(team.Other, team.Admin.User, "read")
		transfer := func(token, id string, body any) *testenv.Response {
			t.Helper()
			return e.Do(token, "POST", spcPath(id, "transfer"), body)
		}

		t.Run("to an organization where the caller is admin", func(t *testing.T) {
			existing := spcCreate(t, e, adm, third.ID, map[string]any{"title": "Already there"}).ID
			col := spcCreateCollection(t, e, adm, team.Org.ID, map[string]any{"title": "Col"})
			s := spcCreate(t, e, adm, team.Org.ID, map[string]any{"title": "Moving", "parent": col})
			r := transfer(adm, s.ID, map[string]any{"organization": third.ID})
			spcStatus(t, r, 200, "transfer")
			var got spcSpace
			r.Decode(t, &got)
			if got.ID != s.ID || got.Organization != third.ID || got.Parent != nil {
				t.Errorf("transferred space: org %q parent %v", got.Organization, got.Parent)
			}
			if got.Visibility == "in-collection" {
				t.Errorf("visibility stays in-collection at the root of the new organization")
			}
			if got.Revision != s.Revision || got.Title != "Moving" {
				t.Errorf("transfer changed the content: %+v", got)
			}
			if g := spcGet(t, e, adm, s.ID); g.Organization != third.ID {
				t.Errorf("GET organization = %q", g.Organization)
			}
			if l := spcList(t, e, adm, third.ID, ""); !spcSame(spcIDs(l.Items), []string{existing, s.ID}) {
				t.Errorf("target list = %v, want [existing moved]", spcIDs(l.Items))
			}
			if l := spcList(t, e, adm, team.Org.ID, ""); spcContains(spcIDs(l.Items), s.ID) {
				t.Errorf("source list still holds the space")
			}
			// Members of the source organization lose sight of it.
			spcWantError(t, e.Do(team.Reader.Token, "GET", spcPath(s.ID), nil), 404, "", "source reader after transfer")
		})

		t.Run("refusals", func(t *testing.T) {
			s := spcCreate(t, e, adm, team.Org.ID, map[string]any{"title": "Stay"}).ID
			deleted := spcCreate(t, e, adm, team.Org.ID, map[string]any{"title": "Trash"}).ID
			spcStatus(t, e.Do(adm, "DELETE", spcPath(deleted), nil), 205, "delete")
			stranger := e.Org("Stranger")
			for _, tc := range []struct {
				name   string
				token  string
				id     string
				body   any
				status int
				field  string
			}{
				{"same organization", adm, s, map[string]any{"organization": team.Org.ID}, 409, ""},
				{"not a member of the target", adm, s, map[string]any{"organization": stranger.ID}, 404, ""},
				{"unknown target", adm, s, map[string]any{"organization": "nope"}, 404, ""},
				{"member, not admin, of the target", adm, s, map[string]any{"organization": team.Other.ID}, 403, ""},
				{"deleted space", adm, deleted, map[string]any{"organization": third.ID}, 412, ""},
				{"missing organization", adm, s, map[string]any{}, 400, "organization"},
				{"null organization", adm, s, map[string]any{"organization": nil}, 400, "organization"},
				{"empty organization", adm, s, map[string]any{"organization": ""}, 400, "organization"},
				{"organization of wrong type", adm, s, map[string]any{"organization": 7}, 400, "organization"},
				{"no body", adm, s, nil, 400, "body"},
				{"editor", team.Editor.Token, s, map[string]any{"organization": third.ID}, 403, ""},
				{"reader", team.Reader.Token, s, map[string]any{"organization": third.ID}, 403, ""},
				{"outsider", team.Outsider.Token, s, map[string]any{"organization": team.Other.ID}, 404, ""},
				{"anonymous", "", s, map[string]any{"organization": third.ID}, 401, ""},
				{"unknown space", adm, "nope", map[string]any{"organization": third.ID}, 404, ""},
			} {
				t.Run(tc.name, func(t *testing.T) {
					spcWantError(t, transfer(tc.token, tc.id, tc.body), tc.status, tc.field, tc.name)
				})
			}
			if g := spcGet(t, e, adm, s); g.Organization != team.Org.ID {
				t.Errorf("refused transfers moved the space to %q", g.Organization)
			}
			if g := spcGet(t, e, adm, deleted); g.Organization != team.Org.ID || g.DeletedAt == nil {
				t.Errorf("deleted space after refused transfer: %+v", g)
			}
		})
	})
}

// TestSpaceMoveNoop checks that a move which would leave a space where it is
// answers 409 and changes nothing, also after reorders have given spaces
// fractional positions.
func TestSpaceMoveNoop(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		adm := team.Admin.Token
		for i := 0; i < 5; i++ {
			spcCreate(t, e, adm, team.Org.ID, map[string]any{"title": fmt.Sprintf("S%d", i)})
		}
		order := func() []string {
			t.Helper()
			return spcIDs(spcList(t, e, adm, team.Org.ID, "").Items)
		}
		ptr := func(id string) map[string]any { return map[string]any{"type": "space", "space": id} }
		move := func(id string, pos map[string]any) *testenv.Response {
			t.Helper()
			return e.Do(adm, "POST", spcPath(id, "move"), map[string]any{"position": pos})
		}
		checkNoops := func(step string) {
			t.Helper()
			o := order()
			for i, id := range o {
				var tries []map[string]any
				if i > 0 {
					tries = append(tries, map[string]any{"after": ptr(o[i-1])})
				}
				if i+1 < len(o) {
					tries = append(tries, map[string]any{"before": ptr(o[i+1])})
				}
				if i > 0 && i+1 < len(o) {
					tries = append(tries, map[string]any{"after": ptr(o[i-1]), "before": ptr(o[i+1])})
				}
				for _, pos := range tries {
					spcWantError(t, move(id, pos), 409, "", fmt.Sprintf("%s: no-op move of #%d %v", step, i, pos))
				}
				if got := order(); !spcSame(got, o) {
					t.Fatalf("%s: no-op moves changed the order %v -> %v", step, o, got)
				}
			}
		}
		checkNoops("fresh")
		for step, mv := range []struct {
			from, to int
			where    string
		}{{4, 1, "before"}, {0, 3, "after"}, {2, 0, "before"}, {1, 4, "before"}, {3, 0, "before"}, {4, 2, "after"}, {0, 4, "after"}} {
			o := order()
			r := move(o[mv.from], map[string]any{mv.where: ptr(o[mv.to])})
			spcStatus(t, r, 200, fmt.Sprintf("move %d: #%d %s #%d", step, mv.from, mv.where, mv.to))
			checkNoops(fmt.Sprintf("after move %d", step))
		}
	})
}
