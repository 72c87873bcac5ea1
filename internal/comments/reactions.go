package comments

import (
	"context"
	"fmt"
	"slices"
	"time"

	"quire/ent"
	"quire/ent/commentreaction"
	"quire/internal/apierr"
	"quire/internal/loaders"
)

// Reaction is one emoji on a comment or reply: who reacted with it, first
// reaction first.
type Reaction struct {
	Emoji string
	Users []Reactor
}

// Reactor is a user's reaction.
type Reactor struct {
	UserID    string
	ReactedAt time.Time
}

// target is what reactions are on: a comment or a reply.
type target struct{ comment, reply string }

// reactionInput checks and normalizes the emoji of an update.
func reactionInput(added, removed []string) (add, remove []string, err error) {
	for _, l := range []struct {
		field string
		in    []string
		out   *[]string
	}{{"addedReactions", added, &add}, {"removedReactions", removed, &remove}} {
		if len(l.in) > MaxReactionsPerRequest {
			return nil, nil, apierr.Invalid(l.field, "%s: must have at most %d items", l.field, MaxReactionsPerRequest)
		}
		for i, e := range l.in {
			n, err := emoji(fmt.Sprintf("%s[%d]", l.field, i), e)
			if err != nil {
				return nil, nil, err
			}
			if !slices.Contains(*l.out, n) {
				*l.out = append(*l.out, n)
			}
		}
	}
	return add, remove, nil
}

// react adds and removes the user's reactions on a target whose row the
// transaction has locked. A reaction the user has already is not added
// twice; removing one the user never added changes nothing. It reports
// whether anything changed.
// Errors: BadRequest (more than MaxEmojiKinds different emoji).
func (s *Service) react(ctx context.Context, c *ent.Client, t target, userID string, now time.Time, added, removed []string) (bool, error) {
	if len(added) == 0 && len(removed) == 0 {
		return false, nil
	}
	on := commentreaction.CommentID(t.comment)
	if t.reply != "" {
		on = commentreaction.ReplyID(t.reply)
	}
	mine, err := c.CommentReaction.Query().Where(on, commentreaction.UserID(userID)).
		Select(commentreaction.FieldEmoji).Strings(ctx)
	if err != nil {
		return false, fmt.Errorf("read reactions: %w", err)
	}
	var fresh []*ent.CommentReactionCreate
	for _, e := range added {
		if slices.Contains(mine, e) || slices.Contains(removed, e) {
			continue
		}
		cr := c.CommentReaction.Create().SetUserID(userID).SetEmoji(e).SetCreatedAt(now)
		if t.reply != "" {
			cr.SetReplyID(t.reply)
		} else {
			cr.SetCommentID(t.comment)
		}
		fresh = append(fresh, cr)
	}
	var gone []string
	for _, e := range removed {
		if slices.Contains(mine, e) {
			gone = append(gone, e)
		}
	}
	if len(gone) > 0 {
		if _, err := c.CommentReaction.Delete().Where(on, commentreaction.UserID(userID), commentreaction.EmojiIn(gone...)).Exec(ctx); err != nil {
			return false, fmt.Errorf("remove reactions: %w", err)
		}
	}
	if len(fresh) > 0 {
		if err := c.CommentReaction.CreateBulk(fresh...).Exec(ctx); err != nil {
			return false, fmt.Errorf("add reactions: %w", err)
		}
		kinds, err := c.CommentReaction.Query().Where(on).Unique(true).Select(commentreaction.FieldEmoji).Strings(ctx)
		if err != nil {
			return false, fmt.Errorf("count reactions: %w", err)
		}
		if len(kinds) > MaxEmojiKinds {
			return false, apierr.Invalid("addedReactions", "addedReactions: a comment or reply may carry at most %d different emoji", MaxEmojiKinds)
		}
	}
	return len(fresh)+len(gone) > 0, nil
}

// Reactions are the reactions on a comment or reply, through the
// request's loaders (a batch of comments and replies per statement): each
// emoji with its users, the emoji in the order of their first reaction.
func Reactions(ctx context.Context, id string) ([]Reaction, error) {
	rows, err := loaders.For(ctx).Comments.Reactions(id).Load(ctx, id)()
	if err != nil {
		return nil, err
	}
	var out []Reaction
	at := map[string]int{}
	for _, r := range rows {
		i, ok := at[r.Emoji]
		if !ok {
			i = len(out)
			at[r.Emoji] = i
			out = append(out, Reaction{Emoji: r.Emoji})
		}
		out[i].Users = append(out[i].Users, Reactor{UserID: r.UserID, ReactedAt: r.CreatedAt})
	}
	return out, nil
}

// Count is how many users reacted with the emoji.
func (r Reaction) Count() int { return len(r.Users) }
