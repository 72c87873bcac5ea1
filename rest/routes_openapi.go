package rest

import (
	"context"
	"net/http"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/apierr"
)

// specPath is the path of an organization's OpenAPI specification.
const specPath = "/orgs/{organizationId}/openapi/{specSlug}"

func (a *API) openAPIRoutes() []Route {
	const s = specPath
	specs, versions := a.openAPISpecs(), a.openAPIVersions()
	return []Route{
		route("GET", "/orgs/{organizationId}/openapi", "List an organization's OpenAPI specifications", func(ctx context.Context, req *Request, in *ListParams) (*ListPage[*ent.OpenAPISpec], error) {
			o, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Organization().OpenAPISpecs(ctx, o, in.First(), in.After(), nil, nil)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(specs.List()),

		route("POST", "/orgs/{organizationId}/openapi", "Create an OpenAPI specification, from a URL or from text, and start processing it", func(ctx context.Context, req *Request, in *CreateOpenAPISpecBody) (*ent.OpenAPISpec, error) {
			return a.r.Mutation().CreateOpenAPISpec(ctx, model.CreateOpenAPISpecInput{
				Organization: req.Param("organizationId"), Slug: in.Slug, Source: in.Source.input(),
			})
		}).Present(specs).Created(),

		route("GET", s, "Get an OpenAPI specification by its slug", func(ctx context.Context, req *Request, _ *NoInput) (*ent.OpenAPISpec, error) {
			return a.spec(ctx, req)
		}).Present(specs),

		route("PUT", s, "Set the source of an OpenAPI specification (201 when this creates it, 200 when it existed) and process it again", func(ctx context.Context, req *Request, in *PutOpenAPISpecBody) (*putSpec, error) {
			p, err := a.r.Mutation().CreateOrUpdateOpenAPISpec(ctx, model.CreateOrUpdateOpenAPISpecInput{
				Organization: req.Param("organizationId"), Slug: req.Param("specSlug"), Source: in.Source.input(),
			})
			if err != nil {
				return nil, err
			}
			return &putSpec{spec: p.Spec, created: p.Created}, nil
		}).Present(putSpecs{specs}).AlsoAnswers(http.StatusCreated),

		route("PATCH", s, "Change an OpenAPI specification's visibility", func(ctx context.Context, req *Request, in *UpdateOpenAPISpecBody) (*ent.OpenAPISpec, error) {
			sp, err := a.spec(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().UpdateOpenAPISpec(ctx, sp.ID, model.UpdateOpenAPISpecInput{Visibility: model.OpenAPISpecVisibility(in.Visibility)})
		}).Present(specs),

		route("DELETE", s, "Delete an OpenAPI specification with its versions", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			sp, err := a.spec(ctx, req)
			if apierr.CodeOf(err) == apierr.NotFound {
				return &model.DeletePayload{Deleted: false}, nil
			}
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().DeleteOpenAPISpec(ctx, sp.ID)
		}).Present(deleted),

		route("GET", s+"/versions", "List the versions of an OpenAPI specification, newest first", func(ctx context.Context, req *Request, in *ListParams) (*ListPage[*specVersion], error) {
			sp, err := a.spec(ctx, req)
			if err != nil {
				return nil, err
			}
			conn, err := a.r.OpenAPISpec().Versions(ctx, sp, in.First(), in.After(), nil, nil)
			if err != nil {
				return nil, err
			}
			items := make([]*specVersion, len(conn.Nodes))
			for i, v := range conn.Nodes {
				items[i] = &specVersion{spec: sp, v: v}
			}
			return pageOf(items, conn.TotalCount, conn.PageInfo), nil
		}).Present(versions.List()),

		route("GET", s+"/versions/latest", "Get the latest version of an OpenAPI specification", func(ctx context.Context, req *Request, _ *NoInput) (*specVersion, error) {
			return a.latestVersion(ctx, req)
		}).Present(versions),

		route("GET", s+"/versions/latest/content", "Get the files of the latest version of an OpenAPI specification", func(ctx context.Context, req *Request, _ *NoInput) (*specVersion, error) {
			return a.latestVersion(ctx, req)
		}).Present(a.openAPIContents()),

		route("GET", s+"/versions/{versionId}", "Get a version of an OpenAPI specification", func(ctx context.Context, req *Request, _ *NoInput) (*specVersion, error) {
			return a.specVersion(ctx, req)
		}).Present(versions),

		route("GET", s+"/versions/{versionId}/content", "Get the files of a version of an OpenAPI specification", func(ctx context.Context, req *Request, _ *NoInput) (*specVersion, error) {
			return a.specVersion(ctx, req)
		}).Present(a.openAPIContents()),
	}
}

// spec resolves the path's specification.
func (a *API) spec(ctx context.Context, req *Request) (*ent.OpenAPISpec, error) {
	return a.r.Query().OpenAPISpec(ctx, req.Param("organizationId"), req.Param("specSlug"))
}

// specVersion is a version with its specification, which its URLs need.
type specVersion struct {
	spec *ent.OpenAPISpec
	v    *ent.OpenAPISpecVersion
}

func (a *API) latestVersion(ctx context.Context, req *Request) (*specVersion, error) {
	sp, err := a.spec(ctx, req)
	if err != nil {
		return nil, err
	}
	v, err := a.r.OpenAPISpec().LastVersion(ctx, sp)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, apierr.NotFoundf("No matching OpenAPI specification version found: %q has none yet (its processing is %s)", sp.Slug, sp.ProcessingState)
	}
	return &specVersion{spec: sp, v: v}, nil
}

func (a *API) specVersion(ctx context.Context, req *Request) (*specVersion, error) {
	sp, err := a.spec(ctx, req)
	if err != nil {
		return nil, err
	}
	v, err := a.r.OpenAPISpec().Version(ctx, sp, req.Param("versionId"))
	if err != nil {
		return nil, err
	}
	return &specVersion{spec: sp, v: v}, nil
}
