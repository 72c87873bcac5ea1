package rest_test

import (
	"net/url"
	"testing"

	"quire/internal/testing/testenv"
)

func TestCollectionMove(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		admin, org := team.Admin.Token, team.Org.ID
		a := ctCol(t, e, admin, org, "A", "")
		b := ctCol(t, e, admin, org, "B", "")
		c := ctCol(t, e, admin, org, "C", "")
		ctEq(t, "initial roots", ctRoots(t, e, admin, org), []string{a, b, c})

		move := func(id string, body any) *testenv.Response {
			t.Helper()
			return e.Do(admin, "POST", "/v1/collections/"+id+"/move", body)
		}
		moveOK := func(id string, body any) map[string]any {
			t.Helper()
			r := move(id, body)
			ctWant(t, r, 200, "move "+id)
			return r.JSON()
		}
		before := func(kind, id string) map[string]any {
			return map[string]any{"before": map[string]any{"type": kind, kind: id}}
		}
		after := func(kind, id string) map[string]any {
			return map[string]any{"after": map[string]any{"type": kind, kind: id}}
		}

		// Position among root siblings.
		got := moveOK(c, map[string]any{"position": before("collection", a)})
		if got["id"] != c || got["object"] != "collection" {
			t.Errorf("move answer: %v", got)
		}
		ctEq(t, "after C before A", ctRoots(t, e, admin, org), []string{c, a, b})
		moveOK(a, map[string]any{"position": after("collection", b)})
		ctEq(t, "after A after B", ctRoots(t, e, admin, org), []string{c, b, a})
		moveOK(a, map[string]any{"position": map[string]any{
			"after":  map[string]any{"type": "collection", "collection": c},
			"before": map[string]any{"type": "collection", "collection": b},
		}})
		ctEq(t, "after A between C and B", ctRoots(t, e, admin, org), []string{c, a, b})

		// Into a parent (at its end), then placed among its children.
		d := ctCol(t, e, admin, org, "D", a)
		got = moveOK(b, map[string]any{"parent": a})
		if got["parent"] != a {
			t.Errorf("moved into A: parent = %v", got["parent"])
		}
		ctEq(t, "roots after B into A", ctRoots(t, e, admin, org), []string{c, a})
		ctEq(t, "A's children", ctSubs(t, e, admin, a), []string{d, b})
		if p := ctGet(t, e, admin, "/v1/collections/"+b)["parent"]; p != a {
			t.Errorf("GET B parent = %v", p)
		}
		moveOK(c, map[string]any{"parent": a, "position": before("collection", d)})
		ctEq(t, "A's children after C before D", ctSubs(t, e, admin, a), []string{c, d, b})
		ctEq(t, "roots after C into A", ctRoots(t, e, admin, org), []string{a})

		// Back to the root with parent null: at the end, or where asked.
		got = moveOK(b, map[string]any{"parent": nil})
		if _, ok := got["parent"]; ok {
			t.Errorf("moved to root still has a parent: %v", got)
		}
		ctEq(t, "roots after B to root", ctRoots(t, e, admin, org), []string{a, b})
		moveOK(c, map[string]any{"parent": nil, "position": before("collection", a)})
		ctEq(t, "roots after C to root before A", ctRoots(t, e, admin, org), []string{c, a, b})
		ctEq(t, "A's children at the end", ctSubs(t, e, admin, a), []string{d})

		// Spaces are siblings too: a collection can be placed next to one.
		sp := ctSpace(t, e, admin, org, "Root space", "")
		moveOK(c, map[string]any{"position": after("space", sp)})
		ctEq(t, "roots after C after the space", ctRoots(t, e, admin, org), []string{a, b, c})
		moveOK(a, map[string]any{"position": before("space", sp)})
		ctEq(t, "roots after A before the space", ctRoots(t, e, admin, org), []string{b, a, c})

		// Refusals, none of which may change anything.
		dd := ctCol(t, e, admin, org, "DD", d)
		e.Member(team.Other, team.Admin.User, "admin")
		foreign := ctCol(t, e, admin, team.Other.ID, "Foreign", "")
		bad := []struct {
			name   string
			id     string
			body   any
			status int
			field  string
		}{
			{"into itself", a, map[string]any{"parent": a}, 400, "itself"},
			{"into a child", a, map[string]any{"parent": d}, 400, "sub-collection"},
			{"into a grandchild", a, map[string]any{"parent": dd}, 400, "sub-collection"},
			{"pointer not a sibling", a, map[string]any{"position": before("collection", d)}, 400, "position"},
			{"pointer to itself", a, map[string]any{"position": before("collection", a)}, 400, "position"},
			{"pointer sibling of other parent", d, map[string]any{"parent": nil, "position": after("collection", dd)}, 400, "position"},
			{"pointer wrong type", a, map[string]any{"position": before("space", b)}, 400, "position"},
			{"pointer unknown type", a, map[string]any{"position": map[string]any{"before": map[string]any{"type": "page", "page": b}}}, 400, "position"},
			{"pointer without id", a, map[string]any{"position": map[string]any{"before": map[string]any{"type": "collection"}}}, 400, "position"},
			{"after not before before", a, map[string]any{"position": map[string]any{
				"after":  map[string]any{"type": "collection", "collection": c},
				"before": map[string]any{"type": "collection", "collection": b},
			}}, 400, "position"},
			{"parent in another org", a, map[string]any{"parent": foreign}, 400, "parent"},
			{"unknown parent", a, map[string]any{"parent": "col_does_not_exist"}, 400, "parent"},
			{"parent wrong type", a, map[string]any{"parent": 7}, 400, "parent"},
			{"position wrong type", a, map[string]any{"position": "first"}, 400, "position"},
			{"empty body", a, "", 400, ""},
			{"empty object", a, map[string]any{}, 400, ""},
			{"malformed JSON", a, `{"parent":`, 400, ""},
			{"no-op: same root", a, map[string]any{"parent": nil}, 409, ""},
			{"no-op: same parent", dd, map[string]any{"parent": d}, 409, ""},
			{"no-op: already last", c, map[string]any{"position": after("space", sp)}, 409, ""},
			{"unknown collection", "col_does_not_exist", map[string]any{"parent": nil}, 404, ""},
		}
		for _, tc := range bad {
			ctErr(t, move(tc.id, tc.body), tc.status, tc.field, tc.name)
		}
		ctEq(t, "roots after refused moves", ctRoots(t, e, admin, org), []string{b, a, c})
		ctEq(t, "A's children after refused moves", ctSubs(t, e, admin, a), []string{d})
		ctEq(t, "D's children after refused moves", ctSubs(t, e, admin, d), []string{dd})
	})
}

