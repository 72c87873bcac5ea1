package rest_test

import (
	"net/url"
	"reflect"
	"sort"
	"strings"
	"testing"

	"quire/internal/testenv"
)

// ---- helpers shared by collections_test.go and orgs_test.go (prefix ct) ----

// ctWant fails unless the response has the given status.
func ctWant(t *testing.T, r *testenv.Response, status int, what string) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("%s: status %d, want %d; body %s", what, r.Status, status, r.Body)
	}
}

// ctErr checks a response is an error in the documented shape
// {"error":{"code":N,"message":"..."}}, with the status and, when field is
// not empty, a message naming it.
func ctErr(t *testing.T, r *testenv.Response, status int, field, what string) {
	t.Helper()
	if r.Status != status {
		t.Errorf("%s: status %d, want %d; body %s", what, r.Status, status, r.Body)
		return
	}
	v := r.JSON()
	if v == nil || len(v) != 1 {
		t.Errorf("%s: body is not {\"error\":...}: %s", what, r.Body)
		return
	}
	if code, _ := testenv.Path(v, "error", "code").(float64); int(code) != status {
		t.Errorf("%s: error.code = %v, want %d; body %s", what, testenv.Path(v, "error", "code"), status, r.Body)
	}
	msg, _ := testenv.Path(v, "error", "message").(string)
	if msg == "" {
		t.Errorf("%s: error.message is empty; body %s", what, r.Body)
	}
	if field != "" && !strings.Contains(msg, field) {
		t.Errorf("%s: error.message %q does not name %q", what, msg, field)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s: Content-Type = %q", what, ct)
	}
}

// ctEmpty checks a response has the status and an empty body.
func ctEmpty(t *testing.T, r *testenv.Response, status int, what string) {
	t.Helper()
	if r.Status != status || len(r.Body) != 0 {
		t.Errorf("%s: status %d body %q, want %d with an empty body", what, r.Status, r.Body, status)
	}
}

// ctCreate creates a collection and returns its JSON.
func ctCreate(t *testing.T, e *testenv.Env, token, orgID string, body map[string]any) map[string]any {
	t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	r := e.Do(token, "POST", "/v1/orgs/"+orgID+"/collections", body)
	ctWant(t, r, 201, "create collection")
	return r.JSON()
}

// ctCol creates a collection titled title (in parent when not "") and
// returns its id.
func ctCol(t *testing.T, e *testenv.Env, token, orgID, title, parent string) string {
	t.Helper()
	b := map[string]any{"title": title}
	if parent != "" {
		b["parent"] = parent
	}
	return ctCreate(t, e, token, orgID, b)["id"].(string)
}

// ctSpace creates a space (in parent when not "") and returns its id.
func ctSpace(t *testing.T, e *testenv.Env, token, orgID, title, parent string) string {
	t.Helper()
	b := map[string]any{"title": title}
	if parent != "" {
		b["parent"] = parent
	}
	r := e.Do(token, "POST", "/v1/orgs/"+orgID+"/spaces", b)
	ctWant(t, r, 201, "create space")
	return r.JSON()["id"].(string)
}

// ctPatch patches a collection, expecting 200, and returns the JSON.
func ctPatch(t *testing.T, e *testenv.Env, token, id string, body any) map[string]any {
	t.Helper()
	r := e.Do(token, "PATCH", "/v1/collections/"+id, body)
	ctWant(t, r, 200, "patch collection")
	return r.JSON()
}

// ctGet reads an object, expecting 200.
func ctGet(t *testing.T, e *testenv.Env, token, path string) map[string]any {
	t.Helper()
	r := e.Do(token, "GET", path, nil)
	ctWant(t, r, 200, "GET "+path)
	return r.JSON()
}

// ctIDs returns the ids of a list response's items, in order.
func ctIDs(v map[string]any) []string {
	items, _ := v["items"].([]any)
	out := make([]string, 0, len(items))
	for _, it := range items {
		id, _ := testenv.Path(it, "id").(string)
		out = append(out, id)
	}
	return out
}

// ctList reads a list (one page) and returns its ids.
func ctList(t *testing.T, e *testenv.Env, token, path string) []string {
	t.Helper()
	return ctIDs(ctGet(t, e, token, path))
}

