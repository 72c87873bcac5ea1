package e2e_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"

	"quire/internal/db"
	"quire/internal/db/migrations"
	"quire/internal/testing/testdb"
)

// backends are the databases every test here runs on.
var backends = []string{"sqlite", "postgres"}

// forEachDB runs fn on a fresh, empty database of each backend.
func forEachDB(t *testing.T, fn func(t *testing.T, url string)) {
	t.Helper()
	for _, b := range backends {
		t.Run(b, func(t *testing.T) {
			var url string
			if b == "sqlite" {
				url = "sqlite:" + filepath.Join(t.TempDir(), "quire.db")
			} else {
				url = testdb.NewDatabase(t)
			}
			fn(t, url)
		})
	}
}

func open(t *testing.T, url string) *db.DB {
	t.Helper()
	d, err := db.Open(url, db.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// realFiles returns the committed migrations of d's dialect.
func realFiles(t *testing.T, d *db.DB) []migrate.File {
	t.Helper()
	dir, err := migrations.Dir(d.Dialect)
	if err != nil {
		t.Fatal(err)
	}
	files, err := dir.Files()
	if err != nil || len(files) == 0 {
		t.Fatalf("committed migrations: %d files, %v", len(files), err)
	}
	return files
}

func versions(files []migrate.File) []string {
	var vs []string
	for _, f := range files {
		vs = append(vs, f.Version())
	}
	return vs
}

// dirOf builds a migration directory, with its atlas.sum, from files.
func dirOf(t *testing.T, files ...migrate.File) migrate.Dir {
	t.Helper()
	dir := &migrate.MemDir{}
	if err := dir.CopyFiles(files); err != nil {
		t.Fatal(err)
	}
	return dir
}

// upgradeFiles are the committed baseline then the test-only migration of
// testdata/upgrade, which adds a column to organizations (on SQLite by
// copying the table, whose rows others refer to) and fills it.
func upgradeFiles(t *testing.T, d *db.DB) []migrate.File {
	t.Helper()
	name, err := migrations.DirName(d.Dialect)
	if err != nil {
		t.Fatal(err)
	}
	extra, err := migrations.FromFS(os.DirFS(filepath.Join("testdata", "upgrade", name)))
	if err != nil {
		t.Fatal(err)
	}
	files, err := extra.Files()
	if err != nil || len(files) != 1 {
		t.Fatalf("testdata/upgrade/%s: %d files, %v", name, len(files), err)
	}
	return []migrate.File{realFiles(t, d)[0], files[0]}
}

// sqlDB opens a pool of its own on the database at url, for loading
// fixtures with session settings that must not leak into d's pool.
func sqlDB(t *testing.T, url string) *sql.DB {
	t.Helper()
	var (
		s   *sql.DB
		err error
	)
	if path, ok := strings.CutPrefix(url, "sqlite:"); ok {
		s, err = sql.Open("sqlite", "file:"+path)
	} else {
		s, err = sql.Open("postgres", url)
	}
	if err != nil {
		t.Fatal(err)
	}
	s.SetMaxOpenConns(1)
	t.Cleanup(func() { s.Close() })
	return s
}

// fixture returns the dump of a database that quire created before
// versioned migrations, and the bootstrap token it holds.
func fixture(t *testing.T, d *db.DB) (dump, token string) {
	t.Helper()
	name, err := migrations.DirName(d.Dialect)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("testdata", "preversioning", name+".sql"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "-- ada's bootstrap token: ")
	if !ok {
		t.Fatal("fixture names no token")
	}
	token, _, _ = strings.Cut(rest, "\n")
	return string(b), token
}

// loadPreVersioning loads the whole dump: schema and rows.
func loadPreVersioning(t *testing.T, url string, d *db.DB) (token string) {
	t.Helper()
	dump, token := fixture(t, d)
	if _, err := sqlDB(t, url).Exec(dump); err != nil {
		t.Fatalf("load fixture: %v", err)
	}
	return token
}

// loadRows loads only the dump's rows, into a database that has the
// baseline's schema.
func loadRows(t *testing.T, url string, d *db.DB) {
	t.Helper()
	dump, _ := fixture(t, d)
	stmts, err := migrate.Stmts(dump)
	if err != nil {
		t.Fatal(err)
	}
	s := sqlDB(t, url)
	if d.Dialect == dialect.Postgres {
		// The dump lists tables alphabetically, not parents first: skip
		// foreign key triggers while loading, as pg_restore does.
		if _, err := s.Exec("SET session_replication_role = replica"); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for _, st := range stmts {
		if strings.HasPrefix(st.Text, "INSERT INTO") || strings.HasPrefix(st.Text, "SELECT pg_catalog.setval") {
			if _, err := s.Exec(st.Text); err != nil {
				t.Fatalf("load %q: %v", st.Text, err)
			}
			n++
		}
	}
	if n < 20 {
		t.Fatalf("only %d rows loaded from the fixture", n)
	}
}

// rowCounts counts the rows of every table of the baseline.
func rowCounts(t *testing.T, d *db.DB) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for _, table := range []string{"api_tokens", "change_requests", "collections", "content_blobs", "members",
		"organizations", "page_versions", "revision_entries", "revisions", "server_secrets", "site_spaces", "sites", "spaces", "users"} {
		var n int
		if err := d.SQL.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
			t.Fatalf("count %s: %v", table, err)
		}
		counts[table] = n
	}
	return counts
}

func status(t *testing.T, d *db.DB) *db.MigrationStatus {
	t.Helper()
	st, err := d.MigrationStatus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func checksum(f migrate.File) string {
	s := sha256.Sum256(f.Bytes())
	return hex.EncodeToString(s[:])
}
