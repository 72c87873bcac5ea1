package e2e_test

import (
	"fmt"
	"strings"
	"testing"

	"quire/internal/gitsync/gittest"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

// pagesOf reads a space's page tree and each document page's Markdown,
// as "path|title|type|markdown" lines.
func (e *env) pagesOf(spaceID string) (ids map[string]string, lines []string) {
	e.T.Helper()
	rev := e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+spaceID+"/content", nil).JSON()
	ids = map[string]string{}
	var walk func(list []any)
	walk = func(list []any) {
		for _, p := range list {
			m := p.(map[string]any)
			path, _ := m["path"].(string)
			md := ""
			if m["type"] == "document" {
				r := e.Do(e.team.Admin.Token, "GET", fmt.Sprintf("/v1/spaces/%s/content/page/%s?format=markdown", spaceID, m["id"]), nil)
				md = r.JSON()["markdown"].(string)
			}
			ids[m["title"].(string)] = m["id"].(string)
			lines = append(lines, fmt.Sprintf("%s|%s|%s|%v|%s", path, m["title"], m["type"], m["description"], md))
			if kids, ok := m["pages"].([]any); ok {
				walk(kids)
			}
		}
	}
	walk(rev["pages"].([]any))
	return ids, lines
}

// named replaces the ids of pages and files in lines by their titles and
// names, to compare the content of two spaces.
func (e *env) named(spaceID string, lines []string) []string {
	e.T.Helper()
	ids, _ := e.pagesOf(spaceID)
	rev := e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+spaceID+"/content", nil).JSON()
	var pairs []string
	for title, id := range ids {
		pairs = append(pairs, id, "<"+title+">")
	}
	for _, f := range rev["files"].([]any) {
		m := f.(map[string]any)
		pairs = append(pairs, m["id"].(string), "<"+m["name"].(string)+">")
	}
	r := strings.NewReplacer(pairs...)
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = r.Replace(l)
	}
	return out
}

