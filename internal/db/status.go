package db

import (
	"context"
	"fmt"
	"slices"

	"entgo.io/ent/dialect"

	"quire/internal/db/migrations"
)

// MigrationStatus is the state of a database's schema against the
// migrations of this binary.
type MigrationStatus struct {
	Dialect string `json:"dialect"`
	// Version is the database's latest migration; "" when it has none.
	Version string `json:"version"`
	// Latest is the latest migration this binary has.
	Latest string `json:"latest"`
	// Applied is the revision table, by version.
	Applied []Revision `json:"applied"`
	// Pending lists the migrations Migrate would apply, in order.
	Pending []PendingMigration `json:"pending"`
	// Unknown lists the database's migrations that this binary does not
	// have: a newer quire applied them, and Migrate refuses to run.
	Unknown []string `json:"unknown"`
	// PreVersioning is true for a database that Quire created before
	// versioned migrations (tables, no revisions): Migrate checks that its
	// schema is the baseline's and records the baseline without running it.
	PreVersioning bool `json:"pre_versioning"`
}

// PendingMigration is a migration file the database does not have.
type PendingMigration struct {
	Version     string `json:"version"`
	Description string `json:"description"`
}

// MigrationStatus reads which migrations the database has and which it
// lacks. It changes nothing.
func (d *DB) MigrationStatus(ctx context.Context) (*MigrationStatus, error) {
	dir, err := migrations.Dir(d.Dialect)
	if err != nil {
		return nil, fmt.Errorf("migration status: %w", err)
	}
	ms, err := loadMigrations(dir)
	if err != nil {
		return nil, fmt.Errorf("migration status: %w", err)
	}
	q := counted{d.SQL, d.counter}
	st := &MigrationStatus{
		Dialect: d.Dialect,
		Latest:  ms[len(ms)-1].version,
		Applied: []Revision{},
		Pending: []PendingMigration{},
		Unknown: []string{},
	}
	exists, err := d.hasRevisionTable(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("migration status: %w", err)
	}
	if exists {
		revs, err := d.readRevisions(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("migration status: %w", err)
		}
		st.Applied = append(st.Applied, revs...)
	}
	applied := make(map[string]bool, len(st.Applied))
	for _, r := range st.Applied {
		applied[r.Version] = true
		st.Version = r.Version
	}
	for _, m := range ms {
		if !applied[m.version] {
			st.Pending = append(st.Pending, PendingMigration{Version: m.version, Description: m.description})
		}
	}
	for _, r := range st.Applied {
		if !slices.ContainsFunc(ms, func(m *migration) bool { return m.version == r.Version }) {
			st.Unknown = append(st.Unknown, r.Version)
		}
	}
	if len(st.Applied) == 0 {
		n, err := d.countTables(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("migration status: %w", err)
		}
		st.PreVersioning = n > 0
	}
	return st, nil
}

// hasRevisionTable reports whether the revision table exists.
func (d *DB) hasRevisionTable(ctx context.Context, q execQuerier) (bool, error) {
	query := "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?"
	if d.Dialect == dialect.Postgres {
		query = "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?"
	}
	rows, err := q.QueryContext(ctx, d.bind(query), RevisionTable)
	if err != nil {
		return false, fmt.Errorf("look for %s: %w", RevisionTable, err)
	}
	defer rows.Close()
	var n int
	for rows.Next() {
		if err := rows.Scan(&n); err != nil {
			return false, fmt.Errorf("look for %s: %w", RevisionTable, err)
		}
	}
	return n > 0, rows.Err()
}
