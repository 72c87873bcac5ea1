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
	"quire/ent/comment"
	"quire/ent/commentreaction"
	"quire/ent/commentreply"
	"quire/internal/apierr"
)

// CommentLoaders load what lists of comments and replies show of each
// item, a batch of items per statement.
type CommentLoaders struct {
	// Body is the stored body of a comment or reply, by id (lists read
	// them without their bodies).
	Body *Loader[string]
	// RepliesByComment are the replies of a comment, oldest first, without
	// their bodies.
	RepliesByComment *Loader[[]*ent.CommentReply]
	// ReactionsOf are the reactions on a comment or reply, by its id, in
	// the order they were made.
	ReactionsOf *Loader[[]*ent.CommentReaction]
	// RepliersOf are who replied to a comment, most recent first, counted
	// from RepliesByComment.
	RepliersOf *Loader[[]ReplierCount]
	// CommentByID and ReplyByID read comments and replies without their
	// bodies.
	CommentByID *Loader[*ent.Comment]
	ReplyByID   *Loader[*ent.CommentReply]
	// ChangeRequestByID is the change request of comments and reviews.
	ChangeRequestByID *Loader[*ent.ChangeRequest]
}

// ReplierCount is a user's replies to a comment.
type ReplierCount struct {
	UserID    string
	Count     int
	UpdatedAt time.Time
}

// The id prefixes of comments and replies (internal/ids), which tell the
// two apart in a batch of either.
const (
	commentKind = 'K'
	replyKind   = 'k'
)

func newCommentLoaders(client *ent.Client, seq bool) CommentLoaders {
	var c CommentLoaders
	c.Body = newBatchLoader(func(ctx context.Context, keys []string) []*dataloader.Result[string] {
		return batchBodies(ctx, client, keys)
	}, seq)
	replyColumns := slices.DeleteFunc(slices.Clone(commentreply.Columns), func(c string) bool { return c == commentreply.FieldBody })
	c.RepliesByComment = newGroupLoader(func(ctx context.Context, keys []string) ([]*ent.CommentReply, error) {
		rows, err := client.CommentReply.Query().Where(commentreply.CommentIDIn(keys...)).Select(replyColumns...).All(ctx)
		slices.SortFunc(rows, func(a, b *ent.CommentReply) int {
			if c := a.PostedAt.Compare(b.PostedAt); c != 0 {
				return c
			}
			return strings.Compare(a.ID, b.ID)
		})
		return rows, err
	}, func(r *ent.CommentReply) string { return r.CommentID }, "comment replies", seq)
	c.ReactionsOf = newGroupLoader(func(ctx context.Context, keys []string) ([]*ent.CommentReaction, error) {
		var comments, replies []string
		for _, k := range keys {
			if k != "" && k[0] == replyKind {
				replies = append(replies, k)
			} else {
				comments = append(comments, k)
			}
		}
		rows, err := client.CommentReaction.Query().
			Where(commentreaction.Or(commentreaction.CommentIDIn(comments...), commentreaction.ReplyIDIn(replies...))).
			Order(commentreaction.ByCreatedAt(), commentreaction.ByID()).All(ctx)
		return rows, err
	}, func(r *ent.CommentReaction) string {
		if r.ReplyID != nil {
			return *r.ReplyID
		}
		return *r.CommentID
	}, "reactions", seq)
	c.RepliersOf = newBatchLoader(func(ctx context.Context, keys []string) []*dataloader.Result[[]ReplierCount] {
		lists, errs := LoadAll(ctx, c.RepliesByComment, keys)
		out := make([]*dataloader.Result[[]ReplierCount], len(keys))
		for i := range keys {
			if errs != nil && errs[i] != nil {
				out[i] = &dataloader.Result[[]ReplierCount]{Error: errs[i]}
				continue
			}
			out[i] = &dataloader.Result[[]ReplierCount]{Data: repliers(lists[i])}
		}
		return out
	}, seq)
	commentColumns := slices.DeleteFunc(slices.Clone(comment.Columns), func(c string) bool { return c == comment.FieldBody })
	c.CommentByID = newLoader(func(ctx context.Context, keys []string) ([]*ent.Comment, error) {
		return client.Comment.Query().Where(comment.IDIn(keys...)).Select(commentColumns...).All(ctx)
	}, func(c *ent.Comment) string { return c.ID }, "comment", seq)
	c.ReplyByID = newLoader(func(ctx context.Context, keys []string) ([]*ent.CommentReply, error) {
		return client.CommentReply.Query().Where(commentreply.IDIn(keys...)).Select(replyColumns...).All(ctx)
	}, func(r *ent.CommentReply) string { return r.ID }, "comment reply", seq)
	c.ChangeRequestByID = newLoader(func(ctx context.Context, keys []string) ([]*ent.ChangeRequest, error) {
		return client.ChangeRequest.Query().Where(changerequest.IDIn(keys...)).All(ctx)
	}, func(cr *ent.ChangeRequest) string { return cr.ID }, "change request", seq)
	return c
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

// batchBodies reads the bodies of comments and replies, a statement per
// kind present.
func batchBodies(ctx context.Context, client *ent.Client, keys []string) []*dataloader.Result[string] {
	var comments, replies []string
	for _, k := range keys {
		if k != "" && k[0] == replyKind {
			replies = append(replies, k)
		} else {
			comments = append(comments, k)
		}
	}
	bodies := map[string]string{}
	var err error
	if len(comments) > 0 {
		var rows []*ent.Comment
		if rows, err = client.Comment.Query().Where(comment.IDIn(comments...)).Select(comment.FieldID, comment.FieldBody).All(ctx); err == nil {
			for _, r := range rows {
				bodies[r.ID] = r.Body
			}
		}
	}
	if err == nil && len(replies) > 0 {
		var rows []*ent.CommentReply
		if rows, err = client.CommentReply.Query().Where(commentreply.IDIn(replies...)).Select(commentreply.FieldID, commentreply.FieldBody).All(ctx); err == nil {
			for _, r := range rows {
				bodies[r.ID] = r.Body
			}
		}
	}
	out := make([]*dataloader.Result[string], len(keys))
	for i, k := range keys {
		switch b, ok := bodies[k]; {
		case err != nil:
			out[i] = &dataloader.Result[string]{Error: fmt.Errorf("load comment bodies: %w", err)}
		case ok:
			out[i] = &dataloader.Result[string]{Data: b}
		default:
			out[i] = &dataloader.Result[string]{Error: apierr.NotFoundf("No matching comment found for id %q", k)}
		}
	}
	return out
}
