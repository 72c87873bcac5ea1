// Package comments is the engine of discussions: comments on a space or on
// one of its change requests (optionally pointing at a page, a node of it
// or a table cell), their replies, emoji reactions on both, and who took
// part.
//
// # Authorization
//
// What a caller may do follows from its level on the space (see
// package authz): reading needs read, posting, replying, reacting and
// resolving need comment; authors edit and delete what they posted (while
// they may comment), and space admins delete anything. Who may not see the
// space gets NotFound for everything in it, exactly as for what does not
// exist. The decision is one function, permissionsFor, which the
// permissions objects of comments and replies come from too.
//
// # Counters
//
// A space's and a change request's comments field counts their open
// comments; a comment's replies field its replies. Each write that changes
// a count changes it in its own transaction, with the rows involved locked
// in a fixed order (space, change request, comment, reply) on PostgreSQL
// (SQLite serializes write transactions), so counts stay exact whatever
// runs at once. Repliers are counted from the replies themselves.
package comments

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"quire/ent"
	"quire/ent/changerequest"
	"quire/ent/comment"
	"quire/ent/commentreply"
	"quire/ent/space"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/db"
	"quire/internal/loaders"
	"quire/internal/types"
)

// Comment statuses.
const (
	StatusOpen     = "open"
	StatusResolved = "resolved"
)

// Limits of what a caller sends.
const (
	// MaxMarkdown is the largest Markdown body of a comment or reply, in
	// bytes (GitHub's limit on a comment's body is 65,536 characters).
	MaxMarkdown = 65_536
	// MaxBodyBytes is the largest body once stored: its document as JSON.
	MaxBodyBytes = 256 << 10
	// MaxReactionsPerRequest bounds addedReactions and removedReactions.
	MaxReactionsPerRequest = 20
	// MaxEmojiKinds is how many different emoji one comment or reply may
	// carry.
	MaxEmojiKinds = 20
	// MaxEmoji is the longest emoji, in bytes.
	MaxEmoji = 50
	// MaxTargetID is the longest node id, table record or definition.
	MaxTargetID = 128
	// MaxAuthors bounds the authors filter of a list.
	MaxAuthors = 100
)

// Spaces tells who may see a space and what they may do with it (the
// catalog).
type Spaces interface {
	// Space returns a space the caller may see (deleted ones included)
	// with the caller's level on it.
	// Errors: NotFound when the caller may not see it.
	Space(ctx context.Context, id string) (*ent.Space, types.Role, error)
}

// Content is what comments need of the content engine.
type Content interface {
	// ChangeRequest reads a change request by id, authorizing nothing.
	// Errors: NotFound.
	ChangeRequest(ctx context.Context, id string) (*ent.ChangeRequest, error)
	// HasPage reports whether a revision holds a page.
	HasPage(ctx context.Context, revisionID, pageID string) (bool, error)
}

// Event kinds, as Notifier sees them.
const (
	CommentPosted   = "comment.posted"
	CommentUpdated  = "comment.updated" // body or reactions
	CommentResolved = "comment.resolved"
	CommentReopened = "comment.reopened"
	CommentDeleted  = "comment.deleted"
	ReplyPosted     = "reply.posted"
	ReplyUpdated    = "reply.updated" // body or reactions
	ReplyDeleted    = "reply.deleted"
)

// Event is a change of a discussion.
type Event struct {
	Kind string
	// SpaceID is the space of the comment; ChangeRequestID its change
	// request, empty for a space's own comments.
	SpaceID         string
	ChangeRequestID string
	CommentID       string
	// ReplyID is set for the kinds about replies.
	ReplyID string
	// UserID is who made the change; empty for the system caller.
	UserID string
}

// Notifier hears of every change, inside the transaction that makes it: an
// error rolls the change back. It is where live updates plug in.
type Notifier interface {
	CommentChanged(ctx context.Context, tx *ent.Tx, ev Event) error
}

// Service is the comments engine.
type Service struct {
	Client  *ent.Client
	Spaces  Spaces
	Content Content
	// Notifier, when set, hears of every change.
	Notifier Notifier
	// Now returns the current time; tests may replace it.
	Now func() time.Time
}

