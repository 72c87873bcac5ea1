package document

import "encoding/json"

// The resolved data of the OpenAPI blocks a computed page generates. A
// stored openapi-operation block points at an operation (ref, method,
// path); a generated one carries the operation itself beside those keys,
// so that a client renders it without reading the specification. The
// shapes below are that data; OpenAPIOperationOf and OpenAPISchemasOf
// read them back from a block.

// OpenAPISchema is a schema of an OpenAPI document, bounded: nesting
// stops at a depth limit (Truncated) and a reference to a schema that is
// being shown already is cut (Circular, with its Name).
type OpenAPISchema struct {
	// Name is the component a reference named (components/schemas/Name).
	Name        string   `json:"name,omitempty"`
	Type        string   `json:"type,omitempty"`
	Format      string   `json:"format,omitempty"`
	Description string   `json:"description,omitempty"`
	Nullable    bool     `json:"nullable,omitempty"`
	Deprecated  bool     `json:"deprecated,omitempty"`
	ReadOnly    bool     `json:"readOnly,omitempty"`
	WriteOnly   bool     `json:"writeOnly,omitempty"`
	Enum        []string `json:"enum,omitempty"`
	// Default and Example are the JSON text of the values given.
	Default              string            `json:"default,omitempty"`
	Example              string            `json:"example,omitempty"`
	Properties           []OpenAPIProperty `json:"properties,omitempty"`
	Items                *OpenAPISchema    `json:"items,omitempty"`
	AdditionalProperties *OpenAPISchema    `json:"additionalProperties,omitempty"`
	OneOf                []*OpenAPISchema  `json:"oneOf,omitempty"`
	AnyOf                []*OpenAPISchema  `json:"anyOf,omitempty"`
	AllOf                []*OpenAPISchema  `json:"allOf,omitempty"`
	Circular             bool              `json:"circular,omitempty"`
	Truncated            bool              `json:"truncated,omitempty"`
}

// OpenAPIProperty is a property of an object schema.
type OpenAPIProperty struct {
	Name     string         `json:"name"`
	Required bool           `json:"required"`
	Schema   *OpenAPISchema `json:"schema,omitempty"`
}

// OpenAPIParameter is a parameter of an operation.
type OpenAPIParameter struct {
	Name        string         `json:"name"`
	In          string         `json:"in"`
	Required    bool           `json:"required"`
	Deprecated  bool           `json:"deprecated,omitempty"`
	Description string         `json:"description,omitempty"`
	Schema      *OpenAPISchema `json:"schema,omitempty"`
}

// OpenAPIMediaType is a content type of a request or response body.
type OpenAPIMediaType struct {
	MediaType string         `json:"mediaType"`
	Schema    *OpenAPISchema `json:"schema,omitempty"`
}

// OpenAPIRequestBody is an operation's request body.
type OpenAPIRequestBody struct {
	Description string             `json:"description,omitempty"`
	Required    bool               `json:"required"`
	Content     []OpenAPIMediaType `json:"content"`
}

// OpenAPIResponse is a response of an operation, by status (a code,
// a range such as 4XX, or default).
type OpenAPIResponse struct {
	Status      string             `json:"status"`
	Description string             `json:"description,omitempty"`
	Content     []OpenAPIMediaType `json:"content"`
}

// OpenAPIOperation is the data of a generated openapi-operation block:
// the reference's keys (ref, method, path) and the operation.
type OpenAPIOperation struct {
	Ref         ContentRef          `json:"ref"`
	Method      string              `json:"method"`
	Path        string              `json:"path"`
	OperationID string              `json:"operationId,omitempty"`
	Summary     string              `json:"summary,omitempty"`
	Description string              `json:"description,omitempty"`
	Deprecated  bool                `json:"deprecated"`
	Tags        []string            `json:"tags"`
	Parameters  []OpenAPIParameter  `json:"parameters"`
	RequestBody *OpenAPIRequestBody `json:"requestBody,omitempty"`
	Responses   []OpenAPIResponse   `json:"responses"`
}

// OpenAPINamedSchema is a component schema with its name.
type OpenAPINamedSchema struct {
	Name   string         `json:"name"`
	Schema *OpenAPISchema `json:"schema"`
}

// OpenAPISchemas is the data of a generated openapi-schemas block: the
// reference's keys (ref, schemas, grouped) and the schemas themselves
// (definitions).
type OpenAPISchemas struct {
	Ref         ContentRef           `json:"ref"`
	Schemas     []string             `json:"schemas"`
	Grouped     bool                 `json:"grouped"`
	Definitions []OpenAPINamedSchema `json:"definitions"`
}

// DataOf turns a block's data shape into the map a Node holds.
func DataOf(v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		return map[string]any{}
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil || m == nil {
		return map[string]any{}
	}
	return m
}

// resolvedOperation reports a block whose data carries an operation, not
// only a pointer to one.
func resolvedOperation(d map[string]any) bool {
	_, ok := d["responses"]
	return ok
}

// OpenAPIOperationOf reads the operation a generated openapi-operation
// block carries; false for another block or a stored pointer.
func OpenAPIOperationOf(n *Node) (*OpenAPIOperation, bool) {
	if n.Type != BlockOpenAPIOperation || !resolvedOperation(n.Data) {
		return nil, false
	}
	var op OpenAPIOperation
	if !decodeData(n.Data, &op) {
		return nil, false
	}
	return &op, true
}

// OpenAPISchemasOf reads the schemas a generated openapi-schemas block
// carries; false for another block or a stored pointer.
func OpenAPISchemasOf(n *Node) (*OpenAPISchemas, bool) {
	if n.Type != BlockOpenAPISchemas {
		return nil, false
	}
	if _, ok := n.Data["definitions"]; !ok {
		return nil, false
	}
	var s OpenAPISchemas
	if !decodeData(n.Data, &s) {
		return nil, false
	}
	return &s, true
}

func decodeData(d map[string]any, out any) bool {
	b, err := json.Marshal(d)
	return err == nil && json.Unmarshal(b, out) == nil
}

// openAPIOperationData checks the data of an openapi-operation block: the
// reference, and the operation's fields where it carries them.
func openAPIOperationData(d *dataCheck) {
	d.ref("ref", true, RefOpenAPI)
	d.str("method", false)
	d.str("path", false)
	if !resolvedOperation(d.d) || d.err != nil {
		return
	}
	d.str("summary", false)
	d.str("description", false)
	d.boolean("deprecated")
	d.array("parameters")
	d.array("responses")
	d.object("requestBody", false)
	if d.err == nil && !decodeData(d.d, &OpenAPIOperation{}) {
		d.fail("responses", "the operation's parameters, requestBody and responses are not in the documented shape")
	}
}

// openAPISchemasData checks the data of an openapi-schemas block.
func openAPISchemasData(d *dataCheck) {
	d.ref("ref", true, RefOpenAPI)
	d.boolean("grouped")
	if _, ok := d.d["definitions"]; !ok || d.err != nil {
		return
	}
	d.array("definitions")
	if d.err == nil && !decodeData(d.d, &OpenAPISchemas{}) {
		d.fail("definitions", "must be a list of {name, schema}")
	}
}

func (c *dataCheck) array(key string) {
	if v, ok := c.get(key, false); ok {
		if _, isArr := v.([]any); !isArr {
			c.fail(key, "must be an array")
		}
	}
}
