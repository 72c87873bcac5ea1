package rest

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/apierr"
)

func (a *API) table() []Route {
	var t []Route
	for _, part := range [][]Route{a.coreRoutes(), a.siteRoutes(), a.structureRoutes(), a.customizationRoutes(), a.changeRequestRoutes(), a.contentRoutes(),
		a.gitRoutes(), a.conversationRoutes(), a.translationRoutes(),
		a.commentRoutes(), a.reviewRoutes(),
		a.orgAdminRoutes(), a.memberRoutes(), a.permissionRoutes(), a.ssoRoutes(),
		a.searchRoutes(), a.openAPIRoutes()} {
		t = append(t, part...)
	}
	return t
}

func (a *API) coreRoutes() []Route {
	users, orgs, collections, spaces := a.users(), a.orgs(), a.collections(), a.spaces()
	return []Route{
		route("GET", "/openapi.json", "This API's OpenAPI 3.1 document (no token needed)", func(ctx context.Context, req *Request, _ *NoInput) (map[string]any, error) {
			a.docOnce.Do(func() { a.doc = a.OpenAPI(a.r.PublicURL) })
			return a.doc, nil
		}).Present(asIs[map[string]any]()),

		route("GET", "/user", "Get the authenticated user", func(ctx context.Context, req *Request, _ *NoInput) (*ent.User, error) {
			return a.r.Query().Viewer(ctx)
		}).Present(users),

		route("GET", "/users/{userId}", "Get a user: the caller, or someone who shares an organization with the caller", func(ctx context.Context, req *Request, _ *NoInput) (*ent.User, error) {
			n, err := a.r.Query().Node(ctx, req.Param("userId"))
			if err != nil {
				return nil, err
			}
			u, ok := n.(*ent.User)
			if !ok {
				return nil, apierr.NotFoundf("User %q not found", req.Param("userId"))
			}
			return u, nil
		}).Present(users),

		route("GET", "/orgs", "List the caller's organizations", func(ctx context.Context, req *Request, in *ListParams) (*ListPage[*ent.Organization], error) {
			conn, err := a.r.Query().Organizations(ctx, in.First(), in.After(), nil, nil)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(orgs.List()),

		route("GET", "/orgs/{organizationId}", "Get an organization", func(ctx context.Context, req *Request, _ *NoInput) (*ent.Organization, error) {
			return a.r.Query().Organization(ctx, req.Param("organizationId"))
		}).Present(orgs),

		route("GET", "/orgs/{organizationId}/collections", "List an organization's collections", func(ctx context.Context, req *Request, in *OrgCollectionsParams) (*ListPage[*ent.Collection], error) {
			o, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Organization().Collections(ctx, o, in.First(), in.After(), nil, nil, in.Nested)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(collections.List()),

		route("POST", "/orgs/{organizationId}/collections", "Create a collection", func(ctx context.Context, req *Request, in *CreateCollectionBody) (*ent.Collection, error) {
			return a.r.Mutation().CreateCollection(ctx, model.CreateCollectionInput{
				Organization: req.Param("organizationId"), Title: in.Title.Omittable(), Parent: in.Parent.Omittable(),
			})
		}).Present(collections).Created().OptionalBody(),

		route("GET", "/orgs/{organizationId}/spaces", "List an organization's spaces", func(ctx context.Context, req *Request, in *ListParams) (*ListPage[*ent.Space], error) {
			o, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Organization().Spaces(ctx, o, in.First(), in.After(), nil, nil)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(spaces.List()),

		route("POST", "/orgs/{organizationId}/spaces", "Create a space", func(ctx context.Context, req *Request, in *CreateSpaceBody) (*ent.Space, error) {
			if in.Template.IsSet() || in.ComputedSource.IsSet() {
				return nil, apierr.Invalid("template", "Creating a space from a template or computed source is not supported yet; create it empty")
			}
			return a.r.Mutation().CreateSpace(ctx, model.CreateSpaceInput{
				Organization: req.Param("organizationId"), Title: in.Title.Omittable(), Emoji: in.Emoji.Omittable(),
				Parent: in.Parent.Omittable(), Language: in.Language.Omittable(), EditMode: in.EditMode.Omittable(),
			})
		}).Present(spaces).Created().OptionalBody(),

		route("GET", "/collections/{collectionId}", "Get a collection", func(ctx context.Context, req *Request, _ *NoInput) (*ent.Collection, error) {
			return a.r.Query().Collection(ctx, req.Param("collectionId"))
		}).Present(collections),

		route("PATCH", "/collections/{collectionId}", "Update a collection", func(ctx context.Context, req *Request, in *UpdateCollectionBody) (*ent.Collection, error) {
			return a.r.Mutation().UpdateCollection(ctx, req.Param("collectionId"), model.UpdateCollectionInput{
				Title: in.Title.Omittable(), Description: in.Description.Omittable(), DefaultLevel: in.DefaultLevel.Omittable(),
			})
		}).Present(collections),

		route("DELETE", "/collections/{collectionId}", "Delete a collection", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			return a.r.Mutation().DeleteCollection(ctx, req.Param("collectionId"))
		}).Present(deleted),

		route("GET", "/collections/{collectionId}/spaces", "List the spaces of a collection", func(ctx context.Context, req *Request, in *ListParams) (*ListPage[*ent.Space], error) {
			c, err := a.r.Query().Collection(ctx, req.Param("collectionId"))
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Collection().Spaces(ctx, c, in.First(), in.After(), nil, nil)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(spaces.List()),

		route("POST", "/collections/{collectionId}/move", "Move a collection", func(ctx context.Context, req *Request, in *MoveBody) (*ent.Collection, error) {
			return a.r.Mutation().MoveCollection(ctx, req.Param("collectionId"), in.input())
		}).Present(collections).Errors(409),

		route("POST", "/collections/{collectionId}/transfer", "Transfer a collection to another organization", func(ctx context.Context, req *Request, in *TransferBody) (*ent.Collection, error) {
			return a.r.Mutation().TransferCollection(ctx, req.Param("collectionId"), in.Organization)
		}).Present(collections).Errors(409, 412),

		route("GET", "/spaces/{spaceId}", "Get a space", func(ctx context.Context, req *Request, in *ShareKeyParams) (*ent.Space, error) {
			return a.r.Query().Space(ctx, req.Param("spaceId"), in.sharedKey())
		}).Present(spaces),

		route("PATCH", "/spaces/{spaceId}", "Update a space", func(ctx context.Context, req *Request, in *UpdateSpaceBody) (*ent.Space, error) {
			return a.r.Mutation().UpdateSpace(ctx, req.Param("spaceId"), model.UpdateSpaceInput{
				Title: in.Title.Omittable(), Emoji: in.Emoji.Omittable(), Icon: in.Icon.Omittable(),
				EditMode: in.EditMode.Omittable(), DefaultLevel: in.DefaultLevel.Omittable(),
				Language: in.Language.Omittable(), MergeRules: in.mergeRules(),
			})
		}).Present(spaces),

		route("DELETE", "/spaces/{spaceId}", "Delete a space", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			return a.r.Mutation().DeleteSpace(ctx, req.Param("spaceId"))
		}).Present(deleted),

		route("POST", "/spaces/{spaceId}/duplicate", "Duplicate a space", func(ctx context.Context, req *Request, _ *NoInput) (*ent.Space, error) {
			return a.r.Mutation().DuplicateSpace(ctx, req.Param("spaceId"))
		}).Present(spaces).Created(),

		route("POST", "/spaces/{spaceId}/restore", "Restore a deleted space", func(ctx context.Context, req *Request, _ *NoInput) (*ent.Space, error) {
			return a.r.Mutation().RestoreSpace(ctx, req.Param("spaceId"))
		}).Present(spaces),

		route("POST", "/spaces/{spaceId}/move", "Move a space", func(ctx context.Context, req *Request, in *MoveBody) (*ent.Space, error) {
			return a.r.Mutation().MoveSpace(ctx, req.Param("spaceId"), in.input())
		}).Present(spaces).Errors(409),

		route("POST", "/spaces/{spaceId}/transfer", "Transfer a space to another organization", func(ctx context.Context, req *Request, in *TransferBody) (*ent.Space, error) {
			return a.r.Mutation().TransferSpace(ctx, req.Param("spaceId"), in.Organization)
		}).Present(spaces).Errors(409, 412),
	}
}

// input is the move as the resolvers take it.
func (b *MoveBody) input() model.MoveInput {
	in := model.MoveInput{Parent: b.Parent.Omittable()}
	if b.Position == nil {
		return in
	}
	pos := &model.ContentPositionInput{}
	for _, p := range []struct {
		ptr *ContentPointerBody
		dst *graphql.Omittable[*model.ContentPointerInput]
	}{{b.Position.Before, &pos.Before}, {b.Position.After, &pos.After}} {
		if p.ptr != nil {
			*p.dst = graphql.OmittableOf(&model.ContentPointerInput{
				Type: model.ContentPointerType(p.ptr.Type), Space: graphql.OmittableOf(p.ptr.Space), Collection: graphql.OmittableOf(p.ptr.Collection),
			})
		}
	}
	in.Position = graphql.OmittableOf(pos)
	return in
}

// mergeRules is the merge rules patch as the resolvers take it.
func (b *UpdateSpaceBody) mergeRules() graphql.Omittable[*model.MergeRulesInput] {
	mr, ok := b.MergeRules.Get()
	if !ok {
		return graphql.Omittable[*model.MergeRulesInput]{}
	}
	m := &model.MergeRulesInput{Type: mr.Type}
	var rules []*model.MergeRuleInput
	for _, r := range mr.Rules {
		rules = append(rules, &model.MergeRuleInput{Rule: r.Rule, Users: graphql.OmittableOf(r.Users), Expression: graphql.OmittableOf(r.Expression)})
	}
	m.Rules = graphql.OmittableOf(rules)
	return graphql.OmittableOf(m)
}
