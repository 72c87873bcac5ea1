package types

import (
	"quire/internal/document"
	"quire/internal/nonempty"
)

// The generated OpenAPI blocks of a computed page are typed in GraphQL:
// an openapi-operation or openapi-schemas block whose data carries the
// resolved operation or schemas (document.OpenAPIOperationOf,
// OpenAPISchemasOf) is a DocumentOpenAPIOperation or
// DocumentOpenAPISchemas node, with the fields of a DocumentBlock and the
// operation's or schemas' fields beside them, so that clients render them
// without parsing data. A stored block that only points at an operation
// stays a DocumentBlock.

// DocOpenAPIOperation is a generated openapi-operation block.
type DocOpenAPIOperation struct {
	DocBlock
	Op *document.OpenAPIOperation
}

// DocOpenAPISchemas is a generated openapi-schemas block.
type DocOpenAPISchemas struct {
	DocBlock
	S *document.OpenAPISchemas
}

func (DocOpenAPIOperation) isDocNode() {}
func (DocOpenAPISchemas) isDocNode()   {}

// wrapBlock wraps a block node, typed when it is a generated OpenAPI
// block.
func wrapBlock(n *document.Node) DocNode {
	switch n.Type {
	case document.BlockOpenAPIOperation:
		if op, ok := document.OpenAPIOperationOf(n); ok {
			return DocOpenAPIOperation{DocBlock{n}, op}
		}
	case document.BlockOpenAPISchemas:
		if s, ok := document.OpenAPISchemasOf(n); ok {
			return DocOpenAPISchemas{DocBlock{n}, s}
		}
	}
	return DocBlock{n}
}

// Method is the operation's HTTP method, in lower case.
func (o DocOpenAPIOperation) Method() string { return o.Op.Method }

// Path is the operation's path.
func (o DocOpenAPIOperation) Path() string { return o.Op.Path }

// OperationID is the operation's id, if it has one.
func (o DocOpenAPIOperation) OperationID() *string { return nonempty.String(o.Op.OperationID) }

// Summary is the operation's summary.
func (o DocOpenAPIOperation) Summary() *string { return nonempty.String(o.Op.Summary) }

// Description is the operation's description.
func (o DocOpenAPIOperation) Description() *string { return nonempty.String(o.Op.Description) }

// Deprecated reports a deprecated operation.
func (o DocOpenAPIOperation) Deprecated() bool { return o.Op.Deprecated }

// Tags are the operation's tags.
func (o DocOpenAPIOperation) Tags() []string { return nonNil(o.Op.Tags) }

// Parameters are the operation's parameters, the path item's included.
func (o DocOpenAPIOperation) Parameters() []*document.OpenAPIParameter { return ptrs(o.Op.Parameters) }

// RequestBody is the operation's request body, if it has one.
func (o DocOpenAPIOperation) RequestBody() *document.OpenAPIRequestBody { return o.Op.RequestBody }

// Responses are the operation's responses, by status.
func (o DocOpenAPIOperation) Responses() []*document.OpenAPIResponse { return ptrs(o.Op.Responses) }

// Spec is the slug of the specification the operation is read from.
func (o DocOpenAPIOperation) Spec() string { return o.Op.Ref.Spec }

// Spec is the slug of the specification the schemas are read from.
func (s DocOpenAPISchemas) Spec() string { return s.S.Ref.Spec }

// Schemas are the schemas the block shows, by name.
func (s DocOpenAPISchemas) Schemas() []*document.OpenAPINamedSchema { return ptrs(s.S.Definitions) }

func ptrs[T any](in []T) []*T {
	out := make([]*T, len(in))
	for i := range in {
		out[i] = &in[i]
	}
	return out
}

func nonNil[T any](in []T) []T {
	if in == nil {
		return []T{}
	}
	return in
}