// ctRoots lists the organization's root collections.
func ctRoots(t *testing.T, e *testenv.Env, token, orgID string) []string {
	t.Helper()
	return ctList(t, e, token, "/v1/orgs/"+orgID+"/collections?nested=false")
}

// ctSubs lists a collection's sub-collections in order (through GraphQL,
// the only door that lists them).
func ctSubs(t *testing.T, e *testenv.Env, token, id string) []string {
	t.Helper()
	g := e.GraphQL(token, `query($id: ID!) { collection(id: $id) { collections { nodes { id } } } }`, map[string]any{"id": id})
	if len(g.Errors) > 0 {
		t.Fatalf("sub-collections of %s: %s", id, g.Raw)
	}
	nodes, _ := testenv.Path(g.Data, "collection", "collections", "nodes").([]any)
	out := make([]string, 0, len(nodes))
	for _, n := range nodes {
		out = append(out, testenv.Path(n, "id").(string))
	}
	return out
}

func ctEq(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// ctSameSet compares two id lists ignoring order.
func ctSameSet(t *testing.T, what string, got, want []string) {
	t.Helper()
	g := append([]string{}, got...)
	w := append([]string{}, want...)
	sort.Strings(g)
	sort.Strings(w)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s = %v, want (in any order) %v", what, got, want)
	}
}

func ctContains(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// ---- tests ----

func TestCollectionCreate(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		org := team.Org.ID
		admin := team.Admin.Token

		// Defaults.
		r := e.Do(admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{})
		ctWant(t, r, 201, "create with defaults")
		c := r.JSON()
		id, _ := c["id"].(string)
		if id == "" {
			t.Fatalf("no id: %s", r.Body)
		}
		if loc := r.Header.Get("Location"); loc != e.URL+"/v1/collections/"+id {
			t.Errorf("Location = %q", loc)
		}
		if got := testenv.Path(c, "urls", "location"); got != e.URL+"/v1/collections/"+id {
			t.Errorf("urls.location = %v", got)
		}
		if c["object"] != "collection" || c["title"] != "Untitled" || c["organization"] != org || c["defaultLevel"] != "inherit" {
			t.Errorf("defaults: %s", r.Body)
		}
		if _, ok := c["parent"]; ok {
			t.Errorf("root collection has a parent: %s", r.Body)
		}
		if _, ok := c["description"]; ok {
			t.Errorf("new collection has a description: %s", r.Body)
		}
		for _, p := range []string{"view", "admin", "create", "viewInviteLinks"} {
			if testenv.Path(c, "permissions", p) != true {
				t.Errorf("admin permissions.%s = %v", p, testenv.Path(c, "permissions", p))
			}
		}

		// An empty body is an empty object.
		r = e.Do(admin, "POST", "/v1/orgs/"+org+"/collections", nil)
		ctWant(t, r, 201, "create without body")
		if r.JSON()["title"] != "Untitled" {
			t.Errorf("create without body: %s", r.Body)
		}

		// With a title and a parent.
		parent := ctCol(t, e, admin, org, "Guides", "")
		child := ctCreate(t, e, admin, org, map[string]any{"title": "Child", "parent": parent})
		if child["parent"] != parent || child["title"] != "Child" || child["organization"] != org {
			t.Errorf("child: %v", child)
		}
		if got := ctSubs(t, e, admin, parent); !ctContains(got, child["id"].(string)) {
			t.Errorf("parent's sub-collections %v lack the child", got)
		}
		if got := ctRoots(t, e, admin, org); ctContains(got, child["id"].(string)) {
			t.Errorf("child listed at the root: %v", got)
		}

		// Title length is counted in characters: 50 is fine, 51 is not.
		if c := ctCreate(t, e, admin, org, map[string]any{"title": strings.Repeat("é", 50)}); c["title"] != strings.Repeat("é", 50) {
			t.Errorf("50-character title: %v", c["title"])
		}

		// Creation in an organization of which the caller is admin too, for
		// the cross-organization parent case.
		e.Member(team.Other, team.Admin.User, "admin")
		foreign := ctCol(t, e, admin, team.Other.ID, "Foreign", "")

		bad := []struct {
			name   string
			body   any
			status int
			field  string
		}{
			{"title too long", map[string]any{"title": strings.Repeat("x", 51)}, 400, "title"},
			{"title wrong type", map[string]any{"title": 5}, 400, "title"},
			{"title object", map[string]any{"title": map[string]any{}}, 400, "title"},
			{"parent wrong type", map[string]any{"parent": true}, 400, "parent"},
			{"malformed JSON", `{"title":`, 400, ""},
			{"not an object", `["Guides"]`, 400, ""},
			{"parent in another org", map[string]any{"parent": foreign}, 400, "parent"},
			{"unknown parent", map[string]any{"parent": "col_does_not_exist"}, 400, "parent"},
		}
		before := ctList(t, e, admin, "/v1/orgs/"+org+"/collections")
		for _, tc := range bad {
			r := e.Do(admin, "POST", "/v1/orgs/"+org+"/collections", tc.body)
			ctErr(t, r, tc.status, tc.field, tc.name)
		}
		ctEq(t, "collections after refused creations", ctList(t, e, admin, "/v1/orgs/"+org+"/collections"), before)

		// Unknown organization.
		ctErr(t, e.Do(admin, "POST", "/v1/orgs/org_nope/collections", map[string]any{}), 404, "", "unknown organization")
	})
}

