package orgs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"

	"quire/ent"
	"quire/ent/collection"
	"quire/ent/contentpermission"
	"quire/ent/invitelink"
	"quire/ent/member"
	"quire/ent/space"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/authz"
	"quire/internal/db"
	"quire/internal/loaders"
	"quire/internal/types"
)

// Kinds of invite links.
const (
	InviteOrganization = "organization"
	InviteSpace        = "space"
	InviteCollection   = "collection"
)

func notFoundInvite(id string) error {
	return apierr.NotFoundf("No matching invite found for id %q", id)
}

// unusableInvite is the answer to joining through a link that is unknown,
// or that the organization has turned off: one answer for both.
func unusableInvite(id string) error {
	return apierr.NotFoundf("No usable invite found for id %q: it does not exist, or its organization has turned invite links off", id)
}

// InviteLinks lists an organization's invite links, oldest first.
// Errors: NotFound, Forbidden (not an admin).
func (s *Service) InviteLinks(ctx context.Context, orgID string) ([]*ent.InviteLink, error) {
	if err := requireAdmin(ctx, orgID); err != nil {
		return nil, err
	}
	return s.links(ctx, orgID)
}

// links reads an organization's links once per request, oldest first.
func (s *Service) links(ctx context.Context, orgID string) ([]*ent.InviteLink, error) {
	return loaders.Memo(ctx, orgID, "orgs.inviteLinks", func() ([]*ent.InviteLink, error) {
		ls, err := s.Client.InviteLink.Query().Where(invitelink.OrganizationID(orgID)).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("list invite links: %w", err)
		}
		sort.Slice(ls, func(i, j int) bool {
			if !ls[i].CreatedAt.Equal(ls[j].CreatedAt) {
				return ls[i].CreatedAt.Before(ls[j].CreatedAt)
			}
			return ls[i].ID < ls[j].ID
		})
		return ls, nil
	})
}

// InviteLink returns an invite link of the organization.
// Errors: NotFound, Forbidden (not an admin).
func (s *Service) InviteLink(ctx context.Context, orgID, id string) (*ent.InviteLink, error) {
	ls, err := s.InviteLinks(ctx, orgID)
	if err != nil {
		return nil, err
	}
	for _, l := range ls {
		if l.ID == id {
			return l, nil
		}
	}
	return nil, notFoundInvite(id)
}

// Redundant reports whether an older link of the organization gives the
// same (the same role in the organization, or level on the same content):
// joining through this one gives nothing the other does not.
func (s *Service) Redundant(ctx context.Context, l *ent.InviteLink) (bool, error) {
	ls, err := s.links(ctx, l.OrganizationID)
	if err != nil {
		return false, err
	}
	key := func(x *ent.InviteLink) string {
		r := ""
		if x.Role != nil {
			r = string(*x.Role)
		}
		return x.Kind + "/" + deref(x.SpaceID) + deref(x.CollectionID) + "/" + r
	}
	for _, o := range ls {
		if o.ID == l.ID {
			return false, nil
		}
		if key(o) == key(l) {
			return true, nil
		}
	}
	return false, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// NewInvite is an invite link to create: to the organization with Role
// (nil: guests), or to a space or collection (Target) with a level.
type NewInvite struct {
	Kind   string
	Role   *types.Role
	Target string
}

func checkInviteRole(kind string, role *types.Role) error {
	field := "level"
	if kind == InviteOrganization {
		field = "role"
	}
	if role == nil {
		if kind == InviteOrganization {
			return nil
		}
		return apierr.Invalid(field, "level must be one of %s", strings.Join(types.Roles, ", "))
	}
	if !role.Valid() {
		return apierr.Invalid(field, "%s must be one of %s", field, strings.Join(types.Roles, ", "))
	}
	return nil
}

// CreateInviteLink creates an invite link; the space or collection of a
// link to content must be of the organization.
// Errors: NotFound, Forbidden (not an admin), BadRequest.
func (s *Service) CreateInviteLink(ctx context.Context, orgID string, in NewInvite) (*ent.InviteLink, error) {
	if err := checkInviteRole(in.Kind, in.Role); err != nil {
		return nil, err
	}
	if err := requireAdmin(ctx, orgID); err != nil {
		return nil, err
	}
	c := s.Client.InviteLink.Create().SetOrganizationID(orgID).SetKind(in.Kind).SetNillableRole(in.Role).SetCreatedAt(s.Now())
	if v := auth.Viewer(ctx); v != nil {
		c.SetCreatedBy(v.ID)
	}
	switch in.Kind {
	case InviteSpace:
		n, err := s.Client.Space.Query().Where(space.ID(in.Target), space.OrganizationID(orgID), space.DeletedAtIsNil()).Count(ctx)
		if err != nil {
			return nil, fmt.Errorf("read space: %w", err)
		}
		if n == 0 {
			return nil, apierr.Invalid("space", "space: no matching space found for id %q in this organization", in.Target)
		}
		c.SetSpaceID(in.Target)
	case InviteCollection:
		n, err := s.Client.Collection.Query().Where(collection.ID(in.Target), collection.OrganizationID(orgID)).Count(ctx)
		if err != nil {
			return nil, fmt.Errorf("read collection: %w", err)
		}
		if n == 0 {
			return nil, apierr.Invalid("collection", "collection: no matching collection found for id %q in this organization", in.Target)
		}
		c.SetCollectionID(in.Target)
	}
	l, err := c.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("create invite link: %w", err)
	}
	loaders.For(ctx).ForgetMemos(orgID)
	return l, nil
}

