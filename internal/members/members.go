// Package members holds the rules of an organization's members and teams:
// who may list and change them, roles (an organization always keeps an
// admin), team memberships, and what a member reaches. Both doors call it
// through the GraphQL resolvers.
package members

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"quire/ent"
	"quire/ent/contentpermission"
	"quire/ent/member"
	"quire/ent/organization"
	"quire/ent/team"
	"quire/ent/teammember"
	"quire/ent/user"
	"quire/internal/access"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/authz"
	"quire/internal/db"
	"quire/internal/loaders"
	"quire/internal/pagination"
	"quire/internal/types"
)

// Service implements the member and team operations.
type Service struct {
	Client *ent.Client
	// Now returns the current time; tests may replace it.
	Now func() time.Time
	// Claims signs the tokens Ping returns.
	Claims Signer
}

// New returns a Service over client.
func New(client *ent.Client) *Service {
	return &Service{Client: client, Now: func() time.Time { return time.Now().UTC() }}
}

// MaxSearch bounds the text a member list is searched for.
const MaxSearch = 256

func notFoundOrg(id string) error {
	return apierr.NotFoundf("No matching organization found for id %q", id)
}

func notFoundMember(id string) error {
	return apierr.NotFoundf("No matching member found for id %q", id)
}

// roleIn returns the caller's role in an organization they are an active
// member of (None for a guest). Errors: NotFound for others.
func roleIn(ctx context.Context, orgID string) (types.Role, error) {
	role, isMember, err := authz.OrgRole(ctx, orgID)
	if err != nil {
		return authz.None, err
	}
	if !isMember {
		return authz.None, notFoundOrg(orgID)
	}
	return role, nil
}

// canList checks that the caller may list the organization's members and
// teams: every role may, guests may not.
func canList(ctx context.Context, orgID string) (types.Role, error) {
	role, err := roleIn(ctx, orgID)
	if err != nil {
		return role, err
	}
	if role == authz.None {
		return role, apierr.Forbiddenf("Guests may not list the members and teams of this organization")
	}
	return role, nil
}

// requireAdmin checks that the caller administers the organization.
func requireAdmin(ctx context.Context, orgID string) error {
	role, err := roleIn(ctx, orgID)
	if err != nil {
		return err
	}
	if role != types.RoleAdmin {
		return apierr.Forbiddenf("You need admin rights in this organization")
	}
	return nil
}

// lockOrganization serializes changes to an organization's members (the
// last admin rule) on PostgreSQL; SQLite transactions hold the write lock.
func lockOrganization(ctx context.Context, tx *ent.Tx, orgID string) error {
	_, err := tx.Organization.Query().Unique(false).Where(organization.ID(orgID), func(s *entsql.Selector) {
		if s.Dialect() == dialect.Postgres {
			s.ForUpdate()
		}
	}).IDs(ctx)
	if err != nil {
		return fmt.Errorf("lock organization: %w", err)
	}
	return nil
}

// Filter selects and orders a member list.
type Filter struct {
	// Role keeps the members of a role, or "guest" for members without.
	Role string
	// Search keeps the members whose display name or email contains it,
	// regardless of case.
	Search string
	// Sort is joinedAt (the default) or lastSeenAt, which lists only the
	// members seen since they joined.
	Sort string
	// Order is desc (the default) or asc.
	Order string
}

// Members lists an organization's members, the newest first unless asked
// otherwise, with the cursor key of that order.
// Errors: NotFound for non-members, Forbidden for guests, BadRequest.
func (s *Service) Members(ctx context.Context, orgID string, f Filter) ([]*ent.Member, func(*ent.Member) pagination.Cursor, error) {
	if f.Role != "" && f.Role != "guest" && !types.Role(f.Role).Valid() {
		return nil, nil, apierr.Invalid("role", "role must be one of %s or guest", strings.Join(types.Roles, ", "))
	}
	if f.Sort != "" && f.Sort != "joinedAt" && f.Sort != "lastSeenAt" {
		return nil, nil, apierr.Invalid("sort", "sort must be joinedAt or lastSeenAt")
	}
	if f.Order != "" && f.Order != "asc" && f.Order != "desc" {
		return nil, nil, apierr.Invalid("order", "order must be asc or desc")
	}
	if utf8.RuneCountInString(f.Search) > MaxSearch {
		return nil, nil, apierr.Invalid("search", "search must be at most %d characters long", MaxSearch)
	}
	if _, err := canList(ctx, orgID); err != nil {
		return nil, nil, err
	}
	q := s.Client.Member.Query().Where(member.OrganizationID(orgID))
	switch f.Role {
	case "":
	case "guest":
		q.Where(member.RoleIsNil())
	default:
		q.Where(member.RoleEQ(types.Role(f.Role)))
	}
	if f.Search != "" {
		q.Where(member.HasUserWith(user.Or(user.DisplayNameContainsFold(f.Search), user.EmailContainsFold(f.Search))))
	}
	bySeen := f.Sort == "lastSeenAt"
	if bySeen {
		q.Where(member.LastSeenAtNotNil())
	}
	ms, err := q.All(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("list members: %w", err)
	}
	key := timeCursor(func(m *ent.Member) time.Time { return m.JoinedAt }, f.Order != "asc", func(m *ent.Member) string { return m.UserID })
	if bySeen {
		key = timeCursor(func(m *ent.Member) time.Time { return *m.LastSeenAt }, f.Order != "asc", func(m *ent.Member) string { return m.UserID })
	}
	sort.Slice(ms, func(i, j int) bool { return key(ms[i]).Compare(key(ms[j])) < 0 })
	return ms, key, nil
}

