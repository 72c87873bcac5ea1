package search

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/lib/pq"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/pagination"
)

// PageHit is a page that matches a query.
type PageHit struct {
	Space     *ent.Space
	ID        string
	Title     string
	Path      string
	Ancestors []string
	// Sections are the page's sections that match, best first (at most
	// MaxSectionsPerPage); empty when only the title matches.
	Sections []*SectionHit

	score float64
}

// SectionHit is a section of a page that matches a query.
type SectionHit struct {
	// Page is the page it belongs to.
	Page *PageHit
	// ID is the section's anchor, or the page's id for the text before
	// its first heading.
	ID string
	// Anchor is the heading's anchor ("" for the text before the first
	// heading).
	Anchor string
	// Title is the heading's text (the page's title for the text before
	// the first heading).
	Title string
	// Body is the section's text around the first word of the query it
	// holds, at most ExcerptChars characters.
	Body string
}

// SpaceHit is a space with pages that match a query.
type SpaceHit struct {
	Space *ent.Space
	// Pages are its best pages (at most MaxPagesPerSpace).
	Pages []*PageHit

	score float64
}

// checkQuery validates a query's text.
func checkQuery(q string) (parsed, error) {
	if strings.TrimSpace(q) == "" {
		return parsed{}, apierr.Invalid("query", "query must not be empty")
	}
	if utf8.RuneCountInString(q) > MaxQuery {
		return parsed{}, apierr.Invalid("query", "query must be at most %d characters", MaxQuery)
	}
	return parse(q), nil
}

// SearchSpace searches the current content of a space the caller may
// read: the pages that match, best first, a page of them as args ask (at
// most MaxResults in all). A space in the trash has no results.
// Errors: NotFound (space), BadRequest (query, paging).
func (s *Service) SearchSpace(ctx context.Context, spaceID, query string, args pagination.Args) (pagination.Page[*PageHit], error) {
	var none pagination.Page[*PageHit]
	p, err := checkQuery(query)
	if err != nil {
		return none, err
	}
	sp, _, err := s.Spaces.Space(ctx, spaceID)
	if err != nil {
		return none, err
	}
	var pages []*PageHit
	if sp.DeletedAt == nil && !p.empty() {
		if pages, err = s.rank(ctx, map[string]*ent.Space{sp.ID: sp}, query, p); err != nil {
			return none, err
		}
		if len(pages) > MaxResults {
			pages = pages[:MaxResults]
		}
	}
	out, err := catalog.Paginate(pages, rankCursor(pages), args)
	if err != nil {
		return none, err
	}
	return out, s.fill(ctx, out.Items, p)
}

// SearchOrganization searches the current content of the live spaces of an
// organization that the caller may read (the others are not searched):
// the spaces that have matching pages, best first, each with its best
// pages, a page of them as args ask (at most MaxResults spaces).
// Errors: NotFound (organization), BadRequest (query, paging).
func (s *Service) SearchOrganization(ctx context.Context, orgID, query string, args pagination.Args) (pagination.Page[*SpaceHit], error) {
	var none pagination.Page[*SpaceHit]
	p, err := checkQuery(query)
	if err != nil {
		return none, err
	}
	readable, err := s.Spaces.Spaces(ctx, orgID)
	if err != nil {
		return none, err
	}
	var hits []*SpaceHit
	if len(readable) > 0 && !p.empty() {
		spaces := make(map[string]*ent.Space, len(readable))
		for _, sp := range readable {
			spaces[sp.ID] = sp
		}
		ranked, err := s.rank(ctx, spaces, query, p)
		if err != nil {
			return none, err
		}
		bySpace := map[string]*SpaceHit{}
		for _, ph := range ranked {
			h := bySpace[ph.Space.ID]
			if h == nil {
				h = &SpaceHit{Space: ph.Space, score: ph.score}
				bySpace[ph.Space.ID] = h
				hits = append(hits, h)
			}
			if len(h.Pages) < MaxPagesPerSpace {
				h.Pages = append(h.Pages, ph)
			}
		}
		if len(hits) > MaxResults {
			hits = hits[:MaxResults]
		}
	}
	out, err := catalog.Paginate(hits, rankCursor(hits), args)
	if err != nil {
		return none, err
	}
	var pages []*PageHit
	for _, h := range out.Items {
		pages = append(pages, h.Pages...)
	}
	return out, s.fill(ctx, pages, p)
}

