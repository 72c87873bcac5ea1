package catalog

import (
	"context"
	"fmt"
	"net/url"

	"quire/ent"
	"quire/ent/collection"
	"quire/ent/space"
	"quire/internal/apierr"
	"quire/internal/authz"
	"quire/internal/loaders"
	"quire/internal/types"
)

// Space returns a space the caller may see, with the caller's level on it.
// Spaces in the trash are returned too (with DeletedAt set), so that they can
// be restored.
// Errors: NotFound.
func (s *Service) Space(ctx context.Context, id string) (*ent.Space, types.Role, error) {
	sp, err := loaders.For(ctx).SpaceByID.Load(ctx, id)()
	if apierr.CodeOf(err) == apierr.NotFound {
		return nil, authz.None, apierr.NotFoundf("No matching space found for id %q", id)
	}
	if err != nil {
		return nil, authz.None, err
	}
	level, err := authz.SpaceLevel(ctx, sp)
	if err != nil {
		return nil, authz.None, err
	}
	if level == authz.None {
		return nil, authz.None, apierr.NotFoundf("No matching space found for id %q", id)
	}
	return sp, level, nil
}

// spaceWith returns a live space on which the caller has at least need.
func (s *Service) spaceWith(ctx context.Context, id string, need types.Role) (*ent.Space, error) {
	sp, level, err := s.Space(ctx, id)
	if err != nil {
		return nil, err
	}
	if !level.AtLeast(need) {
		return nil, apierr.Forbiddenf("You need %s rights on this space", need)
	}
	if sp.DeletedAt != nil {
		return nil, apierr.Invalid("spaceId", "The space %q is deleted; restore it first", id)
	}
	return sp, nil
}

func (s *Service) reloadSpace(ctx context.Context, id string) (*ent.Space, error) {
	sp, err := s.Client.Space.Get(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("reload space: %w", err)
	}
	loaders.For(ctx).PrimeSpace(ctx, sp)
	return sp, nil
}

// CreateSpaceInput creates a space.
type CreateSpaceInput struct {
	Organization string
	Title        *string
	Emoji        *string
	Parent       *string
	Language     *types.Language
	EditMode     *types.EditMode
	// AfterCreate, when set, runs in the transaction that creates the
	// space, so that what records the new space commits with it (or not
	// at all). It may run more than once (see db.WithTx).
	AfterCreate func(tx *ent.Tx, sp *ent.Space) error
}

