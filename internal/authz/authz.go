// Package authz decides what the caller may do with an organization, a
// collection or a space. Both doors reach it through the same service calls.
//
// A member's level on content is:
//   - admin for organization admins, everywhere in their organization;
//   - nothing for guests (a member without role), disabled members and
//     non-members;
//   - otherwise the content's defaultLevel: a role applies as is, null means
//     no default access, and "inherit" follows the parent collection up to the
//     organization, where it is the member's organization role.
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
func OrgRole(ctx context.Context, orgID string) (types.Role, bool, error) {
	if auth.IsSystem(ctx) {
		return types.RoleAdmin, true, nil
	}
	l := loaders.For(ctx)
	ms, err := l.ViewerMemberships(ctx)
	if err != nil {
		return None, false, err
	}
	m, ok := ms[orgID]
	if !ok || m.Disabled {
		return None, false, nil
	}
	if m.Role == nil {
		return None, true, nil
	}
	return *m.Role, true, nil
}

// CollectionLevel returns the caller's level on a collection.
func CollectionLevel(ctx context.Context, c *ent.Collection) (types.Role, error) {
	role, member, err := OrgRole(ctx, c.OrganizationID)
	if err != nil || !member || role == None {
		return None, err
	}
	if role == types.RoleAdmin {
		return role, nil
	}
	return resolve(ctx, c.DefaultLevel, c.ParentID, role, 0)
}

// SpaceLevel returns the caller's level on a space.
func SpaceLevel(ctx context.Context, s *ent.Space) (types.Role, error) {
	role, member, err := OrgRole(ctx, s.OrganizationID)
	if err != nil || !member {
		return None, err
	}
	return spaceLevel(ctx, role, s)
}

// UserSpaceLevel returns the level another user has on a space, by the
// rule SpaceLevel applies to the caller: what asking someone for a review
// needs to know of them. A user who is no member of the space's
// organization, a guest and a disabled member have no level.
func UserSpaceLevel(ctx context.Context, userID string, s *ent.Space) (types.Role, error) {
	m, err := loaders.For(ctx).MemberByOrgUser.Load(ctx, s.OrganizationID+"/"+userID)()
	if apierr.CodeOf(err) == apierr.NotFound {
		return None, nil
	}
	if err != nil {
		return None, err
	}
	if m.Disabled || m.Role == nil {
		return None, nil
	}
	return spaceLevel(ctx, *m.Role, s)
}

// spaceLevel is the level on a space of an active member with an
// organization role (None for a guest): the one place where it is decided.
func spaceLevel(ctx context.Context, role types.Role, s *ent.Space) (types.Role, error) {
	if role == None {
		return None, nil
	}
	if role == types.RoleAdmin {
		return role, nil
	}
	return resolve(ctx, s.DefaultLevel, s.ParentID, role, 0)
}

// CanSeeUser reports whether the caller may see a user: themselves, and
// the users who are members of an organization the caller is an active
// member of. Quire keeps no directory of users beyond that; a user the
// caller may not see is answered as not found.
func CanSeeUser(ctx context.Context, userID string) (bool, error) {
	seen, err := UsersSeen(ctx, []string{userID})
	return seen[userID], err
}

// UsersSeen reports, of users, those the caller may see (see CanSeeUser),
// asking for the memberships of all of them at once. It does not check
// that the users exist: the system caller sees any id, and a user seen
// through a membership exists.
func UsersSeen(ctx context.Context, userIDs []string) (map[string]bool, error) {
	out := make(map[string]bool, len(userIDs))
	if auth.IsSystem(ctx) {
		for _, id := range userIDs {
			out[id] = true
		}
		return out, nil
	}
	v := auth.Viewer(ctx)
	if v == nil {
		return out, nil
	}
	l := loaders.For(ctx)
	var mine []string
	for _, id := range userIDs {
		if id == v.ID {
			out[id] = true
		}
	}
	if len(out) == len(userIDs) {
		return out, nil
	}
	ms, err := l.ViewerMemberships(ctx)
	if err != nil {
		return nil, err
	}
	for orgID, m := range ms {
		if !m.Disabled {
			mine = append(mine, orgID)
		}
	}
	// Queue every lookup before waiting, so that they share one batch.
	type lookup struct {
		user string
		wait func() (*ent.Member, error)
	}
	var waits []lookup
	for _, id := range userIDs {
		if out[id] {
			continue
		}
		for _, orgID := range mine {
			waits = append(waits, lookup{id, l.MemberByOrgUser.Load(ctx, orgID+"/"+id)})
		}
	}
	for _, w := range waits {
		if out[w.user] {
			continue
		}
		if _, err := w.wait(); err == nil {
			out[w.user] = true
		}
	}
	return out, nil
}

// maxDepth stops a corrupt parent chain from looping forever.
const maxDepth = 64

