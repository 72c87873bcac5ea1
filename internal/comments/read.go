package comments

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/loaders"
	"quire/internal/pagination"
)

// Filter filters and orders a list of comments.
type Filter struct {
	// Order is desc (newest first, the default) or asc, by time posted.
	Order string
	// Status is all (the default), open or resolved.
	Status string
	// TargetPage keeps the comments on this page.
	TargetPage string
	// Authors keeps the comments posted by these users.
	Authors []string
}

// Get reads a comment of a space the caller may read.
// Errors: NotFound.
func (s *Service) Get(ctx context.Context, id string) (*ent.Comment, error) {
	c, err := loaders.For(ctx).Comments.CommentByID.Load(ctx, id)()
	if err != nil {
		return nil, err
	}
	if _, _, err := s.space(ctx, c.SpaceID); err != nil {
		return nil, notFound("comment", id)
	}
	return c, nil
}

// GetIn reads a comment of a scope the caller may read: one of another
// scope is NotFound.
// Errors: NotFound.
func (s *Service) GetIn(ctx context.Context, sc Scope, id string) (*ent.Comment, error) {
	c, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if !sc.holds(c) {
		return nil, notFound("comment", id)
	}
	return c, nil
}

func notFound(what, id string) error {
	return apierr.NotFoundf("No matching %s found for id %q", what, id)
}

// List lists the comments of a scope the caller may read, filtered and
// ordered; the caller pages through them with CommentCursor(f.Order).
// Errors: NotFound, BadRequest (filter).
func (s *Service) List(ctx context.Context, sc Scope, f Filter) ([]*ent.Comment, error) {
	if _, _, _, err := s.scopeFor(ctx, sc, false); err != nil {
		return nil, err
	}
	switch f.Order {
	case "", "desc", "asc":
	default:
		return nil, apierr.Invalid("order", "order must be asc or desc")
	}
	switch f.Status {
	case "", "all", StatusOpen, StatusResolved:
	default:
		return nil, apierr.Invalid("status", "status must be all, open or resolved")
	}
	if len(f.Authors) > MaxAuthors {
		return nil, apierr.Invalid("authors", "authors: must have at most %d items", MaxAuthors)
	}
	// The discussions of sibling objects (the change requests of a list)
	// are read in one batch; the filters apply to the rows read.
	all, err := loaders.For(ctx).Comments.ByScope.Load(ctx, loaders.ScopeKey(sc.SpaceID, sc.ChangeRequestID))()
	if err != nil {
		return nil, err
	}
	authors := map[string]bool{}
	for _, a := range f.Authors {
		authors[a] = true
	}
	list := make([]*ent.Comment, 0, len(all))
	for _, c := range all {
		switch {
		case f.Status != "" && f.Status != "all" && c.Status != f.Status:
		case f.TargetPage != "" && (c.PageID == nil || *c.PageID != f.TargetPage):
		case len(authors) > 0 && !authors[c.PostedBy]:
		default:
			list = append(list, c)
		}
	}
	key := CommentCursor(f.Order)
	slices.SortFunc(list, func(a, b *ent.Comment) int { return key(a).Compare(key(b)) })
	return list, nil
}

// CommentCursor orders comments by time posted, newest first unless order
// is asc, for paging.
func CommentCursor(order string) func(*ent.Comment) pagination.Cursor {
	return func(c *ent.Comment) pagination.Cursor { return timeCursor(c.PostedAt.UnixNano(), order, c.ID) }
}

// ReplyCursor orders replies by time posted, oldest first.
func ReplyCursor(r *ent.CommentReply) pagination.Cursor {
	return timeCursor(r.PostedAt.UnixNano(), "asc", r.ID)
}

func timeCursor(ns int64, order, id string) pagination.Cursor {
	if order != "asc" {
		ns = math.MaxInt64 - ns
	}
	return pagination.Cursor{Key: fmt.Sprintf("%020d", ns), ID: id}
}

// Replies lists the replies of a comment the caller may read, oldest
// first, through the request's loaders (a batch of comments' replies per
// statement).
// Errors: NotFound.
func (s *Service) Replies(ctx context.Context, c *ent.Comment) ([]*ent.CommentReply, error) {
	if _, _, err := s.space(ctx, c.SpaceID); err != nil {
		return nil, notFound("comment", c.ID)
	}
	return loaders.For(ctx).Comments.RepliesByComment.Load(ctx, c.ID)()
}

