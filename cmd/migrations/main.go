// Command migrations writes Quire's next schema migration from ent/schema,
// for SQLite and for PostgreSQL at once (make migration NAME=...):
//
//	go run ./cmd/migrations -name add_something [-dir internal/db/migrations]
//	go run ./cmd/migrations -hash [-dir internal/db/migrations]
//
// Each database's directory is replayed on an empty database of its own
// kind (an in-memory SQLite, and a throwaway PostgreSQL cluster started the
// way the tests start theirs), and the difference between what the files
// build and what ent/schema describes becomes VERSION_NAME.sql, with the
// same version in both directories, and a new atlas.sum. Nothing is
// written when there is no difference, or when either database fails.
//
// -hash rewrites each directory's atlas.sum from its files, after a new,
// not yet released migration was edited by hand (a data step added, say).
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"time"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"
	_ "github.com/lib/pq"  // PostgreSQL driver.
	_ "modernc.org/sqlite" // Pure Go SQLite driver.

	"quire/internal/db/migrations"
	"quire/internal/testing/testdb"
)

// validName is what a migration's name may be: it becomes part of a file
// name and of the description recorded in the database.
var validName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,62}$`)

func main() {
	name := flag.String("name", "", "what the migration does, in snake_case (add_page_comments)")
	hash := flag.Bool("hash", false, "rewrite atlas.sum from the files instead of writing a migration")
	root := flag.String("dir", "internal/db/migrations", "the directory holding one migration directory per database")
	flag.Parse()
	if (*hash == validName.MatchString(*name)) || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: go run ./cmd/migrations -name NAME [-dir DIR]\n       go run ./cmd/migrations -hash [-dir DIR]\nNAME: lower-case letters, digits and underscores, starting with a letter")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	run := func() error { return generate(ctx, *root, *name) }
	if *hash {
		run = func() error { return rehash(*root) }
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "migrations:", err)
		os.Exit(1)
	}
}

// rehash rewrites the atlas.sum of each database's directory.
func rehash(root string) error {
	for _, d := range migrations.Dialects {
		sub, err := migrations.DirName(d)
		if err != nil {
			return err
		}
		dir, err := migrate.NewLocalDir(filepath.Join(root, sub))
		if err != nil {
			return err
		}
		sum, err := dir.Checksum()
		if err != nil {
			return fmt.Errorf("%s: %w", dir.Path(), err)
		}
		if err := migrate.WriteSumFile(dir, sum); err != nil {
			return fmt.Errorf("%s: %w", dir.Path(), err)
		}
		fmt.Println(filepath.Join(dir.Path(), migrate.HashFileName))
	}
	return nil
}

// target is one database's migration directory: on disk, and the copy in
// memory that Generate writes to.
type target struct {
	dialect string
	path    string
	mem     *migrate.MemDir
	file    string // the new migration, if any
}

// generate writes the migration NAME for every database.
func generate(ctx context.Context, root, name string) error {
	var targets []*target
	var dirs []migrate.Dir
	for _, d := range migrations.Dialects {
		sub, err := migrations.DirName(d)
		if err != nil {
			return err
		}
		path := filepath.Join(root, sub)
		if err := os.MkdirAll(path, 0o755); err != nil {
			return err
		}
		mem, err := migrations.FromFS(os.DirFS(path))
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := migrate.Validate(mem); err != nil {
			return fmt.Errorf("%s: the files do not match atlas.sum (was a migration edited by hand?): %w", path, err)
		}
		targets = append(targets, &target{dialect: d, path: path, mem: mem})
		dirs = append(dirs, mem)
	}
	version, err := migrations.NextVersion(time.Now(), dirs...)
	if err != nil {
		return err
	}

	for _, t := range targets {
		dev, done, err := devDatabase(t.dialect)
		if err != nil {
			return err
		}
		t.file, err = migrations.Generate(ctx, dev, t.dialect, t.mem, version, name)
		done()
		if err != nil {
			return err
		}
	}

	wrote := false
	for _, t := range targets {
		if t.file == "" {
			fmt.Fprintf(os.Stderr, "%s: already matches ent/schema\n", t.path)
			continue
		}
		for _, n := range []string{t.file, migrate.HashFileName} {
			b, err := fs.ReadFile(t.mem, n)
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(t.path, n), b, 0o644); err != nil {
				return err
			}
		}
		fmt.Println(filepath.Join(t.path, t.file))
		wrote = true
	}
	if !wrote {
		fmt.Fprintln(os.Stderr, "no schema change: nothing written")
	}
	return nil
}

// devDatabase returns an empty database of an ent dialect to replay
// migrations on, and a function that disposes of it.
func devDatabase(d string) (*sql.DB, func(), error) {
	switch d {
	case dialect.SQLite:
		// One connection: each connection to ":memory:" is a database of
		// its own. Ent requires foreign keys on.
		db, err := sql.Open("sqlite", "file::memory:?_pragma=foreign_keys(1)")
		if err != nil {
			return nil, nil, err
		}
		db.SetMaxOpenConns(1)
		return db, func() { db.Close() }, nil
	case dialect.Postgres:
		srv, err := testdb.Start()
		if err != nil {
			return nil, nil, fmt.Errorf("a throwaway PostgreSQL to replay the postgres migrations on (needs initdb and postgres, as for make test): %w", err)
		}
		db, err := sql.Open("postgres", srv.URL())
		if err != nil {
			srv.Close()
			return nil, nil, err
		}
		return db, func() { db.Close(); srv.Close() }, nil
	}
	return nil, nil, fmt.Errorf("no development database for dialect %q", d)
}
