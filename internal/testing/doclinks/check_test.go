package doclinks_test

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"quire/internal/testing/doclinks"
)

func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"Quickstart":       "quickstart",
		"REST API (`/v1`)": "rest-api-v1",
		"Docs sites (`/orgs/{organizationId}/sites`)": "docs-sites-orgsorganizationidsites",
		"Engines, requests and jobs":                  "engines-requests-and-jobs",
		"Upgrading gqlgen, gqlparser or ent":          "upgrading-gqlgen-gqlparser-or-ent",
		"What's new: `make bench` 2.0":                "whats-new-make-bench-20",
		"A [linked](other.md) **bold** title":         "a-linked-bold-title",
		"snake_case and kebab-case":                   "snake_case-and-kebab-case",
		"Übersicht":                                   "übersicht",
	} {
		if got := doclinks.Slug(heading); got != want {
			t.Errorf("Slug(%q) = %q, want %q", heading, got, want)
		}
	}
}

func TestAnchorsNumberDuplicates(t *testing.T) {
	page := "# Title\n\n## Tests\n\n### Search\n\n## Search\n\n```sh\n# not a heading\n```\n\n## Search\n"
	want := []string{"title", "tests", "search", "search-1", "search-2"}
	if got := doclinks.Anchors(page); !reflect.DeepEqual(got, want) {
		t.Errorf("Anchors = %q, want %q", got, want)
	}
}

func TestLinksOutsideCode(t *testing.T) {
	page := strings.Join([]string{
		"See [a](a.md) and ![b](img/b.png \"title\").",
		"Not `[c](c.md)`, nor ``[d](d.md)``, nor a span",
		"`across [e](e.md)",
		"lines`.",
		"```md",
		"[f](f.md)",
		"```",
		"~~~",
		"[g](g.md)",
		"~~~",
		"[h](<h h.md>) and [i [nested]](i.md#x)",
		"",
		"[ref]: j.md",
	}, "\n")
	var got []string
	for _, l := range doclinks.Links(page) {
		got = append(got, l.Target)
	}
	want := []string{"a.md", "img/b.png", "h h.md", "i.md#x", "j.md"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Links = %q, want %q", got, want)
	}
}

// tree is a small repository in memory: a README and two pages, one link
// of each kind that must pass, a broken link and a broken anchor.
func tree() fstest.MapFS {
	return fstest.MapFS{
		"go.mod":      {Data: []byte("module x\n")},
		"cmd/main.go": {Data: []byte("package main\n")},
		"README.md": {Data: []byte(strings.Join([]string{
			"# X",
			"",
			"[api](docs/api.md), [limits](docs/api.md#rate-limits), [here](#x), [site](https://example.com/nowhere.md)",
			"[code](cmd/main.go), [dir](cmd/), [mail](mailto:a@example.com)",
			"[gone](docs/gone.md)",
			"[typo](docs/api.md#rate-limit)",
			"`[in code](docs/nothing.md)`",
		}, "\n"))},
		"docs/api.md": {Data: []byte(strings.Join([]string{
			"# API",
			"",
			"For callers.",
			"",
			"- [Rate limits](#rate-limits)",
			"",
			"## Rate limits",
			"",
			"[back](../README.md#x), [other](ops.md#backups), [up](../../outside.md)",
		}, "\n"))},
		"docs/ops.md":      {Data: []byte("# Ops\n\n- [Backups](#backups)\n\n## Backups\n\n## Replicas\n")},
		"docs/untitled.md": {Data: []byte("For nobody.\n\n## Only\n")},
	}
}

func messages(ps []doclinks.Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.String())
	}
	return out
}

func TestLinksFindsBrokenLinkAndAnchor(t *testing.T) {
	c := &doclinks.Checker{FS: tree()}
	ps, err := c.Links("README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`README.md:5: link "docs/gone.md": no such file or directory: docs/gone.md`,
		`README.md:6: link "docs/api.md#rate-limit": docs/api.md has no heading with the anchor #rate-limit`,
	}
	if got := messages(ps); !reflect.DeepEqual(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	ps, err = c.Links("docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	want = []string{`docs/api.md:9: link "../../outside.md": leaves the repository`}
	if got := messages(ps); !reflect.DeepEqual(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestContentsFindsMissingEntry(t *testing.T) {
	c := &doclinks.Checker{FS: tree()}
	if ps, err := c.Contents("docs/api.md"); err != nil || len(ps) != 0 {
		t.Errorf("docs/api.md: %v, %v; want no problem", messages(ps), err)
	}
	ps, err := c.Contents("docs/ops.md")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`docs/ops.md:7: heading "Replicas" (#replicas) is missing from the table of contents`}
	if got := messages(ps); !reflect.DeepEqual(got, want) {
		t.Errorf("problems: %q, want %q", got, want)
	}
}

func TestContentsFindsMissingTitle(t *testing.T) {
	c := &doclinks.Checker{FS: tree()}
	ps, err := c.Contents("docs/untitled.md")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`docs/untitled.md:1: the page does not start with its title (# Title)`,
		`docs/untitled.md:3: heading "Only" (#only) is missing from the table of contents`,
	}
	if got := messages(ps); !reflect.DeepEqual(got, want) {
		t.Errorf("problems: %q, want %q", got, want)
	}
}
