package members

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"quire/ent"
	"quire/ent/member"
	"quire/ent/team"
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
	if n := utf8.RuneCountInString(title); n < 1 || n > TeamTitleMax || strings.TrimSpace(title) == "" {
		return apierr.Invalid("title", "title must be between 1 and %d characters long", TeamTitleMax)
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

// TeamSpaceCount is how many live spaces a team's permissions reach.
func (s *Service) TeamSpaceCount(ctx context.Context, t *ent.Team) (int, error) {
	x, err := access.For(ctx, s.Client, t.OrganizationID)
	if err != nil {
		return 0, err
	}
	return x.CountSpaces(x.Team(t.ID))
}
