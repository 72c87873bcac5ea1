package graph

import (
	"context"

	"quire/internal/access"
	"quire/internal/grants"
	"quire/internal/loaders"
	"quire/internal/members"
	"quire/internal/orgs"
	"quire/internal/sso"
)

// What the REST presenters of organization administration need of the
// types the resolver methods return (see rest_exports.go).

type (
	// TeamPermissions are the caller's permissions on a team.
	TeamPermissions = members.TeamPermissions
	// TeamMembership is a member of a team with their role in it.
	TeamMembership = members.TeamMembership
	// MemberReach is a space a member reaches, with their level.
	MemberReach = access.Reach
	// UserReach is a user and their level on content.
	UserReach = grants.Reach
	// AgentInstructions are an organization's instructions to AI agents.
	AgentInstructions = orgs.Instructions
	// SAMLEndpoints are Quire's endpoints for a SAML provider.
	SAMLEndpoints = sso.Endpoints
	// SSOLogin is a way to sign in to an organization.
	SSOLogin = sso.Login
)

// Kinds of invite links.
const (
	InviteToOrganization = orgs.InviteOrganization
	InviteToSpace        = orgs.InviteSpace
	InviteToCollection   = orgs.InviteCollection
)

// WarmOrganizationAccess loads, once per request, what decides the levels
// of an organization's members, which presenting members and teams (their
// spaces and teams counts) reads.
func (r *Resolver) WarmOrganizationAccess(ctx context.Context, orgID string) error {
	_, err := access.For(ctx, r.Members.Client, orgID)
	return err
}

// QueueUsers queues the loads of users, so that presenting them reads them
// in one batch.
func (r *Resolver) QueueUsers(ctx context.Context, ids []string) {
	l := loaders.For(ctx)
	for _, id := range ids {
		l.UserByID.Load(ctx, id)
	}
}
