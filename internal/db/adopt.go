package db

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"
	"ariga.io/atlas/sql/sqlite"
	"entgo.io/ent/dialect"
)

// baselineScratchSchema is the PostgreSQL schema that the baseline is
// replayed into, inside a transaction that is always rolled back.
const baselineScratchSchema = "quire_baseline_check"

// adoptable reports whether a database without revisions was created by
// Quire before versioned migrations, whose auto-migration built the same
// schema as the baseline: it has the baseline's tables. The baseline is then
// recorded rather than run. Those tables must be exactly the baseline's
// (columns, indexes, foreign keys): anything else is an error that lists the
// differences, because every later migration assumes the baseline.
// Tables that are not the baseline's (another application's) are ignored,
// as the auto-migration ignored them.
func (d *DB) adoptable(ctx context.Context, c *sql.Conn, baseline *migration) (bool, error) {
	q := counted{c, d.counter}
	if n, err := d.countTables(ctx, q); err != nil || n == 0 {
		return false, err
	}
	want, err := d.baselineSchema(ctx, c, baseline)
	if err != nil {
		return false, fmt.Errorf("replay the baseline to compare with the database: %w", err)
	}
	drv, err := atlasOpen(d.Dialect, q)
	if err != nil {
		return false, err
	}
	names := make([]string, len(want.Tables))
	for i, t := range want.Tables {
		names[i] = t.Name
	}
	have, err := drv.InspectSchema(ctx, "", &schema.InspectOptions{Tables: names})
	if err != nil {
		return false, fmt.Errorf("inspect the database: %w", err)
	}
	if len(have.Tables) == 0 {
		return false, nil
	}
	want.Name, want.Attrs = have.Name, have.Attrs
	changes, err := drv.SchemaDiff(have, want)
	if err != nil {
		return false, fmt.Errorf("compare the database with the baseline: %w", err)
	}
	if len(changes) == 0 {
		return true, nil
	}
	plan, err := drv.PlanChanges(ctx, "baseline", changes)
	if err != nil {
		return false, fmt.Errorf("compare the database with the baseline: %w", err)
	}
	stmts := make([]string, len(plan.Changes))
	for i, ch := range plan.Changes {
		stmts[i] = ch.Cmd + ";"
	}
	return false, fmt.Errorf("the database has Quire's tables but no migration recorded in %s, and its schema is not the baseline %s: "+
		"if it was last served by a quire older than the last release without versioned migrations, start that release once (it brings the schema to the baseline), then this one; "+
		"these statements would make it the baseline:\n%s",
		RevisionTable, baseline.file.Name(), strings.Join(stmts, "\n"))
}

// countTables counts the tables of the database's schema other than the
// revision table.
func (d *DB) countTables(ctx context.Context, q execQuerier) (int, error) {
	query := `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' AND name <> ?`
	if d.Dialect == dialect.Postgres {
		query = `SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> ?`
	}
	rows, err := q.QueryContext(ctx, d.bind(query), RevisionTable)
	if err != nil {
		return 0, fmt.Errorf("list tables: %w", err)
	}
	defer rows.Close()
	var n int
	for rows.Next() {
		if err := rows.Scan(&n); err != nil {
			return 0, fmt.Errorf("list tables: %w", err)
		}
	}
	return n, rows.Err()
}

// baselineSchema replays the baseline where it touches nothing (a private
// in-memory SQLite database; on PostgreSQL a scratch schema inside a
// transaction that is rolled back) and returns the schema it builds.
func (d *DB) baselineSchema(ctx context.Context, c *sql.Conn, baseline *migration) (*schema.Schema, error) {
	stmts, err := baseline.file.Stmts()
	if err != nil {
		return nil, fmt.Errorf("split %s: %w", baseline.file.Name(), err)
	}
	var (
		q    execQuerier
		name string
	)
	switch d.Dialect {
	case dialect.SQLite:
		mem, err := sql.Open("sqlite", "file::memory:?_pragma=foreign_keys(1)")
		if err != nil {
			return nil, err
		}
		defer mem.Close()
		mem.SetMaxOpenConns(1) // each connection to :memory: is a database of its own
		q = mem
	case dialect.Postgres:
		tx, err := c.BeginTx(ctx, nil)
		if err != nil {
			return nil, err
		}
		defer tx.Rollback()
		q, name = counted{tx, d.counter}, baselineScratchSchema
		for _, s := range []string{"CREATE SCHEMA " + name, "SET LOCAL search_path TO " + name} {
			if _, err := q.ExecContext(ctx, s); err != nil {
				return nil, err
			}
		}
	default:
		return nil, fmt.Errorf("dialect %q", d.Dialect)
	}
	for _, s := range stmts {
		if _, err := q.ExecContext(ctx, s); err != nil {
			return nil, fmt.Errorf("%s: %w\n%s", baseline.file.Name(), err, s)
		}
	}
	drv, err := atlasOpen(d.Dialect, q)
	if err != nil {
		return nil, err
	}
	s, err := drv.InspectSchema(ctx, name, nil)
	if err != nil {
		return nil, fmt.Errorf("inspect the baseline: %w", err)
	}
	return s, nil
}

// atlasOpen opens Atlas's driver of the dialect over q.
func atlasOpen(dialectName string, q execQuerier) (migrate.Driver, error) {
	var (
		drv migrate.Driver
		err error
	)
	switch dialectName {
	case dialect.SQLite:
		drv, err = sqlite.Open(q)
	case dialect.Postgres:
		drv, err = postgres.Open(q)
	default:
		err = fmt.Errorf("dialect %q", dialectName)
	}
	if err != nil {
		return nil, fmt.Errorf("open the schema inspector: %w", err)
	}
	return drv, nil
}
