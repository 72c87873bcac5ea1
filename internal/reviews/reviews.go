// Package reviews is the engine of change request reviews: who is asked to
// review a change request, the reviews submitted (approved or
// changes-requested, optionally with a comment), and the merge rules about
// them, which the content engine has it check in the merge's transaction.
//
// # Rules
//
// Reading needs read rights on the space; submitting a review needs review
// rights (the space's review permission), and the change request's author
// may not approve their own; asking for reviews, and withdrawing a
// request, need edit rights (a user asked may also withdraw their own
// request). Only users with review rights on the space may be asked, and
// never the change request's author. A user's review answers (and removes)
// the request for it, and makes their earlier reviews outdated; asking a
// user again makes their reviews outdated too. Reviews of a change request
// serialize on its row (locked in each write's transaction, after the
// space when both are), so the merge, which locks it too, sees a settled
// set of reviews.
package reviews

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"quire/ent"
	"quire/ent/changerequest"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/comments"
	"quire/internal/content"
	"quire/internal/db"
	"quire/internal/loaders"
	"quire/internal/types"
)

// Review statuses.
const (
	StatusApproved         = "approved"
	StatusChangesRequested = "changes-requested"
)

// MaxUsers is how many users one request for reviews may name.
const MaxUsers = 50

// Spaces tells who may see a space and what they may do with it (the
// catalog).
type Spaces interface {
	// Space returns a space the caller may see with the caller's level.
	// Errors: NotFound.
	Space(ctx context.Context, id string) (*ent.Space, types.Role, error)
}

// Content is what reviews need of the content engine.
type Content interface {
	// ChangeRequest reads a change request, authorizing nothing.
	// Errors: NotFound.
	ChangeRequest(ctx context.Context, id string) (*ent.ChangeRequest, error)
	// UpdateChangeRequestIn changes a change request in the transaction of
	// another write, locking its space, then it.
	// Errors: NotFound, BadRequest.
	UpdateChangeRequestIn(ctx context.Context, tx *ent.Tx, id string, in content.UpdateChangeRequest) (*ent.ChangeRequest, error)
}

// Comments posts the comment a review comes with, in its transaction.
type Comments interface {
	PostReviewComment(ctx context.Context, tx *ent.Tx, cr *ent.ChangeRequest, reviewID string, b comments.Body, now time.Time) (*ent.Comment, error)
}

// Service is the reviews engine.
type Service struct {
	Client   *ent.Client
	Spaces   Spaces
	Content  Content
	Comments Comments
	// Now returns the current time; tests may replace it.
	Now func() time.Time
}

// New returns a Service.
func New(client *ent.Client, spaces Spaces, content Content, comments Comments) *Service {
	return &Service{Client: client, Spaces: spaces, Content: content, Comments: comments,
		Now: func() time.Time { return time.Now().UTC() }}
}

// The content engine has the merge rules about reviews checked here.
var _ content.Reviews = (*Service)(nil)

// changeRequest returns a change request, its space and the caller's level
// on it, for a caller who may see the space.
// Errors: NotFound.
func (s *Service) changeRequest(ctx context.Context, id string) (*ent.ChangeRequest, *ent.Space, types.Role, error) {
	cr, err := s.Content.ChangeRequest(ctx, id)
	if err != nil {
		return nil, nil, "", err
	}
	sp, level, err := s.Spaces.Space(ctx, cr.SpaceID)
	if apierr.CodeOf(err) == apierr.NotFound {
		return nil, nil, "", apierr.NotFoundf("No matching change request found for id %q", id)
	}
	if err != nil {
		return nil, nil, "", err
	}
	return cr, sp, level, nil
}

// readable checks that the caller may read the space of a change request
// it holds.
// Errors: NotFound.
func (s *Service) readable(ctx context.Context, cr *ent.ChangeRequest) error {
	if _, _, err := s.Spaces.Space(ctx, cr.SpaceID); err != nil {
		if apierr.CodeOf(err) == apierr.NotFound {
			return apierr.NotFoundf("No matching change request found for id %q", cr.ID)
		}
		return err
	}
	return nil
}

// forget drops a change request, its reviews and its requests from the
// request's caches after a write changed them.
func forget(ctx context.Context, crID string) {
	l := loaders.For(ctx).Comments
	l.ReviewsByChangeRequest.Clear(ctx, crID)
	l.RequestsByChangeRequest.Clear(ctx, crID)
	l.ChangeRequestByID.Clear(ctx, crID)
}

// mayReview is the one decision of who may review a space: review rights
// on it. It takes the level of whoever is concerned, the caller or a user
// asked for a review (access.Index.SpaceLevel).
func mayReview(level types.Role) bool { return level.AtLeast(types.RoleReview) }

// open refuses reviews and requests on a change request that is merged or
// archived, and on a space in the trash.
func open(cr *ent.ChangeRequest, sp *ent.Space, what string) error {
	switch cr.Status {
	case content.StatusMerged:
		return apierr.Invalid("status", "Change request #%d is merged: it cannot %s anymore", cr.Number, what)
	case content.StatusArchived:
		return apierr.Invalid("status", "Change request #%d is archived: reopen it to %s", cr.Number, what)
	}
	if sp != nil && sp.DeletedAt != nil {
		return apierr.New(apierr.PreconditionFailed, "The space is deleted: restore it to %s", what)
	}
	return nil
}

// actor is the user the caller of ctx is; "" for the system caller.
func actor(ctx context.Context) string {
	if u := auth.Viewer(ctx); u != nil {
		return u.ID
	}
	return ""
}

// lockChangeRequest reads a change request, locked until the transaction
// ends (FOR NO KEY UPDATE on PostgreSQL; SQLite's write transactions
// already serialize).
func lockChangeRequest(ctx context.Context, c *ent.Client, id string) (*ent.ChangeRequest, error) {
	cr, err := c.ChangeRequest.Query().Where(changerequest.ID(id), func(s *entsql.Selector) {
		if s.Dialect() == dialect.Postgres {
			s.For(entsql.LockNoKeyUpdate)
		}
	}).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apierr.NotFoundf("No matching change request found for id %q", id)
	}
	if err != nil {
		return nil, fmt.Errorf("lock change request: %w", err)
	}
	return cr, nil
}

func withTx(ctx context.Context, c *ent.Client, fn func(tx *ent.Tx) error) error {
	return db.WithTx(ctx, c, fn)
}
