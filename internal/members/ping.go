package members

import (
	"context"
	"fmt"

	"quire/ent/member"
	"quire/ent/team"
	"quire/ent/teammember"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/claims"
	"quire/internal/loaders"
)

// Signer signs a member's claims (the claims engine).
type Signer interface {
	Sign(ctx context.Context, m claims.Member) (string, error)
}

// Ping records that the caller is active in an organization (its
// lastSeenAt) and returns a token of their claims as a member, signed with
// the organization's key, for them to hand to what needs to know who they
// are there (a published site's visitor authentication, say).
// Errors: NotFound (not a member), Forbidden (single sign-on enforced).
func (s *Service) Ping(ctx context.Context, orgID string) (string, error) {
	if _, err := roleIn(ctx, orgID); err != nil {
		return "", err
	}
	if s.Claims == nil {
		return "", apierr.New(apierr.Internal, "No claims signer")
	}
	v := auth.Viewer(ctx)
	if _, err := s.Client.Member.Update().Where(member.OrganizationID(orgID), member.UserID(v.ID)).
		SetLastSeenAt(s.Now()).Save(ctx); err != nil {
		return "", fmt.Errorf("record last seen: %w", err)
	}
	l := loaders.For(ctx)
	l.MemberByOrgUser.Clear(ctx, orgID+"/"+v.ID)
	m, err := l.MemberByOrgUser.Load(ctx, orgID+"/"+v.ID)()
	if err != nil {
		return "", err
	}
	teams, err := s.Client.TeamMember.Query().Where(teammember.UserID(v.ID), teammember.HasTeamWith(team.OrganizationID(orgID))).
		Select(teammember.FieldTeamID).Strings(ctx)
	if err != nil {
		return "", fmt.Errorf("read teams: %w", err)
	}
	var role *string
	if m.Role != nil {
		r := string(*m.Role)
		role = &r
	}
	return s.Claims.Sign(ctx, claims.Member{Organization: orgID, User: v, Role: role, SSO: m.SSO, Teams: teams})
}
