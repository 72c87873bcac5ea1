package types

// SpecError is one problem found while an OpenAPI specification was
// fetched or read: what is wrong and, for a document that does not parse
// or validate, where.
type SpecError struct {
	Message string `json:"message"`
	Code    string `json:"code,omitempty"`
}
