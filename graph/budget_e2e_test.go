package graph_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"quire/graph/gqlguard"
	"quire/internal/testing/testenv"
)

// testdataQuery reads a GraphQL document from testdata.
func testdataQuery(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The documents the parser token limit must refuse, cheaply (see
// BenchmarkGraphQLRefusals in server).
var (
	typenameFlood  = "{ " + strings.Repeat("__typename ", 5000) + "}"
	directiveFlood = "{ viewer { id " + strings.Repeat("@include(if: true) ", 300<<10/len("@include(if: true) ")) + "} }"
)

// statements returns how many SQL statements fn sends.
func statements(e *testenv.Env, fn func()) int64 {
	before := e.Statements()
	fn()
	return e.Statements() - before
}

func TestGraphQLPageSizesAndNodeBudget(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		for i := range 3 {
			restSpace(t, e, team.Admin.Token, team.Org.ID, fmt.Sprintf("Space %d", i), nil)
		}
		tok := team.Admin.Token
		org := map[string]any{"o": team.Org.ID}
		// What a request that runs no resolver costs: the token lookup.
		baseline := statements(e, func() { gqlOK(t, e.GraphQL(tok, `{ __typename }`, nil)) })

		refused := []struct {
			name, query string
			vars        map[string]any
			code, field string
		}{
			{"first over 100", `query($o: ID!) { organization(id: $o) { spaces(first: 101) { nodes { id } } } }`, org, "BAD_REQUEST", "first"},
			{"first 0", `query($o: ID!) { organization(id: $o) { spaces(first: 0) { nodes { id } } } }`, org, "BAD_REQUEST", "first"},
			{"last through a variable", `query($o: ID!, $n: Int) { organization(id: $o) { collections { nodes { spaces(last: $n) { nodes { id } } } } } }`,
				map[string]any{"o": team.Org.ID, "n": 1000}, "BAD_REQUEST", "last"},
			{"allSiteSpaces(first: 1000)", `{ viewer { organizations { nodes { sites { nodes { allSiteSpaces(first: 1000) { totalCount } } } } } } }`, nil, "BAD_REQUEST", "first"},
			// 100 + 100 × 100 + 100 × 100 × 10 nodes.
			{"over the node budget", `{ viewer { organizations(first: 100) { nodes { collections(first: 100) { nodes { spaces(first: 10) { nodes { id } } } } } } } }`, nil, gqlguard.CodeComplexityLimit, ""},
			// Defaults count 50 each: 50 + 2,500 + 125,000.
			{"defaults over the node budget", `{ viewer { organizations { nodes { collections { nodes { spaces { nodes { id } } } } } } } }`, nil, gqlguard.CodeComplexityLimit, ""},
		}
		for _, tc := range refused {
			t.Run(tc.name, func(t *testing.T) {
				var r *testenv.GQLResponse
				n := statements(e, func() { r = e.GraphQL(tok, tc.query, tc.vars) })
				gqlRefused(t, r, tc.code, tc.field)
				if n != baseline {
					t.Errorf("%d statements, want %d (no resolver may run)", n, baseline)
				}
			})
		}

		t.Run("within the limits", func(t *testing.T) {
			d := gqlOK(t, e.GraphQL(tok, `query($o: ID!) { organization(id: $o) {
				a: spaces(first: 100) { nodes { id } } b: spaces(last: 1) { nodes { id } } c: spaces { totalCount nodes { id } } } }`, org))
			if n := len(testenv.Path(d, "organization", "a", "nodes").([]any)); n != 3 {
				t.Errorf("first: 100 gave %d spaces, want 3", n)
			}
			if n := len(testenv.Path(d, "organization", "b", "nodes").([]any)); n != 1 {
				t.Errorf("last: 1 gave %d spaces, want 1", n)
			}
			if n := len(testenv.Path(d, "organization", "c", "nodes").([]any)); n != 3 || testenv.Path(d, "organization", "c", "totalCount") != float64(3) {
				t.Errorf("the default page = %v", testenv.Path(d, "organization", "c"))
			}
			// At the budget: 100 + 100 × 99.
			gqlOK(t, e.GraphQL(tok, `{ viewer { organizations(first: 100) { nodes { spaces(first: 99) { nodes { id } } } } } }`, nil))
		})

		// REST calls the same resolver methods with limits up to 1000.
		t.Run("REST keeps its limit", func(t *testing.T) {
			r := e.Do(tok, "GET", "/v1/orgs/"+team.Org.ID+"/spaces?limit=1000", nil)
			if r.Status != http.StatusOK || len(testenv.Path(r.JSON(), "items").([]any)) != 3 {
				t.Errorf("limit=1000: HTTP %d %.300s", r.Status, r.Body)
			}
		})
	})
}

// The largest legitimate documents fit every limit: GraphiQL's
// introspection query, the largest one graphql-js writes, a Relay refetch
// query, and the published-profile query.
func TestGraphQLLargestDocumentsFit(t *testing.T) {
	limits := gqlguard.DefaultLimits()
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		site := sxBuild(t, e, team, "Fit", 2, 2, "public")
		for _, tc := range []struct {
			file string
			vars map[string]any
			path []any
		}{
			{"graphiql-introspection.graphql", nil, []any{"__schema", "queryType", "name"}},
			{"introspection-all-options.graphql", nil, []any{"__schema", "queryType", "name"}},
			{"relay-refetch.graphql", map[string]any{"id": team.Org.ID}, []any{"node", "id"}},
			{"published-profile.graphql", map[string]any{"site": site.ID}, []any{"site", "sections", "nodes", 1, "siteSpaces", "nodes", 1, "space", "id"}},
		} {
			t.Run(tc.file, func(t *testing.T) {
				q := testdataQuery(t, tc.file)
				d := gqlOK(t, e.GraphQL(team.Admin.Token, q, tc.vars))
				if testenv.Path(d, tc.path...) == nil {
					t.Errorf("no %v in %v", tc.path, d)
				}
				tokens := minTokenLimit(t, q)
				if tokens > limits.MaxTokens/2 {
					t.Errorf("%d tokens: less than half the limit (%d) left", tokens, limits.MaxTokens)
				}
				t.Logf("%s: %d tokens", tc.file, tokens)
			})
		}
	})
}

// minTokenLimit returns the smallest parser token limit q parses under.
func minTokenLimit(t *testing.T, q string) int {
	t.Helper()
	lo, hi := 1, 1<<20
	for lo < hi {
		mid := (lo + hi) / 2
		if _, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: q}, mid); err != nil {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// Validation errors name what the caller wrote and suggest nothing.
func TestGraphQLValidationSuggestsNothing(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		for _, q := range []string{
			`{ viewr { id } }`, // unknown field
			`{ viewer { organizations(frist: 1) { totalCount } } }`,                          // unknown argument
			`query($id: Strin) { space(id: $id) { id } }`,                                    // unknown type
			`{ viewer { organizations { nodes { sites(type: [publc]) { totalCount } } } } }`, // unknown enum value
			`{ viewer }`, // missing sub-selection
		} {
			r := e.GraphQL(team.Admin.Token, q, nil)
			// GraphQL over HTTP: 200 for a request error with application/json.
			if r.Status != http.StatusOK || r.Code() != "GRAPHQL_VALIDATION_FAILED" {
				t.Errorf("%s: HTTP %d %s, want 200 GRAPHQL_VALIDATION_FAILED", q, r.Status, r.Raw)
			}
			if strings.Contains(string(r.Raw), "Did you mean") {
				t.Errorf("%s: a suggestion: %s", q, r.Raw)
			}
		}
	})
}
