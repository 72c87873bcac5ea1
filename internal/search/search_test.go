package search_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"quire/internal/apierr"
	"quire/internal/pagination"
	"quire/internal/search"
	"quire/internal/testing/testenv"
)

// What a reader of the corpus would expect, on both databases.
func TestSearchFindsWhatAReaderExpects(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		d := newDocs(t, e)
		admin := d.team.Admin.User

		t.Run("stemming", func(t *testing.T) {
			// "configuring" is in no page: its stem is, in titles and text.
			hits := d.find(t, admin, d.space, "configuring")
			if len(hits) < 2 {
				t.Fatalf("configuring: %v", titles(hits))
			}
			top := titles(hits[:2])
			slices.Sort(top)
			if !slices.Equal(top, []string{"Configuration reference", "Configure the server"}) {
				t.Errorf("configuring: the pages titled so come first, got %v", titles(hits))
			}
			if index(hits, "Installation") < 0 {
				t.Errorf("configuring: Installation mentions the configuration reference, got %v", titles(hits))
			}
		})

		t.Run("title above text", func(t *testing.T) {
			hits := d.find(t, admin, d.space, "webhooks")
			if len(hits) == 0 || hits[0].Title != "Webhooks" {
				t.Fatalf("webhooks: the page titled Webhooks first, got %v", titles(hits))
			}
			for _, other := range []string{"Alerts", "Changelog"} {
				if index(hits, other) <= 0 {
					t.Errorf("webhooks: %s mentions webhooks in its text, got %v", other, titles(hits))
				}
			}
			hits = d.find(t, admin, d.space, "backups")
			if len(hits) == 0 || hits[0].Title != "Backups" {
				t.Errorf("backups: %v", titles(hits))
			}
		})

		t.Run("sections", func(t *testing.T) {
			hits := d.find(t, admin, d.space, "signature")
			h := hit(hits, "Webhooks")
			if h == nil || len(h.Sections) == 0 {
				t.Fatalf("signature: %v", titles(hits))
			}
			s := h.Sections[0]
			if s.Title != "Signatures" || s.Anchor != "signatures" || s.ID != "signatures" {
				t.Errorf("signature: section %+v", s)
			}
			if !strings.Contains(lower(s.Body), "hmac signature") {
				t.Errorf("signature: body %q", s.Body)
			}
			if h.Path != "guides/webhooks" || !slices.Equal(h.Ancestors, []string{"Guides"}) {
				t.Errorf("signature: path %q ancestors %v", h.Path, h.Ancestors)
			}
			// The page's title matching lists no section of its own.
			hits = d.find(t, admin, d.space, "glossary")
			if h := hit(hits, "Glossary"); h == nil || len(h.Sections) != 0 {
				t.Errorf("glossary: %v %+v", titles(hits), h)
			}
			// The text before the first heading is a section named by the page.
			hits = d.find(t, admin, d.space, "binary container image")
			if h := hit(hits, "Installation"); h == nil || len(h.Sections) == 0 || h.Sections[0].Anchor != "" ||
				h.Sections[0].ID != d.pages["Installation"] || h.Sections[0].Title != "Installation" {
				t.Errorf("lead text: %v %+v", titles(hits), h)
			}
		})

		t.Run("several words", func(t *testing.T) {
			hits := d.find(t, admin, d.space, "restore postgresql dump")
			if len(hits) == 0 || hits[0].Title != "Backups" {
				t.Fatalf("restore postgresql dump: %v", titles(hits))
			}
			if i := index(hits, "Installation"); i >= 0 {
				t.Errorf("restore postgresql dump: Installation has only one of the words, got %v", titles(hits))
			}
			if got := sectionTitles(hits[0]); len(got) == 0 || got[0] != "Restore a backup" {
				t.Errorf("restore postgresql dump: sections %v", got)
			}
		})

		t.Run("phrase", func(t *testing.T) {
			hits := d.find(t, admin, d.space, `"retention period"`)
			if len(hits) != 1 || hits[0].Title != "Configure the server" {
				t.Errorf(`"retention period": %v`, titles(hits))
			}
			if hits := d.find(t, admin, d.space, `"period retention"`); len(hits) != 0 {
				t.Errorf(`"period retention": %v`, titles(hits))
			}
		})

		t.Run("exclusion and alternatives", func(t *testing.T) {
			hits := d.find(t, admin, d.space, "docker -compose")
			if index(hits, "Installation") < 0 || index(hits, "Deploy with Docker Compose") >= 0 {
				t.Errorf("docker -compose: %v", titles(hits))
			}
			hits = d.find(t, admin, d.space, "helm OR prometheus")
			for _, want := range []string{"Deploy on Kubernetes", "Monitoring", "Changelog"} {
				if index(hits, want) < 0 {
					t.Errorf("helm OR prometheus: no %s in %v", want, titles(hits))
				}
			}
			if hits := d.find(t, admin, d.space, "-docker"); len(hits) != 0 {
				t.Errorf("-docker alone: %v", titles(hits))
			}
		})

		t.Run("nothing", func(t *testing.T) {
			for _, q := range []string{"zeppelin", "kubernetes zeppelin", `"" ()*:^`, "NEAR(a b)", "title:zeppelin"} {
				if hits := d.find(t, admin, d.space, q); len(hits) != 0 {
					t.Errorf("%q: %v", q, titles(hits))
				}
			}
			// Characters of the databases' query syntaxes are text.
			for _, q := range []string{"(webhooks)", "webhooks:", "webhooks*", "webhooks^"} {
				if hits := d.find(t, admin, d.space, q); len(hits) == 0 || hits[0].Title != "Webhooks" {
					t.Errorf("%q: %v", q, titles(hits))
				}
			}
		})
	})
}

