// Package app builds Quire's engines and connects them. It is the one place
// where an engine is handed the engines it calls, each through the
// interface it declares (catalog.ContentDuplicator, content.Spaces,
// sites.Spaces, downloads.Content, jobs.SpacePurger, jobs.Enqueuer,
// content.OpenAPISpecs); no engine reaches for
// another through a package variable. cmd/quire calls New once, and hands
// the result to the HTTP server and the background jobs; tests build their
// servers the same way.
package app

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"quire/graph"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/db"
	"quire/internal/downloads"
	"quire/internal/ids"
	"quire/internal/jobs"
	"quire/internal/openapispec"
	"quire/internal/signedurl"
	"quire/internal/sites"
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
	// OpenAPI configures fetching OpenAPI specifications.
	OpenAPI openapispec.Config
}

// Engines are Quire's engines, connected, and the root resolver over them
// that both doors call.
type Engines struct {
	Catalog   *catalog.Service
	Sites     *sites.Service
	Content   *content.Service
	Downloads *downloads.Service
	// Jobs is the durable job runner: the engines enqueue through it; a
	// process works jobs once it is started (Jobs.Start).
	Jobs *jobs.Runner
	// OpenAPI holds OpenAPI specifications; its Handler serves their files.
	OpenAPI  *openapispec.Service
	Resolver *graph.Resolver
}

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
	client := d.Client
	publicURL := strings.TrimRight(cfg.PublicURL, "/")
	cat := catalog.New(client)
	contents := content.New(client, publicURL, cat)
	// Duplicating a space carries its content along.
	cat.Content = contents
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
		Downloads: dl,
		Jobs:      jobs.NewRunner(d, cfg.Jobs),
	}
	e.Jobs.Every(jobs.KindSweepTrash, cfg.SweepInterval, jobs.SweepTrash(client, contents, cfg.Jobs.Metrics, cfg.Log))
	// Specifications are processed by jobs enqueued with their writes;
	// link reports and templates ask which specifications exist.
	e.OpenAPI = openapispec.New(client, e.Jobs, signer, publicURL, cfg.OpenAPI, cfg.Log)
	e.Jobs.Handle(openapispec.Kind, e.OpenAPI.JobHandler())
	contents.OpenAPI = e.OpenAPI
	e.Resolver = &graph.Resolver{
		Catalog: cat, Sites: e.Sites, Content: contents,
		Downloads: downloadLinks{dl}, PublicURL: publicURL, Jobs: e.Jobs, OpenAPI: e.OpenAPI,
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
