package gqlguard

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// limitTestSchema is a test-only ExecutableSchema: a gqlparser-loaded schema
// whose Exec always answers the same data, so only what happens before
// execution (parsing, validation, extensions) is under test.
type limitTestSchema struct {
	schema *ast.Schema
}

func (s limitTestSchema) Schema() *ast.Schema { return s.schema }

func (limitTestSchema) Complexity(context.Context, string, string, int, map[string]any) (int, bool) {
	return 0, false // gqlgen's default: 1 + children
}

func (limitTestSchema) Exec(context.Context) graphql.ResponseHandler {
	return graphql.OneShot(&graphql.Response{Data: json.RawMessage(`{"a":null}`)})
}

func newLimitTestServer(t *testing.T, l Limits, exts ...graphql.HandlerExtension) *httptest.Server {
	t.Helper()
	schema, err := gqlparser.LoadSchema(&ast.Source{Name: "limits.graphql", Input: "type Query { a: A } type A { a: A  b: Int }"})
	if err != nil {
		t.Fatalf("load schema: %v", err)
	}
	srv := handler.New(limitTestSchema{schema: schema})
	srv.AddTransport(transport.POST{})
	srv.SetParserTokenLimit(l.MaxTokens)
	srv.Use(LimitExtension(l))
	for _, e := range exts {
		srv.Use(e)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts
}

type limitTestResponse struct {
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

func postLimitQuery(t *testing.T, ts *httptest.Server, accept, query string) (int, limitTestResponse) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query})
	req, err := http.NewRequest(http.MethodPost, ts.URL, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	res, err := ts.Client().Do(req)
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

// nestedA returns "a { a { ... b } }" with n fields named a, so depth n+1.
func nestedA(n int) string {
	return strings.Repeat("a { ", n) + "b" + strings.Repeat(" }", n)
}

func assertLimitRejected(t *testing.T, status int, res limitTestResponse, wantStatus int, wantCode, wantMsg string) {
	t.Helper()
	if status != wantStatus {
		t.Errorf("status = %d, want %d", status, wantStatus)
	}
	if len(res.Errors) == 0 {
		t.Fatalf("no errors in response; data = %s", res.Data)
	}
	if code := res.Errors[0].Extensions["code"]; code != wantCode {
		t.Errorf("errors[0].extensions.code = %v, want %s (message %q)", code, wantCode, res.Errors[0].Message)
	}
	if wantMsg != "" && res.Errors[0].Message != wantMsg {
		t.Errorf("errors[0].message = %q, want %q", res.Errors[0].Message, wantMsg)
	}
	if len(res.Data) != 0 && string(res.Data) != "null" {
		t.Errorf("data = %s, want none (must not execute)", res.Data)
	}
}

// limitTestLimits are the limits the HTTP tests run with, spelled out so the
// tests do not move with DefaultLimits.
func limitTestLimits() Limits {
	return Limits{MaxTokens: 2000, MaxDepth: 12, MaxAliases: 30, MaxPageSize: 100, MaxNodes: 10000}
}

func TestLimitDefaultLimits(t *testing.T) {
	got := DefaultLimits()
	want := Limits{MaxTokens: 2000, MaxDepth: 16, MaxAliases: 30, MaxPageSize: 100, MaxNodes: 50000}
	if got != want {
		t.Fatalf("DefaultLimits() = %+v, want %+v", got, want)
	}
}

// limitIntrospectionQuery is the graphql-js getIntrospectionQuery() document
// with a TypeRef fragment of ofTypeLevels nested ofType selections.
func limitIntrospectionQuery(ofTypeLevels int) string {
	return `query IntrospectionQuery {
  __schema {
    queryType { name } mutationType { name } subscriptionType { name }
    types { ...FullType }
    directives { name description locations args { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description
  fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type { kind name ` + strings.Repeat("ofType { kind name ", ofTypeLevels) + strings.Repeat("} ", ofTypeLevels) + "}\n"
}

func TestLimitDefaultsAdmitStandardIntrospection(t *testing.T) {
	ts := newLimitTestServer(t, DefaultLimits())
	for _, levels := range []int{7, 9} {
		status, res := postLimitQuery(t, ts, "application/json", limitIntrospectionQuery(levels))
		if status != http.StatusOK || len(res.Errors) != 0 {
			t.Errorf("TypeRef with %d ofType levels: status = %d, errors = %+v; want 200", levels, status, res.Errors)
		}
	}
	// The same document is 13 deep, so 12 refuses it.
	status, res := postLimitQuery(t, newLimitTestServer(t, limitTestLimits()), "application/json", limitIntrospectionQuery(7))
	assertLimitRejected(t, status, res, http.StatusUnprocessableEntity, CodeQueryTooDeep,
		"query depth 13 exceeds the limit of 12")
}

func TestLimitWithinLimitsSucceeds(t *testing.T) {
	ts := newLimitTestServer(t, limitTestLimits())
	for name, q := range map[string]string{
		"small":          "{ a { a { b } } }",
		"depth at limit": "{ " + nestedA(11) + " }", // 12 levels
		"30 aliases":     "{ " + aliasedFields(30) + " }",
	} {
		t.Run(name, func(t *testing.T) {
			status, res := postLimitQuery(t, ts, "application/json", q)
			if status != http.StatusOK {
				t.Errorf("status = %d, want 200 (errors %+v)", status, res.Errors)
			}
			if len(res.Errors) != 0 {
				t.Errorf("errors = %+v", res.Errors)
			}
			if string(res.Data) != `{"a":null}` {
				t.Errorf("data = %s", res.Data)
			}
		})
	}
}

func TestLimitDepthExceeded(t *testing.T) {
	ts := newLimitTestServer(t, limitTestLimits())
	status, res := postLimitQuery(t, ts, "application/json", "{ "+nestedA(14)+" }")
	assertLimitRejected(t, status, res, http.StatusUnprocessableEntity, CodeQueryTooDeep,
		"query depth 15 exceeds the limit of 12")
}

func TestLimitDepthGraphQLResponseJSONIs400(t *testing.T) {
	// With Accept: application/graphql-response+json gqlgen maps protocol
	// errors to 400 instead of 422 (GraphQL-over-HTTP).
	ts := newLimitTestServer(t, limitTestLimits())
	status, res := postLimitQuery(t, ts, "application/graphql-response+json", "{ "+nestedA(14)+" }")
	assertLimitRejected(t, status, res, http.StatusBadRequest, CodeQueryTooDeep, "")
}

func TestLimitDepthBehindFragments(t *testing.T) {
	ts := newLimitTestServer(t, limitTestLimits())
	// Each fragment adds two levels; the operation itself is only one field
	// deep. F1..F6 plus the root field: 1 + 6*2 + leaf b = 14.
	var q strings.Builder
	q.WriteString("query Q { a { ...F1 } }\n")
	for i := 1; i <= 6; i++ {
		next := "b"
		if i < 6 {
			next = fmt.Sprintf("...F%d", i+1)
		}
		// Alternate spreads and inline fragments.
		fmt.Fprintf(&q, "fragment F%d on A { a { ... on A { a { %s } } } }\n", i, next)
	}
	status, res := postLimitQuery(t, ts, "application/json", q.String())
	assertLimitRejected(t, status, res, http.StatusUnprocessableEntity, CodeQueryTooDeep,
		"query depth 14 exceeds the limit of 12")
}

func TestLimitDepthCountsIntrospection(t *testing.T) {
	ts := newLimitTestServer(t, limitTestLimits())
	q := `{ __type(name: "A") { ` + strings.Repeat("ofType { ", 12) + "name" + strings.Repeat(" }", 12) + " } }"
	status, res := postLimitQuery(t, ts, "application/json", q)
	assertLimitRejected(t, status, res, http.StatusUnprocessableEntity, CodeQueryTooDeep,
		"query depth 14 exceeds the limit of 12")
}

// aliasedFields returns n distinct aliased selections of field a.
func aliasedFields(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("x%d: a { b }", i)
	}
	return strings.Join(parts, " ")
}

