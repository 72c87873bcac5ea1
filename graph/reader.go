package graph

import (
	"context"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/content"
	"quire/internal/customization"
	"quire/internal/document"
	"quire/internal/search"
	"quire/internal/sites"
)

// The reader door (published sites as HTML) reads through these methods,
// as REST reads through the others: who may read a site, and which of the
// organization's content that opens, is decided by sites.Visit. Every
// method below takes the Visit and refuses a space it does not serve.

// VisitSite opens a published site at an address for a reader (see
// sites.Service.Visit).
// Errors: NotFound, Unauthorized.
func (r *Resolver) VisitSite(ctx context.Context, addr sites.Address, shareKey *string, visitorToken string) (*sites.Visit, error) {
	return r.Sites.Visit(ctx, addr, shareKey, visitorToken)
}

// visitSpace is a space the visit serves.
func visitSpace(v *sites.Visit, spaceID string) (*ent.Space, error) {
	sp, ok := v.Spaces[spaceID]
	if !ok {
		return nil, apierr.NotFoundf("No published space matches this address")
	}
	return sp, nil
}

// VisitContent returns the published content of a space the visit serves:
// its current revision (pages without their documents), shared by every
// request: callers must not modify it.
// Errors: NotFound.
func (r *Resolver) VisitContent(ctx context.Context, v *sites.Visit, spaceID string) (*content.Revision, error) {
	sp, err := visitSpace(v, spaceID)
	if err != nil {
		return nil, err
	}
	// A revision never changes: the engine keeps it for every request.
	return r.Content.KeptRevision(ctx, sp.RevisionID)
}

// VisitDocument returns the document of a page of published content as
// its readers see it before their claims are applied: a computed page's
// generated document, with the reusable contents it embeds inlined. The
// reader evaluates expressions and conditions with the visitor's claims.
// Errors: NotFound.
func (r *Resolver) VisitDocument(ctx context.Context, v *sites.Visit, p *content.Page) (*document.Document, error) {
	if _, err := visitSpace(v, p.Space); err != nil {
		return nil, err
	}
	yes := true
	if p.Computed != nil || p.Type != content.TypeDocument {
		// Generated from a specification, which may change: read as the
		// other doors read it.
		return r.pageDocument(ctx, p, nil, &yes, &yes)
	}
	doc, err := r.Content.KeptDocument(ctx, p.Version, func() (*document.Document, error) {
		return r.pageDocument(ctx, p, nil, nil, nil)
	})
	if err != nil {
		return nil, err
	}
	// Reusable contents change apart from the page: inlined on every view.
	return r.Content.Dereference(ctx, p.Revision, doc)
}

// VisitSettings returns the customization a site space shows its readers.
func (r *Resolver) VisitSettings(ctx context.Context, v *sites.Visit, ss *ent.SiteSpace) (customization.Settings, error) {
	return v.Settings(ctx, ss)
}

// VisitSearch searches the spaces a visit serves (see
// search.Service.SearchPublished).
// Errors: BadRequest (query).
func (r *Resolver) VisitSearch(ctx context.Context, v *sites.Visit, query string, limit int) ([]*search.PageHit, error) {
	spaces := make([]*ent.Space, 0, len(v.Spaces))
	seen := map[string]bool{}
	for _, ss := range v.Tree.SiteSpaces {
		if sp, ok := v.Spaces[ss.SpaceID]; ok && !seen[sp.ID] {
			seen[sp.ID] = true
			spaces = append(spaces, sp)
		}
	}
	return r.Search.SearchPublished(ctx, spaces, query, limit)
}

// VisitFileURL is the signed download link of a file of published
// content.
func (r *Resolver) VisitFileURL(f *content.File) string {
	return r.Downloads.FileURL(f.Revision, f.ID)
}

// VisitPDFURL is the signed link to the PDF export of a page of
// published content.
func (r *Resolver) VisitPDFURL(rev *content.Revision, title, pageID string) string {
	return r.Downloads.PDFURL(rev.ID, title, pageID)
}

// VisitOpenAPIURL is the reader URL of an OpenAPI specification of the
// visited site's organization that a page refers to (see
// openapispec.Service.ReaderURL); ok is false for one its readers may
// not follow.
func (r *Resolver) VisitOpenAPIURL(ctx context.Context, v *sites.Visit, slug string) (string, bool, error) {
	return r.OpenAPI.ReaderURL(ctx, v.Site.OrganizationID, slug)
}

// visitorKey presents a site's visitor key.
func visitorKey(k *sites.VisitorKey, err error) (*model.SiteVisitorKey, error) {
	if err != nil {
		return nil, err
	}
	return &model.SiteVisitorKey{Object: "site-visitor-key", Key: k.Key, CreatedAt: k.CreatedAt}, nil
}
