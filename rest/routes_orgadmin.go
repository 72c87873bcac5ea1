package rest

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"quire/ent"
	"quire/graph"
	"quire/graph/model"
	"quire/internal/types"
)

// The routes of an organization's settings, joining, invite links, agent
// instructions and pings.
func (a *API) orgAdminRoutes() []Route {
	orgs, invites := a.orgs(), a.inviteLinks()
	return []Route{
		route("PATCH", "/orgs/{organizationId}", "Update an organization", func(ctx context.Context, req *Request, in *UpdateOrganizationBody) (*ent.Organization, error) {
			return a.r.Mutation().UpdateOrganization(ctx, req.Param("organizationId"), in.input())
		}).Present(orgs).Errors(409),

		route("POST", "/orgs/{organizationId}/join", "Join an organization that admits the caller's verified email domain", func(ctx context.Context, req *Request, _ *NoInput) (struct{}, error) {
			_, err := a.r.Mutation().JoinOrganization(ctx, req.Param("organizationId"))
			return struct{}{}, err
		}).Present(nothing[struct{}]()).NoContent(),

		route("GET", "/email-domains/{emailDomain}/orgs", "List the organizations of an email domain the caller belongs to or may join", func(ctx context.Context, req *Request, _ *NoInput) ([]*ent.Organization, error) {
			return a.r.Query().OrganizationsForEmailDomain(ctx, req.Param("emailDomain"))
		}).Present(presents(func(ctx context.Context, list []*ent.Organization) (*EmailDomainOrganizations, error) {
			out := &EmailDomainOrganizations{Organizations: []*Organization{}}
			for _, o := range list {
				p, err := a.presentOrganization(ctx, o)
				if err != nil {
					return nil, err
				}
				out.Organizations = append(out.Organizations, p)
			}
			return out, nil
		})),

		route("GET", "/orgs/{organizationId}/link-invites", "List an organization's invite links", func(ctx context.Context, req *Request, in *ListParams) (*ListPage[*ent.InviteLink], error) {
			o, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Organization().Invites(ctx, o, in.First(), in.After(), nil, nil)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(invites.List()),

		route("POST", "/orgs/{organizationId}/link-invites", "Create an invite link", func(ctx context.Context, req *Request, in *CreateInviteLinkBody) (*ent.InviteLink, error) {
			return a.r.Mutation().CreateInviteLink(ctx, req.Param("organizationId"), model.CreateInviteLinkInput{
				Role: in.Role.Omittable(), Level: in.Level.Omittable(), Space: in.Space.Omittable(), Collection: in.Collection.Omittable(),
			})
		}).Present(invites).Created(),

		route("GET", "/orgs/{organizationId}/link-invites/{inviteId}", "Get an invite link", func(ctx context.Context, req *Request, _ *NoInput) (*ent.InviteLink, error) {
			o, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
			if err != nil {
				return nil, err
			}
			return a.r.Organization().Invite(ctx, o, req.Param("inviteId"))
		}).Present(invites),

		route("PATCH", "/orgs/{organizationId}/link-invites/{inviteId}", "Update an invite link", func(ctx context.Context, req *Request, in *UpdateInviteLinkBody) (*ent.InviteLink, error) {
			return a.r.Mutation().UpdateInviteLink(ctx, req.Param("organizationId"), req.Param("inviteId"), model.UpdateInviteLinkInput{
				Role: in.Role.Omittable(), Level: in.Level.Omittable(),
			})
		}).Present(invites),

		route("DELETE", "/orgs/{organizationId}/link-invites/{inviteId}", "Delete an invite link", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			return a.r.Mutation().DeleteInviteLink(ctx, req.Param("organizationId"), req.Param("inviteId"))
		}).Present(deleted),

		route("POST", "/orgs/{organizationId}/invites/{inviteId}", "Join an organization through an invite link", func(ctx context.Context, req *Request, _ *NoInput) (map[string]any, error) {
			if _, err := a.r.Mutation().JoinOrganizationWithInvite(ctx, req.Param("organizationId"), req.Param("inviteId")); err != nil {
				return nil, err
			}
			return map[string]any{}, nil
		}).Present(asIs[map[string]any]()),

		route("GET", "/orgs/{organizationId}/agent-instructions", "Get an organization's instructions to AI agents", func(ctx context.Context, req *Request, _ *NoInput) (*graph.AgentInstructions, error) {
			o, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
			if err != nil {
				return nil, err
			}
			return a.r.Organization().AgentInstructions(ctx, o)
		}).Present(a.agentInstructions()),

		route("PUT", "/orgs/{organizationId}/agent-instructions", "Replace an organization's instructions to AI agents", func(ctx context.Context, req *Request, in *AgentInstructionsBody) (*graph.AgentInstructions, error) {
			return a.r.Mutation().UpdateAgentInstructions(ctx, req.Param("organizationId"), types.JSON(in.Instructions))
		}).Present(a.agentInstructions()),

		route("POST", "/orgs/{organizationId}/ping", "Record that the caller is active in an organization, and get a token of their claims", func(ctx context.Context, req *Request, _ *NoInput) (*model.PingPayload, error) {
			return a.r.Mutation().PingOrganization(ctx, req.Param("organizationId"))
		}).Present(presents(func(_ context.Context, p *model.PingPayload) (*Ping, error) {
			return &Ping{ServiceVisitorClaims: p.ServiceVisitorClaims}, nil
		})),
	}
}

// input is the organization patch as the resolvers take it.
func (b *UpdateOrganizationBody) input() model.UpdateOrganizationInput {
	in := model.UpdateOrganizationInput{
		Title: b.Title.Omittable(), Hostname: b.Hostname.Omittable(), DefaultRole: b.DefaultRole.Omittable(),
		Logo: b.Logo.Omittable(), Sso: b.SSO.Omittable(), Ai: b.AI.Omittable(), InviteLinks: b.InviteLinks.Omittable(),
	}
	if d, ok := b.EmailDomains.Get(); ok {
		if d == nil {
			d = []string{}
		}
		in.EmailDomains = graphql.OmittableOf(d)
	}
	if b.DefaultContent.IsSet() {
		dc, ok := b.DefaultContent.Get()
		if ok {
			in.DefaultContent = graphql.OmittableOf(&model.OrganizationDefaultContentInput{Type: dc.Type, Site: dc.Site})
		} else {
			in.DefaultContent = graphql.OmittableOf[*model.OrganizationDefaultContentInput](nil)
		}
	}
	if mr, ok := b.MergeRules.Get(); ok {
		in.MergeRules = mergeRulesInput(mr)
	}
	return in
}

// mergeRulesInput is a merge rules body as the resolvers take it.
func mergeRulesInput(mr MergeRulesBody) graphql.Omittable[*model.MergeRulesInput] {
	m := &model.MergeRulesInput{Type: mr.Type}
	var rules []*model.MergeRuleInput
	for _, r := range mr.Rules {
		rules = append(rules, &model.MergeRuleInput{Rule: r.Rule, Users: graphql.OmittableOf(r.Users), Expression: graphql.OmittableOf(r.Expression)})
	}
	m.Rules = graphql.OmittableOf(rules)
	return graphql.OmittableOf(m)
}
