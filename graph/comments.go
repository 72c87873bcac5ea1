package graph

import (
	"context"
	"quire/graph/connections"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/comments"
	"quire/internal/loaders"
)

// The REST door presents discussions with these names of the engine's
// types (rest/ imports no engine).
type (
	// CommentBody is a comment's or reply's body as a caller sends it.
	CommentBody = comments.Body
	// CommentPermissions are the caller's permissions on a comment.
	CommentPermissions = comments.Permissions
	// Reaction is an emoji with who reacted with it.
	Reaction = comments.Reaction
	// CommentReplier is a user who replied to a comment.
	CommentReplier = comments.Replier
)

// bodyInput is a GraphQL body as the engine takes it; a null document is
// no document.
func bodyInput(in *model.CommentBodyInput) comments.Body {
	var b comments.Body
	if in == nil {
		return b
	}
	b.Markdown = value(in.Markdown)
	if raw := in.Document.Value(); len(raw) > 0 && string(raw) != "null" {
		b.Document = raw
	}
	return b
}

func commentFilter(order *model.ListOrder, status *model.CommentStatusFilter, targetPage *string, authors []string) comments.Filter {
	f := comments.Filter{Authors: authors}
	if order != nil {
		f.Order = string(*order)
	}
	if status != nil {
		f.Status = string(*status)
	}
	if targetPage != nil {
		f.TargetPage = *targetPage
	}
	return f
}

// CommentWant is what a reader shows of each comment and reply of a
// discussion it reads; the REST door passes it literally.
type CommentWant = comments.Want

// EveryCommentPart is every part of comments and replies: what the REST
// door presents.
var EveryCommentPart = comments.Everything

// commentList reads a page of a scope's comments as a connection, with
// what w asks of each.
func (r *Resolver) commentList(ctx context.Context, sc comments.Scope, f comments.Filter, args catalog.PageArgs, w comments.Want) (*model.CommentConnection, error) {
	p, err := r.Comments.View(ctx, sc, f, args, w)
	if err != nil {
		return nil, err
	}
	return connections.Of[model.CommentConnection](p), nil
}

// CommentListOf is the commentList of a change request, or of a space when
// cr is nil, with what w asks of each comment read for the whole page.
func (r *Resolver) CommentListOf(ctx context.Context, sp *ent.Space, cr *ent.ChangeRequest, first *int, after *string, order *model.ListOrder, status *model.CommentStatusFilter, targetPage *string, authors []string, w CommentWant) (*model.CommentConnection, error) {
	sc := comments.SpaceScope(sp.ID)
	if cr != nil {
		sc = comments.ChangeRequestScope(cr)
	}
	return r.commentList(ctx, sc, commentFilter(order, status, targetPage, authors), pageArgs(first, after, nil, nil), w)
}

// replyList reads a page of a comment's replies as a connection, with what
// w asks of each.
func (r *Resolver) replyList(ctx context.Context, cm *ent.Comment, args catalog.PageArgs, w comments.Want) (*model.CommentReplyConnection, error) {
	p, err := r.Comments.ViewReplies(ctx, cm, args, w)
	if err != nil {
		return nil, err
	}
	return connections.Of[model.CommentReplyConnection](p), nil
}

// ReplyListOf is a comment's replyList, with what w asks of each reply
// read for the whole page.
func (r *Resolver) ReplyListOf(ctx context.Context, cm *ent.Comment, first *int, after *string, w CommentWant) (*model.CommentReplyConnection, error) {
	return r.replyList(ctx, cm, pageArgs(first, after, nil, nil), w)
}

// commenters lists who took part in a scope's discussion as members.
func (r *Resolver) commenters(ctx context.Context, sc comments.Scope, args catalog.PageArgs) (*model.MemberConnection, error) {
	p, err := r.Comments.ViewCommenters(ctx, sc, args)
	if err != nil {
		return nil, err
	}
	c := &model.MemberConnection{PageInfo: connections.PageInfo(p), TotalCount: p.TotalCount,
		Nodes: make([]*ent.Member, len(p.Items)), Edges: make([]*model.MemberEdge, len(p.Items))}
	for i, n := range p.Items {
		c.Nodes[i] = n.Member
		c.Edges[i] = &model.MemberEdge{Node: n.Member, Cursor: p.Cursors[i]}
	}
	return c, nil
}

// userOrNil is a user by id through the request's loaders; nil for no id
// and for a user that no longer exists.
func userOrNil(ctx context.Context, id *string) (*ent.User, error) {
	if id == nil || *id == "" {
		return nil, nil
	}
	u, err := loaders.For(ctx).UserByID.Load(ctx, *id)()
	if apierr.CodeOf(err) == apierr.NotFound {
		return nil, nil
	}
	return u, err
}

// commentLocation is a comment's REST location.
func (r *Resolver) commentLocation(c *ent.Comment) string {
	if c.ChangeRequestID != nil {
		return r.apiURL("spaces", c.SpaceID, "change-requests", *c.ChangeRequestID, "comments", c.ID)
	}
	return r.apiURL("spaces", c.SpaceID, "comments", c.ID)
}

// replyLocation is a reply's REST location.
func (r *Resolver) replyLocation(rp *ent.CommentReply) string {
	if rp.ChangeRequestID != nil {
		return r.apiURL("spaces", rp.SpaceID, "change-requests", *rp.ChangeRequestID, "comments", rp.CommentID, "replies", rp.ID)
	}
	return r.apiURL("spaces", rp.SpaceID, "comments", rp.CommentID, "replies", rp.ID)
}

// commentTarget is what a comment is about.
func commentTarget(c *ent.Comment) *model.CommentTarget {
	t := &model.CommentTarget{Space: c.SpaceID, Revision: c.RevisionID, ChangeRequest: c.ChangeRequestID, Review: c.ReviewID}
	if c.PageID != nil {
		t.Page = &model.CommentTargetPage{ID: *c.PageID}
	}
	if c.NodeID != nil {
		t.Node = &model.CommentTargetNode{ID: *c.NodeID}
	}
	if c.TableRecord != nil && c.TableDefinition != nil {
		t.TableCell = &model.CommentTableCell{Record: *c.TableRecord, Definition: *c.TableDefinition}
	}
	return t
}

// deleted is the payload of a delete.
func deleted(id string, ok bool, err error) (*model.DeletePayload, error) {
	if err != nil {
		return nil, err
	}
	return &model.DeletePayload{ID: id, Deleted: ok}, nil
}

// reactionsOf are the reactions on a comment or reply.
func reactionsOf(ctx context.Context, id string) ([]*comments.Reaction, error) {
	list, err := comments.Reactions(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make([]*comments.Reaction, len(list))
	for i := range list {
		out[i] = &list[i]
	}
	return out, nil
}
