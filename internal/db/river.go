package db

import (
	"context"
	"database/sql"
	"fmt"

	"entgo.io/ent/dialect"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
)

// JobsDriver is the River driver over this database's pool: the job queue
// lives in the same database as everything else, so that a job can be
// inserted in the transaction of the write that asks for it.
func (d *DB) JobsDriver() riverdriver.Driver[*sql.Tx] {
	if d.Dialect == dialect.SQLite {
		return riversqlite.New(d.SQL)
	}
	return riverdatabasesql.New(d.SQL)
}

// migrateJobs brings the job queue's tables (River's own, versioned by
// River) up to date on c, after Quire's migrations and while their lock is
// still held, so that replicas starting together do not run them twice.
// Each of River's migrations runs in a transaction of its own: a later one
// may use an enum value an earlier one added, which PostgreSQL allows only
// once that one has committed.
func (d *DB) migrateJobs(ctx context.Context, c *sql.Conn) (applied []int, version int, err error) {
	m, err := rivermigrate.New(d.JobsDriver(), nil)
	if err != nil {
		return nil, 0, fmt.Errorf("job queue migrations: %w", err)
	}
	for {
		n, err := d.migrateJobsStep(ctx, c, m)
		if err != nil {
			return applied, 0, fmt.Errorf("job queue migrations: %w", err)
		}
		if n == 0 {
			break
		}
		applied = append(applied, n)
	}
	all := m.AllVersions()
	return applied, all[len(all)-1].Version, nil
}

// migrateJobsStep applies the next of River's migrations that the
// database lacks, returning its version, or 0 when there is none.
func (d *DB) migrateJobsStep(ctx context.Context, c *sql.Conn, m *rivermigrate.Migrator[*sql.Tx]) (int, error) {
	tx, err := c.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	// One step per transaction, on the connection that holds the
	// migration lock: River's Migrate would take connections of its own.
	//lint:ignore SA1019 one step per transaction avoids the batching that the deprecation warns of, and keeps to the locked connection
	res, err := m.MigrateTx(ctx, tx, rivermigrate.DirectionUp, &rivermigrate.MigrateOpts{MaxSteps: 1})
	if err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	if len(res.Versions) == 0 {
		return 0, nil
	}
	return res.Versions[0].Version, nil
}
