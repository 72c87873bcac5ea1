package db

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"

	"quire/internal/db/migrations"
)

// RevisionTable records which migrations a database has: one row per
// migration file, written in the same transaction as the file's statements.
const RevisionTable = "quire_schema_revisions"

// migrateLockKey is the PostgreSQL advisory lock Migrate holds, so that
// replicas starting together migrate one after the other: the later ones
// find nothing left to do.
const migrateLockKey = 7421001

// Kinds of revision.
const (
	// KindApplied marks a migration whose statements ran.
	KindApplied = "applied"
	// KindBaseline marks the baseline of a database created by Quire
	// before versioned migrations: it already had the baseline's schema, so
	// the baseline was recorded without running it.
	KindBaseline = "baseline"
)

// Revision is one row of the revision table.
type Revision struct {
	Version     string `json:"version"`
	Description string `json:"description"`
	Kind        string `json:"kind"`
	// Checksum is the SHA-256 of the migration file (sha256sum's hex).
	Checksum   string    `json:"checksum"`
	AppliedAt  time.Time `json:"applied_at"`
	DurationMS int64     `json:"duration_ms"`
}

// Migrated tells what MigrateReport did.
type Migrated struct {
	// Version is the database's latest migration afterwards.
	Version string
	// Applied lists the migrations whose statements ran, in order.
	Applied []string
	// Baseline is the baseline's version when it was recorded without
	// running it (a database created before versioned migrations).
	Baseline string
	// JobsVersion is the job queue's schema version afterwards (River's
	// own migrations), and JobsApplied those of its migrations that ran.
	JobsVersion int
	JobsApplied []int
}

// NewerDatabaseError is what Migrate returns for a database that has a
// migration after the latest one this binary has: a newer Quire migrated
// it, and this one does not know its schema.
type NewerDatabaseError struct {
	Database string // the database's latest migration
	Binary   string // this binary's latest migration
}

func (e *NewerDatabaseError) Error() string {
	return fmt.Sprintf("the database schema is at version %s, newer than this quire binary, whose latest migration is %s: "+
		"a newer quire migrated it; upgrade quire to a release that has migration %s (or later) instead of running this one",
		e.Database, e.Binary, e.Database)
}

// Migrate brings the schema up to date: it applies, in order, the
// migration files embedded in the binary that the database does not have,
// each in a transaction with its row in the revision table. On PostgreSQL
// an advisory lock keeps replicas that start together from migrating at the
// same time. A database created before versioned migrations (Quire's
// tables, no revisions) gets the baseline recorded without running it once
// its schema is checked to be the baseline's. A database migrated by a newer
// Quire is left alone with a *NewerDatabaseError.
func (d *DB) Migrate(ctx context.Context) error {
	_, err := d.MigrateReport(ctx)
	return err
}

// MigrateReport is Migrate, telling what it did.
func (d *DB) MigrateReport(ctx context.Context) (Migrated, error) {
	dir, err := migrations.Dir(d.Dialect)
	if err != nil {
		return Migrated{}, fmt.Errorf("migrate: %w", err)
	}
	res, err := d.MigrateDir(ctx, dir)
	if err != nil {
		return res, fmt.Errorf("migrate: %w", err)
	}
	return res, nil
}

// migration is one file of a migration directory.
type migration struct {
	file        migrate.File
	version     string
	description string
	checksum    string
}

// loadMigrations checks dir against its atlas.sum and returns its files in
// order.
func loadMigrations(dir migrate.Dir) ([]*migration, error) {
	if err := migrate.Validate(dir); err != nil {
		var cerr *migrate.ChecksumError
		if errors.As(err, &cerr) {
			return nil, fmt.Errorf("the migration files do not match atlas.sum (file %s %s): %w", cerr.File, cerr.Reason, err)
		}
		return nil, fmt.Errorf("the migration files do not match atlas.sum: %w", err)
	}
	files, err := dir.Files()
	if err != nil {
		return nil, fmt.Errorf("read migration files: %w", err)
	}
	if len(files) == 0 {
		return nil, errors.New("no migration files")
	}
	ms := make([]*migration, len(files))
	for i, f := range files {
		if err := migrate.CheckVersion(f.Version()); err != nil {
			return nil, fmt.Errorf("migration file %s: %w", f.Name(), err)
		}
		if i > 0 && f.Version() == ms[i-1].version {
			return nil, fmt.Errorf("migration files %s and %s have the same version", ms[i-1].file.Name(), f.Name())
		}
		sum := sha256.Sum256(f.Bytes())
		ms[i] = &migration{file: f, version: f.Version(), description: f.Desc(), checksum: hex.EncodeToString(sum[:])}
	}
	return ms, nil
}

