package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every command names the database it opened: a SQLite file by its
// absolute path, PostgreSQL by its URL without a password.
func TestDatabaseAnnounced(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		want := redactURL(url)
		if strings.HasPrefix(url, "sqlite:") {
			// A relative path is announced absolute.
			dir := filepath.Dir(strings.TrimPrefix(url, "sqlite:"))
			t.Chdir(dir)
			url = "sqlite:" + filepath.Base(strings.TrimPrefix(url, "sqlite:"))
			want = filepath.Join(dir, filepath.Base(url[len("sqlite:"):]))
			if abs, err := filepath.EvalSymlinks(dir); err == nil && abs != dir {
				want = filepath.Join(abs, filepath.Base(url[len("sqlite:"):]))
			}
		}
		for _, args := range [][]string{
			{"migrate", "--database-url", url},
			{"migrate", "--status", "--database-url", url},
			{"admin", "bootstrap", "--org", "Org", "--email", "a@example.com", "--database-url", url},
			{"admin", "jobs", "list", "--database-url", url},
		} {
			code, _, stderr := quire(t, args...)
			if code != 0 {
				t.Fatalf("quire %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
			}
			var line struct{ Database, Dialect string }
			logLine(t, stderr, "database", &line)
			if line.Database != want && !(strings.HasPrefix(url, "sqlite:") && sameFile(line.Database, want)) {
				t.Errorf("quire %s announced %q, want %q", args[0], line.Database, want)
			}
			if line.Dialect == "" {
				t.Errorf("quire %s announced no dialect", args[0])
			}
		}
	})
}

func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

func TestDatabaseLocationHidesPassword(t *testing.T) {
	for _, u := range []string{"postgres://quire:s3cret@db:5432/quire", "postgres://db/quire?password=s3cret&sslmode=disable"} {
		if got := databaseLocation(u); strings.Contains(got, "s3cret") || !strings.HasPrefix(got, "postgres://") {
			t.Errorf("databaseLocation(%q) = %q", u, got)
		}
	}
}

// Commands that only read or change an existing database refuse a SQLite
// file that is not there, naming it and what to do, and create nothing.
func TestAdminMissingDatabase(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{filepath.Join(dir, "none.db"), filepath.Join(dir, "no", "such", "dir", "q.db")} {
		url := "sqlite:" + path
		for _, args := range [][]string{
			{"migrate", "--status"},
			{"admin", "bootstrap", "--org", "Org", "--email", "a@example.com"},
			{"admin", "user", "create", "--email", "b@example.com"},
			{"admin", "user", "verify", "--email", "b@example.com"},
			{"admin", "token", "create", "--user", "U1"},
			{"admin", "token", "revoke", "--token-id", "T1"},
			{"admin", "jobs", "list"},
			{"admin", "jobs", "show", "J1"},
			{"admin", "jobs", "cancel", "J1"},
			{"admin", "org", "unblock", "O1"},
		} {
			code, stdout, stderr := quire(t, append(args, "--database-url", url)...)
			if code != 1 || stdout != "" {
				t.Errorf("quire %s on a missing database: exit %d, stdout %q; want 1", strings.Join(args, " "), code, stdout)
			}
			for _, want := range []string{path + " does not exist", "quire migrate", "--database-url"} {
				if !strings.Contains(stderr, want) {
					t.Errorf("quire %s: log does not say %q:\n%s", strings.Join(args, " "), want, stderr)
				}
			}
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s was created (%v)", path, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "no")); !os.IsNotExist(err) {
		t.Errorf("a directory was created (%v)", err)
	}
}

// migrate and serve create a SQLite file, but not the directory it goes in.
func TestMissingDatabaseDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing")
	url := "sqlite:" + filepath.Join(dir, "q.db")
	for _, args := range [][]string{
		{"migrate", "--database-url", url},
		{"serve", "--addr", "127.0.0.1:0", "--database-url", url},
	} {
		code, stdout, stderr := quire(t, args...)
		if code != 1 || stdout != "" {
			t.Errorf("quire %s: exit %d, stdout %q; want 1", args[0], code, stdout)
		}
		if !strings.Contains(stderr, "directory "+dir+" of the SQLite database does not exist") {
			t.Errorf("quire %s: log does not name the directory:\n%s", args[0], stderr)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s was created (%v)", dir, err)
	}
}

// The default database, data/quire.db, is made with its directory by
// serve (and migrate), so that a fresh checkout runs at once.
func TestDefaultDatabaseDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	s := startServe(t, nil)
	s.stop(t)
	if _, err := os.Stat(filepath.Join(dir, "data", "quire.db")); err != nil {
		t.Fatalf("serve with the default database: %v", err)
	}
	var line struct{ Database string }
	logLine(t, s.stderr.String(), "database", &line)
	if !sameFile(line.Database, filepath.Join(dir, "data", "quire.db")) {
		t.Errorf("announced %q", line.Database)
	}
}

func TestDBMaxConnsFlag(t *testing.T) {
	url := newMigratedDBURL(t)
	for _, v := range []string{"0", "1001", "many"} {
		code, _, stderr := quire(t, "admin", "jobs", "list", "--db-max-conns", v, "--database-url", url)
		if code != 2 || !strings.Contains(stderr, "from 1 to 1000") {
			t.Errorf("--db-max-conns %s: exit %d\n%s", v, code, stderr)
		}
		code, _, stderr = quire(t, "serve", "--db-max-conns", v, "--database-url", url)
		if code != 2 || !strings.Contains(stderr, "from 1 to 1000") {
			t.Errorf("serve --db-max-conns %s: exit %d\n%s", v, code, stderr)
		}
	}
	// A bad environment value is reported, unless the flag overrides it.
	env := func(k string) string {
		if k == envDBMaxConns {
			return "0"
		}
		return ""
	}
	var stdout, stderr strings.Builder
	if code := run(t.Context(), []string{"admin", "jobs", "list", "--database-url", url}, &stdout, &stderr, env); code == 0 || !strings.Contains(stderr.String(), envDBMaxConns) {
		t.Errorf("%s=0: exit %d\n%s", envDBMaxConns, code, stderr.String())
	}
	stderr.Reset()
	if code := run(t.Context(), []string{"admin", "jobs", "list", "--db-max-conns", "4", "--database-url", url}, &stdout, &stderr, env); code != 0 {
		t.Errorf("%s=0 with --db-max-conns 4: exit %d\n%s", envDBMaxConns, code, stderr.String())
	}
	if code, _, stderr := quire(t, "admin", "jobs", "list", "--db-max-conns", "1000", "--database-url", url); code != 0 {
		t.Errorf("--db-max-conns 1000: exit %d\n%s", code, stderr)
	}
}