func TestCollectionTransfer(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		admin, org, other := team.Admin.Token, team.Org.ID, team.Other.ID
		e.Member(team.Other, team.Admin.User, "admin")
		elsewhere := e.Org("Elsewhere") // Admin is not a member
		readOnly := e.Org("Read only")  // Admin is a reader
		e.Member(readOnly, team.Admin.User, "read")

		existing := ctCol(t, e, team.Outsider.Token, other, "Already there", "")
		c := ctCol(t, e, admin, org, "Moving", "")
		sub := ctCol(t, e, admin, org, "Sub", c)
		x := ctSpace(t, e, admin, org, "X", c)
		y := ctSpace(t, e, admin, org, "Y", sub)
		stay := ctSpace(t, e, admin, org, "Stays", "")

		transfer := func(token, id string, body any) *testenv.Response {
			t.Helper()
			return e.Do(token, "POST", "/v1/collections/"+id+"/transfer", body)
		}

		refusals := []struct {
			name   string
			body   any
			status int
			field  string
		}{
			{"same organization", map[string]any{"organization": org}, 409, ""},
			{"target not a member", map[string]any{"organization": elsewhere.ID}, 404, ""},
			{"target unknown", map[string]any{"organization": "org_does_not_exist"}, 404, ""},
			{"target member non-admin", map[string]any{"organization": readOnly.ID}, 403, ""},
			{"organization missing", map[string]any{}, 400, "organization"},
			{"organization wrong type", map[string]any{"organization": 1}, 400, "organization"},
			{"empty body", "", 400, ""},
			{"malformed JSON", `{`, 400, ""},
		}
		for _, tc := range refusals {
			ctErr(t, transfer(admin, c, tc.body), tc.status, tc.field, tc.name)
		}
		if g := ctGet(t, e, admin, "/v1/collections/"+c); g["organization"] != org {
			t.Fatalf("refused transfers moved the collection: %v", g)
		}
		ctErr(t, transfer(admin, "col_does_not_exist", map[string]any{"organization": other}), 404, "", "unknown collection")

		// The transfer itself.
		r := transfer(admin, sub, map[string]any{"organization": other})
		ctWant(t, r, 200, "transfer sub-collection")
		got := r.JSON()
		if got["organization"] != other {
			t.Errorf("transferred organization = %v", got["organization"])
		}
		if _, ok := got["parent"]; ok {
			t.Errorf("transferred sub-collection keeps its parent: %v", got)
		}
		ctEq(t, "Other's roots", ctRoots(t, e, admin, other), []string{existing, sub})
		if s := ctGet(t, e, admin, "/v1/spaces/"+y); s["organization"] != other || s["parent"] != sub {
			t.Errorf("space of transferred sub-collection: %v", s)
		}

		// Whole tree: put sub back under c first (the other way round).
		ctWant(t, transfer(admin, sub, map[string]any{"organization": org}), 200, "transfer back")
		ctWant(t, e.Do(admin, "POST", "/v1/collections/"+sub+"/move", map[string]any{"parent": c}), 200, "move back")

		r = transfer(admin, c, map[string]any{"organization": other})
		ctWant(t, r, 200, "transfer")
		if got := r.JSON(); got["organization"] != other || got["id"] != c {
			t.Errorf("transfer answer: %v", got)
		}
		if g := ctGet(t, e, admin, "/v1/collections/"+sub); g["organization"] != other || g["parent"] != c {
			t.Errorf("sub-collection after transfer: %v", g)
		}
		for _, id := range []string{x, y} {
			if s := ctGet(t, e, admin, "/v1/spaces/"+id); s["organization"] != other {
				t.Errorf("space %s after transfer: %v", id, s)
			}
		}
		if s := ctGet(t, e, admin, "/v1/spaces/"+stay); s["organization"] != org {
			t.Errorf("space outside the collection moved: %v", s)
		}
		ctEq(t, "Org's collections", ctList(t, e, admin, "/v1/orgs/"+org+"/collections"), []string{})
		ctEq(t, "Org's spaces", ctList(t, e, admin, "/v1/orgs/"+org+"/spaces"), []string{stay})
		ctEq(t, "Other's roots after transfer", ctRoots(t, e, admin, other), []string{existing, c})
		ctSameSet(t, "Other's spaces", ctList(t, e, admin, "/v1/orgs/"+other+"/spaces"), []string{x, y})
		// Org's reader lost it; Other's admin gained it.
		ctErr(t, e.Do(team.Reader.Token, "GET", "/v1/collections/"+c, nil), 404, "", "reader after transfer")
		ctErr(t, e.Do(team.Reader.Token, "GET", "/v1/spaces/"+x, nil), 404, "", "reader space after transfer")
		if g := ctGet(t, e, team.Outsider.Token, "/v1/collections/"+c); testenv.Path(g, "permissions", "admin") != true {
			t.Errorf("Other's admin on transferred collection: %v", g)
		}
		ctGet(t, e, team.Outsider.Token, "/v1/spaces/"+y)

		// A collection holding a deleted space (directly or deeper) cannot move.
		d := ctCol(t, e, admin, org, "Holds trash", "")
		dz := ctSpace(t, e, admin, org, "Trashed", d)
		ctEmpty(t, e.Do(admin, "DELETE", "/v1/spaces/"+dz, nil), 205, "delete space")
		ctErr(t, transfer(admin, d, map[string]any{"organization": other}), 412, "", "deleted space inside")
		deep := ctCol(t, e, admin, org, "Deep", "")
		deepSub := ctCol(t, e, admin, org, "Deep sub", deep)
		ds := ctSpace(t, e, admin, org, "Deep trashed", deepSub)
		ctEmpty(t, e.Do(admin, "DELETE", "/v1/spaces/"+ds, nil), 205, "delete deep space")
		ctErr(t, transfer(admin, deep, map[string]any{"organization": other}), 412, "", "deleted space in a sub-collection")
		for _, id := range []string{d, deep, deepSub} {
			if g := ctGet(t, e, admin, "/v1/collections/"+id); g["organization"] != org {
				t.Errorf("refused transfer moved %s: %v", id, g)
			}
		}
		// Once restored, the transfer goes through.
		ctWant(t, e.Do(admin, "POST", "/v1/spaces/"+dz+"/restore", nil), 200, "restore")
		ctWant(t, transfer(admin, d, map[string]any{"organization": other}), 200, "transfer after restore")
	})
}

