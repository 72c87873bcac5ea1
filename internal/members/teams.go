package members

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"quire/ent"
	"quire/ent/member"
	"quire/ent/team"
	"quire/ent/teammember"
	"quire/internal/access"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/authz"
	"quire/internal/db"
	"quire/internal/loaders"
	"quire/internal/pagination"
	"quire/internal/types"
)

// Team member roles: an owner manages the team.
const (
	TeamOwner  = "owner"
	TeamMember = "member"
)

// MaxTeamMembers bounds the members one request adds to or removes from a
// team.
const MaxTeamMembers = 1000

func notFoundTeam(id string) error { return apierr.NotFoundf("No matching team found for id %q", id) }

// TeamCursor orders teams, oldest first.
func TeamCursor(t *ent.Team) pagination.Cursor {
	return pagination.Cursor{Key: t.CreatedAt.UTC().Format("2006-01-02T15:04:05.000000000Z"), ID: t.ID}
}

// TeamFilter selects teams.
type TeamFilter struct {
	// Owner keeps the teams this member (a user id) may manage: every team
	// for an admin, those they own for others.
	Owner string
	// Title keeps the teams whose title contains it, regardless of case.
	Title string
}

// Teams lists an organization's teams, oldest first.
// Errors: NotFound, Forbidden (guests), BadRequest.
func (s *Service) Teams(ctx context.Context, orgID string, f TeamFilter) ([]*ent.Team, error) {
	if utf8.RuneCountInString(f.Title) > MaxSearch {
		return nil, apierr.Invalid("title", "title must be at most %d characters long", MaxSearch)
	}
	if _, err := canList(ctx, orgID); err != nil {
		return nil, err
	}
	q := s.Client.Team.Query().Where(team.OrganizationID(orgID))
	if f.Title != "" {
		q.Where(team.TitleContainsFold(f.Title))
	}
	ts, err := q.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list teams: %w", err)
	}
	if f.Owner != "" {
		x, err := access.For(ctx, s.Client, orgID)
		if err != nil {
			return nil, err
		}
		m, ok := x.Members[f.Owner]
		if !ok || !isAdmin(m) {
			kept := ts[:0]
			for _, t := range ts {
				if ok && !m.Disabled && x.TeamRole(t.ID, f.Owner) == TeamOwner {
					kept = append(kept, t)
				}
			}
			ts = kept
		}
	}
	sort.Slice(ts, func(i, j int) bool { return TeamCursor(ts[i]).Compare(TeamCursor(ts[j])) < 0 })
	return ts, nil
}

// Team returns a team of the organization.
// Errors: NotFound, Forbidden (guests).
func (s *Service) Team(ctx context.Context, orgID, teamID string) (*ent.Team, error) {
	if _, err := canList(ctx, orgID); err != nil {
		return nil, err
	}
	all, err := s.orgTeams(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if t, ok := all[teamID]; ok {
		return t, nil
	}
	return nil, notFoundTeam(teamID)
}

// orgTeams reads an organization's teams once per request (until a change
// forgets them), so that reads of many teams, or of many members' teams,
// cost one statement.
func (s *Service) orgTeams(ctx context.Context, orgID string) (map[string]*ent.Team, error) {
	return loaders.Memo(ctx, orgID, "members.teams", func() (map[string]*ent.Team, error) {
		ts, err := s.Client.Team.Query().Where(team.OrganizationID(orgID)).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("list teams: %w", err)
		}
		out := make(map[string]*ent.Team, len(ts))
		for _, t := range ts {
			out[t.ID] = t
		}
		return out, nil
	})
}

// TeamPermissions are what the caller may do with a team.
type TeamPermissions struct {
	// Admin: manage the team (organization admins and the team's owners).
	Admin bool `json:"admin"`
	// View: read the team and list its members.
	View bool `json:"view"`
}

// Permissions returns what the caller may do with a team.
func (s *Service) Permissions(ctx context.Context, t *ent.Team) (TeamPermissions, error) {
	role, member, err := authz.OrgRole(ctx, t.OrganizationID)
	if err != nil || !member || role == authz.None {
		return TeamPermissions{}, err
	}
	if role == types.RoleAdmin {
		return TeamPermissions{Admin: true, View: true}, nil
	}
	x, err := access.For(ctx, s.Client, t.OrganizationID)
	if err != nil {
		return TeamPermissions{}, err
	}
	v := auth.Viewer(ctx)
	return TeamPermissions{View: true, Admin: v != nil && x.TeamRole(t.ID, v.ID) == TeamOwner}, nil
}