func TestCollectionGet(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		created := ctCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "Handbook"})
		id := created["id"].(string)

		got := ctGet(t, e, team.Admin.Token, "/v1/collections/"+id)
		if !reflect.DeepEqual(got, created) {
			t.Errorf("GET = %v, want the created object %v", got, created)
		}
		r := ctGet(t, e, team.Reader.Token, "/v1/collections/"+id)
		if r["title"] != "Handbook" || testenv.Path(r, "permissions", "view") != true ||
			testenv.Path(r, "permissions", "admin") != false || testenv.Path(r, "permissions", "create") != false {
			t.Errorf("reader view: %v", r)
		}
		ctErr(t, e.Do(team.Admin.Token, "GET", "/v1/collections/col_does_not_exist", nil), 404, "", "unknown collection")
	})
}

func TestCollectionPatch(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		admin := team.Admin.Token
		id := ctCol(t, e, admin, team.Org.ID, "Start", "")
		path := "/v1/collections/" + id

		c := ctPatch(t, e, admin, id, map[string]any{"title": "Renamed"})
		if c["title"] != "Renamed" {
			t.Errorf("title: %v", c)
		}
		c = ctPatch(t, e, admin, id, map[string]any{"description": "About things"})
		if c["description"] != "About things" || c["title"] != "Renamed" {
			t.Errorf("description (title must stay): %v", c)
		}
		if g := ctGet(t, e, admin, path); g["description"] != "About things" || g["title"] != "Renamed" {
			t.Errorf("GET after patch: %v", g)
		}
		c = ctPatch(t, e, admin, id, map[string]any{"description": nil})
		if _, ok := c["description"]; ok {
			t.Errorf("description null should remove it: %v", c)
		}
		if _, ok := ctGet(t, e, admin, path)["description"]; ok {
			t.Errorf("description still stored after null")
		}
		c = ctPatch(t, e, admin, id, map[string]any{"description": strings.Repeat("d", 100)})
		if c["description"] != strings.Repeat("d", 100) {
			t.Errorf("100-character description refused: %v", c)
		}

		for _, lvl := range []string{"read", "edit", "admin", "inherit"} {
			c = ctPatch(t, e, admin, id, map[string]any{"defaultLevel": lvl})
			if c["defaultLevel"] != lvl {
				t.Errorf("defaultLevel %s: %v", lvl, c["defaultLevel"])
			}
		}
		c = ctPatch(t, e, admin, id, map[string]any{"defaultLevel": nil})
		if v, ok := c["defaultLevel"]; !ok || v != nil {
			t.Errorf("defaultLevel null: present=%v value=%v", ok, v)
		}
		if v, ok := ctGet(t, e, admin, path)["defaultLevel"]; !ok || v != nil {
			t.Errorf("defaultLevel after null: present=%v value=%v", ok, v)
		}
		c = ctPatch(t, e, admin, id, map[string]any{"defaultLevel": "inherit", "title": "Both", "description": "x"})
		if c["defaultLevel"] != "inherit" || c["title"] != "Both" || c["description"] != "x" {
			t.Errorf("several fields: %v", c)
		}

		bad := []struct {
			name  string
			body  any
			field string
		}{
			{"title too long", map[string]any{"title": strings.Repeat("t", 51)}, "title"},
			{"title null", map[string]any{"title": nil}, "title"},
			{"title wrong type", map[string]any{"title": 5}, "title"},
			{"description too long", map[string]any{"description": strings.Repeat("d", 101)}, "description"},
			{"description wrong type", map[string]any{"description": []any{}}, "description"},
			{"defaultLevel owner", map[string]any{"defaultLevel": "owner"}, "defaultLevel"},
			{"defaultLevel wrong type", map[string]any{"defaultLevel": 3}, "defaultLevel"},
			{"malformed JSON", `{"title": "x"`, ""},
			{"empty body", "", ""},
		}
		for _, tc := range bad {
			ctErr(t, e.Do(admin, "PATCH", path, tc.body), 400, tc.field, tc.name)
		}
		if g := ctGet(t, e, admin, path); g["title"] != "Both" || g["description"] != "x" || g["defaultLevel"] != "inherit" {
			t.Errorf("refused patches changed the collection: %v", g)
		}
		ctErr(t, e.Do(admin, "PATCH", "/v1/collections/col_does_not_exist", map[string]any{"title": "x"}), 404, "", "unknown collection")
	})
}

