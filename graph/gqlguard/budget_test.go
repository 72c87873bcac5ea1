package gqlguard

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// costRecorder is an extension after NodeBudget that keeps the cost it left
// in the stats, as a rate limiter would read it.
type costRecorder struct {
	mu   sync.Mutex
	last *OperationCostStats
}

func (*costRecorder) ExtensionName() string                   { return "CostRecorder" }
func (*costRecorder) Validate(graphql.ExecutableSchema) error { return nil }
func (c *costRecorder) MutateOperationContext(_ context.Context, rc *graphql.OperationContext) *gqlerror.Error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last = OperationCostOf(rc)
	return nil
}

// newBudgetTestServer serves costTestSDL with the limits; nothing resolves,
// so only what happens before execution is under test.
func newBudgetTestServer(t *testing.T, l Limits) (*httptest.Server, *costRecorder) {
	t.Helper()
	schema, err := gqlparser.LoadSchema(&ast.Source{Name: "cost.graphql", Input: costTestSDL})
	if err != nil {
		t.Fatal(err)
	}
	srv := handler.New(limitTestSchema{schema: schema})
	srv.AddTransport(transport.POST{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](100))
	srv.SetValidationRulesFn(ValidationRules)
	srv.Use(LimitExtension(l))
	srv.Use(NodeBudget(l))
	rec := &costRecorder{}
	srv.Use(rec)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts, rec
}

func postBudgetQuery(t *testing.T, ts *httptest.Server, query string, vars map[string]any) (int, limitTestResponse) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	res, err := ts.Client().Post(ts.URL, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out limitTestResponse
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatalf("decode response (status %d): %v", res.StatusCode, err)
	}
	return res.StatusCode, out
}

func TestNodeBudgetPageSizes(t *testing.T) {
	ts, _ := newBudgetTestServer(t, limitTestLimits())
	refused := []struct {
		name, query string
		vars        map[string]any
		field, msg  string
	}{
		{"first over", `{ viewer { repositories(first: 101) { totalCount } } }`, nil, "first", "first must be between 1 and 100 on User.repositories, got 101"},
		{"first zero", `{ viewer { repositories(first: 0) { totalCount } } }`, nil, "first", "first must be between 1 and 100 on User.repositories, got 0"},
		{"last negative", `{ viewer { repositories(last: -1) { totalCount } } }`, nil, "last", "last must be between 1 and 100 on User.repositories, got -1"},
		{"nested, through a variable", `query($n: Int) { viewer { repositories(first: 5) { nodes { issues(last: $n) { totalCount } } } } }`,
			map[string]any{"n": 1000}, "last", "last must be between 1 and 100 on Repository.issues, got 1000"},
		{"in a fragment", `{ viewer { ...F } } fragment F on User { repositories(first: 500) { totalCount } }`, nil, "first", ""},
		// Validation applies to the whole document, skipped or not.
		{"under @skip", `{ viewer { repositories(first: 101) @skip(if: true) { totalCount } } }`, nil, "first", ""},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			status, res := postBudgetQuery(t, ts, tc.query, tc.vars)
			assertLimitRejected(t, status, res, http.StatusUnprocessableEntity, "BAD_REQUEST", tc.msg)
			if len(res.Errors) > 0 && res.Errors[0].Extensions["field"] != tc.field {
				t.Errorf("extensions.field = %v, want %s", res.Errors[0].Extensions["field"], tc.field)
			}
		})
	}
	for name, q := range map[string]string{
		"1 and 100": `{ viewer { a: repositories(first: 1) { totalCount } b: repositories(last: 100) { totalCount } } }`,
		"omitted":   `{ viewer { repositories { totalCount } } }`,
		"null":      `{ viewer { repositories(first: null) { totalCount } } }`,
	} {
		t.Run(name, func(t *testing.T) {
			if status, res := postBudgetQuery(t, ts, q, nil); status != http.StatusOK || len(res.Errors) != 0 {
				t.Errorf("status %d, errors %+v; want 200", status, res.Errors)
			}
		})
	}
}

func TestNodeBudgetLimit(t *testing.T) {
	ts, rec := newBudgetTestServer(t, limitTestLimits())
	// 100 + 100 × 100 = 10,100 nodes.
	over := `{ viewer { repositories(first: 100) { nodes { issues(first: 100) { totalCount } } } } }`
	for range 2 { // the second answer comes from the kept verdict
		status, res := postBudgetQuery(t, ts, over, nil)
		assertLimitRejected(t, status, res, http.StatusUnprocessableEntity, CodeComplexityLimit,
			"operation may return up to 10100 nodes (first or last multiplied down nested connections), the limit is 10000")
	}
	// 100 + 100 × 99 = 10,000: at the limit.
	at := `{ viewer { repositories(first: 100) { nodes { issues(first: 99) { totalCount } } } } }`
	if status, res := postBudgetQuery(t, ts, at, nil); status != http.StatusOK || len(res.Errors) != 0 {
		t.Fatalf("at the limit: status %d, errors %+v", status, res.Errors)
	}
	if rec.last == nil || rec.last.Nodes != 10000 || rec.last.Points != 1 {
		t.Errorf("cost in the stats = %+v, want 10000 nodes, 1 point", rec.last)
	}
	// Defaults count DefaultPageSize: 50 + 50 × 50 × 50 is over.
	status, res := postBudgetQuery(t, ts, `{ viewer { repositories { nodes { issues { nodes { labels { nodes { id } } } } } } } }`, nil)
	assertLimitRejected(t, status, res, http.StatusUnprocessableEntity, CodeComplexityLimit, "")
}

// The verdict is kept per document, operation and variables: the same text
// with other variables gets its own answer, in any order.
func TestNodeBudgetVariables(t *testing.T) {
	ts, rec := newBudgetTestServer(t, limitTestLimits())
	q := `query Q($n: Int, $m: Int) { viewer { repositories(first: $n) { nodes { issues(first: $m) { totalCount } } } } }`
	for _, tc := range []struct {
		n, m   int
		status int
		nodes  int
	}{
		{10, 10, 200, 110}, {100, 100, 422, 0}, {10, 10, 200, 110}, {100, 99, 200, 10000}, {100, 100, 422, 0}, {1, 1, 200, 2},
	} {
		status, res := postBudgetQuery(t, ts, q, map[string]any{"n": tc.n, "m": tc.m})
		if status != tc.status {
			t.Errorf("n=%d m=%d: status %d (%+v), want %d", tc.n, tc.m, status, res.Errors, tc.status)
		}
		if tc.status == 200 && (rec.last == nil || rec.last.Nodes != tc.nodes) {
			t.Errorf("n=%d m=%d: cost %+v, want %d nodes", tc.n, tc.m, rec.last, tc.nodes)
		}
	}
}

func TestNodeBudgetZeroDisables(t *testing.T) {
	ts, _ := newBudgetTestServer(t, Limits{})
	q := `{ viewer { repositories(first: 1000) { nodes { issues(first: 100) { totalCount } } } } }`
	if status, res := postBudgetQuery(t, ts, q, nil); status != http.StatusOK || len(res.Errors) != 0 {
		t.Fatalf("status %d, errors %+v; want 200 with zero limits", status, res.Errors)
	}
}
