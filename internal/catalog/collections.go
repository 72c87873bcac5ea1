package catalog

import (
	"context"
	"fmt"
	"unicode/utf8"

	"quire/ent"
	"quire/ent/collection"
	"quire/ent/space"
	"quire/internal/apierr"
	"quire/internal/authz"
	"quire/internal/loaders"
	"quire/internal/types"
)

// Collection returns a collection the caller may see.
// Errors: NotFound.
func (s *Service) Collection(ctx context.Context, id string) (*ent.Collection, types.Role, error) {
	c, err := loaders.For(ctx).CollectionByID.Load(ctx, id)()
	if apierr.CodeOf(err) == apierr.NotFound {
		return nil, authz.None, apierr.NotFoundf("No matching collection found for id %q", id)
	}
	if err != nil {
		return nil, authz.None, err
	}
	level, err := authz.CollectionLevel(ctx, c)
	if err != nil {
		return nil, authz.None, err
	}
	if level == authz.None {
		return nil, authz.None, apierr.NotFoundf("No matching collection found for id %q", id)
	}
	return c, level, nil
}

func (s *Service) adminCollection(ctx context.Context, id string) (*ent.Collection, error) {
	c, level, err := s.Collection(ctx, id)
	if err != nil {
		return nil, err
	}
	if level != types.RoleAdmin {
		return nil, apierr.Forbiddenf("You need admin rights on this collection")
	}
	return c, nil
}

// CreateCollectionInput creates a collection.
type CreateCollectionInput struct {
	Organization string
	Title        *string
	Parent       *string
}

// requireCreateIn checks that the caller may create content in an
// organization, or in a parent collection of it.
func (s *Service) requireCreateIn(ctx context.Context, orgID string, parentID *string) error {
	if parentID != nil {
		p, level, err := s.Collection(ctx, *parentID)
		if err != nil {
			if apierr.CodeOf(err) == apierr.NotFound {
				return apierr.Invalid("parent", "parent: no matching collection found for id %q", *parentID)
			}
			return err
		}
		if p.OrganizationID != orgID {
			return apierr.Invalid("parent", "parent: no matching collection found for id %q", *parentID)
		}
		if !level.AtLeast(types.RoleCreate) {
			return apierr.Forbiddenf("You are not allowed to create content in this collection")
		}
		return nil
	}
	role, isMember, err := authz.OrgRole(ctx, orgID)
	if err != nil {
		return err
	}
	if !isMember {
		return apierr.NotFoundf("No matching organization found for id %q", orgID)
	}
	if !role.AtLeast(types.RoleCreate) {
		return apierr.Forbiddenf("You are not allowed to create content in this organization")
	}
	return nil
}