// migrationConn is the one connection a migration runs on. On PostgreSQL
// it is a session of its own, opened without the serving sessions'
// statement_timeout (Options.StatementTimeout): lifting that timeout by SET
// is itself a statement it bounds, and a short one would cancel it.
func (d *DB) migrationConn(ctx context.Context) (c *sql.Conn, release func(), err error) {
	if d.Dialect != dialect.Postgres {
		c, err = d.SQL.Conn(ctx)
		if err != nil {
			return nil, nil, err
		}
		return c, func() { c.Close() }, nil
	}
	own, err := sql.Open("postgres", sessionUTC(d.url))
	if err != nil {
		return nil, nil, err
	}
	own.SetMaxOpenConns(1)
	if c, err = own.Conn(ctx); err != nil {
		own.Close()
		return nil, nil, err
	}
	return c, func() { c.Close(); own.Close() }, nil
}

// MigrateDir applies the files of dir that the database does not have:
// Migrate with the committed migrations, or another directory of files in
// the same format (an upgrade path under test).
func (d *DB) MigrateDir(ctx context.Context, dir migrate.Dir) (res Migrated, err error) {
	ms, err := loadMigrations(dir)
	if err != nil {
		return res, err
	}
	// Everything runs on one connection: the one holding the advisory lock
	// on PostgreSQL, and on SQLite the one whose foreign keys are off while
	// a file runs.
	c, release, err := d.migrationConn(ctx)
	if err != nil {
		return res, err
	}
	defer release()
	q := counted{c, d.counter}
	if d.Dialect == dialect.Postgres {
		// A migration may rewrite a large table, and waiting for the lock
		// held by another replica may take as long: neither is bounded by
		// a statement_timeout the database URL itself may set.
		if _, err := q.ExecContext(ctx, "SET statement_timeout = 0"); err != nil {
			return res, fmt.Errorf("lift statement_timeout: %w", err)
		}
		if _, err := q.ExecContext(ctx, "SELECT pg_advisory_lock($1)", migrateLockKey); err != nil {
			return res, fmt.Errorf("lock: %w", err)
		}
		defer q.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrateLockKey)
	}
	defer func() {
		if d.counter.stmts != nil {
			// Statements prepared before the change may describe old tables.
			d.counter.stmts.reset()
		}
	}()

	if _, err := q.ExecContext(ctx, d.revisionTableDDL()); err != nil {
		return res, fmt.Errorf("create %s: %w", RevisionTable, err)
	}
	revs, err := d.readRevisions(ctx, q)
	if err != nil {
		return res, err
	}
	pending, err := pendingMigrations(ms, revs)
	if err != nil {
		return res, err
	}
	if len(revs) == 0 {
		adopt, err := d.adoptable(ctx, c, ms[0])
		if err != nil {
			return res, err
		}
		if adopt {
			recorded, err := d.recordBaseline(ctx, c, ms[0])
			if err != nil {
				return res, err
			}
			if recorded {
				res.Baseline = ms[0].version
			}
			pending = pending[1:]
		}
	}
	for _, m := range pending {
		ran, err := d.apply(ctx, c, m)
		if err != nil {
			return res, err
		}
		if ran {
			res.Applied = append(res.Applied, m.version)
		}
	}
	res.Version = ms[len(ms)-1].version
	if res.JobsApplied, res.JobsVersion, err = d.migrateJobs(ctx, c); err != nil {
		return res, err
	}
	return res, nil
}

// pendingMigrations returns the migrations of ms that revs (sorted by
// version) does not have, after checking that revs is a history this
// binary can continue: no migration it does not know, none changed since it
// was applied, none left behind a later one.
func pendingMigrations(ms []*migration, revs []Revision) ([]*migration, error) {
	byVersion := make(map[string]*migration, len(ms))
	for _, m := range ms {
		byVersion[m.version] = m
	}
	latest := ms[len(ms)-1].version
	var unknown []string
	for _, r := range revs {
		if byVersion[r.Version] == nil {
			unknown = append(unknown, r.Version)
		}
	}
	if n := len(unknown); n > 0 {
		if unknown[n-1] > latest {
			return nil, &NewerDatabaseError{Database: unknown[n-1], Binary: latest}
		}
		return nil, fmt.Errorf("the database has migration %s, which this quire binary does not have (its migrations go up to %s): a different build of quire migrated it", unknown[0], latest)
	}
	applied := make(map[string]bool, len(revs))
	for _, r := range revs {
		m := byVersion[r.Version]
		if r.Checksum != m.checksum {
			return nil, fmt.Errorf("migration %s was applied with checksum %s, but this quire binary's file %s has checksum %s: a released migration must never change",
				r.Version, r.Checksum, m.file.Name(), m.checksum)
		}
		applied[r.Version] = true
	}
	var pending []*migration
	for _, m := range ms {
		if applied[m.version] {
			continue
		}
		if n := len(revs); n > 0 && m.version < revs[n-1].Version {
			return nil, fmt.Errorf("migration %s was never applied, but the database already has the later migration %s: a new migration must come after every released one",
				m.file.Name(), revs[n-1].Version)
		}
		pending = append(pending, m)
	}
	return pending, nil
}

