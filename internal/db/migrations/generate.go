package migrations

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"ariga.io/atlas/sql/migrate"
	entsql "entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/schema"

	entmigrate "quire/ent/migrate"
)

// versionLayout is how Atlas writes versions: the UTC time the migration
// was written, so that file names sort in the order the files apply.
const versionLayout = "20060102150405"

// NextVersion returns the version for a migration written at now: now in
// Atlas's layout, or one second after the latest file of dirs when that is
// not earlier (a clock behind, or two migrations within a second), so that
// the new file sorts last in every directory.
func NextVersion(now time.Time, dirs ...migrate.Dir) (string, error) {
	next := now.UTC().Truncate(time.Second)
	for _, dir := range dirs {
		files, err := dir.Files()
		if err != nil {
			return "", fmt.Errorf("read migration directory: %w", err)
		}
		for _, f := range files {
			t, err := time.Parse(versionLayout, f.Version())
			if err != nil {
				return "", fmt.Errorf("migration %s: version %q is not of the form %s", f.Name(), f.Version(), versionLayout)
			}
			if !t.Before(next) {
				next = t.Add(time.Second)
			}
		}
	}
	return next.Format(versionLayout), nil
}

// Generate writes the next migration of one database into dir: the
// statements that take a database migrated by dir's files to the schema
// that ent/schema describes, in the file VERSION_NAME.sql, and rewrites
// atlas.sum. dev is an empty database of that dialect (ent's dialect name)
// on which the directory is replayed; its tables are dropped afterwards.
// Generate returns the new file's name, or "" when dir already describes
// ent/schema, in which case nothing is written.
//
// Drops of columns and indexes are written too: a migration file is
// reviewed before it is committed, and the directory must describe the
// schema exactly for Drift to hold.
func Generate(ctx context.Context, dev *sql.DB, dialectName string, dir migrate.Dir, version, name string) (string, error) {
	if err := migrate.CheckVersion(version); err != nil {
		return "", err
	}
	files, err := dir.Files()
	if err != nil {
		return "", fmt.Errorf("read migration directory: %w", err)
	}
	if n := len(files); n > 0 && files[n-1].Version() >= version {
		return "", fmt.Errorf("version %s does not come after the latest migration, %s", version, files[n-1].Name())
	}
	m, err := schema.NewMigrate(entsql.OpenDB(dialectName, dev),
		schema.WithDir(dir),
		schema.WithMigrationMode(schema.ModeReplay),
		schema.WithFormatter(versionFormatter(version)),
		schema.WithDropColumn(true),
		schema.WithDropIndex(true),
		schema.WithErrNoPlan(true),
	)
	if err != nil {
		return "", fmt.Errorf("%s migrations: %w", dialectName, err)
	}
	switch err := m.NamedDiff(ctx, name, entmigrate.Tables...); {
	case errors.Is(err, migrate.ErrNoPlan):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("diff the %s migrations against ent/schema: %w", dialectName, err)
	}
	return version + "_" + name + ".sql", nil
}

// Drift returns the statements that would take the database behind db, of
// ent's dialect dialectName, to the tables of ent/schema, as ent's own
// migration engine computes them (drops of columns and indexes included),
// or "" when the database matches ent/schema. Applied to a database that
// the migration files have just created, it tells whether the files are in
// sync with ent/schema.
func Drift(ctx context.Context, db *sql.DB, dialectName string) (string, error) {
	dir := &migrate.MemDir{}
	m, err := schema.NewMigrate(entsql.OpenDB(dialectName, db),
		schema.WithDir(dir),
		schema.WithMigrationMode(schema.ModeInspect),
		schema.WithFormatter(migrate.DefaultFormatter),
		schema.WithDropColumn(true),
		schema.WithDropIndex(true),
		schema.WithErrNoPlan(true),
	)
	if err != nil {
		return "", fmt.Errorf("%s drift: %w", dialectName, err)
	}
	switch err := m.NamedDiff(ctx, "drift", entmigrate.Tables...); {
	case errors.Is(err, migrate.ErrNoPlan):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("diff the %s database against ent/schema: %w", dialectName, err)
	}
	files, err := dir.Files()
	if err != nil || len(files) != 1 {
		return "", fmt.Errorf("%s drift: %d files written, want 1 (%v)", dialectName, len(files), err)
	}
	return string(files[0].Bytes()), nil
}

// versionFormatter writes Atlas's default file format with a version
// chosen once, so that one run writes the same version for every database.
type versionFormatter string

func (v versionFormatter) Format(p *migrate.Plan) ([]migrate.File, error) {
	p.Version = string(v)
	return migrate.DefaultFormatter.Format(p)
}
