package loaders

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/graph-gophers/dataloader/v7"

	"quire/ent"
	"quire/ent/changerequest"
	"quire/ent/changerequestreview"
	"quire/ent/changerequestreviewer"
	"quire/ent/comment"
	"quire/ent/commentreaction"
	"quire/ent/commentreply"
	"quire/ent/predicate"
	"quire/ent/user"
)

// CommentLoaders load what lists of comments and replies show of each
// item, a batch of items per statement.
//
// Comments and their replies are at different depths of a query, so each
// has loaders of its own (a loader shared by two depths would batch them
// together or apart as the timing falls, and a query would cost a varying
// number of statements); and the loaders whose rows name users (reactions,
// replies, repliers) read those users in the same batch and prime UserByID
// with them, so that the users of every depth need no batch of their own.
type CommentLoaders struct {
	// CommentBody and ReplyBody are the stored bodies of comments and
	// replies (lists read them without their bodies).
	CommentBody, ReplyBody *Loader[string]
	// RepliesByComment are the replies of a comment, oldest first, without
	// their bodies.
	RepliesByComment *Loader[[]*ent.CommentReply]
	// CommentReactions and ReplyReactions are the reactions on comments
	// and replies, in the order they were made.
	CommentReactions, ReplyReactions *Loader[[]*ent.CommentReaction]
	// RepliersOf are who replied to a comment, most recent first.
	RepliersOf *Loader[[]ReplierCount]
	// CommentByID and ReplyByID read comments and replies without their
	// bodies.
	CommentByID *Loader[*ent.Comment]
	ReplyByID   *Loader[*ent.CommentReply]
	// ChangeRequestByID is the change request of comments and reviews.
	ChangeRequestByID *Loader[*ent.ChangeRequest]
	// Commenters are the members commenters lists show, keyed as
	// MemberByOrgUser ("orgID/userID"), read with their users.
	Commenters *Loader[*ent.Member]
	// ByScope are the comments of discussions, without their bodies, by
	// ScopeKey: a batch of spaces and change requests per statement.
	ByScope *Loader[[]*ent.Comment]
	// RepliesByScope are the replies in discussions, without their
	// bodies, by ScopeKey.
	RepliesByScope *Loader[[]*ent.CommentReply]
	// ReviewsByChangeRequest and RequestsByChangeRequest are the reviews
	// and the pending review requests of change requests.
	ReviewsByChangeRequest  *Loader[[]*ent.ChangeRequestReview]
	RequestsByChangeRequest *Loader[[]*ent.ChangeRequestReviewer]
}

// ReplierCount is a user's replies to a comment.
type ReplierCount struct {
	UserID    string
	Count     int
	UpdatedAt time.Time
}

// replyKind is the id prefix of replies (internal/ids), which tells them
// from comments.
const replyKind = 'k'

// IsReply reports whether an id is a reply's.
func IsReply(id string) bool { return id != "" && id[0] == replyKind }

// Body is the loader of the body of a comment or reply by its id.
func (c CommentLoaders) Body(id string) *Loader[string] {
	if IsReply(id) {
		return c.ReplyBody
	}
	return c.CommentBody
}

// Reactions is the loader of the reactions on a comment or reply by its
// id.
func (c CommentLoaders) Reactions(id string) *Loader[[]*ent.CommentReaction] {
	if IsReply(id) {
		return c.ReplyReactions
	}
	return c.CommentReactions
}

// ScopeKey names a discussion: a space's own (changeRequestID empty), or a
// change request's.
func ScopeKey(spaceID, changeRequestID string) string { return spaceID + "/" + changeRequestID }

// scopes splits scope keys into the spaces of the spaces' own discussions
// and the change requests.
func scopes(keys []string) (spaces, crs []string) {
	for _, k := range keys {
		sp, cr, _ := strings.Cut(k, "/")
		if cr == "" {
			spaces = append(spaces, sp)
		} else {
			crs = append(crs, cr)
		}
	}
	return spaces, crs
}

