package rest

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"quire/ent"
	"quire/graph"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/types"
)

func (a *API) reviewRoutes() []Route {
	const cr = changeRequestPath
	reviews, requested := a.reviews(), a.requestedReviewers()
	return []Route{
		route("GET", cr+"/reviews", "List the reviews of a change request", func(ctx context.Context, req *Request, in *ReviewListParams) (*ListPage[*ent.ChangeRequestReview], error) {
			_, c, err := a.changeRequest(ctx, req)
			if err != nil {
				return nil, err
			}
			conn, err := a.r.ReviewListOf(ctx, c, in.First(), in.After(), in.Outdated, graph.EveryReviewPart)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(reviews.List()),

		route("POST", cr+"/reviews", "Submit a review of a change request", func(ctx context.Context, req *Request, in *SubmitReviewBody) (*ent.ChangeRequestReview, error) {
			if _, err := formatOf(req); err != nil {
				return nil, err
			}
			_, c, err := a.changeRequest(ctx, req)
			if err != nil {
				return nil, err
			}
			sin := model.SubmitChangeRequestReviewInput{Status: graph.ReviewStatusOf(in.Status)}
			if in.Comment != nil {
				sin.Comment = graphql.OmittableOf(in.Comment.input())
			}
			return a.r.Mutation().SubmitChangeRequestReview(ctx, c.ID, sin)
		}).Present(reviews).Created().WithQuery(formatParam).Creating().Errors(412),

		route("GET", cr+"/reviews/{reviewId}", "Get a review of a change request", func(ctx context.Context, req *Request, _ *FormatParams) (*ent.ChangeRequestReview, error) {
			_, c, err := a.changeRequest(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.ChangeRequest().Review(ctx, c, req.Param("reviewId"))
		}).Present(reviews),

		route("GET", cr+"/requested-reviewers", "List who a change request asks for a review", func(ctx context.Context, req *Request, in *ListParams) (*ListPage[*ent.ChangeRequestReviewer], error) {
			_, c, err := a.changeRequest(ctx, req)
			if err != nil {
				return nil, err
			}
			conn, err := a.r.ChangeRequest().RequestedReviewers(ctx, c, in.First(), in.After(), nil, nil)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(requested.List()),

		route("POST", cr+"/requested-reviewers", "Ask users for a review of a change request", func(ctx context.Context, req *Request, in *RequestReviewersBody) (*model.RequestReviewersPayload, error) {
			_, c, err := a.changeRequest(ctx, req)
			if err != nil {
				return nil, err
			}
			rin := model.RequestReviewersInput{Users: in.Users, Subject: omittable(in.Subject)}
			if in.Description.IsSet() {
				var raw types.JSON
				if d, ok := in.Description.Get(); ok {
					raw = types.JSON(d.JSON)
				}
				rin.Description = graphql.OmittableOf(raw)
			}
			return a.r.Mutation().RequestReviewersForChangeRequest(ctx, c.ID, rin)
		}).Present(presents(func(ctx context.Context, p *model.RequestReviewersPayload) (*RequestedReviewers, error) {
			out := &RequestedReviewers{Users: make([]*RequestedReviewer, 0, len(p.Users))}
			for _, u := range p.Users {
				j, err := a.presentRequested(ctx, u)
				if err != nil {
					return nil, err
				}
				out.Users = append(out.Users, j)
			}
			return out, nil
		})).Errors(412),

		route("DELETE", cr+"/requested-reviewers/{userId}", "Withdraw the request that a user review a change request", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			_, c, err := a.changeRequest(ctx, req)
			if apierr.CodeOf(err) == apierr.NotFound {
				return &model.DeletePayload{ID: req.Param("userId")}, nil
			}
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().RemoveRequestedReviewerFromChangeRequest(ctx, c.ID, req.Param("userId"))
		}).Present(deleted),
	}
}
