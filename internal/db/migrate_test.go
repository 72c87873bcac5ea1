package db_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"

	"quire/ent/changerequest"
	"quire/ent/collection"
	"quire/ent/member"
	"quire/ent/organization"
	"quire/ent/site"
	"quire/ent/space"
	"quire/internal/auth"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/db"
	"quire/internal/db/migrations"
	"quire/internal/server"
	"quire/internal/testdb"
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
	for _, table := range []string{"api_tokens", "change_requests", "collections", "content_blobs", "job_leases", "members",
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

func TestMigrateFreshDatabase(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		ctx := context.Background()
		d := open(t, url)
		files := realFiles(t, d)
		if st := status(t, d); st.PreVersioning || len(st.Applied) != 0 || len(st.Pending) != len(files) || st.Version != "" {
			t.Fatalf("status of an empty database = %+v", st)
		}
		res, err := d.MigrateReport(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Applied, versions(files)) || res.Baseline != "" || res.Version != files[len(files)-1].Version() {
			t.Errorf("MigrateReport = %+v, want every migration applied", res)
		}
		st := status(t, d)
		if len(st.Pending) != 0 || len(st.Unknown) != 0 || st.Version != st.Latest || len(st.Applied) != len(files) {
			t.Fatalf("status after Migrate = %+v", st)
		}
		for i, r := range st.Applied {
			if r.Version != files[i].Version() || r.Description != files[i].Desc() || r.Kind != db.KindApplied || r.Checksum != checksum(files[i]) || r.AppliedAt.IsZero() {
				t.Errorf("revision %d = %+v, want %s applied with checksum %s", i, r, files[i].Name(), checksum(files[i]))
			}
		}
		if st.Applied[0].Description != "baseline" {
			t.Errorf("first migration is %q, want the baseline", st.Applied[0].Description)
		}
		o := d.Client.Organization.Create().SetTitle("Acme").SaveX(ctx)
		if got := d.Client.Organization.GetX(ctx, o.ID); got.Title != "Acme" || got.Plan != "free" {
			t.Errorf("organization read back = %+v", got)
		}
	})
}

func TestMigrateTwiceIsNoOp(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		ctx := context.Background()
		d := open(t, url)
		if err := d.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		d.Client.User.Create().SetEmail("ada@example.com").SetDisplayName("Ada").SaveX(ctx)
		before := status(t, d)
		res, err := d.MigrateReport(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Applied) != 0 || res.Baseline != "" || res.Version != before.Latest {
			t.Errorf("second MigrateReport = %+v, want nothing applied", res)
		}
		after := status(t, d)
		if !slices.Equal(after.Applied, before.Applied) {
			t.Errorf("revisions changed:\nbefore %+v\nafter  %+v", before.Applied, after.Applied)
		}
		if n := d.Client.User.Query().CountX(ctx); n != 1 {
			t.Errorf("%d users after migrating again, want 1", n)
		}
	})
}