func resolve(ctx context.Context, level *types.DefaultLevel, parentID *string, orgRole types.Role, depth int) (types.Role, error) {
	if level == nil {
		return None, nil
	}
	if *level != types.Inherit {
		return types.Role(*level), nil
	}
	if parentID == nil || depth > maxDepth {
		return orgRole, nil
	}
	parent, err := loaders.For(ctx).CollectionByID.Load(ctx, *parentID)()
	if err != nil {
		return None, err
	}
	return resolve(ctx, parent.DefaultLevel, parent.ParentID, orgRole, depth+1)
}

// OrganizationPermissions are what the caller may do in an organization.
type OrganizationPermissions struct {
	View                bool `json:"view"`
	Admin               bool `json:"admin"`
	OwnTeam             bool `json:"ownTeam"`
	CreateContent       bool `json:"createContent"`
	CreateOpenAPISpec   bool `json:"createOpenAPISpec"`
	IngestConversations bool `json:"ingestConversations"`
	ViewBilling         bool `json:"viewBilling"`
	ListMembers         bool `json:"listMembers"`
	ListTeams           bool `json:"listTeams"`
	ListIntegrations    bool `json:"listIntegrations"`
	ListInstallations   bool `json:"listInstallations"`
	InstallIntegration  bool `json:"installIntegration"`
}

// ForOrganization computes organization permissions from a role.
func ForOrganization(role types.Role, member bool) OrganizationPermissions {
	admin := role == types.RoleAdmin
	return OrganizationPermissions{
		View:                member,
		Admin:               admin,
		OwnTeam:             role.AtLeast(types.RoleCreate),
		CreateContent:       role.AtLeast(types.RoleCreate),
		CreateOpenAPISpec:   role.AtLeast(types.RoleCreate),
		IngestConversations: admin,
		ViewBilling:         admin,
		ListMembers:         member && role != None,
		ListTeams:           member && role != None,
		ListIntegrations:    member && role != None,
		ListInstallations:   admin,
		InstallIntegration:  admin,
	}
}

// CollectionPermissions are what the caller may do with a collection.
type CollectionPermissions struct {
	View            bool `json:"view"`
	Admin           bool `json:"admin"`
	ViewInviteLinks bool `json:"viewInviteLinks"`
	Create          bool `json:"create"`
}

// ForCollection computes collection permissions from a level.
func ForCollection(level types.Role) CollectionPermissions {
	return CollectionPermissions{
		View:            level.AtLeast(types.RoleRead),
		Admin:           level == types.RoleAdmin,
		ViewInviteLinks: level == types.RoleAdmin,
		Create:          level.AtLeast(types.RoleCreate),
	}
}

// SpacePermissions are what the caller may do with a space.
type SpacePermissions struct {
	View               bool `json:"view"`
	Access             bool `json:"access"`
	Admin              bool `json:"admin"`
	ViewInviteLinks    bool `json:"viewInviteLinks"`
	Edit               bool `json:"edit"`
	TriggerGitSync     bool `json:"triggerGitSync"`
	Comment            bool `json:"comment"`
	Merge              bool `json:"merge"`
	Review             bool `json:"review"`
	InstallIntegration bool `json:"installIntegration"`
}

// ForSpace computes space permissions from a level.
func ForSpace(level types.Role) SpacePermissions {
	return SpacePermissions{
		View:               level.AtLeast(types.RoleRead),
		Access:             level.AtLeast(types.RoleRead),
		Admin:              level == types.RoleAdmin,
		ViewInviteLinks:    level == types.RoleAdmin,
		Edit:               level.AtLeast(types.RoleEdit),
		TriggerGitSync:     level.AtLeast(types.RoleEdit),
		Comment:            level.AtLeast(types.RoleComment),
		Merge:              level.AtLeast(types.RoleReview),
		Review:             level.AtLeast(types.RoleReview),
		InstallIntegration: level == types.RoleAdmin,
	}
}

// WarmSpaces loads, a level at a time, every collection above the given
// spaces, so that later level computations read the loader's cache instead
// of waiting for a batch per space.
func WarmSpaces(ctx context.Context, spaces []*ent.Space) error {
	l := loaders.For(ctx)
	var ids []string
	seen := map[string]bool{}
	for _, s := range spaces {
		if s.ParentID != nil && !seen[*s.ParentID] {
			seen[*s.ParentID] = true
			ids = append(ids, *s.ParentID)
		}
	}
	for depth := 0; len(ids) > 0 && depth < maxDepth; depth++ {
		cs, errs := l.CollectionByID.Fetch(ctx, ids)
		ids = nil
		for i, c := range cs {
			if errs != nil && errs[i] != nil {
				continue
			}
			if c.ParentID != nil && !seen[*c.ParentID] {
				seen[*c.ParentID] = true
				ids = append(ids, *c.ParentID)
			}
		}
	}
	return nil
}
