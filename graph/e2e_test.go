package graph_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"testing"
	"time"

	"quire/ent"
	"quire/graph"
	"quire/internal/catalog"
	"quire/internal/testenv"
)

// ---------------------------------------------------------------------------
// Helpers

// gqlOK fails the test unless the response is a 200 without errors, and
// returns its data.
func gqlOK(t *testing.T, r *testenv.GQLResponse) map[string]any {
	t.Helper()
	if r.Status != http.StatusOK || len(r.Errors) > 0 || r.Data == nil {
		t.Fatalf("GraphQL: want data without errors, got HTTP %d %s", r.Status, r.Raw)
	}
	return r.Data
}

// gqlErr checks that a resolver error is answered with HTTP 200, the first
// error carrying extensions.code (and extensions.field when field is not
// empty), and no data for the failed root field.
func gqlErr(t *testing.T, r *testenv.GQLResponse, code, field string) {
	t.Helper()
	if len(r.Errors) == 0 {
		t.Errorf("want error %s, got HTTP %d %s", code, r.Status, r.Raw)
		return
	}
	if r.Status != http.StatusOK {
		t.Errorf("resolver error: HTTP %d, want 200 (%s)", r.Status, r.Raw)
	}
	if got := r.Code(); got != code {
		t.Errorf("extensions.code = %q, want %q (%s)", got, code, r.Raw)
	}
	if field != "" {
		if got, _ := r.Errors[0].Extensions["field"].(string); got != field {
			t.Errorf("extensions.field = %q, want %q (%s)", got, field, r.Raw)
		}
	}
	if r.Errors[0].Message == "" {
		t.Errorf("empty error message: %s", r.Raw)
	}
	for k, v := range r.Data {
		if v != nil {
			t.Errorf("data.%s = %v, want null", k, v)
		}
	}
}

