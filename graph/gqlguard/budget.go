package gqlguard

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"quire/internal/apierr"
)

// NodeBudget returns a gqlgen extension that refuses, before any resolver
// runs:
//
//   - an operation giving a connection first or last outside
//     [1, l.MaxPageSize], literally or through a variable: BAD_REQUEST with
//     extensions.field "first" or "last";
//   - an operation that may return more than l.MaxNodes nodes, as
//     OperationCost counts them: COMPLEXITY_LIMIT_EXCEEDED.
//
// Both codes are protocol errors (HTTP 422, or 400 for
// application/graphql-response+json). A zero limit turns its check off.
// The verdict is kept for the parsed document (gqlgen's query cache hands
// the same document to every request with the same text), the operation
// name and, when the counts read any, the variables: clients repeat their
// queries, and the published-profile query must not walk its document on
// every request. The operation's cost is left in its stats
// (OperationCostOf).
func NodeBudget(l Limits) graphql.HandlerExtension {
	registerKinds()
	return &nodeBudget{limits: l, known: map[budgetKey]budgetVerdict{}}
}

// maxKnownVerdicts bounds the cache; it is emptied when full.
const maxKnownVerdicts = 4096

type budgetKey struct {
	doc       *ast.QueryDocument
	operation string
	// variables is "" for the entry that says whether the verdict depends
	// on the variables, and their JSON for verdicts that do.
	variables string
}

type budgetVerdict struct {
	usesVars  bool
	nodes     int
	points    int
	violation *pageViolation
}

type nodeBudget struct {
	limits Limits

	mu    sync.Mutex
	known map[budgetKey]budgetVerdict
}

var _ interface {
	graphql.OperationContextMutator
	graphql.HandlerExtension
} = &nodeBudget{}

func (b *nodeBudget) ExtensionName() string { return costStatsName }

func (b *nodeBudget) Validate(graphql.ExecutableSchema) error { return nil }

func (b *nodeBudget) MutateOperationContext(_ context.Context, rc *graphql.OperationContext) *gqlerror.Error {
	op := rc.Operation
	if op == nil {
		op = rc.Doc.Operations.ForName(rc.OperationName)
	}
	if op == nil {
		return nil
	}
	v := b.verdict(rc.Doc, op, rc.OperationName, rc.Variables)
	rc.Stats.SetExtension(costStatsName, &OperationCostStats{Nodes: v.nodes, Points: v.points})
	if p := v.violation; p != nil {
		err := &gqlerror.Error{
			Message:    fmt.Sprintf("%s must be between 1 and %d on %s, got %d", p.argument, b.limits.MaxPageSize, p.connection, p.value),
			Extensions: map[string]any{"code": string(apierr.BadRequest), "field": p.argument},
		}
		if p.position != nil {
			err.Locations = []gqlerror.Location{{Line: p.position.Line, Column: p.position.Column}}
		}
		return err
	}
	if limit := b.limits.MaxNodes; limit > 0 && v.nodes > limit {
		return limitError(CodeComplexityLimit, op,
			"operation may return up to %d nodes (first or last multiplied down nested connections), the limit is %d", v.nodes, limit)
	}
	return nil
}

func (b *nodeBudget) verdict(doc *ast.QueryDocument, op *ast.OperationDefinition, name string, vars map[string]any) budgetVerdict {
	key := budgetKey{doc: doc, operation: name}
	b.mu.Lock()
	v, ok := b.known[key]
	b.mu.Unlock()
	if ok && !v.usesVars {
		return v
	}
	if ok {
		// Variables are coerced values (maps, slices, scalars): JSON with
		// sorted keys names them exactly.
		js, err := json.Marshal(vars)
		if err != nil {
			return b.walk(doc, op, vars)
		}
		key.variables = string(js)
		b.mu.Lock()
		v, ok = b.known[key]
		b.mu.Unlock()
		if ok {
			return v
		}
	}
	v = b.walk(doc, op, vars)
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.known) >= maxKnownVerdicts {
		clear(b.known)
	}
	if key.variables == "" {
		b.known[key] = v // the marker: says whether to look further
		if !v.usesVars {
			return v
		}
		js, err := json.Marshal(vars)
		if err != nil {
			return v
		}
		key.variables = string(js)
	}
	b.known[key] = v
	return v
}

func (b *nodeBudget) walk(doc *ast.QueryDocument, op *ast.OperationDefinition, vars map[string]any) budgetVerdict {
	w := newCostWalker(doc, vars, b.limits.MaxPageSize)
	c := w.selections(op.SelectionSet)
	return budgetVerdict{usesVars: w.usedVars, nodes: c.nodes, points: pointsFor(c.requests), violation: w.violation}
}

// costStatsName names NodeBudget's extension and its stats.
const costStatsName = "NodeBudget"

// OperationCostStats is the cost NodeBudget found for an operation.
type OperationCostStats struct {
	// Nodes and Points are OperationCost's answers.
	Nodes, Points int
}

// OperationCostOf returns the cost NodeBudget left in rc's stats, for
// extensions that run after it (a rate limiter, say) to read without
// walking the document again; nil when NodeBudget has not seen rc.
func OperationCostOf(rc *graphql.OperationContext) *OperationCostStats {
	if rc == nil {
		return nil
	}
	s, _ := rc.Stats.GetExtension(costStatsName).(*OperationCostStats)
	return s
}
