package search

import (
	"context"

	"quire/ent"
)

// SearchPublished searches the current content of spaces that a published
// site serves its reader (the caller has decided that the reader may read
// them, see sites.Visit): the pages that match, best first, at most limit
// of them (MaxResults at most), each with its matching sections. Pages kept
// out of search (noIndex) are not indexed and so never found.
// Errors: BadRequest (query).
func (s *Service) SearchPublished(ctx context.Context, spaces []*ent.Space, query string, limit int) ([]*PageHit, error) {
	req, err := checkQuery(query)
	if err != nil {
		return nil, err
	}
	live := make(map[string]*ent.Space, len(spaces))
	for _, sp := range spaces {
		if sp.DeletedAt == nil {
			live[sp.ID] = sp
		}
	}
	if len(live) == 0 || req.p.empty() {
		return nil, nil
	}
	pages, err := s.rank(ctx, req, live)
	if err != nil {
		return nil, err
	}
	if limit <= 0 || limit > MaxResults {
		limit = MaxResults
	}
	if len(pages) > limit {
		pages = pages[:limit]
	}
	return pages, s.fill(ctx, req, pages)
}
