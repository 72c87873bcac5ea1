package rest

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"quire/ent"
	"quire/graph"
	"quire/graph/model"
	"quire/internal/types"
)

// The routes of the permissions of spaces and collections: the same five
// operations on both, over /spaces/{spaceId}/permissions and
// /collections/{collectionId}/permissions.
func (a *API) permissionRoutes() []Route {
	var out []Route
	for _, k := range []struct {
		what, base, param string
		// The resolver methods of this kind of content.
		invite   func(ctx context.Context, id string, in model.InvitePermissionsInput) error
		update   func(ctx context.Context, id, principal, principalID string, in model.UpdatePermissionInput) error
		remove   func(ctx context.Context, id, principal, principalID string) (*model.DeletePayload, error)
		users    func(ctx context.Context, id string, p ListParams) (*model.UserPermissionConnection, error)
		teams    func(ctx context.Context, id string, p ListParams) (*model.TeamPermissionConnection, error)
		everyone func(ctx context.Context, id string, p ListParams, role *types.Role) (*model.UserPermissionConnection, error)
	}{
		{
			what: "space", base: "/spaces/{spaceId}/permissions", param: "spaceId",
			invite: func(ctx context.Context, id string, in model.InvitePermissionsInput) error {
				_, err := a.r.Mutation().InviteToSpace(ctx, id, in)
				return err
			},
			update: func(ctx context.Context, id, principal, pid string, in model.UpdatePermissionInput) error {
				var err error
				if principal == "user" {
					_, err = a.r.Mutation().UpdateUserPermissionInSpace(ctx, id, pid, in)
				} else {
					_, err = a.r.Mutation().UpdateTeamPermissionInSpace(ctx, id, pid, in)
				}
				return err
			},
			remove: func(ctx context.Context, id, principal, pid string) (*model.DeletePayload, error) {
				if principal == "user" {
					return a.r.Mutation().RemoveUserFromSpace(ctx, id, pid)
				}
				return a.r.Mutation().RemoveTeamFromSpace(ctx, id, pid)
			},
			users: func(ctx context.Context, id string, p ListParams) (*model.UserPermissionConnection, error) {
				sp, err := a.r.Query().Space(ctx, id, nil)
				if err != nil {
					return nil, err
				}
				return a.r.Space().UserPermissions(ctx, sp, p.First(), p.After(), nil, nil)
			},
			teams: func(ctx context.Context, id string, p ListParams) (*model.TeamPermissionConnection, error) {
				sp, err := a.r.Query().Space(ctx, id, nil)
				if err != nil {
					return nil, err
				}
				return a.r.Space().TeamPermissions(ctx, sp, p.First(), p.After(), nil, nil)
			},
			everyone: func(ctx context.Context, id string, p ListParams, role *types.Role) (*model.UserPermissionConnection, error) {
				sp, err := a.r.Query().Space(ctx, id, nil)
				if err != nil {
					return nil, err
				}
				return a.r.Space().PermissionsAggregate(ctx, sp, p.First(), p.After(), nil, nil, role)
			},
		},
		{
			what: "collection", base: "/collections/{collectionId}/permissions", param: "collectionId",
			invite: func(ctx context.Context, id string, in model.InvitePermissionsInput) error {
				_, err := a.r.Mutation().InviteToCollection(ctx, id, in)
				return err
			},
			update: func(ctx context.Context, id, principal, pid string, in model.UpdatePermissionInput) error {
				var err error
				if principal == "user" {
					_, err = a.r.Mutation().UpdateUserPermissionInCollection(ctx, id, pid, in)
				} else {
					_, err = a.r.Mutation().UpdateTeamPermissionInCollection(ctx, id, pid, in)
				}
				return err
			},
			remove: func(ctx context.Context, id, principal, pid string) (*model.DeletePayload, error) {
				if principal == "user" {
					return a.r.Mutation().RemoveUserFromCollection(ctx, id, pid)
				}
				return a.r.Mutation().RemoveTeamFromCollection(ctx, id, pid)
			},
			users: func(ctx context.Context, id string, p ListParams) (*model.UserPermissionConnection, error) {
				c, err := a.r.Query().Collection(ctx, id)
				if err != nil {
					return nil, err
				}
				return a.r.Collection().UserPermissions(ctx, c, p.First(), p.After(), nil, nil)
			},
			teams: func(ctx context.Context, id string, p ListParams) (*model.TeamPermissionConnection, error) {
				c, err := a.r.Query().Collection(ctx, id)
				if err != nil {
					return nil, err
				}
				return a.r.Collection().TeamPermissions(ctx, c, p.First(), p.After(), nil, nil)
			},
			everyone: func(ctx context.Context, id string, p ListParams, role *types.Role) (*model.UserPermissionConnection, error) {
				c, err := a.r.Query().Collection(ctx, id)
				if err != nil {
					return nil, err
				}
				return a.r.Collection().PermissionsAggregate(ctx, c, p.First(), p.After(), nil, nil, role)
			},
		},
	} {
		k := k
		out = append(out,
			route("POST", k.base, "Give users and teams a level on a "+k.what, func(ctx context.Context, req *Request, in *InvitePermissionsBody) (struct{}, error) {
				role := types.Role("")
				if in.Role != nil {
					role = *in.Role
				}
				return struct{}{}, k.invite(ctx, req.Param(k.param), model.InvitePermissionsInput{
					Role: role, Users: graphql.OmittableOf(in.Users), Teams: graphql.OmittableOf(in.Teams),
				})
			}).Present(nothing[struct{}]()).NoContent(),

			route("GET", k.base+"/users", "List the users given a level on a "+k.what, func(ctx context.Context, req *Request, in *ListParams) (*ListPage[*graph.UserReach], error) {
				conn, err := k.users(ctx, req.Param(k.param), *in)
				if err != nil {
					return nil, err
				}
				return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
			}).Present(a.userPermissions().List()),

			route("GET", k.base+"/teams", "List the teams given a level on a "+k.what, func(ctx context.Context, req *Request, in *ListParams) (*ListPage[*ent.ContentPermission], error) {
				conn, err := k.teams(ctx, req.Param(k.param), *in)
				if err != nil {
					return nil, err
				}
				return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
			}).Present(a.teamPermissions().List()),

			route("GET", k.base+"/aggregate", "List every member who reaches a "+k.what+", with their level", func(ctx context.Context, req *Request, in *AggregateParams) (*ListPage[*graph.UserReach], error) {
				var role *types.Role
				if in.Role != "" {
					r := types.Role(in.Role)
					role = &r
				}
				conn, err := k.everyone(ctx, req.Param(k.param), in.ListParams, role)
				if err != nil {
					return nil, err
				}
				return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
			}).Present(a.userPermissions().List()),
		)
		for _, p := range []struct{ kind, param string }{{"user", "userId"}, {"team", "teamId"}} {
			p := p
			out = append(out,
				route("PATCH", k.base+"/"+p.kind+"s/{"+p.param+"}", "Change the level of a "+p.kind+" on a "+k.what, func(ctx context.Context, req *Request, in *UpdatePermissionBody) (struct{}, error) {
					return struct{}{}, k.update(ctx, req.Param(k.param), p.kind, req.Param(p.param), model.UpdatePermissionInput{Role: in.Role.Omittable()})
				}).Present(nothing[struct{}]()).NoContent(),

				route("DELETE", k.base+"/"+p.kind+"s/{"+p.param+"}", "Remove the level of a "+p.kind+" on a "+k.what, func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
					return k.remove(ctx, req.Param(k.param), p.kind, req.Param(p.param))
				}).Present(deleted),
			)
		}
	}
	return out
}