func TestLimitTooManyAliases(t *testing.T) {
	ts := newLimitTestServer(t, limitTestLimits())
	status, res := postLimitQuery(t, ts, "application/json", "{ "+aliasedFields(31)+" }")
	assertLimitRejected(t, status, res, http.StatusUnprocessableEntity, CodeTooManyAliases,
		"query has 31 aliases, the limit is 30")
}

func TestLimitAliasesCountedPerSpread(t *testing.T) {
	ts := newLimitTestServer(t, limitTestLimits())
	// 8 aliases in F, spread 4 times (directly and through an inline
	// fragment, at different depths): 32 counted.
	var f strings.Builder
	for i := range 8 {
		fmt.Fprintf(&f, "y%d: b ", i)
	}
	q := "{ a { ...F ... on A { ...F } a { ...F a { ...F } } } }\nfragment F on A { " + f.String() + "}"
	status, res := postLimitQuery(t, ts, "application/json", q)
	assertLimitRejected(t, status, res, http.StatusUnprocessableEntity, CodeTooManyAliases,
		"query has 32 aliases, the limit is 30")
}

func TestLimitParserTokenLimit(t *testing.T) {
	ts := newLimitTestServer(t, limitTestLimits())
	q := "{ " + strings.Repeat("__typename ", 5000) + "}"
	status, res := postLimitQuery(t, ts, "application/json", q)
	// gqlgen tags parser errors GRAPHQL_PARSE_FAILED, a protocol error: 422.
	assertLimitRejected(t, status, res, http.StatusUnprocessableEntity, "GRAPHQL_PARSE_FAILED",
		"exceeded token limit of 2000")
}