// CreateCollection creates a collection at the end of its parent.
// Errors: NotFound (organization), BadRequest, Forbidden.
func (s *Service) CreateCollection(ctx context.Context, in CreateCollectionInput) (*ent.Collection, error) {
	title := "Untitled"
	if in.Title != nil {
		if err := checkLen("title", *in.Title, 0, TitleMax); err != nil {
			return nil, err
		}
		title = *in.Title
	}
	if _, isMember, err := authz.OrgRole(ctx, in.Organization); err != nil {
		return nil, err
	} else if !isMember {
		return nil, apierr.NotFoundf("No matching organization found for id %q", in.Organization)
	}
	if err := s.requireCreateIn(ctx, in.Organization, in.Parent); err != nil {
		return nil, err
	}
	var created *ent.Collection
	err := WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		sibs, err := siblings(ctx, tx.Client(), in.Organization, in.Parent, "")
		if err != nil {
			return err
		}
		inherit := types.Inherit
		created, err = tx.Collection.Create().
			SetOrganizationID(in.Organization).
			SetNillableParentID(in.Parent).
			SetTitle(title).
			SetDefaultLevel(inherit).
			SetPosition(endOf(sibs)).
			Save(ctx)
		if err != nil {
			return fmt.Errorf("create collection: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.reloadCollection(ctx, created.ID)
}

func (s *Service) reloadCollection(ctx context.Context, id string) (*ent.Collection, error) {
	c, err := s.Client.Collection.Get(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("reload collection: %w", err)
	}
	loaders.For(ctx).PrimeCollection(ctx, c)
	return c, nil
}

// UpdateCollectionInput patches a collection; unset fields stay unchanged.
type UpdateCollectionInput struct {
	Title        Opt[string]
	Description  Opt[*string]
	DefaultLevel Opt[*types.DefaultLevel]
}

// UpdateCollection patches a collection.
// Errors: NotFound, BadRequest, Forbidden.
func (s *Service) UpdateCollection(ctx context.Context, id string, in UpdateCollectionInput) (*ent.Collection, error) {
	if in.Title.Set {
		if err := checkLen("title", in.Title.Value, 0, TitleMax); err != nil {
			return nil, err
		}
	}
	if in.Description.Set && in.Description.Value != nil {
		if err := checkLen("description", *in.Description.Value, 0, DescriptionMax); err != nil {
			return nil, err
		}
	}
	if in.DefaultLevel.Set && in.DefaultLevel.Value != nil && !in.DefaultLevel.Value.Valid() {
		return nil, apierr.Invalid("defaultLevel", "defaultLevel must be one of admin, create, review, edit, comment, read, inherit or null")
	}
	c, err := s.adminCollection(ctx, id)
	if err != nil {
		return nil, err
	}
	err = WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		u := tx.Collection.UpdateOneID(c.ID)
		if in.Title.Set {
			u.SetTitle(in.Title.Value)
		}
		if in.Description.Set {
			if in.Description.Value == nil {
				u.ClearDescription()
			} else {
				u.SetDescription(*in.Description.Value)
			}
		}
		if in.DefaultLevel.Set {
			if in.DefaultLevel.Value == nil {
				u.ClearDefaultLevel()
			} else {
				u.SetDefaultLevel(*in.DefaultLevel.Value)
			}
		}
		_, err := u.Save(ctx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("update collection: %w", err)
	}
	return s.reloadCollection(ctx, c.ID)
}

// DeleteCollection deletes a collection with its sub-collections; the spaces
// inside go to the trash (restorable for the retention period, at the root).
// It reports false when the collection did not exist for the caller.
// Errors: Forbidden.
func (s *Service) DeleteCollection(ctx context.Context, id string) (bool, error) {
	c, err := s.adminCollection(ctx, id)
	if apierr.CodeOf(err) == apierr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	err = WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		ids, err := descendants(ctx, tx.Client(), c.ID)
		if err != nil {
			return err
		}
		now := s.Now()
		if _, err := tx.Space.Update().Where(space.ParentIDIn(ids...), space.DeletedAtIsNil()).
			SetDeletedAt(now).ClearParentID().Save(ctx); err != nil {
			return fmt.Errorf("trash spaces of collection: %w", err)
		}
		if _, err := tx.Space.Update().Where(space.ParentIDIn(ids...)).ClearParentID().Save(ctx); err != nil {
			return fmt.Errorf("detach trashed spaces: %w", err)
		}
		// Children first, so that parent references never dangle.
		for i := len(ids) - 1; i >= 0; i-- {
			if err := tx.Collection.DeleteOneID(ids[i]).Exec(ctx); err != nil {
				return fmt.Errorf("delete collection: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	loaders.For(ctx).CollectionByID.Clear(ctx, c.ID)
	return true, nil
}

// descendants returns id and every collection below it, parents first.
func descendants(ctx context.Context, c *ent.Client, id string) ([]string, error) {
	out := []string{id}
	frontier := []string{id}
	for len(frontier) > 0 && len(out) < 100000 {
		kids, err := c.Collection.Query().Where(collection.ParentIDIn(frontier...)).IDs(ctx)
		if err != nil {
			return nil, fmt.Errorf("list sub-collections: %w", err)
		}
		out = append(out, kids...)
		frontier = kids
	}
	return out, nil
}

// Collections lists the organization's collections the caller may see: all of
// them when nested is true, only those at the root otherwise.
// Errors: NotFound.
func (s *Service) Collections(ctx context.Context, orgID string, nested bool) ([]*ent.Collection, error) {
	if _, err := s.Organization(ctx, orgID); err != nil {
		return nil, err
	}
	// What is in the organization, even an empty list, is refused while
	// its content is (single sign-on, a block).
	if _, _, err := authz.OrgRole(ctx, orgID); err != nil {
		return nil, err
	}
	q := s.Client.Collection.Query().Where(collection.OrganizationID(orgID))
	all, err := q.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list collections: %w", err)
	}
	l := loaders.For(ctx)
	for _, c := range all {
		l.PrimeCollection(ctx, c)
	}
	out := make([]*ent.Collection, 0, len(all))
	for _, c := range all {
		if !nested && c.ParentID != nil {
			continue
		}
		level, err := authz.CollectionLevel(ctx, c)
		if err != nil {
			return nil, err
		}
		if level != authz.None {
			out = append(out, c)
		}
	}
	sortByPosition(out, CollectionCursor)
	return out, nil
}

// SubCollections lists the visible collections directly inside a collection.
func (s *Service) SubCollections(ctx context.Context, c *ent.Collection) ([]*ent.Collection, error) {
	kids, err := loaders.For(ctx).CollectionsByParent.Load(ctx, c.ID)()
	if err != nil {
		return nil, err
	}
	return s.visibleCollections(ctx, kids)
}

func (s *Service) visibleCollections(ctx context.Context, cs []*ent.Collection) ([]*ent.Collection, error) {
	l := loaders.For(ctx)
	out := make([]*ent.Collection, 0, len(cs))
	for _, c := range cs {
		l.PrimeCollection(ctx, c)
	}
	for _, c := range cs {
		level, err := authz.CollectionLevel(ctx, c)
		if err != nil {
			return nil, err
		}
		if level != authz.None {
			out = append(out, c)
		}
	}
	sortByPosition(out, CollectionCursor)
	return out, nil
}

// MoveInput moves a collection or a space: Parent (when set) is the new
// parent collection, nil for the root; Position places it among siblings.
type MoveInput struct {
	Parent   Opt[*string]
	Position *Position
}

// MoveCollection moves a collection.
// Errors: NotFound, BadRequest (invalid position or parent), Forbidden,
// Conflict (nothing would change).
func (s *Service) MoveCollection(ctx context.Context, id string, in MoveInput) (*ent.Collection, error) {
	if !in.Parent.Set && in.Position == nil {
		return nil, apierr.Invalid("parent", "Provide parent and/or position")
	}
	c, err := s.adminCollection(ctx, id)
	if err != nil {
		return nil, err
	}
	target := c.ParentID
	if in.Parent.Set {
		target = in.Parent.Value
	}
	if target == nil && c.ParentID != nil {
		// Moving to the organization's root needs create rights there.
		if err := s.requireCreateIn(ctx, c.OrganizationID, nil); err != nil {
			return nil, err
		}
	}
	if target != nil {
		if *target == c.ID {
			return nil, apierr.Invalid("parent", "A collection cannot be moved into itself")
		}
		if err := s.requireCreateIn(ctx, c.OrganizationID, target); err != nil {
			return nil, err
		}
		ancestors, err := s.ancestorIDs(ctx, *target)
		if err != nil {
			return nil, err
		}
		for _, a := range ancestors {
			if a == c.ID {
				return nil, apierr.Invalid("parent", "A collection cannot be moved into one of its own sub-collections")
			}
		}
	}
	if sameParent(c.ParentID, target) && in.Position == nil {
		return nil, apierr.New(apierr.Conflict, "Operation would not result in any update")
	}
	err = WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		sibs, err := siblings(ctx, tx.Client(), c.OrganizationID, target, c.ID)
		if err != nil {
			return err
		}
		pos, err := placeAmong(sibs, in.Position)
		if err != nil {
			return err
		}
		if sameParent(c.ParentID, target) && samePlace(sibs, c.Position, pos) {
			return apierr.New(apierr.Conflict, "Operation would not result in any update")
		}
		u := tx.Collection.UpdateOneID(c.ID).SetPosition(pos)
		if target == nil {
			u.ClearParentID()
		} else {
			u.SetParentID(*target)
		}
		_, err = u.Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.reloadCollection(ctx, c.ID)
}

func (s *Service) ancestorIDs(ctx context.Context, id string) ([]string, error) {
	var out []string
	cur := &id
	for cur != nil && len(out) < 64 {
		out = append(out, *cur)
		c, err := loaders.For(ctx).CollectionByID.Load(ctx, *cur)()
		if err != nil {
			return nil, err
		}
		cur = c.ParentID
	}
	return out, nil
}

func sameParent(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// TransferCollection moves a collection, with everything inside it, to the
// root of another organization.
// Errors: NotFound, Forbidden (not admin in both), Conflict (same
// organization), PreconditionFailed (a space inside is in the trash).
func (s *Service) TransferCollection(ctx context.Context, id, orgID string) (*ent.Collection, error) {
	if orgID == "" {
		return nil, apierr.Invalid("organization", "organization is required")
	}
	c, err := s.adminCollection(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := requireOrgAdmin(ctx, orgID); err != nil {
		return nil, err
	}
	if c.OrganizationID == orgID {
		return nil, apierr.New(apierr.Conflict, "Transfer would not result in any update")
	}
	err = WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		ids, err := descendants(ctx, tx.Client(), c.ID)
		if err != nil {
			return err
		}
		trashed, err := tx.Space.Query().Where(space.ParentIDIn(ids...), space.DeletedAtNotNil()).Exist(ctx)
		if err != nil {
			return fmt.Errorf("check trashed spaces: %w", err)
		}
		if trashed {
			return apierr.New(apierr.PreconditionFailed, "The collection cannot be moved: it holds deleted spaces; restore or purge them first")
		}
		sibs, err := siblings(ctx, tx.Client(), orgID, nil, "")
		if err != nil {
			return err
		}
		if _, err := tx.Collection.UpdateOneID(c.ID).SetOrganizationID(orgID).ClearParentID().SetPosition(endOf(sibs)).Save(ctx); err != nil {
			return fmt.Errorf("transfer collection: %w", err)
		}
		if _, err := tx.Collection.Update().Where(collection.IDIn(ids[1:]...)).SetOrganizationID(orgID).Save(ctx); err != nil {
			return fmt.Errorf("transfer sub-collections: %w", err)
		}
		if _, err := tx.Space.Update().Where(space.ParentIDIn(ids...)).SetOrganizationID(orgID).Save(ctx); err != nil {
			return fmt.Errorf("transfer spaces: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.reloadCollection(ctx, c.ID)
}

// requireOrgAdmin checks the caller administers orgID.
func requireOrgAdmin(ctx context.Context, orgID string) error {
	role, isMember, err := authz.OrgRole(ctx, orgID)
	if err != nil {
		return err
	}
	if !isMember {
		return apierr.NotFoundf("No matching organization found for id %q", orgID)
	}
	if role != types.RoleAdmin {
		return apierr.Forbiddenf("You need admin rights in the target organization")
	}
	return nil
}

// checkLen validates a string's length in characters.
func checkLen(field, v string, min, max int) error {
	n := utf8.RuneCountInString(v)
	if n < min || n > max {
		if min > 0 {
			return apierr.Invalid(field, "%s must be between %d and %d characters long", field, min, max)
		}
		return apierr.Invalid(field, "%s must be at most %d characters long", field, max)
	}
	return nil
}