// restGet reads a REST object, failing unless it answers 200.
func restGet(t *testing.T, e *testenv.Env, token, path string) map[string]any {
	t.Helper()
	r := e.Do(token, "GET", path, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
	}
	return r.JSON()
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// restEnum turns a GraphQL enum name into the REST spelling.
func restEnum(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	return strings.ReplaceAll(s, "_", "-")
}

func id(v any) any {
	if v == nil {
		return nil
	}
	return testenv.Path(v, "id")
}

func sameTime(t *testing.T, what string, gql, rest any) {
	t.Helper()
	if gql == nil || rest == nil {
		if gql != rest {
			t.Errorf("%s: GraphQL %v, REST %v", what, gql, rest)
		}
		return
	}
	g, err1 := time.Parse(time.RFC3339Nano, str(gql))
	r, err2 := time.Parse(time.RFC3339Nano, str(rest))
	if err1 != nil || err2 != nil || !g.Equal(r) {
		t.Errorf("%s: GraphQL %v, REST %v", what, gql, rest)
	}
	if !strings.HasSuffix(str(gql), "Z") {
		t.Errorf("%s: GraphQL DateTime %v is not in UTC", what, gql)
	}
}

const spaceFields = `id object title emoji visibility createdAt updatedAt deletedAt editMode language revision defaultLevel
	organization { id } parent { id } urls { location app } permissions { view admin edit }`

const collectionFields = `id object title description defaultLevel organization { id } parent { id }
	urls { location app } permissions { view admin create }`

// sameSpace compares a space read through GraphQL with the same space read
// through REST: same id, same values, enums in their door's spelling.
func sameSpace(t *testing.T, g, r map[string]any) {
	t.Helper()
	for _, f := range []string{"id", "object", "title", "emoji", "revision"} {
		if g[f] != r[f] {
			t.Errorf("space.%s: GraphQL %v, REST %v", f, g[f], r[f])
		}
	}
	for _, f := range []string{"visibility", "editMode", "language", "defaultLevel"} {
		if restEnum(g[f]) != r[f] {
			t.Errorf("space.%s: GraphQL %v, REST %v", f, g[f], r[f])
		}
	}
	if id(g["organization"]) != r["organization"] {
		t.Errorf("space.organization: GraphQL %v, REST %v", g["organization"], r["organization"])
	}
	if id(g["parent"]) != r["parent"] {
		t.Errorf("space.parent: GraphQL %v, REST %v", g["parent"], r["parent"])
	}
	for _, f := range []string{"createdAt", "updatedAt", "deletedAt"} {
		sameTime(t, "space."+f, g[f], r[f])
	}
	for _, f := range []string{"location", "app"} {
		if testenv.Path(g, "urls", f) != testenv.Path(r, "urls", f) {
			t.Errorf("space.urls.%s: GraphQL %v, REST %v", f, testenv.Path(g, "urls", f), testenv.Path(r, "urls", f))
		}
	}
	for _, f := range []string{"view", "admin", "edit"} {
		if testenv.Path(g, "permissions", f) != testenv.Path(r, "permissions", f) {
			t.Errorf("space.permissions.%s: GraphQL %v, REST %v", f, testenv.Path(g, "permissions", f), testenv.Path(r, "permissions", f))
		}
	}
}

// sameCollection compares a collection read through both doors.
func sameCollection(t *testing.T, g, r map[string]any) {
	t.Helper()
	for _, f := range []string{"id", "object", "title", "description"} {
		if g[f] != r[f] {
			t.Errorf("collection.%s: GraphQL %v, REST %v", f, g[f], r[f])
		}
	}
	if restEnum(g["defaultLevel"]) != r["defaultLevel"] {
		t.Errorf("collection.defaultLevel: GraphQL %v, REST %v", g["defaultLevel"], r["defaultLevel"])
	}
	if id(g["organization"]) != r["organization"] {
		t.Errorf("collection.organization: GraphQL %v, REST %v", g["organization"], r["organization"])
	}
	if id(g["parent"]) != r["parent"] {
		t.Errorf("collection.parent: GraphQL %v, REST %v", g["parent"], r["parent"])
	}
	for _, f := range []string{"location", "app"} {
		if testenv.Path(g, "urls", f) != testenv.Path(r, "urls", f) {
			t.Errorf("collection.urls.%s: GraphQL %v, REST %v", f, testenv.Path(g, "urls", f), testenv.Path(r, "urls", f))
		}
	}
	for _, f := range []string{"view", "admin", "create"} {
		if testenv.Path(g, "permissions", f) != testenv.Path(r, "permissions", f) {
			t.Errorf("collection.permissions.%s: GraphQL %v, REST %v", f, testenv.Path(g, "permissions", f), testenv.Path(r, "permissions", f))
		}
	}
}

// gqlSpace reads a space through GraphQL.
func gqlSpace(t *testing.T, e *testenv.Env, token, spaceID string) map[string]any {
	t.Helper()
	d := gqlOK(t, e.GraphQL(token, `query($id: ID!) { space(id: $id) { `+spaceFields+` } }`, map[string]any{"id": spaceID}))
	return d["space"].(map[string]any)
}

// gqlCollection reads a collection through GraphQL.
func gqlCollection(t *testing.T, e *testenv.Env, token, collectionID string) map[string]any {
	t.Helper()
	d := gqlOK(t, e.GraphQL(token, `query($id: ID!) { collection(id: $id) { `+collectionFields+` } }`, map[string]any{"id": collectionID}))
	return d["collection"].(map[string]any)
}

// restCreate creates an object through REST and returns its JSON.
func restCreate(t *testing.T, e *testenv.Env, token, path string, body map[string]any) map[string]any {
	t.Helper()
	r := e.Do(token, "POST", path, body)
	if r.Status != http.StatusCreated {
		t.Fatalf("POST %s: %d %s", path, r.Status, r.Body)
	}
	return r.JSON()
}

func restCollection(t *testing.T, e *testenv.Env, token, orgID, title string, parent any) string {
	t.Helper()
	body := map[string]any{"title": title}
	if parent != nil {
		body["parent"] = parent
	}
	return str(restCreate(t, e, token, "/v1/orgs/"+orgID+"/collections", body)["id"])
}

func restSpace(t *testing.T, e *testenv.Env, token, orgID, title string, parent any) string {
	t.Helper()
	body := map[string]any{"title": title}
	if parent != nil {
		body["parent"] = parent
	}
	return str(restCreate(t, e, token, "/v1/orgs/"+orgID+"/spaces", body)["id"])
}

// mutationCase is one call of a mutation and what it must answer: code ""
// is a success, checked by check when set.
type mutationCase struct {
	name  string
	token string
	vars  map[string]any
	code  string
	field string
	check func(t *testing.T, data map[string]any)
}

type restCall struct {
	method, path string
	body         any
}

var codeStatus = map[string]int{
	"BAD_REQUEST":         http.StatusBadRequest,
	"FORBIDDEN":           http.StatusForbidden,
	"NOT_FOUND":           http.StatusNotFound,
	"CONFLICT":            http.StatusConflict,
	"PRECONDITION_FAILED": http.StatusPreconditionFailed,
}

// restCreateCall turns createX(input) variables into the REST create call.
func restCreateCall(kind string) func(map[string]any) *restCall {
	return func(v map[string]any) *restCall {
		in := maps.Clone(v["in"].(map[string]any))
		org := str(in["organization"])
		delete(in, "organization")
		return &restCall{"POST", "/v1/orgs/" + org + "/" + kind, in}
	}
}

// restIDCall turns (id, input | organization) variables into a REST call
// on /v1/{kind}/{id}{suffix}.
func restIDCall(method, kind, suffix string) func(map[string]any) *restCall {
	return func(v map[string]any) *restCall {
		var body any
		if in, ok := v["in"]; ok {
			body = in
		}
		if org, ok := v["org"]; ok {
			body = map[string]any{"organization": org}
		}
		return &restCall{method, "/v1/" + kind + "/" + str(v["id"]) + suffix, body}
	}
}

// runMutations runs each case through GraphQL. Every error case is also
// sent through the REST door (toREST maps the variables to the same call),
// which must fail the same way: the status of the code, the same message.
func runMutations(t *testing.T, e *testenv.Env, doc string, toREST func(map[string]any) *restCall, cases []mutationCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.GraphQL(c.token, doc, c.vars)
			if c.code == "" {
				d := gqlOK(t, r)
				if c.check != nil {
					c.check(t, d)
				}
				return
			}
			gqlErr(t, r, c.code, c.field)
			if toREST == nil || len(r.Errors) == 0 {
				return
			}
			rc := toREST(c.vars)
			rr := e.Do(c.token, rc.method, rc.path, rc.body)
			want := codeStatus[c.code]
			if rr.Status != want || testenv.Path(rr.JSON(), "error", "code") != float64(want) {
				t.Errorf("REST %s %s: %d %s, want %d like GraphQL's %s", rc.method, rc.path, rr.Status, rr.Body, want, c.code)
			} else if msg := testenv.Path(rr.JSON(), "error", "message"); msg != r.Errors[0].Message {
				t.Errorf("REST message %q, GraphQL message %q", msg, r.Errors[0].Message)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// Queries

func TestGraphQLViewer(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		for _, a := range []testenv.Actor{team.Admin, team.Reader, team.Outsider} {
			rest := restGet(t, e, a.Token, "/v1/user")
			d := gqlOK(t, e.GraphQL(a.Token, `{ viewer { object id displayName email urls { location } } }`, nil))
			v := d["viewer"].(map[string]any)
			if v["id"] != rest["id"] || v["id"] != a.User.ID {
				t.Errorf("viewer.id = %v, REST /v1/user id = %v, user %s", v["id"], rest["id"], a.User.ID)
			}
			for _, f := range []string{"object", "displayName", "email"} {
				if v[f] != rest[f] {
					t.Errorf("viewer.%s = %v, REST %v", f, v[f], rest[f])
				}
			}
			if testenv.Path(v, "urls", "location") != testenv.Path(rest, "urls", "location") {
				t.Errorf("viewer.urls.location = %v, REST %v", testenv.Path(v, "urls", "location"), testenv.Path(rest, "urls", "location"))
			}
		}
	})
}

func TestGraphQLOrganizationsConnection(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		third := e.Org("Third")
		e.Member(team.Other, team.Admin.User, "read")
		e.Member(third, team.Admin.User, "edit")
		// An organization the admin does not belong to stays out.
		e.Org("Elsewhere")

		const doc = `query($first: Int, $after: String, $last: Int, $before: String) {
			organizations(first: $first, after: $after, last: $last, before: $before) {
				totalCount
				nodes { id title }
				edges { cursor node { id } }
				pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
			} }`
		conn := func(vars map[string]any) map[string]any {
			t.Helper()
			return gqlOK(t, e.GraphQL(team.Admin.Token, doc, vars))["organizations"].(map[string]any)
		}
		ids := func(c map[string]any) []string {
			var out []string
			for _, n := range c["nodes"].([]any) {
				out = append(out, str(testenv.Path(n, "id")))
			}
			return out
		}

		all := conn(nil)
		if all["totalCount"] != float64(3) {
			t.Fatalf("totalCount = %v, want 3", all["totalCount"])
		}
		order := ids(all)
		want := map[string]bool{team.Org.ID: true, team.Other.ID: true, third.ID: true}
		for _, o := range order {
			if !want[o] {
				t.Errorf("unexpected organization %s in %v", o, order)
			}
			delete(want, o)
		}
		if len(want) != 0 {
			t.Fatalf("missing organizations %v in %v", want, order)
		}
		edges := all["edges"].([]any)
		for i, ed := range edges {
			if testenv.Path(ed, "node", "id") != order[i] || str(testenv.Path(ed, "cursor")) == "" {
				t.Errorf("edge %d = %v, want node %s with a cursor", i, ed, order[i])
			}
		}
		pi := all["pageInfo"].(map[string]any)
		if pi["hasNextPage"] != false || pi["hasPreviousPage"] != false ||
			pi["startCursor"] != testenv.Path(edges[0], "cursor") || pi["endCursor"] != testenv.Path(edges[2], "cursor") {
			t.Errorf("pageInfo of the full list = %v", pi)
		}

		// REST lists the same organizations in the same order.
		rl := restGet(t, e, team.Admin.Token, "/v1/orgs")
		if rl["count"] != float64(3) {
			t.Errorf("REST count = %v", rl["count"])
		}
		for i, o := range order {
			if testenv.Path(rl, "items", i, "id") != o {
				t.Errorf("REST items[%d].id = %v, GraphQL %s", i, testenv.Path(rl, "items", i, "id"), o)
			}
		}

		// Forward: first 1, after the end cursor, until the end.
		var walked []string
		var after any
		for page := 0; page < 5; page++ {
			c := conn(map[string]any{"first": 1, "after": after})
			if c["totalCount"] != float64(3) {
				t.Errorf("page %d totalCount = %v", page, c["totalCount"])
			}
			got := ids(c)
			if len(got) != 1 {
				t.Fatalf("page %d: %d nodes, want 1", page, len(got))
			}
			walked = append(walked, got[0])
			pi := c["pageInfo"].(map[string]any)
			if pi["hasPreviousPage"] != (page > 0) {
				t.Errorf("page %d hasPreviousPage = %v", page, pi["hasPreviousPage"])
			}
			if pi["startCursor"] != pi["endCursor"] || pi["endCursor"] != testenv.Path(c, "edges", 0, "cursor") {
				t.Errorf("page %d pageInfo %v, edges %v", page, pi, c["edges"])
			}
			if pi["hasNextPage"] == false {
				break
			}
			after = pi["endCursor"]
		}
		if strings.Join(walked, ",") != strings.Join(order, ",") {
			t.Errorf("forward paging = %v, want %v", walked, order)
		}

		// Backward: last 1, before the start cursor, until the start.
		var back []string
		var before any
		for page := 0; page < 5; page++ {
			c := conn(map[string]any{"last": 1, "before": before})
			got := ids(c)
			if len(got) != 1 {
				t.Fatalf("backward page %d: %d nodes, want 1", page, len(got))
			}
			back = append([]string{got[0]}, back...)
			pi := c["pageInfo"].(map[string]any)
			if pi["hasNextPage"] != (page > 0) {
				t.Errorf("backward page %d hasNextPage = %v", page, pi["hasNextPage"])
			}
			if pi["hasPreviousPage"] == false {
				break
			}
			before = pi["startCursor"]
		}
		if strings.Join(back, ",") != strings.Join(order, ",") {
			t.Errorf("backward paging = %v, want %v", back, order)
		}

		// first + after combined with last + before: the middle one.
		mid := conn(map[string]any{"after": testenv.Path(edges[0], "cursor"), "before": testenv.Path(edges[2], "cursor")})
		if got := ids(mid); len(got) != 1 || got[0] != order[1] {
			t.Errorf("between first and last = %v, want [%s]", got, order[1])
		}

		// Bad arguments are validation errors naming the argument.
		gqlErr(t, e.GraphQL(team.Admin.Token, doc, map[string]any{"first": -1}), "BAD_REQUEST", "first")
		gqlErr(t, e.GraphQL(team.Admin.Token, doc, map[string]any{"last": 1001}), "BAD_REQUEST", "last")
		gqlErr(t, e.GraphQL(team.Admin.Token, doc, map[string]any{"after": "not a cursor"}), "BAD_REQUEST", "after")
		gqlErr(t, e.GraphQL(team.Admin.Token, doc, map[string]any{"before": "%%%"}), "BAD_REQUEST", "before")

		// viewer.organizations is the same connection.
		d := gqlOK(t, e.GraphQL(team.Admin.Token, `{ viewer { organizations(first: 2) { totalCount nodes { id } } } }`, nil))
		if testenv.Path(d, "viewer", "organizations", "totalCount") != float64(3) ||
			testenv.Path(d, "viewer", "organizations", "nodes", 1, "id") != order[1] {
			t.Errorf("viewer.organizations = %v", d)
		}
	})
}