// apply runs one migration file and records it, in one transaction, and
// reports whether it ran: it does not when another process applied it in
// the meantime (SQLite has no advisory lock; its write lock, taken when the
// transaction begins, orders the two).
func (d *DB) apply(ctx context.Context, c *sql.Conn, m *migration) (ran bool, err error) {
	stmts, err := m.file.StmtDecls()
	if err != nil {
		return false, fmt.Errorf("migration %s: split statements: %w", m.file.Name(), err)
	}
	if d.Dialect == dialect.SQLite {
		// SQLite changes a table by copying it into a new one and dropping
		// the old: with foreign keys on, the drop would delete or refuse the
		// rows that refer to it. Foreign keys can only be turned off outside
		// a transaction (Atlas writes the pragma into the file, where it
		// does nothing), so they are off for the file, and checked at its end.
		if err := d.sqliteForeignKeys(ctx, c, false); err != nil {
			return false, err
		}
		defer func() {
			if ferr := d.sqliteForeignKeys(context.WithoutCancel(ctx), c, true); ferr != nil {
				// The connection must not go back to the pool without
				// foreign keys: discard it.
				c.Raw(func(any) error { return driver.ErrBadConn })
				err = errors.Join(err, ferr)
			}
		}()
	}
	tx, err := c.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("migration %s: begin: %w", m.file.Name(), err)
	}
	defer tx.Rollback() // after Commit, does nothing
	q := counted{tx, d.counter}
	switch done, err := d.hasRevision(ctx, q, m.version); {
	case err != nil:
		return false, err
	case done:
		return false, nil
	}
	start := time.Now()
	for i, s := range stmts {
		if _, err := q.ExecContext(ctx, s.Text); err != nil {
			line := 1 + bytes.Count(m.file.Bytes()[:min(s.Pos, len(m.file.Bytes()))], []byte("\n"))
			return false, fmt.Errorf("migration %s, statement %d of %d (line %d), rolled back: %w\n%s",
				m.file.Name(), i+1, len(stmts), line, err, s.Text)
		}
	}
	if d.Dialect == dialect.SQLite {
		if err := sqliteForeignKeyCheck(ctx, q); err != nil {
			return false, fmt.Errorf("migration %s, rolled back: %w", m.file.Name(), err)
		}
	}
	r := Revision{Version: m.version, Description: m.description, Kind: KindApplied, Checksum: m.checksum,
		AppliedAt: start.UTC(), DurationMS: time.Since(start).Milliseconds()}
	if err := d.insertRevision(ctx, q, r); err != nil {
		return false, fmt.Errorf("migration %s: %w", m.file.Name(), err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("migration %s: commit: %w", m.file.Name(), err)
	}
	return true, nil
}

// sqliteForeignKeys turns foreign key enforcement on or off on c.
func (d *DB) sqliteForeignKeys(ctx context.Context, c *sql.Conn, on bool) error {
	q := "PRAGMA foreign_keys = off"
	if on {
		q = "PRAGMA foreign_keys = on"
	}
	if _, err := (counted{c, d.counter}).ExecContext(ctx, q); err != nil {
		return fmt.Errorf("%s: %w", q, err)
	}
	return nil
}

// sqliteForeignKeyCheck fails when a row refers to a row that does not
// exist, which foreign keys off let a migration leave behind.
func sqliteForeignKeyCheck(ctx context.Context, q execQuerier) error {
	rows, err := q.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return fmt.Errorf("foreign key check: %w", err)
	}
	defer rows.Close()
	var bad []string
	for rows.Next() {
		var (
			table, parent string
			rowid         sql.NullInt64
			fk            int
		)
		if err := rows.Scan(&table, &rowid, &parent, &fk); err != nil {
			return fmt.Errorf("foreign key check: %w", err)
		}
		if len(bad) < 10 {
			bad = append(bad, fmt.Sprintf("%s row %d → %s", table, rowid.Int64, parent))
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("foreign key check: %w", err)
	}
	if len(bad) > 0 {
		return fmt.Errorf("rows refer to rows that do not exist: %s", strings.Join(bad, ", "))
	}
	return nil
}

// recordBaseline records the baseline as present without running it, and
// reports whether it did (another process may have recorded it first).
func (d *DB) recordBaseline(ctx context.Context, c *sql.Conn, m *migration) (bool, error) {
	tx, err := c.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("record baseline: %w", err)
	}
	defer tx.Rollback()
	q := counted{tx, d.counter}
	revs, err := d.readRevisions(ctx, q)
	if err != nil {
		return false, err
	}
	if len(revs) > 0 {
		return false, nil
	}
	r := Revision{Version: m.version, Description: m.description, Kind: KindBaseline, Checksum: m.checksum, AppliedAt: time.Now().UTC()}
	if err := d.insertRevision(ctx, q, r); err != nil {
		return false, fmt.Errorf("record baseline: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("record baseline: %w", err)
	}
	return true, nil
}
