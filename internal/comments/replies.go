package comments

import (
	"context"
	"fmt"
	"time"

	"quire/ent"
	"quire/ent/commentreply"
	"quire/internal/apierr"
	"quire/internal/loaders"
)

// UpdateReply is the input of UpdateReply; unset fields are left
// unchanged.
type UpdateReply struct {
	Body *Body
	// Resolved resolves (true) or reopens (false) the comment replied to,
	// as Update does.
	Resolved *bool
	// AddedReactions and RemovedReactions are emoji of the caller's own
	// reactions on the reply; removals apply after additions.
	AddedReactions, RemovedReactions []string
}

// Replier is a user who replied to a comment: how many replies, and when
// the last one was posted.
type Replier struct {
	UserID    string
	Count     int
	UpdatedAt time.Time
}

// PostReply replies to a comment: the caller needs comment rights on the
// space, which must not be in the trash. The comment's replies count it.
// Errors: NotFound, Forbidden, BadRequest, PreconditionFailed.
func (s *Service) PostReply(ctx context.Context, commentID string, b Body) (*ent.CommentReply, error) {
	cur, err := s.Get(ctx, commentID)
	if err != nil {
		return nil, err
	}
	sp, level, err := s.space(ctx, cur.SpaceID)
	if err != nil {
		return nil, err
	}
	if err := needComment(sp, level); err != nil {
		return nil, err
	}
	body, err := encodeBody("body", b)
	if err != nil {
		return nil, err
	}
	userID := actor(ctx)
	now := s.Now()
	var out *ent.CommentReply
	err = withTx(ctx, s.Client, func(tx *ent.Tx) error {
		c := tx.Client()
		cm, err := lockComment(ctx, c, commentID)
		if err != nil {
			return err
		}
		create := c.CommentReply.Create().SetCommentID(cm.ID).SetSpaceID(cm.SpaceID).SetPostedBy(userID).
			SetPostedAt(now).SetBody(body)
		if cm.ChangeRequestID != nil {
			create.SetChangeRequestID(*cm.ChangeRequestID)
		}
		if out, err = create.Save(ctx); err != nil {
			return fmt.Errorf("post reply: %w", err)
		}
		if err := c.Comment.UpdateOneID(cm.ID).AddReplies(1).Exec(ctx); err != nil {
			return fmt.Errorf("count replies: %w", err)
		}
		ev := eventOf(ReplyPosted, cm)
		ev.ReplyID = out.ID
		return s.notify(ctx, tx, ev)
	})
	forget(ctx, commentID)
	forgetScope(ctx, scopeOf(cur))
	if err != nil {
		return nil, err
	}
	return out, nil
}

