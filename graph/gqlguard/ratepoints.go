package gqlguard

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
)

// RatePoints is what the operation of ctx's gqlgen operation context costs
// against the rate limit, in points (OperationCost: GitHub's formula); 1
// when ctx holds no operation. The server's rate limiter calls it once the
// operation has been parsed, validated and budgeted, before any resolver
// runs: the node budget has left the cost in the operation's stats, so
// nothing is walked again.
func RatePoints(ctx context.Context) int {
	if !graphql.HasOperationContext(ctx) {
		return 1
	}
	oc := graphql.GetOperationContext(ctx)
	if st := OperationCostOf(oc); st != nil {
		return max(st.Points, 1)
	}
	if oc.Doc == nil || oc.Operation == nil {
		return 1
	}
	_, p := OperationCost(oc.Doc, oc.Operation, oc.Variables)
	return max(p, 1)
}