func TestGraphQLOrganization(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		const doc = `query($id: ID!) { organization(id: $id) { object id title permissions { view admin createContent } urls { location } } }`
		for _, c := range []struct {
			name   string
			token  string
			admin  bool
			create bool
		}{
			{"admin", team.Admin.Token, true, true},
			{"editor", team.Editor.Token, false, false},
			{"reader", team.Reader.Token, false, false},
		} {
			t.Run(c.name, func(t *testing.T) {
				d := gqlOK(t, e.GraphQL(c.token, doc, map[string]any{"id": team.Org.ID}))
				o := d["organization"].(map[string]any)
				rest := restGet(t, e, c.token, "/v1/orgs/"+team.Org.ID)
				if o["id"] != team.Org.ID || o["id"] != rest["id"] || o["title"] != "Acme" || o["title"] != rest["title"] || o["object"] != rest["object"] {
					t.Errorf("organization = %v, REST %v", o, rest)
				}
				if testenv.Path(o, "permissions", "admin") != c.admin || testenv.Path(rest, "permissions", "admin") != c.admin ||
					testenv.Path(o, "permissions", "createContent") != c.create || testenv.Path(o, "permissions", "view") != true {
					t.Errorf("permissions = %v, REST %v", o["permissions"], rest["permissions"])
				}
				if testenv.Path(o, "urls", "location") != testenv.Path(rest, "urls", "location") {
					t.Errorf("urls.location = %v, REST %v", testenv.Path(o, "urls", "location"), testenv.Path(rest, "urls", "location"))
				}
			})
		}
		t.Run("outsider", func(t *testing.T) {
			r := e.GraphQL(team.Outsider.Token, doc, map[string]any{"id": team.Org.ID})
			gqlErr(t, r, "NOT_FOUND", "")
			if r.Data != nil {
				t.Errorf("data = %v, want null (organization is non-null)", r.Data)
			}
			if r := e.Do(team.Outsider.Token, "GET", "/v1/orgs/"+team.Org.ID, nil); r.Status != http.StatusNotFound {
				t.Errorf("REST outsider: %d %s", r.Status, r.Body)
			}
		})
		t.Run("unknown", func(t *testing.T) {
			gqlErr(t, e.GraphQL(team.Admin.Token, doc, map[string]any{"id": "O0000000000000000000"}), "NOT_FOUND", "")
		})
		t.Run("guest", func(t *testing.T) {
			u, tok := e.User("guest@acme.test")
			e.Member(team.Org, u, "")
			// A guest is a member: the organization is visible but its
			// content is not.
			restSpace(t, e, team.Admin.Token, team.Org.ID, "Hidden", nil)
			d := gqlOK(t, e.GraphQL(tok, `query($id: ID!) { organization(id: $id) { id spaces { totalCount } collections { totalCount } } }`, map[string]any{"id": team.Org.ID}))
			if testenv.Path(d, "organization", "spaces", "totalCount") != float64(0) || testenv.Path(d, "organization", "collections", "totalCount") != float64(0) {
				t.Errorf("guest sees %v", d)
			}
		})
	})
}

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

