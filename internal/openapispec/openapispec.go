// Package openapispec holds the OpenAPI specifications of organizations:
// who may see and change them, their sources (a URL or text), the
// background job that fetches, reads and validates a source (kind
// openapi.process) and stores each distinct content as a version, and
// the public URLs where Quire serves the files of a version. Both doors
// reach it through the GraphQL resolvers; the content engine asks it
// which specifications exist, for link reports and templates.
package openapispec

import (
	"context"
	"log/slog"
	"regexp"
	"time"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/authz"
	"quire/internal/jobs"
	"quire/internal/signedurl"
	"quire/internal/types"
)

// Kind is the kind of the processing job.
const Kind = "openapi.process"

// Limits of what a specification may be. They are fixed; docs/api.md's
// "Limits at a glance" lists them.
const (
	// MaxSlug is the longest slug.
	MaxSlug = 100
	// MaxURL is the longest source URL.
	MaxURL = 2048
	// MaxTextBytes bounds a source given as text (the request body is
	// bounded at 1 MiB as well).
	MaxTextBytes = 1 << 20
	// MaxFileBytes bounds each file fetched (the root and each file its
	// references reach).
	MaxFileBytes = 5 << 20
	// MaxFiles bounds the files of one version, the root included.
	MaxFiles = 100
	// MaxTotalBytes bounds all the files of one version together.
	MaxTotalBytes = 20 << 20
	// MaxRedirects bounds the redirects followed for one file.
	MaxRedirects = 5
	// DefaultFetchTimeout bounds fetching one file.
	DefaultFetchTimeout = 30 * time.Second
	// ReadTimeout bounds reading and validating a fetched specification.
	ReadTimeout = 2 * time.Minute
	// maxErrors is how many problems a failed processing lists.
	maxErrors = 20
	// LinkTTL is how long the signed link to a private version works.
	LinkTTL = time.Hour
	// DefaultRequestFileBytes bounds the version files one request reads
	// (a GraphQL list of many versions' files): a few versions of the
	// largest size, while a list of every version's files of many
	// specifications would hold gigabytes in memory.
	DefaultRequestFileBytes = 64 << 20
)

// Processing states and error codes, as the API spells them.
const (
	StatePending  = "pending"
	StateProgress = "progress"
	StateComplete = "complete"

	CodeFetchTimeout = "FETCH_TIMEOUT"
	CodeFetchError   = "FETCH_ERROR"
	CodeParseError   = "PARSE_ERROR"
)

// Codes of the problems in lastProcessedErrors.
const (
	ErrSyntax      = "INVALID_SYNTAX"
	ErrVersion     = "UNSUPPORTED_VERSION"
	ErrReference   = "BROKEN_REFERENCE"
	ErrDocument    = "INVALID_DOCUMENT"
	ErrCancelled   = "CANCELLED"
	ErrMoreOmitted = "MORE"
)

// Visibilities of a specification.
var Visibilities = []string{"private", "public"}

// slugPattern is the documented slug: letters (either case), digits and
// single dashes between them.
var slugPattern = regexp.MustCompile(`^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$`)

// Config configures fetching sources.
type Config struct {
	// FetchPrivate lets sources and the files they reference be fetched
	// from loopback, private and link-local addresses (off by default:
	// such addresses reach inside the server's network).
	FetchPrivate bool
	// FetchTimeout bounds fetching one file (DefaultFetchTimeout).
	FetchTimeout time.Duration
	// RequestFileBytes bounds the bytes of version files one request
	// reads (DefaultRequestFileBytes).
	RequestFileBytes int64
}

// Service implements the specification operations.
type Service struct {
	Client *ent.Client
	// Jobs enqueues processing jobs in the transaction of the write that
	// asks for them.
	Jobs jobs.Enqueuer
	// Signer signs the links to the files of private specifications.
	Signer *signedurl.Signer
	// PublicURL is the base of the URLs Quire serves files at, without a
	// trailing slash.
	PublicURL string
	Now       func() time.Time
	Log       *slog.Logger
	// OnNewVersion, when set, is told of each new version stored (after
	// its transaction): the search index of the pages computed from the
	// specification follows it.
	OnNewVersion func(ctx context.Context, orgID, slug string) error

	cfg   Config
	fetch *fetcher
}

// New returns a Service.
func New(client *ent.Client, enq jobs.Enqueuer, signer *signedurl.Signer, publicURL string, cfg Config, log *slog.Logger) *Service {
	if cfg.FetchTimeout <= 0 {
		cfg.FetchTimeout = DefaultFetchTimeout
	}
	if cfg.RequestFileBytes <= 0 {
		cfg.RequestFileBytes = DefaultRequestFileBytes
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{
		Client: client, Jobs: enq, Signer: signer, PublicURL: publicURL, Log: log,
		Now: func() time.Time { return time.Now().UTC() }, cfg: cfg, fetch: newFetcher(cfg),
	}
}

// Access is what the caller may do with an organization's specifications.
type Access struct {
	View, Edit bool
}

// access checks the caller's organization role: members with a role may
// view specifications; those with the create or admin role (who may
// change the organization's other shared resources, its sites) may change
// them. Others get NotFound, like an unknown organization.
func access(ctx context.Context, orgID string) (Access, error) {
	role, member, err := authz.OrgRole(ctx, orgID)
	if err != nil {
		return Access{}, err
	}
	if !member || role == authz.None {
		return Access{}, apierr.NotFoundf("No matching organization found for id %q", orgID)
	}
	return Access{View: true, Edit: role.AtLeast(types.RoleCreate)}, nil
}

// Permissions are the caller's permissions on a specification it may
// see.
func Permissions(ctx context.Context, sp *ent.OpenAPISpec) Access {
	a, err := access(ctx, sp.OrganizationID)
	if err != nil {
		return Access{}
	}
	return a
}

// CanEdit reports whether the caller may change the organization's
// specifications.
func CanEdit(ctx context.Context, orgID string) bool {
	a, err := access(ctx, orgID)
	return err == nil && a.Edit
}

func notFound(slug string) error {
	return apierr.NotFoundf("No matching OpenAPI specification found for slug %q", slug)
}
