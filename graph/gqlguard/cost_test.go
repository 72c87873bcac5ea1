package gqlguard

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"quire/graph/generated"
)

// costTestSDL has connections (typed ...Connection, taking first/last),
// plain lists and nodes(ids:), in the shapes of GitHub's documentation
// examples (repositories → issues → labels).
const costTestSDL = `
type Query {
  viewer: User!
  repository(name: String!): Repository
  nodes(ids: [ID!]!): [Node]!
  node(id: ID!): Node
}
interface Node { id: ID! }
type User implements Node {
  id: ID!
  login: String!
  repositories(first: Int, after: String, last: Int, before: String): RepositoryConnection!
  followers: [User!]!
}
type Repository implements Node {
  id: ID!
  name: String!
  issues(first: Int, after: String, last: Int, before: String): IssueConnection!
  owner: User!
}
type Issue implements Node {
  id: ID!
  title: String!
  labels(first: Int, last: Int): LabelConnection!
}
type Label implements Node { id: ID! name: String! }
type PageInfo { hasNextPage: Boolean! endCursor: String }
type RepositoryConnection { edges: [RepositoryEdge!]! nodes: [Repository!]! pageInfo: PageInfo! totalCount: Int! }
type RepositoryEdge { node: Repository! cursor: String! }
type IssueConnection { edges: [IssueEdge!]! nodes: [Issue!]! totalCount: Int! }
type IssueEdge { node: Issue! cursor: String! }
type LabelConnection { edges: [LabelEdge!]! nodes: [Label!]! }
type LabelEdge { node: Label! }
`

func costTestDoc(t testing.TB, query string) *ast.QueryDocument {
	t.Helper()
	schema, err := gqlparser.LoadSchema(&ast.Source{Name: "cost.graphql", Input: costTestSDL})
	if err != nil {
		t.Fatal(err)
	}
	doc, errs := gqlparser.LoadQueryWithRules(schema, query, nil)
	if len(errs) > 0 {
		t.Fatalf("query does not validate: %v", errs)
	}
	return doc
}

