// Package migrations holds Quire's versioned schema migrations: one
// directory per database (sqlite, postgres) of Atlas-format files,
// VERSION_NAME.sql, with the directory's atlas.sum, embedded in the
// binary. It also writes the next migration from ent/schema (make
// migration) and measures how far a database is from ent/schema.
package migrations

import (
	"fmt"
	"io/fs"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"
)

// dirNames maps ent's dialect names to the directory of each database.
var dirNames = map[string]string{
	dialect.SQLite:   "sqlite",
	dialect.Postgres: "postgres",
}

// Dialects are the ent dialects that have a migration directory.
var Dialects = []string{dialect.SQLite, dialect.Postgres}

// DirName returns the name of the directory, under internal/db/migrations,
// of an ent dialect.
func DirName(dialectName string) (string, error) {
	name, ok := dirNames[dialectName]
	if !ok {
		return "", fmt.Errorf("no migrations for dialect %q", dialectName)
	}
	return name, nil
}

// FromFS copies the migration files and atlas.sum at the root of fsys into
// a new in-memory directory.
func FromFS(fsys fs.FS) (*migrate.MemDir, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("read migration directory: %w", err)
	}
	dir := &migrate.MemDir{}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, fmt.Errorf("read migration file: %w", err)
		}
		if err := dir.WriteFile(e.Name(), b); err != nil {
			return nil, err
		}
	}
	return dir, nil
}
