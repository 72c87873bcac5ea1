package graph

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"quire/ent"
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
	p, err := catalog.Paginate(items, siteCursor, args)
	if err != nil {
		return nil, err
	}
	c := &model.SiteConnection{Nodes: p.Items, PageInfo: pageInfo(p), TotalCount: p.TotalCount, Edges: make([]*model.SiteEdge, len(p.Items))}
	for i, n := range p.Items {
		c.Edges[i] = &model.SiteEdge{Node: n, Cursor: p.Cursors[i]}
	}
	return c, nil
}

func sectionConnection(items []*ent.SiteSection, args catalog.PageArgs) (*model.SiteSectionConnection, error) {
	p, err := catalog.Paginate(items, indexCursor(items), args)
	if err != nil {
		return nil, err
	}
	c := &model.SiteSectionConnection{Nodes: p.Items, PageInfo: pageInfo(p), TotalCount: p.TotalCount, Edges: make([]*model.SiteSectionEdge, len(p.Items))}
	for i, n := range p.Items {
		c.Edges[i] = &model.SiteSectionEdge{Node: n, Cursor: p.Cursors[i]}
	}
	return c, nil
}

func groupConnection(items []*ent.SiteSectionGroup, args catalog.PageArgs) (*model.SiteSectionGroupConnection, error) {
	p, err := catalog.Paginate(items, indexCursor(items), args)
	if err != nil {
		return nil, err
	}
	c := &model.SiteSectionGroupConnection{Nodes: p.Items, PageInfo: pageInfo(p), TotalCount: p.TotalCount, Edges: make([]*model.SiteSectionGroupEdge, len(p.Items))}
	for i, n := range p.Items {
		c.Edges[i] = &model.SiteSectionGroupEdge{Node: n, Cursor: p.Cursors[i]}
	}
	return c, nil
}

func siteSpaceConnection(items []*ent.SiteSpace, args catalog.PageArgs) (*model.SiteSpaceConnection, error) {
	p, err := catalog.Paginate(items, indexCursor(items), args)
	if err != nil {
		return nil, err
	}
	c := &model.SiteSpaceConnection{Nodes: p.Items, PageInfo: pageInfo(p), TotalCount: p.TotalCount, Edges: make([]*model.SiteSpaceEdge, len(p.Items))}
	for i, n := range p.Items {
		c.Edges[i] = &model.SiteSpaceEdge{Node: n, Cursor: p.Cursors[i]}
	}
	return c, nil
}

func itemConnection(items []types.Node, args catalog.PageArgs) (*model.SiteStructureItemConnection, error) {
	p, err := catalog.Paginate(items, indexCursor(items), args)
	if err != nil {
		return nil, err
	}
	c := &model.SiteStructureItemConnection{Nodes: p.Items, PageInfo: pageInfo(p), TotalCount: p.TotalCount, Edges: make([]*model.SiteStructureItemEdge, len(p.Items))}
	for i, n := range p.Items {
		c.Edges[i] = &model.SiteStructureItemEdge{Node: n, Cursor: p.Cursors[i]}
	}
	return c, nil
}

