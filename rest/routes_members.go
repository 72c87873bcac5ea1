package rest

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"quire/ent"
	"quire/graph"
	"quire/graph/model"
	"quire/internal/nonempty"
)

// The routes of an organization's members and teams.
func (a *API) memberRoutes() []Route {
	members, teams := a.members(), a.teams()
	const member = "/orgs/{organizationId}/members/{userId}"
	const team = "/orgs/{organizationId}/teams/{teamId}"
	org := func(ctx context.Context, req *Request) (*ent.Organization, error) {
		return a.r.Query().Organization(ctx, req.Param("organizationId"))
	}
	memberOf := func(ctx context.Context, req *Request) (*ent.Member, error) {
		o, err := org(ctx, req)
		if err != nil {
			return nil, err
		}
		return a.r.Organization().Member(ctx, o, req.Param("userId"))
	}
	return []Route{
		route("GET", "/orgs/{organizationId}/members", "List an organization's members", func(ctx context.Context, req *Request, in *MemberListParams) (*ListPage[*ent.Member], error) {
			o, err := org(ctx, req)
			if err != nil {
				return nil, err
			}
			conn, err := a.r.MemberListOf(ctx, o, in.First(), in.After(),
				nonempty.String(in.Role), nonempty.String(in.Search), nonempty.String(in.Sort), nonempty.String(in.Order), graph.EveryMemberPart)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(members.List()),

		route("GET", member, "Get a member of an organization", func(ctx context.Context, req *Request, _ *NoInput) (*ent.Member, error) {
			return memberOf(ctx, req)
		}).Present(members),

		route("PATCH", member, "Change a member's role", func(ctx context.Context, req *Request, in *UpdateMemberBody) (*ent.Member, error) {
			return a.r.Mutation().UpdateMember(ctx, req.Param("organizationId"), req.Param("userId"), model.UpdateMemberInput{Role: in.Role.Omittable()})
		}).Present(members),

		route("DELETE", member, "Remove a member from an organization", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			return a.r.Mutation().RemoveMember(ctx, req.Param("organizationId"), req.Param("userId"))
		}).Present(deleted),

		route("POST", member+"/sso", "Mark a member as one who signs in through single sign-on", func(ctx context.Context, req *Request, _ *NoInput) (*ent.Member, error) {
			return a.r.Mutation().SetMemberSso(ctx, req.Param("organizationId"), req.Param("userId"))
		}).Present(members),

		route("GET", member+"/spaces", "List the spaces a member reaches", func(ctx context.Context, req *Request, in *MemberSpacesParams) (*ListPage[*graph.MemberReach], error) {
			m, err := memberOf(ctx, req)
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Member().SpaceAccess(ctx, m, in.First(), in.After(), nil, nil, nonempty.String(in.Order))
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(a.memberSpaces().List()),

		route("GET", member+"/teams", "List the teams a member belongs to", func(ctx context.Context, req *Request, in *TitleParams) (*ListPage[*graph.TeamMembership], error) {
			m, err := memberOf(ctx, req)
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Member().TeamMemberships(ctx, m, in.First(), in.After(), nil, nil, nonempty.String(in.Title))
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(a.memberTeams().List()),

		route("GET", "/orgs/{organizationId}/teams", "List an organization's teams", func(ctx context.Context, req *Request, in *TeamListParams) (*ListPage[*ent.Team], error) {
			o, err := org(ctx, req)
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Organization().Teams(ctx, o, in.First(), in.After(), nil, nil, nonempty.String(in.Owner), nonempty.String(in.Title))
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(teams.List()),

		route("PUT", "/orgs/{organizationId}/teams", "Create a team", func(ctx context.Context, req *Request, in *CreateTeamBody) (*ent.Team, error) {
			return a.r.Mutation().CreateTeam(ctx, req.Param("organizationId"), model.CreateTeamInput{Title: in.Title, Members: graphql.OmittableOf(in.Members)})
		}).Present(teams).Created(),

		route("GET", team, "Get a team", func(ctx context.Context, req *Request, _ *NoInput) (*ent.Team, error) {
			o, err := org(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Organization().Team(ctx, o, req.Param("teamId"))
		}).Present(teams),

		route("PATCH", team, "Rename a team", func(ctx context.Context, req *Request, in *UpdateTeamBody) (*ent.Team, error) {
			return a.r.Mutation().UpdateTeam(ctx, req.Param("organizationId"), req.Param("teamId"), model.UpdateTeamInput{Title: in.Title})
		}).Present(teams),

		route("DELETE", team, "Delete a team", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			return a.r.Mutation().DeleteTeam(ctx, req.Param("organizationId"), req.Param("teamId"))
		}).Present(deleted),

		route("GET", team+"/members", "List a team's members", func(ctx context.Context, req *Request, in *ListParams) (*ListPage[*graph.TeamMembership], error) {
			o, err := org(ctx, req)
			if err != nil {
				return nil, err
			}
			t, err := a.r.Organization().Team(ctx, o, req.Param("teamId"))
			if err != nil {
				return nil, err
			}
			conn, err := a.r.TeamMemberListOf(ctx, t, in.First(), in.After(), graph.EveryMemberPart)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(a.teamMembers().List()),

		route("PUT", team+"/members", "Add, remove and change the members of a team", func(ctx context.Context, req *Request, in *UpdateTeamMembersBody) (struct{}, error) {
			var ms []*model.TeamMemberRoleInput
			for user, m := range in.Memberships {
				ms = append(ms, &model.TeamMemberRoleInput{User: user, Role: m.Role})
			}
			_, err := a.r.Mutation().UpdateTeamMembers(ctx, req.Param("organizationId"), req.Param("teamId"), model.UpdateTeamMembersInput{
				Add: graphql.OmittableOf(in.Add), Remove: graphql.OmittableOf(in.Remove), Memberships: graphql.OmittableOf(ms),
			})
			return struct{}{}, err
		}).Present(nothing[struct{}]()).NoContent(),

		route("PUT", team+"/members/{userId}", "Add a member to a team", func(ctx context.Context, req *Request, in *AddTeamMemberBody) (struct{}, error) {
			_, err := a.r.Mutation().AddTeamMember(ctx, req.Param("organizationId"), req.Param("teamId"), req.Param("userId"), in.Role.Ptr())
			return struct{}{}, err
		}).Present(nothing[struct{}]()).NoContent().OptionalBody(),

		route("DELETE", team+"/members/{userId}", "Remove a member from a team", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			return a.r.Mutation().RemoveTeamMember(ctx, req.Param("organizationId"), req.Param("teamId"), req.Param("userId"))
		}).Present(deleted),
	}
}