// TestGraphQLDateTimeIsUTC checks the DateTime scalar's documented promise
// ("always in UTC") when the database session runs in another time zone.
func TestGraphQLDateTimeIsUTC(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		if e.Dialect == "postgres" {
			// Make the database's default TimeZone something else than
			// UTC, and drop pooled connections so that new ones pick it up.
			ctx := context.Background()
			var name string
			if err := e.DB.SQL.QueryRowContext(ctx, "SELECT current_database()").Scan(&name); err != nil {
				t.Fatal(err)
			}
			if _, err := e.DB.SQL.ExecContext(ctx, `ALTER DATABASE "`+name+`" SET timezone TO 'Asia/Tokyo'`); err != nil {
				t.Fatal(err)
			}
			e.DB.SQL.SetMaxIdleConns(0)
			e.DB.SQL.SetMaxIdleConns(16)
		}
		team := e.NewTeam()
		spaceID := restSpace(t, e, team.Admin.Token, team.Org.ID, "Guide", nil)
		if r := e.Do(team.Admin.Token, "DELETE", "/v1/spaces/"+spaceID, nil); r.Status != http.StatusResetContent {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		g := gqlSpace(t, e, team.Admin.Token, spaceID)
		sameSpace(t, g, restGet(t, e, team.Admin.Token, "/v1/spaces/"+spaceID))
		d := gqlOK(t, e.GraphQL(team.Admin.Token, `query($id: ID!) { organization(id: $id) { createdAt } }`, map[string]any{"id": team.Org.ID}))
		sameTime(t, "organization.createdAt", testenv.Path(d, "organization", "createdAt"), restGet(t, e, team.Admin.Token, "/v1/orgs/"+team.Org.ID)["createdAt"])
	})
}

