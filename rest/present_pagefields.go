package rest

import (
	"context"

	"quire/graph"
	"quire/internal/types"
)

// PageMetaLinks are the locations a document page declares to search
// engines.
type PageMetaLinks struct {
	Canonical  types.JSON   `json:"canonical,omitempty" doc:"The canonical location: a content reference of kind page or url."`
	Alternates []types.JSON `json:"alternates,omitempty" doc:"Alternate locations: content references of kind page or url."`
}

// pageProps presents the properties of a page beyond title, emoji,
// description and hidden, each on the page types the reference gives it:
// link title, icon and times on every page, indexing on document and
// group pages, meta links and the computed definition on document pages.
func (a *API) pageProps(ctx context.Context, out *Page, p *graph.ContentPage) error {
	pr := a.r.Page()
	lt, err := pr.LinkTitle(ctx, p)
	if err != nil {
		return err
	}
	icon, err := pr.Icon(ctx, p)
	if err != nil {
		return err
	}
	out.LinkTitle, out.Icon, out.CreatedAt = deref(lt), deref(icon), p.CreatedAt
	if !p.UpdatedAt.IsZero() {
		t := p.UpdatedAt
		out.UpdatedAt = &t
	}
	if p.Type == graph.PageTypeLink {
		return nil
	}
	noIndex, noRobots := p.NoIndex, p.NoRobotsIndex
	out.NoIndex, out.NoRobotsIndex = &noIndex, &noRobots
	if p.Type != graph.PageTypeDocument {
		return nil
	}
	ml, err := pr.MetaLinks(ctx, p)
	if err != nil {
		return err
	}
	if ml != nil {
		out.MetaLinks = &PageMetaLinks{Canonical: nonNull(ml.Canonical), Alternates: ml.Alternates}
	}
	comp, err := pr.Computed(ctx, p)
	if err != nil {
		return err
	}
	seed, err := pr.ComputedSeed(ctx, p)
	if err != nil {
		return err
	}
	out.Computed, out.ComputedSeed = nonNull(comp), deref(seed)
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
