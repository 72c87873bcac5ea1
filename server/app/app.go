// Package app builds Quire's engines and connects them. It is the one place
// where an engine is handed the engines it calls, each through the
// interface it declares (catalog.ContentDuplicator, content.Spaces,
// content.Reviews, content.Indexer, content.Publisher, search.Spaces,
// comments.Notifier, sites.Spaces, comments.Spaces, comments.Content,
// reviews.Spaces, reviews.Content, reviews.Comments, downloads.Content,
// jobs.SpacePurger, jobs.Enqueuer, jobs.Publisher,
// content.OpenAPISpecs); no engine reaches for
// another through a package variable. cmd/quire calls New once, and hands
// the result to the HTTP server and the background jobs; tests build their
// servers the same way.
package app

import (
	"context"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"quire/graph"
	"quire/internal/catalog"
	"quire/internal/claims"
	"quire/internal/comments"
	"quire/internal/computed"
	"quire/internal/content"
	"quire/internal/conversations"
	"quire/internal/db"
	"quire/internal/downloads"
	"quire/internal/events"
	"quire/internal/gitsync"
	"quire/internal/grants"
	"quire/internal/ids"
	"quire/internal/jobs"
	"quire/internal/members"
	"quire/internal/openapispec"
	"quire/internal/orgs"
	"quire/internal/reviews"
	"quire/internal/search"
	"quire/internal/signedurl"
	"quire/internal/sites"
	"quire/internal/sso"
	"quire/internal/translate"
)

// Config configures the engines.
type Config struct {
	// PublicURL is the base of every URL the engines make, without a
	// trailing slash.
	PublicURL string
	// SigningKey signs download links (files, PDFs). Empty: a key generated
	// once and kept in the database, shared by every process using it.
	SigningKey string
	// Log receives what goes wrong while building (nil: discarded).
	Log *slog.Logger
	// Jobs tunes the job runner (its Log defaults to Log).
	Jobs jobs.Config
	// SweepInterval is how often the trash is swept (default a minute).
	SweepInterval time.Duration
	// Git configures Git import and export (its Log defaults to Log, its
	// committer's email to quire@ the public URL's host).
	Git gitsync.Config
	// Translator translates the pages of translation runs; nil refuses
	// runs (translate.NewLibreTranslate makes the one Quire ships).
	Translator translate.Provider
	// SearchCatchUpInterval is how often the spaces whose search index
	// does not reflect their content are looked for (default a minute).
	SearchCatchUpInterval time.Duration
	// OpenAPI configures fetching OpenAPI specifications.
	OpenAPI openapispec.Config
}

// Engines are Quire's engines, connected, and the root resolver over them
// that both doors call.
type Engines struct {
	Catalog   *catalog.Service
	Sites     *sites.Service
	Content   *content.Service
	Comments  *comments.Service
	Reviews   *reviews.Service
	Downloads *downloads.Service
	// Jobs is the durable job runner: the engines enqueue through it; a
	// process works jobs once it is started (Jobs.Start).
	Jobs *jobs.Runner
	// Git imports and exports spaces' content as jobs.
	Git *gitsync.Service
	// Conversations and Translations are the engines of support
	// conversations and of translations.
	Conversations *conversations.Service
	Translations  *translate.Service
	// Orgs, Members, Grants, SSO and Claims administer organizations:
	// settings and joining, members and teams, permissions of content,
	// single sign-on, and the signed claims of members.
	Orgs    *orgs.Service
	Members *members.Service
	Grants  *grants.Service
	SSO     *sso.Service
	Claims  *claims.Service
	// Search is the full-text search engine, whose index the content
	// engine keeps in step.
	Search *search.Service
	// Events is the event bus: writers publish through it, GraphQL
	// subscriptions listen to it. Close it when the process stops.
	Events *events.Bus
	// OpenAPI holds OpenAPI specifications; its Handler serves their files.
	OpenAPI  *openapispec.Service
	Resolver *graph.Resolver
}

// Close releases what the engines hold beyond the database's pool: the
// event bus's listener, ending every subscription.
func (e *Engines) Close() error { return e.Events.Close() }

