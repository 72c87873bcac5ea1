package graph_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"quire/internal/testing/testenv"
)

// kxRead reads the site as token, with its sections, site spaces, spaces
// and the caller's permissions on them.
func kxRead(t *testing.T, e *testenv.Env, token string, s sxSite) map[string]any {
	t.Helper()
	return sxOK(t, e.GraphQL(token, sxSectionsQuery, map[string]any{"id": s.ID}))
}

// kxFirst returns the first section, its first site space that is not
// its default, and that site space's space.
func kxFirst(t *testing.T, d map[string]any) (section, siteSpace, space map[string]any) {
	t.Helper()
	secs := sxList(testenv.Path(d, "site", "sections", "nodes"))
	if len(secs) == 0 {
		t.Fatalf("no sections: %v", d)
	}
	section = secs[0].(map[string]any)
	for _, n := range sxList(testenv.Path(section, "siteSpaces", "nodes")) {
		ss := n.(map[string]any)
		if ss["default"] != true {
			return section, ss, ss["space"].(map[string]any)
		}
	}
	t.Fatalf("no site space but the default: %v", section)
	return nil, nil, nil
}

// A site read is kept by the engine until anything changes: a second read
// of the unchanged site reads none of it again, every kind of write shows
// on the next read, and each caller's permissions are checked on every
// read.
func TestSitesE2EKeptUntilChanged(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		s := sxBuild(t, e, team, "Kept", 2, 3, "public")
		admin, reader := team.Admin.Token, team.Reader.Token
		first := kxRead(t, e, reader, s)
		before := e.Statements()
		again := kxRead(t, e, reader, s)
		n := e.Statements() - before
		most := int64(0)
		if e.Dialect != "postgres" {
			// SQLite keeps no caller: the token is looked up.
			most = 1
		}
		if n > most {
			t.Errorf("a second read of the unchanged site sent %d statements, at most %d", n, most)
		}
		if sxJSON(again) != sxJSON(first) {
			t.Fatalf("the kept read differs:\n%v\n%v", again, first)
		}

		section, siteSpace, space := kxFirst(t, first)
		count := func(d map[string]any) int {
			n := 0
			for _, sec := range sxList(testenv.Path(d, "site", "sections", "nodes")) {
				n += len(sxList(testenv.Path(sec, "siteSpaces", "nodes")))
			}
			return n
		}
		steps := []struct {
			name  string
			write func()
			check func(d map[string]any) bool
		}{
			{"the site renamed", func() {
				sxDo(t, e, admin, "PATCH", s.Path, map[string]any{"title": "Kept, renamed"}, http.StatusOK)
			}, func(d map[string]any) bool { return testenv.Path(d, "site", "title") == "Kept, renamed" }},
			{"a section renamed", func() {
				sxDo(t, e, admin, "PATCH", s.Path+"/sections/"+sxStr(section["id"]), map[string]any{"title": "Renamed section"}, http.StatusOK)
			}, func(d map[string]any) bool {
				sec, _, _ := kxFirst(t, d)
				return sec["title"] == "Renamed section"
			}},
			{"a space renamed", func() {
				sxDo(t, e, admin, "PATCH", "/v1/spaces/"+sxStr(space["id"]), map[string]any{"title": "Renamed space"}, http.StatusOK)
			}, func(d map[string]any) bool {
				_, _, sp := kxFirst(t, d)
				return sp["title"] == "Renamed space"
			}},
			{"the reader made an editor", func() {
				sxDo(t, e, admin, "PATCH", "/v1/orgs/"+team.Org.ID+"/members/"+team.Reader.User.ID, map[string]any{"role": "edit"}, http.StatusOK)
			}, func(d map[string]any) bool {
				_, _, sp := kxFirst(t, d)
				return testenv.Path(sp, "permissions", "edit") == true
			}},
			{"a site space removed", func() {
				sxDo(t, e, admin, "DELETE", s.Path+"/site-spaces/"+sxStr(siteSpace["id"]), nil, http.StatusResetContent)
			}, func(d map[string]any) bool { return count(d) == count(first)-1 }},
		}
		for _, step := range steps {
			kxRead(t, e, reader, s)
			step.write()
			if d := kxRead(t, e, reader, s); !step.check(d) {
				t.Errorf("after %s, the site read is stale: %v", step.name, d)
			}
			// The REST door reads through the same engine.
			r := e.Do(reader, "GET", s.Path+"/published", nil)
			if r.Status != http.StatusOK {
				t.Fatalf("GET %s/published: %d %s", s.Path, r.Status, r.Body)
			}
		}

		// A caller who may not see the site does not see the kept one.
		kxRead(t, e, reader, s)
		if r := e.GraphQL(team.Outsider.Token, sxSectionsQuery, map[string]any{"id": s.ID}); r.Code() != "NOT_FOUND" {
			t.Errorf("an outsider read a kept site: %s", r.Raw)
		}
		// Nor does a member once removed.
		sxDo(t, e, admin, "DELETE", "/v1/orgs/"+team.Org.ID+"/members/"+team.Reader.User.ID, nil, http.StatusResetContent)
		if r := e.GraphQL(reader, sxSectionsQuery, map[string]any{"id": s.ID}); r.Code() != "NOT_FOUND" {
			t.Errorf("a removed member read a kept site: %s", r.Raw)
		}
	})
}

