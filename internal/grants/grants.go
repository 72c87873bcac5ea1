// Package grants holds the rules of the permissions of spaces and
// collections: levels given to users and teams of the organization on
// content, beyond what its default level gives (see internal/authz, which
// counts them in every level). Listing them needs read access to the
// content, changing them admin access. Both doors call it through the
// GraphQL resolvers.
package grants

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"quire/ent"
	"quire/ent/contentpermission"
	"quire/ent/member"
	"quire/ent/predicate"
	"quire/ent/team"
	"quire/internal/access"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/authz"
	"quire/internal/catalog"
	"quire/internal/db"
	"quire/internal/loaders"
	"quire/internal/types"
)

// MaxInvite bounds the users and the teams one invitation names.
const MaxInvite = 1000

// Service implements the permission operations.
type Service struct {
	Client  *ent.Client
	Catalog *catalog.Service
}

// New returns a Service.
func New(client *ent.Client, cat *catalog.Service) *Service {
	return &Service{Client: client, Catalog: cat}
}

// Kinds of content permissions are given on.
const (
	Space      = "space"
	Collection = "collection"
)

// Target is a space or a collection, as the caller sees it.
type Target struct {
	Kind  string
	ID    string
	Org   string
	Level types.Role
	// Space or Collection is set, by Kind.
	Space      *ent.Space
	Collection *ent.Collection
}

func (t Target) on() predicate.ContentPermission {
	if t.Kind == Space {
		return contentpermission.SpaceID(t.ID)
	}
	return contentpermission.CollectionID(t.ID)
}

// target returns the content the caller may see, with their level; need is
// the level the operation needs.
// Errors: NotFound, Forbidden.
func (s *Service) target(ctx context.Context, kind, id string, need types.Role) (Target, error) {
	t := Target{Kind: kind, ID: id}
	switch kind {
	case Space:
		sp, level, err := s.Catalog.Space(ctx, id)
		if err != nil {
			return t, err
		}
		t.Space, t.Org, t.Level = sp, sp.OrganizationID, level
	default:
		c, level, err := s.Catalog.Collection(ctx, id)
		if err != nil {
			return t, err
		}
		t.Collection, t.Org, t.Level = c, c.OrganizationID, level
	}
	if !t.Level.AtLeast(need) {
		return t, apierr.Forbiddenf("You need %s rights on this %s to do that", need, kind)
	}
	return t, nil
}

