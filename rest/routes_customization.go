package rest

import (
	"context"

	"quire/ent"
	"quire/graph"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/types"
)

// The settings of a docs site: customization (with per-site-space
// overrides) and the visitor attributes schema.

func (a *API) customizationRoutes() []Route {
	const s = sitePath
	settings, schemas := rawAs[graph.CustomizationSettings](), a.adaptiveSchemas()
	return []Route{
		route("GET", s+"/site-spaces/{siteSpaceId}/customization", "Get a site space's customization", func(ctx context.Context, req *Request, _ *NoInput) (types.JSON, error) {
			_, ss, err := a.siteSpaceOf(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.SiteSpace().Customization(ctx, ss)
		}).Present(settings),

		route("PATCH", s+"/site-spaces/{siteSpaceId}/customization", "Override a site space's customization", func(ctx context.Context, req *Request, in *CustomizationBody) (types.JSON, error) {
			st, ss, err := a.siteSpaceOf(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().OverrideSiteSpaceCustomization(ctx, st.ID, ss.ID, types.JSON(in.JSON))
		}).Present(settings),

		route("DELETE", s+"/site-spaces/{siteSpaceId}/customization", "Remove a site space's customization overrides", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			st, ss, err := a.siteSpaceOf(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().DeleteSiteSpaceCustomization(ctx, st.ID, ss.ID)
		}).Present(deleted),

		route("GET", s+"/customization", "Get a docs site's customization", func(ctx context.Context, req *Request, _ *NoInput) (types.JSON, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Site().Customization(ctx, st)
		}).Present(settings),

		route("PUT", s+"/customization", "Replace a docs site's customization", func(ctx context.Context, req *Request, in *CustomizationBody) (types.JSON, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().UpdateSiteCustomization(ctx, st.ID, types.JSON(in.JSON))
		}).Present(settings),

		route("GET", s+"/adaptive-schema", "Get a docs site's visitor attributes schema", func(ctx context.Context, req *Request, _ *NoInput) (*model.SiteAdaptiveSchema, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			sch, err := a.r.Site().AdaptiveSchema(ctx, st)
			if err == nil && sch == nil {
				err = apierr.NotFoundf("The site has no visitor attributes schema")
			}
			return sch, err
		}).Present(schemas),

		route("PUT", s+"/adaptive-schema", "Set a docs site's visitor attributes schema", func(ctx context.Context, req *Request, in *AdaptiveSchemaBody) (*model.SiteAdaptiveSchema, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().UpdateSiteAdaptiveSchema(ctx, st.ID, types.JSON(in.JSONSchema))
		}).Present(schemas),

		// Quire extensions: the key a visitor-auth site's backend signs its
		// readers' tokens with.
		route("GET", s+"/visitor-key", "Get a docs site's visitor key (Quire extension)", func(ctx context.Context, req *Request, _ *NoInput) (*model.SiteVisitorKey, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Query().SiteVisitorKey(ctx, st.ID)
		}).Present(visitorKeys()),

		route("POST", s+"/visitor-key", "Replace a docs site's visitor key (Quire extension)", func(ctx context.Context, req *Request, _ *NoInput) (*model.SiteVisitorKey, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().RotateSiteVisitorKey(ctx, st.ID)
		}).Present(visitorKeys()),

		route("GET", s+"/adaptive-schema/template-conditions", "List example conditions from the visitor attributes schema", func(ctx context.Context, req *Request, _ *NoInput) ([]*model.SiteTemplateCondition, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Site().TemplateConditions(ctx, st)
		}).Present(templateConditions),
	}
}

func (a *API) siteSpaceOf(ctx context.Context, req *Request) (*ent.Site, *ent.SiteSpace, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	ss, err := a.r.SiteSpaceOf(ctx, st, req.Param("siteSpaceId"))
	return st, ss, err
}