// rankCursor orders results by their rank.
func rankCursor[T comparable](items []T) func(T) pagination.Cursor {
	rank := make(map[T]int, len(items))
	for i, it := range items {
		rank[it] = i
	}
	return func(t T) pagination.Cursor { return pagination.Cursor{Key: fmt.Sprintf("%08d", rank[t])} }
}

// candidate is a matching row.
type candidate struct {
	id          int64
	space, page string
	section     int
	score       float64
}

// match reads, best first, at most limit rows of spaces that match q: the
// rows of whole pages (section 0), or of sections (section > 0) of pages
// (by space, then id) when pages is set. websearch is the query for
// PostgreSQL's websearch_to_tsquery, fts5 the FTS5 expression.
func (s *Service) match(ctx context.Context, spaces []string, pages []string, websearch, fts5 string, limit int) ([]candidate, error) {
	var (
		query string
		args  []any
	)
	section := "x.section = 0"
	if pages != nil {
		section = "x.section > 0"
	}
	if s.postgres() {
		byConfig, err := s.configs(ctx, spaces)
		if err != nil || len(byConfig) == 0 {
			return nil, err
		}
		// One branch per configuration, so that each is one search of the
		// GIN index (a query per space would be an index scan per space).
		var parts []string
		for _, cfg := range sortedKeys(byConfig) {
			part := `SELECT x.id, x.space_id, x.page_id, x.section, ts_rank(x.tsv, q, 1) AS score
FROM search_sections x, websearch_to_tsquery(CAST(? AS regconfig), ?) q
WHERE x.tsv @@ q AND ` + section + ` AND x.space_id = ANY(?)`
			args = append(args, cfg, websearch, pq.Array(byConfig[cfg]))
			if pages != nil {
				part += " AND x.page_id = ANY(?)"
				args = append(args, pq.Array(pages))
			}
			parts = append(parts, part)
		}
		query = strings.Join(parts, "\nUNION ALL\n") + "\nORDER BY score DESC, id LIMIT ?"
	} else {
		list, _ := json.Marshal(spaces)
		// bm25 is lower for better matches; weights per column: title,
		// headings, text.
		query = `SELECT x.id, x.space_id, x.page_id, x.section, -bm25(search_fts, 10.0, 4.0, 1.0) AS score
FROM search_fts JOIN search_sections x ON x.id = search_fts.rowid
WHERE search_fts MATCH ? AND ` + section + ` AND x.space_id IN (SELECT value FROM json_each(?))`
		args = []any{fts5, string(list)}
		if pages != nil {
			p, _ := json.Marshal(pages)
			query += " AND x.page_id IN (SELECT value FROM json_each(?))"
			args = append(args, string(p))
		}
		query += "\nORDER BY score DESC, x.id LIMIT ?"
	}
	args = append(args, limit)
	rows, err := s.Client.QueryContext(ctx, s.bind(query), args...)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	var out []candidate
	for rows.Next() {
		var c candidate
		if err := rows.Scan(&c.id, &c.space, &c.page, &c.section, &c.score); err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// rank finds the pages of spaces that match p, best first: a page matches
// when one of its page rows holds all the query asks, and ranks by its
// best row.
func (s *Service) rank(ctx context.Context, spaces map[string]*ent.Space, raw string, p parsed) ([]*PageHit, error) {
	ids := sortedKeys(spaces)
	cands, err := s.match(ctx, ids, nil, raw, p.fts5(), MaxCandidates)
	if err != nil {
		return nil, err
	}
	type key struct{ space, page string }
	seen := map[key]bool{}
	var out []*PageHit
	for _, c := range cands {
		k := key{c.space, c.page}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, &PageHit{Space: spaces[c.space], ID: c.page, score: c.score})
	}
	return out, nil
}

// configs groups spaces by the text search configuration of their index;
// spaces without an index are left out.
func (s *Service) configs(ctx context.Context, ids []string) (map[string][]string, error) {
	rows, err := s.Client.QueryContext(ctx, s.bind("SELECT config::text, space_id FROM search_spaces WHERE space_id = ANY(?)"), pq.Array(ids))
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var cfg, id string
		if err := rows.Scan(&cfg, &id); err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		out[cfg] = append(out[cfg], id)
	}
	return out, rows.Err()
}

