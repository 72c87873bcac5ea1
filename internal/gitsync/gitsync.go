// Package gitsync imports a space's content from a Git repository and
// exports it to one, as durable background jobs.
//
// An import (KindImport) clones one branch of a repository (shallow, over
// HTTP(S), or from a local directory the operator allows), reads the
// project directory (repoProjectDirectory, then the root, readme and
// summary of its .gitbook.yaml), turns README.md into the first page and
// SUMMARY.md into the page tree (or, without one, the directory layout),
// Markdown into documents with relative links made references to pages and
// files, and images and attachments into files; then writes the whole tree
// as one revision (content.WriteTree), the space's current one or a
// standalone one. An export (KindExport) writes the space's current content
// as Markdown, a SUMMARY.md and its files, commits it on top of the
// branch's head and pushes it.
//
// The requests are answered at once: they are checked (rights, URL, ref,
// paths) and the job is enqueued in their transaction. Jobs act for the
// user who asked, report their progress per step, are retried after
// network failures and fail for good on what retrying cannot fix (a
// missing ref, refused credentials, content beyond the limits). A space
// keeps the latest timestamp of the operations applied to it: an operation
// with an older timestamp is skipped (the job completes saying so) unless
// forced. Credentials in URLs are used and never shown: they are taken out
// of every URL Quire stores or reports and of every job error.
//
// Repositories inside the server's network (loopback, private, link-local
// addresses) are refused unless the operator allows them
// (Config.AllowPrivate): in the request when the URL names one, and on
// every address a connection dials, so that names resolving inside and
// redirects there are refused too. Connections are bounded by Timeouts.
// A failure to talk to a repository's server is reported in a few words
// of Quire's own (remoteError), never in what the server or the network
// said.
package gitsync

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"syscall"
	"time"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/jobs"
	"quire/internal/types"
)

// Kinds of the jobs of this package.
const (
	KindImport = "git.import"
	KindExport = "git.export"
)

// Limits bound what one operation reads and writes.
type Limits struct {
	// PackBytes bounds the packed objects downloaded from a repository.
	PackBytes int64
	// ObjectBytes bounds one object (a file) of the repository, unpacked.
	ObjectBytes int64
	// TotalBytes bounds all objects of a download, unpacked.
	TotalBytes int64
	// Files bounds the files of the project directory.
	Files int
	// AttemptTimeout bounds one attempt of a job.
	AttemptTimeout time.Duration
}

// DefaultLimits are the limits of Quire's own jobs.
var DefaultLimits = Limits{
	PackBytes:      64 << 20,
	ObjectBytes:    20 << 20,
	TotalBytes:     256 << 20,
	Files:          10_000,
	AttemptTimeout: 10 * time.Minute,
}

// Config configures the Git sync engine.
type Config struct {
	// FileRoots are the directories whose repositories may be named with
	// file:// URLs (and their subdirectories). Empty: file:// URLs are
	// refused.
	FileRoots []string
	// Limits of each operation; zero fields take DefaultLimits.
	Limits Limits
	// CommitterName and CommitterEmail sign the commits of exports
	// (default Quire, quire@localhost). The author is the user who asked.
	CommitterName, CommitterEmail string
	// AllowPrivate lets repositories be reached at loopback, private,
	// link-local and other addresses inside the server's network (off by
	// default: a user could otherwise reach internal services through
	// Quire). The check runs on every address connected to, so names that
	// resolve inside and redirects there are refused too.
	AllowPrivate bool
	// Timeouts of each connection to a repository; zero fields take
	// DefaultTimeouts.
	Timeouts Timeouts
	// Log receives what goes wrong in jobs (nil: discarded).
	Log *slog.Logger
}

// Timeouts bound the steps of a connection to a repository, so that a
// server that does not answer fails the attempt instead of holding it.
type Timeouts struct {
	// Connect bounds connecting (name resolution included), and then the
	// TLS handshake.
	Connect time.Duration
	// Answer bounds the wait for the headers of the answer to a request
	// sent.
	Answer time.Duration
	// Idle bounds a silence of the server while Quire waits to read from
	// it, or to write to it.
	Idle time.Duration
}

// DefaultTimeouts are the timeouts of Quire's own jobs.
var DefaultTimeouts = Timeouts{Connect: 15 * time.Second, Answer: time.Minute, Idle: time.Minute}

