package graph

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"quire/internal/catalog"
)

// RatePoints is what the operation of ctx's gqlgen operation context costs
// against the rate limit, in points (RateLimitPoints); 1 when ctx holds no
// operation. The server's rate limiter calls it once the operation has
// been parsed and validated, before any resolver runs.
func RatePoints(ctx context.Context) int {
	if !graphql.HasOperationContext(ctx) {
		return 1
	}
	oc := graphql.GetOperationContext(ctx)
	if oc.Doc == nil || oc.Operation == nil {
		return 1
	}
	return RateLimitPoints(oc.Doc, oc.Operation, oc.Variables)
}

// RateLimitPoints counts an operation's points with GitHub's formula: the
// number of connection requests needed to fulfil it (each connection field
// needs one request per item of the connections above it: the product of
// their first or last), divided by 100 and rounded, at least 1. A
// connection without first or last counts its default page (50). Fragments
// count once per spread; @skip and @include are not read, so a skipped
// connection still counts.
func RateLimitPoints(doc *ast.QueryDocument, op *ast.OperationDefinition, vars map[string]any) int {
	w := &pointsWalker{doc: doc, vars: vars, memo: map[string]int64{}, active: map[string]bool{}}
	requests := w.walk(op.SelectionSet, 1)
	return int(max((requests+50)/100, 1))
}

// pointsCap bounds request counts, which multiply, against overflow.
const pointsCap int64 = 1 << 40

type pointsWalker struct {
	doc    *ast.QueryDocument
	vars   map[string]any
	memo   map[string]int64 // requests of a fragment's selection, below one item
	active map[string]bool  // fragments being walked: a spread back into one is a cycle
}

// walk returns the requests of set when each of its fields is fetched for
// items parents.
func (w *pointsWalker) walk(set ast.SelectionSet, items int64) int64 {
	var n int64
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			below := items
			if w.isConnection(s) {
				n = capAdd(n, items)
				below = capMul(items, w.pageSize(s))
			}
			n = capAdd(n, w.walk(s.SelectionSet, below))
		case *ast.InlineFragment:
			n = capAdd(n, w.walk(s.SelectionSet, items))
		case *ast.FragmentSpread:
			n = capAdd(n, capMul(items, w.fragment(s.Name)))
		}
	}
	return n
}

// fragment returns the requests of a fragment for one parent item; counts
// are linear in the parents, so one walk serves every spread.
func (w *pointsWalker) fragment(name string) int64 {
	if n, ok := w.memo[name]; ok {
		return n
	}
	f := w.doc.Fragments.ForName(name)
	if f == nil || w.active[name] {
		return 0 // unknown fragment or a cycle: validation refuses both
	}
	w.active[name] = true
	n := w.walk(f.SelectionSet, 1)
	delete(w.active, name)
	w.memo[name] = n
	return n
}

func (w *pointsWalker) isConnection(f *ast.Field) bool {
	return f.Definition != nil && f.Definition.Type != nil && strings.HasSuffix(f.Definition.Type.Name(), "Connection")
}

// pageSize is the items a connection field asks for: first, else last,
// else the default page, within the largest page served.
func (w *pointsWalker) pageSize(f *ast.Field) int64 {
	args := f.ArgumentMap(w.vars)
	for _, name := range []string{"first", "last"} {
		if v, ok := intValue(args[name]); ok {
			return min(max(v, 0), catalog.MaxLimit)
		}
	}
	return catalog.DefaultLimit
}

func intValue(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case int64:
		return n, true
	case float64:
		return int64(n), true
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	}
	return 0, false
}

func capAdd(a, b int64) int64 { return min(a+b, pointsCap) }

func capMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > pointsCap/b {
		return pointsCap
	}
	return a * b
}