// ---------------------------------------------------------------------------
// Authentication

func TestGraphQLAuthentication(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		for _, c := range []struct{ name, token string }{
			{"no token", team.Anon.Token},
			{"unknown token", "qt_not-a-real-token"},
			{"garbage token", strings.Repeat("x", 300)},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := e.GraphQL(c.token, `{ viewer { id } }`, nil)
				if r.Status != http.StatusUnauthorized {
					t.Errorf("HTTP %d, want 401: %s", r.Status, r.Raw)
				}
				if r.Code() != "UNAUTHENTICATED" || r.Data != nil {
					t.Errorf("response %s, want errors[0].extensions.code UNAUTHENTICATED and no data", r.Raw)
				}
				// Mutations are refused the same way, before anything runs.
				r = e.GraphQL(c.token, `mutation($in: CreateSpaceInput!) { createSpace(input: $in) { id } }`, map[string]any{"in": map[string]any{"organization": team.Org.ID}})
				if r.Status != http.StatusUnauthorized || r.Code() != "UNAUTHENTICATED" {
					t.Errorf("mutation: HTTP %d %s", r.Status, r.Raw)
				}
			})
		}
		// A bad Authorization scheme counts as no token.
		r := e.Do("", "POST", "/graphql", map[string]any{"query": "{ viewer { id } }"})
		if r.Status != http.StatusUnauthorized {
			t.Errorf("no header: %d %s", r.Status, r.Body)
		}
		n, err := e.Client().Space.Query().Count(context.Background())
		if err != nil || n != 0 {
			t.Errorf("spaces after refused mutations: %d %v", n, err)
		}
	})
}

// ---------------------------------------------------------------------------
// N+1

