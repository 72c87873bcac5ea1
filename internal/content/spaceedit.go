package content

import (
	"context"
	"fmt"

	"quire/ent"
	"quire/internal/types"
)

// SpaceEditResult is the outcome of EditSpace.
type SpaceEditResult struct {
	// Space is the space after the edit.
	Space *ent.Space
	// Revision is the space's current revision after the edit.
	Revision string
	// Changed is false when the edits changed nothing (no revision was
	// written).
	Changed bool
	// IDs holds, for each op, the id of the page or file it created or
	// changed ("" for the others).
	IDs []string
}

// EditSpace applies ops, in order, directly to the current content of a
// space, without a change request: one revision of type edits (a delta on
// the space's current revision, its only parent, with the caller as author)
// becomes the space's current revision. It takes the same ops as Edit.
// The space row is locked for the transaction, so concurrent edits and
// merges into one space run one after the other. Nothing is written when
// an op fails or the ops change nothing. Open change requests become
// outdated, as after a merge.
// The caller needs edit rights on the space.
// Errors: NotFound (space, or a page or file an op names), BadRequest
// (invalid input), Forbidden (no edit rights; the space is locked),
// PreconditionFailed (the space is deleted).
func (s *Service) EditSpace(ctx context.Context, spaceID string, ops ...Op) (*SpaceEditResult, error) {
	return s.EditSpaceThen(ctx, spaceID, nil, ops...)
}

// EditSpaceThen is EditSpace that runs then, when set, in the edit's
// transaction once the ops are applied (also when they changed nothing),
// so that what a caller records about the edit commits with it, or not at
// all. then may run more than once (see db.WithTx).
func (s *Service) EditSpaceThen(ctx context.Context, spaceID string, then func(tx *ent.Tx, res *SpaceEditResult) error, ops ...Op) (*SpaceEditResult, error) {
	if err := checkOps(ops); err != nil {
		return nil, err
	}
	if _, err := s.SpaceFor(ctx, spaceID, types.RoleEdit); err != nil {
		return nil, err
	}
	userID := actor(ctx)
	now := s.Now()
	var res *SpaceEditResult
	err := withTx(ctx, s.Client, func(tx *ent.Tx) error {
		c := tx.Client()
		sp, err := lockSpace(ctx, c, spaceID)
		if err != nil {
			return err
		}
		if err := checkEditable(sp, "editing content"); err != nil {
			return err
		}
		var (
			head    *ent.Revision
			base    = newState()
			parents = []string{}
		)
		if sp.RevisionID != "" {
			revs, states, err := loadStates(ctx, c, loadTree, sp.RevisionID)
			if err != nil {
				return err
			}
			head, base = revs[sp.RevisionID], states[sp.RevisionID]
			parents = []string{head.ID}
		}
		e := newEditor(sp.ID, now, base.clone())
		res = &SpaceEditResult{Space: sp, Revision: sp.RevisionID, IDs: make([]string, len(ops))}
		for i, op := range ops {
			if res.IDs[i], err = op.apply(e); err != nil {
				return err
			}
		}
		if len(diffEntries(base, e.st)) == 0 && sameJSON(base.vars, e.st.vars) {
			if then != nil {
				return then(tx, res)
			}
			return nil
		}
		if err := insertPending(ctx, c, e.pendingFor()); err != nil {
			return err
		}
		rev, err := writeRevision(ctx, c, revisionWrite{
			spaceID: sp.ID, typ: RevisionEdits, base: head, baseState: base, next: e.st,
			parents: parents, authorID: author(userID), now: now,
		})
		if err != nil {
			return err
		}
		var old *state
		if head != nil {
			old = base
		}
		err = s.setCurrentRevision(ctx, tx, revisionChange{space: sp, rev: rev, old: old, next: e.st, actor: userID, now: now,
			update: func(u *ent.SpaceUpdate) *ent.SpaceUpdate { return u.SetUpdatedAt(now) }})
		if err != nil {
			return err
		}
		if sp, err = c.Space.Get(ctx, sp.ID); err != nil {
			return fmt.Errorf("reload space: %w", err)
		}
		res.Space, res.Revision, res.Changed = sp, rev.ID, true
		if then != nil {
			return then(tx, res)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}