func orEmpty(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func newCommentLoaders(client *ent.Client, users *Loader[*ent.User], seq bool) CommentLoaders {
	var c CommentLoaders
	primeUsers := func(ctx context.Context, ids []string) error { return PrimeUsers(ctx, client, users, ids) }
	commentColumns := slices.DeleteFunc(slices.Clone(comment.Columns), func(c string) bool { return c == comment.FieldBody })
	replyColumns := slices.DeleteFunc(slices.Clone(commentreply.Columns), func(c string) bool { return c == commentreply.FieldBody })

	c.CommentBody = newLoader(func(ctx context.Context, keys []string) ([]*ent.Comment, error) {
		return client.Comment.Query().Where(comment.IDIn(keys...)).Select(comment.FieldID, comment.FieldBody).All(ctx)
	}, func(c *ent.Comment) string { return c.ID }, "comment", seq).mapped(func(c *ent.Comment) string { return c.Body })
	c.ReplyBody = newLoader(func(ctx context.Context, keys []string) ([]*ent.CommentReply, error) {
		return client.CommentReply.Query().Where(commentreply.IDIn(keys...)).Select(commentreply.FieldID, commentreply.FieldBody).All(ctx)
	}, func(r *ent.CommentReply) string { return r.ID }, "comment reply", seq).mapped(func(r *ent.CommentReply) string { return r.Body })

	c.RepliesByComment = newGroupLoader(func(ctx context.Context, keys []string) ([]*ent.CommentReply, error) {
		rows, err := client.CommentReply.Query().Where(commentreply.CommentIDIn(keys...)).Select(replyColumns...).All(ctx)
		if err != nil {
			return nil, err
		}
		slices.SortFunc(rows, func(a, b *ent.CommentReply) int {
			if c := a.PostedAt.Compare(b.PostedAt); c != 0 {
				return c
			}
			return strings.Compare(a.ID, b.ID)
		})
		var authors []string
		for _, r := range rows {
			authors = append(authors, r.PostedBy)
		}
		return rows, primeUsers(ctx, authors)
	}, func(r *ent.CommentReply) string { return r.CommentID }, "comment replies", seq)

	reactions := func(on func(...string) predicate.CommentReaction) func(context.Context, []string) ([]*ent.CommentReaction, error) {
		return func(ctx context.Context, keys []string) ([]*ent.CommentReaction, error) {
			rows, err := client.CommentReaction.Query().Where(on(keys...)).
				Order(commentreaction.ByCreatedAt(), commentreaction.ByID()).All(ctx)
			if err != nil {
				return nil, err
			}
			var who []string
			for _, r := range rows {
				who = append(who, r.UserID)
			}
			return rows, primeUsers(ctx, who)
		}
	}
	c.CommentReactions = newGroupLoader(reactions(commentreaction.CommentIDIn),
		func(r *ent.CommentReaction) string { return orEmpty(r.CommentID) }, "reactions", seq)
	c.ReplyReactions = newGroupLoader(reactions(commentreaction.ReplyIDIn),
		func(r *ent.CommentReaction) string { return orEmpty(r.ReplyID) }, "reactions", seq)

	c.RepliersOf = newBatchLoader(func(ctx context.Context, keys []string) []*dataloader.Result[[]ReplierCount] {
		out := make([]*dataloader.Result[[]ReplierCount], len(keys))
		rows, err := client.CommentReply.Query().Where(commentreply.CommentIDIn(keys...)).
			Select(commentreply.FieldCommentID, commentreply.FieldPostedBy, commentreply.FieldPostedAt).All(ctx)
		by := map[string][]*ent.CommentReply{}
		var who []string
		for _, r := range rows {
			by[r.CommentID] = append(by[r.CommentID], r)
			who = append(who, r.PostedBy)
		}
		if err == nil {
			err = primeUsers(ctx, who)
		}
		for i, k := range keys {
			if err != nil {
				out[i] = &dataloader.Result[[]ReplierCount]{Error: fmt.Errorf("load repliers: %w", err)}
				continue
			}
			out[i] = &dataloader.Result[[]ReplierCount]{Data: repliers(by[k])}
		}
		return out
	}, seq)

	c.CommentByID = newLoader(func(ctx context.Context, keys []string) ([]*ent.Comment, error) {
		return client.Comment.Query().Where(comment.IDIn(keys...)).Select(commentColumns...).All(ctx)
	}, func(c *ent.Comment) string { return c.ID }, "comment", seq)
	c.ReplyByID = newLoader(func(ctx context.Context, keys []string) ([]*ent.CommentReply, error) {
		return client.CommentReply.Query().Where(commentreply.IDIn(keys...)).Select(replyColumns...).All(ctx)
	}, func(r *ent.CommentReply) string { return r.ID }, "comment reply", seq)
	c.ChangeRequestByID = newLoader(func(ctx context.Context, keys []string) ([]*ent.ChangeRequest, error) {
		return client.ChangeRequest.Query().Where(changerequest.IDIn(keys...)).All(ctx)
	}, func(cr *ent.ChangeRequest) string { return cr.ID }, "change request", seq)

	c.Commenters = newBatchLoader(func(ctx context.Context, keys []string) []*dataloader.Result[*ent.Member] {
		out := batchMembers(ctx, client, keys)
		var who []string
		for _, r := range out {
			if r.Error == nil {
				who = append(who, r.Data.UserID)
			}
		}
		if err := primeUsers(ctx, who); err != nil {
			for i := range out {
				out[i] = &dataloader.Result[*ent.Member]{Error: err}
			}
		}
		return out
	}, seq)
	c.ByScope = newGroupLoader(func(ctx context.Context, keys []string) ([]*ent.Comment, error) {
		spaces, crs := scopes(keys)
		return client.Comment.Query().Where(comment.Or(
			comment.And(comment.SpaceIDIn(spaces...), comment.ChangeRequestIDIsNil()),
			comment.ChangeRequestIDIn(crs...),
		)).Select(commentColumns...).All(ctx)
	}, func(c *ent.Comment) string { return ScopeKey(c.SpaceID, orEmpty(c.ChangeRequestID)) }, "comments", seq)
	c.RepliesByScope = newGroupLoader(func(ctx context.Context, keys []string) ([]*ent.CommentReply, error) {
		spaces, crs := scopes(keys)
		return client.CommentReply.Query().Where(commentreply.Or(
			commentreply.And(commentreply.SpaceIDIn(spaces...), commentreply.ChangeRequestIDIsNil()),
			commentreply.ChangeRequestIDIn(crs...),
		)).Select(replyColumns...).All(ctx)
	}, func(r *ent.CommentReply) string { return ScopeKey(r.SpaceID, orEmpty(r.ChangeRequestID)) }, "replies", seq)
	c.ReviewsByChangeRequest = newGroupLoader(func(ctx context.Context, keys []string) ([]*ent.ChangeRequestReview, error) {
		rows, err := client.ChangeRequestReview.Query().Where(changerequestreview.ChangeRequestIDIn(keys...)).
			Order(changerequestreview.ByCreatedAt(), changerequestreview.ByID()).All(ctx)
		if err != nil {
			return nil, err
		}
		var who []string
		for _, r := range rows {
			who = append(who, r.Reviewer, orEmpty(r.RequestedBy))
		}
		return rows, primeUsers(ctx, who)
	}, func(r *ent.ChangeRequestReview) string { return r.ChangeRequestID }, "reviews", seq)
	c.RequestsByChangeRequest = newGroupLoader(func(ctx context.Context, keys []string) ([]*ent.ChangeRequestReviewer, error) {
		rows, err := client.ChangeRequestReviewer.Query().Where(changerequestreviewer.ChangeRequestIDIn(keys...)).
			Order(changerequestreviewer.ByCreatedAt(), changerequestreviewer.ByID()).All(ctx)
		if err != nil {
			return nil, err
		}
		var who []string
		for _, r := range rows {
			who = append(who, r.UserID, r.RequestedBy)
		}
		return rows, primeUsers(ctx, who)
	}, func(r *ent.ChangeRequestReviewer) string { return r.ChangeRequestID }, "review requests", seq)
	return c
}

// PrimeUsers reads the users that rows name and primes the users loader
// with them: a batch that reads rows naming users reads them too, so that
// the users of every depth of a query need no batch of their own (one
// would join or miss the batches of other depths as the timing falls).
func PrimeUsers(ctx context.Context, client *ent.Client, users *Loader[*ent.User], ids []string) error {
	ids = uniq(ids)
	if len(ids) == 0 {
		return nil
	}
	found, err := client.User.Query().Where(user.IDIn(ids...)).All(ctx)
	if err != nil {
		return fmt.Errorf("load users: %w", err)
	}
	for _, u := range found {
		users.Prime(ctx, u.ID, u)
	}
	return nil
}

// repliers counts the replies of each user, most recent replier first.
func repliers(replies []*ent.CommentReply) []ReplierCount {
	at := map[string]int{}
	out := []ReplierCount{}
	for _, r := range replies {
		i, ok := at[r.PostedBy]
		if !ok {
			i = len(out)
			at[r.PostedBy] = i
			out = append(out, ReplierCount{UserID: r.PostedBy})
		}
		out[i].Count++
		if r.PostedAt.After(out[i].UpdatedAt) {
			out[i].UpdatedAt = r.PostedAt
		}
	}
	slices.SortFunc(out, func(a, b ReplierCount) int {
		if c := b.UpdatedAt.Compare(a.UpdatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.UserID, b.UserID)
	})
	return out
}

func uniq(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := ids[:0:0]
	for _, id := range ids {
		if id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// mapped is a loader of what f takes of the values of l: one batch reads
// both.
func (l *Loader[V]) mapped(f func(V) string) *Loader[string] {
	return newBatchLoader(func(ctx context.Context, keys []string) []*dataloader.Result[string] {
		vals, errs := l.Fetch(ctx, keys)
		out := make([]*dataloader.Result[string], len(keys))
		for i := range keys {
			if errs != nil && errs[i] != nil {
				out[i] = &dataloader.Result[string]{Error: errs[i]}
				continue
			}
			out[i] = &dataloader.Result[string]{Data: f(vals[i])}
		}
		return out
	}, l.sequential)
}
