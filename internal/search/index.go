package search

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"quire/ent"
	"quire/internal/document"
	"quire/internal/types"
)

// Page types the index holds: documents (title, description, sections)
// and groups (title). Link pages are not indexed.
const (
	TypeDocument = "document"
	TypeGroup    = "group"
)

// Page is what the index needs of a page of a revision.
type Page struct {
	ID          string
	Type        string
	Title       string
	Description string
	// Path is the page's path in its space (slugs joined by "/").
	Path string
	// Ancestors are the titles of the pages above it, the root's first.
	Ancestors []string
	// Document names the page's document (the hash its content is stored
	// under), "" for none: a page whose Document, Title, Description and
	// Type are unchanged keeps its rows.
	Document string
	// LinkTitle is the page's shorter navigation title, searched with its
	// headings ("": none).
	LinkTitle string
	// NoIndex keeps the page out of search.
	NoIndex bool
	// Computed is the definition of a computed page, ComputedSeed its
	// stored seed: the page is indexed with the document it generates.
	Computed     *types.PageComputed
	ComputedSeed string
}

func (p Page) indexed() bool { return (p.Type == TypeDocument || p.Type == TypeGroup) && !p.NoIndex }

// Change is a space's current revision changing from From to To.
type Change struct {
	Space    string
	Language *types.Language
	// From is the revision the space's index reflects when it is in step
	// ("" for a new space, which has no index yet); To the new current
	// revision.
	From, To string
	// Old and New are the pages of From and To, by id. Old is not read
	// when Rebuild is set or the space is new.
	Old, New map[string]Page
	// Rebuild replaces the whole index of the space with New, whatever it
	// reflects (the catch-up job).
	Rebuild bool
	// Documents loads documents by their Document names.
	Documents func(ctx context.Context, names []string) (map[string]*document.Document, error)
}

// indexState is a space's row of search_spaces.
type indexState struct {
	revision, config string
	language         *string
}