// New returns a Service.
func New(client *ent.Client, spaces Spaces, content Content) *Service {
	return &Service{Client: client, Spaces: spaces, Content: content, Now: func() time.Time { return time.Now().UTC() }}
}

// Scope is where comments are: a space's own discussion, or a change
// request's.
type Scope struct {
	SpaceID string
	// ChangeRequestID is empty for the space's own comments.
	ChangeRequestID string
}

// SpaceScope is the space's own discussion.
func SpaceScope(spaceID string) Scope { return Scope{SpaceID: spaceID} }

// ChangeRequestScope is a change request's discussion.
func ChangeRequestScope(cr *ent.ChangeRequest) Scope {
	return Scope{SpaceID: cr.SpaceID, ChangeRequestID: cr.ID}
}

// scopeOf is the scope of a comment.
func scopeOf(c *ent.Comment) Scope {
	s := Scope{SpaceID: c.SpaceID}
	if c.ChangeRequestID != nil {
		s.ChangeRequestID = *c.ChangeRequestID
	}
	return s
}

// holds reports whether a comment is in the scope.
func (s Scope) holds(c *ent.Comment) bool { return scopeOf(c) == s }

// Permissions are what the caller may do with a comment or a reply.
type Permissions struct {
	View   bool `json:"view"`
	Edit   bool `json:"edit"`
	Reply  bool `json:"reply"`
	Delete bool `json:"delete"`
}

// permissionsFor decides what a caller with a level on the space may do
// with what author posted: read with read; reply, react and resolve with
// comment; edit what it posted while it may comment; delete that too, or
// anything as a space admin.
func permissionsFor(level types.Role, viewer, author string) Permissions {
	commenter := level.AtLeast(types.RoleComment)
	own := viewer != "" && viewer == author
	return Permissions{
		View:   level.AtLeast(types.RoleRead),
		Edit:   own && commenter,
		Reply:  commenter,
		Delete: own && commenter || level == types.RoleAdmin,
	}
}

// actor is the user the caller of ctx is; "" for the system caller.
func actor(ctx context.Context) string {
	if u := auth.Viewer(ctx); u != nil {
		return u.ID
	}
	return ""
}

// space returns a space the caller may see with its level.
// Errors: NotFound.
func (s *Service) space(ctx context.Context, id string) (*ent.Space, types.Role, error) {
	return s.Spaces.Space(ctx, id)
}

// scopeFor checks that the caller may see a scope and returns the
// caller's level. Writes (fresh) read the scope's change request and check
// that it is in the space (their scope comes from ids a caller sent);
// reads take a scope made of a change request the caller holds
// (ChangeRequestScope), and read nothing more than the space, so that the
// discussions of a list's change requests wait on one batch.
// Errors: NotFound.
func (s *Service) scopeFor(ctx context.Context, sc Scope, fresh bool) (*ent.Space, *ent.ChangeRequest, types.Role, error) {
	sp, level, err := s.space(ctx, sc.SpaceID)
	if err != nil {
		return nil, nil, "", err
	}
	if sc.ChangeRequestID == "" || !fresh {
		return sp, nil, level, nil
	}
	cr, err := s.Content.ChangeRequest(ctx, sc.ChangeRequestID)
	if err != nil || cr.SpaceID != sp.ID {
		return nil, nil, "", apierr.NotFoundf("No matching change request found for id %q", sc.ChangeRequestID)
	}
	return sp, cr, level, nil
}

// needComment refuses a caller who may not comment, and writes to a
// deleted space.
func needComment(sp *ent.Space, level types.Role) error {
	if !level.AtLeast(types.RoleComment) {
		return apierr.Forbiddenf("You need comment rights on this space")
	}
	return live(sp)
}

// live refuses writes to a space in the trash.
func live(sp *ent.Space) error {
	if sp.DeletedAt != nil {
		return apierr.New(apierr.PreconditionFailed, "The space is deleted: restore it to change its discussions")
	}
	return nil
}

// notify tells the notifier of a change, in the transaction.
func (s *Service) notify(ctx context.Context, tx *ent.Tx, ev Event) error {
	if s.Notifier == nil {
		return nil
	}
	ev.UserID = actor(ctx)
	if err := s.Notifier.CommentChanged(ctx, tx, ev); err != nil {
		return fmt.Errorf("notify %s: %w", ev.Kind, err)
	}
	return nil
}

