package gqlguard

import (
	"context"
	"fmt"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Error codes (extensions.code) of documents refused by the query limits.
// A first or last out of range is BAD_REQUEST, with extensions.field.
const (
	CodeQueryTooDeep   = "QUERY_TOO_DEEP"
	CodeTooManyAliases = "TOO_MANY_ALIASES"
	// CodeComplexityLimit refuses an operation over the node budget; it is
	// the code gqlgen's own complexity limit uses.
	CodeComplexityLimit = "COMPLEXITY_LIMIT_EXCEEDED"
)

// Limits bound the cost of one GraphQL document. All of them are checked
// before any resolver runs. A zero or negative value disables that limit.
type Limits struct {
	// MaxTokens is the parser token limit. It is not enforced by
	// LimitExtension: the caller applies it with
	// (*handler.Server).SetParserTokenLimit(MaxTokens). A document over it is
	// refused by the parser with "exceeded token limit of N" and code
	// GRAPHQL_PARSE_FAILED. GraphiQL's introspection query has 163
	// tokens; a flood of 5,000 __typename costs 1.5 s of validation under
	// 15,000 tokens, and about 1 ms to refuse under 2,000.
	MaxTokens int
	// MaxDepth is the deepest selection nesting allowed: root fields are at
	// depth 1, their sub-fields at depth 2, and so on. Fragment spreads and
	// inline fragments add no level of their own but are followed.
	// Introspection fields count like any other: the standard
	// graphql-js/GraphiQL introspection query is 13 deep (7-level TypeRef
	// fragment) or 15 deep (9-level TypeRef), so a limit below that refuses
	// tooling introspection.
	MaxDepth int
	// MaxAliases is the total number of aliased fields (alias different from
	// the field name) in the operation; a fragment counts once per spread.
	MaxAliases int
	// MaxPageSize bounds first and last on every connection: a value
	// outside [1, MaxPageSize] is refused. It is enforced by NodeBudget,
	// in GraphQL only: the resolvers (and REST's limit) keep their own,
	// larger bound.
	MaxPageSize int
	// MaxNodes is the node budget: the most nodes an operation may return,
	// counted as OperationCost does. It is enforced by NodeBudget, with
	// code COMPLEXITY_LIMIT_EXCEEDED.
	MaxNodes int
}

// DefaultLimits returns the limits used in production.
func DefaultLimits() Limits {
	return Limits{
		MaxTokens:   2000,
		MaxDepth:    16,
		MaxAliases:  30,
		MaxPageSize: 100,
		MaxNodes:    50000,
	}
}

// LimitExtension returns a gqlgen extension that rejects an operation whose
// depth or alias count is over the limits, before execution. The rejection is
// a *gqlerror.Error with extensions.code QUERY_TOO_DEEP or TOO_MANY_ALIASES,
// both registered as protocol errors (HTTP 422, or 400 for
// application/graphql-response+json).
func LimitExtension(l Limits) graphql.HandlerExtension {
	registerKinds()
	return limitExtension{limits: l}
}

type limitExtension struct {
	limits Limits
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = limitExtension{}

func (limitExtension) ExtensionName() string { return "QueryLimits" }

func (limitExtension) Validate(graphql.ExecutableSchema) error { return nil }

func (e limitExtension) MutateOperationContext(_ context.Context, rc *graphql.OperationContext) *gqlerror.Error {
	if rc == nil || rc.Doc == nil {
		return nil
	}
	op := rc.Operation
	if op == nil {
		op = rc.Doc.Operations.ForName(rc.OperationName)
	}
	if op == nil {
		return nil
	}
	if limit := e.limits.MaxDepth; limit > 0 {
		if depth, over := checkDepth(rc.Doc.Fragments, op.SelectionSet, limit); over {
			return limitError(CodeQueryTooDeep, op, "query depth %d exceeds the limit of %d", depth, limit)
		}
	}
	if limit := e.limits.MaxAliases; limit > 0 {
		if n := countAliases(rc.Doc.Fragments, op.SelectionSet); n > limit {
			if n >= aliasCountCap {
				return limitError(CodeTooManyAliases, op, "query has at least %d aliases, the limit is %d", aliasCountCap, limit)
			}
			return limitError(CodeTooManyAliases, op, "query has %d aliases, the limit is %d", n, limit)
		}
	}
	return nil
}

func limitError(code string, op *ast.OperationDefinition, format string, args ...any) *gqlerror.Error {
	err := &gqlerror.Error{
		Message:    fmt.Sprintf(format, args...),
		Extensions: map[string]any{"code": code},
	}
	if op.Position != nil {
		err.Locations = []gqlerror.Location{{Line: op.Position.Line, Column: op.Position.Column}}
	}
	return err
}

// depthWalker measures selection depth. Fragment depths (relative to the
// spread) are memoised, so a document whose fragments spread each other many
// times is still walked in time linear in its size.
type depthWalker struct {
	fragments ast.FragmentDefinitionList
	limit     int
	memo      map[string]int  // exact relative depth of a fragment's selection set
	active    map[string]bool // fragments being walked: a spread back into one is a cycle
	over      bool
	depth     int // reported depth once over
}

// checkDepth reports whether set nests deeper than limit. It stops at the first
// branch found over the limit; the depth returned then is that branch's full
// depth (for a single over-deep chain, the query's depth).
func checkDepth(fragments ast.FragmentDefinitionList, set ast.SelectionSet, limit int) (int, bool) {
	w := &depthWalker{fragments: fragments, limit: limit, memo: map[string]int{}, active: map[string]bool{}}
	d := w.walk(set, 0)
	if w.over {
		return w.depth, true
	}
	return d, false
}

// walk returns the absolute depth reached below set, whose parent is at
// level; it returns early (with w.over set) once a field is over the limit.
func (w *depthWalker) walk(set ast.SelectionSet, level int) int {
	deepest := level
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			fl := level + 1
			if fl > w.limit {
				w.over = true
				w.depth = fl + w.relDepth(s.SelectionSet)
				return w.depth
			}
			d = w.walk(s.SelectionSet, fl)
		case *ast.InlineFragment:
			d = w.walk(s.SelectionSet, level)
		case *ast.FragmentSpread:
			d = w.spread(s.Name, level)
		}
		if w.over {
			return w.depth
		}
		deepest = max(deepest, d)
	}
	return deepest
}

