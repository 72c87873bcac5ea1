package authz

import (
	"context"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/loaders"
	"quire/internal/types"
)

// None is the level of a caller who may not see the content.
const None types.Role = ""

// OrgRole returns the caller's role in an organization and whether they are
// an active member (a guest is a member with an empty role).
// The system caller (auth.WithSystem) is an admin everywhere.
// Errors: Forbidden when the organization enforces single sign-on and the
// caller, who is not one of its admins, is not one of its SSO members: they
// may see the organization itself (OrgMembership), not what is in it;
// Forbidden too, for every member, while the organization is blocked.
func OrgRole(ctx context.Context, orgID string) (types.Role, bool, error) {
	role, member, m, err := membership(ctx, orgID)
	if err != nil || !member || m == nil {
		return role, member, err
	}
	// The caller's organizations come with the caller: reading this one
	// costs no statement.
	org, err := loaders.For(ctx).OrganizationByID.Load(ctx, orgID)()
	if err != nil {
		return None, false, err
	}
	if org.BlockedReason != nil {
		// An operator blocked the organization (quire admin org block):
		// its members still see the organization and its block, nothing
		// in it.
		return None, false, apierr.Forbiddenf("The organization %q is blocked: %s", orgID, *org.BlockedReason)
	}
	if role == types.RoleAdmin || m.SSO {
		return role, member, nil
	}
	if org.SSO {
		return None, false, apierr.Forbiddenf("The organization %q requires single sign-on: sign in through one of its identity providers (GET /v1/orgs/%s/sso lists them) to reach its content", orgID, orgID)
	}
	return role, member, nil
}

// OrgMembership is OrgRole without single sign-on enforced: what the
// organization itself shows of the caller.
func OrgMembership(ctx context.Context, orgID string) (types.Role, bool, error) {
	role, member, _, err := membership(ctx, orgID)
	return role, member, err
}

func membership(ctx context.Context, orgID string) (types.Role, bool, *ent.Member, error) {
	if auth.IsSystem(ctx) {
		return types.RoleAdmin, true, nil, nil
	}
	ms, err := loaders.For(ctx).ViewerMemberships(ctx)
	if err != nil {
		return None, false, nil, err
	}
	m, ok := ms[orgID]
	if !ok || m.Disabled {
		return None, false, nil, nil
	}
	if m.Role == nil {
		return None, true, m, nil
	}
	return *m.Role, true, m, nil
}

// CollectionLevel returns the caller's level on a collection.
func CollectionLevel(ctx context.Context, c *ent.Collection) (types.Role, error) {
	return viewerLevel(ctx, c.OrganizationID, c.ID, c.DefaultLevel, c.ParentID)
}

// SpaceLevel returns the caller's level on a space.
func SpaceLevel(ctx context.Context, s *ent.Space) (types.Role, error) {
	return viewerLevel(ctx, s.OrganizationID, s.ID, s.DefaultLevel, s.ParentID)
}

func viewerLevel(ctx context.Context, orgID, id string, level *types.DefaultLevel, parentID *string) (types.Role, error) {
	role, member, err := OrgRole(ctx, orgID)
	if err != nil || !member {
		return None, err
	}
	l := loaders.For(ctx)
	var grants *auth.Grants
	if role != types.RoleAdmin {
		if grants, err = l.ViewerGrants(ctx); err != nil {
			return None, err
		}
	}
	parent := func(id string) (*ent.Collection, error) { return l.CollectionByID.Load(ctx, id)() }
	return contentLevel(role, grants, orgID, id, level, parentID, parent)
}

// Subject is a member whose levels are computed from what was loaded for
// them rather than from the caller's memberships: for the lists of who may
// reach content, and of what a member may reach.
type Subject struct {
	// Role is the member's organization role; None for a guest.
	Role types.Role
	// Active is false for disabled members and non-members.
	Active bool
	Grants *auth.Grants
}

// SpaceLevel is the subject's level on a space; parent reads the
// collections above it.
func (s Subject) SpaceLevel(sp *ent.Space, parent func(string) (*ent.Collection, error)) (types.Role, error) {
	if !s.Active {
		return None, nil
	}
	return contentLevel(s.Role, s.Grants, sp.OrganizationID, sp.ID, sp.DefaultLevel, sp.ParentID, parent)
}

// CollectionLevel is the subject's level on a collection.
func (s Subject) CollectionLevel(c *ent.Collection, parent func(string) (*ent.Collection, error)) (types.Role, error) {
	if !s.Active {
		return None, nil
	}
	return contentLevel(s.Role, s.Grants, c.OrganizationID, c.ID, c.DefaultLevel, c.ParentID, parent)
}

// contentLevel is the level on content (a space or a collection, id) of an
// active member of its organization whose role is role (None for a guest):
// admin for admins; otherwise the highest of what the content's default
// level gives the role (guests: nothing) and what grants give on the
// content or on any collection above it.
func contentLevel(role types.Role, grants *auth.Grants, orgID, id string, level *types.DefaultLevel, parentID *string,
	parent func(string) (*ent.Collection, error)) (types.Role, error) {
	if role == types.RoleAdmin {
		return role, nil
	}
	best := None
	if role != None {
		var err error
		if best, err = resolve(level, parentID, role, parent, 0); err != nil {
			return None, err
		}
	}
	if !grants.In(orgID) {
		return best, nil
	}
	best = Higher(best, grants.Level(orgID, id))
	for p, depth := parentID, 0; p != nil && depth <= maxDepth; depth++ {
		c, err := parent(*p)
		if err != nil {
			return None, err
		}
		best = Higher(best, grants.Level(orgID, c.ID))
		p = c.ParentID
	}
	return best, nil
}

// Higher returns the higher of two levels.
func Higher(a, b types.Role) types.Role {
	if b.Rank() > a.Rank() {
		return b
	}
	return a
}

// maxDepth stops a corrupt parent chain from looping forever.
const maxDepth = 64

// resolve is the level a default level gives a role: a role as is, nil
// nothing, and inherit the parent's, up to the organization, where it is
// the role itself.
func resolve(level *types.DefaultLevel, parentID *string, orgRole types.Role, parent func(string) (*ent.Collection, error), depth int) (types.Role, error) {
	if level == nil {
		return None, nil
	}
	if *level != types.Inherit {
		return types.Role(*level), nil
	}
	if parentID == nil || depth > maxDepth {
		return orgRole, nil
	}
	p, err := parent(*parentID)
	if err != nil {
		return None, err
	}
	return resolve(p.DefaultLevel, p.ParentID, orgRole, parent, depth+1)
}
