package catalog

import (
	"context"
	"fmt"
	"sort"

	"quire/ent"
	"quire/ent/member"
	"quire/ent/organization"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/authz"
	"quire/internal/loaders"
)

// Organization returns an organization the caller belongs to.
// Errors: NotFound when it does not exist or the caller is not a member.
func (s *Service) Organization(ctx context.Context, id string) (*ent.Organization, error) {
	// The organization shows even where its content is refused to the
	// caller until they sign in through its identity provider.
	_, isMember, err := authz.OrgMembership(ctx, id)
	if err != nil {
		return nil, err
	}
	if !isMember {
		return nil, apierr.NotFoundf("No matching organization found for id %q", id)
	}
	org, err := loaders.For(ctx).OrganizationByID.Load(ctx, id)()
	if err != nil {
		return nil, err
	}
	return org, nil
}

// Organizations lists the organizations the caller belongs to, oldest first.
func (s *Service) Organizations(ctx context.Context) ([]*ent.Organization, error) {
	ms, err := loaders.For(ctx).ViewerMemberships(ctx)
	if err != nil {
		return nil, err
	}
	var ids []string
	for id, m := range ms {
		if !m.Disabled {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return []*ent.Organization{}, nil
	}
	orgs, err := s.Client.Organization.Query().Where(organization.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list organizations: %w", err)
	}
	l := loaders.For(ctx)
	for _, o := range orgs {
		l.PrimeOrganization(ctx, o)
	}
	sort.Slice(orgs, func(i, j int) bool { return OrganizationCursor(orgs[i]).Compare(OrganizationCursor(orgs[j])) < 0 })
	return orgs, nil
}

// Members lists an organization's members, oldest first.
// Errors: NotFound for non-members, Forbidden for guests.
func (s *Service) Members(ctx context.Context, orgID string) ([]*ent.Member, error) {
	role, isMember, err := authz.OrgRole(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if !isMember {
		return nil, apierr.NotFoundf("No matching organization found for id %q", orgID)
	}
	if !authz.ForOrganization(role, isMember).ListMembers {
		return nil, apierr.Forbiddenf("You are not allowed to list the members of this organization")
	}
	ms, err := s.Client.Member.Query().Where(member.OrganizationID(orgID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list members: %w", err)
	}
	sort.Slice(ms, func(i, j int) bool { return MemberCursor(ms[i]).Compare(MemberCursor(ms[j])) < 0 })
	return ms, nil
}

// Viewer returns the authenticated caller.
// Errors: Unauthorized when there is none.
func (s *Service) Viewer(ctx context.Context) (*ent.User, error) {
	u := auth.Viewer(ctx)
	if u == nil {
		return nil, apierr.New(apierr.Unauthorized, "Authentication required")
	}
	return u, nil
}
