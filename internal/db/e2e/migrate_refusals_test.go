package e2e_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"ariga.io/atlas/sql/migrate"

	"quire/internal/db"
)

// A database with Quire's tables that are not the baseline's is refused,
// with the differences, and left as it was.
func TestMigratePreVersioningMismatch(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		ctx := context.Background()
		d := open(t, url)
		loadPreVersioning(t, url, d)
		for _, s := range []string{"DROP INDEX space_deleted_at", "ALTER TABLE users ADD COLUMN nickname text"} {
			if _, err := d.SQL.Exec(s); err != nil {
				t.Fatal(err)
			}
		}
		err := d.Migrate(ctx)
		if err == nil {
			t.Fatal("Migrate accepted a database whose schema is not the baseline")
		}
		for _, want := range []string{"is not the baseline", "space_deleted_at", "users"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not mention %q", err, want)
			}
		}
		if st := status(t, d); len(st.Applied) != 0 || !st.PreVersioning {
			t.Errorf("status after the refusal = %+v, want nothing recorded", st)
		}
		if n := d.Client.User.Query().CountX(ctx); n != 2 {
			t.Errorf("%d users, want the fixture's 2", n)
		}
	})
}

// Tables of another application do not make a database look like one
// created by an earlier quire: the baseline runs beside them.
func TestMigrateBesideOtherTables(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		ctx := context.Background()
		d := open(t, url)
		if _, err := d.SQL.Exec("CREATE TABLE other_app (id integer PRIMARY KEY)"); err != nil {
			t.Fatal(err)
		}
		res, err := d.MigrateReport(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if res.Baseline != "" || len(res.Applied) != len(realFiles(t, d)) {
			t.Errorf("MigrateReport = %+v, want every migration run", res)
		}
		if _, err := d.SQL.Exec("INSERT INTO other_app (id) VALUES (1)"); err != nil {
			t.Errorf("the other table is gone: %v", err)
		}
	})
}

func TestMigrateNewerDatabase(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		ctx := context.Background()
		d := open(t, url)
		if err := d.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		const future = "29991231235959"
		if _, err := d.SQL.Exec(fmt.Sprintf(`INSERT INTO %s (version, description, kind, checksum, applied_at, duration_ms) VALUES ('%s', 'from_the_future', 'applied', 'x', CURRENT_TIMESTAMP, 0)`, db.RevisionTable, future)); err != nil {
			t.Fatal(err)
		}
		before := status(t, d)
		err := d.Migrate(ctx)
		var newer *db.NewerDatabaseError
		if !errors.As(err, &newer) {
			t.Fatalf("Migrate = %v, want a NewerDatabaseError", err)
		}
		latest := realFiles(t, d)[len(realFiles(t, d))-1].Version()
		if newer.Database != future || newer.Binary != latest {
			t.Errorf("error versions = %s, %s; want %s, %s", newer.Database, newer.Binary, future, latest)
		}
		for _, want := range []string{future, latest, "upgrade quire"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not mention %q", err, want)
			}
		}
		after := status(t, d)
		if !slices.Equal(after.Applied, before.Applied) || !slices.Equal(after.Unknown, []string{future}) || after.Version != future {
			t.Errorf("status = %+v, want the database unchanged with %s unknown", after, future)
		}
	})
}

// A migration that fails leaves nothing of itself, in the schema or in the
// revision table; fixed, it applies.
func TestMigrateFailureRollsBack(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		ctx := context.Background()
		d := open(t, url)
		base := realFiles(t, d)[0]
		broken := migrate.NewLocalFile("20991231000000_add_notes.sql", []byte(
			"-- Create \"notes\" table\nCREATE TABLE notes (id varchar(20) PRIMARY KEY);\n"+
				"INSERT INTO notes (id) VALUES ('n1');\n"+
				"INSERT INTO no_such_table (id) VALUES ('n2');\n"))
		_, err := d.MigrateDir(ctx, dirOf(t, base, broken))
		if err == nil {
			t.Fatal("a failing migration succeeded")
		}
		for _, want := range []string{"20991231000000_add_notes.sql", "statement 3 of 3", "line 4", "no_such_table", "rolled back"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not mention %q", err, want)
			}
		}
		if _, err := d.SQL.Exec("SELECT count(*) FROM notes"); err == nil {
			t.Error("the failed migration's table exists")
		}
		st := status(t, d)
		if len(st.Applied) != 1 || st.Applied[0].Version != base.Version() {
			t.Errorf("revisions after the failure = %+v, want only the baseline", st.Applied)
		}

		fixed := migrate.NewLocalFile("20991231000000_add_notes.sql", []byte(
			"CREATE TABLE notes (id varchar(20) PRIMARY KEY);\nINSERT INTO notes (id) VALUES ('n1');\n"))
		res, err := d.MigrateDir(ctx, dirOf(t, base, fixed))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Applied, []string{"20991231000000"}) {
			t.Errorf("applied %v, want the fixed migration", res.Applied)
		}
		var n int
		if err := d.SQL.QueryRow("SELECT count(*) FROM notes").Scan(&n); err != nil || n != 1 {
			t.Errorf("notes: %d rows, %v", n, err)
		}
	})
}

// A migration may not leave rows that refer to nothing, even on SQLite,
// where foreign keys are off while a migration runs.
func TestMigrateDanglingReferences(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		ctx := context.Background()
		d := open(t, url)
		base := realFiles(t, d)[0]
		if _, err := d.MigrateDir(ctx, dirOf(t, base)); err != nil {
			t.Fatal(err)
		}
		bad := migrate.NewLocalFile("20991231000000_orphan.sql", []byte(
			"INSERT INTO users (id, email, display_name, created_at) VALUES ('U1', 'a@example.com', 'A', CURRENT_TIMESTAMP);\n"+
				"INSERT INTO members (id, disabled, sso, joined_at, organization_id, user_id) VALUES ('M1', false, false, CURRENT_TIMESTAMP, 'no such organization', 'U1');\n"))
		if _, err := d.MigrateDir(ctx, dirOf(t, base, bad)); err == nil {
			t.Fatal("a migration leaving a member of no organization succeeded")
		}
		if n := d.Client.User.Query().CountX(ctx); n != 0 {
			t.Errorf("%d users after the failed migration, want 0", n)
		}
		if st := status(t, d); len(st.Applied) != 1 {
			t.Errorf("revisions = %+v, want only the baseline", st.Applied)
		}
	})
}

// Replicas starting together on one database both succeed, and each
// migration is applied once.
func TestMigrateConcurrently(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		ctx := context.Background()
		dbs := []*db.DB{open(t, url), open(t, url)}
		results := make([]db.Migrated, len(dbs))
		errs := make([]error, len(dbs))
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i, d := range dbs {
			wg.Go(func() {
				<-start
				results[i], errs[i] = d.MigrateReport(ctx)
			})
		}
		close(start)
		wg.Wait()
		var applied []string
		for i := range dbs {
			if errs[i] != nil {
				t.Errorf("replica %d: %v", i, errs[i])
			}
			applied = append(applied, results[i].Applied...)
		}
		slices.Sort(applied)
		if want := versions(realFiles(t, dbs[0])); !slices.Equal(applied, want) {
			t.Errorf("applied %v between the two replicas, want each of %v once", applied, want)
		}
		if st := status(t, dbs[0]); len(st.Applied) != len(realFiles(t, dbs[0])) || len(st.Pending) != 0 {
			t.Errorf("status = %+v", st)
		}
	})
}