// A database at the baseline holding data is upgraded by a later migration
// that changes a table others refer to: no row is lost, the new column is
// filled, and on SQLite foreign keys are enforced again afterwards.
func TestMigrateUpgradeFromBaseline(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		ctx := context.Background()
		d := open(t, url)
		// One connection, so that the one the migration ran on is the one
		// checked for foreign keys below.
		d.SQL.SetMaxOpenConns(1)
		files := upgradeFiles(t, d)
		if _, err := d.MigrateDir(ctx, dirOf(t, files[0])); err != nil {
			t.Fatal(err)
		}
		loadRows(t, url, d)
		before := rowCounts(t, d)

		res, err := d.MigrateDir(ctx, dirOf(t, files...))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Applied, []string{files[1].Version()}) {
			t.Errorf("applied %v, want only %s", res.Applied, files[1].Version())
		}
		if after := rowCounts(t, d); !mapsEqual(after, before) {
			t.Errorf("row counts changed by the upgrade:\nbefore %v\nafter  %v", before, after)
		}
		var motto, plan string
		var members int
		if err := d.SQL.QueryRow(`SELECT o.motto, o.plan, (SELECT count(*) FROM members m WHERE m.organization_id = o.id) FROM organizations o WHERE o.title = 'Acme'`).Scan(&motto, &plan, &members); err != nil {
			t.Fatal(err)
		}
		if motto != "Docs for everyone" || plan != "free" || members != 2 {
			t.Errorf("Acme after the upgrade: motto %q, plan %q, %d members; want the motto, plan free and 2 members", motto, plan, members)
		}
		if d.Dialect == dialect.SQLite {
			var fk int
			if err := d.SQL.QueryRow("PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
				t.Errorf("foreign_keys = %d (%v) after the migration, want 1", fk, err)
			}
			if _, err := d.SQL.Exec(`INSERT INTO members (id, role, disabled, sso, joined_at, organization_id, user_id) VALUES ('Mx', 'read', false, false, '2026-01-01 00:00:00', 'no such organization', 'no such user')`); err == nil {
				t.Error("a member of no organization was accepted: foreign keys are off")
			}
		}
		var revisions int
		if err := d.SQL.QueryRow("SELECT count(*) FROM " + db.RevisionTable).Scan(&revisions); err != nil || revisions != 2 {
			t.Errorf("%d revisions (%v), want 2", revisions, err)
		}
	})
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// A database that quire created before versioned migrations gets its
// baseline recorded without running it, keeps its data, serves it through
// the engines and the API with its old token, and takes later migrations.
func TestMigratePreVersioningDatabase(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		ctx := context.Background()
		d := open(t, url)
		token := loadPreVersioning(t, url, d)
		files := realFiles(t, d)
		if st := status(t, d); !st.PreVersioning || len(st.Applied) != 0 || len(st.Pending) != len(files) {
			t.Fatalf("status of a pre-versioning database = %+v", st)
		}
		before := rowCounts(t, d)
		res, err := d.MigrateReport(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if res.Baseline != files[0].Version() || !slices.Equal(res.Applied, versions(files[1:])) {
			t.Errorf("MigrateReport = %+v, want the baseline %s recorded and the rest applied", res, files[0].Version())
		}
		st := status(t, d)
		if st.PreVersioning || len(st.Pending) != 0 || st.Applied[0].Kind != db.KindBaseline || st.Applied[0].Checksum != checksum(files[0]) {
			t.Errorf("status after adoption = %+v", st)
		}
		if after := rowCounts(t, d); !mapsEqual(after, before) {
			t.Errorf("row counts changed:\nbefore %v\nafter  %v", before, after)
		}

		// Through ent.
		c := d.Client
		org := c.Organization.Query().Where(organization.Title("Acme")).OnlyX(ctx)
		if n := c.Member.Query().Where(member.OrganizationID(org.ID)).CountX(ctx); n != 2 {
			t.Errorf("Acme has %d members, want 2", n)
		}
		col := c.Collection.Query().Where(collection.OrganizationID(org.ID), collection.Title("Guides")).OnlyX(ctx)
		sp := c.Space.Query().Where(space.Title("Getting started")).OnlyX(ctx)
		if sp.ParentID == nil || *sp.ParentID != col.ID || sp.OrganizationID != org.ID || sp.RevisionID == "" {
			t.Errorf("space = %+v, want it in collection %s of Acme with a revision", sp, col.ID)
		}
		cr := c.ChangeRequest.Query().Where(changerequest.SpaceID(sp.ID)).OnlyX(ctx)
		if cr.Subject != "Fix the quickstart" || cr.Number != 1 {
			t.Errorf("change request = %q #%d", cr.Subject, cr.Number)
		}
		if s := c.Site.Query().Where(site.OrganizationID(org.ID)).OnlyX(ctx); s.Title != "Docs" || !s.Published {
			t.Errorf("site = %q, published %v", s.Title, s.Published)
		}

		// Through the engines.
		u, err := auth.Lookup(ctx, c, token)
		if err != nil || u == nil || u.Email != "ada@example.com" {
			t.Fatalf("the old token looks up %v, %v; want ada", u, err)
		}
		eng := content.New(c, "http://quire.test", catalog.New(c))
		rev, err := eng.Revision(ctx, sp.RevisionID)
		if err != nil {
			t.Fatal(err)
		}
		var titles []string
		for _, p := range rev.Pages {
			titles = append(titles, p.Title)
		}
		if !slices.Equal(titles, []string{"Welcome", "Quickstart", "FAQ"}) {
			t.Fatalf("pages = %v", titles)
		}
		page, err := eng.Page(ctx, sp.RevisionID, rev.Pages[1].ID)
		if err != nil {
			t.Fatal(err)
		}
		if page.Markdown == "" || page.Document == nil {
			t.Errorf("page Quickstart has no document: %+v", page)
		}

		// Through the API, reading and writing.
		h := server.NewServer(server.Config{DB: d, PublicURL: "http://quire.test"})
		do := func(method, path, body string) *httptest.ResponseRecorder {
			req := httptest.NewRequest(method, path, strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+token)
			if body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			return rec
		}
		if r := do("GET", "/v1/spaces/"+sp.ID+"/content/pages", ""); r.Code != http.StatusOK || !strings.Contains(r.Body.String(), `"title":"Quickstart"`) {
			t.Errorf("GET pages: %d %s", r.Code, r.Body)
		}
		if r := do("POST", "/v1/spaces/"+sp.ID+"/change-requests", `{"subject":"After the upgrade"}`); r.Code != http.StatusCreated || !strings.Contains(r.Body.String(), `"number":2`) {
			t.Errorf("POST change request: %d %s", r.Code, r.Body)
		}

		// A later migration applies on top of the recorded baseline.
		up := upgradeFiles(t, d)
		res, err = d.MigrateDir(ctx, dirOf(t, up...))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Applied, []string{up[1].Version()}) {
			t.Errorf("applied %v after adoption, want %s", res.Applied, up[1].Version())
		}
	})
}

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