// fill reads what pages show: their titles, paths and ancestors, and their
// sections that hold words of the query (any of them), best first, at
// most MaxSectionsPerPage each, with the text around the first word.
func (s *Service) fill(ctx context.Context, pages []*PageHit, p parsed) error {
	if len(pages) == 0 {
		return nil
	}
	type key struct{ space, page string }
	byKey := map[key]*PageHit{}
	var spaceIDs, pageIDs []string
	for _, h := range pages {
		byKey[key{h.Space.ID, h.ID}] = h
		spaceIDs = append(spaceIDs, h.Space.ID)
		pageIDs = append(pageIDs, h.ID)
		h.Ancestors, h.Sections = []string{}, []*SectionHit{}
	}
	spaceIDs, pageIDs = uniq(spaceIDs), uniq(pageIDs)
	rows, err := s.Client.QueryContext(ctx, s.bind("SELECT space_id, page_id, title, path, ancestors FROM search_pages WHERE space_id IN ("+
		placeholders(len(spaceIDs))+") AND page_id IN ("+placeholders(len(pageIDs))+")"), append(anys(spaceIDs), anys(pageIDs)...)...)
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	for rows.Next() {
		var k key
		var title, path, anc string
		if err := rows.Scan(&k.space, &k.page, &title, &path, &anc); err != nil {
			rows.Close()
			return fmt.Errorf("search: %w", err)
		}
		if h := byKey[k]; h != nil {
			h.Title, h.Path = title, path
			_ = json.Unmarshal([]byte(anc), &h.Ancestors)
		}
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	// The sections: of the rows that hold any word of the query, each
	// section's best, MaxSectionsPerPage per page.
	cands, err := s.match(ctx, spaceIDs, pageIDs, p.anyWebsearch(), p.anyFTS5(), len(pageIDs)*MaxSectionsPerPage*4)
	if err != nil {
		return err
	}
	chosen := map[key][]int64{}
	taken := map[key]map[int]bool{}
	var ids []any
	for _, c := range cands {
		k := key{c.space, c.page}
		if byKey[k] == nil || taken[k][c.section] || len(chosen[k]) >= MaxSectionsPerPage {
			continue
		}
		if taken[k] == nil {
			taken[k] = map[int]bool{}
		}
		taken[k][c.section] = true
		chosen[k] = append(chosen[k], c.id)
		ids = append(ids, c.id)
	}
	if len(ids) == 0 {
		return nil
	}
	sections := map[int64]*SectionHit{}
	terms := p.terms()
	rows, err = s.Client.QueryContext(ctx, s.bind("SELECT id, page_id, anchor, title, body FROM search_sections WHERE id IN ("+placeholders(len(ids))+")"), ids...)
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var page, anchor, title, body string
		if err := rows.Scan(&id, &page, &anchor, &title, &body); err != nil {
			return fmt.Errorf("search: %w", err)
		}
		sec := &SectionHit{ID: anchor, Anchor: anchor, Title: title, Body: excerpt(body, terms, ExcerptChars)}
		// Page is set below: a row id is one page's.
		if anchor == "" {
			sec.ID = page
		}
		sections[id] = sec
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	for k, list := range chosen {
		h := byKey[k]
		for _, id := range list {
			if sec := sections[id]; sec != nil {
				sec.Page = h
				if sec.Anchor == "" && sec.Title == "" {
					sec.Title = h.Title
				}
				h.Sections = append(h.Sections, sec)
			}
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