func (s *Service) state(ctx context.Context, q querier, spaceID string) (*indexState, error) {
	rows, err := q.QueryContext(ctx, s.bind("SELECT revision_id, config, language FROM search_spaces WHERE space_id = ?"), spaceID)
	if err != nil {
		return nil, fmt.Errorf("read search index state: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		return nil, rows.Err()
	}
	st := &indexState{}
	var lang sql.NullString
	if err := rows.Scan(&st.revision, &st.config, &lang); err != nil {
		return nil, fmt.Errorf("read search index state: %w", err)
	}
	if lang.Valid {
		st.language = &lang.String
	}
	return st, rows.Err()
}

func (s *Service) configFor(lang *types.Language) string {
	if s.postgres() {
		return Config(lang)
	}
	return sqliteConfig
}

// Apply brings the index of a space from ch.From to ch.To in tx, the
// transaction that changes the space's current revision (the caller holds
// the space's row lock). Only the pages of New whose document, title,
// description or type differ from Old are indexed again (their documents
// loaded); pages that only moved get their path and ancestors rewritten;
// pages gone are removed. An index that does not reflect ch.From is left
// as it is, for the catch-up job to rebuild.
func (s *Service) Apply(ctx context.Context, tx *ent.Tx, ch Change) error {
	st, err := s.state(ctx, tx, ch.Space)
	if err != nil {
		return err
	}
	if err := s.withComputed(ctx, &ch); err != nil {
		return err
	}
	switch {
	case ch.Rebuild:
		return s.rebuild(ctx, tx, ch)
	case st == nil && ch.From == "":
		return s.rebuild(ctx, tx, ch) // a new space
	case st == nil || st.revision != ch.From:
		return nil // not in step: the catch-up job rebuilds it
	}
	var (
		reindex, moved, gone []string
	)
	for _, id := range slices.Sorted(maps.Keys(ch.New)) {
		p := ch.New[id]
		o, had := ch.Old[id]
		switch {
		case !p.indexed():
			if had && o.indexed() {
				gone = append(gone, id)
			}
		case !had || !o.indexed() || o.Document != p.Document || o.Title != p.Title || o.Description != p.Description || o.Type != p.Type ||
			o.LinkTitle != p.LinkTitle:
			reindex = append(reindex, id)
		case o.Path != p.Path || !slices.Equal(o.Ancestors, p.Ancestors):
			moved = append(moved, id)
		}
	}
	for id, o := range ch.Old {
		if _, ok := ch.New[id]; !ok && o.indexed() {
			gone = append(gone, id)
		}
	}
	sort.Strings(gone)
	if err := s.deletePages(ctx, tx, ch.Space, append(slices.Clone(gone), reindex...), gone); err != nil {
		return err
	}
	if err := s.writePages(ctx, tx, ch, st.config, reindex, moved); err != nil {
		return err
	}
	return s.exec(ctx, tx, "UPDATE search_spaces SET revision_id = ? WHERE space_id = ?", ch.To, ch.Space)
}

// rebuild replaces the whole index of a space with ch.New.
func (s *Service) rebuild(ctx context.Context, tx *ent.Tx, ch Change) error {
	if err := s.Purge(ctx, tx, ch.Space); err != nil {
		return err
	}
	var all []string
	for id, p := range ch.New {
		if p.indexed() {
			all = append(all, id)
		}
	}
	sort.Strings(all)
	config := s.configFor(ch.Language)
	if err := s.writePages(ctx, tx, ch, config, all, nil); err != nil {
		return err
	}
	return s.exec(ctx, tx, "INSERT INTO search_spaces (space_id, revision_id, config, language) VALUES (?, ?, ?, ?)",
		ch.Space, ch.To, config, languageValue(ch.Language))
}

func languageValue(l *types.Language) any {
	if l == nil {
		return nil
	}
	return string(*l)
}

// deletePages removes the section rows of pages (and, on SQLite, their
// full-text rows), and the page rows of gone.
func (s *Service) deletePages(ctx context.Context, tx *ent.Tx, spaceID string, sections, gone []string) error {
	err := inChunks(sections, func(part []string) error {
		args := append([]any{spaceID}, anys(part)...)
		where := "space_id = ? AND page_id IN (" + placeholders(len(part)) + ")"
		if !s.postgres() {
			for _, fts := range []string{"search_fts", "search_fts_sections"} {
				if err := s.exec(ctx, tx, "DELETE FROM "+fts+" WHERE rowid IN (SELECT id FROM search_sections WHERE "+where+")", args...); err != nil {
					return err
				}
			}
		}
		return s.exec(ctx, tx, "DELETE FROM search_sections WHERE "+where, args...)
	})
	if err != nil {
		return err
	}
	return inChunks(gone, func(part []string) error {
		return s.exec(ctx, tx, "DELETE FROM search_pages WHERE space_id = ? AND page_id IN ("+placeholders(len(part))+")",
			append([]any{spaceID}, anys(part)...)...)
	})
}

// row is one row of search_sections. Section 0 is the whole page: its
// title, its headings and its text (description first); sections 1 and up
// are its sections: a heading (title) and the text under it.
type row struct {
	page           string
	section, chunk int
	anchor, title  string
	headings, body string
}

// pageRows are the rows of a page.
func pageRows(p Page, doc *document.Document) []row {
	secs := Sections(doc)
	var heads, text []string
	if p.LinkTitle != "" && p.LinkTitle != p.Title {
		// Readers know a page by its navigation title too: it is matched
		// with the title and headings, not with the body.
		heads = append(heads, p.LinkTitle)
	}
	if p.Description != "" {
		text = append(text, p.Description)
	}
	for _, sec := range secs {
		if sec.Title != "" {
			heads = append(heads, sec.Title)
		}
		if sec.Text != "" {
			text = append(text, sec.Text)
		}
	}
	var out []row
	for j, t := range chunks(strings.Join(text, "\n"), PageChunkBytes) {
		r := row{page: p.ID, chunk: j, title: p.Title, body: t}
		if j == 0 {
			r.headings = strings.Join(heads, "\n")
		}
		out = append(out, r)
	}
	for i, sec := range secs {
		for j, t := range chunks(sec.Text, ChunkBytes) {
			out = append(out, row{page: p.ID, section: i + 1, chunk: j, anchor: sec.Anchor, title: sec.Title, body: t})
		}
	}
	return out
}

// writePages writes the page rows of reindex and moved, and the section
// rows of reindex (whose old rows are gone), with the text search
// configuration config.
func (s *Service) writePages(ctx context.Context, tx *ent.Tx, ch Change, config string, reindex, moved []string) error {
	if len(reindex)+len(moved) == 0 {
		return nil
	}
	var names []string
	for _, id := range reindex {
		if d := ch.New[id].Document; d != "" && ch.New[id].Type == TypeDocument {
			names = append(names, d)
		}
	}
	docs := map[string]*document.Document{}
	if len(names) > 0 {
		var err error
		if docs, err = ch.Documents(ctx, uniq(names)); err != nil {
			return err
		}
	}
	if err := s.upsertPages(ctx, tx, ch.Space, ch.New, append(slices.Clone(reindex), moved...)); err != nil {
		return err
	}
	var rows []row
	for _, id := range reindex {
		p := ch.New[id]
		var doc *document.Document
		if p.Type == TypeDocument {
			doc = docs[p.Document]
		}
		rows = append(rows, pageRows(p, doc)...)
	}
	return s.insertRows(ctx, tx, ch.Space, config, rows, reindex)
}

func (s *Service) upsertPages(ctx context.Context, tx *ent.Tx, spaceID string, pages map[string]Page, ids []string) error {
	for len(ids) > 0 {
		n := min(len(ids), batch)
		part := ids[:n]
		ids = ids[n:]
		args := make([]any, 0, 5*n)
		for _, id := range part {
			p := pages[id]
			anc := p.Ancestors
			if anc == nil {
				anc = []string{}
			}
			a, _ := json.Marshal(anc)
			args = append(args, spaceID, id, p.Title, p.Path, string(a))
		}
		values := strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?), ", n), ", ")
		err := s.exec(ctx, tx, "INSERT INTO search_pages (space_id, page_id, title, path, ancestors) VALUES "+values+
			" ON CONFLICT (space_id, page_id) DO UPDATE SET title = excluded.title, path = excluded.path, ancestors = excluded.ancestors", args...)
		if err != nil {
			return err
		}
	}
	return nil
}