func TestCollectionListNested(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		admin, org := team.Admin.Token, team.Org.ID
		a := ctCol(t, e, admin, org, "A", "")
		a1 := ctCol(t, e, admin, org, "A1", a)
		b := ctCol(t, e, admin, org, "B", "")
		a2 := ctCol(t, e, admin, org, "A2", a1)
		e.Member(team.Other, team.Admin.User, "admin")
		ctCol(t, e, admin, team.Other.ID, "Not listed", "")

		base := "/v1/orgs/" + org + "/collections"
		for _, tc := range []struct {
			query string
			want  []string
		}{
			{"", []string{a, a1, b, a2}},
			{"?nested=true", []string{a, a1, b, a2}},
			{"?nested=false", []string{a, b}},
		} {
			l := ctGet(t, e, admin, base+tc.query)
			got := ctIDs(l)
			if len(got) != len(tc.want) || l["count"] != float64(len(tc.want)) {
				t.Errorf("%s: items %v count %v, want %d", tc.query, got, l["count"], len(tc.want))
			}
			for _, id := range tc.want {
				if !ctContains(got, id) {
					t.Errorf("%s: %s missing from %v", tc.query, id, got)
				}
			}
			if it := testenv.Path(l, "items", 0); testenv.Path(it, "object") != "collection" {
				t.Errorf("%s: item %v", tc.query, it)
			}
		}
		ctEq(t, "nested=false order", ctRoots(t, e, admin, org), []string{a, b})
		// Reader sees the same lists.
		ctEq(t, "reader nested=false", ctRoots(t, e, team.Reader.Token, org), []string{a, b})
		if got := ctList(t, e, team.Reader.Token, base); len(got) != 4 {
			t.Errorf("reader nested list: %v", got)
		}

		// Paging over the nested list.
		p1 := ctGet(t, e, admin, base+"?limit=3")
		next, _ := testenv.Path(p1, "next", "page").(string)
		if len(ctIDs(p1)) != 3 || p1["count"] != float64(4) || next == "" {
			t.Fatalf("first page: %v", p1)
		}
		p2 := ctGet(t, e, admin, base+"?limit=3&page="+url.QueryEscape(next))
		if len(ctIDs(p2)) != 1 || p2["count"] != float64(4) {
			t.Errorf("second page: %v", p2)
		}
		if _, ok := p2["next"]; ok {
			t.Errorf("last page has next")
		}
		if all := append(ctIDs(p1), ctIDs(p2)...); len(all) != 4 {
			t.Errorf("pages: %v", all)
		}

		ctErr(t, e.Do(admin, "GET", base+"?nested=maybe", nil), 400, "nested", "nested=maybe")
		ctErr(t, e.Do(admin, "GET", base+"?limit=abc", nil), 400, "limit", "limit=abc")
		ctErr(t, e.Do(admin, "GET", "/v1/orgs/org_does_not_exist/collections", nil), 404, "", "unknown org")
		// An organization without collections.
		empty := e.Org("Empty")
		e.Member(empty, team.Admin.User, "admin")
		l := ctGet(t, e, admin, "/v1/orgs/"+empty.ID+"/collections")
		if items, ok := l["items"].([]any); !ok || len(items) != 0 || l["count"] != float64(0) {
			t.Errorf("empty org: %v", l)
		}
	})
}
