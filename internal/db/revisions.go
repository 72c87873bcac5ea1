package db

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"entgo.io/ent/dialect"
)

// execQuerier is what the migration code sends statements through: a
// connection or a transaction (and what Atlas's drivers read from).
type execQuerier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// counted counts the statements it sends as ent's driver does, so that the
// statement counter (and quire_db_statements_total) sees migrations too.
type counted struct {
	q execQuerier
	d *countingDriver
}

func (c counted) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	defer c.d.count()()
	return c.q.ExecContext(ctx, query, args...)
}

func (c counted) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	defer c.d.count()()
	return c.q.QueryContext(ctx, query, args...)
}

// revisionTableDDL creates the revision table when it does not exist.
func (d *DB) revisionTableDDL() string {
	if d.Dialect == dialect.Postgres {
		return `CREATE TABLE IF NOT EXISTS ` + RevisionTable + ` (
	version character varying NOT NULL PRIMARY KEY,
	description character varying NOT NULL,
	kind character varying NOT NULL,
	checksum character varying NOT NULL,
	applied_at timestamptz NOT NULL,
	duration_ms bigint NOT NULL
)`
	}
	return "CREATE TABLE IF NOT EXISTS `" + RevisionTable + "` (" + `
	version text NOT NULL PRIMARY KEY,
	description text NOT NULL,
	kind text NOT NULL,
	checksum text NOT NULL,
	applied_at datetime NOT NULL,
	duration_ms integer NOT NULL
)`
}

// bind rewrites the ? placeholders of query for the dialect.
func (d *DB) bind(query string) string {
	if d.Dialect != dialect.Postgres {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// readRevisions returns the revision table's rows by version.
func (d *DB) readRevisions(ctx context.Context, q execQuerier) ([]Revision, error) {
	rows, err := q.QueryContext(ctx, "SELECT version, description, kind, checksum, applied_at, duration_ms FROM "+RevisionTable+" ORDER BY version")
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", RevisionTable, err)
	}
	defer rows.Close()
	var revs []Revision
	for rows.Next() {
		var r Revision
		if err := rows.Scan(&r.Version, &r.Description, &r.Kind, &r.Checksum, &r.AppliedAt, &r.DurationMS); err != nil {
			return nil, fmt.Errorf("read %s: %w", RevisionTable, err)
		}
		r.AppliedAt = r.AppliedAt.UTC()
		revs = append(revs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", RevisionTable, err)
	}
	return revs, nil
}

func (d *DB) hasRevision(ctx context.Context, q execQuerier, version string) (bool, error) {
	rows, err := q.QueryContext(ctx, d.bind("SELECT 1 FROM "+RevisionTable+" WHERE version = ?"), version)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", RevisionTable, err)
	}
	defer rows.Close()
	found := rows.Next()
	return found, rows.Err()
}

func (d *DB) insertRevision(ctx context.Context, q execQuerier, r Revision) error {
	_, err := q.ExecContext(ctx, d.bind("INSERT INTO "+RevisionTable+" (version, description, kind, checksum, applied_at, duration_ms) VALUES (?, ?, ?, ?, ?, ?)"),
		r.Version, r.Description, r.Kind, r.Checksum, r.AppliedAt, r.DurationMS)
	if err != nil {
		return fmt.Errorf("record in %s: %w", RevisionTable, err)
	}
	return nil
}
