package graph_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"quire/internal/content"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

// writePages gives a space pages about the same subject, each with two
// sections, through direct edits.
func writePages(t *testing.T, e *testenv.Env, team *testenv.Team, spaceID string, n int) {
	t.Helper()
	var ops []content.Op
	for i := 0; i < n; i++ {
		md := fmt.Sprintf("The lighthouse keeper's log, part %d.\n\n## Lamps\n\nTrim the lighthouse lamps at dusk.\n\n## Weather\n\nRecord the lighthouse weather at dawn.\n", i)
		ops = append(ops, &content.CreatePage{Title: fmt.Sprintf("Lighthouse %d", i), Markdown: &md})
	}
	if _, err := e.Server.Resolver().Content.EditSpace(jobs.NewContext(context.Background(), e.Client(), team.Admin.User), spaceID, ops...); err != nil {
		t.Fatal(err)
	}
}

func TestGraphQLSearch(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := restSpace(t, e, team.Admin.Token, team.Org.ID, "Keepers", nil)
		writePages(t, e, team, space, 3)
		d := gqlOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { space(id: $id) {
			search(query: "lamps lighthouse", first: 2) { totalCount pageInfo { hasNextPage endCursor }
				edges { cursor node { id title path ancestors { title } urls { app } sections { id title path body urls { app } } } } } } }`,
			map[string]any{"id": space}))
		conn := testenv.Path(d, "space", "search")
		if testenv.Path(conn, "totalCount") != float64(3) || testenv.Path(conn, "pageInfo", "hasNextPage") != true {
			t.Fatalf("search: %v", conn)
		}
		node := testenv.Path(conn, "edges", 0, "node")
		sec := testenv.Path(node, "sections", 0)
		if testenv.Path(sec, "id") != "lamps" || !strings.HasSuffix(testenv.Path(sec, "urls", "app").(string), "#lamps") ||
			!strings.Contains(testenv.Path(sec, "body").(string), "lamps") {
			t.Errorf("section: %v", node)
		}
		// The next page, and an argument out of bounds.
		d = gqlOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!, $after: String) { space(id: $id) { search(query: "lighthouse", first: 2, after: $after) { nodes { id } pageInfo { hasNextPage } } } }`,
			map[string]any{"id": space, "after": testenv.Path(conn, "pageInfo", "endCursor")}))
		if n := len(testenv.Path(d, "space", "search", "nodes").([]any)); n != 1 {
			t.Errorf("second page: %v", d)
		}
		r := e.GraphQL(team.Reader.Token, `query($id: ID!) { space(id: $id) { search(query: "`+strings.Repeat("x", 513)+`") { totalCount } } }`, map[string]any{"id": space})
		if r.Code() != "BAD_REQUEST" || r.Errors[0].Extensions["field"] != "query" {
			t.Errorf("long query: %s", r.Raw)
		}
		// The organization's search, as a member of another organization:
		// NOT_FOUND, like the organization itself.
		r = e.GraphQL(team.Outsider.Token, `query($id: ID!) { organization(id: $id) { search(query: "lighthouse") { totalCount } } }`, map[string]any{"id": team.Org.ID})
		if r.Code() != "NOT_FOUND" {
			t.Errorf("outsider: %s", r.Raw)
		}
	})
}

// The statements of a search do not grow with the spaces, pages and
// sections it returns, on either door.
func TestSearchStatementsDoNotGrowWithResults(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		const doc = `query($id: ID!) { organization(id: $id) { search(query: "lighthouse lamps", first: 100) { totalCount
			nodes { id title space { title organization { title } parent { title } permissions { admin } }
				pages { id title path ancestors { title } urls { app } sections { id title path body urls { app } } } } } } }`
		build := func(team *testenv.Team, spaces, pages int) {
			col := restCollection(t, e, team.Admin.Token, team.Org.ID, "Stations", nil)
			for s := 0; s < spaces; s++ {
				writePages(t, e, team, restSpace(t, e, team.Admin.Token, team.Org.ID, fmt.Sprintf("Station %d", s), col), pages)
			}
		}
		small, big := e.NewTeam(), &testenv.Team{Org: e.Org("Big")}
		u, tok := e.User("admin@big.test")
		e.Member(big.Org, u, "admin")
		big.Admin = testenv.Actor{User: u, Token: tok}
		u, tok = e.User("reader@big.test")
		e.Member(big.Org, u, "read")
		big.Reader = testenv.Actor{User: u, Token: tok}
		build(small, 2, 2)
		build(big, 8, 6)
		measure := func(team *testenv.Team, spaces, pages int) (gql, rest int64) {
			t.Helper()
			before := e.Statements()
			d := gqlOK(t, e.GraphQL(team.Reader.Token, doc, map[string]any{"id": team.Org.ID}))
			gql = e.Statements() - before
			nodes := testenv.Path(d, "organization", "search", "nodes").([]any)
			if len(nodes) != spaces {
				t.Fatalf("%d spaces, want %d", len(nodes), spaces)
			}
			for _, n := range nodes {
				ps := testenv.Path(n, "pages").([]any)
				if len(ps) != pages || len(testenv.Path(ps[0], "sections").([]any)) != 3 || testenv.Path(n, "space", "parent", "title") != "Stations" {
					t.Fatalf("space result: %v", n)
				}
			}
			before = e.Statements()
			l := restGet(t, e, team.Reader.Token, "/v1/orgs/"+team.Org.ID+"/search?query=lighthouse+lamps&limit=100")
			rest = e.Statements() - before
			if l["count"] != float64(spaces) {
				t.Fatalf("REST: %v", l)
			}
			return gql, rest
		}
		measure(small, 2, 2) // warm the query cache
		lowest := func(team *testenv.Team, spaces, pages int) (int64, int64) {
			g, r := measure(team, spaces, pages)
			for i := 0; i < 7; i++ {
				a, b := measure(team, spaces, pages)
				g, r = min(g, a), min(r, b)
			}
			return g, r
		}
		g1, r1 := lowest(small, 2, 2)
		g2, r2 := lowest(big, 8, 6)
		t.Logf("search statements, 2 spaces × 2 pages → 8 × 6: GraphQL %d → %d, REST %d → %d", g1, g2, r1, r2)
		if g1 != g2 || r1 != r2 {
			t.Errorf("search statements grow with results: GraphQL %d → %d, REST %d → %d", g1, g2, r1, r2)
		}
	})
}
