package graph

import (
	"context"
	"fmt"
	"strings"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/catalog"
	"quire/internal/document"
	"quire/internal/loaders"
	"quire/internal/pagination"
	"quire/internal/types"
)

// reviewStatusOf is a review status as GraphQL spells it.
func reviewStatusOf(s string) model.ChangeRequestReviewStatus {
	return model.ChangeRequestReviewStatus(strings.ReplaceAll(s, "-", "_"))
}

// reviewStatusValue is a GraphQL review status as the engine spells it.
func reviewStatusValue(s model.ChangeRequestReviewStatus) string {
	return strings.ReplaceAll(string(s), "_", "-")
}

// ReviewStatusOf is a review status as the REST door takes it.
func ReviewStatusOf(s string) model.ChangeRequestReviewStatus { return reviewStatusOf(s) }

func reviewCursor(r *ent.ChangeRequestReview) pagination.Cursor {
	return pagination.Cursor{Key: r.CreatedAt.UTC().Format("2006-01-02T15:04:05.000000000Z"), ID: r.ID}
}

// requestCursor orders review requests as they were made: by time, then
// by their sequence (requests made at once share a time).
func requestCursor(r *ent.ChangeRequestReviewer) pagination.Cursor {
	return pagination.Cursor{Key: r.CreatedAt.UTC().Format("2006-01-02T15:04:05.000000000Z") + fmt.Sprintf("%020d", r.ID), ID: r.UserID}
}

func (r *Resolver) reviewList(ctx context.Context, cr *ent.ChangeRequest, outdated *bool, args catalog.PageArgs) (*model.ChangeRequestReviewConnection, error) {
	items, err := r.Reviews.Reviews(ctx, cr, outdated)
	if err != nil {
		return nil, err
	}
	p, err := catalog.Paginate(items, reviewCursor, args)
	if err != nil {
		return nil, err
	}
	c := &model.ChangeRequestReviewConnection{Nodes: p.Items, PageInfo: pageInfo(p), TotalCount: p.TotalCount,
		Edges: make([]*model.ChangeRequestReviewEdge, len(p.Items))}
	for i, n := range p.Items {
		c.Edges[i] = &model.ChangeRequestReviewEdge{Node: n, Cursor: p.Cursors[i]}
	}
	return c, nil
}

func (r *Resolver) requestedReviewers(ctx context.Context, cr *ent.ChangeRequest, args catalog.PageArgs) (*model.ChangeRequestRequestedReviewerConnection, error) {
	items, err := r.Reviews.Requested(ctx, cr)
	if err != nil {
		return nil, err
	}
	p, err := catalog.Paginate(items, requestCursor, args)
	if err != nil {
		return nil, err
	}
	c := &model.ChangeRequestRequestedReviewerConnection{Nodes: p.Items, PageInfo: pageInfo(p), TotalCount: p.TotalCount,
		Edges: make([]*model.ChangeRequestRequestedReviewerEdge, len(p.Items))}
	for i, n := range p.Items {
		c.Edges[i] = &model.ChangeRequestRequestedReviewerEdge{Node: n, Cursor: p.Cursors[i]}
	}
	return c, nil
}

// descriptionInput is a change request description given as JSON: nil
// (removing it) for null.
func descriptionInput(raw types.JSON) (*document.Document, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	return parseDocument("description", raw)
}

// markdownDescription is a change request description given as Markdown.
func markdownDescription(md string) (*document.Document, error) {
	d, err := document.FromMarkdown(md)
	if err != nil {
		return nil, markdownError("descriptionMarkdown", err)
	}
	return d, nil
}

func optOf(d *document.Document) catalog.Opt[*document.Document] { return catalog.Some(d) }

// WarmReviews loads what presenting a page of reviews reads of each (their
// users, and their comments with what those show) at once.
func (r *Resolver) WarmReviews(ctx context.Context, rs []*ent.ChangeRequestReview) {
	l := loaders.For(ctx)
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
	var cs []*ent.Comment
	if len(commentIDs) > 0 {
		found, _ := l.Comments.CommentByID.Fetch(ctx, commentIDs)
		for _, c := range found {
			if c != nil {
				cs = append(cs, c)
			}
		}
	}
	r.WarmComments(ctx, cs, nil)
	l.UserByID.Fetch(ctx, nonEmptyIDs(users))
}
