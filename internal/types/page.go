package types

import "quire/internal/document"

// PageMetaLinks are the links a page declares to search engines: the
// canonical location of its content and alternate versions of it. Each is
// a content reference of kind page or url.
type PageMetaLinks struct {
	Canonical  *document.ContentRef  `json:"canonical,omitempty"`
	Alternates []document.ContentRef `json:"alternates,omitempty"`
}

// Empty reports whether m declares no link.
func (m *PageMetaLinks) Empty() bool {
	return m == nil || (m.Canonical == nil && len(m.Alternates) == 0)
}

// PageComputed is the definition of a computed document page: the source
// that generates its content (type, such as builtin:openapi), what the
// source reads (dependencies, by name) and its parameters (props).
type PageComputed struct {
	Type         string                        `json:"type"`
	Dependencies map[string]ComputedDependency `json:"dependencies,omitempty"`
	Props        map[string]any                `json:"props"`
}

// ComputedDependency is one input of a computed page: a reference to an
// OpenAPI specification of the organization, by slug.
type ComputedDependency struct {
	Ref document.ContentRef `json:"ref"`
}
