package graph

import (
	"fmt"

	"quire/internal/authz"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/customization"
	"quire/internal/document"
	"quire/internal/pagination"
)

// The callers of the resolver methods (the REST door) reach the engines
// only through this package: the names below are the engine types those
// methods return, and the helpers that go with them, so that rest/
// imports no engine.

type (
	// Revision is an immutable snapshot of a space's content.
	Revision = content.Revision
	// ContentPage is a page of a revision, with its child pages.
	ContentPage = content.Page
	// ContentFile is a file of a revision.
	ContentFile = content.File
	// ContentReusable is a reusable content of a revision.
	ContentReusable = content.ReusableContent
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
