package gqlguard

import (
	"github.com/vektah/gqlparser/v2/ast"

	"quire/internal/catalog"
)

// DefaultPageSize is the number of items a connection returns when neither
// first nor last is given; the node budget counts such a connection as that
// many items.
const DefaultPageSize = catalog.DefaultLimit

// OperationCost returns the worst-case number of nodes op may return and its
// cost in rate-limit points, both as GitHub's GraphQL API computes them.
//
// Nodes: every connection field (a field returning a type named
// ...Connection that takes first or last) counts its page size (first or
// last; the smaller of the two when both are given; DefaultPageSize when
// neither is) times the page sizes of the connections above it, and the
// counts are summed over the operation. nodes(ids:) counts as a connection
// of len(ids) items. Other lists (a site's structure, a revision's pages, a
// document's nodes) are not paged by the query: they count as one item, and
// do not multiply what is below them.
//
// Points: every connection field needs one request per item of the
// connections above it (one at the top); points are the sum of those
// requests divided by 100, rounded to the nearest integer, and at least 1.
//
// Fragments are followed; a selection whose @skip(if:) is true or whose
// @include(if:) is false (literally or through vars) counts nothing; a
// field selected twice counts twice. doc must have been validated (gqlgen's
// OperationContext.Doc is), since connections are told by their field
// definitions; vars are the operation's variables (coerced, as in
// OperationContext.Variables, or as decoded from JSON). The walk takes time
// linear in the size of the document.
func OperationCost(doc *ast.QueryDocument, op *ast.OperationDefinition, vars map[string]any) (nodes, points int) {
	if doc == nil || op == nil {
		return 0, 1
	}
	w := newCostWalker(doc, vars, 0)
	c := w.selections(op.SelectionSet)
	return c.nodes, pointsFor(c.requests)
}

// pointsFor turns connection requests into rate-limit points.
func pointsFor(requests int) int {
	return max(1, (requests+50)/100)
}
