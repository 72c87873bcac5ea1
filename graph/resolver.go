// Package graph holds the GraphQL resolvers. They are thin: each checks its
// arguments' shape and calls the engines in internal/. The REST layer calls
// the same resolver methods, so both doors share one behaviour. What the
// GraphQL server checks before any resolver runs (query limits, the node
// budget, validation rules, NUL characters) is in graph/gqlguard.
package graph

//go:generate go run ../cmd/gqlgen

import (
	"sync"

	"quire/internal/catalog"
	"quire/internal/comments"
	"quire/internal/computed"
	"quire/internal/content"
	"quire/internal/conversations"
	"quire/internal/events"
	"quire/internal/gitsync"
	"quire/internal/grants"
	"quire/internal/jobs"
	"quire/internal/members"
	"quire/internal/openapispec"
	"quire/internal/orgs"
	"quire/internal/reviews"
	"quire/internal/search"
	"quire/internal/sites"
	"quire/internal/sso"
	"quire/internal/translate"
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
	// Git imports and exports spaces' content from and to Git
	// repositories.
	Git *gitsync.Service
	// Conversations: support conversations, their issues and clusters.
	Conversations *conversations.Service
	// Translations: translations of spaces.
	Translations *translate.Service
	// Comments is the discussions engine: comments, replies, reactions.
	Comments *comments.Service
	// Reviews is the change request reviews engine.
	Reviews *reviews.Service
	// Orgs: organization settings, joining, invite links, agent
	// instructions.
	Orgs *orgs.Service
	// Members: members, teams, pings.
	Members *members.Service
	// Grants: the permissions of spaces and collections.
	Grants *grants.Service
	// SSO: SAML providers and sign-in.
	SSO *sso.Service
	// Search searches spaces' current content.
	Search *search.Service
	// Events is the event bus GraphQL subscriptions listen to.
	Events *events.Bus
	// OpenAPI holds the organizations' OpenAPI specifications.
	OpenAPI *openapispec.Service
	// Computed generates the documents of computed pages (API references
	// from OpenAPI specifications).
	Computed     *computed.Service
	computedOnce sync.Once
}
