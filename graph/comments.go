package graph

import (
	"context"

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

// comments lists a scope's comments as a connection.
func (r *Resolver) commentList(ctx context.Context, sc comments.Scope, f comments.Filter, args catalog.PageArgs) (*model.CommentConnection, error) {
	items, err := r.Comments.List(ctx, sc, f)
	if err != nil {
		return nil, err
	}
	p, err := catalog.Paginate(items, comments.CommentCursor(f.Order), args)
	if err != nil {
		return nil, err
	}
	c := &model.CommentConnection{Nodes: p.Items, PageInfo: pageInfo(p), TotalCount: p.TotalCount, Edges: make([]*model.CommentEdge, len(p.Items))}
	for i, n := range p.Items {
		c.Edges[i] = &model.CommentEdge{Node: n, Cursor: p.Cursors[i]}
	}
	return c, nil
}

// replyList lists a comment's replies as a connection.
func (r *Resolver) replyList(ctx context.Context, cm *ent.Comment, args catalog.PageArgs) (*model.CommentReplyConnection, error) {
	items, err := r.Comments.Replies(ctx, cm)
	if err != nil {
		return nil, err
	}
	p, err := catalog.Paginate(items, comments.ReplyCursor, args)
	if err != nil {
		return nil, err
	}
	c := &model.CommentReplyConnection{Nodes: p.Items, PageInfo: pageInfo(p), TotalCount: p.TotalCount, Edges: make([]*model.CommentReplyEdge, len(p.Items))}
	for i, n := range p.Items {
		c.Edges[i] = &model.CommentReplyEdge{Node: n, Cursor: p.Cursors[i]}
	}
	return c, nil
}

// commenters lists who took part in a scope's discussion as members.
func (r *Resolver) commenters(ctx context.Context, sc comments.Scope, args catalog.PageArgs) (*model.MemberConnection, error) {
	items, err := r.Comments.Commenters(ctx, sc)
	if err != nil {
		return nil, err
	}
	p, err := catalog.Paginate(items, comments.CommenterCursor, args)
	if err != nil {
		return nil, err
	}
	c := &model.MemberConnection{PageInfo: pageInfo(p), TotalCount: p.TotalCount,
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

// WarmComments loads, a kind at a time, what presenting a page of comments
// or replies reads of each (bodies, reactions, repliers, users), so that
// presenting them one after the other (REST) reads the request's caches.
func (r *Resolver) WarmComments(ctx context.Context, cs []*ent.Comment, rs []*ent.CommentReply) {
	l := loaders.For(ctx)
	var ids, users, withReplies []string
	for _, c := range cs {
		ids = append(ids, c.ID)
		users = append(users, c.PostedBy)
		if c.ResolvedBy != nil {
			users = append(users, *c.ResolvedBy)
		}
		if c.Replies > 0 {
			withReplies = append(withReplies, c.ID)
		}
	}
	for _, rp := range rs {
		ids = append(ids, rp.ID)
		users = append(users, rp.PostedBy)
	}
	if len(ids) == 0 {
		return
	}
	// Bodies and reactions a kind at a time; reading reactions reads
	// their users too.
	var cids, rids []string
	for _, id := range ids {
		if loaders.IsReply(id) {
			rids = append(rids, id)
		} else {
			cids = append(cids, id)
		}
	}
	for _, kind := range [][]string{cids, rids} {
		if len(kind) > 0 {
			l.Comments.Body(kind[0]).Fetch(ctx, kind)
			l.Comments.Reactions(kind[0]).Fetch(ctx, kind)
		}
	}
	if len(withReplies) > 0 {
		l.Comments.RepliersOf.Fetch(ctx, withReplies)
	}
	l.UserByID.Fetch(ctx, nonEmptyIDs(users))
}

func nonEmptyIDs(ids []string) []string {
	out := ids[:0]
	for _, id := range ids {
		if id != "" {
			out = append(out, id)
		}
	}
	return out
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

// WarmUsers loads users at once.
func (r *Resolver) WarmUsers(ctx context.Context, ids []string) {
	loaders.For(ctx).UserByID.Fetch(ctx, nonEmptyIDs(ids))
}
