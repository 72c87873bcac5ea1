package graph

import (
	"context"
	"quire/graph/connections"
	"strings"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/catalog"
	"quire/internal/document"
	"quire/internal/reviews"
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

// ReviewWant is what a reader shows of each review it reads; the REST
// door passes it literally.
type ReviewWant = reviews.Want

// EveryReviewPart is every part of reviews: what the REST door presents.
var EveryReviewPart = reviews.Everything

// reviewList reads a page of a change request's reviews as a connection,
// with what w asks of each.
func (r *Resolver) reviewList(ctx context.Context, cr *ent.ChangeRequest, outdated *bool, args catalog.PageArgs, w reviews.Want) (*model.ChangeRequestReviewConnection, error) {
	p, err := r.Reviews.View(ctx, cr, outdated, args, w)
	if err != nil {
		return nil, err
	}
	return connections.Of[model.ChangeRequestReviewConnection](p), nil
}

// ReviewListOf is a change request's reviews, with what w asks of each
// review read for the whole page.
func (r *Resolver) ReviewListOf(ctx context.Context, cr *ent.ChangeRequest, first *int, after *string, outdated *bool, w ReviewWant) (*model.ChangeRequestReviewConnection, error) {
	return r.reviewList(ctx, cr, outdated, pageArgs(first, after, nil, nil), w)
}

func (r *Resolver) requestedReviewers(ctx context.Context, cr *ent.ChangeRequest, args catalog.PageArgs) (*model.ChangeRequestRequestedReviewerConnection, error) {
	p, err := r.Reviews.ViewRequested(ctx, cr, args)
	if err != nil {
		return nil, err
	}
	return connections.Of[model.ChangeRequestRequestedReviewerConnection](p), nil
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