// An export writes the space as Markdown files, a SUMMARY.md and its
// assets, commits them on the branch's head (author: the user who asked,
// committer: Quire) and pushes; importing that commit back gives the
// same pages, with the same ids, and a revision marked as created by
// Quire. Exporting again without changes pushes nothing.
func TestExportRoundTrip(t *testing.T) {
	forEachDB(t, testenv.Options{}, func(t *testing.T, e *env) {
		e.git.Repo(t, "handbook")
		gittest.Commit(t, e.git.RepoDir("handbook"), "main", handbook(t), "Docs")
		sp := e.space("Handbook")
		wantJob(t, e.importRepo(sp, map[string]any{"url": e.git.WithCredentials("handbook"), "ref": "refs/heads/main"}), jobs.StateCompleted)
		ids, before := e.pagesOf(sp)

		// Export to a new branch of an empty repository.
		e.git.Repo(t, "out")
		in := e.exportSpace(sp, map[string]any{"url": e.git.WithCredentials("out"), "ref": "refs/heads/docs", "commitMessage": "Export from Quire"})
		wantJob(t, in, jobs.StateCompleted)
		if !strings.HasPrefix(in.Step, "Exported commit ") {
			t.Errorf("step %q", in.Step)
		}
		head := gittest.Head(t, e.git.RepoDir("out"), "docs")
		if head.Author.Name != "admin" || head.Author.Email != "admin@acme.test" || head.Committer.Name != "Quire" ||
			!strings.HasPrefix(head.Committer.Email, "quire@") || head.Message != "Export from Quire" || len(head.ParentHashes) != 0 {
			t.Errorf("commit %+v", head)
		}
		files := gittest.Files(t, e.git.RepoDir("out"), "docs")
		var names []string
		for n := range files {
			names = append(names, n)
		}
		want := []string{
			".gitbook/assets/architecture.png", ".gitbook/assets/install.sh", ".gitbook/assets/logo mark.png",
			"README.md", "SUMMARY.md", "faq.md", "getting-started/README.md", "getting-started/installation/README.md",
			"getting-started/installation/linux.md", "getting-started/quickstart.md", "reference/api.md", "reference/cli.md",
		}
		if got := strings.Join(sorted(names), "\n"); got != strings.Join(want, "\n") {
			t.Fatalf("files:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
		}
		summary := string(files["SUMMARY.md"])
		for _, line := range []string{
			"* [Welcome](README.md)", "* [Getting started](getting-started/README.md)",
			"  * [Installation](getting-started/installation/README.md)", "    * [On Linux](getting-started/installation/linux.md)",
			"## Reference", "* [API](reference/api.md)", "* [Changelog](https://example.com/changelog)",
		} {
			if !strings.Contains(summary, line+"\n") {
				t.Errorf("SUMMARY.md lacks %q:\n%s", line, summary)
			}
		}
		readme := string(files["README.md"])
		for _, w := range []string{"description: Everything you need to run the Handbook service.", "# Welcome",
			"[quick start](getting-started/quickstart.md)", "(reference/api.md#authentication)", "(.gitbook/assets/architecture.png)"} {
			if !strings.Contains(readme, w) {
				t.Errorf("README.md lacks %q:\n%s", w, readme)
			}
		}
		if linux := string(files["getting-started/installation/linux.md"]); !strings.Contains(linux, `{% file src="../../.gitbook/assets/install.sh" %}`) ||
			!strings.Contains(linux, "(../quickstart.md#start-it)") {
			t.Errorf("linux.md:\n%s", linux)
		}
		if api := string(files["reference/api.md"]); !strings.Contains(api, "<../.gitbook/assets/logo mark.png>") {
			t.Errorf("api.md:\n%s", api)
		}

		// Import the export back into the space: the same pages.
		in = e.importRepo(sp, map[string]any{"url": e.git.WithCredentials("out"), "ref": "refs/heads/docs"})
		wantJob(t, in, jobs.StateCompleted)
		ids2, after := e.pagesOf(sp)
		if strings.Join(after, "\n") != strings.Join(before, "\n") {
			t.Errorf("pages changed by the round trip:\n%s\nwant:\n%s", strings.Join(after, "\n"), strings.Join(before, "\n"))
		}
		for title, id := range ids {
			if ids2[title] != id {
				t.Errorf("page %q: id %s after the round trip, was %s", title, ids2[title], id)
			}
		}
		rev := e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+sp+"/content", nil).JSON()
		if g := rev["git"].(map[string]any); g["createdByService"] != true || g["oid"] != head.Hash.String() {
			t.Errorf("revision git after importing an export: %v", g)
		}

		// A new space imports the same pages.
		sp2 := e.space("Copy")
		wantJob(t, e.importRepo(sp2, map[string]any{"url": e.git.WithCredentials("out"), "ref": "refs/heads/docs"}), jobs.StateCompleted)
		_, copied := e.pagesOf(sp2)
		if got, want := e.named(sp2, copied), e.named(sp, before); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("pages of a fresh import of the export:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}

		// Nothing changed: nothing to push.
		in = e.exportSpace(sp, map[string]any{"url": e.git.WithCredentials("out"), "ref": "refs/heads/docs", "commitMessage": "Again"})
		wantJob(t, in, jobs.StateCompleted)
		if !strings.HasPrefix(in.Step, "Nothing to export") || gittest.Head(t, e.git.RepoDir("out"), "docs").Hash != head.Hash {
			t.Errorf("second export: step %q", in.Step)
		}
	})
}

// An export into an existing branch keeps the files it does not own (code,
// the configuration, Markdown files its SUMMARY.md does not list) and
// replaces the pages the branch's SUMMARY.md lists, the readme, the
// summary and the assets below the content root.
func TestExportKeepsOtherFiles(t *testing.T) {
	forEachDB(t, testenv.Options{}, func(t *testing.T, e *env) {
		e.git.Repo(t, "handbook")
		files := handbook(t)
		files["docs/CONTRIBUTING.md"] = []byte("# Contributing\n")
		files[".github/pull_request_template.md"] = []byte("Describe the change.\n")
		base := gittest.Commit(t, e.git.RepoDir("handbook"), "main", files, "Docs")
		sp := e.space("Handbook")
		wantJob(t, e.importRepo(sp, map[string]any{"url": e.git.WithCredentials("handbook"), "ref": "refs/heads/main"}), jobs.StateCompleted)
		// A page goes: its file goes too.
		ids, _ := e.pagesOf(sp)
		g := e.GraphQL(e.team.Admin.Token, `mutation($s: ID!) { createChangeRequest(input: {space: $s, subject: "Drop"}) { id } }`, map[string]any{"s": sp})
		cr := testenv.Path(g.Data, "createChangeRequest", "id").(string)
		if g := e.GraphQL(e.team.Admin.Token, `mutation($c: ID!, $p: ID!) { deletePage(changeRequest: $c, page: $p) { changed } }`,
			map[string]any{"c": cr, "p": ids["Command line"]}); len(g.Errors) > 0 {
			t.Fatal(g.Raw)
		}
		if g := e.GraphQL(e.team.Admin.Token, `mutation($c: ID!) { mergeChangeRequest(id: $c) { result } }`, map[string]any{"c": cr}); len(g.Errors) > 0 {
			t.Fatal(g.Raw)
		}
		in := e.exportSpace(sp, map[string]any{"url": e.git.WithCredentials("handbook"), "ref": "refs/heads/main", "commitMessage": "Drop the CLI page"})
		wantJob(t, in, jobs.StateCompleted)
		head := gittest.Head(t, e.git.RepoDir("handbook"), "main")
		if len(head.ParentHashes) != 1 || head.ParentHashes[0].String() != base {
			t.Errorf("parents %v, want %s", head.ParentHashes, base)
		}
		files = gittest.Files(t, e.git.RepoDir("handbook"), "main")
		if files["src/main.go"] == nil || files[".gitbook.yaml"] == nil || files["docs/CONTRIBUTING.md"] == nil || files[".github/pull_request_template.md"] == nil {
			t.Errorf("the export dropped files it does not own: %v", sorted(keys(files)))
		}
		if files["docs/reference/cli.md"] != nil || files["docs/reference/api.md"] == nil || files["docs/getting-started/installation/README.md"] == nil ||
			files["docs/getting-started/installation.md"] != nil {
			t.Errorf("docs after the export: %v", sorted(keys(files)))
		}
	})
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}
