// Package leaf holds the Go types of GraphQL object types whose fields are
// all scalars and that nested reads return many of: the permissions, URLs
// and merge rules of every space of a site, the published URL of every site
// space and section. Each writes the fields its query selects itself.
//
// gqlgen binds an object type to a Go type that implements
// graphql.ContextMarshaler the way it binds a scalar: it hands over the
// whole value to write. For any other object it runs every selected field
// through its resolver machinery (a field context, closures, a boxed value
// and a marshaler per field), which for these small objects costs far more
// than the values. The GraphQL schema does not change: the types stay
// objects, validated, introspected and costed as before; aliases,
// fragments, @skip/@include and __typename are applied as gqlgen applies
// them (graphql.CollectFields). Their encoding/json form is the REST one.
package leaf

import (
	"context"
	"fmt"
	"io"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// fieldWriter writes the value of one selected field of an object (it gets
// the field's name and selection set), and reports false, having written
// nothing, for a field it does not know.
type fieldWriter func(w io.Writer, f graphql.CollectedField) bool

// writeObject writes the object that the field being marshaled in ctx
// answers: the fields its selection set asks for, in order, each written
// by value.
func writeObject(ctx context.Context, w io.Writer, typeName string, value fieldWriter) error {
	if !graphql.HasOperationContext(ctx) {
		return fmt.Errorf("%s written outside a GraphQL operation", typeName)
	}
	for fc := graphql.GetFieldContext(ctx); fc != nil; fc = fc.Parent {
		// A list item's context has no field; its list's has.
		if fc.Field.Field != nil {
			writeSelected(ctx, w, fc.Field.Selections, typeName, value)
			return nil
		}
	}
	return fmt.Errorf("%s written outside a GraphQL field", typeName)
}

// writeSelected writes an object of typeName with the fields sel selects. A
// field that value does not know (one added to the schema but not here) is
// null with an error, never a silent null.
func writeSelected(ctx context.Context, w io.Writer, sel ast.SelectionSet, typeName string, value fieldWriter) {
	io.WriteString(w, "{")
	for i, f := range graphql.CollectFields(graphql.GetOperationContext(ctx), sel, []string{typeName}) {
		if i > 0 {
			io.WriteString(w, ",")
		}
		writeString(w, f.Alias)
		io.WriteString(w, ":")
		if f.Name == "__typename" {
			writeString(w, typeName)
			continue
		}
		if !value(w, f) {
			writeNull(w)
			graphql.AddErrorf(ctx, "%s.%s is not written by its Go type (graph/leaf)", typeName, f.Name)
		}
	}
	io.WriteString(w, "}")
}

// writeString writes s as gqlgen writes a String or an ID.
func writeString(w io.Writer, s string) { graphql.MarshalString(s).MarshalGQL(w) }

func writeOptString(w io.Writer, s *string) {
	if s == nil {
		io.WriteString(w, "null")
		return
	}
	writeString(w, *s)
}

func writeBool(w io.Writer, b bool) {
	if b {
		io.WriteString(w, "true")
	} else {
		io.WriteString(w, "false")
	}
}

func writeNull(w io.Writer) { io.WriteString(w, "null") }

// outputOnly is the error of reading one of these types as an input.
func outputOnly(typeName string) error {
	return fmt.Errorf("%s is an output type", typeName)
}