func (w *depthWalker) spread(name string, level int) int {
	if rel, ok := w.memo[name]; ok {
		if level+rel > w.limit {
			w.over = true
			w.depth = level + rel
			return w.depth
		}
		return level + rel
	}
	frag := w.fragments.ForName(name)
	if frag == nil || w.active[name] {
		return level // unknown fragment or cycle: validation reports it
	}
	w.active[name] = true
	d := w.walk(frag.SelectionSet, level)
	delete(w.active, name)
	if !w.over {
		w.memo[name] = d - level
	}
	return d
}

// relDepth is the full (unbounded) depth of set relative to its parent,
// sharing the walker's memo and cycle guard.
func (w *depthWalker) relDepth(set ast.SelectionSet) int {
	deepest := 0
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			d = 1 + w.relDepth(s.SelectionSet)
		case *ast.InlineFragment:
			d = w.relDepth(s.SelectionSet)
		case *ast.FragmentSpread:
			if rel, ok := w.memo[s.Name]; ok {
				d = rel
				break
			}
			frag := w.fragments.ForName(s.Name)
			if frag == nil || w.active[s.Name] {
				break
			}
			w.active[s.Name] = true
			d = w.relDepth(frag.SelectionSet)
			delete(w.active, s.Name)
			w.memo[s.Name] = d
		}
		deepest = max(deepest, d)
	}
	return deepest
}

// aliasCountCap bounds alias counts so that fragments spread many times over
// (counts multiply) cannot overflow.
const aliasCountCap = 1 << 30

// countAliases counts aliased fields in set, expanding fragment spreads (a
// fragment counts once per spread). Per-fragment counts are memoised, so the
// walk is linear in the document size; the result saturates at
// aliasCountCap. A field aliased to its own name ("a: a") cannot be told
// apart from an unaliased one in the AST and is not counted; it is harmless,
// since it merges with any other selection of that field.
func countAliases(fragments ast.FragmentDefinitionList, set ast.SelectionSet) int {
	c := &aliasCounter{fragments: fragments, memo: map[string]int{}, active: map[string]bool{}}
	return c.count(set)
}

type aliasCounter struct {
	fragments ast.FragmentDefinitionList
	memo      map[string]int
	active    map[string]bool
}

func (c *aliasCounter) count(set ast.SelectionSet) int {
	n := 0
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Alias != "" && s.Alias != s.Name {
				n = satAdd(n, 1)
			}
			n = satAdd(n, c.count(s.SelectionSet))
		case *ast.InlineFragment:
			n = satAdd(n, c.count(s.SelectionSet))
		case *ast.FragmentSpread:
			n = satAdd(n, c.fragment(s.Name))
		}
	}
	return n
}

func (c *aliasCounter) fragment(name string) int {
	if n, ok := c.memo[name]; ok {
		return n
	}
	frag := c.fragments.ForName(name)
	if frag == nil || c.active[name] {
		return 0 // unknown fragment or cycle: validation reports it
	}
	c.active[name] = true
	n := c.count(frag.SelectionSet)
	delete(c.active, name)
	c.memo[name] = n
	return n
}

func satAdd(a, b int) int {
	if b >= aliasCountCap-a {
		return aliasCountCap
	}
	return a + b
}
