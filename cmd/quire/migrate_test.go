package main

import (
	"encoding/json"
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
			if err := json.Unmarshal([]byte(strings.TrimSpace(stderr)), &line); err != nil || line.Msg != "migrated" {
				t.Fatalf("migrate log %q: %v", stderr, err)
			}
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

// forEachDB runs fn with the URL of a fresh database, on SQLite and on
// PostgreSQL.
func forEachDB(t *testing.T, fn func(t *testing.T, url string)) {
	for _, b := range []string{"sqlite", "postgres"} {
		t.Run(b, func(t *testing.T) {
			url := newDBURL(t)
			if b == "postgres" {
				url = testdb.NewDatabase(t)
			}
			fn(t, url)
		})
	}
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
			if err := json.Unmarshal([]byte(strings.TrimSpace(stderr)), &line); err != nil || line.Level != "ERROR" || line.Msg != "migrate" {
				t.Fatalf("quire %s: log %q: %v", args[0], stderr, err)
			}
			for _, want := range []string{"29991231235959", latest, "upgrade quire"} {
				if !strings.Contains(line.Error, want) {
					t.Errorf("quire %s: error %q does not mention %q", args[0], line.Error, want)
				}
			}
		}
	})
}