func TestGraphQLStatementsDoNotGrowWithItems(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		// The query of the brief: every nested field over every item.
		const full = `query($id: ID!) { organization(id: $id) {
			collections { nodes { id organization { title } spaces { nodes { id organization { title } parent { title } permissions { admin } } } } }
			spaces(first: 100) { nodes { id parent { title } } } } }`
		// The same reads without Collection.spaces.
		const flat = `query($id: ID!) { organization(id: $id) {
			collections { nodes { id organization { title } parent { title } permissions { admin } } }
			spaces(first: 100) { nodes { id organization { title } parent { title } permissions { admin } } } } }`
		build := func(team *testenv.Team, collections, spaces int) {
			for c := 0; c < collections; c++ {
				col := restCollection(t, e, team.Admin.Token, team.Org.ID, fmt.Sprintf("C%d", c), nil)
				for s := 0; s < spaces; s++ {
					restSpace(t, e, team.Admin.Token, team.Org.ID, fmt.Sprintf("S%d.%d", c, s), col)
				}
			}
		}
		measure := func(doc string, team *testenv.Team, collections, spaces int) int64 {
			t.Helper()
			before := e.Statements()
			d := gqlOK(t, e.GraphQL(team.Reader.Token, doc, map[string]any{"id": team.Org.ID}))
			n := e.Statements() - before
			cs, _ := testenv.Path(d, "organization", "collections", "nodes").([]any)
			ss, _ := testenv.Path(d, "organization", "spaces", "nodes").([]any)
			if len(cs) != collections || len(ss) != collections*spaces {
				t.Fatalf("saw %d collections and %d spaces, want %d and %d", len(cs), len(ss), collections, collections*spaces)
			}
			for _, sp := range ss {
				if testenv.Path(sp, "parent", "title") == nil {
					t.Fatalf("space = %v", sp)
				}
			}
			if doc == full {
				for _, c := range cs {
					if n := len(testenv.Path(c, "spaces", "nodes").([]any)); n != spaces {
						t.Fatalf("collection with %d spaces, want %d", n, spaces)
					}
					sp := testenv.Path(c, "spaces", "nodes", 0)
					// The reader reads through the collection chain: not admin.
					if testenv.Path(sp, "parent", "title") == nil || testenv.Path(sp, "permissions", "admin") != false ||
						testenv.Path(sp, "organization", "title") == nil {
						t.Fatalf("space = %v", sp)
					}
				}
			}
			return n
		}
		small := e.NewTeam()
		build(small, 3, 2)
		// A second, bigger organization with its own cast.
		big := &testenv.Team{Org: e.Org("Big")}
		for _, m := range []struct {
			a    *testenv.Actor
			mail string
			role string
		}{{&big.Admin, "admin@big.test", "admin"}, {&big.Reader, "reader@big.test", "read"}} {
			u, tok := e.User(m.mail)
			e.Member(big.Org, u, m.role)
			*m.a = testenv.Actor{User: u, Token: tok}
		}
		build(big, 12, 5)

		// Warm up (query cache), then measure.
		measure(full, small, 3, 2)
		measure(flat, small, 3, 2)

		// Loaders batch within a 1 ms window: a scheduler stall on a busy
		// machine can split a batch and add a statement, never remove one,
		// so each side is the minimum of a dozen runs. A load per item would
		// still show on every run.
		lowest := func(f func() int64) int64 {
			m := f()
			for i := 0; i < 11; i++ {
				if n := f(); n < m {
					m = n
				}
			}
			return m
		}
		f1 := lowest(func() int64 { return measure(flat, small, 3, 2) })
		f2 := lowest(func() int64 { return measure(flat, big, 12, 5) })
		t.Logf("GraphQL statements without Collection.spaces: 3×2 → %d, 12×5 → %d", f1, f2)
		if f1 != f2 {
			t.Errorf("GraphQL statements grow with items: 3 collections × 2 spaces → %d, 12 × 5 → %d", f1, f2)
		}

		n1 := lowest(func() int64 { return measure(full, small, 3, 2) })
		n2 := lowest(func() int64 { return measure(full, big, 12, 5) })
		t.Logf("GraphQL statements of the full query: 3×2 → %d, 12×5 → %d", n1, n2)
		if n1 != n2 {
			t.Errorf("GraphQL statements of the full query grow with items: 3×2 → %d, 12×5 → %d", n1, n2)
		}

		// REST lists of spaces in collections.
		restMeasure := func(team *testenv.Team, want int) int64 {
			t.Helper()
			before := e.Statements()
			l := restGet(t, e, team.Reader.Token, "/v1/orgs/"+team.Org.ID+"/spaces?limit=100")
			n := e.Statements() - before
			if l["count"] != float64(want) || len(l["items"].([]any)) != want {
				t.Fatalf("REST list: count %v, %d items, want %d", l["count"], len(l["items"].([]any)), want)
			}
			for _, it := range l["items"].([]any) {
				if testenv.Path(it, "parent") == nil || testenv.Path(it, "permissions", "admin") != false || testenv.Path(it, "permissions", "view") != true {
					t.Fatalf("REST item = %v", it)
				}
			}
			return n
		}
		r1 := restMeasure(small, 6)
		r2 := restMeasure(big, 60)
		t.Logf("REST statements: 6 spaces → %d, 60 spaces → %d", r1, r2)
		if r1 != r2 {
			t.Errorf("REST statements grow with items: 6 spaces → %d, 60 → %d", r1, r2)
		}
	})
}

