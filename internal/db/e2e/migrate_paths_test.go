package e2e_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
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
	"quire/server"
)

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

		// A later migration applies on top of the adopted database: the
		// test-only one, numbered after the last committed one.
		up := upgradeFiles(t, d)[1]
		last, err := strconv.ParseInt(files[len(files)-1].Version(), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		later := migrate.NewLocalFile(fmt.Sprintf("%d_%s.sql", last+1, up.Desc()), up.Bytes())
		res, err = d.MigrateDir(ctx, dirOf(t, append(slices.Clip(files), later)...))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Applied, []string{later.Version()}) {
			t.Errorf("applied %v after adoption, want %s", res.Applied, later.Version())
		}
	})
}
