package comments

import (
	"context"

	"quire/ent"
	"quire/internal/catalog"
	"quire/internal/loaders"
	"quire/internal/pagination"
)

// Want says what a reader of a discussion shows of each comment and reply
// it reads, so that the read loads each part once for the whole page, a
// kind at a time, whatever the number of items.
type Want struct {
	// Bodies: the comments' and replies' bodies (a list reads its rows
	// without them).
	Bodies bool
	// Reactions: the reactions, with the users who reacted.
	Reactions bool
	// Repliers: who replied to each comment, with those users.
	Repliers bool
	// Users: who posted each comment or reply, and who resolved it.
	Users bool
}

// Everything is every part of comments and replies: what the REST door
// presents of each.
var Everything = Want{Bodies: true, Reactions: true, Repliers: true, Users: true}

// View reads a page of the comments of a scope the caller may read,
// filtered and ordered as List does, with what w asks of each.
// Errors: NotFound, BadRequest (filter, page arguments).
func (s *Service) View(ctx context.Context, sc Scope, f Filter, args catalog.PageArgs, w Want) (pagination.Page[*ent.Comment], error) {
	items, err := s.List(ctx, sc, f)
	if err != nil {
		return pagination.Page[*ent.Comment]{}, err
	}
	p, err := catalog.Paginate(items, CommentCursor(f.Order), args)
	if err != nil {
		return p, err
	}
	Prepare(ctx, p.Items, nil, w)
	return p, nil
}

// ViewReplies reads a page of the replies to a comment the caller may
// read, oldest first, with what w asks of each.
// Errors: NotFound, BadRequest (page arguments).
func (s *Service) ViewReplies(ctx context.Context, c *ent.Comment, args catalog.PageArgs, w Want) (pagination.Page[*ent.CommentReply], error) {
	items, err := s.Replies(ctx, c)
	if err != nil {
		return pagination.Page[*ent.CommentReply]{}, err
	}
	p, err := catalog.Paginate(items, ReplyCursor, args)
	if err != nil {
		return p, err
	}
	Prepare(ctx, nil, p.Items, w)
	return p, nil
}

// ViewCommenters reads a page of the members who took part in a scope's
// discussion, in the order of their first post. Reading them reads their
// users too.
// Errors: NotFound, BadRequest (page arguments).
func (s *Service) ViewCommenters(ctx context.Context, sc Scope, args catalog.PageArgs) (pagination.Page[*Commenter], error) {
	items, err := s.Commenters(ctx, sc)
	if err != nil {
		return pagination.Page[*Commenter]{}, err
	}
	return catalog.Paginate(items, CommenterCursor, args)
}

// Prepare reads what w asks of comments and replies that a caller has
// already (a review's comment, a page of them), a kind at a time, into the
// request's caches, where the reads of each item's parts then find them.
func Prepare(ctx context.Context, cs []*ent.Comment, rs []*ent.CommentReply, w Want) {
	l := loaders.For(ctx)
	if l == nil || len(cs)+len(rs) == 0 {
		return
	}
	var cids, rids, users, withReplies []string
	for _, c := range cs {
		cids = append(cids, c.ID)
		users = append(users, c.PostedBy)
		if c.ResolvedBy != nil {
			users = append(users, *c.ResolvedBy)
		}
		if c.Replies > 0 {
			withReplies = append(withReplies, c.ID)
		}
	}
	for _, rp := range rs {
		rids = append(rids, rp.ID)
		users = append(users, rp.PostedBy)
	}
	// Reading reactions and repliers reads their users too, before the
	// posters: a poster who also reacted or replied is read once.
	for _, kind := range [][]string{cids, rids} {
		if len(kind) == 0 {
			continue
		}
		if w.Bodies {
			l.Comments.Body(kind[0]).Ask(ctx, kind)
		}
		if w.Reactions {
			l.Comments.Reactions(kind[0]).Ask(ctx, kind)
		}
	}
	if w.Repliers {
		l.Comments.RepliersOf.Ask(ctx, withReplies)
	}
	if w.Users {
		l.UserByID.Ask(ctx, users)
	}
}
