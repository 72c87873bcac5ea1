package rest

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"quire/ent"
	"quire/graph"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/nonempty"
	"quire/internal/types"
)

// discussion is where the comments of a route are: a space's own
// discussion, or a change request's.
type discussion struct {
	// base is the path of the comments.
	base string
	// cr tells a change request's discussion.
	cr bool
	// of is how summaries name the discussion.
	of string
}

var discussions = []discussion{
	{base: "/spaces/{spaceId}/comments", of: "a space"},
	{base: changeRequestPath + "/comments", cr: true, of: "a change request"},
}

func (a *API) commentRoutes() []Route {
	var out []Route
	for _, d := range discussions {
		out = append(out, a.discussionRoutes(d)...)
	}
	members := a.commenters()
	return append(out,
		route("GET", "/spaces/{spaceId}/commenters", "List the members who took part in a space's discussion", func(ctx context.Context, req *Request, in *ListParams) (*ListPage[*ent.Member], error) {
			sp, err := a.r.Query().Space(ctx, req.Param("spaceId"), nil)
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Space().Commenters(ctx, sp, in.First(), in.After(), nil, nil)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(members.List()),

		route("GET", changeRequestPath+"/commenters", "List the members who took part in a change request's discussion", func(ctx context.Context, req *Request, in *ListParams) (*ListPage[*ent.Member], error) {
			_, cr, err := a.changeRequest(ctx, req)
			if err != nil {
				return nil, err
			}
			conn, err := a.r.ChangeRequest().Commenters(ctx, cr, in.First(), in.After(), nil, nil)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(members.List()),
	)
}

// discussionRoutes are the routes of the comments and replies of a
// discussion.
func (a *API) discussionRoutes(d discussion) []Route {
	cs, rs := a.comments(), a.replies()
	c, r := d.base+"/{commentId}", d.base+"/{commentId}/replies"
	routes := []Route{
		route("GET", d.base, "List the comments of "+d.of, func(ctx context.Context, req *Request, in *CommentListParams) (*ListPage[*ent.Comment], error) {
			sp, cr, err := a.discussion(ctx, req, d)
			if err != nil {
				return nil, err
			}
			var order *model.ListOrder
			if in.Order != "" {
				o := model.ListOrder(in.Order)
				order = &o
			}
			var status *model.CommentStatusFilter
			if in.Status != "" {
				s := model.CommentStatusFilter(in.Status)
				status = &s
			}
			conn, err := a.r.CommentListOf(ctx, sp, cr, in.First(), in.After(), order, status, nonempty.String(in.TargetPage), in.Authors, graph.EveryCommentPart)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(cs.List()),

		route("POST", d.base, "Post a comment in "+d.of, func(ctx context.Context, req *Request, in *PostCommentBody) (*ent.Comment, error) {
			if _, err := formatOf(req); err != nil {
				return nil, err
			}
			sp, cr, err := a.discussion(ctx, req, d)
			if err != nil {
				return nil, err
			}
			pin := model.PostCommentInput{Space: sp.ID, Body: in.Body.input(), Page: omittable(in.Page), Node: omittable(in.Node)}
			if cr != nil {
				pin.ChangeRequest = graphql.OmittableOf(&cr.ID)
			}
			if tc := in.TableCell; tc != nil {
				pin.TableCell = graphql.OmittableOf(&model.TableCellInput{Record: tc.Record, Definition: tc.Definition})
			}
			return a.r.Mutation().PostComment(ctx, pin)
		}).Present(cs).WithQuery(formatParam).Creating().Errors(412),

		route("GET", c, "Get a comment of "+d.of, func(ctx context.Context, req *Request, _ *FormatParams) (*ent.Comment, error) {
			_, cm, err := a.comment(ctx, req, d)
			return cm, err
		}).Present(cs),

		route("PUT", c, "Update a comment of "+d.of+": its body, whether it is resolved, the caller's reactions", func(ctx context.Context, req *Request, in *UpdateCommentBody) (*ent.Comment, error) {
			if _, err := formatOf(req); err != nil {
				return nil, err
			}
			_, cm, err := a.comment(ctx, req, d)
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().UpdateComment(ctx, cm.ID, in.input())
		}).Present(cs).WithQuery(formatParam).Errors(412),

		route("DELETE", c, "Delete a comment of "+d.of+" with its replies", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			_, cm, err := a.comment(ctx, req, d)
			if apierr.CodeOf(err) == apierr.NotFound {
				return &model.DeletePayload{ID: req.Param("commentId")}, nil
			}
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().DeleteComment(ctx, cm.ID)
		}).Present(deleted).Errors(412),

		route("GET", r, "List the replies to a comment of "+d.of, func(ctx context.Context, req *Request, in *ReplyListParams) (*ListPage[*ent.CommentReply], error) {
			_, cm, err := a.comment(ctx, req, d)
			if err != nil {
				return nil, err
			}
			conn, err := a.r.ReplyListOf(ctx, cm, in.First(), in.After(), graph.EveryCommentPart)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(rs.List()),

		route("POST", r, "Reply to a comment of "+d.of, func(ctx context.Context, req *Request, in *PostReplyBody) (*ent.CommentReply, error) {
			if _, err := formatOf(req); err != nil {
				return nil, err
			}
			_, cm, err := a.comment(ctx, req, d)
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().PostCommentReply(ctx, cm.ID, *in.Body.input())
		}).Present(rs).WithQuery(formatParam).Creating().Errors(412),

		route("GET", r+"/{commentReplyId}", "Get a reply to a comment of "+d.of, func(ctx context.Context, req *Request, _ *FormatParams) (*ent.CommentReply, error) {
			_, rp, err := a.reply(ctx, req, d)
			return rp, err
		}).Present(rs),

		route("DELETE", r+"/{commentReplyId}", "Delete a reply to a comment of "+d.of, func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			_, rp, err := a.reply(ctx, req, d)
			if apierr.CodeOf(err) == apierr.NotFound {
				return &model.DeletePayload{ID: req.Param("commentReplyId")}, nil
			}
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().DeleteCommentReply(ctx, rp.ID)
		}).Present(deleted).Errors(412),
	}
	// A change request's replies take the comment's update body (whose
	// resolved resolves the comment replied to); a space's their own.
	if d.cr {
		routes = append(routes, route("PUT", r+"/{commentReplyId}", "Update a reply to a comment of "+d.of+": its body, the caller's reactions, whether the comment is resolved", func(ctx context.Context, req *Request, in *UpdateCommentBody) (*ent.CommentReply, error) {
			return a.updateReply(ctx, req, d, in.replyInput())
		}).Present(rs).WithQuery(formatParam).Errors(412))
	} else {
		routes = append(routes, route("PUT", r+"/{commentReplyId}", "Update a reply to a comment of "+d.of+": its body, the caller's reactions", func(ctx context.Context, req *Request, in *UpdateReplyBody) (*ent.CommentReply, error) {
			return a.updateReply(ctx, req, d, in.input())
		}).Present(rs).WithQuery(formatParam).Errors(412))
	}
	return routes
}

func (a *API) updateReply(ctx context.Context, req *Request, d discussion, in model.UpdateCommentReplyInput) (*ent.CommentReply, error) {
	if _, err := formatOf(req); err != nil {
		return nil, err
	}
	_, rp, err := a.reply(ctx, req, d)
	if err != nil {
		return nil, err
	}
	return a.r.Mutation().UpdateCommentReply(ctx, rp.ID, in)
}

// discussion resolves the path's space, and its change request for a
// change request's discussion.
func (a *API) discussion(ctx context.Context, req *Request, d discussion) (*ent.Space, *ent.ChangeRequest, error) {
	if d.cr {
		return a.changeRequest(ctx, req)
	}
	sp, err := a.r.Query().Space(ctx, req.Param("spaceId"), nil)
	return sp, nil, err
}

// comment resolves the path's comment, in the path's discussion.
func (a *API) comment(ctx context.Context, req *Request, d discussion) (*ent.Space, *ent.Comment, error) {
	sp, cr, err := a.discussion(ctx, req, d)
	if err != nil {
		return nil, nil, err
	}
	id := req.Param("commentId")
	var cm *ent.Comment
	if cr != nil {
		cm, err = a.r.ChangeRequest().Comment(ctx, cr, id)
	} else {
		cm, err = a.r.Space().Comment(ctx, sp, id)
	}
	return sp, cm, err
}

// reply resolves the path's reply, of the path's comment.
func (a *API) reply(ctx context.Context, req *Request, d discussion) (*ent.Comment, *ent.CommentReply, error) {
	_, cm, err := a.comment(ctx, req, d)
	if err != nil {
		return nil, nil, err
	}
	rp, err := a.r.Comment().Reply(ctx, cm, req.Param("commentReplyId"))
	return cm, rp, err
}

// input is the body as the resolvers take it.
func (b *DocumentBody) input() *model.CommentBodyInput {
	in := &model.CommentBodyInput{}
	if b == nil {
		return in
	}
	if b.Markdown != nil {
		in.Markdown = graphql.OmittableOf(b.Markdown)
	}
	if b.Document != nil {
		in.Document = graphql.OmittableOf(types.JSON(b.Document.JSON))
	}
	return in
}

func (b *UpdateCommentBody) input() model.UpdateCommentInput {
	in := model.UpdateCommentInput{Resolved: omittable(b.Resolved)}
	if b.Body != nil {
		in.Body = graphql.OmittableOf(b.Body.input())
	}
	if b.AddedReactions != nil {
		in.AddedReactions = graphql.OmittableOf(b.AddedReactions)
	}
	if b.RemovedReactions != nil {
		in.RemovedReactions = graphql.OmittableOf(b.RemovedReactions)
	}
	return in
}

func (b *UpdateCommentBody) replyInput() model.UpdateCommentReplyInput {
	return model.UpdateCommentReplyInput(b.input())
}

func (b *UpdateReplyBody) input() model.UpdateCommentReplyInput {
	c := (&UpdateCommentBody{Body: b.Body, AddedReactions: b.AddedReactions, RemovedReactions: b.RemovedReactions}).input()
	return model.UpdateCommentReplyInput{Body: c.Body, AddedReactions: c.AddedReactions, RemovedReactions: c.RemovedReactions}
}

// omittable is an optional body field as a GraphQL input field.
func omittable[T any](v *T) graphql.Omittable[*T] {
	if v == nil {
		return graphql.Omittable[*T]{}
	}
	return graphql.OmittableOf(v)
}