// New builds the engines over d. It reads (or, the first time, stores)
// the download signing key, and registers every kind of job.
func New(ctx context.Context, d *db.DB, cfg Config) *Engines {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Jobs.Log == nil {
		cfg.Jobs.Log = cfg.Log
	}
	if cfg.SweepInterval <= 0 {
		cfg.SweepInterval = time.Minute
	}
	if cfg.SearchCatchUpInterval <= 0 {
		cfg.SearchCatchUpInterval = time.Minute
	}
	client := d.Client
	publicURL := strings.TrimRight(cfg.PublicURL, "/")
	cat := catalog.New(client)
	contents := content.New(client, publicURL, cat)
	// New spaces get their first revision from the content engine, and
	// duplicating a space carries its content along.
	cat.Content = contents
	bus := events.New(d, cfg.Log)
	finder := search.New(client, d.Dialect, cat)
	// Every change of a space's current revision indexes it and tells
	// subscribers; so do job progress reports.
	contents.Search, contents.Events = finder, bus
	cfg.Jobs.Events = bus
	discussions := comments.New(client, cat, contents)
	// Merges check the rules about reviews, and change request lists
	// filter by requested reviewer, through the reviews engine.
	reviewing := reviews.New(client, cat, contents, discussions)
	contents.Reviews = reviewing
	// Discussions tell subscribers of every change.
	discussions.Notifier = commentEvents{bus}
	key, err := downloads.SigningKey(ctx, client, cfg.SigningKey)
	if err != nil {
		// Links signed with a key of this process alone still work here.
		cfg.Log.Error("signing key unavailable; using a key of this process", "error", err.Error())
		key = []byte(ids.New(ids.Token) + ids.New(ids.Token))
	}
	signer := signedurl.NewSigner(key)
	dl := downloads.New(contents, signer, publicURL)
	e := &Engines{
		Catalog:   cat,
		Sites:     sites.New(client, cat, publicURL),
		Content:   contents,
		Comments:  discussions,
		Reviews:   reviewing,
		Downloads: dl,
		Jobs:      jobs.NewRunner(d, cfg.Jobs),
		Search:    finder,
		Events:    bus,
	}
	e.Claims = claims.New(client, publicURL)
	e.SSO = sso.New(client, publicURL)
	e.Orgs = orgs.New(client, e.SSO)
	e.Members = members.New(client)
	e.Members.Claims = e.Claims
	e.Grants = grants.New(client, cat)
	e.Jobs.Every(jobs.KindSweepTrash, cfg.SweepInterval, jobs.SweepTrash(client, contents, cfg.Jobs.Metrics, cfg.Log))
	e.Jobs.Every(content.KindSearchCatchUp, cfg.SearchCatchUpInterval, contents.SearchCatchUp)
	if cfg.Git.Log == nil {
		cfg.Git.Log = cfg.Log
	}
	if cfg.Git.CommitterEmail == "" {
		if u, err := url.Parse(publicURL); err == nil && u.Hostname() != "" {
			cfg.Git.CommitterEmail = "quire@" + u.Hostname()
		}
	}
	e.Git = gitsync.New(client, contents, e.Jobs, cfg.Git)
	e.Git.Register(e.Jobs)
	e.Conversations = conversations.New(client, e.Jobs, publicURL)
	e.Jobs.Handle(conversations.KindAnalyse, e.Conversations.Analyse())
	// A change request may address an issues cluster.
	contents.Clusters = e.Conversations
	e.Translations = translate.New(client, cat, contents, e.Jobs, cfg.Translator)
	e.Jobs.Handle(translate.KindRun, e.Translations.RunJob())
	// Specifications are processed by jobs enqueued with their writes;
	// link reports and templates ask which specifications exist.
	e.OpenAPI = openapispec.New(client, e.Jobs, signer, publicURL, cfg.OpenAPI, cfg.Log)
	e.Jobs.Handle(openapispec.Kind, e.OpenAPI.JobHandler())
	contents.OpenAPI = e.OpenAPI
	// Computed pages are API references made from the specifications: a
	// page read, a PDF and the search index show what they generate.
	comp := computed.New(e.OpenAPI)
	comp.Client = client
	dl.Computed, finder.Computed = comp, comp
	e.OpenAPI.OnNewVersion = func(ctx context.Context, orgID, slug string) error {
		_, err := finder.OutdateComputed(ctx, orgID, slug)
		return err
	}
	e.Resolver = &graph.Resolver{
		Catalog: cat, Sites: e.Sites, Content: contents,
		Downloads: downloadLinks{dl}, PublicURL: publicURL, Jobs: e.Jobs, Git: e.Git,
		Conversations: e.Conversations, Translations: e.Translations,
		Comments: discussions, Reviews: reviewing,
		Orgs: e.Orgs, Members: e.Members, Grants: e.Grants, SSO: e.SSO,
		Search: finder, Events: bus,
		OpenAPI: e.OpenAPI, Computed: comp,
	}
	return e
}

// downloadLinks adapts the downloads service to the resolvers.
type downloadLinks struct{ s *downloads.Service }

func (d downloadLinks) FileURL(revisionID, fileID string) string {
	return d.s.FileURL(revisionID, fileID)
}

func (d downloadLinks) PDFURL(revisionID, title, pageID string) string {
	return d.s.PDFURL(revisionID, downloads.PDFOptions{Title: title, Page: pageID})
}