func shareLinkConnection(items []*ent.SiteShareLink, args catalog.PageArgs) (*model.SiteShareLinkConnection, error) {
	p, err := catalog.Paginate(items, indexCursor(items), args)
	if err != nil {
		return nil, err
	}
	c := &model.SiteShareLinkConnection{Nodes: p.Items, PageInfo: pageInfo(p), TotalCount: p.TotalCount, Edges: make([]*model.SiteShareLinkEdge, len(p.Items))}
	for i, n := range p.Items {
		c.Edges[i] = &model.SiteShareLinkEdge{Node: n, Cursor: p.Cursors[i]}
	}
	return c, nil
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
	return json.RawMessage(ordered(ctx, v)), nil
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

// WarmSites loads, in one statement, the structure of every given site,
// so that presenting a list of sites waits on no batch per site.
func (r *Resolver) WarmSites(ctx context.Context, list []*ent.Site) {
	ids := make([]string, len(list))
	l := loaders.For(ctx).Sites
	for i, st := range list {
		ids[i] = st.ID
		l.SiteByID.Prime(ctx, st.ID, st)
	}
	l.FetchStructures(ctx, ids)
}

// WarmSpaces loads the spaces of site spaces, and the collections above
// them, in one batch per level.
func (r *Resolver) WarmSpaces(ctx context.Context, sss []*ent.SiteSpace) error {
	_, err := sites.LoadSpaces(ctx, sss)
	return err
}

// spaceOfSiteSpace returns the space of a site space. The first call for a
// site in a request loads, in one batch, the spaces of every site space of
// the site; the first call that asks for the spaces' organizations, or their
// permissions or parents, loads the organizations and the collections above
// the spaces, a statement per level, the two levels at the same time.
// Sibling site spaces, resolved concurrently, wait for these loads instead
// of each joining whichever batch window it happens to reach, which made the
// statements grow with the site. (The first caller may be another field of
// the site space, such as title, that selects none of the levels below.)
func (r *Resolver) spaceOfSiteSpace(ctx context.Context, ss *ent.SiteSpace) (*ent.Space, error) {
	l := loaders.For(ctx)
	orgs := !l.Sites.Warmed(ss.SiteID, "organizations") && selects(ctx, "organization")
	cols := !l.Sites.Warmed(ss.SiteID, "collections") && selects(ctx, "permissions", "parent")
	if err := warmSiteSpaces(ctx, ss.SiteID, orgs, cols); err != nil {
		return nil, err
	}
	return l.SpaceByID.Load(ctx, ss.SpaceID)()
}

// warmSiteSpaces loads, once per site and request, the spaces of every site
// space of a site and, when asked, their organizations and the collections
// above them (those two levels at the same time).
func warmSiteSpaces(ctx context.Context, siteID string, orgs, cols bool) error {
	l := loaders.For(ctx)
	siteSpaces := func() ([]*ent.SiteSpace, error) { return l.Sites.SiteSpacesBySite.Load(ctx, siteID)() }
	err := l.Sites.WarmOnce(siteID, "spaces", func() error {
		all, err := siteSpaces()
		if err != nil {
			return err
		}
		ids := make([]string, len(all))
		for i, x := range all {
			ids[i] = x.SpaceID
		}
		// Fetched now, from this goroutine: the siblings wait for it.
		l.SpaceByID.Fetch(ctx, ids) // errors show at each item's own load
		return nil
	})
	if err != nil {
		return err
	}
	var levels []func() error
	if orgs {
		levels = append(levels, func() error {
			return l.Sites.WarmOnce(siteID, "organizations", func() error {
				all, err := siteSpaces()
				if err != nil {
					return err
				}
				ids := make([]string, 0, 1)
				seen := map[string]bool{}
				for _, x := range all {
					sp, err := l.SpaceByID.Load(ctx, x.SpaceID)()
					if err == nil && !seen[sp.OrganizationID] {
						seen[sp.OrganizationID] = true
						ids = append(ids, sp.OrganizationID)
					}
				}
				l.OrganizationByID.Fetch(ctx, ids)
				return nil
			})
		})
	}
	if cols {
		levels = append(levels, func() error {
			return l.Sites.WarmOnce(siteID, "collections", func() error {
				all, err := siteSpaces()
				if err != nil {
					return err
				}
				_, err = sites.LoadSpaces(ctx, all)
				return err
			})
		})
	}
	return together(levels...)
}

// startSiteSpacesWarm starts loading, in the background, the spaces (and
// what is asked of them) of the site spaces the query reaches through the
// site field being resolved, so that the round trips overlap with writing
// the site and its sections; the site spaces' resolvers wait for what is
// still under way. It does nothing when the query reaches no space.
func startSiteSpacesWarm(ctx context.Context, siteID string) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !graphql.HasOperationContext(ctx) {
		return
	}
	spaces, orgs, cols := spaceSelections(graphql.GetOperationContext(ctx), fc.Field.Selections)
	if spaces {
		go warmSiteSpaces(ctx, siteID, orgs, cols) //nolint:errcheck // the resolvers report errors
	}
}

// selectsSiteSpaces reports whether the site field being resolved reaches
// the spaces of its site spaces, and the collections above them.
func selectsSiteSpaces(ctx context.Context) (spaces, cols bool) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !graphql.HasOperationContext(ctx) {
		return false, false
	}
	spaces, _, cols = spaceSelections(graphql.GetOperationContext(ctx), fc.Field.Selections)
	return spaces, cols
}

