// Package access answers who may reach what in an organization for lists
// about other members than the caller: a member's spaces, the members who
// may reach a space, how many spaces a team reaches. It loads, once per
// organization and request, everything that decides the members' levels
// (members, live spaces, collections, permissions, team memberships: five
// statements), and computes levels in memory with the rules of
// internal/authz, so that such lists cost the same statements whatever
// their length.
package access

import (
	"context"
	"fmt"
	"sort"

	"quire/ent"
	"quire/ent/collection"
	"quire/ent/contentpermission"
	"quire/ent/member"
	"quire/ent/space"
	"quire/ent/team"
	"quire/ent/teammember"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/authz"
	"quire/internal/loaders"
	"quire/internal/types"
)

// Index is what decides the levels of an organization's members.
type Index struct {
	Org string
	// Members are the organization's members, disabled ones included, by
	// user id.
	Members map[string]*ent.Member
	// Spaces are its live spaces.
	Spaces      []*ent.Space
	collections map[string]*ent.Collection
	// Permissions are every permission given in the organization.
	Permissions []*ent.ContentPermission
	// TeamMembers are the memberships of its teams, by team id.
	TeamMembers map[string][]*ent.TeamMember
	teamsOf     map[string][]string
	userGrants  map[string][]auth.Grant
	teamGrants  map[string][]auth.Grant
}

// For returns the index of an organization, loaded once per request (the
// caller checks that it may ask).
func For(ctx context.Context, client *ent.Client, orgID string) (*Index, error) {
	return loaders.Memo(ctx, orgID, "access.index", func() (*Index, error) { return load(ctx, client, orgID) })
}

// Forget drops the request's index of an organization after a change that
// it reflects.
func Forget(ctx context.Context, orgID string) { loaders.For(ctx).ForgetMemos(orgID) }

func load(ctx context.Context, client *ent.Client, orgID string) (*Index, error) {
	x := &Index{Org: orgID, Members: map[string]*ent.Member{}, collections: map[string]*ent.Collection{},
		TeamMembers: map[string][]*ent.TeamMember{}, teamsOf: map[string][]string{},
		userGrants: map[string][]auth.Grant{}, teamGrants: map[string][]auth.Grant{}}
	ms, err := client.Member.Query().Where(member.OrganizationID(orgID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("load members: %w", err)
	}
	for _, m := range ms {
		x.Members[m.UserID] = m
	}
	if x.Spaces, err = client.Space.Query().Where(space.OrganizationID(orgID), space.DeletedAtIsNil()).All(ctx); err != nil {
		return nil, fmt.Errorf("load spaces: %w", err)
	}
	sort.Slice(x.Spaces, func(i, j int) bool {
		if x.Spaces[i].Position != x.Spaces[j].Position {
			return x.Spaces[i].Position < x.Spaces[j].Position
		}
		return x.Spaces[i].ID < x.Spaces[j].ID
	})
	cs, err := client.Collection.Query().Where(collection.OrganizationID(orgID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("load collections: %w", err)
	}
	for _, c := range cs {
		x.collections[c.ID] = c
	}
	if x.Permissions, err = client.ContentPermission.Query().Where(contentpermission.OrganizationID(orgID)).All(ctx); err != nil {
		return nil, fmt.Errorf("load permissions: %w", err)
	}
	tms, err := client.TeamMember.Query().Where(teammember.HasTeamWith(team.OrganizationID(orgID))).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("load team members: %w", err)
	}
	for _, tm := range tms {
		x.TeamMembers[tm.TeamID] = append(x.TeamMembers[tm.TeamID], tm)
		x.teamsOf[tm.UserID] = append(x.teamsOf[tm.UserID], tm.TeamID)
	}
	for _, p := range x.Permissions {
		g := loaders.GrantsOf([]*ent.ContentPermission{p})[0]
		switch {
		case p.UserID != nil:
			x.userGrants[*p.UserID] = append(x.userGrants[*p.UserID], g)
		case p.TeamID != nil:
			x.teamGrants[*p.TeamID] = append(x.teamGrants[*p.TeamID], g)
		}
	}
	return x, nil
}

// Collection returns a collection of the organization.
func (x *Index) Collection(id string) (*ent.Collection, error) {
	if c, ok := x.collections[id]; ok {
		return c, nil
	}
	return nil, apierr.NotFoundf("No matching collection found for id %q", id)
}

// Member returns the subject of a user: their role, whether their
// membership is active, and their grants, direct and through teams.
func (x *Index) Member(userID string) authz.Subject {
	m, ok := x.Members[userID]
	if !ok || m.Disabled {
		return authz.Subject{}
	}
	s := authz.Subject{Active: true}
	if m.Role != nil {
		s.Role = *m.Role
	}
	list := append([]auth.Grant{}, x.userGrants[userID]...)
	for _, t := range x.teamsOf[userID] {
		list = append(list, x.teamGrants[t]...)
	}
	s.Grants = auth.NewGrants(list)
	return s
}

// Team returns the subject of a team: a guest holding the team's grants.
func (x *Index) Team(teamID string) authz.Subject {
	return authz.Subject{Active: true, Grants: auth.NewGrants(x.teamGrants[teamID])}
}

// SpaceLevel is a subject's level on a space of the organization.
func (x *Index) SpaceLevel(s authz.Subject, sp *ent.Space) (types.Role, error) {
	return s.SpaceLevel(sp, x.Collection)
}

// CollectionLevel is a subject's level on a collection of the organization.
func (x *Index) CollectionLevel(s authz.Subject, c *ent.Collection) (types.Role, error) {
	return s.CollectionLevel(c, x.Collection)
}

// Reach is a space and a level on it.
type Reach struct {
	Space *ent.Space
	Level types.Role
}

// SpacesOf lists the live spaces a subject reaches, with its level on each,
// in the organization's order.
func (x *Index) SpacesOf(s authz.Subject) ([]Reach, error) {
	var out []Reach
	if !s.Active {
		return out, nil
	}
	for _, sp := range x.Spaces {
		level, err := x.SpaceLevel(s, sp)
		if err != nil {
			return nil, err
		}
		if level != authz.None {
			out = append(out, Reach{Space: sp, Level: level})
		}
	}
	return out, nil
}

// CountSpaces is how many live spaces a subject reaches.
func (x *Index) CountSpaces(s authz.Subject) (int, error) {
	r, err := x.SpacesOf(s)
	return len(r), err
}

// TeamsOf returns the ids of the teams a user belongs to.
func (x *Index) TeamsOf(userID string) []string { return x.teamsOf[userID] }

// TeamRole returns a user's role in a team ("owner" or "member"), or "".
func (x *Index) TeamRole(teamID, userID string) string {
	for _, tm := range x.TeamMembers[teamID] {
		if tm.UserID == userID {
			return tm.Role
		}
	}
	return ""
}