// The organization search reads only the live spaces the caller may read;
// a space search needs read rights on the space, and a trashed space has
// no results.
func TestSearchVisibility(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		d := newDocs(t, e)
		team := d.team
		secret := newSpace(t, e, team.Admin.Token, team.Org.ID, "Board minutes")
		trashed := newSpace(t, e, team.Admin.Token, team.Org.ID, "Old docs")
		d.write(t, secret, []corpusPage{{title: "Webhooks budget", markdown: "The board approved the webhooks budget.\n"}})
		d.write(t, trashed, []corpusPage{{title: "Webhooks (old)", markdown: "Webhooks used to be polled.\n"}})
		if r := e.Do(team.Admin.Token, "PATCH", "/v1/spaces/"+secret, map[string]any{"defaultLevel": nil}); r.Status != 200 {
			t.Fatalf("restrict: %d %s", r.Status, r.Body)
		}
		if r := e.Do(team.Admin.Token, "DELETE", "/v1/spaces/"+trashed, nil); r.Status != 205 {
			t.Fatalf("trash: %d %s", r.Status, r.Body)
		}
		search := e.Server.Resolver().Search
		first := 100
		org := func(u testenv.Actor) map[string][]string {
			t.Helper()
			p, err := search.SearchOrganization(as(e, u.User), team.Org.ID, "webhooks", pagination.Args{First: &first})
			if err != nil {
				t.Fatalf("organization search: %v", err)
			}
			out := map[string][]string{}
			for _, h := range p.Items {
				out[h.Space.ID] = titles(h.Pages)
			}
			return out
		}
		if got := org(team.Admin); len(got) != 2 || len(got[d.space]) == 0 || !slices.Equal(got[secret], []string{"Webhooks budget"}) {
			t.Errorf("admin: %v", got)
		}
		if got := org(team.Reader); len(got) != 1 || len(got[d.space]) == 0 {
			t.Errorf("reader: %v", got)
		}
		for _, u := range []testenv.Actor{team.Outsider} {
			if _, err := search.SearchOrganization(as(e, u.User), team.Org.ID, "webhooks", pagination.Args{}); apierr.CodeOf(err) != apierr.NotFound {
				t.Errorf("outsider's organization search: %v", err)
			}
			if _, err := search.SearchSpace(as(e, u.User), d.space, "webhooks", pagination.Args{}); apierr.CodeOf(err) != apierr.NotFound {
				t.Errorf("outsider's space search: %v", err)
			}
		}
		if _, err := search.SearchSpace(as(e, team.Reader.User), secret, "webhooks", pagination.Args{}); apierr.CodeOf(err) != apierr.NotFound {
			t.Errorf("reader's search of a space they may not see: %v", err)
		}
		if hits := d.find(t, team.Admin.User, trashed, "webhooks"); len(hits) != 0 {
			t.Errorf("trashed space: %v", titles(hits))
		}
		// Restored, it is found again.
		if r := e.Do(team.Admin.Token, "POST", "/v1/spaces/"+trashed+"/restore", nil); r.Status != 200 {
			t.Fatalf("restore: %d %s", r.Status, r.Body)
		}
		if got := org(team.Admin); len(got[trashed]) != 1 {
			t.Errorf("restored space: %v", got)
		}
	})
}

