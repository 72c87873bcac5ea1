package members

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"quire/ent"
	"quire/ent/teammember"
	"quire/internal/access"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/db"
)

// setMembers adds users to a team with roles, or changes their role.
func setMembers(ctx context.Context, tx *ent.Tx, teamID string, roles map[string]string) error {
	if len(roles) == 0 {
		return nil
	}
	ids := make([]string, 0, len(roles))
	for id := range roles {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	existing, err := tx.TeamMember.Query().Where(teammember.TeamID(teamID), teammember.UserIDIn(ids...)).All(ctx)
	if err != nil {
		return fmt.Errorf("read team members: %w", err)
	}
	have := map[string]*ent.TeamMember{}
	for _, tm := range existing {
		have[tm.UserID] = tm
	}
	var creates []*ent.TeamMemberCreate
	now := time.Now().UTC()
	for _, id := range ids {
		if tm, ok := have[id]; ok {
			if tm.Role != roles[id] {
				if err := tx.TeamMember.UpdateOne(tm).SetRole(roles[id]).Exec(ctx); err != nil {
					return fmt.Errorf("update team member: %w", err)
				}
			}
			continue
		}
		creates = append(creates, tx.TeamMember.Create().SetTeamID(teamID).SetUserID(id).SetRole(roles[id]).SetCreatedAt(now))
	}
	if len(creates) > 0 {
		if err := tx.TeamMember.CreateBulk(creates...).Exec(ctx); err != nil {
			return fmt.Errorf("add team members: %w", err)
		}
	}
	return nil
}

// TeamMembership is a member of a team, with their role in it.
type TeamMembership struct {
	Team   *ent.Team
	Member *ent.Member
	Role   string
}

// TeamMembers lists a team's members, in the order they joined it.
// Errors: NotFound, Forbidden (guests).
func (s *Service) TeamMembers(ctx context.Context, orgID, teamID string) ([]TeamMembership, error) {
	t, err := s.Team(ctx, orgID, teamID)
	if err != nil {
		return nil, err
	}
	x, err := access.For(ctx, s.Client, orgID)
	if err != nil {
		return nil, err
	}
	tms := append([]*ent.TeamMember{}, x.TeamMembers[teamID]...)
	sort.Slice(tms, func(i, j int) bool {
		if !tms[i].CreatedAt.Equal(tms[j].CreatedAt) {
			return tms[i].CreatedAt.Before(tms[j].CreatedAt)
		}
		return tms[i].ID < tms[j].ID
	})
	out := make([]TeamMembership, 0, len(tms))
	for _, tm := range tms {
		if m, ok := x.Members[tm.UserID]; ok {
			out = append(out, TeamMembership{Team: t, Member: m, Role: tm.Role})
		}
	}
	return out, nil
}

// MemberTeams lists the teams a member belongs to, with their role in
// each, oldest team first; title keeps those whose title contains it.
// Errors: NotFound, Forbidden (guests, but about themselves), BadRequest.
func (s *Service) MemberTeams(ctx context.Context, orgID, userID, title string) ([]TeamMembership, error) {
	if utf8.RuneCountInString(title) > MaxSearch {
		return nil, apierr.Invalid("title", "title must be at most %d characters long", MaxSearch)
	}
	m, err := s.Member(ctx, orgID, userID)
	if err != nil {
		return nil, err
	}
	x, err := access.For(ctx, s.Client, orgID)
	if err != nil {
		return nil, err
	}
	all, err := s.orgTeams(ctx, orgID)
	if err != nil {
		return nil, err
	}
	var ts []*ent.Team
	for _, id := range x.TeamsOf(userID) {
		if t, ok := all[id]; ok && (title == "" || strings.Contains(strings.ToLower(t.Title), strings.ToLower(title))) {
			ts = append(ts, t)
		}
	}
	sort.Slice(ts, func(i, j int) bool { return TeamCursor(ts[i]).Compare(TeamCursor(ts[j])) < 0 })
	out := make([]TeamMembership, 0, len(ts))
	for _, t := range ts {
		out = append(out, TeamMembership{Team: t, Member: m, Role: x.TeamRole(t.ID, userID)})
	}
	return out, nil
}

// TeamChanges are the changes of a team's members: added as members,
// removed, and given a role (added when they are not in the team).
type TeamChanges struct {
	Add    []string
	Remove []string
	Roles  map[string]string
}

// UpdateTeamMembers applies changes to a team's members, in one
// transaction: removals first, then additions and roles.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) UpdateTeamMembers(ctx context.Context, orgID, teamID string, c TeamChanges) error {
	if len(c.Roles) > MaxTeamMembers {
		return apierr.Invalid("memberships", "memberships: must have at most %d items", MaxTeamMembers)
	}
	ruled := make([]string, 0, len(c.Roles))
	for id, r := range c.Roles {
		if r != TeamOwner && r != TeamMember {
			return apierr.Invalid("memberships."+id+".role", "role must be owner or member")
		}
		ruled = append(ruled, id)
	}
	sort.Strings(ruled)
	if len(c.Add) == 0 && len(c.Remove) == 0 && len(ruled) == 0 {
		return apierr.Invalid("add", "Name members to add, remove or change (add, remove, memberships)")
	}
	if _, err := s.manage(ctx, orgID, teamID); err != nil {
		return err
	}
	err := db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		if len(c.Remove) > MaxTeamMembers {
			return apierr.Invalid("remove", "remove: must have at most %d items", MaxTeamMembers)
		}
		if len(c.Remove) > 0 {
			if _, err := tx.TeamMember.Delete().Where(teammember.TeamID(teamID), teammember.UserIDIn(c.Remove...)).Exec(ctx); err != nil {
				return fmt.Errorf("remove team members: %w", err)
			}
		}
		add, err := s.checkMembers(ctx, tx.Client(), orgID, "add", c.Add)
		if err != nil {
			return err
		}
		if _, err := s.checkMembers(ctx, tx.Client(), orgID, "memberships", ruled); err != nil {
			return err
		}
		roles := map[string]string{}
		existing, err := tx.TeamMember.Query().Where(teammember.TeamID(teamID), teammember.UserIDIn(add...)).All(ctx)
		if err != nil {
			return fmt.Errorf("read team members: %w", err)
		}
		in := map[string]bool{}
		for _, tm := range existing {
			in[tm.UserID] = true
		}
		for _, id := range add {
			if !in[id] {
				roles[id] = TeamMember
			}
		}
		for id, r := range c.Roles {
			roles[id] = r
		}
		return setMembers(ctx, tx, teamID, roles)
	})
	if err != nil {
		return err
	}
	access.Forget(ctx, orgID)
	return nil
}