func TestCollectionDelete(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		admin, org := team.Admin.Token, team.Org.ID
		c := ctCol(t, e, admin, org, "Doomed", "")
		sub := ctCol(t, e, admin, org, "Sub", c)
		subsub := ctCol(t, e, admin, org, "SubSub", sub)
		keep := ctCol(t, e, admin, org, "Keep", "")
		x := ctSpace(t, e, admin, org, "In collection", c)
		y := ctSpace(t, e, admin, org, "In sub", sub)
		z := ctSpace(t, e, admin, org, "In subsub", subsub)
		root := ctSpace(t, e, admin, org, "At root", "")
		kept := ctSpace(t, e, admin, org, "In kept", keep)

		ctEmpty(t, e.Do(admin, "DELETE", "/v1/collections/"+c, nil), 205, "delete")
		ctEmpty(t, e.Do(admin, "DELETE", "/v1/collections/"+c, nil), 204, "delete again")
		ctEmpty(t, e.Do(admin, "DELETE", "/v1/collections/"+sub, nil), 204, "delete the deleted sub-collection")
		ctEmpty(t, e.Do(admin, "DELETE", "/v1/collections/col_does_not_exist", nil), 204, "delete unknown")

		for _, id := range []string{c, sub, subsub} {
			ctErr(t, e.Do(admin, "GET", "/v1/collections/"+id, nil), 404, "", "GET deleted "+id)
			ctErr(t, e.Do(admin, "GET", "/v1/collections/"+id+"/spaces", nil), 404, "", "spaces of deleted "+id)
		}
		ctEq(t, "collections after delete", ctList(t, e, admin, "/v1/orgs/"+org+"/collections"), []string{keep})

		// The spaces inside went to the trash: readable with deletedAt, out of lists.
		for _, id := range []string{x, y, z} {
			s := ctGet(t, e, admin, "/v1/spaces/"+id)
			if d, _ := s["deletedAt"].(string); d == "" {
				t.Errorf("space %s has no deletedAt: %v", id, s)
			}
		}
		ctSameSet(t, "live spaces", ctList(t, e, admin, "/v1/orgs/"+org+"/spaces"), []string{root, kept})

		// They can be restored; their collection is gone, so they come back at the root.
		for _, id := range []string{x, y, z} {
			r := e.Do(admin, "POST", "/v1/spaces/"+id+"/restore", nil)
			ctWant(t, r, 200, "restore "+id)
			s := r.JSON()
			if _, ok := s["deletedAt"]; ok {
				t.Errorf("restored space still has deletedAt: %s", r.Body)
			}
			if _, ok := s["parent"]; ok {
				t.Errorf("restored space still has a parent: %s", r.Body)
			}
		}
		ctSameSet(t, "live spaces after restore", ctList(t, e, admin, "/v1/orgs/"+org+"/spaces"), []string{root, kept, x, y, z})
		// The surviving collection is untouched.
		ctEq(t, "spaces of kept collection", ctList(t, e, admin, "/v1/collections/"+keep+"/spaces"), []string{kept})
	})
}

