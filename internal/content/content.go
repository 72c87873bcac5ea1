// Package content is the store and engine of space content: revisions
// (immutable snapshots of a space's pages, files and variables), change
// requests and their edits, the three-way merge of a change request into its
// space (and of the space into a change request), duplication and purge of
// a space's content, and link resolution.
//
// # Storage
//
// Nothing is copied to make a revision or a change request:
//
//   - A page version (ent PageVersion) is one immutable state of a page:
//     page id, parent page id, position key, type, title, slug, emoji,
//     description, hidden, layout, cover, variables, link title, icon,
//     indexing flags, meta links, link target or computed definition, the
//     hash of its document, and when the page's first version was written. Documents and file bytes live in content blobs
//     (ent ContentBlob), addressed by their SHA-256, so identical content is
//     stored once. A file version (ent FileVersion) is the same for files.
//   - A revision is a base revision plus entries (ent RevisionEntry): page or
//     file id → version id, or a tombstone. Every MaxChain deltas the next
//     revision is a snapshot (entries for every item, no base) instead, so
//     that the chain a read has to replay stays bounded. Revision.chain lists
//     the revisions to replay, the snapshot first.
//   - A change request is a row pointing at the space revision it started
//     from and at its head revision. Each edit adds a delta revision on top
//     of the head.
//
// Reading a revision costs one statement for the revision row, one for the
// entries of its chain, and one per 500 versions (plus one per 500 blobs
// when documents are needed).
//
// # Authorization
//
// The engine authorizes the caller of the context (a request's user, a
// job's user, or the system caller) on the space an operation names, with
// the levels the catalog computes: reading needs read, editing and creating
// change requests edit, merging review, and merges check the space's merge
// rules in their transaction. It also enforces the content rules: locked
// spaces refuse edits and merges, merged and archived change requests
// refuse edits. Reads of what belongs to an object the caller already got
// through an authorized call (a revision's pages and files) do not check
// again; nor does FileContent, which serves signed download links.
package content

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"quire/ent"
	"quire/ent/changerequest"
	"quire/ent/space"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/jobs"
	"quire/internal/types"
)

// Page types.
const (
	TypeDocument = "document"
	TypeGroup    = "group"
	TypeLink     = "link"
)

// Change request statuses.
const (
	StatusDraft    = "draft"
	StatusOpen     = "open"
	StatusArchived = "archived"
	StatusMerged   = "merged"
)

// Revision types.
const (
	RevisionInitial = "initial" // first revision of a duplicated space
	RevisionEdits   = "edits"   // an edit in a change request (and new spaces' empty revision)
	RevisionMerge   = "merge"   // a change request merged into its space
	RevisionUpdate  = "update"  // space content merged into a change request
)

// Entry kinds.
const (
	kindPage     = "page"
	kindFile     = "file"
	kindReusable = "reusable-content"
)

// Limits.
const (
	// MaxChain is how many delta revisions may follow a snapshot; the next
	// revision is written as a snapshot.
	MaxChain = 32
	// MaxSubject is the longest change request subject, in characters.
	MaxSubject = 100
	// MaxTitle is the longest page title, in characters.
	MaxTitle = 100
	// MaxDescription is the longest page description, in characters.
	MaxDescription = 1000
	// MaxEmoji is the longest emoji code.
	MaxEmoji = 50
	// MaxSlug is the longest page slug.
	MaxSlug = 100
	// MaxFileName is the longest file name.
	MaxFileName = 255
	// MaxFileSize is the largest file, in bytes.
	MaxFileSize = 50 << 20
	// chunk is the largest IN list or bulk insert the store sends.
	chunk = 500
)

