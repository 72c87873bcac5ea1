package search_test

import (
	"slices"
	"strings"
	"testing"

	"quire/internal/testenv"
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