func TestCollectionSpacesList(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		admin, org := team.Admin.Token, team.Org.ID
		c := ctCol(t, e, admin, org, "Shelf", "")
		other := ctCol(t, e, admin, org, "Other shelf", "")
		s1 := ctSpace(t, e, admin, org, "One", c)
		s2 := ctSpace(t, e, admin, org, "Two", c)
		ctSpace(t, e, admin, org, "Elsewhere", other)
		ctSpace(t, e, admin, org, "Root", "")
		gone := ctSpace(t, e, admin, org, "Gone", c)
		s3 := ctSpace(t, e, admin, org, "Three", c)
		ctSpace(t, e, admin, org, "Nested", ctCol(t, e, admin, org, "Inner", c))
		ctEmpty(t, e.Do(admin, "DELETE", "/v1/spaces/"+gone, nil), 205, "delete space")

		all := ctGet(t, e, admin, "/v1/collections/"+c+"/spaces")
		ctEq(t, "spaces", ctIDs(all), []string{s1, s2, s3})
		if all["count"] != float64(3) {
			t.Errorf("count = %v", all["count"])
		}
		if _, ok := all["next"]; ok {
			t.Errorf("single page has next: %v", all["next"])
		}
		if it := testenv.Path(all, "items", 0); testenv.Path(it, "object") != "space" || testenv.Path(it, "parent") != c {
			t.Errorf("item: %v", it)
		}

		// Paging.
		var seen []string
		path := "/v1/collections/" + c + "/spaces?limit=2"
		for pages := 0; ; pages++ {
			if pages > 3 {
				t.Fatalf("too many pages")
			}
			p := ctGet(t, e, admin, path)
			if p["count"] != float64(3) {
				t.Errorf("page count = %v", p["count"])
			}
			seen = append(seen, ctIDs(p)...)
			next, _ := testenv.Path(p, "next", "page").(string)
			if next == "" {
				if _, ok := p["next"]; ok {
					t.Errorf("last page has next: %v", p["next"])
				}
				break
			}
			if n := len(ctIDs(p)); n != 2 {
				t.Errorf("non-last page has %d items", n)
			}
			path = "/v1/collections/" + c + "/spaces?limit=2&page=" + url.QueryEscape(next)
		}
		ctEq(t, "paged spaces", seen, []string{s1, s2, s3})

		ctErr(t, e.Do(admin, "GET", "/v1/collections/"+c+"/spaces?limit=1001", nil), 400, "limit", "limit too big")
		ctErr(t, e.Do(admin, "GET", "/v1/collections/"+c+"/spaces?limit=-1", nil), 400, "limit", "negative limit")
		ctErr(t, e.Do(admin, "GET", "/v1/collections/"+c+"/spaces?page=garbage!", nil), 400, "page", "bad page")
		ctErr(t, e.Do(admin, "GET", "/v1/collections/col_does_not_exist/spaces", nil), 404, "", "unknown collection")

		// An empty collection lists nothing.
		empty := ctGet(t, e, admin, "/v1/collections/"+ctCol(t, e, admin, org, "Empty", "")+"/spaces")
		if items, ok := empty["items"].([]any); !ok || len(items) != 0 || empty["count"] != float64(0) {
			t.Errorf("empty collection: %v", empty)
		}
	})
}

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

