package comments

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"quire/ent"
	"quire/ent/comment"
	"quire/internal/apierr"
)

// Post is the input of Post.
type Post struct {
	Body Body
	// Page, when set, is a page of the scope's current content (the
	// space's, or the change request's) the comment is about.
	Page string
	// Node is the id of a node of the page's document.
	Node string
	// TableRecord and TableDefinition name a table cell (both or neither).
	TableRecord, TableDefinition string
}

// Update is the input of Update; unset fields are left unchanged.
type Update struct {
	Body *Body
	// Resolved resolves (true) or reopens (false) the comment.
	Resolved *bool
	// AddedReactions and RemovedReactions are emoji of the caller's own
	// reactions; removals apply after additions.
	AddedReactions, RemovedReactions []string
}

// Post posts a comment in a scope: the caller needs comment rights on the
// space, which must not be in the trash. The comment points at the
// scope's current revision (the space's, or the change request's head),
// where its page, if any, must be. The scope's open comments count it.
// Errors: NotFound, Forbidden, BadRequest, PreconditionFailed (deleted
// space).
func (s *Service) Post(ctx context.Context, sc Scope, in Post) (*ent.Comment, error) {
	sp, cr, level, err := s.scopeFor(ctx, sc, true)
	if err != nil {
		return nil, err
	}
	if err := needComment(sp, level); err != nil {
		return nil, err
	}
	body, err := encodeBody("body", in.Body)
	if err != nil {
		return nil, err
	}
	revision := sp.RevisionID
	if cr != nil {
		revision = cr.RevisionID
	}
	if err := checkTarget(in); err != nil {
		return nil, err
	}
	if in.Page != "" {
		ok, err := s.Content.HasPage(ctx, revision, in.Page)
		if err != nil {
			return nil, err
		}
		if !ok {
			where := "the space's content"
			if cr != nil {
				where = fmt.Sprintf("the content of change request #%d", cr.Number)
			}
			return nil, apierr.Invalid("page", "page %q is not in %s", in.Page, where)
		}
	}
	userID := actor(ctx)
	now := s.Now()
	var out *ent.Comment
	err = withTx(ctx, s.Client, func(tx *ent.Tx) error {
		c := tx.Client()
		locked, err := lockScope(ctx, c, sc)
		if err != nil {
			return err
		}
		if locked != nil {
			if err := live(locked); err != nil {
				return err
			}
		}
		create := c.Comment.Create().SetSpaceID(sc.SpaceID).SetPostedBy(userID).SetPostedAt(now).
			SetBody(body).SetRevisionID(revision).SetStatus(StatusOpen)
		if sc.ChangeRequestID != "" {
			create.SetChangeRequestID(sc.ChangeRequestID)
		}
		setTarget(create, in)
		if out, err = create.Save(ctx); err != nil {
			return fmt.Errorf("post comment: %w", err)
		}
		if err := count(ctx, c, sc, locked, 1); err != nil {
			return err
		}
		return s.notify(ctx, tx, eventOf(CommentPosted, out))
	})
	forget(ctx, sc.ChangeRequestID)
	forgetScope(ctx, sc)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PostReviewComment posts, in a review's transaction, the comment a
// reviewer sent with the review, in the change request's discussion. The
// caller (the reviews engine) has checked the reviewer's rights and locked
// the change request.
// Errors: BadRequest (body, as field "comment").
func (s *Service) PostReviewComment(ctx context.Context, tx *ent.Tx, cr *ent.ChangeRequest, reviewID string, b Body, now time.Time) (*ent.Comment, error) {
	body, err := encodeBody("comment", b)
	if err != nil {
		return nil, err
	}
	c := tx.Client()
	out, err := c.Comment.Create().SetSpaceID(cr.SpaceID).SetChangeRequestID(cr.ID).SetReviewID(reviewID).
		SetPostedBy(actor(ctx)).SetPostedAt(now).SetBody(body).SetRevisionID(cr.RevisionID).SetStatus(StatusOpen).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("post review comment: %w", err)
	}
	if err := count(ctx, c, ChangeRequestScope(cr), nil, 1); err != nil {
		return nil, err
	}
	forget(ctx, cr.ID)
	forgetScope(ctx, ChangeRequestScope(cr))
	return out, s.notify(ctx, tx, eventOf(CommentPosted, out))
}

// CheckBody checks a body as PostReviewComment would take it, before its
// transaction starts.
// Errors: BadRequest (as field).
func CheckBody(field string, b Body) error {
	_, err := encodeBody(field, b)
	return err
}

func checkTarget(in Post) error {
	for _, f := range []struct{ name, v string }{{"page", in.Page}, {"node", in.Node},
		{"tableCell.record", in.TableRecord}, {"tableCell.definition", in.TableDefinition}} {
		if f.v == "" {
			continue
		}
		if utf8.RuneCountInString(f.v) > MaxTargetID {
			return apierr.Invalid(f.name, "%s must be at most %d characters", f.name, MaxTargetID)
		}
		if strings.IndexFunc(f.v, unicode.IsControl) >= 0 {
			return apierr.Invalid(f.name, "%s must not hold control characters", f.name)
		}
	}
	if (in.TableRecord == "") != (in.TableDefinition == "") {
		return apierr.Invalid("tableCell", "tableCell needs both record and definition")
	}
	return nil
}

func setTarget(c *ent.CommentCreate, in Post) {
	if in.Page != "" {
		c.SetPageID(in.Page)
	}
	if in.Node != "" {
		c.SetNodeID(in.Node)
	}
	if in.TableRecord != "" {
		c.SetTableRecord(in.TableRecord).SetTableDefinition(in.TableDefinition)
	}
}