// ---------------------------------------------------------------------------
// Limits

// introspectionQuery is graphql-js's getIntrospectionQuery() as GraphiQL
// sends it (descriptions on, TypeRef nested 7 levels of ofType).
const introspectionQuery = `
    query IntrospectionQuery {
      __schema {
        queryType { name }
        mutationType { name }
        subscriptionType { name }
        types {
          ...FullType
        }
        directives {
          name
          description
          locations
          args {
            ...InputValue
          }
        }
      }
    }

    fragment FullType on __Type {
      kind
      name
      description
      fields(includeDeprecated: true) {
        name
        description
        args {
          ...InputValue
        }
        type {
          ...TypeRef
        }
        isDeprecated
        deprecationReason
      }
      inputFields {
        ...InputValue
      }
      interfaces {
        ...TypeRef
      }
      enumValues(includeDeprecated: true) {
        name
        description
        isDeprecated
        deprecationReason
      }
      possibleTypes {
        ...TypeRef
      }
    }

    fragment InputValue on __InputValue {
      name
      description
      type { ...TypeRef }
      defaultValue
    }

    fragment TypeRef on __Type {
      kind
      name
      ofType {
        kind
        name
        ofType {
          kind
          name
          ofType {
            kind
            name
            ofType {
              kind
              name
              ofType {
                kind
                name
                ofType {
                  kind
                  name
                  ofType {
                    kind
                    name
                  }
                }
              }
            }
          }
        }
      }
    }
`

func TestGraphQLLimitsOverHTTP(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		spaceID := restSpace(t, e, team.Admin.Token, team.Org.ID, "Guide", nil)
		limits := graph.DefaultLimits()

		t.Run("introspection", func(t *testing.T) {
			r := e.GraphQL(team.Reader.Token, introspectionQuery, nil)
			d := gqlOK(t, r)
			types, _ := testenv.Path(d, "__schema", "types").([]any)
			found := false
			for _, ty := range types {
				if testenv.Path(ty, "name") == "Space" {
					found = true
				}
			}
			if testenv.Path(d, "__schema", "queryType", "name") != "Query" || testenv.Path(d, "__schema", "mutationType", "name") != "Mutation" || !found {
				t.Errorf("introspection result lacks the schema: %.300s", r.Raw)
			}
		})

		t.Run("too deep", func(t *testing.T) {
			// collection { parent { parent { … { id } } } }: depth = 2 + parents.
			parents := limits.MaxDepth
			q := `query($id: ID!) { collection(id: $id) { ` + strings.Repeat("parent { ", parents) + "id" + strings.Repeat(" }", parents) + ` } }`
			r := e.GraphQL(team.Admin.Token, q, map[string]any{"id": "C0000000000000000000"})
			if r.Status != http.StatusUnprocessableEntity || r.Code() != graph.CodeQueryTooDeep || r.Data != nil {
				t.Errorf("HTTP %d %s, want 422 %s", r.Status, r.Raw, graph.CodeQueryTooDeep)
			}
			// At the limit it runs (and finds nothing).
			q = `query($id: ID!) { collection(id: $id) { ` + strings.Repeat("parent { ", limits.MaxDepth-2) + "id" + strings.Repeat(" }", limits.MaxDepth-2) + ` } }`
			gqlErr(t, e.GraphQL(team.Admin.Token, q, map[string]any{"id": "C0000000000000000000"}), "NOT_FOUND", "")
		})

		t.Run("too many aliases", func(t *testing.T) {
			var b strings.Builder
			b.WriteString("{ ")
			for i := 0; i < 40; i++ {
				fmt.Fprintf(&b, "a%d: viewer { id } ", i)
			}
			b.WriteString("}")
			r := e.GraphQL(team.Admin.Token, b.String(), nil)
			if r.Status != http.StatusUnprocessableEntity || r.Code() != graph.CodeTooManyAliases || r.Data != nil {
				t.Errorf("HTTP %d %s, want 422 %s", r.Status, r.Raw, graph.CodeTooManyAliases)
			}
			// Up to the limit it runs.
			b.Reset()
			b.WriteString("{ ")
			for i := 0; i < limits.MaxAliases; i++ {
				fmt.Fprintf(&b, "a%d: viewer { id } ", i)
			}
			b.WriteString("}")
			d := gqlOK(t, e.GraphQL(team.Admin.Token, b.String(), nil))
			if testenv.Path(d, "a0", "id") != team.Admin.User.ID {
				t.Errorf("aliases = %v", d)
			}
		})

		t.Run("5000 __typename", func(t *testing.T) {
			q := "{ " + strings.Repeat("__typename ", 5000) + "}"
			r := e.GraphQL(team.Admin.Token, q, nil)
			if len(r.Errors) == 0 || r.Data != nil {
				t.Fatalf("HTTP %d %.300s, want a refusal", r.Status, r.Raw)
			}
			if r.Status < 400 {
				t.Errorf("HTTP %d, want a 4xx refusal: %.300s", r.Status, r.Raw)
			}
			t.Logf("5,000 __typename: HTTP %d, code %s, message %q", r.Status, r.Code(), r.Errors[0].Message)
		})

		big := func(field string) []byte {
			pad := strings.Repeat("a", 1<<20)
			return []byte(`{"` + field + `":"` + pad + `"}`)
		}
		t.Run("body over 1 MiB", func(t *testing.T) {
			body := []byte(`{"query":"{ viewer { id } }","variables":{"pad":"` + strings.Repeat("a", 1<<20) + `"}}`)
			r := e.Do(team.Admin.Token, "POST", "/graphql", body)
			if r.Status != http.StatusRequestEntityTooLarge {
				t.Errorf("HTTP %d %.300s, want 413", r.Status, r.Body)
			}
			if code := testenv.Path(r.JSON(), "errors", 0, "extensions", "code"); code != "REQUEST_TOO_LARGE" {
				t.Errorf("code = %v: %.300s", code, r.Body)
			}
		})
		t.Run("REST body over 1 MiB", func(t *testing.T) {
			r := e.Do(team.Admin.Token, "PATCH", "/v1/spaces/"+spaceID, big("title"))
			if r.Status != http.StatusRequestEntityTooLarge {
				t.Errorf("HTTP %d %.300s, want 413", r.Status, r.Body)
			}
			if code := testenv.Path(r.JSON(), "error", "code"); code != float64(413) || str(testenv.Path(r.JSON(), "error", "message")) == "" {
				t.Errorf("body = %.300s, want {\"error\":{\"code\":413,...}}", r.Body)
			}
			// Nothing changed.
			if g := restGet(t, e, team.Admin.Token, "/v1/spaces/"+spaceID); g["title"] != "Guide" {
				t.Errorf("title = %v", g["title"])
			}
		})
	})
}