func eventOf(kind string, c *ent.Comment) Event {
	sc := scopeOf(c)
	return Event{Kind: kind, SpaceID: sc.SpaceID, ChangeRequestID: sc.ChangeRequestID, CommentID: c.ID}
}

// locked adds FOR NO KEY UPDATE on PostgreSQL; SQLite's write
// transactions already serialize.
func locked(s *entsql.Selector) {
	if s.Dialect() == dialect.Postgres {
		s.For(entsql.LockNoKeyUpdate)
	}
}

// lockScope locks the row whose counter a comment's status changes: the
// space for its own comments, the change request for its comments. The
// space's updatedAt is returned, to be kept by the counter's update.
func lockScope(ctx context.Context, c *ent.Client, sc Scope) (*ent.Space, error) {
	if sc.ChangeRequestID != "" {
		if _, err := c.ChangeRequest.Query().Where(changerequest.ID(sc.ChangeRequestID), locked).Only(ctx); err != nil {
			return nil, notFoundOr(err, "change request", sc.ChangeRequestID)
		}
		return nil, nil
	}
	sp, err := c.Space.Query().Where(space.ID(sc.SpaceID), locked).Only(ctx)
	if err != nil {
		return nil, notFoundOr(err, "space", sc.SpaceID)
	}
	return sp, nil
}

// count adds delta to the open comments of a scope (locked by lockScope,
// which gave sp for a space).
func count(ctx context.Context, c *ent.Client, sc Scope, sp *ent.Space, delta int) error {
	if delta == 0 {
		return nil
	}
	if sc.ChangeRequestID != "" {
		if err := c.ChangeRequest.UpdateOneID(sc.ChangeRequestID).AddComments(delta).Exec(ctx); err != nil {
			return fmt.Errorf("count change request comments: %w", err)
		}
		return nil
	}
	// Keep updatedAt: a discussion does not change the space itself.
	if err := c.Space.UpdateOneID(sc.SpaceID).AddComments(delta).SetUpdatedAt(sp.UpdatedAt).Exec(ctx); err != nil {
		return fmt.Errorf("count space comments: %w", err)
	}
	return nil
}

// lockComment reads a comment, locked until the transaction ends.
func lockComment(ctx context.Context, c *ent.Client, id string) (*ent.Comment, error) {
	cm, err := c.Comment.Query().Where(comment.ID(id), locked).Only(ctx)
	if err != nil {
		return nil, notFoundOr(err, "comment", id)
	}
	return cm, nil
}

// lockReply reads a reply, locked until the transaction ends.
func lockReply(ctx context.Context, c *ent.Client, id string) (*ent.CommentReply, error) {
	r, err := c.CommentReply.Query().Where(commentreply.ID(id), locked).Only(ctx)
	if err != nil {
		return nil, notFoundOr(err, "comment reply", id)
	}
	return r, nil
}

func notFoundOr(err error, what, id string) error {
	if ent.IsNotFound(err) {
		return apierr.NotFoundf("No matching %s found for id %q", what, id)
	}
	return fmt.Errorf("load %s: %w", what, err)
}

func withTx(ctx context.Context, c *ent.Client, fn func(tx *ent.Tx) error) error {
	return db.WithTx(ctx, c, fn)
}

// forget drops comments, replies and change requests (their counts) from the request's caches after a
// write changed them, so that later reads in the request see the change.
func forget(ctx context.Context, ids ...string) {
	l := loaders.For(ctx).Comments
	for _, id := range ids {
		if id == "" {
			continue
		}
		l.CommentByID.Clear(ctx, id)
		l.ReplyByID.Clear(ctx, id)
		l.Body(id).Clear(ctx, id)
		l.Reactions(id).Clear(ctx, id)
		l.RepliesByComment.Clear(ctx, id)
		l.RepliersOf.Clear(ctx, id)
		l.ChangeRequestByID.Clear(ctx, id)
	}
}

// forgetScope drops a discussion's lists from the request's caches.
func forgetScope(ctx context.Context, sc Scope) {
	l := loaders.For(ctx).Comments
	key := loaders.ScopeKey(sc.SpaceID, sc.ChangeRequestID)
	l.ByScope.Clear(ctx, key)
	l.RepliesByScope.Clear(ctx, key)
}
