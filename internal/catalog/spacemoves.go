package catalog

import (
	"context"
	"fmt"

	"quire/ent"
	"quire/ent/space"
	"quire/internal/apierr"
	"quire/internal/types"
)

// DeleteSpace moves a space to the trash; it is purged after Retention. It
// reports false when the space did not exist (or was already deleted).
// Errors: Forbidden.
func (s *Service) DeleteSpace(ctx context.Context, id string) (bool, error) {
	sp, level, err := s.Space(ctx, id)
	if apierr.CodeOf(err) == apierr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if level != types.RoleAdmin {
		return false, apierr.Forbiddenf("You need admin rights on this space")
	}
	if sp.DeletedAt != nil {
		return false, nil
	}
	var n int
	err = WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		var err error
		n, err = tx.Space.Update().Where(space.ID(sp.ID), space.DeletedAtIsNil()).SetDeletedAt(s.Now()).Save(ctx)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("delete space: %w", err)
	}
	if _, err := s.reloadSpace(ctx, sp.ID); err != nil {
		return false, err
	}
	return n > 0, nil
}

// RestoreSpace takes a space out of the trash, within Retention of its
// deletion. A space whose collection is gone comes back at the root.
// Errors: NotFound (unknown, or purged), BadRequest (not deleted),
// Forbidden.
func (s *Service) RestoreSpace(ctx context.Context, id string) (*ent.Space, error) {
	sp, level, err := s.Space(ctx, id)
	if err != nil {
		return nil, err
	}
	if level != types.RoleAdmin {
		return nil, apierr.Forbiddenf("You need admin rights on this space")
	}
	if sp.DeletedAt == nil {
		return nil, apierr.Invalid("spaceId", "The space %q is not deleted", id)
	}
	if s.Now().Sub(*sp.DeletedAt) > Retention {
		return nil, apierr.NotFoundf("No matching space found for id %q: it was deleted more than 7 days ago", id)
	}
	err = WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		sibs, err := siblings(ctx, tx.Client(), sp.OrganizationID, sp.ParentID, sp.ID)
		if err != nil {
			return err
		}
		_, err = tx.Space.UpdateOneID(sp.ID).ClearDeletedAt().SetPosition(endOf(sibs)).Save(ctx)
		if err != nil {
			return fmt.Errorf("restore space: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.reloadSpace(ctx, sp.ID)
}

// DuplicateSpace copies a space's settings into a new space placed right
// after it, with a revision of its own.
// Errors: NotFound, Forbidden (no create rights where the copy goes).
func (s *Service) DuplicateSpace(ctx context.Context, id string) (*ent.Space, error) {
	sp, err := s.spaceWith(ctx, id, types.RoleRead)
	if err != nil {
		return nil, err
	}
	if err := s.requireCreateIn(ctx, sp.OrganizationID, sp.ParentID); err != nil {
		return nil, err
	}
	title := sp.Title + " (copy)"
	if r := []rune(title); len(r) > 50 {
		title = string(r[:50])
	}
	var newID string
	err = WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		sibs, err := siblings(ctx, tx.Client(), sp.OrganizationID, sp.ParentID, "")
		if err != nil {
			return err
		}
		pos, err := placeAmong(sibs, &Position{After: &Pointer{Type: "space", ID: sp.ID}})
		if err != nil {
			return err
		}
		c := tx.Space.Create().
			SetOrganizationID(sp.OrganizationID).
			SetNillableParentID(sp.ParentID).
			SetTitle(title).
			SetEmoji(sp.Emoji).
			SetNillableIcon(sp.Icon).
			SetVisibility(sp.Visibility).
			SetNillableDefaultLevel(sp.DefaultLevel).
			SetEditMode(sp.EditMode).
			SetNillableLanguage(sp.Language).
			SetMergeRules(sp.MergeRules).
			SetPosition(pos)
		created, err := c.Save(ctx)
		if err != nil {
			return fmt.Errorf("duplicate space: %w", err)
		}
		newID = created.ID
		if s.Content == nil {
			return initialRevision(ctx, tx, created.ID)
		}
		return s.Content.DuplicateContent(ctx, tx, sp, created)
	})
	if err != nil {
		return nil, err
	}
	return s.reloadSpace(ctx, newID)
}

// MoveSpace moves a space to another collection (or the root) and/or among
// its siblings.
// Errors: NotFound, BadRequest, Forbidden, Conflict (nothing would change).
func (s *Service) MoveSpace(ctx context.Context, id string, in MoveInput) (*ent.Space, error) {
	if !in.Parent.Set && in.Position == nil {
		return nil, apierr.Invalid("parent", "Provide parent and/or position")
	}
	sp, err := s.spaceWith(ctx, id, types.RoleAdmin)
	if err != nil {
		return nil, err
	}
	target := sp.ParentID
	if in.Parent.Set {
		target = in.Parent.Value
	}
	if !sameParent(sp.ParentID, target) {
		// Placing content somewhere new needs create rights there, the
		// organization's root included.
		if err := s.requireCreateIn(ctx, sp.OrganizationID, target); err != nil {
			return nil, err
		}
	}
	if sameParent(sp.ParentID, target) && in.Position == nil {
		return nil, apierr.New(apierr.Conflict, "Operation would not result in any update")
	}
	err = WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		sibs, err := siblings(ctx, tx.Client(), sp.OrganizationID, target, sp.ID)
		if err != nil {
			return err
		}
		pos, err := placeAmong(sibs, in.Position)
		if err != nil {
			return err
		}
		if sameParent(sp.ParentID, target) && samePlace(sibs, sp.Position, pos) {
			return apierr.New(apierr.Conflict, "Operation would not result in any update")
		}
		u := tx.Space.UpdateOneID(sp.ID).SetPosition(pos)
		if target == nil {
			u.ClearParentID()
			if sp.Visibility == "in-collection" {
				u.SetVisibility("private")
			}
		} else {
			u.SetParentID(*target)
		}
		_, err = u.Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.reloadSpace(ctx, sp.ID)
}

// TransferSpace moves a space to the root of another organization.
// Errors: NotFound, Forbidden (not admin in both), Conflict (same
// organization), PreconditionFailed (the space is in the trash).
func (s *Service) TransferSpace(ctx context.Context, id, orgID string) (*ent.Space, error) {
	if orgID == "" {
		return nil, apierr.Invalid("organization", "organization is required")
	}
	sp, level, err := s.Space(ctx, id)
	if err != nil {
		return nil, err
	}
	if level != types.RoleAdmin {
		return nil, apierr.Forbiddenf("You need admin rights on this space")
	}
	if err := requireOrgAdmin(ctx, orgID); err != nil {
		return nil, err
	}
	if sp.OrganizationID == orgID {
		return nil, apierr.New(apierr.Conflict, "Transfer would not result in any update")
	}
	if sp.DeletedAt != nil {
		return nil, apierr.New(apierr.PreconditionFailed, "The space cannot be moved: it is deleted; restore it first")
	}
	err = WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		sibs, err := siblings(ctx, tx.Client(), orgID, nil, "")
		if err != nil {
			return err
		}
		u := tx.Space.UpdateOneID(sp.ID).SetOrganizationID(orgID).ClearParentID().SetPosition(endOf(sibs))
		if sp.Visibility == "in-collection" {
			u.SetVisibility("private")
		}
		_, err = u.Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.reloadSpace(ctx, sp.ID)
}