// Invite gives users and teams of the content's organization a level on a
// space or a collection (changing the level of those who have one). Users
// must be members of the organization (guests included), teams its teams.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) Invite(ctx context.Context, kind, id string, role *types.Role, users, teams []string) error {
	if role == nil || !role.Valid() {
		return apierr.Invalid("role", "role must be one of %s", strings.Join(types.Roles, ", "))
	}
	if len(users) == 0 && len(teams) == 0 {
		return apierr.Invalid("users", "Name at least one user (users) or team (teams) to invite")
	}
	if len(users) > MaxInvite {
		return apierr.Invalid("users", "users: must have at most %d items", MaxInvite)
	}
	if len(teams) > MaxInvite {
		return apierr.Invalid("teams", "teams: must have at most %d items", MaxInvite)
	}
	t, err := s.target(ctx, kind, id, types.RoleAdmin)
	if err != nil {
		return err
	}
	err = db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		us, err := existing(ctx, "users", users, func(ids []string) ([]string, error) {
			return tx.Member.Query().Where(member.OrganizationID(t.Org), member.UserIDIn(ids...), member.Disabled(false)).
				Select(member.FieldUserID).Strings(ctx)
		}, "member")
		if err != nil {
			return err
		}
		ts, err := existing(ctx, "teams", teams, func(ids []string) ([]string, error) {
			return tx.Team.Query().Where(team.OrganizationID(t.Org), team.IDIn(ids...)).IDs(ctx)
		}, "team")
		if err != nil {
			return err
		}
		rows, err := tx.ContentPermission.Query().Where(t.on(), contentpermission.Or(
			contentpermission.UserIDIn(us...), contentpermission.TeamIDIn(ts...))).All(ctx)
		if err != nil {
			return fmt.Errorf("read permissions: %w", err)
		}
		have := map[string]*ent.ContentPermission{}
		for _, r := range rows {
			have[principal(r)] = r
		}
		var creates []*ent.ContentPermissionCreate
		add := func(pid string, set func(*ent.ContentPermissionCreate)) error {
			if r, ok := have[pid]; ok {
				if r.Level != *role {
					return tx.ContentPermission.UpdateOne(r).SetLevel(*role).Exec(ctx)
				}
				return nil
			}
			c := tx.ContentPermission.Create().SetOrganizationID(t.Org).SetLevel(*role)
			if t.Kind == Space {
				c.SetSpaceID(t.ID)
			} else {
				c.SetCollectionID(t.ID)
			}
			set(c)
			creates = append(creates, c)
			return nil
		}
		for _, u := range us {
			if err := add(u, func(c *ent.ContentPermissionCreate) { c.SetUserID(u) }); err != nil {
				return fmt.Errorf("update permission: %w", err)
			}
		}
		for _, tm := range ts {
			if err := add(tm, func(c *ent.ContentPermissionCreate) { c.SetTeamID(tm) }); err != nil {
				return fmt.Errorf("update permission: %w", err)
			}
		}
		if len(creates) > 0 {
			if err := tx.ContentPermission.CreateBulk(creates...).Exec(ctx); err != nil {
				return fmt.Errorf("give permissions: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.forget(ctx, t.Org)
	return nil
}

// principal is the user or team a permission is given to.
func principal(p *ent.ContentPermission) string {
	if p.UserID != nil {
		return *p.UserID
	}
	if p.TeamID != nil {
		return *p.TeamID
	}
	return ""
}

// existing checks that every id names something find finds, and returns
// them without repeats; the first unknown one is a bad request naming its
// place, whether it does not exist or is of another organization.
func existing(ctx context.Context, field string, ids []string, find func([]string) ([]string, error), what string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	found, err := find(ids)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", field, err)
	}
	ok := make(map[string]bool, len(found))
	for _, f := range found {
		ok[f] = true
	}
	seen := map[string]bool{}
	var out []string
	for i, id := range ids {
		if !ok[id] {
			return nil, apierr.Invalid(fmt.Sprintf("%s[%d]", field, i), "%s[%d]: no matching %s found for id %q", field, i, what, id)
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, nil
}

// Permission is a level given to a user or a team.
type Permission = ent.ContentPermission

// Users lists the users given a level on the content, in the order they
// were given it.
// Errors: NotFound.
func (s *Service) Users(ctx context.Context, kind, id string) ([]*Permission, error) {
	return s.list(ctx, kind, id, contentpermission.UserIDNotNil())
}

// Teams lists the teams given a level on the content.
// Errors: NotFound.
func (s *Service) Teams(ctx context.Context, kind, id string) ([]*Permission, error) {
	return s.list(ctx, kind, id, contentpermission.TeamIDNotNil())
}

func (s *Service) list(ctx context.Context, kind, id string, which predicate.ContentPermission) ([]*Permission, error) {
	t, err := s.target(ctx, kind, id, types.RoleRead)
	if err != nil {
		return nil, err
	}
	rows, err := s.Client.ContentPermission.Query().Where(t.on(), which, contentpermission.OrganizationID(t.Org)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list permissions: %w", err)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].ID < rows[j].ID })
	l := loaders.For(ctx)
	for _, r := range rows {
		if r.UserID != nil {
			l.UserByID.Load(ctx, *r.UserID)
		}
	}
	return rows, nil
}

// Reach is a user and their level on content.
type Reach struct {
	UserID string
	Level  types.Role
}

// Aggregate lists every member who reaches the content, with their level
// (from their role, the content's default level and the permissions given
// to them and their teams), the highest level first, then the oldest
// members; role keeps those of one level.
// Errors: NotFound, BadRequest.
func (s *Service) Aggregate(ctx context.Context, kind, id string, role *types.Role) ([]Reach, error) {
	if role != nil && !role.Valid() {
		return nil, apierr.Invalid("role", "role must be one of %s", strings.Join(types.Roles, ", "))
	}
	t, err := s.target(ctx, kind, id, types.RoleRead)
	if err != nil {
		return nil, err
	}
	x, err := access.For(ctx, s.Client, t.Org)
	if err != nil {
		return nil, err
	}
	var out []Reach
	joined := map[string]*ent.Member{}
	for uid, m := range x.Members {
		sub := x.Member(uid)
		var level types.Role
		if t.Kind == Space {
			level, err = x.SpaceLevel(sub, t.Space)
		} else {
			level, err = x.CollectionLevel(sub, t.Collection)
		}
		if err != nil {
			return nil, err
		}
		if level == authz.None || (role != nil && level != *role) {
			continue
		}
		joined[uid] = m
		out = append(out, Reach{UserID: uid, Level: level})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Level.Rank() != b.Level.Rank() {
			return a.Level.Rank() > b.Level.Rank()
		}
		ma, mb := joined[a.UserID], joined[b.UserID]
		if !ma.JoinedAt.Equal(mb.JoinedAt) {
			return ma.JoinedAt.Before(mb.JoinedAt)
		}
		return a.UserID < b.UserID
	})
	l := loaders.For(ctx)
	for _, r := range out {
		l.UserByID.Load(ctx, r.UserID)
	}
	return out, nil
}

// Update changes the level of a user or a team (principal, of kind "user"
// or "team") on the content; a nil role removes it.
// Errors: NotFound (also when they were given no level there), Forbidden,
// BadRequest.
func (s *Service) Update(ctx context.Context, kind, id, principalKind, principalID string, role *types.Role) error {
	if role != nil && !role.Valid() {
		return apierr.Invalid("role", "role must be one of %s, or null to remove the permission", strings.Join(types.Roles, ", "))
	}
	t, err := s.target(ctx, kind, id, types.RoleAdmin)
	if err != nil {
		return err
	}
	who := whose(principalKind, principalID)
	var n int
	if role == nil {
		n, err = s.Client.ContentPermission.Delete().Where(t.on(), who, contentpermission.OrganizationID(t.Org)).Exec(ctx)
	} else {
		n, err = s.Client.ContentPermission.Update().Where(t.on(), who, contentpermission.OrganizationID(t.Org)).SetLevel(*role).Save(ctx)
	}
	if err != nil {
		return fmt.Errorf("update permission: %w", err)
	}
	if n == 0 {
		return apierr.NotFoundf("No matching %s found for id %q among those given access to this %s", principalKind, principalID, kind)
	}
	s.forget(ctx, t.Org)
	return nil
}

// Remove removes the level of a user or a team on the content; it reports
// whether they had one.
// Errors: NotFound (the content), Forbidden.
func (s *Service) Remove(ctx context.Context, kind, id, principalKind, principalID string) (bool, error) {
	t, err := s.target(ctx, kind, id, types.RoleAdmin)
	if err != nil {
		return false, err
	}
	n, err := s.Client.ContentPermission.Delete().Where(t.on(), whose(principalKind, principalID), contentpermission.OrganizationID(t.Org)).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("remove permission: %w", err)
	}
	s.forget(ctx, t.Org)
	return n > 0, nil
}

func whose(kind, id string) predicate.ContentPermission {
	if kind == "team" {
		return contentpermission.TeamID(id)
	}
	return contentpermission.UserID(id)
}

// forget drops what the request cached of the organization's levels, the
// caller's included (they may have changed their own).
func (s *Service) forget(ctx context.Context, orgID string) {
	access.Forget(ctx, orgID)
	if auth.Viewer(ctx) != nil {
		loaders.For(ctx).ForgetViewerGrants()
	}
}

// Check checks that the caller may change the permissions of the content,
// and that the user or team was given a level on it (an update that
// changes nothing).
// Errors: NotFound, Forbidden.
func (s *Service) Check(ctx context.Context, kind, id, principalKind, principalID string) error {
	t, err := s.target(ctx, kind, id, types.RoleAdmin)
	if err != nil {
		return err
	}
	n, err := s.Client.ContentPermission.Query().Where(t.on(), whose(principalKind, principalID), contentpermission.OrganizationID(t.Org)).Count(ctx)
	if err != nil {
		return fmt.Errorf("read permission: %w", err)
	}
	if n == 0 {
		return apierr.NotFoundf("No matching %s found for id %q among those given access to this %s", principalKind, principalID, kind)
	}
	return nil
}
