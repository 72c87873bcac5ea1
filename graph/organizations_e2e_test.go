package graph_test

import (
	"net/http"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

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

		// Bad arguments are validation errors naming the argument; page
		// sizes are refused before execution.
		gqlRefused(t, e.GraphQL(team.Admin.Token, doc, map[string]any{"first": -1}), "BAD_REQUEST", "first")
		gqlRefused(t, e.GraphQL(team.Admin.Token, doc, map[string]any{"last": 1001}), "BAD_REQUEST", "last")
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