// manage returns a team the caller may manage.
// Errors: NotFound, Forbidden.
func (s *Service) manage(ctx context.Context, orgID, teamID string) (*ent.Team, error) {
	t, err := s.Team(ctx, orgID, teamID)
	if err != nil {
		return nil, err
	}
	p, err := s.Permissions(ctx, t)
	if err != nil {
		return nil, err
	}
	if !p.Admin {
		return nil, apierr.Forbiddenf("Only the organization's admins and the team's owners may change the team")
	}
	return t, nil
}

func checkTitle(title string) error {
	if n := utf8.RuneCountInString(title); n < 1 || n > 64 || strings.TrimSpace(title) == "" {
		return apierr.Invalid("title", "title must be between 1 and 64 characters long")
	}
	return nil
}

// checkMembers checks that every user id names an active member of the
// organization, and returns them without repeats.
func (s *Service) checkMembers(ctx context.Context, c *ent.Client, orgID, field string, userIDs []string) ([]string, error) {
	if len(userIDs) > MaxTeamMembers {
		return nil, apierr.Invalid(field, "%s: must have at most %d items", field, MaxTeamMembers)
	}
	if len(userIDs) == 0 {
		return nil, nil
	}
	ms, err := c.Member.Query().Where(member.OrganizationID(orgID), member.UserIDIn(userIDs...), member.Disabled(false)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("read members: %w", err)
	}
	found := make(map[string]bool, len(ms))
	for _, m := range ms {
		found[m.UserID] = true
	}
	seen := map[string]bool{}
	var out []string
	for i, id := range userIDs {
		if !found[id] {
			return nil, apierr.Invalid(fmt.Sprintf("%s[%d]", field, i), "%s[%d]: no matching member found for id %q", field, i, id)
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, nil
}

// CreateTeam creates a team; the caller (who needs the create role) owns
// it, and members (user ids of the organization's members) belong to it.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) CreateTeam(ctx context.Context, orgID, title string, members []string) (*ent.Team, error) {
	if err := checkTitle(title); err != nil {
		return nil, err
	}
	role, err := roleIn(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if !role.AtLeast(types.RoleCreate) {
		return nil, apierr.Forbiddenf("You need the create role to create teams in this organization")
	}
	var out *ent.Team
	err = db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		ids, err := s.checkMembers(ctx, tx.Client(), orgID, "members", members)
		if err != nil {
			return err
		}
		out, err = tx.Team.Create().SetOrganizationID(orgID).SetTitle(title).SetCreatedAt(s.Now()).Save(ctx)
		if err != nil {
			return fmt.Errorf("create team: %w", err)
		}
		roles := map[string]string{}
		for _, id := range ids {
			roles[id] = TeamMember
		}
		if v := auth.Viewer(ctx); v != nil {
			roles[v.ID] = TeamOwner
		}
		return setMembers(ctx, tx, out.ID, roles)
	})
	if err != nil {
		return nil, err
	}
	access.Forget(ctx, orgID)
	return out, nil
}

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

// UpdateTeam renames a team.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) UpdateTeam(ctx context.Context, orgID, teamID, title string) (*ent.Team, error) {
	if err := checkTitle(title); err != nil {
		return nil, err
	}
	t, err := s.manage(ctx, orgID, teamID)
	if err != nil {
		return nil, err
	}
	out, err := s.Client.Team.UpdateOne(t).SetTitle(title).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("update team: %w", err)
	}
	access.Forget(ctx, orgID)
	return out, nil
}

// DeleteTeam deletes a team, and with it the permissions given to it; it
// reports whether there was such a team (none: the caller may not see it).
// Errors: Forbidden.
func (s *Service) DeleteTeam(ctx context.Context, orgID, teamID string) (bool, error) {
	_, err := s.manage(ctx, orgID, teamID)
	if apierr.CodeOf(err) == apierr.NotFound {
		// As for what does not exist, wherever the caller may not see it.
		return false, nil
	}
	if err != nil {
		return false, err
	}
	n, err := s.Client.Team.Delete().Where(team.ID(teamID), team.OrganizationID(orgID)).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("delete team: %w", err)
	}
	access.Forget(ctx, orgID)
	return n > 0, nil
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

// TeamSpaceCount is how many live spaces a team's permissions reach.
func (s *Service) TeamSpaceCount(ctx context.Context, t *ent.Team) (int, error) {
	x, err := access.For(ctx, s.Client, t.OrganizationID)
	if err != nil {
		return 0, err
	}
	return x.CountSpaces(x.Team(t.ID))
}

// TeamMemberCount is how many members a team has.
func (s *Service) TeamMemberCount(ctx context.Context, t *ent.Team) (int, error) {
	x, err := access.For(ctx, s.Client, t.OrganizationID)
	if err != nil {
		return 0, err
	}
	return len(x.TeamMembers[t.ID]), nil
}