// Update changes a comment: its body (its author, while they may
// comment), whether it is resolved, and the caller's reactions (who may
// comment). Resolving sets resolvedAt and resolvedBy and takes the comment
// out of its scope's open comments; reopening clears them and counts it
// again; asking for the status it has changes nothing.
// Errors: NotFound, Forbidden, BadRequest, PreconditionFailed (deleted
// space).
func (s *Service) Update(ctx context.Context, id string, in Update) (*ent.Comment, error) {
	cur, err := s.Get(ctx, id)
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
			return nil, apierr.Forbiddenf("Only its author may edit a comment")
		}
		if body, err = encodeBody("body", *in.Body); err != nil {
			return nil, err
		}
	}
	if (in.Resolved != nil || len(in.AddedReactions) > 0 || len(in.RemovedReactions) > 0) && !perms.Reply {
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
	var out *ent.Comment
	err = withTx(ctx, s.Client, func(tx *ent.Tx) error {
		c := tx.Client()
		sc := scopeOf(cur)
		var scopeRow *ent.Space
		if in.Resolved != nil {
			if scopeRow, err = lockScope(ctx, c, sc); err != nil {
				return err
			}
		}
		cm, err := lockComment(ctx, c, id)
		if err != nil {
			return err
		}
		out = cm
		kind := ""
		if in.Body != nil {
			if out, err = c.Comment.UpdateOneID(id).SetBody(body).SetEditedAt(now).Save(ctx); err != nil {
				return fmt.Errorf("update comment: %w", err)
			}
			kind = CommentUpdated
		}
		if in.Resolved != nil {
			k, res, err := resolve(ctx, c, out, *in.Resolved, scopeRow, userID, now)
			if err != nil {
				return err
			}
			if k != "" {
				kind, out = k, res
			}
		}
		react, err := s.react(ctx, c, target{comment: id}, userID, now, added, removed)
		if err != nil {
			return err
		}
		if react && kind == "" {
			kind = CommentUpdated
		}
		if kind != "" {
			return s.notify(ctx, tx, eventOf(kind, out))
		}
		return nil
	})
	forget(ctx, id, scopeOf(cur).ChangeRequestID)
	forgetScope(ctx, scopeOf(cur))
	if err != nil {
		return nil, err
	}
	return out, nil
}

// resolve resolves or reopens a comment whose row, and its scope's, the
// transaction has locked (lockScope gave scopeRow), keeping the scope's
// count of open comments. It returns the event kind and the comment, or
// "" when the comment has that status already.
func resolve(ctx context.Context, c *ent.Client, cm *ent.Comment, resolved bool, scopeRow *ent.Space, userID string, now time.Time) (string, *ent.Comment, error) {
	u := c.Comment.UpdateOneID(cm.ID)
	kind, delta := "", 0
	switch {
	case resolved && cm.Status != StatusResolved:
		u.SetStatus(StatusResolved).SetResolvedAt(now)
		if userID != "" {
			u.SetResolvedBy(userID)
		}
		kind, delta = CommentResolved, -1
	case !resolved && cm.Status == StatusResolved:
		u.SetStatus(StatusOpen).ClearResolvedAt().ClearResolvedBy()
		kind, delta = CommentReopened, 1
	default:
		return "", cm, nil
	}
	out, err := u.Save(ctx)
	if err != nil {
		return "", nil, fmt.Errorf("resolve comment: %w", err)
	}
	return kind, out, count(ctx, c, scopeOf(cm), scopeRow, delta)
}

// Delete deletes a comment with its replies and reactions: its author
// (while they may comment) or a space admin may. It answers false when
// there was no such comment the caller may see.
// Errors: Forbidden, PreconditionFailed (deleted space).
func (s *Service) Delete(ctx context.Context, id string) (bool, error) {
	cur, err := s.Get(ctx, id)
	if apierr.CodeOf(err) == apierr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return s.delete(ctx, cur)
}

func (s *Service) delete(ctx context.Context, cur *ent.Comment) (bool, error) {
	sp, level, err := s.space(ctx, cur.SpaceID)
	if apierr.CodeOf(err) == apierr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !permissionsFor(level, actor(ctx), cur.PostedBy).Delete {
		return false, apierr.Forbiddenf("Only its author or a space admin may delete a comment")
	}
	if err := live(sp); err != nil {
		return false, err
	}
	deleted := false
	err = withTx(ctx, s.Client, func(tx *ent.Tx) error {
		deleted = false
		c := tx.Client()
		sc := scopeOf(cur)
		scopeRow, err := lockScope(ctx, c, sc)
		if err != nil {
			return err
		}
		cm, err := lockComment(ctx, c, cur.ID)
		if apierr.CodeOf(err) == apierr.NotFound {
			return nil // deleted meanwhile
		}
		if err != nil {
			return err
		}
		// Replies and reactions go with it (foreign keys cascade).
		if _, err := c.Comment.Delete().Where(comment.ID(cm.ID)).Exec(ctx); err != nil {
			return fmt.Errorf("delete comment: %w", err)
		}
		if cm.Status == StatusOpen {
			if err := count(ctx, c, sc, scopeRow, -1); err != nil {
				return err
			}
		}
		deleted = true
		return s.notify(ctx, tx, eventOf(CommentDeleted, cm))
	})
	forget(ctx, cur.ID, scopeOf(cur).ChangeRequestID)
	forgetScope(ctx, scopeOf(cur))
	return deleted, err
}