func (c *Config) defaults() {
	d := DefaultLimits
	if c.Limits.PackBytes <= 0 {
		c.Limits.PackBytes = d.PackBytes
	}
	if c.Limits.ObjectBytes <= 0 {
		c.Limits.ObjectBytes = d.ObjectBytes
	}
	if c.Limits.TotalBytes <= 0 {
		c.Limits.TotalBytes = d.TotalBytes
	}
	if c.Limits.Files <= 0 {
		c.Limits.Files = d.Files
	}
	if c.Limits.AttemptTimeout <= 0 {
		c.Limits.AttemptTimeout = d.AttemptTimeout
	}
	if c.Timeouts.Connect <= 0 {
		c.Timeouts.Connect = DefaultTimeouts.Connect
	}
	if c.Timeouts.Answer <= 0 {
		c.Timeouts.Answer = DefaultTimeouts.Answer
	}
	if c.Timeouts.Idle <= 0 {
		c.Timeouts.Idle = DefaultTimeouts.Idle
	}
	if c.CommitterName == "" {
		c.CommitterName = "Quire"
	}
	if c.CommitterEmail == "" {
		c.CommitterEmail = "quire@localhost"
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
}

// Service is the Git sync engine.
type Service struct {
	client  *ent.Client
	content *content.Service
	jobs    jobs.Enqueuer
	cfg     Config
	// Now returns the current time; tests may replace it.
	Now func() time.Time
	// dialControl, when set, replaces netpolicy.Control as the check of
	// each address dialled while private addresses are refused: tests
	// let one server on loopback stand for a public one with it.
	dialControl func(network, address string, c syscall.RawConn) error
}

// New returns the engine over client, writing through contents and
// enqueuing its jobs with enqueuer.
func New(client *ent.Client, contents *content.Service, enqueuer jobs.Enqueuer, cfg Config) *Service {
	cfg.defaults()
	return &Service{client: client, content: contents, jobs: enqueuer, cfg: cfg, Now: func() time.Time { return time.Now().UTC() }}
}

// GitInfo is what a request may say about the Git provider.
type GitInfo struct {
	// Provider is github or gitlab.
	Provider string `json:"provider,omitempty"`
	// URL is the repository's tree URL.
	URL string `json:"url,omitempty"`
}

// Request is an import or an export. Export needs CommitMessage; only an
// import may be Standalone.
type Request struct {
	// URL is the repository's URL; it may carry basic-auth credentials.
	URL string
	// Ref is refs/heads/<branch>.
	Ref string
	// ProjectDirectory is the directory of the repository the content
	// lives in ("" for the root).
	ProjectDirectory string
	// RepoTreeURL and RepoCommitURL are prefixes of URLs to files and
	// commits at the provider.
	RepoTreeURL, RepoCommitURL string
	// RepoCacheID is accepted for compatibility; Quire keeps no clone
	// between operations.
	RepoCacheID string
	// Timestamp is when the event that asked for the operation happened.
	Timestamp *time.Time
	// Force applies the operation even when a later one was applied.
	Force bool
	// Standalone imports into a revision of its own, leaving the space's
	// content as it is.
	Standalone bool
	// CommitMessage is the message of an export's commit.
	CommitMessage string
	GitInfo       *GitInfo
}

// args are a job's arguments. URL keeps its credentials: the job needs
// them, and they stay in the queue's row until the queue forgets it.
type args struct {
	Space            string     `json:"space"`
	User             string     `json:"user"`
	URL              string     `json:"url"`
	Ref              string     `json:"ref"`
	ProjectDirectory string     `json:"projectDirectory,omitempty"`
	RepoTreeURL      string     `json:"repoTreeURL,omitempty"`
	RepoCommitURL    string     `json:"repoCommitURL,omitempty"`
	Timestamp        *time.Time `json:"timestamp,omitempty"`
	Force            bool       `json:"force,omitempty"`
	Standalone       bool       `json:"standalone,omitempty"`
	CommitMessage    string     `json:"commitMessage,omitempty"`
	GitInfo          *GitInfo   `json:"gitInfo,omitempty"`
}

// Subject is the subject of a space's Git jobs ("git-sync:<space id>").
func Subject(spaceID string) string { return "git-sync:" + spaceID }

// Import checks an import of a repository into a space and enqueues it;
// it returns the job's id. The caller needs edit rights on the space,
// which must not be locked.
// Errors: NotFound (space), Forbidden, BadRequest (the field at fault:
// url, ref, repoProjectDirectory, ...), PreconditionFailed (the space is
// deleted).
func (s *Service) Import(ctx context.Context, spaceID string, req Request) (string, error) {
	return s.enqueue(ctx, spaceID, KindImport, req)
}

// Export checks an export of a space's content to a repository and
// enqueues it; it returns the job's id. The caller needs edit rights on
// the space.
// Errors: those of Import.
func (s *Service) Export(ctx context.Context, spaceID string, req Request) (string, error) {
	return s.enqueue(ctx, spaceID, KindExport, req)
}

func (s *Service) enqueue(ctx context.Context, spaceID, kind string, req Request) (string, error) {
	sp, err := s.content.SpaceFor(ctx, spaceID, types.RoleEdit)
	if err != nil {
		return "", err
	}
	if sp.DeletedAt != nil {
		return "", apierr.New(apierr.PreconditionFailed, "The space is deleted: it cannot sync with Git")
	}
	if kind == KindImport && sp.EditMode == types.EditModeLocked {
		return "", apierr.Forbiddenf("The space is locked (editMode: locked): importing content is not allowed until it is unlocked")
	}
	a, err := s.check(kind, req)
	if err != nil {
		return "", err
	}
	a.Space = spaceID
	if u := viewer(ctx); u != nil {
		a.User = u.ID
	}
	var id string
	err = catalog.WithTx(ctx, s.client, func(tx *ent.Tx) error {
		var err error
		id, err = s.jobs.Enqueue(ctx, tx, jobs.Request{
			Kind: kind, Args: a, Organization: sp.OrganizationID, Space: sp.ID,
			Subject: Subject(sp.ID), CreatedBy: a.User,
		})
		return err
	})
	if err != nil {
		return "", fmt.Errorf("enqueue %s: %w", kind, err)
	}
	return id, nil
}

// check validates a request into a job's arguments.
func (s *Service) check(kind string, req Request) (*args, error) {
	r, err := parseRemote(req.URL, s.cfg.FileRoots)
	if err != nil {
		return nil, err
	}
	if err := checkDestination(r, s.cfg.AllowPrivate); err != nil {
		return nil, err
	}
	if err := checkRef(req.Ref); err != nil {
		return nil, err
	}
	dir, err := cleanDir("repoProjectDirectory", req.ProjectDirectory)
	if err != nil {
		return nil, err
	}
	for _, f := range []struct{ name, v string }{{"repoTreeURL", req.RepoTreeURL}, {"repoCommitURL", req.RepoCommitURL}} {
		if err := checkWebURL(f.name, f.v); err != nil {
			return nil, err
		}
	}
	if err := checkLength("repoCacheID", req.RepoCacheID, maxURL); err != nil {
		return nil, err
	}
	// Credentials have no business in the URLs Quire shows: taken out.
	a := &args{URL: r.raw, Ref: req.Ref, ProjectDirectory: dir, RepoTreeURL: displayURL(req.RepoTreeURL),
		RepoCommitURL: displayURL(req.RepoCommitURL), Timestamp: req.Timestamp, Force: req.Force}
	if gi := req.GitInfo; gi != nil {
		if gi.Provider != "" && gi.Provider != "github" && gi.Provider != "gitlab" {
			return nil, apierr.Invalid("gitInfo.provider", "gitInfo.provider must be github or gitlab")
		}
		if err := checkWebURL("gitInfo.url", gi.URL); err != nil {
			return nil, err
		}
		a.GitInfo = &GitInfo{Provider: gi.Provider, URL: displayURL(gi.URL)}
	}
	switch kind {
	case KindImport:
		a.Standalone = req.Standalone
	case KindExport:
		msg := strings.TrimSpace(req.CommitMessage)
		if msg == "" {
			return nil, apierr.Invalid("commitMessage", "commitMessage is required")
		}
		if err := checkLength("commitMessage", req.CommitMessage, maxMessage); err != nil {
			return nil, err
		}
		a.CommitMessage = req.CommitMessage
	}
	return a, nil
}

// Info returns the Git sync state of a space the caller may read.
// Errors: NotFound (the space, or no Git provider is set up on it).
func (s *Service) Info(ctx context.Context, spaceID string) (*types.GitSync, error) {
	sp, err := s.content.SpaceFor(ctx, spaceID, types.RoleRead)
	if err != nil {
		return nil, err
	}
	gs := State(sp)
	if gs == nil {
		return nil, apierr.NotFoundf("No Git provider is set up on space %q", spaceID)
	}
	return gs, nil
}

// State is the Git sync state a space shows: nil when no Git provider is
// set up on it.
func State(sp *ent.Space) *types.GitSync {
	if sp == nil || sp.GitSync == nil || !sp.GitSync.Installed {
		return nil
	}
	return sp.GitSync
}

// RemoveInstallation removes the Git provider set up on a space (what
// Info shows, and the order of past operations), so that another can be
// set up. It reports whether there was one. The caller needs admin rights
// on the space.
// Errors: NotFound (space), Forbidden.
func (s *Service) RemoveInstallation(ctx context.Context, spaceID string) (bool, error) {
	if _, err := s.content.SpaceFor(ctx, spaceID, types.RoleAdmin); err != nil {
		return false, err
	}
	removed := false
	err := catalog.WithTx(ctx, s.client, func(tx *ent.Tx) error {
		removed = false
		sp, err := lockSpace(ctx, tx.Client(), spaceID)
		if err != nil {
			return err
		}
		if State(sp) == nil {
			return nil
		}
		removed = true
		return tx.Space.UpdateOneID(spaceID).ClearGitSync().Exec(ctx)
	})
	return removed, err
}

// displayURL is a URL without its credentials.
func displayURL(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	u.User = nil
	return u.String()
}
