package graph

import (
	"context"
	"fmt"

	"quire/ent"
	"quire/internal/authz"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/customization"
	"quire/internal/document"
	"quire/internal/loaders"
	"quire/internal/pagination"
)

// The REST door reaches the engines only through this package: the names
// below are what its presenters need of the types the resolver methods
// return, so that rest/ imports no engine.

type (
	// Revision is an immutable snapshot of a space's content.
	Revision = content.Revision
	// ContentPage is a page of a revision, with its child pages.
	ContentPage = content.Page
	// ContentFile is a file of a revision.
	ContentFile = content.File
	// ContentLink is a link or content reference found in a page.
	ContentLink = content.Link
	// OrganizationPermissions are the caller's permissions on an organization.
	OrganizationPermissions = authz.OrganizationPermissions
	// CollectionPermissions are the caller's permissions on a collection.
	CollectionPermissions = authz.CollectionPermissions
	// CustomizationSettings are a docs site's customization settings.
	CustomizationSettings = customization.Settings
	// CustomizationFont is a built-in font's name or a custom font.
	CustomizationFont = customization.Font
	// CustomizationFontDefinition is a custom font.
	CustomizationFontDefinition = customization.FontDefinition
	// PageArgs are the paging arguments of a list.
	PageArgs = catalog.PageArgs
)

// Page types and link target kinds, as revisions spell them.
const (
	PageTypeDocument = content.TypeDocument
	PageTypeGroup    = content.TypeGroup
	PageTypeLink     = content.TypeLink
	RefKindURL       = document.RefURL
)

// MaxListLimit is the largest page size of a list.
const MaxListLimit = catalog.MaxLimit

// WalkPages calls fn for every page of a tree, parents before children.
func WalkPages(pages []*ContentPage, fn func(*ContentPage)) { content.Walk(pages, fn) }

// ValidPageToken reports whether s is a page token some list handed out.
func ValidPageToken(s string) bool {
	_, err := pagination.Decode(s)
	return err == nil
}

// PageOfList slices a list that has no key of its own (the files of a
// revision, the pages that link somewhere) by position, as a connection
// would: it returns the page, the total, and the token of the next page
// (nil on the last one). Errors: BadRequest for a bad limit or token.
func PageOfList[T any](items []T, args PageArgs) ([]T, int, *string, error) {
	type at struct {
		i int
		v T
	}
	idx := make([]at, len(items))
	for i, v := range items {
		idx[i] = at{i, v}
	}
	p, err := catalog.Paginate(idx, func(x at) pagination.Cursor { return pagination.Cursor{Key: fmt.Sprintf("%010d", x.i)} }, args)
	if err != nil {
		return nil, 0, nil, err
	}
	out := make([]T, len(p.Items))
	for i, x := range p.Items {
		out[i] = x.v
	}
	return out, p.TotalCount, p.NextPage(), nil
}

// WarmSiteSpacesOfSites loads, for every site named, its site spaces, their
// spaces and the collections above those, in one batch per level, so that
// presenting sections or groups (which carry their site spaces) reads the
// request's caches.
func (r *Resolver) WarmSiteSpacesOfSites(ctx context.Context, siteIDs []string) error {
	l := loaders.For(ctx)
	var all []*ent.SiteSpace
	seen := map[string]bool{}
	for _, id := range siteIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		sss, _ := l.Sites.SiteSpacesBySite.Load(ctx, id)()
		all = append(all, sss...)
	}
	return r.WarmSpaces(ctx, all)
}

// PrefetchPublishedSite reads, at the same time, what a site's published
// profile shows: the site, its structure, the spaces of its site spaces
// and the collections above them (two levels), so that answering it waits
// for one round trip instead of one per level. Nothing read is shown before
// the caller's access to the site is checked.
func (r *Resolver) PrefetchPublishedSite(ctx context.Context, siteID string) {
	l := loaders.For(ctx)
	if l == nil {
		return
	}
	_ = together(
		func() error { l.Sites.FetchStructures(ctx, []string{siteID}); return nil },
		func() error { l.FetchSpacesOfSite(ctx, siteID); return nil },
		func() error { l.FetchCollectionsAboveSite(ctx, siteID); return nil },
		func() error { l.Sites.SiteByID.Fetch(ctx, []string{siteID}); return nil },
	)
}
