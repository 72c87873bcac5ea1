package rest_test

import (
	"net/url"
	"reflect"
	"sort"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
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