func TestOperationCost(t *testing.T) {
	for _, tc := range []struct {
		name          string
		query         string
		vars          map[string]any
		nodes, points int
	}{
		// GitHub's node-limit example: 50 repositories + 50 × 10 issues.
		{"github node limit example", `{ viewer { repositories(first: 50) { edges { node { name issues(first: 10) { totalCount edges { node { title } } } } } } } }`, nil, 550, 1},
		// GitHub's rate-limit example: 1 + 100 + 100 × 50 requests = 5,101 → 51 points.
		{"github rate limit example", `{ viewer { login repositories(first: 100) { edges { node { id issues(first: 50) { edges { node { id labels(first: 60) { edges { node { id name } } } } } } } } } } }`, nil, 100 + 100*50 + 100*50*60, 51},
		{"no connection is one point", `{ viewer { login followers { login } } }`, nil, 0, 1},
		{"default page size", `{ viewer { repositories { nodes { issues { totalCount } } } } }`, nil, DefaultPageSize + DefaultPageSize*DefaultPageSize, 1},
		{"last", `{ viewer { repositories(last: 7) { nodes { id } } } }`, nil, 7, 1},
		{"first and last: the smaller", `{ viewer { repositories(first: 30, last: 7) { nodes { id } } } }`, nil, 7, 1},
		{"null is as if not given", `{ viewer { repositories(first: null) { nodes { id } } } }`, nil, DefaultPageSize, 1},
		{"variables", `query($n: Int, $m: Int) { viewer { repositories(first: $n) { nodes { issues(last: $m) { totalCount } } } } }`,
			map[string]any{"n": int64(20), "m": json.Number("5")}, 20 + 20*5, 1},
		{"variable not given: default", `query($n: Int) { viewer { repositories(first: $n) { nodes { id } } } }`, map[string]any{}, DefaultPageSize, 1},
		{"variable from JSON as float64", `query($n: Int) { viewer { repositories(first: $n) { nodes { id } } } }`, map[string]any{"n": float64(12)}, 12, 1},
		// A plain list is not paged: it counts as one and multiplies nothing.
		{"plain list", `{ viewer { followers { repositories(first: 10) { nodes { id } } } } }`, nil, 10, 1},
		{"sibling connections add up", `{ viewer { a: repositories(first: 10) { totalCount } b: repositories(first: 20) { totalCount } } }`, nil, 30, 1},
		{"nodes(ids:) counts its ids", `{ nodes(ids: ["a", "b", "c"]) { ... on User { repositories(first: 10) { nodes { id } } } } }`, nil, 3 + 3*10, 1},
		{"nodes(ids:) through a variable", `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": []any{"a", "b"}}, 2, 1},
		{"fragments followed, once per spread",
			`{ viewer { ...R } a: viewer { ...R } } fragment R on User { repositories(first: 10) { nodes { ...I } } } fragment I on Repository { issues(first: 3) { totalCount } }`,
			nil, 2 * (10 + 10*3), 1},
		{"inline fragments", `{ node(id: "x") { ... on User { repositories(first: 5) { nodes { id } } } ... on Repository { issues(first: 4) { totalCount } } } }`, nil, 9, 1},
		{"skip and include literals", `{ viewer {
			a: repositories(first: 1) @skip(if: true) { totalCount }
			b: repositories(first: 2) @include(if: false) { totalCount }
			c: repositories(first: 4) @skip(if: false) { totalCount }
			d: repositories(first: 8) @include(if: true) { totalCount }
			... on User @skip(if: true) { e: repositories(first: 16) { totalCount } }
			...F @include(if: false)
		} } fragment F on User { f: repositories(first: 32) { totalCount } }`, nil, 12, 1},
		{"skip and include variables", `query($yes: Boolean!, $no: Boolean!) { viewer {
			a: repositories(first: 1) @skip(if: $yes) { totalCount }
			b: repositories(first: 2) @include(if: $no) { totalCount }
			c: repositories(first: 4) @skip(if: $no) { totalCount }
		} }`, map[string]any{"yes": true, "no": false}, 4, 1},
		{"points round to the nearest", `{ viewer { repositories(first: 100) { nodes { issues(first: 1) { totalCount } } } } }`, nil, 200, 1},
		// 101 requests above, 1 + 48 here: 150 → 2 points; one less → 1.
		{"points round up from a half", `{ viewer { repositories(first: 100) { nodes { issues(first: 1) { totalCount } } } } r: repository(name: "x") { issues(first: 48) { nodes { labels(first: 1) { nodes { id } } } } } }`, nil, 200 + 48 + 48, 2},
		{"points round down below a half", `{ viewer { repositories(first: 100) { nodes { issues(first: 1) { totalCount } } } } r: repository(name: "x") { issues(first: 47) { nodes { labels(first: 1) { nodes { id } } } } } }`, nil, 200 + 47 + 47, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := costTestDoc(t, tc.query)
			nodes, points := OperationCost(doc, doc.Operations[0], tc.vars)
			if nodes != tc.nodes || points != tc.points {
				t.Errorf("OperationCost = %d nodes, %d points; want %d, %d", nodes, points, tc.nodes, tc.points)
			}
		})
	}
}

// Connections nested deeper than any count can hold saturate instead of
// overflowing, and fragments spread many times over are walked once each.
func TestOperationCostSaturatesAndStaysLinear(t *testing.T) {
	q := `{ viewer { ` + strings.Repeat(`repositories(first: 100) { nodes { owner { `, 8) + `login` + strings.Repeat(` } } }`, 8) + ` } }`
	doc := costTestDoc(t, q)
	if nodes, points := OperationCost(doc, doc.Operations[0], nil); nodes != costCap || points < 1 {
		t.Errorf("8 nested connections of 100: %d nodes, %d points; want the cap %d", nodes, points, costCap)
	}

	// F0 spreads F1 twice, F1 spreads F2 twice, ...: 2^40 expansions if
	// walked naively.
	var b strings.Builder
	b.WriteString("{ viewer { ...F0 } }\n")
	for i := range 40 {
		fmt.Fprintf(&b, "fragment F%d on User { ...F%d x%d: followers { ...F%d } }\n", i, i+1, i, i+1)
	}
	b.WriteString("fragment F40 on User { repositories(first: 1) { totalCount } }\n")
	doc = costTestDoc(t, b.String())
	if nodes, _ := OperationCost(doc, doc.Operations[0], nil); nodes != costCap {
		t.Errorf("2^40 spreads of one connection: %d nodes, want the cap %d", nodes, costCap)
	}
}

func TestOperationCostWithoutOperation(t *testing.T) {
	if nodes, points := OperationCost(nil, nil, nil); nodes != 0 || points != 1 {
		t.Errorf("OperationCost(nil) = %d, %d; want 0, 1", nodes, points)
	}
}

// The examples of docs/api.md's GraphQL "Limits", on Quire's schema.
func TestOperationCostReadmeExamples(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	for _, tc := range []struct {
		query string
		nodes int
	}{
		{`{ viewer { organizations(first: 10) { nodes {
			collections(first: 20) { nodes { spaces { nodes { id } } } }
			sites(first: 5) { nodes { sections { totalCount } } } } } } }`, 12760},
		{`{ viewer { organizations(first: 10) { nodes {
			collections(first: 20) { nodes { spaces(first: 10) { nodes { id } } } }
			sites(first: 5) { nodes { sections { totalCount } } } } } } }`, 4760},
		{publishedProfileQuery(t), 2550},
	} {
		doc, errs := gqlparser.LoadQueryWithRules(schema, tc.query, nil)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if nodes, _ := OperationCost(doc, doc.Operations[0], map[string]any{"site": "S"}); nodes != tc.nodes {
			t.Errorf("%d nodes, want %d: %s", nodes, tc.nodes, tc.query)
		}
	}
}

func publishedProfileQuery(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../testdata/published-profile.graphql")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