// spaceSelections reports whether a site's selection set reaches the spaces
// of its site spaces (through its sections or allSiteSpaces, as nodes or
// edges), and whether it asks for their organizations, and for their
// permissions or parents (both read the collections above the spaces).
func spaceSelections(oc *graphql.OperationContext, sel ast.SelectionSet) (spaces, orgs, cols bool) {
	var found []graphql.CollectedField
	for _, ss := range collect(oc, sel, "sections", "nodes|edges", "node?", "siteSpaces", "nodes|edges", "node?") {
		found = append(found, collect(oc, ss.Selections, "space")...)
	}
	for _, ss := range collect(oc, sel, "allSiteSpaces", "nodes|edges", "node?") {
		found = append(found, collect(oc, ss.Selections, "space")...)
	}
	for _, sp := range found {
		orgs = orgs || len(collect(oc, sp.Selections, "organization")) > 0
		cols = cols || len(collect(oc, sp.Selections, "permissions|parent")) > 0
	}
	return len(found) > 0, orgs, cols
}

// collect returns the fields reached from sel through the path of field
// names: "a|b" matches either name; "name?" matches that field, or, when
// there is none, stands for the level it is at (edges { node } or nodes).
func collect(oc *graphql.OperationContext, sel ast.SelectionSet, path ...string) []graphql.CollectedField {
	level := []graphql.CollectedField{{Selections: sel}}
	for _, step := range path {
		optional := strings.HasSuffix(step, "?")
		names := strings.Split(strings.TrimSuffix(step, "?"), "|")
		var next []graphql.CollectedField
		for _, f := range level {
			found := false
			for _, c := range graphql.CollectFields(oc, f.Selections, nil) {
				if slices.Contains(names, c.Name) {
					next = append(next, c)
					found = true
				}
			}
			if optional && !found {
				next = append(next, f)
			}
		}
		level = next
	}
	return level
}

// together runs the loads at the same time (the last one in this
// goroutine) and returns the first error, in the order given.
func together(loads ...func() error) error {
	if len(loads) == 0 {
		return nil
	}
	errs := make([]error, len(loads))
	var wg sync.WaitGroup
	for i, load := range loads[:len(loads)-1] {
		wg.Go(func() { errs[i] = load() })
	}
	errs[len(loads)-1] = loads[len(loads)-1]()
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// selects reports whether the GraphQL field being resolved asks for one of
// the named fields; outside GraphQL it is true. The answer is kept for the
// request by field of the query: sibling items of a list ask the same
// question of the same field.
func selects(ctx context.Context, names ...string) bool {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !graphql.HasOperationContext(ctx) {
		return true
	}
	type key struct {
		field *ast.Field
		names string
	}
	compute := func() bool {
		for _, f := range graphql.CollectFields(graphql.GetOperationContext(ctx), fc.Field.Selections, nil) {
			for _, n := range names {
				if f.Name == n {
					return true
				}
			}
		}
		return false
	}
	l := loaders.For(ctx)
	if l == nil || fc.Field.Field == nil {
		return compute()
	}
	return l.Remember(key{fc.Field.Field, strings.Join(names, ",")}, func() any { return compute() }).(bool)
}

// SiteChildURL is the API location of an object below a site.
func (r *Resolver) SiteChildURL(st *ent.Site, kind, id string) string {
	return r.apiURL("orgs", st.OrganizationID, "sites", st.ID, kind, id)
}

// SiteSpaceOf returns a site space of a site.
func (r *Resolver) SiteSpaceOf(ctx context.Context, st *ent.Site, id string) (*ent.SiteSpace, error) {
	return r.Sites.SiteSpace(ctx, st.OrganizationID, st.ID, id)
}

// SiteSpacesOfSite returns every site space of a site (empty on error; the
// callers only use it to warm caches).
func (r *Resolver) SiteSpacesOfSite(ctx context.Context, st *ent.Site) []*ent.SiteSpace {
	all, _ := loaders.For(ctx).Sites.SiteSpacesBySite.Load(ctx, st.ID)()
	return all
}

// selectsStructure reports whether the GraphQL site field being resolved
// asks for fields that read the whole structure of the site (r.tree).
func selectsStructure(ctx context.Context) bool {
	if graphql.GetFieldContext(ctx) == nil {
		return false
	}
	return selects(ctx, "sections", "allSiteSpaces", "structure", "defaultSiteSpace", "defaultSiteSection", "urls")
}
