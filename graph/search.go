package graph

import (
	"quire/graph/connections"
	"quire/graph/model"
	"quire/internal/pagination"
	"quire/internal/search"
)

// The results of a search, for the REST door's presenters.
type (
	// SearchPageHit is a page that matches a search.
	SearchPageHit = search.PageHit
	// SearchSpaceHit is a space with pages that match a search.
	SearchSpaceHit = search.SpaceHit
	// SearchSectionHit is a section of a page that matches a search.
	SearchSectionHit = search.SectionHit
)

// searchPageConnection makes a connection of a page of page results.
func searchPageConnection(p pagination.Page[*search.PageHit]) *model.SearchPageResultConnection {
	return connections.Of[model.SearchPageResultConnection](p)
}

// searchSpaceConnection makes a connection of a page of space results.
func searchSpaceConnection(p pagination.Page[*search.SpaceHit]) *model.SearchSpaceResultConnection {
	return connections.Of[model.SearchSpaceResultConnection](p)
}

// SearchPageURL is the application URL of a page result.
func (r *Resolver) SearchPageURL(h *search.PageHit) string {
	return r.appURL("o", h.Space.OrganizationID, "s", h.Space.ID, h.Path)
}

// SearchSectionPath is the path of a section result: its page's, with the
// heading's anchor.
func SearchSectionPath(s *search.SectionHit) string {
	if s.Anchor == "" {
		return s.Page.Path
	}
	return s.Page.Path + "#" + s.Anchor
}

// SearchSectionURL is the application URL of a section result.
func (r *Resolver) SearchSectionURL(s *search.SectionHit) string {
	u := r.SearchPageURL(s.Page)
	if s.Anchor != "" {
		u += "#" + s.Anchor
	}
	return u
}
