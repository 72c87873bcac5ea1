package graph

import (
	"context"
	"encoding/json"
	"quire/graph/connections"
	"quire/graph/want"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"quire/ent"
	"quire/graph/gqlguard"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/customization"
	"quire/internal/loaders"
	"quire/internal/sites"
	"quire/internal/types"
)

// restEnum turns a GraphQL enum value into its REST spelling.
func restEnum[T ~string](v T) string { return strings.ReplaceAll(string(v), "_", "-") }

// gqlEnum turns a REST value into a GraphQL enum value.
func gqlEnum[T ~string](v string) T { return T(strings.ReplaceAll(v, "-", "_")) }

// siteOf resolves a site id to the site and its organization, for
// mutations that name only the site.
func (r *Resolver) siteOf(ctx context.Context, id string) (*ent.Site, error) {
	return r.Sites.SiteByID(ctx, id)
}

func siteConnection(items []*ent.Site, args catalog.PageArgs) (*model.SiteConnection, error) {
	return connections.Paginate[model.SiteConnection](items, siteCursor, args)
}

// The parts of a site's structure, and its share links, come in the
// order the site keeps them: their cursors are their places in that list.

func sectionConnection(items []*ent.SiteSection, args catalog.PageArgs) (*model.SiteSectionConnection, error) {
	return connections.Paginate[model.SiteSectionConnection](items, connections.IndexCursor(items), args)
}

func groupConnection(items []*ent.SiteSectionGroup, args catalog.PageArgs) (*model.SiteSectionGroupConnection, error) {
	return connections.Paginate[model.SiteSectionGroupConnection](items, connections.IndexCursor(items), args)
}

func siteSpaceConnection(items []*ent.SiteSpace, args catalog.PageArgs) (*model.SiteSpaceConnection, error) {
	return connections.Paginate[model.SiteSpaceConnection](items, connections.IndexCursor(items), args)
}

func itemConnection(items []types.Node, args catalog.PageArgs) (*model.SiteStructureItemConnection, error) {
	return connections.Paginate[model.SiteStructureItemConnection](items, connections.IndexCursor(items), args)
}

func shareLinkConnection(items []*ent.SiteShareLink, args catalog.PageArgs) (*model.SiteShareLinkConnection, error) {
	return connections.Paginate[model.SiteShareLinkConnection](items, connections.IndexCursor(items), args)
}

// StructureItems turns a tree level into GraphQL union members.
func StructureItems(items []sites.Item) []types.Node {
	out := make([]types.Node, 0, len(items))
	for _, it := range items {
		switch {
		case it.Section != nil:
			out = append(out, it.Section)
		case it.Group != nil:
			out = append(out, it.Group)
		case it.SiteSpace != nil:
			out = append(out, it.SiteSpace)
		}
	}
	return out
}

// tree loads the structure of the site an object belongs to.
func (r *Resolver) tree(ctx context.Context, siteID string) (*sites.Tree, error) {
	st, err := loaders.For(ctx).Sites.SiteByID.Load(ctx, siteID)()
	if err != nil {
		return nil, err
	}
	return sites.LoadTree(ctx, st)
}

// publishedURL returns the published URL of a site object, if any.
func (r *Resolver) publishedURL(ctx context.Context, siteID, id string, shareKey *string) (*string, error) {
	t, err := r.tree(ctx, siteID)
	if err != nil {
		return nil, err
	}
	key, err := r.Sites.ResolveShareKey(ctx, t.Site, shareKey)
	if err != nil {
		return nil, err
	}
	if u, ok := r.Sites.URLs(ctx, t, key)[id]; ok {
		return &u, nil
	}
	return nil, nil
}

func settingsJSON(s customization.Settings, err error) (types.JSON, error) {
	if err != nil {
		return nil, err
	}
	b, err := customization.Marshal(s)
	if err != nil {
		return nil, err
	}
	return types.JSON(b), nil
}

