package graph_test

import (
	"fmt"
	"testing"

	"quire/internal/testing/testenv"
)

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

		// A first run fills the query cache; then measure.
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