// timeCursor orders items by a time, descending when desc, then by id.
func timeCursor[T any](at func(T) time.Time, desc bool, id func(T) string) func(T) pagination.Cursor {
	return func(v T) pagination.Cursor {
		n := at(v).UnixNano()
		if desc {
			n = math.MaxInt64 - n
		}
		return pagination.Cursor{Key: fmt.Sprintf("%020d", n), ID: id(v)}
	}
}

// Member returns the membership of a user: every member with a role may
// read every membership; a guest only their own.
// Errors: NotFound, Forbidden.
func (s *Service) Member(ctx context.Context, orgID, userID string) (*ent.Member, error) {
	role, err := roleIn(ctx, orgID)
	if err != nil {
		return nil, err
	}
	self := auth.Viewer(ctx) != nil && auth.Viewer(ctx).ID == userID
	if role == authz.None && !self {
		return nil, apierr.Forbiddenf("Guests may not read the members of this organization")
	}
	m, err := loaders.For(ctx).MemberByOrgUser.Load(ctx, orgID+"/"+userID)()
	if apierr.CodeOf(err) == apierr.NotFound {
		return nil, notFoundMember(userID)
	}
	return m, err
}

// UpdateMember changes a member's role; a nil role makes them a guest. The
// organization's last admin keeps their role.
// Errors: NotFound, Forbidden (not an admin), BadRequest.
func (s *Service) UpdateMember(ctx context.Context, orgID, userID string, role *types.Role, set bool) (*ent.Member, error) {
	if role != nil && !role.Valid() {
		return nil, apierr.Invalid("role", "role must be one of %s, or null for a guest", strings.Join(types.Roles, ", "))
	}
	if err := requireAdmin(ctx, orgID); err != nil {
		return nil, err
	}
	var out *ent.Member
	err := db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		if err := lockOrganization(ctx, tx, orgID); err != nil {
			return err
		}
		m, err := tx.Member.Query().Where(member.OrganizationID(orgID), member.UserID(userID)).Only(ctx)
		if ent.IsNotFound(err) {
			return notFoundMember(userID)
		}
		if err != nil {
			return fmt.Errorf("read member: %w", err)
		}
		if !set {
			out = m
			return nil
		}
		if isAdmin(m) && (role == nil || *role != types.RoleAdmin) {
			if err := keepAnAdmin(ctx, tx, orgID, "role", "demoted"); err != nil {
				return err
			}
		}
		u := tx.Member.UpdateOne(m)
		if role == nil {
			u.ClearRole()
		} else {
			u.SetRole(*role)
		}
		out, err = u.Save(ctx)
		if err != nil {
			return fmt.Errorf("update member: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.forget(ctx, orgID, userID)
	return out, nil
}

func isAdmin(m *ent.Member) bool { return !m.Disabled && m.Role != nil && *m.Role == types.RoleAdmin }

// keepAnAdmin refuses a change that would leave the organization without
// an active admin: the member changed is one, so there must be another.
func keepAnAdmin(ctx context.Context, tx *ent.Tx, orgID, field, what string) error {
	n, err := tx.Member.Query().Where(member.OrganizationID(orgID), member.RoleEQ(types.RoleAdmin), member.Disabled(false)).Count(ctx)
	if err != nil {
		return fmt.Errorf("count admins: %w", err)
	}
	if n <= 1 {
		return apierr.Invalid(field, "The organization's last admin cannot be %s: make another member admin first", what)
	}
	return nil
}

// RemoveMember removes a user from an organization, with their team
// memberships and the permissions given to them there; admins may remove
// anyone, and every member may leave. It reports whether there was such a
// member (none: the caller may not see the organization). The
// organization's last admin stays.
// Errors: Forbidden, BadRequest.
func (s *Service) RemoveMember(ctx context.Context, orgID, userID string) (bool, error) {
	role, err := roleIn(ctx, orgID)
	if apierr.CodeOf(err) == apierr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	self := auth.Viewer(ctx) != nil && auth.Viewer(ctx).ID == userID
	if role != types.RoleAdmin && !self {
		return false, apierr.Forbiddenf("You need admin rights in this organization")
	}
	deleted := false
	err = db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		deleted = false
		if err := lockOrganization(ctx, tx, orgID); err != nil {
			return err
		}
		m, err := tx.Member.Query().Where(member.OrganizationID(orgID), member.UserID(userID)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read member: %w", err)
		}
		if isAdmin(m) {
			if err := keepAnAdmin(ctx, tx, orgID, "userId", "removed"); err != nil {
				return err
			}
		}
		if _, err := tx.TeamMember.Delete().Where(teammember.UserID(userID), teammember.HasTeamWith(team.OrganizationID(orgID))).Exec(ctx); err != nil {
			return fmt.Errorf("remove team memberships: %w", err)
		}
		if _, err := tx.ContentPermission.Delete().Where(contentpermission.UserID(userID), contentpermission.OrganizationID(orgID)).Exec(ctx); err != nil {
			return fmt.Errorf("remove permissions: %w", err)
		}
		if err := tx.Member.DeleteOne(m).Exec(ctx); err != nil {
			return fmt.Errorf("remove member: %w", err)
		}
		deleted = true
		return nil
	})
	if err != nil {
		return false, err
	}
	s.forget(ctx, orgID, userID)
	return deleted, nil
}