// AddTeamMember adds a member to a team, as a member unless role says
// owner, or changes their role.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) AddTeamMember(ctx context.Context, orgID, teamID, userID string, role *string) error {
	r := TeamMember
	if role != nil {
		if *role != TeamOwner && *role != TeamMember {
			return apierr.Invalid("role", "role must be owner or member")
		}
		r = *role
	}
	if _, err := s.manage(ctx, orgID, teamID); err != nil {
		return err
	}
	if _, err := s.Member(ctx, orgID, userID); err != nil {
		return err
	}
	err := db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		if role == nil {
			n, err := tx.TeamMember.Query().Where(teammember.TeamID(teamID), teammember.UserID(userID)).Count(ctx)
			if err != nil {
				return fmt.Errorf("read team member: %w", err)
			}
			if n > 0 {
				return nil
			}
		}
		return setMembers(ctx, tx, teamID, map[string]string{userID: r})
	})
	if err != nil {
		return err
	}
	access.Forget(ctx, orgID)
	return nil
}

// RemoveTeamMember removes a member from a team; it reports whether they
// were in it.
// Errors: NotFound, Forbidden.
func (s *Service) RemoveTeamMember(ctx context.Context, orgID, teamID, userID string) (bool, error) {
	if _, err := s.manage(ctx, orgID, teamID); err != nil {
		return false, err
	}
	n, err := s.Client.TeamMember.Delete().Where(teammember.TeamID(teamID), teammember.UserID(userID)).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("remove team member: %w", err)
	}
	access.Forget(ctx, orgID)
	if v := auth.Viewer(ctx); v != nil && v.ID == userID {
		loadersForget(ctx)
	}
	return n > 0, nil
}

// TeamMemberCount is how many members a team has.
func (s *Service) TeamMemberCount(ctx context.Context, t *ent.Team) (int, error) {
	x, err := access.For(ctx, s.Client, t.OrganizationID)
	if err != nil {
		return 0, err
	}
	return len(x.TeamMembers[t.ID]), nil
}