func siteStructure(t *sites.Tree) *model.SiteStructure {
	typ := "siteSpaces"
	if t.HasSections() {
		typ = "sections"
	}
	return &model.SiteStructure{Type: typ, Structure: StructureItems(t.Root)}
}

func sortPointer(p *model.SiteStructureItemPointer) *sites.Pointer {
	if p == nil {
		return nil
	}
	return &sites.Pointer{Type: restEnum(p.Type), ID: p.ID}
}

// rawJSON returns the bytes of a JSON argument, refusing null.
func rawJSON(ctx context.Context, field string, v types.JSON) ([]byte, error) {
	if len(v) == 0 || string(v) == "null" {
		return nil, apierr.Invalid(field, "%s is required", field)
	}
	return json.RawMessage(gqlguard.Ordered(ctx, v)), nil
}

// requiredOpt reads an omittable input whose null is not allowed,
// collecting the first validation error.
func requiredOpt[T any](o graphql.Omittable[*T], field string, errs []error) (catalog.Opt[T], []error) {
	v, err := required(o, field)
	if err != nil {
		return v, append(errs, err)
	}
	return v, errs
}

// siteFeatures presents the features of a site's plan.
func siteFeatures(st *ent.Site) []*model.SiteFeature {
	plan := gqlEnum[model.SiteType](st.Type)
	keys := sites.FeatureKeys(st.Type)
	out := make([]*model.SiteFeature, len(keys))
	for i, k := range keys {
		out[i] = &model.SiteFeature{ID: k, Plan: plan, Frozen: false, Customizations: []string{}}
	}
	return out
}

func publishedContent(p *sites.Profile) (*model.PublishedContentSite, error) {
	return &model.PublishedContentSite{
		Object:         "published-content-site",
		Site:           p.Site,
		Structure:      siteStructure(p.Tree),
		Customizations: &model.PublishedCustomizations{Site: types.JSON(p.CustomizationJSON), SiteSpaces: types.JSON(p.SiteSpacesJSON)},
		Scripts:        []*model.SiteScript{},
	}, nil
}

// SiteWant names the parts of a docs site's aggregate a read wants; REST
// passes it literally.
type SiteWant = sites.Want

// ViewSite returns a site of an organization with what want names of its
// aggregate read at the same time (see sites.Service.View), for the REST
// door, which says literally what it presents.
// Errors: NotFound.
func (r *Resolver) ViewSite(ctx context.Context, orgID, siteID string, want SiteWant) (*ent.Site, error) {
	return r.Sites.ViewIn(ctx, orgID, siteID, want)
}

// ViewSites reads what want names of the aggregates of sites the caller
// was given (by id: a page of sites, or the sites of a page of sections),
// all at once.
func (r *Resolver) ViewSites(ctx context.Context, siteIDs []string, want SiteWant) error {
	list := make([]*ent.Site, 0, len(siteIDs))
	seen := map[string]bool{}
	for _, id := range siteIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		st, err := loaders.For(ctx).Sites.SiteByID.Load(ctx, id)()
		if err != nil {
			return err
		}
		list = append(list, st)
	}
	return r.Sites.ViewSites(ctx, list, want)
}

// spaceOfSiteSpace returns the space of a site space; the site's engine
// reads, once per site and request, the spaces of all its site spaces and
// what the query asks of them.
func (r *Resolver) spaceOfSiteSpace(ctx context.Context, ss *ent.SiteSpace) (*ent.Space, error) {
	return r.Sites.SpaceOfSiteSpace(ctx, ss, want.SiteSpaceSpace(ctx))
}

// SiteChildURL is the API location of an object below a site.
func (r *Resolver) SiteChildURL(st *ent.Site, kind, id string) string {
	return r.apiURL("orgs", st.OrganizationID, "sites", st.ID, kind, id)
}

// SiteSpaceOf returns a site space of a site.
func (r *Resolver) SiteSpaceOf(ctx context.Context, st *ent.Site, id string) (*ent.SiteSpace, error) {
	return r.Sites.SiteSpace(ctx, st.OrganizationID, st.ID, id)
}
