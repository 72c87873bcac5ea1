// Package graph holds the GraphQL resolvers. They are thin: each checks its
// arguments' shape and calls the engines in internal/. The REST layer calls
// the same resolver methods, so both doors share one behaviour.
package graph

//go:generate go run ../cmd/gqlgen

import (
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/jobs"
	"quire/internal/openapispec"
	"quire/internal/sites"
)

// Resolver is the root resolver, holding the engines it delegates to.
type Resolver struct {
	Catalog *catalog.Service
	Sites   *sites.Service
	// Content is the content engine: revisions, pages, files and change
	// requests.
	Content *content.Service
	// Downloads signs the links to file bytes and PDFs.
	Downloads Downloads
	// PublicURL is the base of every urls field, without a trailing slash.
	PublicURL string
	// Jobs reads background jobs (Job nodes).
	Jobs *jobs.Runner
	// OpenAPI holds the organizations' OpenAPI specifications.
	OpenAPI *openapispec.Service
}
