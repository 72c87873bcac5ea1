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
func checkQuery(q string) (*request, error) {
	if strings.TrimSpace(q) == "" {
		return nil, apierr.Invalid("query", "query must not be empty")
	}
	if utf8.RuneCountInString(q) > MaxQuery {
		return nil, apierr.Invalid("query", "query must be at most %d characters", MaxQuery)
	}
	return &request{raw: q, p: parse(q)}, nil
}

// request is one search: the query, as written and as read, and what its
// statements share.
type request struct {
	raw string
	p   parsed
	// configs are, on PostgreSQL, the searched spaces that are indexed, by
	// the text search configuration of their index.
	configs map[string][]string
}

// SearchSpace searches the current content of a space the caller may
// read: the pages that match, best first, a page of them as args ask (at
// most MaxResults in all). A space in the trash has no results.
// Errors: NotFound (space), BadRequest (query, paging).
func (s *Service) SearchSpace(ctx context.Context, spaceID, query string, args pagination.Args) (pagination.Page[*PageHit], error) {
	var none pagination.Page[*PageHit]
	req, err := checkQuery(query)
	if err != nil {
		return none, err
	}
	sp, _, err := s.Spaces.Space(ctx, spaceID)
	if err != nil {
		return none, err
	}
	var pages []*PageHit
	if sp.DeletedAt == nil && !req.p.empty() {
		if pages, err = s.rank(ctx, req, map[string]*ent.Space{sp.ID: sp}); err != nil {
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
	return out, s.fill(ctx, req, out.Items)
}

// SearchOrganization searches the current content of the live spaces of an
// organization that the caller may read (the others are not searched):
// the spaces that have matching pages, best first, each with its best
// pages, a page of them as args ask (at most MaxResults spaces).
// Errors: NotFound (organization), BadRequest (query, paging).
func (s *Service) SearchOrganization(ctx context.Context, orgID, query string, args pagination.Args) (pagination.Page[*SpaceHit], error) {
	var none pagination.Page[*SpaceHit]
	req, err := checkQuery(query)
	if err != nil {
		return none, err
	}
	readable, err := s.Spaces.Spaces(ctx, orgID)
	if err != nil {
		return none, err
	}
	var hits []*SpaceHit
	if len(readable) > 0 && !req.p.empty() {
		spaces := make(map[string]*ent.Space, len(readable))
		for _, sp := range readable {
			spaces[sp.ID] = sp
		}
		ranked, err := s.rank(ctx, req, spaces)
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
	return out, s.fill(ctx, req, pages)
}

// rankCursor orders results by their rank.
func rankCursor[T comparable](items []T) func(T) pagination.Cursor {
	rank := make(map[T]int, len(items))
	for i, it := range items {
		rank[it] = i
	}
	return func(t T) pagination.Cursor { return pagination.Cursor{Key: fmt.Sprintf("%08d", rank[t])} }
}

// candidate is a matching page row.
type candidate struct {
	space, page string
	score       float64
}

// rank finds the pages of spaces that match, best first, in two tiers:
// the pages whose title and headings hold all the query asks, ranked by
// them (the title weighing more), then the pages whose whole text does,
// ranked by all of it. Each tier ranks at most MaxRanked pages, so that
// a query of words that most pages hold costs what a rarer one does: the
// first MaxRanked pages the index finds are ranked, not all of them.
func (s *Service) rank(ctx context.Context, req *request, spaces map[string]*ent.Space) ([]*PageHit, error) {
	ids := sortedKeys(spaces)
	var (
		query string
		args  []any
	)
	if s.postgres() {
		if err := s.loadConfigs(ctx, req, ids); err != nil || len(req.configs) == 0 {
			return nil, err
		}
		// A branch per configuration and tier: each is one search of a
		// GIN index (a query per space would be an index scan per space).
		var parts []string
		for _, cfg := range sortedKeys(req.configs) {
			for _, tier := range []struct{ n, vector, rank string }{{"1", "head", "ts_rank(x.head, q)"}, {"2", "tsv", "ts_rank(x.tsv, q, 1)"}} {
				parts = append(parts, `(SELECT `+tier.n+` AS tier, x.id, x.space_id, x.page_id, `+tier.rank+` AS score
FROM search_sections x, websearch_to_tsquery(CAST(? AS regconfig), ?) q
WHERE x.`+tier.vector+` @@ q AND x.section = 0 AND x.space_id = ANY(?) LIMIT ?)`)
				args = append(args, cfg, req.raw, pq.Array(req.configs[cfg]), MaxRanked)
			}
		}
		query = strings.Join(parts, "\nUNION ALL\n") + "\nORDER BY tier, score DESC, id"
	} else {
		list, _ := json.Marshal(ids)
		// bm25 is lower for better matches; weights per column: title,
		// headings, text.
		tier := func(n string) string {
			return `SELECT * FROM (SELECT ` + n + ` AS tier, x.id, x.space_id, x.page_id, -bm25(search_fts, 10.0, 4.0, 1.0) AS score
FROM search_fts JOIN search_sections x ON x.id = search_fts.rowid
WHERE search_fts MATCH ? AND x.space_id IN (SELECT value FROM json_each(?)) LIMIT ?)`
		}
		expr := req.p.fts5()
		query = tier("1") + "\nUNION ALL\n" + tier("2") + "\nORDER BY tier, score DESC, id"
		args = []any{"{title headings} : (" + expr + ")", string(list), MaxRanked, expr, string(list), MaxRanked}
	}
	rows, err := s.Client.QueryContext(ctx, s.bind(query), args...)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	type key struct{ space, page string }
	seen := map[key]bool{}
	var out []*PageHit
	for rows.Next() {
		var (
			tier int
			id   int64
			c    candidate
		)
		if err := rows.Scan(&tier, &id, &c.space, &c.page, &c.score); err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		k := key{c.space, c.page}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, &PageHit{Space: spaces[c.space], ID: c.page, score: c.score})
	}
	return out, rows.Err()
}

// loadConfigs reads, once per request, the text search configuration of
// the index of each space (PostgreSQL); spaces without an index are left
// out.
func (s *Service) loadConfigs(ctx context.Context, req *request, ids []string) error {
	if req.configs != nil {
		return nil
	}
	rows, err := s.Client.QueryContext(ctx, s.bind("SELECT config::text, space_id FROM search_spaces WHERE space_id = ANY(?)"), pq.Array(ids))
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	req.configs = map[string][]string{}
	for rows.Next() {
		var cfg, id string
		if err := rows.Scan(&cfg, &id); err != nil {
			return fmt.Errorf("search: %w", err)
		}
		req.configs[cfg] = append(req.configs[cfg], id)
	}
	return rows.Err()
}

// sectionRow is a section row of a shown page that holds words of the
// query.
type sectionRow struct {
	space, page         string
	section             int
	anchor, title, body string
}

// sectionMatches reads the section rows of pages (of spaces) that hold any
// word of the query, with their text: on PostgreSQL best first, on SQLite
// in no order (see fill). ranges are, on SQLite, the ids of each page's
// section rows, first and last.
func (s *Service) sectionMatches(ctx context.Context, req *request, spaces, pages []string, ranges [][2]int64) ([]sectionRow, error) {
	var (
		query string
		args  []any
	)
	if s.postgres() {
		// Rows are found by page (the index of spaces and pages), then
		// matched: a handful per page.
		var parts []string
		for _, cfg := range sortedKeys(req.configs) {
			parts = append(parts, `SELECT x.id, x.space_id, x.page_id, x.section, x.anchor, x.title, x.body, ts_rank(x.tsv, q) AS score
FROM search_sections x, websearch_to_tsquery(CAST(? AS regconfig), ?) q
WHERE x.space_id = ANY(?) AND x.page_id = ANY(?) AND x.section > 0 AND x.tsv @@ q`)
			args = append(args, cfg, req.p.anyWebsearch(), pq.Array(req.configs[cfg]), pq.Array(pages))
		}
		if len(parts) == 0 {
			return nil, nil
		}
		query = strings.Join(parts, "\nUNION ALL\n") + "\nORDER BY score DESC, id"
	} else {
		// A page's section rows have consecutive ids: each page is one
		// range of the full-text index, searched without bm25, whose
		// document frequencies would be counted again for every page.
		var parts []string
		for _, r := range ranges {
			parts = append(parts, `SELECT x.id, x.space_id, x.page_id, x.section, x.anchor, x.title, x.body, 0 AS score
FROM search_fts_sections JOIN search_sections x ON x.id = search_fts_sections.rowid
WHERE search_fts_sections MATCH ? AND search_fts_sections.rowid BETWEEN ? AND ?`)
			args = append(args, req.p.anyFTS5(), r[0], r[1])
		}
		if len(parts) == 0 {
			return nil, nil
		}
		query = strings.Join(parts, "\nUNION ALL\n")
	}
	rows, err := s.Client.QueryContext(ctx, s.bind(query), args...)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	var out []sectionRow
	for rows.Next() {
		var (
			r     sectionRow
			id    int64
			score float64
		)
		if err := rows.Scan(&id, &r.space, &r.page, &r.section, &r.anchor, &r.title, &r.body, &score); err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// fill reads what pages show: their titles, paths and ancestors, and their
// sections that hold words of the query (any of them), best first, at
// most MaxSectionsPerPage each, with the text around the first word.
func (s *Service) fill(ctx context.Context, req *request, pages []*PageHit) error {
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
	cols := "p.space_id, p.page_id, p.title, p.path, p.ancestors, 0, 0"
	if !s.postgres() {
		// The first and last ids of the page's section rows (sectionMatches).
		cols = `p.space_id, p.page_id, p.title, p.path, p.ancestors,
  coalesce((SELECT min(x.id) FROM search_sections x WHERE x.space_id = p.space_id AND x.page_id = p.page_id AND x.section > 0), 0),
  coalesce((SELECT max(x.id) FROM search_sections x WHERE x.space_id = p.space_id AND x.page_id = p.page_id AND x.section > 0), 0)`
	}
	rows, err := s.Client.QueryContext(ctx, s.bind("SELECT "+cols+" FROM search_pages p WHERE p.space_id IN ("+
		placeholders(len(spaceIDs))+") AND p.page_id IN ("+placeholders(len(pageIDs))+")"), append(anys(spaceIDs), anys(pageIDs)...)...)
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	var ranges [][2]int64
	for rows.Next() {
		var k key
		var title, path, anc string
		var lo, hi int64
		if err := rows.Scan(&k.space, &k.page, &title, &path, &anc, &lo, &hi); err != nil {
			rows.Close()
			return fmt.Errorf("search: %w", err)
		}
		if h := byKey[k]; h != nil {
			h.Title, h.Path = title, path
			_ = json.Unmarshal([]byte(anc), &h.Ancestors)
			if lo > 0 {
				ranges = append(ranges, [2]int64{lo, hi})
			}
		}
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	secs, err := s.sectionMatches(ctx, req, spaceIDs, pageIDs, ranges)
	if err != nil {
		return err
	}
	terms := req.p.terms()
	if !s.postgres() {
		// Best first: by how often the section's heading (four times) and
		// text hold the query's words.
		score := make(map[*sectionRow]int, len(secs))
		for i := range secs {
			r := &secs[i]
			score[r] = 4*occurrences(r.title, terms) + occurrences(r.body, terms)
		}
		sort.SliceStable(secs, func(i, j int) bool { return score[&secs[i]] > score[&secs[j]] })
	}
	// Each section once (its best chunk), MaxSectionsPerPage per page.
	taken := map[key]map[int]bool{}
	for _, r := range secs {
		k := key{r.space, r.page}
		h := byKey[k]
		if h == nil || taken[k][r.section] || len(h.Sections) >= MaxSectionsPerPage {
			continue
		}
		if taken[k] == nil {
			taken[k] = map[int]bool{}
		}
		taken[k][r.section] = true
		sec := &SectionHit{Page: h, ID: r.anchor, Anchor: r.anchor, Title: r.title, Body: excerpt(r.body, terms, ExcerptChars)}
		if r.anchor == "" {
			sec.ID = h.ID
		}
		if sec.Anchor == "" && sec.Title == "" {
			sec.Title = h.Title
		}
		h.Sections = append(h.Sections, sec)
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