// ---------------------------------------------------------------------------
// Internal errors

func TestGraphQLInternalErrorsDoNotLeak(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		spaceID := restSpace(t, e, team.Admin.Token, team.Org.ID, "Guide", nil)
		const secret = "pq: relation secret_table_xyz does not exist"
		cat := e.Server.Resolver().Catalog
		orig := cat.Content
		cat.Content = failingDuplicator{errors.New(secret)}
		t.Cleanup(func() { cat.Content = orig })

		r := e.GraphQL(team.Admin.Token, `mutation($id: ID!) { duplicateSpace(id: $id) { id } }`, map[string]any{"id": spaceID})
		if len(r.Errors) == 0 || r.Code() != "INTERNAL" || r.Errors[0].Message != "Internal error" {
			t.Errorf("GraphQL internal error = %s", r.Raw)
		}
		if strings.Contains(string(r.Raw), "secret_table") {
			t.Errorf("GraphQL leaks the internal error: %s", r.Raw)
		}
		rr := e.Do(team.Admin.Token, "POST", "/v1/spaces/"+spaceID+"/duplicate", nil)
		if rr.Status != http.StatusInternalServerError || testenv.Path(rr.JSON(), "error", "code") != float64(500) {
			t.Errorf("REST internal error = %d %s", rr.Status, rr.Body)
		}
		if strings.Contains(string(rr.Body), "secret_table") {
			t.Errorf("REST leaks the internal error: %s", rr.Body)
		}
		// The failed duplicate left nothing behind.
		l := restGet(t, e, team.Admin.Token, "/v1/orgs/"+team.Org.ID+"/spaces")
		if l["count"] != float64(1) {
			t.Errorf("spaces after failed duplicates = %v", l)
		}

		// A panic in a resolver is an internal error too.
		e.Server.Resolver().Catalog.Now = func() time.Time { panic("secret panic detail") }
		r = e.GraphQL(team.Admin.Token, `mutation($id: ID!) { deleteSpace(id: $id) { id deleted } }`, map[string]any{"id": spaceID})
		if len(r.Errors) == 0 || strings.Contains(string(r.Raw), "secret panic") || r.Code() != "INTERNAL" {
			t.Errorf("GraphQL panic = HTTP %d %s", r.Status, r.Raw)
		}
		rr = e.Do(team.Admin.Token, "DELETE", "/v1/spaces/"+spaceID, nil)
		if rr.Status != http.StatusInternalServerError || strings.Contains(string(rr.Body), "secret panic") {
			t.Errorf("REST panic = %d %s", rr.Status, rr.Body)
		}
	})
}

// failingDuplicator fails every space duplication with its error.
type failingDuplicator struct{ err error }

func (f failingDuplicator) DuplicateContent(context.Context, *ent.Tx, *ent.Space, *ent.Space) error {
	return f.err
}
