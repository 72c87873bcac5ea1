// Package search is Quire's full-text search over the current content of
// spaces: page titles and page sections (the text under each heading).
//
// # The index
//
// Three tables, written by hand in the migrations because ent models
// neither text vectors nor virtual tables, hold it:
//
//   - search_spaces: per space, the revision the index reflects, and the
//     language (and, on PostgreSQL, the text search configuration) it was
//     built with;
//   - search_pages: per indexed page, what results show of it (title, path,
//     ancestors' titles);
//   - search_sections: per page, a row for the page itself (title and
//     description) and a row per section (chunks of ChunkBytes for long
//     ones), with the text results show.
//
// On PostgreSQL each section row carries a tsvector (page title weighted A,
// section heading B, the page's title as context C, text D) under a GIN
// index, built with the configuration of the space's language (stemming);
// queries go through websearch_to_tsquery and are ranked with ts_rank. On
// SQLite a contentless FTS5 table (search_fts, Porter stemming over
// unicode61) indexes the same columns by the section row's id, ranked with
// bm25.
//
// The content engine keeps the index in step with every change of a
// space's current revision, in the transaction that makes it (Apply):
// only the pages whose content, title or description changed are
// re-indexed, and pages that only moved get their path rewritten. A space
// whose index does not reflect the revision a change starts from (a space
// from before search existed, or one whose language changed) is left for
// the catch-up job (Stale, then Apply with Rebuild), which rebuilds it.
package search

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"entgo.io/ent/dialect"

	"quire/ent"
	"quire/internal/types"
)

// Limits.
const (
	// MaxQuery is the longest query, in characters.
	MaxQuery = 512
	// MaxRanked bounds the pages each tier of a query ranks (see rank).
	MaxRanked = 500
	// MaxResults bounds the pages (space search) or spaces (organization
	// search) a query returns, best first.
	MaxResults = 1000
	// MaxSectionsPerPage bounds the sections listed under a page.
	MaxSectionsPerPage = 5
	// MaxPagesPerSpace bounds the pages listed under a space in an
	// organization search.
	MaxPagesPerSpace = 20
	// ExcerptChars is the longest section body a result shows, in
	// characters: the text around the first word of the query it holds.
	ExcerptChars = 500
	// batch bounds the rows of one INSERT and the ids of one IN list.
	batch = 500
)

// Spaces is what the search engine asks of the catalog, which decides who
// may see a space.
type Spaces interface {
	// Space returns a space the caller may see (deleted ones included)
	// with the caller's level on it.
	// Errors: NotFound when the caller may not see it.
	Space(ctx context.Context, id string) (*ent.Space, types.Role, error)
	// Spaces lists the live spaces of an organization the caller may see.
	// Errors: NotFound (organization).
	Spaces(ctx context.Context, orgID string) ([]*ent.Space, error)
}

// Service is the search engine.
type Service struct {
	Client  *ent.Client
	Dialect string
	Spaces  Spaces
	// Computed computes computed pages, indexed with what they generate
	// (nil: with their title and description only).
	Computed ComputedPages
}

// New returns the search engine over client, of the given ent dialect.
func New(client *ent.Client, dialectName string, spaces Spaces) *Service {
	return &Service{Client: client, Dialect: dialectName, Spaces: spaces}
}

func (s *Service) postgres() bool { return s.Dialect == dialect.Postgres }

// querier is what the index's statements run on: a client, or the
// transaction of a write.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// bind rewrites ? placeholders as $1, $2, ... on PostgreSQL. Statements of
// this package hold no ? other than placeholders.
func (s *Service) bind(q string) string {
	if !s.postgres() {
		return q
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

// placeholders is "?, ?, ..." for n values.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

func (s *Service) exec(ctx context.Context, q querier, query string, args ...any) error {
	if _, err := q.ExecContext(ctx, s.bind(query), args...); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	return nil
}

// inChunks calls fn with slices of at most batch ids.
func inChunks(ids []string, fn func(part []string) error) error {
	for len(ids) > 0 {
		n := min(len(ids), batch)
		if err := fn(ids[:n]); err != nil {
			return err
		}
		ids = ids[n:]
	}
	return nil
}

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
