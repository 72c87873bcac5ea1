package reviews

import (
	"context"
	"fmt"

	"quire/ent"
	"quire/internal/catalog"
	"quire/internal/comments"
	"quire/internal/loaders"
	"quire/internal/pagination"
)

// Want says what a reader shows of each review it reads.
type Want struct {
	// Users: the reviewer and who asked for the review. Reading reviews
	// reads them already; Users keeps a caller that shows them from
	// depending on that.
	Users bool
	// Comment, when set, is what the reader shows of each review's
	// comment; nil when it shows no comment.
	Comment *comments.Want
}

// Everything is every part of reviews: what the REST door presents.
var Everything = Want{Users: true, Comment: &comments.Everything}

// ReviewCursor orders reviews as they were submitted.
func ReviewCursor(r *ent.ChangeRequestReview) pagination.Cursor {
	return pagination.Cursor{Key: r.CreatedAt.UTC().Format("2006-01-02T15:04:05.000000000Z"), ID: r.ID}
}

// RequestCursor orders review requests as they were made: by time, then
// by their sequence (requests made at once share a time).
func RequestCursor(r *ent.ChangeRequestReviewer) pagination.Cursor {
	return pagination.Cursor{Key: r.CreatedAt.UTC().Format("2006-01-02T15:04:05.000000000Z") + fmt.Sprintf("%020d", r.ID), ID: r.UserID}
}

// View reads a page of the reviews of a change request the caller may
// read (outdated as Reviews takes it), with what w asks of each, a kind at
// a time for the whole page.
// Errors: NotFound, BadRequest (page arguments).
func (s *Service) View(ctx context.Context, cr *ent.ChangeRequest, outdated *bool, args catalog.PageArgs, w Want) (pagination.Page[*ent.ChangeRequestReview], error) {
	items, err := s.Reviews(ctx, cr, outdated)
	if err != nil {
		return pagination.Page[*ent.ChangeRequestReview]{}, err
	}
	p, err := catalog.Paginate(items, ReviewCursor, args)
	if err != nil {
		return p, err
	}
	prepare(ctx, p.Items, w)
	return p, nil
}

// ViewRequested reads a page of who a change request the caller may read
// asks for a review, first asked first. Reading them reads their users
// and who asked.
// Errors: NotFound, BadRequest (page arguments).
func (s *Service) ViewRequested(ctx context.Context, cr *ent.ChangeRequest, args catalog.PageArgs) (pagination.Page[*ent.ChangeRequestReviewer], error) {
	items, err := s.Requested(ctx, cr)
	if err != nil {
		return pagination.Page[*ent.ChangeRequestReviewer]{}, err
	}
	return catalog.Paginate(items, RequestCursor, args)
}

// prepare reads what w asks of a page of reviews into the request's
// caches: their comments, with what those show, and their users.
func prepare(ctx context.Context, rs []*ent.ChangeRequestReview, w Want) {
	l := loaders.For(ctx)
	if l == nil || len(rs) == 0 {
		return
	}
	var users, commentIDs []string
	for _, rv := range rs {
		users = append(users, rv.Reviewer)
		if rv.RequestedBy != nil {
			users = append(users, *rv.RequestedBy)
		}
		if rv.CommentID != nil {
			commentIDs = append(commentIDs, *rv.CommentID)
		}
	}
	if w.Comment != nil && len(commentIDs) > 0 {
		// The comments themselves are needed to know what to read of
		// them: waited for, in a batch that the reviews of sibling
		// change requests share.
		found, _ := loaders.LoadAll(ctx, l.Comments.CommentByID, commentIDs)
		cs := make([]*ent.Comment, 0, len(found))
		for _, c := range found {
			if c != nil {
				cs = append(cs, c)
			}
		}
		comments.Prepare(ctx, cs, nil, *w.Comment)
	}
	if w.Users {
		l.UserByID.Ask(ctx, users)
	}
}