// Reply reads a reply of a space the caller may read.
// Errors: NotFound.
func (s *Service) Reply(ctx context.Context, id string) (*ent.CommentReply, error) {
	r, err := loaders.For(ctx).Comments.ReplyByID.Load(ctx, id)()
	if err != nil {
		return nil, err
	}
	if _, _, err := s.space(ctx, r.SpaceID); err != nil {
		return nil, notFound("comment reply", id)
	}
	return r, nil
}

// ReplyOf reads a reply of a comment the caller may read: a reply of
// another comment is NotFound.
// Errors: NotFound.
func (s *Service) ReplyOf(ctx context.Context, c *ent.Comment, id string) (*ent.CommentReply, error) {
	r, err := s.Reply(ctx, id)
	if err != nil {
		return nil, err
	}
	if r.CommentID != c.ID {
		return nil, notFound("comment reply", id)
	}
	return r, nil
}

// Permissions are the caller's permissions on a comment.
func (s *Service) Permissions(ctx context.Context, c *ent.Comment) (Permissions, error) {
	return s.permissions(ctx, c.SpaceID, c.PostedBy)
}

// ReplyPermissions are the caller's permissions on a reply.
func (s *Service) ReplyPermissions(ctx context.Context, r *ent.CommentReply) (Permissions, error) {
	return s.permissions(ctx, r.SpaceID, r.PostedBy)
}

func (s *Service) permissions(ctx context.Context, spaceID, author string) (Permissions, error) {
	_, level, err := s.space(ctx, spaceID)
	if apierr.CodeOf(err) == apierr.NotFound {
		return Permissions{}, nil
	}
	if err != nil {
		return Permissions{}, err
	}
	return permissionsFor(level, actor(ctx), author), nil
}

// Commenters lists the members of the space's organization who posted a
// comment or a reply in a scope the caller may read, in the order of their
// first post; the caller pages through them with CommenterCursor.
// Errors: NotFound.
func (s *Service) Commenters(ctx context.Context, sc Scope) ([]*Commenter, error) {
	sp, _, _, err := s.scopeFor(ctx, sc, false)
	if err != nil {
		return nil, err
	}
	first := map[string]time.Time{}
	see := func(user string, at time.Time) {
		if f, ok := first[user]; !ok || at.Before(f) {
			first[user] = at
		}
	}
	l := loaders.For(ctx).Comments
	key := loaders.ScopeKey(sc.SpaceID, sc.ChangeRequestID)
	cs, rs := l.ByScope.Load(ctx, key), l.RepliesByScope.Load(ctx, key)
	comments, err := cs()
	if err != nil {
		return nil, err
	}
	replies, err := rs()
	if err != nil {
		return nil, err
	}
	for _, c := range comments {
		see(c.PostedBy, c.PostedAt)
	}
	for _, r := range replies {
		see(r.PostedBy, r.PostedAt)
	}
	keys := make([]string, 0, len(first))
	for u := range first {
		keys = append(keys, sp.OrganizationID+"/"+u)
	}
	// Queued, not fetched: the commenters of sibling objects share a batch,
	// which reads their users too.
	members, errs := loaders.LoadAll(ctx, loaders.For(ctx).Comments.Commenters, keys)
	out := make([]*Commenter, 0, len(members))
	for i, m := range members {
		if errs != nil && errs[i] != nil {
			if apierr.CodeOf(errs[i]) == apierr.NotFound {
				continue // no longer a member
			}
			return nil, errs[i]
		}
		out = append(out, &Commenter{Member: m, First: first[m.UserID]})
	}
	slices.SortFunc(out, func(a, b *Commenter) int { return CommenterCursor(a).Compare(CommenterCursor(b)) })
	return out, nil
}

// Commenter is a member who took part in a discussion.
type Commenter struct {
	Member *ent.Member
	// First is when they first posted there.
	First time.Time
}

// CommenterCursor orders commenters by their first post.
func CommenterCursor(c *Commenter) pagination.Cursor {
	return timeCursor(c.First.UnixNano(), "asc", c.Member.UserID)
}

// BodyOf is the stored body of a comment or reply: the one it carries, or,
// for one read from a list, the request's loaders'.
func BodyOf(ctx context.Context, id, carried string) (string, error) {
	if carried != "" {
		return carried, nil
	}
	return loaders.For(ctx).Comments.Body(id).Load(ctx, id)()
}