// TestCollectionPermissions is the permission matrix of every collection
// route: route × actor → status. Each case works on fresh collections made
// by the admin, so the cases do not disturb each other.
func TestCollectionPermissions(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		admin, org := team.Admin.Token, team.Org.ID
		// The admin administers Other too, so that a transfer can succeed.
		e.Member(team.Other, team.Admin.User, "admin")

		type fixture struct {
			col    string // the collection the route works on
			method string
			path   string
			body   any
		}
		type route struct {
			name  string
			setup func() fixture
		}
		simple := func(method, suffix string, body func(col string) any) func() fixture {
			return func() fixture {
				col := ctCol(t, e, admin, org, "Fixture", "")
				ctSpace(t, e, admin, org, "Inside", col)
				var b any
				if body != nil {
					b = body(col)
				}
				return fixture{col, method, "/v1/collections/" + col + suffix, b}
			}
		}
		routes := []route{
			{"list org collections", func() fixture {
				col := ctCol(t, e, admin, org, "Fixture", "")
				return fixture{col, "GET", "/v1/orgs/" + org + "/collections", nil}
			}},
			{"create in org", func() fixture {
				return fixture{"", "POST", "/v1/orgs/" + org + "/collections", map[string]any{"title": "New"}}
			}},
			{"create in collection", func() fixture {
				col := ctCol(t, e, admin, org, "Fixture", "")
				return fixture{col, "POST", "/v1/orgs/" + org + "/collections", map[string]any{"title": "New", "parent": col}}
			}},
			{"get", simple("GET", "", nil)},
			{"patch", simple("PATCH", "", func(string) any { return map[string]any{"title": "Changed"} })},
			{"delete", simple("DELETE", "", nil)},
			{"list spaces", simple("GET", "/spaces", nil)},
			{"move", func() fixture {
				target := ctCol(t, e, admin, org, "Target", "")
				col := ctCol(t, e, admin, org, "Fixture", "")
				return fixture{col, "POST", "/v1/collections/" + col + "/move", map[string]any{"parent": target}}
			}},
			{"move position", func() fixture {
				first := ctCol(t, e, admin, org, "First", "")
				col := ctCol(t, e, admin, org, "Fixture", "")
				return fixture{col, "POST", "/v1/collections/" + col + "/move", map[string]any{
					"position": map[string]any{"before": map[string]any{"type": "collection", "collection": first}}}}
			}},
			{"transfer", simple("POST", "/transfer", func(string) any { return map[string]any{"organization": team.Other.ID} })},
		}
		type actor struct {
			name  string
			token string
		}
		actors := []actor{
			{"admin", team.Admin.Token},
			{"editor", team.Editor.Token},
			{"reader", team.Reader.Token},
			{"outsider", team.Outsider.Token},
			{"anonymous", team.Anon.Token},
		}
		want := map[string][5]int{
			//                      admin editor reader outsider anon
			"list org collections": {200, 200, 200, 404, 401},
			"create in org":        {201, 403, 403, 404, 401},
			"create in collection": {201, 403, 403, 404, 401},
			"get":                  {200, 200, 200, 404, 401},
			"patch":                {200, 403, 403, 404, 401},
			"delete":               {205, 403, 403, 204, 401},
			"list spaces":          {200, 200, 200, 404, 401},
			"move":                 {200, 403, 403, 404, 401},
			"move position":        {200, 403, 403, 404, 401},
			"transfer":             {200, 403, 403, 404, 401},
		}
		for _, rt := range routes {
			for i, ac := range actors {
				status := want[rt.name][i]
				name := rt.name + "/" + ac.name
				f := rt.setup()
				r := e.Do(ac.token, f.method, f.path, f.body)
				switch {
				case status == 204 || status == 205:
					ctEmpty(t, r, status, name)
				case status >= 400:
					ctErr(t, r, status, "", name)
				default:
					if r.Status != status {
						t.Errorf("%s: status %d, want %d; body %s", name, r.Status, status, r.Body)
					}
				}
				if status >= 400 && f.col != "" {
					// A refusal changes nothing.
					g := ctGet(t, e, admin, "/v1/collections/"+f.col)
					if g["title"] != "Fixture" || g["organization"] != org {
						t.Errorf("%s: refused request changed the collection: %v", name, g)
					}
					if _, ok := g["parent"]; ok {
						t.Errorf("%s: refused request changed the parent: %v", name, g)
					}
				}
				if status == 204 && f.col != "" {
					// Invisible means "did not exist": still there for the admin.
					ctGet(t, e, admin, "/v1/collections/"+f.col)
				}
			}
		}

		// Lists only show what the caller may see: the outsider sees
		// nothing of Org even through their own organization.
		for _, id := range ctList(t, e, team.Outsider.Token, "/v1/orgs/"+team.Other.ID+"/collections") {
			g := ctGet(t, e, admin, "/v1/collections/"+id)
			if g["organization"] != team.Other.ID {
				t.Errorf("outsider lists %v", g)
			}
		}
	})
}