func TestLimitZeroDisables(t *testing.T) {
	ts := newLimitTestServer(t, Limits{})
	status, res := postLimitQuery(t, ts, "application/json", "{ "+nestedA(40)+" "+aliasedFields(100)+" }")
	if status != http.StatusOK || len(res.Errors) != 0 {
		t.Fatalf("status = %d, errors = %+v; want 200 with zero limits", status, res.Errors)
	}
}

// The walkers below are run on parsed but unvalidated documents: validation
// would refuse cycles, but the walkers must not depend on it.

func parseLimitDoc(t *testing.T, q string) *ast.QueryDocument {
	t.Helper()
	doc, err := parser.ParseQuery(&ast.Source{Input: q})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return doc
}

func TestLimitWalkersSurviveFragmentCycles(t *testing.T) {
	doc := parseLimitDoc(t, `
		{ a { ...F } }
		fragment F on A { x: a { ...G } }
		fragment G on A { y: a { ...F ...Missing } }`)
	op := doc.Operations[0]
	if d, over := checkDepth(doc.Fragments, op.SelectionSet, 12); over || d != 3 {
		t.Errorf("checkDepth = %d, %v; want 3, false", d, over)
	}
	if n := countAliases(doc.Fragments, op.SelectionSet); n != 2 {
		t.Errorf("countAliases = %d, want 2", n)
	}
	if d, over := checkDepth(doc.Fragments, op.SelectionSet, 2); !over || d != 3 {
		t.Errorf("checkDepth(limit 2) = %d, %v; want 3, true", d, over)
	}
}

func TestLimitWalkersLinearOnFragmentFanOut(t *testing.T) {
	// F0 spreads F1 twice, F1 spreads F2 twice, ... : 2^40 expansions if
	// walked naively. Memoisation keeps both walkers linear; the alias count
	// saturates instead of overflowing.
	var q strings.Builder
	q.WriteString("{ a { ...F0 } }\n")
	for i := range 40 {
		fmt.Fprintf(&q, "fragment F%d on A { z: b ...F%d ... on A { ...F%d } }\n", i, i+1, i+1)
	}
	q.WriteString("fragment F40 on A { w: a { b } }\n")
	doc := parseLimitDoc(t, q.String())
	op := doc.Operations[0]
	if d, over := checkDepth(doc.Fragments, op.SelectionSet, 12); over || d != 3 {
		t.Errorf("checkDepth = %d, %v; want 3, false", d, over)
	}
	if n := countAliases(doc.Fragments, op.SelectionSet); n != aliasCountCap {
		t.Errorf("countAliases = %d, want saturated %d", n, aliasCountCap)
	}
	ext := LimitExtension(limitTestLimits()).(graphql.OperationContextMutator)
	err := ext.MutateOperationContext(context.Background(), &graphql.OperationContext{Doc: doc, Operation: op})
	if err == nil || err.Extensions["code"] != CodeTooManyAliases {
		t.Fatalf("MutateOperationContext = %v, want %s", err, CodeTooManyAliases)
	}
	if want := fmt.Sprintf("query has at least %d aliases, the limit is 30", aliasCountCap); err.Message != want {
		t.Errorf("message = %q, want %q", err.Message, want)
	}
}