// Queries are bounded and checked.
func TestSearchRefusesBadQueries(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		d := newDocs(t, e)
		search := e.Server.Resolver().Search
		ctx := as(e, d.team.Admin.User)
		for _, q := range []string{"", "   ", strings.Repeat("é", search513)} {
			if _, err := search.SearchSpace(ctx, d.space, q, pagination.Args{}); apierr.CodeOf(err) != apierr.BadRequest {
				t.Errorf("query of %d characters: %v", len([]rune(q)), err)
			}
		}
		// The longest query, of words that each cost a lookup, is answered.
		long := strings.TrimSpace(strings.Repeat("webhooks OR ", 42) + "webhooks")
		if hits := d.find(t, d.team.Admin.User, d.space, long); len(hits) == 0 {
			t.Errorf("a long query found nothing")
		}
		bad := "not a cursor"
		if _, err := search.SearchSpace(ctx, d.space, "webhooks", pagination.Args{After: &bad}); apierr.CodeOf(err) != apierr.BadRequest {
			t.Errorf("bad cursor: %v", err)
		}
	})
}

const search513 = 513

// Results are paged, best first.
func TestSearchPages(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		d := newDocs(t, e)
		search := e.Server.Resolver().Search
		ctx := as(e, d.team.Admin.User)
		all := d.find(t, d.team.Admin.User, d.space, "events")
		if len(all) < 5 {
			t.Fatalf("events: %v", titles(all))
		}
		var paged []string
		var after *string
		two := 2
		for {
			p, err := search.SearchSpace(ctx, d.space, "events", pagination.Args{First: &two, After: after})
			if err != nil {
				t.Fatal(err)
			}
			if p.TotalCount != len(all) {
				t.Errorf("total %d, want %d", p.TotalCount, len(all))
			}
			paged = append(paged, titles(p.Items)...)
			if !p.HasNextPage {
				break
			}
			after = p.EndCursor
		}
		if !slices.Equal(paged, titles(all)) {
			t.Errorf("paged %v, all at once %v", paged, titles(all))
		}
	})
}

// On PostgreSQL a space is stemmed in its language; changing the language
// makes the catch-up job rebuild the index with the new one. SQLite stems
// every language alike.
func TestSearchLanguage(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		d := &docs{e: e, team: e.NewTeamOnce(), pages: map[string]string{}}
		admin := d.team.Admin
		space := newSpace(t, e, admin.Token, d.team.Org.ID, "Handbuch")
		d.write(t, space, []corpusPage{{title: "Das Haus", markdown: "Jedes Haus hat ein Dach.\n"}})
		if hits := d.find(t, admin.User, space, "Häuser"); len(hits) != 0 {
			t.Errorf("Häuser in English: %v", titles(hits))
		}
		if r := e.Do(admin.Token, "PATCH", "/v1/spaces/"+space, map[string]any{"language": "de"}); r.Status != 200 {
			t.Fatalf("language: %d %s", r.Status, r.Body)
		}
		stale, err := e.Server.Resolver().Search.Stale(context.Background(), 10)
		if err != nil {
			t.Fatal(err)
		}
		if e.Dialect == "sqlite" {
			if len(stale) != 0 {
				t.Errorf("stale on SQLite after a language change: %v", stale)
			}
			return
		}
		if !slices.Equal(stale, []string{space}) {
			t.Fatalf("stale after a language change: %v", stale)
		}
		// Until it is rebuilt, the index answers as it was built.
		if hits := d.find(t, admin.User, space, "Haus"); len(hits) != 1 {
			t.Errorf("Haus before the rebuild: %v", titles(hits))
		}
		if err := e.Server.Resolver().Content.SearchCatchUp(context.Background(), noRun{}); err != nil {
			t.Fatal(err)
		}
		hits := d.find(t, admin.User, space, "Häuser")
		if len(hits) != 1 || hits[0].Title != "Das Haus" {
			t.Errorf("Häuser in German: %v", titles(hits))
		}
	})
}

// Every configuration a language maps to exists in PostgreSQL.
func TestSearchConfigurationsExist(t *testing.T) {
	e := testenv.New(t, "postgres")
	for _, cfg := range search.Configs() {
		var n int
		if err := e.DB.SQL.QueryRow("SELECT count(*) FROM pg_ts_config WHERE cfgname = $1", cfg).Scan(&n); err != nil || n != 1 {
			t.Errorf("text search configuration %q: %d %v", cfg, n, err)
		}
	}
}
