package migrations_test

import (
	"context"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"

	"quire/internal/db"
	"quire/internal/db/migrations"
	"quire/internal/testing/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// forEachDB runs fn on a fresh, empty database of each dialect.
func forEachDB(t *testing.T, fn func(t *testing.T, d *db.DB)) {
	t.Helper()
	for _, b := range []string{"sqlite", "postgres"} {
		t.Run(b, func(t *testing.T) {
			url := "sqlite:" + filepath.Join(t.TempDir(), "quire.db")
			if b == "postgres" {
				url = testdb.NewDatabase(t)
			}
			d, err := db.Open(url, db.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { d.Close() })
			fn(t, d)
		})
	}
}

// devDB returns an empty database of d's dialect to replay migrations on,
// as make migration does.
func devDB(t *testing.T, d *db.DB) *sql.DB {
	t.Helper()
	if d.Dialect == dialect.Postgres {
		dev, err := sql.Open("postgres", testdb.NewDatabase(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { dev.Close() })
		return dev
	}
	dev, err := sql.Open("sqlite", "file::memory:?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	dev.SetMaxOpenConns(1)
	t.Cleanup(func() { dev.Close() })
	return dev
}

func embeddedDir(t *testing.T, dialectName string) *migrate.MemDir {
	t.Helper()
	dir, err := migrations.Dir(dialectName)
	if err != nil {
		t.Fatal(err)
	}
	return dir.(*migrate.MemDir)
}

// The committed directories match their atlas.sum, start with the
// baseline, and every file splits into statements.
func TestDirectoriesVerify(t *testing.T) {
	for _, d := range migrations.Dialects {
		dir := embeddedDir(t, d)
		if err := migrate.Validate(dir); err != nil {
			t.Errorf("%s: %v (edit ent/schema and run make migration; never edit a migration file)", d, err)
		}
		files, err := dir.Files()
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: %d files, %v", d, len(files), err)
		}
		if files[0].Desc() != "baseline" {
			t.Errorf("%s: the first migration is %s, want the baseline", d, files[0].Name())
		}
		for _, f := range files {
			if err := migrate.CheckVersion(f.Version()); err != nil {
				t.Errorf("%s: %s: %v", d, f.Name(), err)
			}
			if stmts, err := f.Stmts(); err != nil || len(stmts) == 0 {
				t.Errorf("%s: %s: %d statements, %v", d, f.Name(), len(stmts), err)
			}
		}
		// A file edited by hand is caught.
		edited := &migrate.MemDir{}
		for _, f := range files {
			b := f.Bytes()
			if f == files[0] {
				b = append([]byte("-- edited\n"), b...)
			}
			edited.WriteFile(f.Name(), b)
		}
		sum, err := fs.ReadFile(dir, migrate.HashFileName)
		if err != nil {
			t.Fatal(err)
		}
		edited.WriteFile(migrate.HashFileName, sum)
		if err := migrate.Validate(edited); err == nil {
			t.Errorf("%s: an edited migration passes atlas.sum", d)
		}
	}
}

// The migration files build exactly what ent/schema describes: a database
// they create has no difference from ent/schema, and make migration would
// write nothing. When this fails, ent/schema changed without a migration:
// run make migration NAME=what_changed and commit the files.
func TestMigrationsMatchEntSchema(t *testing.T) {
	forEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if err := d.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		drift, err := migrations.Drift(ctx, d.SQL, d.Dialect)
		if err != nil {
			t.Fatal(err)
		}
		if drift != "" {
			t.Errorf("a database built by the %s migrations differs from ent/schema; run make migration NAME=... and commit the result. Missing:\n%s", d.Dialect, drift)
		}

		dir := embeddedDir(t, d.Dialect)
		before, _ := dir.Files()
		version, err := migrations.NextVersion(time.Now(), dir)
		if err != nil {
			t.Fatal(err)
		}
		name, err := migrations.Generate(ctx, devDB(t, d), d.Dialect, dir, version, "check")
		if err != nil {
			t.Fatal(err)
		}
		if name != "" {
			b, _ := fs.ReadFile(dir, name)
			t.Errorf("make migration would write %s for %s; run it and commit the result:\n%s", name, d.Dialect, b)
		}
		if after, _ := dir.Files(); len(after) != len(before) {
			t.Errorf("%d files after a generation with nothing to write, want %d", len(after), len(before))
		}
	})
}

// Drift sees a schema that differs from ent/schema.
func TestDriftSeesChanges(t *testing.T) {
	forEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if err := d.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"DROP INDEX space_deleted_at", "ALTER TABLE users ADD COLUMN nickname varchar(20)"} {
			if _, err := d.SQL.Exec(s); err != nil {
				t.Fatal(err)
			}
		}
		drift, err := migrations.Drift(ctx, d.SQL, d.Dialect)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"space_deleted_at", "users"} {
			if !strings.Contains(drift, want) {
				t.Errorf("drift does not mention %s:\n%s", want, drift)
			}
		}
	})
}

// Generating into an empty directory writes the whole schema in one file
// with its atlas.sum; generating again writes nothing.
func TestGenerate(t *testing.T) {
	forEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		dir := &migrate.MemDir{}
		name, err := migrations.Generate(ctx, devDB(t, d), d.Dialect, dir, "20260102030405", "baseline")
		if err != nil {
			t.Fatal(err)
		}
		if name != "20260102030405_baseline.sql" {
			t.Fatalf("wrote %q", name)
		}
		if err := migrate.Validate(dir); err != nil {
			t.Fatal(err)
		}
		b, err := fs.ReadFile(dir, name)
		if err != nil || !strings.Contains(string(b), "CREATE TABLE") || !strings.Contains(string(b), "users") {
			t.Fatalf("%s: %v\n%s", name, err, b)
		}
		sum, _ := fs.ReadFile(dir, migrate.HashFileName)

		name, err = migrations.Generate(ctx, devDB(t, d), d.Dialect, dir, "20260102030406", "again")
		if err != nil || name != "" {
			t.Fatalf("second generation wrote %q, %v; want nothing", name, err)
		}
		files, _ := dir.Files()
		sum2, _ := fs.ReadFile(dir, migrate.HashFileName)
		if len(files) != 1 || string(sum2) != string(sum) {
			t.Errorf("second generation changed the directory: %d files", len(files))
		}
		if _, err := migrations.Generate(ctx, devDB(t, d), d.Dialect, dir, "20260102030405", "same_version"); err == nil {
			t.Error("a version that is not after the latest file was accepted")
		}
	})
}

func TestNextVersion(t *testing.T) {
	dir := &migrate.MemDir{}
	if err := dir.CopyFiles([]migrate.File{migrate.NewLocalFile("20260102030405_baseline.sql", []byte("SELECT 1;\n"))}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		now  time.Time
		want string
	}{
		{time.Date(2026, 5, 6, 7, 8, 9, 500, time.UTC), "20260506070809"},
		{time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), "20260102030406"},   // same second as the latest
		{time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC), "20260102030406"}, // clock behind
	} {
		got, err := migrations.NextVersion(tc.now, dir)
		if err != nil || got != tc.want {
			t.Errorf("NextVersion(%v) = %q, %v; want %q", tc.now, got, err, tc.want)
		}
	}
}