// ftsFromRows fills the full-text tables from the rows of search_sections
// a WHERE clause on x selects (SQLite): search_fts holds the page rows'
// titles, headings and text, search_fts_sections the section rows'
// headings and text.
var ftsFromRows = []string{
	"INSERT INTO search_fts (rowid, title, headings, body) SELECT x.id, x.title, x.headings, x.body FROM search_sections x WHERE x.section = 0 AND ",
	"INSERT INTO search_fts_sections (rowid, heading, body) SELECT x.id, x.title, x.body FROM search_sections x WHERE x.section > 0 AND ",
}

// insertRows writes rows and their text vectors (PostgreSQL) or full-text
// rows (SQLite, copied from the rows just written of pages).
func (s *Service) insertRows(ctx context.Context, tx *ent.Tx, spaceID, config string, rows []row, pages []string) error {
	cols := "space_id, page_id, section, chunk, anchor, title, headings, body"
	per := "(?, ?, ?, ?, ?, ?, ?, ?)"
	if s.postgres() {
		// tsv: the title weighted A, headings B, text D; head, on page
		// rows only, the title and headings alone.
		cols += ", tsv, head"
		per = "(?, ?, ?, ?, ?, ?, ?, ?, setweight(to_tsvector(CAST(? AS regconfig), ?), 'A') || " +
			"setweight(to_tsvector(CAST(? AS regconfig), ?), 'B') || setweight(to_tsvector(CAST(? AS regconfig), ?), 'D'), " +
			"CASE WHEN ? THEN setweight(to_tsvector(CAST(? AS regconfig), ?), 'A') || setweight(to_tsvector(CAST(? AS regconfig), ?), 'B') END)"
	}
	for len(rows) > 0 {
		n := min(len(rows), batch)
		part := rows[:n]
		rows = rows[n:]
		var args []any
		for _, r := range part {
			args = append(args, spaceID, r.page, r.section, r.chunk, r.anchor, r.title, r.headings, r.body)
			if s.postgres() {
				title, heads := r.title, r.headings
				if r.section > 0 {
					title, heads = "", r.title
				}
				args = append(args, config, title, config, heads, config, r.body, r.section == 0, config, title, config, heads)
			}
		}
		values := strings.TrimSuffix(strings.Repeat(per+", ", n), ", ")
		if err := s.exec(ctx, tx, "INSERT INTO search_sections ("+cols+") VALUES "+values, args...); err != nil {
			return err
		}
	}
	if s.postgres() {
		return nil
	}
	return inChunks(pages, func(part []string) error {
		for _, q := range ftsFromRows {
			err := s.exec(ctx, tx, q+"x.space_id = ? AND x.page_id IN ("+placeholders(len(part))+")", append([]any{spaceID}, anys(part)...)...)
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// Purge removes the whole index of a space, in tx.
func (s *Service) Purge(ctx context.Context, tx *ent.Tx, spaceID string) error {
	if !s.postgres() {
		for _, fts := range []string{"search_fts", "search_fts_sections"} {
			if err := s.exec(ctx, tx, "DELETE FROM "+fts+" WHERE rowid IN (SELECT id FROM search_sections WHERE space_id = ?)", spaceID); err != nil {
				return err
			}
		}
	}
	for _, t := range []string{"search_sections", "search_pages", "search_spaces"} {
		if err := s.exec(ctx, tx, "DELETE FROM "+t+" WHERE space_id = ?", spaceID); err != nil {
			return err
		}
	}
	return nil
}

// Copy gives dst, a new space whose first revision (revision) holds the
// current content of src, a copy of src's index, in tx: rows are copied,
// no document is read. It reports false, and copies nothing, when src's
// index does not reflect srcRevision (the catch-up job then builds dst's).
func (s *Service) Copy(ctx context.Context, tx *ent.Tx, src, srcRevision, dst, revision string) (bool, error) {
	st, err := s.state(ctx, tx, src)
	if err != nil || st == nil || st.revision != srcRevision {
		return false, err
	}
	steps := []string{
		"INSERT INTO search_pages (space_id, page_id, title, path, ancestors) SELECT ?, page_id, title, path, ancestors FROM search_pages WHERE space_id = ?",
	}
	if s.postgres() {
		steps = append(steps, "INSERT INTO search_sections (space_id, page_id, section, chunk, anchor, title, headings, body, tsv, head) "+
			"SELECT ?, page_id, section, chunk, anchor, title, headings, body, tsv, head FROM search_sections WHERE space_id = ? ORDER BY id")
	} else {
		steps = append(steps, "INSERT INTO search_sections (space_id, page_id, section, chunk, anchor, title, headings, body) "+
			"SELECT ?, page_id, section, chunk, anchor, title, headings, body FROM search_sections WHERE space_id = ? ORDER BY id")
	}
	for _, q := range steps {
		if err := s.exec(ctx, tx, q, dst, src); err != nil {
			return false, err
		}
	}
	if !s.postgres() {
		for _, q := range ftsFromRows {
			if err := s.exec(ctx, tx, q+"x.space_id = ?", dst); err != nil {
				return false, err
			}
		}
	}
	var lang any
	if st.language != nil {
		lang = *st.language
	}
	err = s.exec(ctx, tx, "INSERT INTO search_spaces (space_id, revision_id, config, language) VALUES (?, ?, ?, ?)", dst, revision, st.config, lang)
	return err == nil, err
}

// Stale lists up to limit spaces whose index does not reflect their
// current revision (or, on PostgreSQL, their language), or that have none:
// what the catch-up job rebuilds.
func (s *Service) Stale(ctx context.Context, limit int) ([]string, error) {
	differs := "0" // SQLite indexes every language alike
	if s.postgres() {
		differs = "x.language IS DISTINCT FROM s.language"
	}
	rows, err := s.Client.QueryContext(ctx, s.bind(`SELECT s.id FROM spaces s LEFT JOIN search_spaces x ON x.space_id = s.id
WHERE s.revision_id <> '' AND (x.space_id IS NULL OR x.revision_id <> s.revision_id OR `+differs+`)
ORDER BY s.id LIMIT ?`), limit)
	if err != nil {
		return nil, fmt.Errorf("find spaces to index: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

func uniq(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}
