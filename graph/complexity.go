package graph

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/99designs/gqlgen/complexity"
	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// ComplexityLimit returns a gqlgen extension that refuses an operation
// whose complexity is over limit before execution, as gqlgen's
// extension.FixedComplexityLimit does (same message, COMPLEXITY_LIMIT_EXCEEDED,
// same stats), but computes the complexity of an operation once: the
// answer is kept for the parsed document (gqlgen's query cache hands the
// same document to every request with the same text), the operation name
// and the variables, which are all it depends on. Clients repeat their
// queries, and computing the complexity walks the whole query.
func ComplexityLimit(limit int) graphql.HandlerExtension {
	return &complexityLimit{limit: limit, known: map[complexityKey]int{}}
}

// maxKnownComplexities bounds the cache; it is emptied when full.
const maxKnownComplexities = 4096

type complexityKey struct {
	doc       *ast.QueryDocument
	operation string
	variables string
}

type complexityLimit struct {
	limit int
	es    graphql.ExecutableSchema

	mu    sync.Mutex
	known map[complexityKey]int
}

var _ interface {
	graphql.OperationContextMutator
	graphql.HandlerExtension
} = &complexityLimit{}

func (c *complexityLimit) ExtensionName() string { return "ComplexityLimit" }

func (c *complexityLimit) Validate(schema graphql.ExecutableSchema) error {
	if schema == nil {
		return errors.New("complexity limit: no schema")
	}
	c.es = schema
	return nil
}

func (c *complexityLimit) MutateOperationContext(ctx context.Context, rc *graphql.OperationContext) *gqlerror.Error {
	n := c.complexity(ctx, rc)
	// gqlgen's stats type and name, so extension.GetComplexityStats reads them.
	rc.Stats.SetExtension("ComplexityLimit", &extension.ComplexityStats{Complexity: n, ComplexityLimit: c.limit})
	if n > c.limit {
		err := gqlerror.Errorf("operation has complexity %d, which exceeds the limit of %d", n, c.limit)
		errcode.Set(err, CodeComplexityLimit)
		return err
	}
	return nil
}

func (c *complexityLimit) complexity(ctx context.Context, rc *graphql.OperationContext) int {
	op := rc.Doc.Operations.ForName(rc.OperationName)
	// Variables are coerced values (maps, slices, scalars): JSON with
	// sorted keys names them exactly.
	vars, err := json.Marshal(rc.Variables)
	if err != nil {
		return complexity.Calculate(ctx, c.es, op, rc.Variables)
	}
	key := complexityKey{doc: rc.Doc, operation: rc.OperationName, variables: string(vars)}
	c.mu.Lock()
	n, ok := c.known[key]
	c.mu.Unlock()
	if ok {
		return n
	}
	n = complexity.Calculate(ctx, c.es, op, rc.Variables)
	c.mu.Lock()
	if len(c.known) >= maxKnownComplexities {
		clear(c.known)
	}
	c.known[key] = n
	c.mu.Unlock()
	return n
}