// TestCollectionDefaultLevel checks what defaultLevel gives a non-admin
// member: null hides the collection, a role applies as is, inherit follows
// the parent up to the organization role.
func TestCollectionDefaultLevel(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		admin, org := team.Admin.Token, team.Org.ID
		reader, editor := team.Reader.Token, team.Editor.Token
		perms := func(v map[string]any) map[string]any {
			p, _ := v["permissions"].(map[string]any)
			return p
		}

		// null: no default access.
		hidden := ctCol(t, e, admin, org, "Hidden", "")
		hiddenSpace := ctSpace(t, e, admin, org, "Hidden space", hidden)
		hiddenChild := ctCol(t, e, admin, org, "Hidden child", hidden)
		ctPatch(t, e, admin, hidden, map[string]any{"defaultLevel": nil})
		for _, tok := range []string{reader, editor} {
			ctErr(t, e.Do(tok, "GET", "/v1/collections/"+hidden, nil), 404, "", "member GET null collection")
			ctErr(t, e.Do(tok, "GET", "/v1/collections/"+hidden+"/spaces", nil), 404, "", "member spaces of null collection")
			ctErr(t, e.Do(tok, "GET", "/v1/collections/"+hiddenChild, nil), 404, "", "member GET inheriting child of null")
			ctErr(t, e.Do(tok, "GET", "/v1/spaces/"+hiddenSpace, nil), 404, "", "member GET space in null collection")
			ctErr(t, e.Do(tok, "PATCH", "/v1/collections/"+hidden, map[string]any{"title": "x"}), 404, "", "member PATCH null collection")
			ctErr(t, e.Do(tok, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"parent": hidden}), 400, "parent", "member create in null collection")
			ctEmpty(t, e.Do(tok, "DELETE", "/v1/collections/"+hidden, nil), 204, "member DELETE null collection")
			for _, q := range []string{"", "?nested=false"} {
				if got := ctList(t, e, tok, "/v1/orgs/"+org+"/collections"+q); ctContains(got, hidden) || ctContains(got, hiddenChild) {
					t.Errorf("member list%s shows hidden collections: %v", q, got)
				}
			}
			if got := ctList(t, e, tok, "/v1/orgs/"+org+"/spaces"); ctContains(got, hiddenSpace) {
				t.Errorf("member space list shows the hidden space: %v", got)
			}
		}
		g := ctGet(t, e, admin, "/v1/collections/"+hidden)
		if v, ok := g["defaultLevel"]; !ok || v != nil || perms(g)["admin"] != true {
			t.Errorf("admin view of null collection: %v", g)
		}
		if got := ctList(t, e, admin, "/v1/orgs/"+org+"/collections"); !ctContains(got, hidden) || !ctContains(got, hiddenChild) {
			t.Errorf("admin list lacks the hidden collections: %v", got)
		}
		ctGet(t, e, admin, "/v1/spaces/"+hiddenSpace)
		// A child with a role of its own is visible under a null parent.
		ctPatch(t, e, admin, hiddenChild, map[string]any{"defaultLevel": "read"})
		ctGet(t, e, reader, "/v1/collections/"+hiddenChild)

		// A role applies as is, above or below the org role.
		edit := ctCol(t, e, admin, org, "Editable", "")
		editSpace := ctSpace(t, e, admin, org, "Editable space", edit)
		ctPatch(t, e, admin, edit, map[string]any{"defaultLevel": "edit"})
		p := perms(ctGet(t, e, reader, "/v1/collections/"+edit))
		if p["view"] != true || p["create"] != false || p["admin"] != false || p["viewInviteLinks"] != false {
			t.Errorf("reader on edit collection: %v", p)
		}
		if sp := perms(ctGet(t, e, reader, "/v1/spaces/"+editSpace)); sp["edit"] != true || sp["admin"] != false {
			t.Errorf("reader on space in edit collection: %v", sp)
		}
		ctErr(t, e.Do(reader, "PATCH", "/v1/collections/"+edit, map[string]any{"title": "x"}), 403, "", "reader PATCH edit collection")
		ctErr(t, e.Do(reader, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"parent": edit}), 403, "", "reader create in edit collection")
		ctPatch(t, e, admin, edit, map[string]any{"defaultLevel": "read"})
		if sp := perms(ctGet(t, e, editor, "/v1/spaces/"+editSpace)); sp["edit"] != false || sp["view"] != true {
			t.Errorf("editor on space in read collection: %v", sp)
		}

		// inherit chains through parents up to the org role.
		top := ctCol(t, e, admin, org, "Top", "")
		mid := ctCol(t, e, admin, org, "Mid", top)
		leaf := ctCol(t, e, admin, org, "Leaf", mid)
		leafSpace := ctSpace(t, e, admin, org, "Leaf space", leaf)
		for _, id := range []string{top, mid, leaf} {
			if p := perms(ctGet(t, e, reader, "/v1/collections/"+id)); p["view"] != true || p["create"] != false {
				t.Errorf("reader on inheriting %s (org role read): %v", id, p)
			}
		}
		ctPatch(t, e, admin, top, map[string]any{"defaultLevel": "create"})
		for _, id := range []string{top, mid, leaf} {
			if p := perms(ctGet(t, e, reader, "/v1/collections/"+id)); p["view"] != true || p["create"] != true || p["admin"] != false {
				t.Errorf("reader on %s under a create collection: %v", id, p)
			}
		}
		if sp := perms(ctGet(t, e, reader, "/v1/spaces/"+leafSpace)); sp["edit"] != true || sp["review"] != true || sp["admin"] != false {
			t.Errorf("reader on space under a create collection: %v", sp)
		}
		r := e.Do(reader, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "By reader", "parent": leaf})
		ctWant(t, r, 201, "reader creates inside an inherited create collection")
		byReader := r.JSON()
		if byReader["defaultLevel"] != "inherit" || testenv.Path(byReader, "permissions", "create") != true {
			t.Errorf("created by reader: %v", byReader)
		}
		ctErr(t, e.Do(reader, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Root"}), 403, "", "reader creates at root")
		ctErr(t, e.Do(reader, "PATCH", "/v1/collections/"+leaf, map[string]any{"title": "x"}), 403, "", "create level is not admin")

		// The middle link decides for what lies below it.
		ctPatch(t, e, admin, mid, map[string]any{"defaultLevel": nil})
		for _, id := range []string{mid, leaf, byReader["id"].(string)} {
			ctErr(t, e.Do(reader, "GET", "/v1/collections/"+id, nil), 404, "", "below a null link")
		}
		ctErr(t, e.Do(reader, "GET", "/v1/spaces/"+leafSpace, nil), 404, "", "space below a null link")
		ctGet(t, e, reader, "/v1/collections/"+top)
		ctPatch(t, e, admin, mid, map[string]any{"defaultLevel": "comment"})
		if p := perms(ctGet(t, e, reader, "/v1/collections/"+leaf)); p["view"] != true || p["create"] != false {
			t.Errorf("leaf under a comment link: %v", p)
		}
		if sp := perms(ctGet(t, e, reader, "/v1/spaces/"+leafSpace)); sp["comment"] != true || sp["edit"] != false {
			t.Errorf("space under a comment link: %v", sp)
		}
		// Back to inherit: the top's create level flows down again.
		ctPatch(t, e, admin, mid, map[string]any{"defaultLevel": "inherit"})
		if p := perms(ctGet(t, e, reader, "/v1/collections/"+leaf)); p["create"] != true {
			t.Errorf("leaf after inherit restored: %v", p)
		}
		// Guests (members without a role) see nothing, whatever the default level.
		guest, guestTok := e.User("guest@acme.test")
		e.Member(team.Org, guest, "")
		open := ctCol(t, e, admin, org, "Open", "")
		ctPatch(t, e, admin, open, map[string]any{"defaultLevel": "admin"})
		if p := perms(ctGet(t, e, reader, "/v1/collections/"+open)); p["admin"] != true {
			t.Errorf("reader on an admin-level collection: %v", p)
		}
		for _, id := range []string{open, top, edit} {
			ctErr(t, e.Do(guestTok, "GET", "/v1/collections/"+id, nil), 404, "", "guest GET")
			ctEmpty(t, e.Do(guestTok, "DELETE", "/v1/collections/"+id, nil), 204, "guest DELETE")
		}
		if got := ctList(t, e, guestTok, "/v1/orgs/"+org+"/collections"); len(got) != 0 {
			t.Errorf("guest lists collections: %v", got)
		}
		ctErr(t, e.Do(guestTok, "POST", "/v1/orgs/"+org+"/collections", map[string]any{}), 403, "", "guest creates")
		ctGet(t, e, admin, "/v1/collections/"+open)

		// Admins stay admins whatever the default level.
		ctPatch(t, e, admin, top, map[string]any{"defaultLevel": "read"})
		if p := perms(ctGet(t, e, admin, "/v1/collections/"+leaf)); p["admin"] != true || p["create"] != true {
			t.Errorf("admin under a read collection: %v", p)
		}
	})
}