// CreateSpace creates a space, with an empty initial revision, at the end of
// its parent.
// Errors: NotFound (organization), BadRequest, Forbidden.
func (s *Service) CreateSpace(ctx context.Context, in CreateSpaceInput) (*ent.Space, error) {
	title := "Untitled"
	if in.Title != nil {
		if err := checkLen("title", *in.Title, 0, TitleMax); err != nil {
			return nil, err
		}
		title = *in.Title
	}
	if in.Emoji != nil {
		if err := checkLen("emoji", *in.Emoji, 0, EmojiMax); err != nil {
			return nil, err
		}
	}
	if in.Language != nil && !in.Language.Valid() {
		return nil, apierr.Invalid("language", "language %q is not a supported language code", *in.Language)
	}
	if in.EditMode != nil && !in.EditMode.Valid() {
		return nil, apierr.Invalid("editMode", "editMode must be live or locked")
	}
	if _, isMember, err := authz.OrgRole(ctx, in.Organization); err != nil {
		return nil, err
	} else if !isMember {
		return nil, apierr.NotFoundf("No matching organization found for id %q", in.Organization)
	}
	if err := s.requireCreateIn(ctx, in.Organization, in.Parent); err != nil {
		return nil, err
	}
	var id string
	err := WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		sibs, err := siblings(ctx, tx.Client(), in.Organization, in.Parent, "")
		if err != nil {
			return err
		}
		c := tx.Space.Create().
			SetOrganizationID(in.Organization).
			SetNillableParentID(in.Parent).
			SetTitle(title).
			SetDefaultLevel(types.Inherit).
			SetPosition(endOf(sibs)).
			SetNillableLanguage(in.Language).
			SetNillableEditMode(in.EditMode)
		if in.Emoji != nil {
			c.SetEmoji(*in.Emoji)
		}
		if in.Parent != nil {
			c.SetVisibility("in-collection")
		}
		sp, err := c.Save(ctx)
		if err != nil {
			return fmt.Errorf("create space: %w", err)
		}
		id = sp.ID
		if s.Content != nil {
			if err := s.Content.InitialContent(ctx, tx, sp); err != nil {
				return err
			}
		} else if err := initialRevision(ctx, tx, sp.ID); err != nil {
			return err
		}
		if in.AfterCreate != nil {
			return in.AfterCreate(tx, sp)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.reloadSpace(ctx, id)
}

// initialRevision gives a new space its first, empty revision, when the
// catalog works without the content engine (tests of the catalog alone).
func initialRevision(ctx context.Context, tx *ent.Tx, spaceID string) error {
	rev, err := tx.Revision.Create().SetSpaceID(spaceID).SetType("edits").Save(ctx)
	if err != nil {
		return fmt.Errorf("create initial revision: %w", err)
	}
	if err := tx.Space.UpdateOneID(spaceID).SetRevisionID(rev.ID).Exec(ctx); err != nil {
		return fmt.Errorf("set initial revision: %w", err)
	}
	return nil
}

// Spaces lists the live spaces of an organization the caller may see.
// Errors: NotFound.
func (s *Service) Spaces(ctx context.Context, orgID string) ([]*ent.Space, error) {
	if _, err := s.Organization(ctx, orgID); err != nil {
		return nil, err
	}
	all, err := s.Client.Space.Query().Where(space.OrganizationID(orgID), space.DeletedAtIsNil()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list spaces: %w", err)
	}
	if err := s.primeCollectionsOf(ctx, orgID, all); err != nil {
		return nil, err
	}
	return s.visibleSpaces(ctx, all)
}

// CollectionSpaces lists the live spaces directly inside a collection.
// Errors: NotFound.
func (s *Service) CollectionSpaces(ctx context.Context, collectionID string) ([]*ent.Space, error) {
	c, _, err := s.Collection(ctx, collectionID)
	if err != nil {
		return nil, err
	}
	all, err := loaders.For(ctx).SpacesByParent.Load(ctx, c.ID)()
	if err != nil {
		return nil, err
	}
	return s.visibleSpaces(ctx, all)
}

// primeCollectionsOf loads an organization's collections once, so that
// permission checks over many spaces do not wait on the loader per level.
func (s *Service) primeCollectionsOf(ctx context.Context, orgID string, spaces []*ent.Space) error {
	needed := false
	for _, sp := range spaces {
		if sp.ParentID != nil {
			needed = true
			break
		}
	}
	if !needed {
		return nil
	}
	cs, err := s.Client.Collection.Query().Where(collection.OrganizationID(orgID)).All(ctx)
	if err != nil {
		return fmt.Errorf("list collections: %w", err)
	}
	l := loaders.For(ctx)
	for _, c := range cs {
		l.PrimeCollection(ctx, c)
	}
	return nil
}

func (s *Service) visibleSpaces(ctx context.Context, all []*ent.Space) ([]*ent.Space, error) {
	l := loaders.For(ctx)
	out := make([]*ent.Space, 0, len(all))
	for _, sp := range all {
		l.PrimeSpace(ctx, sp)
		level, err := authz.SpaceLevel(ctx, sp)
		if err != nil {
			return nil, err
		}
		if level != authz.None {
			out = append(out, sp)
		}
	}
	sortByPosition(out, SpaceCursor)
	return out, nil
}

// UpdateSpaceInput patches a space; unset fields stay unchanged.
type UpdateSpaceInput struct {
	Title        Opt[string]
	Emoji        Opt[*string]
	Icon         Opt[*string]
	EditMode     Opt[types.EditMode]
	DefaultLevel Opt[*types.DefaultLevel]
	Language     Opt[*types.Language]
	MergeRules   Opt[types.MergeRules]
}

// UpdateSpace patches a space. Title, emoji, icon and language need edit
// rights; editMode, defaultLevel and mergeRules need admin rights.
// Errors: NotFound, BadRequest, Forbidden.
func (s *Service) UpdateSpace(ctx context.Context, id string, in UpdateSpaceInput) (*ent.Space, error) {
	if err := validateSpacePatch(in); err != nil {
		return nil, err
	}
	need := types.RoleEdit
	if in.EditMode.Set || in.DefaultLevel.Set || in.MergeRules.Set {
		need = types.RoleAdmin
	}
	sp, err := s.spaceWith(ctx, id, need)
	if err != nil {
		return nil, err
	}
	if !in.Title.Set && !in.Emoji.Set && !in.Icon.Set && !in.EditMode.Set && !in.DefaultLevel.Set &&
		!in.Language.Set && !in.MergeRules.Set {
		// Nothing to change: writing the row anyway would move updatedAt.
		return sp, nil
	}
	err = WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		u := tx.Space.UpdateOneID(sp.ID)
		if in.Title.Set {
			u.SetTitle(in.Title.Value)
		}
		if in.Emoji.Set {
			if in.Emoji.Value == nil {
				u.SetEmoji("")
			} else {
				u.SetEmoji(*in.Emoji.Value)
			}
		}
		if in.Icon.Set {
			u.SetNillableIcon(in.Icon.Value)
			if in.Icon.Value == nil {
				u.ClearIcon()
			}
		}
		if in.EditMode.Set {
			u.SetEditMode(in.EditMode.Value)
		}
		if in.DefaultLevel.Set {
			if in.DefaultLevel.Value == nil {
				u.ClearDefaultLevel()
			} else {
				u.SetDefaultLevel(*in.DefaultLevel.Value)
			}
		}
		if in.Language.Set {
			if in.Language.Value == nil {
				u.ClearLanguage()
			} else {
				u.SetLanguage(*in.Language.Value)
			}
		}
		if in.MergeRules.Set {
			u.SetMergeRules(in.MergeRules.Value)
		}
		_, err := u.Save(ctx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("update space: %w", err)
	}
	return s.reloadSpace(ctx, sp.ID)
}

func validateSpacePatch(in UpdateSpaceInput) error {
	if in.Title.Set {
		if err := checkLen("title", in.Title.Value, 0, TitleMax); err != nil {
			return err
		}
	}
	if in.Emoji.Set && in.Emoji.Value != nil {
		if err := checkLen("emoji", *in.Emoji.Value, 0, EmojiMax); err != nil {
			return err
		}
	}
	if in.Icon.Set && in.Icon.Value != nil {
		if err := checkLen("icon", *in.Icon.Value, 1, IconMax); err != nil {
			return err
		}
		u, err := url.Parse(*in.Icon.Value)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return apierr.Invalid("icon", "icon must be an http(s) URL")
		}
	}
	if in.Emoji.Set && in.Emoji.Value != nil && in.Icon.Set && in.Icon.Value != nil {
		return apierr.Invalid("icon", "Set either emoji or icon, not both")
	}
	if in.EditMode.Set && !in.EditMode.Value.Valid() {
		return apierr.Invalid("editMode", "editMode must be live or locked")
	}
	if in.DefaultLevel.Set && in.DefaultLevel.Value != nil && !in.DefaultLevel.Value.Valid() {
		return apierr.Invalid("defaultLevel", "defaultLevel must be one of admin, create, review, edit, comment, read, inherit or null")
	}
	if in.Language.Set && in.Language.Value != nil && !in.Language.Value.Valid() {
		return apierr.Invalid("language", "language %q is not a supported language code", *in.Language.Value)
	}
	if in.MergeRules.Set {
		if err := ValidateMergeRules(in.MergeRules.Value, true); err != nil {
			return err
		}
	}
	return nil
}

// ValidateMergeRules checks a merge rules configuration.
func ValidateMergeRules(m types.MergeRules, allowInherit bool) error {
	switch m.Type {
	case "inherit":
		if !allowInherit {
			return apierr.Invalid("mergeRules.type", "mergeRules.type must be rules or none")
		}
	case "none":
	case "rules":
		for i, r := range m.Rules {
			if !types.ValidRuleName(r.Rule) {
				return apierr.Invalid("mergeRules.rules", "mergeRules.rules[%d].rule %q is not a known rule", i, r.Rule)
			}
			if types.RuleNeedsUsers(r.Rule) && len(r.Users) == 0 {
				return apierr.Invalid("mergeRules.rules", "mergeRules.rules[%d].users is required for %s", i, r.Rule)
			}
			if r.Rule == "custom" && (r.Expression == nil || *r.Expression == "" || len(*r.Expression) > 1024) {
				return apierr.Invalid("mergeRules.rules", "mergeRules.rules[%d].expression is required (at most 1024 characters) for custom", i)
			}
		}
	default:
		return apierr.Invalid("mergeRules.type", "mergeRules.type must be inherit, rules or none")
	}
	return nil
}
