package rest

import (
	"context"
	"fmt"

	"github.com/99designs/gqlgen/graphql"

	"quire/ent"
	"quire/graph"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/nonempty"
	"quire/internal/types"
)

// sitePath is the path of a docs site.
const sitePath = "/orgs/{organizationId}/sites/{siteId}"

func (a *API) siteRoutes() []Route {
	const s = sitePath
	sites, links := a.sites(), a.shareLinks()
	return []Route{
		route("GET", "/orgs/{organizationId}/sites", "List an organization's docs sites", func(ctx context.Context, req *Request, in *SiteListParams) (*ListPage[*ent.Site], error) {
			var typ []model.SiteType
			for _, t := range in.Type {
				typ = append(typ, model.SiteType(gqlSpelling(t)))
			}
			o, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Organization().Sites(ctx, o, in.First(), in.After(), nil, nil, nonempty.String(in.Space), nonempty.String(in.Title), in.Published, typ)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(sites.List()),

		route("POST", "/orgs/{organizationId}/sites", "Create a docs site", func(ctx context.Context, req *Request, in *CreateSiteBody) (*ent.Site, error) {
			cin := model.CreateSiteInput{
				Organization: req.Param("organizationId"), Type: gqlEnum[model.SiteType](in.Type),
				Title: in.Title.Omittable(), Visibility: gqlEnum[model.SiteVisibility](in.Visibility),
			}
			if in.Spaces != nil {
				cin.Spaces = graphql.OmittableOf(in.Spaces)
			}
			return a.r.Mutation().CreateSite(ctx, cin)
		}).Present(sites).Created().OptionalBody(),

		route("GET", s, "Get a docs site", func(ctx context.Context, req *Request, in *ShareKeyParams) (*ent.Site, error) {
			// Its count of site spaces and its URLs read the structure.
			return a.siteWith(ctx, req, graph.SiteWant{Structure: true, ShareLinks: in.sharedKey() != nil})
		}).Present(sites),

		route("PATCH", s, "Update a docs site", func(ctx context.Context, req *Request, in *UpdateSiteBody) (*ent.Site, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			up := model.UpdateSiteInput{
				Title: in.Title.Omittable(), Visibility: gqlEnum[model.SiteVisibility](in.Visibility), Basename: in.Basename.Omittable(),
				AgentsContext: gqlEnum[model.SiteAgentsContext](in.AgentsContext), DefaultSiteSpace: in.DefaultSiteSpace.Omittable(),
				DefaultSiteSection: in.DefaultSiteSection.Omittable(), Proxy: in.Proxy.Omittable(), Hostname: in.Hostname.Omittable(),
			}
			if ac, ok := in.AdaptiveContent.Get(); ok {
				up.AdaptiveContent = graphql.OmittableOf(&model.SiteAdaptiveContentInput{Enabled: ac.Enabled})
			}
			return a.r.Mutation().UpdateSite(ctx, st.ID, up)
		}).Present(sites),

		route("DELETE", s, "Delete a docs site", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			return a.deleteInSite(ctx, req, func(st *ent.Site) (*model.DeletePayload, error) { return a.r.Mutation().DeleteSite(ctx, st.ID) })
		}).Present(deleted),

		route("POST", s+"/publish", "Publish a docs site", func(ctx context.Context, req *Request, _ *NoInput) (*ent.Site, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().PublishSite(ctx, st.ID)
		}).Present(sites),

		route("POST", s+"/unpublish", "Unpublish a docs site", func(ctx context.Context, req *Request, _ *NoInput) (*ent.Site, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().UnpublishSite(ctx, st.ID)
		}).Present(sites),

		route("GET", s+"/published", "Get the published profile of a docs site", func(ctx context.Context, req *Request, in *ShareKeyParams) (*model.PublishedContentSite, error) {
			key := in.sharedKey()
			st, err := a.siteWith(ctx, req, graph.SiteWant{Structure: true, Spaces: true, Collections: true, ShareLinks: key != nil})
			if err != nil {
				return nil, err
			}
			return a.r.Site().PublishedContent(ctx, st, key)
		}).Present(a.publishedProfiles()),

		route("GET", s+"/share-links", "List a docs site's share links", func(ctx context.Context, req *Request, in *ListParams) (*ListPage[*ent.SiteShareLink], error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Site().ShareLinks(ctx, st, in.First(), in.After(), nil, nil)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(links.List()),

		route("POST", s+"/share-links", "Create a share link", func(ctx context.Context, req *Request, in *CreateShareLinkBody) (*ent.SiteShareLink, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			l, err := a.r.Mutation().CreateSiteShareLink(ctx, st.ID, in.Name)
			if err == nil {
				req.SetLocation(a.r.SiteChildURL(st, "share-links", l.ID))
			}
			return l, err
		}).Present(links).Created(),

		route("PATCH", s+"/share-links/{shareLinkId}", "Update a share link", func(ctx context.Context, req *Request, in *UpdateShareLinkBody) (*ent.SiteShareLink, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().UpdateSiteShareLink(ctx, st.ID, req.Param("shareLinkId"), model.UpdateSiteShareLinkInput{
				Name: in.Name.Omittable(), Active: in.Active.Omittable(),
			})
		}).Present(links),

		route("DELETE", s+"/share-links/{shareLinkId}", "Delete a share link", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			return a.deleteInSite(ctx, req, func(st *ent.Site) (*model.DeletePayload, error) {
				return a.r.Mutation().DeleteSiteShareLink(ctx, st.ID, req.Param("shareLinkId"))
			})
		}).Present(deleted),
	}
}

// site resolves the path's site, 404 when it is not in the path's
// organization.
func (a *API) site(ctx context.Context, req *Request) (*ent.Site, error) {
	return a.siteWith(ctx, req, graph.SiteWant{})
}

// siteWith resolves the path's site as site does, reading at the same time
// what want names of its aggregate: what the route presents.
func (a *API) siteWith(ctx context.Context, req *Request, want graph.SiteWant) (*ent.Site, error) {
	if _, err := a.r.Query().Organization(ctx, req.Param("organizationId")); err != nil {
		return nil, err
	}
	return a.r.ViewSite(ctx, req.Param("organizationId"), req.Param("siteId"), want)
}

// deleteInSite deletes something of the path's site: nothing was deleted
// when the caller cannot see the site.
func (a *API) deleteInSite(ctx context.Context, req *Request, del func(*ent.Site) (*model.DeletePayload, error)) (*model.DeletePayload, error) {
	st, err := a.site(ctx, req)
	if apierr.CodeOf(err) == apierr.NotFound {
		return &model.DeletePayload{Deleted: false}, nil
	}
	if err != nil {
		return nil, err
	}
	return del(st)
}

// nodeAs narrows a structure item to the type a route documents.
func nodeAs[T types.Node](n types.Node, err error) (T, error) {
	var zero T
	if err != nil {
		return zero, err
	}
	v, ok := n.(T)
	if !ok {
		return zero, fmt.Errorf("unexpected structure item %T", n)
	}
	return v, nil
}