// SetSSO marks a member as one who signs in through the organization's
// identity provider, which lets them reach its content when it enforces
// single sign-on.
// Errors: NotFound, Forbidden.
func (s *Service) SetSSO(ctx context.Context, orgID, userID string) (*ent.Member, error) {
	if err := requireAdmin(ctx, orgID); err != nil {
		return nil, err
	}
	n, err := s.Client.Member.Update().Where(member.OrganizationID(orgID), member.UserID(userID)).SetSSO(true).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("mark SSO member: %w", err)
	}
	if n == 0 {
		return nil, notFoundMember(userID)
	}
	s.forget(ctx, orgID, userID)
	return loaders.For(ctx).MemberByOrgUser.Load(ctx, orgID+"/"+userID)()
}

// forget drops what the request cached about a member after a change.
func (s *Service) forget(ctx context.Context, orgID, userID string) {
	l := loaders.For(ctx)
	l.MemberByOrgUser.Clear(ctx, orgID+"/"+userID)
	access.Forget(ctx, orgID)
	if v := auth.Viewer(ctx); v != nil && v.ID == userID {
		l.ForgetViewerMemberships()
		l.ForgetViewerGrants()
	}
}

// SpaceCount is how many live spaces a member reaches (as the member's
// spaces list counts them, without the caller's view).
func (s *Service) SpaceCount(ctx context.Context, m *ent.Member) (int, error) {
	x, err := access.For(ctx, s.Client, m.OrganizationID)
	if err != nil {
		return 0, err
	}
	return x.CountSpaces(x.Member(m.UserID))
}

// TeamCount is how many of the organization's teams a member belongs to.
func (s *Service) TeamCount(ctx context.Context, m *ent.Member) (int, error) {
	x, err := access.For(ctx, s.Client, m.OrganizationID)
	if err != nil {
		return 0, err
	}
	return len(x.TeamsOf(m.UserID)), nil
}

// MemberSpaces lists the live spaces a member reaches, with their level,
// of those the caller may see too; order is desc (the default: the last
// of the organization's order first) or asc.
// Errors: NotFound, Forbidden (guests, but about themselves), BadRequest.
func (s *Service) MemberSpaces(ctx context.Context, orgID, userID, order string) ([]access.Reach, error) {
	if order != "" && order != "asc" && order != "desc" {
		return nil, apierr.Invalid("order", "order must be asc or desc")
	}
	if _, err := s.Member(ctx, orgID, userID); err != nil {
		return nil, err
	}
	x, err := access.For(ctx, s.Client, orgID)
	if err != nil {
		return nil, err
	}
	reach, err := x.SpacesOf(x.Member(userID))
	if err != nil {
		return nil, err
	}
	out := make([]access.Reach, 0, len(reach))
	for _, r := range reach {
		if err := primeParents(ctx, x, r.Space.ParentID); err != nil {
			return nil, err
		}
		level, err := authz.SpaceLevel(ctx, r.Space)
		if err != nil {
			return nil, err
		}
		if level != authz.None {
			out = append(out, r)
		}
	}
	if order != "asc" {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out, nil
}

// primeParents gives the request's loaders the collections above a space
// from the index, so that the caller's levels read nothing more.
func primeParents(ctx context.Context, x *access.Index, parentID *string) error {
	l := loaders.For(ctx)
	for depth := 0; parentID != nil && depth < 64; depth++ {
		c, err := x.Collection(*parentID)
		if err != nil {
			return err
		}
		l.PrimeCollection(ctx, c)
		parentID = c.ParentID
	}
	return nil
}

// loadersForget drops the caller's cached grants after a change of their
// teams.
func loadersForget(ctx context.Context) { loaders.For(ctx).ForgetViewerGrants() }
