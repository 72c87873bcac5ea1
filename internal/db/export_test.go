package db

import (
	"context"

	"ariga.io/atlas/sql/migrate"
)

// MigrateDir is Migrate with another migration directory, for tests of
// upgrades beyond the committed migrations.
func (d *DB) MigrateDir(ctx context.Context, dir migrate.Dir) (Migrated, error) {
	return d.migrateDir(ctx, dir)
}
