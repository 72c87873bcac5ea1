package main

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"quire/internal/db"
	"quire/internal/testing/testdb"
)

func TestMigrate(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		st := migrationStatus(t, url)
		for i := range 2 { // idempotent
			code, stdout, stderr := quire(t, "migrate", "--database-url", url)
			if code != 0 || stdout != "" {
				t.Fatalf("migrate: exit %d, stdout %q\nstderr: %s", code, stdout, stderr)
			}
			var line struct {
				Msg     string   `json:"msg"`
				Version string   `json:"version"`
				Applied []string `json:"applied"`
			}
			logLine(t, stderr, "migrated", &line)
			want := []string{}
			if i == 0 {
				for _, p := range st.Pending {
					want = append(want, p.Version)
				}
			}
			if line.Version != st.Latest || !slices.Equal(line.Applied, want) {
				t.Errorf("run %d: migrated to %q applying %v, want %s applying %v", i+1, line.Version, line.Applied, st.Latest, want)
			}
		}
	})
}

// forEachDB runs fn with the URL of a fresh, empty database, on SQLite
// (an empty file) and on PostgreSQL.
func forEachDB(t *testing.T, fn func(t *testing.T, url string)) {
	for _, b := range []string{"sqlite", "postgres"} {
		t.Run(b, func(t *testing.T) {
			url := newDBURL(t)
			if b == "postgres" {
				url = testdb.NewDatabase(t)
			} else if err := os.WriteFile(strings.TrimPrefix(url, "sqlite:"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			fn(t, url)
		})
	}
}

// logLine decodes into v the log line of stderr whose msg is msg, failing
// the test when there is none.
func logLine(t *testing.T, stderr, msg string, v any) {
	t.Helper()
	for _, l := range strings.Split(stderr, "\n") {
		var m struct{ Msg string }
		if json.Unmarshal([]byte(l), &m) == nil && m.Msg == msg {
			if err := json.Unmarshal([]byte(l), v); err != nil {
				t.Fatalf("log line %q: %v", l, err)
			}
			return
		}
	}
	t.Fatalf("no log line %q in:\n%s", msg, stderr)
}

// migrationStatus runs quire migrate --status.
func migrationStatus(t *testing.T, url string) db.MigrationStatus {
	t.Helper()
	var st db.MigrationStatus
	quireJSON(t, &st, "migrate", "--status", "--database-url", url)
	return st
}

func TestMigrateStatus(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		st := migrationStatus(t, url)
		if st.Version != "" || st.Latest == "" || len(st.Applied) != 0 || len(st.Pending) == 0 || st.Pending[0].Description != "baseline" || st.PreVersioning {
			t.Fatalf("status of an empty database = %+v", st)
		}
		if st.Pending[len(st.Pending)-1].Version != st.Latest {
			t.Errorf("last pending %s, latest %s", st.Pending[len(st.Pending)-1].Version, st.Latest)
		}
		// --status changes nothing.
		if again := migrationStatus(t, url); len(again.Pending) != len(st.Pending) {
			t.Errorf("status changed the database: %+v", again)
		}
		if code, _, stderr := quire(t, "migrate", "--database-url", url); code != 0 {
			t.Fatalf("migrate: exit %d\n%s", code, stderr)
		}
		after := migrationStatus(t, url)
		if after.Version != st.Latest || len(after.Pending) != 0 || len(after.Applied) != len(st.Pending) || len(after.Unknown) != 0 {
			t.Fatalf("status after migrate = %+v", after)
		}
		for i, r := range after.Applied {
			if r.Version != st.Pending[i].Version || r.Kind != "applied" || len(r.Checksum) != 64 || r.AppliedAt.IsZero() {
				t.Errorf("applied[%d] = %+v", i, r)
			}
		}
	})
}

// A database migrated by a newer quire stops migrate and serve, with a log
// that names both versions and says to upgrade.
func TestMigrateNewerDatabase(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		if code, _, stderr := quire(t, "migrate", "--database-url", url); code != 0 {
			t.Fatalf("migrate: exit %d\n%s", code, stderr)
		}
		latest := migrationStatus(t, url).Latest
		d := openTestDB(t, url)
		if _, err := d.SQL.Exec(`INSERT INTO ` + db.RevisionTable + ` (version, description, kind, checksum, applied_at, duration_ms) VALUES ('29991231235959', 'from_the_future', 'applied', 'x', CURRENT_TIMESTAMP, 0)`); err != nil {
			t.Fatal(err)
		}
		if st := migrationStatus(t, url); !slices.Equal(st.Unknown, []string{"29991231235959"}) {
			t.Errorf("status unknown = %v", st.Unknown)
		}
		for _, args := range [][]string{
			{"migrate", "--database-url", url},
			{"serve", "--addr", "127.0.0.1:0", "--database-url", url},
		} {
			code, stdout, stderr := quire(t, args...)
			if code != 1 || stdout != "" {
				t.Errorf("quire %s: exit %d, stdout %q; want 1 and nothing", args[0], code, stdout)
			}
			var line struct {
				Level, Msg, Error string
			}
			logLine(t, stderr, "migrate", &line)
			if line.Level != "ERROR" {
				t.Errorf("quire %s: migrate logged at %s", args[0], line.Level)
			}
			for _, want := range []string{"29991231235959", latest, "upgrade quire"} {
				if !strings.Contains(line.Error, want) {
					t.Errorf("quire %s: error %q does not mention %q", args[0], line.Error, want)
				}
			}
		}
	})
}