// Service is the content engine.
type Service struct {
	Client *ent.Client
	// Now returns the current time; tests may replace it.
	Now func() time.Time
	// PublicURL is the server's public URL; links under PublicURL/app/ are
	// reported as in-app links.
	PublicURL string
	// Spaces tells who may see a space and what they may do with it.
	Spaces Spaces
	// Clusters checks the issues cluster a change request addresses
	// (internal/conversations); nil refuses every cluster.
	Clusters Clusters
	// Reviews checks the merge rules about reviews and knows who is asked
	// to review what; without it those rules are not enforced and no
	// change request asks anyone for a review.
	Reviews Reviews
	// Search keeps the search index of spaces' current content in step
	// (nil: no index is kept).
	Search Indexer
	// Events publishes what changes (nil: nothing is published).
	Events Publisher
	// OpenAPI tells which OpenAPI specifications exist, for references of
	// kind openapi. Without it they are taken to resolve.
	OpenAPI OpenAPISpecs

	// kept holds revisions and page documents read for published sites
	// (see KeptRevision): they never change once written.
	kept keptContent
}

// Clusters tells whether a change request of an organization may address
// an issues cluster: BadRequest on field when not.
type Clusters interface {
	CheckClusterLink(ctx context.Context, orgID, clusterID, field string) error
}

// checkCluster checks the cluster a change request of sp is to address.
func (s *Service) checkCluster(ctx context.Context, sp *ent.Space, clusterID string) error {
	if s.Clusters == nil {
		return apierr.Invalid("conversationsIssuesCluster", "conversationsIssuesCluster: no issues cluster %q", clusterID)
	}
	return s.Clusters.CheckClusterLink(ctx, sp.OrganizationID, clusterID, "conversationsIssuesCluster")
}

// New returns a Service over client that asks spaces who may see a space.
func New(client *ent.Client, publicURL string, spaces Spaces) *Service {
	return &Service{Client: client, Now: func() time.Time { return time.Now().UTC() }, PublicURL: publicURL, Spaces: spaces}
}

// The content engine is what the other engines call to carry content along
// with a space: the catalog's DuplicateContent (catalog.ContentDuplicator)
// and the trash sweep's PurgeSpace (jobs.SpacePurger). cmd/quire wires them.
var (
	_ catalog.ContentDuplicator = (*Service)(nil)
	_ jobs.SpacePurger          = (*Service)(nil)
)

// locked adds FOR NO KEY UPDATE on PostgreSQL. SQLite needs nothing: its
// write transactions (started IMMEDIATE) already serialize.
func locked(s *entsql.Selector) {
	if s.Dialect() == dialect.Postgres {
		s.For(entsql.LockNoKeyUpdate)
	}
}

// lockSpace reads a space row, locking it until the transaction ends.
func lockSpace(ctx context.Context, c *ent.Client, id string) (*ent.Space, error) {
	sp, err := c.Space.Query().Where(space.ID(id), locked).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apierr.NotFoundf("No matching space found for id %q", id)
	}
	if err != nil {
		return nil, fmt.Errorf("lock space: %w", err)
	}
	return sp, nil
}

// lockChangeRequest reads a change request row, locking it until the
// transaction ends.
func lockChangeRequest(ctx context.Context, c *ent.Client, id string) (*ent.ChangeRequest, error) {
	cr, err := c.ChangeRequest.Query().Where(changerequest.ID(id), locked).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apierr.NotFoundf("No matching change request found for id %q", id)
	}
	if err != nil {
		return nil, fmt.Errorf("lock change request: %w", err)
	}
	return cr, nil
}

// checkEditable refuses changes to the content of a locked or deleted space.
func checkEditable(sp *ent.Space, what string) error {
	if sp.EditMode == types.EditModeLocked {
		return apierr.Forbiddenf("The space is locked (editMode: locked): %s is not allowed until it is unlocked", what)
	}
	if sp.DeletedAt != nil {
		return apierr.New(apierr.PreconditionFailed, "The space is deleted: %s is not allowed", what)
	}
	return nil
}

func withTx(ctx context.Context, c *ent.Client, fn func(tx *ent.Tx) error) error {
	return catalog.WithTx(ctx, c, fn)
}