// UpdateInviteLink changes the role (or level) an invite link gives.
// Errors: NotFound, Forbidden (not an admin), BadRequest.
func (s *Service) UpdateInviteLink(ctx context.Context, orgID, id string, role *types.Role) (*ent.InviteLink, error) {
	l, err := s.InviteLink(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	if err := checkInviteRole(l.Kind, role); err != nil {
		return nil, err
	}
	u := s.Client.InviteLink.UpdateOne(l)
	if role == nil {
		u.ClearRole()
	} else {
		u.SetRole(*role)
	}
	out, err := u.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("update invite link: %w", err)
	}
	loaders.For(ctx).ForgetMemos(orgID)
	return out, nil
}

// DeleteInviteLink deletes an invite link; it reports whether there was
// one (none: the caller may not see the organization).
// Errors: Forbidden (not an admin).
func (s *Service) DeleteInviteLink(ctx context.Context, orgID, id string) (bool, error) {
	if err := requireAdmin(ctx, orgID); apierr.CodeOf(err) == apierr.NotFound {
		return false, nil
	} else if err != nil {
		return false, err
	}
	n, err := s.Client.InviteLink.Delete().Where(invitelink.ID(id), invitelink.OrganizationID(orgID)).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("delete invite link: %w", err)
	}
	loaders.For(ctx).ForgetMemos(orgID)
	return n > 0, nil
}

// JoinWithInvite makes the caller a member of the organization through an
// invite link (the link's id is its secret): with the link's role, or, for
// a link to content, as a guest given the link's level on it. A member
// keeps their role; a link to content raises their level on it.
// Errors: NotFound (no such link in the organization, or the organization
// has turned invite links off: the same answer, so that nobody learns which
// ids are links while links are off), BadRequest (the content is deleted),
// Forbidden (a disabled member).
func (s *Service) JoinWithInvite(ctx context.Context, orgID, inviteID string) error {
	v := auth.Viewer(ctx)
	if v == nil {
		return apierr.New(apierr.Unauthorized, "Authentication required")
	}
	if err := checkScope(ctx, orgID); err != nil {
		return err
	}
	l, err := s.Client.InviteLink.Query().Where(invitelink.ID(inviteID), invitelink.OrganizationID(orgID)).
		WithOrganization().Only(ctx)
	if ent.IsNotFound(err) {
		return unusableInvite(inviteID)
	}
	if err != nil {
		return fmt.Errorf("read invite link: %w", err)
	}
	if !l.Edges.Organization.InviteLinks {
		return unusableInvite(inviteID)
	}
	err = db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		m, err := tx.Member.Query().Where(member.OrganizationID(orgID), member.UserID(v.ID)).Only(ctx)
		switch {
		case ent.IsNotFound(err):
			c := tx.Member.Create().SetOrganizationID(orgID).SetUserID(v.ID).SetJoinedAt(s.Now())
			if l.Kind == InviteOrganization && l.Role != nil {
				c.SetRole(*l.Role)
			}
			if err := c.Exec(ctx); err != nil {
				return fmt.Errorf("join organization: %w", err)
			}
		case err != nil:
			return fmt.Errorf("read member: %w", err)
		case m.Disabled:
			return apierr.Forbiddenf("Your membership of this organization is disabled; ask one of its admins")
		}
		if l.Kind == InviteOrganization || l.Role == nil {
			return nil
		}
		return grant(ctx, tx, l, v.ID)
	})
	if err != nil {
		return err
	}
	ld := loaders.For(ctx)
	ld.ForgetViewerMemberships()
	ld.ForgetViewerGrants()
	ld.PrimeOrganization(ctx, l.Edges.Organization)
	ld.ForgetMemos(orgID)
	return nil
}

// grant gives a user the level of a link to content, or keeps the higher
// level they have.
func grant(ctx context.Context, tx *ent.Tx, l *ent.InviteLink, userID string) error {
	q := tx.ContentPermission.Query().Where(contentpermission.UserID(userID))
	c := tx.ContentPermission.Create().SetOrganizationID(l.OrganizationID).SetUserID(userID).SetLevel(*l.Role)
	if l.Kind == InviteSpace {
		sp, err := tx.Space.Get(ctx, *l.SpaceID)
		if err != nil {
			return fmt.Errorf("read space: %w", err)
		}
		if sp.DeletedAt != nil {
			return apierr.Invalid("inviteId", "The space of this invite is deleted")
		}
		q.Where(contentpermission.SpaceID(*l.SpaceID))
		c.SetSpaceID(*l.SpaceID)
	} else {
		q.Where(contentpermission.CollectionID(*l.CollectionID))
		c.SetCollectionID(*l.CollectionID)
	}
	p, err := q.Only(ctx)
	switch {
	case ent.IsNotFound(err):
		if err := c.Exec(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("give permission: %w", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("read permission: %w", err)
	}
	if authz.Higher(p.Level, *l.Role) != p.Level {
		return tx.ContentPermission.UpdateOne(p).SetLevel(*l.Role).Exec(ctx)
	}
	return nil
}
