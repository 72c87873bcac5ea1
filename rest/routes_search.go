package rest

import (
	"context"

	"quire/graph"
)

// Full-text search over spaces' current content.

// SearchParams are the parameters of a search.
type SearchParams struct {
	ListParams
	Query string `query:"query" required:"true" maxLength:"512" doc:"What to look for, 1 to 512 characters: words (all must appear in a page; other forms of a word match too), \"quoted words\" (together, in that order), a OR b, -word (must not appear)."`
}

func (a *API) searchRoutes() []Route {
	pages, spaces := a.searchPages(), a.searchSpaces()
	return []Route{
		route("GET", "/spaces/{spaceId}/search", "Search the current content of a space: its pages, best first, with their sections that match", func(ctx context.Context, req *Request, in *SearchParams) (*ListPage[*graph.SearchPageHit], error) {
			sp, err := a.r.Query().Space(ctx, req.Param("spaceId"), nil)
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Space().Search(ctx, sp, in.Query, in.First(), in.After(), nil, nil)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(pages.List()),

		route("GET", "/orgs/{organizationId}/search", "Search the current content of the spaces of an organization the caller may read: the spaces with matching pages, best first", func(ctx context.Context, req *Request, in *SearchParams) (*ListPage[*graph.SearchSpaceHit], error) {
			o, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Organization().Search(ctx, o, in.Query, in.First(), in.After(), nil, nil)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(spaces.List()),
	}
}

// SearchPageResult is the documented page of a search's results.
type SearchPageResult struct {
	ID        string                 `json:"id"`
	Title     string                 `json:"title"`
	Path      string                 `json:"path"`
	Sections  []*SearchSectionResult `json:"sections" doc:"The page's sections that hold words of the query, best first (at most 5)."`
	Ancestors []SearchAncestor       `json:"ancestors" doc:"The pages above it, the top one first."`
	URLs      SearchURLs             `json:"urls"`
}

// SearchSectionResult is a section (the text under a heading) of a page
// of a search's results.
type SearchSectionResult struct {
	ID    string     `json:"id" doc:"The heading's anchor; the page's id for the text before its first heading."`
	Title string     `json:"title"`
	Path  string     `json:"path" doc:"The page's path and the heading's anchor (path#anchor)."`
	Body  string     `json:"body" doc:"The section's text around the first word of the query it holds, at most 500 characters."`
	URLs  SearchURLs `json:"urls"`
}

// SearchAncestor is a page above a result.
type SearchAncestor struct {
	Title string `json:"title"`
}

// SearchURLs are the links of a result.
type SearchURLs struct {
	App string `json:"app" doc:"The page (or section) in the application."`
}

// SearchSpaceResult is a space of an organization search's results.
type SearchSpaceResult struct {
	ID    string              `json:"id"`
	Title string              `json:"title"`
	Pages []*SearchPageResult `json:"pages" doc:"Its best pages, best first (at most 20)."`
}

func (a *API) searchPages() *Kind[*graph.SearchPageHit, *SearchPageResult] {
	return presents(func(_ context.Context, h *graph.SearchPageHit) (*SearchPageResult, error) {
		return a.presentSearchPage(h), nil
	})
}

func (a *API) searchSpaces() *Kind[*graph.SearchSpaceHit, *SearchSpaceResult] {
	return presents(func(_ context.Context, h *graph.SearchSpaceHit) (*SearchSpaceResult, error) {
		out := &SearchSpaceResult{ID: h.Space.ID, Title: h.Space.Title, Pages: make([]*SearchPageResult, len(h.Pages))}
		for i, p := range h.Pages {
			out.Pages[i] = a.presentSearchPage(p)
		}
		return out, nil
	})
}

func (a *API) presentSearchPage(h *graph.SearchPageHit) *SearchPageResult {
	out := &SearchPageResult{ID: h.ID, Title: h.Title, Path: h.Path, URLs: SearchURLs{App: a.r.SearchPageURL(h)},
		Sections: make([]*SearchSectionResult, len(h.Sections)), Ancestors: make([]SearchAncestor, len(h.Ancestors))}
	for i, s := range h.Sections {
		out.Sections[i] = &SearchSectionResult{ID: s.ID, Title: s.Title, Path: graph.SearchSectionPath(s), Body: s.Body,
			URLs: SearchURLs{App: a.r.SearchSectionURL(s)}}
	}
	for i, t := range h.Ancestors {
		out.Ancestors[i] = SearchAncestor{Title: t}
	}
	return out
}