// UpdateReply changes a reply: its body (its author, while they may
// comment), the caller's reactions on it, and whether the comment it
// replies to is resolved (who may comment).
// Errors: NotFound, Forbidden, BadRequest, PreconditionFailed.
func (s *Service) UpdateReply(ctx context.Context, id string, in UpdateReply) (*ent.CommentReply, error) {
	cur, err := s.Reply(ctx, id)
	if err != nil {
		return nil, err
	}
	if in.Body == nil && in.Resolved == nil && len(in.AddedReactions) == 0 && len(in.RemovedReactions) == 0 {
		return cur, nil
	}
	sp, level, err := s.space(ctx, cur.SpaceID)
	if err != nil {
		return nil, err
	}
	userID := actor(ctx)
	perms := permissionsFor(level, userID, cur.PostedBy)
	var body string
	if in.Body != nil {
		if !perms.Edit {
			return nil, apierr.Forbiddenf("Only its author may edit a reply")
		}
		if body, err = encodeBody("body", *in.Body); err != nil {
			return nil, err
		}
	}
	if !perms.Reply {
		return nil, apierr.Forbiddenf("You need comment rights on this space")
	}
	added, removed, err := reactionInput(in.AddedReactions, in.RemovedReactions)
	if err != nil {
		return nil, err
	}
	if err := live(sp); err != nil {
		return nil, err
	}
	now := s.Now()
	var out *ent.CommentReply
	err = withTx(ctx, s.Client, func(tx *ent.Tx) error {
		c := tx.Client()
		var scopeRow *ent.Space
		if in.Resolved != nil {
			sc := Scope{SpaceID: cur.SpaceID}
			if cur.ChangeRequestID != nil {
				sc.ChangeRequestID = *cur.ChangeRequestID
			}
			if scopeRow, err = lockScope(ctx, c, sc); err != nil {
				return err
			}
		}
		cm, err := lockComment(ctx, c, cur.CommentID)
		if err != nil {
			return err
		}
		r, err := lockReply(ctx, c, id)
		if err != nil {
			return err
		}
		if in.Resolved != nil {
			kind, res, err := resolve(ctx, c, cm, *in.Resolved, scopeRow, userID, now)
			if err != nil {
				return err
			}
			if kind != "" {
				if err := s.notify(ctx, tx, eventOf(kind, res)); err != nil {
					return err
				}
			}
		}
		changed := false
		out = r
		if in.Body != nil {
			if out, err = c.CommentReply.UpdateOneID(id).SetBody(body).SetEditedAt(now).Save(ctx); err != nil {
				return fmt.Errorf("update reply: %w", err)
			}
			changed = true
		}
		react, err := s.react(ctx, c, target{reply: id}, userID, now, added, removed)
		if err != nil {
			return err
		}
		if changed || react {
			ev := eventOf(ReplyUpdated, cm)
			ev.ReplyID = id
			return s.notify(ctx, tx, ev)
		}
		return nil
	})
	forget(ctx, id, cur.CommentID, orEmpty(cur.ChangeRequestID))
	forgetScope(ctx, Scope{SpaceID: cur.SpaceID, ChangeRequestID: orEmpty(cur.ChangeRequestID)})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteReply deletes a reply with its reactions: its author (while they
// may comment) or a space admin may. It answers false when there was no
// such reply the caller may see.
// Errors: Forbidden, PreconditionFailed.
func (s *Service) DeleteReply(ctx context.Context, id string) (bool, error) {
	cur, err := s.Reply(ctx, id)
	if apierr.CodeOf(err) == apierr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return s.deleteReply(ctx, cur)
}

func (s *Service) deleteReply(ctx context.Context, cur *ent.CommentReply) (bool, error) {
	sp, level, err := s.space(ctx, cur.SpaceID)
	if apierr.CodeOf(err) == apierr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !permissionsFor(level, actor(ctx), cur.PostedBy).Delete {
		return false, apierr.Forbiddenf("Only its author or a space admin may delete a reply")
	}
	if err := live(sp); err != nil {
		return false, err
	}
	deleted := false
	err = withTx(ctx, s.Client, func(tx *ent.Tx) error {
		deleted = false
		c := tx.Client()
		cm, err := lockComment(ctx, c, cur.CommentID)
		if apierr.CodeOf(err) == apierr.NotFound {
			return nil // deleted with its comment meanwhile
		}
		if err != nil {
			return err
		}
		n, err := c.CommentReply.Delete().Where(commentreply.ID(cur.ID)).Exec(ctx)
		if err != nil {
			return fmt.Errorf("delete reply: %w", err)
		}
		if n == 0 {
			return nil
		}
		if err := c.Comment.UpdateOneID(cm.ID).AddReplies(-1).Exec(ctx); err != nil {
			return fmt.Errorf("count replies: %w", err)
		}
		deleted = true
		ev := eventOf(ReplyDeleted, cm)
		ev.ReplyID = cur.ID
		return s.notify(ctx, tx, ev)
	})
	forget(ctx, cur.ID, cur.CommentID)
	forgetScope(ctx, Scope{SpaceID: cur.SpaceID, ChangeRequestID: orEmpty(cur.ChangeRequestID)})
	return deleted, err
}

// Repliers are the users who replied to a comment, through the request's
// loaders (a batch of comments per statement), most recent first.
func Repliers(ctx context.Context, commentID string) ([]Replier, error) {
	rows, err := loaders.For(ctx).Comments.RepliersOf.Load(ctx, commentID)()
	if err != nil {
		return nil, err
	}
	out := make([]Replier, len(rows))
	for i, r := range rows {
		out[i] = Replier{UserID: r.UserID, Count: r.Count, UpdatedAt: r.UpdatedAt}
	}
	return out, nil
}

func orEmpty(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
