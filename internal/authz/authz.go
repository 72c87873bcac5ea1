// Package authz decides what the caller may do with an organization, a
// collection or a space. Both doors reach it through the same service calls.
//
// A member's level on content is:
//   - admin for organization admins, everywhere in their organization;
//   - nothing for guests (a member without role), disabled members and
//     non-members;
//   - otherwise the content's defaultLevel: a role applies as is, null means
//     no default access, and "inherit" follows the parent collection up to the
//     organization, where it is the member's organization role;
//   - raised to the highest level given to the member, directly or through
//     one of their teams, on the content or on a collection above it (the
//     permissions of spaces and collections). Guests reach only what they
//     were given so.
//
// The caller's memberships and grants come with their token (one statement
// per request), so computing levels reads nothing more than the collections
// above the content.
package authz

import (
	"context"

	"quire/ent"
	"quire/internal/auth"
	"quire/internal/loaders"
	"quire/internal/types"
)

// CanSeeUser reports whether the caller may see a user: themselves, and
// the users who are members of an organization the caller is an active
// member of with a role (a guest sees only what they were invited to, not
// the organization's people). Quire keeps no directory of users beyond
// that; a user the caller may not see is answered as not found.
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
		if !m.Disabled && m.Role != nil {
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
