package gqlguard

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"quire/internal/types"
)

// A JSON argument reaches a resolver decoded by gqlgen into Go maps, so the
// order in which the client wrote an object's keys is lost; where that order
// means something (the claims of an adaptive schema are listed, and turned
// into template conditions, in the order they are declared) the resolver
// asks for the value as written: the same value found in the request's
// variables, or among the object literals of the operation.

type requestBodyKey struct{}

// WithRequestBody returns a context carrying the raw body of a GraphQL
// request (a JSON object with query and variables), for Ordered.
func WithRequestBody(ctx context.Context, body []byte) context.Context {
	return context.WithValue(ctx, requestBodyKey{}, body)
}

// orderedDepth bounds how deep below a variable or an argument the values
// compared are looked for, so that the search stays linear in the request.
const orderedDepth = 4

// Ordered returns v as the client wrote it in the request, key order and
// all, when it is found there; v itself otherwise.
func Ordered(ctx context.Context, v types.JSON) types.JSON {
	if len(v) == 0 || v[0] != '{' && v[0] != '[' {
		return v
	}
	want, err := canonical(v)
	if err != nil {
		return v
	}
	var found types.JSON
	match := func(raw []byte) bool {
		if c, err := canonical(raw); err == nil && bytes.Equal(c, want) {
			var buf bytes.Buffer
			if json.Compact(&buf, raw) == nil {
				found = buf.Bytes()
				return true
			}
		}
		return false
	}
	if body, ok := ctx.Value(requestBodyKey{}).([]byte); ok {
		var req struct {
			Variables map[string]json.RawMessage `json:"variables"`
		}
		if json.Unmarshal(body, &req) == nil {
			for _, raw := range req.Variables {
				if searchJSON(raw, orderedDepth, match) {
					return found
				}
			}
		}
	}
	if graphql.HasOperationContext(ctx) {
		if op := graphql.GetOperationContext(ctx).Operation; op != nil && searchSelections(op.SelectionSet, match) {
			return found
		}
	}
	return v
}

// canonical is a JSON value re-encoded with its object keys sorted (and
// its numbers as float64 write them, as gqlgen's decoding may have).
func canonical(raw []byte) ([]byte, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// searchJSON calls match with raw and, depth levels down, with the objects
// and arrays inside it, until match says it found what it looked for.
func searchJSON(raw json.RawMessage, depth int, match func([]byte) bool) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' && raw[0] != '[' {
		return false
	}
	if match(raw) {
		return true
	}
	if depth == 0 {
		return false
	}
	if raw[0] == '{' {
		var members map[string]json.RawMessage
		if json.Unmarshal(raw, &members) != nil {
			return false
		}
		for _, m := range members {
			if searchJSON(m, depth-1, match) {
				return true
			}
		}
		return false
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return false
	}
	for _, it := range items {
		if searchJSON(it, depth-1, match) {
			return true
		}
	}
	return false
}

// searchSelections looks at the object and list literals given as
// arguments in a selection set (and the fields below it).
func searchSelections(set ast.SelectionSet, match func([]byte) bool) bool {
	for _, sel := range set {
		f, ok := sel.(*ast.Field)
		if !ok {
			continue
		}
		for _, arg := range f.Arguments {
			if searchLiteral(arg.Value, orderedDepth, match) {
				return true
			}
		}
		if searchSelections(f.SelectionSet, match) {
			return true
		}
	}
	return false
}

func searchLiteral(v *ast.Value, depth int, match func([]byte) bool) bool {
	if v == nil || v.Kind != ast.ObjectValue && v.Kind != ast.ListValue {
		return false
	}
	if raw, ok := literalJSON(nil, v); ok && match(raw) {
		return true
	}
	if depth == 0 {
		return false
	}
	for _, c := range v.Children {
		if searchLiteral(c.Value, depth-1, match) {
			return true
		}
	}
	return false
}

// literalJSON writes a GraphQL literal as JSON, in the order it was
// written; false when it holds a variable.
func literalJSON(dst []byte, v *ast.Value) ([]byte, bool) {
	switch v.Kind {
	case ast.Variable:
		return nil, false
	case ast.NullValue:
		return append(dst, "null"...), true
	case ast.IntValue, ast.FloatValue, ast.BooleanValue:
		return append(dst, v.Raw...), true
	case ast.StringValue, ast.BlockValue, ast.EnumValue:
		return appendString(dst, v.Raw), true
	case ast.ListValue, ast.ObjectValue:
		open, close := byte('['), byte(']')
		if v.Kind == ast.ObjectValue {
			open, close = '{', '}'
		}
		dst = append(dst, open)
		for i, c := range v.Children {
			if i > 0 {
				dst = append(dst, ',')
			}
			if v.Kind == ast.ObjectValue {
				dst = appendString(dst, c.Name)
				dst = append(dst, ':')
			}
			var ok bool
			if dst, ok = literalJSON(dst, c.Value); !ok {
				return nil, false
			}
		}
		return append(dst, close), true
	}
	return nil, false
}

func appendString(dst []byte, s string) []byte {
	b, _ := json.Marshal(s)
	return append(dst, b...)
}