// A change made by another process sharing the PostgreSQL database is
// seen by this one's next read of a kept site, once it has heard of it.
func TestSitesE2EKeptAcrossReplicas(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		if e.Dialect != "postgres" {
			t.Skip("one process serves a SQLite database")
		}
		b := e.SeparateReplica(testenv.Options{})
		team := e.NewTeam()
		s := sxBuild(t, e, team, "Shared", 2, 2, "public")
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := b.Server.ContentChanges().Sync(ctx); err != nil {
			t.Fatal(err)
		}
		kxRead(t, b, team.Reader.Token, s)
		before := b.Statements()
		kxRead(t, b, team.Reader.Token, s)
		if n := b.Statements() - before; n != 0 {
			t.Fatalf("the replica did not keep the site: %d statements", n)
		}
		section, _, _ := kxFirst(t, kxRead(t, b, team.Reader.Token, s))
		sxDo(t, e, team.Admin.Token, "PATCH", s.Path+"/sections/"+sxStr(section["id"]), map[string]any{"title": "Renamed elsewhere"}, http.StatusOK)
		if err := b.Server.ContentChanges().Sync(ctx); err != nil {
			t.Fatal(err)
		}
		if sec, _, _ := kxFirst(t, kxRead(t, b, team.Reader.Token, s)); sec["title"] != "Renamed elsewhere" {
			t.Errorf("the replica served its kept site after the other process's change: %v", sec)
		}
	})
}

// At most --kept-sites sites are kept: past the bound, what was kept is
// read again.
func TestSitesE2EKeptBounded(t *testing.T) {
	testenv.ForEachDBWith(t, testenv.Options{KeptSites: 1}, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		a := sxBuild(t, e, team, "First", 1, 2, "public")
		b := sxBuild(t, e, team, "Second", 1, 2, "public")
		statements := func(s sxSite) int64 {
			t.Helper()
			before := e.Statements()
			kxRead(t, e, team.Reader.Token, s)
			return e.Statements() - before
		}
		caller := int64(0)
		if e.Dialect != "postgres" {
			caller = 1 // SQLite keeps no caller
		}
		statements(a)
		if n := statements(a); n > caller {
			t.Fatalf("the first site was not kept: %d statements", n)
		}
		statements(b)
		if n := statements(a); n <= caller {
			t.Errorf("with one site kept, the first site was still kept after the second was read (%d statements)", n)
		}
		if n := statements(a); n > caller {
			t.Errorf("the first site was not kept again: %d statements", n)
		}
	})
}
