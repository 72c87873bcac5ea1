package e2e_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"quire/internal/gitsync/gittest"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

// An import over smart HTTP with credentials in the URL reads the
// project's .gitbook.yaml, its README and its SUMMARY (nested pages, a
// group, an external link), turns relative links into references to the
// pages and files they name, and makes the commit the space's current
// revision, with Git metadata on the revision, its pages and files.
func TestImportOverHTTP(t *testing.T) {
	forEachDB(t, testenv.Options{}, func(t *testing.T, e *env) {
		e.git.Repo(t, "handbook")
		oid := gittest.Commit(t, e.git.RepoDir("handbook"), "main", handbook(t), "Docs for 1.0\n\nThe first release.")
		sp := e.space("Handbook")
		if r := e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+sp+"/git/info", nil); r.Status != 404 {
			t.Fatalf("info before any sync: %d %s", r.Status, r.Body)
		}
		in := e.importRepo(sp, map[string]any{
			"url": e.git.WithCredentials("handbook"), "ref": "refs/heads/main",
			"repoCommitURL": "https://git.example.com/acme/handbook/commit/",
			"gitInfo":       map[string]any{"provider": "github", "url": "https://github.com/acme/handbook/tree/main"},
		})
		wantJob(t, in, jobs.StateCompleted)
		if in.Kind != "git.import" || in.Progress != 1 || !strings.Contains(in.Step, "Imported commit "+oid[:7]+": 10 pages, 3 files") {
			t.Errorf("job %+v", in)
		}

		r := e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+sp+"/content", nil)
		rev := r.JSON()
		pages := rev["pages"].([]any)
		want := []string{
			"welcome Welcome (document)",
			"getting-started Getting started (document)",
			"getting-started/quickstart Quick start (document)",
			"getting-started/installation Installation (document)",
			"getting-started/installation/linux On Linux (document)",
			"faq FAQ (document)",
			"reference Reference (group)",
			"reference/api API (document)",
			"reference/cli Command line (document)",
			"Changelog (link)",
		}
		if got := tree(pages); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("tree:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		git := rev["git"].(map[string]any)
		if git["oid"] != oid || git["message"] != "Docs for 1.0\n\nThe first release." || git["createdByService"] != false ||
			git["ref"] != "refs/heads/main" || git["url"] != "https://git.example.com/acme/handbook/commit/"+oid {
			t.Errorf("revision git %v", git)
		}
		linux := pageAt(pages, "On Linux")
		if g := linux["git"].(map[string]any); g["path"] != "docs/getting-started/installation/linux.md" || len(g["oid"].(string)) != 40 {
			t.Errorf("page git %v", g)
		}
		if welcome := pageAt(pages, "Welcome"); welcome["description"] != "Everything you need to run the Handbook service." {
			t.Errorf("front matter description: %v", welcome["description"])
		}
		files := map[string]map[string]any{}
		for _, f := range rev["files"].([]any) {
			m := f.(map[string]any)
			files[m["name"].(string)] = m
		}
		if len(files) != 3 || files["architecture.png"]["contentType"] != "image/png" ||
			files["logo mark.png"]["git"].(map[string]any)["path"] != "docs/.gitbook/assets/logo mark.png" || files["install.sh"] == nil || files["main.go"] != nil {
			t.Errorf("files %v", files)
		}

		// Relative links became references to pages (with anchors) and
		// files; nothing is broken.
		md := func(title string) string {
			p := pageAt(pages, title)
			r := e.Do(e.team.Admin.Token, "GET", fmt.Sprintf("/v1/spaces/%s/content/page/%s?format=markdown", sp, p["id"]), nil)
			return r.JSON()["markdown"].(string)
		}
		id := func(title string) string { return pageAt(pages, title)["id"].(string) }
		fid := func(name string) string { return files[name]["id"].(string) }
		for title, wants := range map[string][]string{
			"Welcome":      {"(page://" + id("Quick start") + ")", "(page://" + id("API") + "#authentication)", "![Architecture](file://" + fid("architecture.png") + ")", "(page://" + id("FAQ") + ")", `{% hint style="info" %}`},
			"Quick start":  {"(page://" + id("Installation") + ")", "(page://" + id("Welcome") + ")", "```sh"},
			"On Linux":     {`{% file src="file://` + fid("install.sh") + `" %}`, "(page://" + id("Quick start") + "#start-it)"},
			"API":          {"(page://" + id("FAQ") + ")", "file://" + fid("logo mark.png")},
			"Installation": {"[On Linux](page://" + id("On Linux") + ")"},
		} {
			got := md(title)
			for _, w := range wants {
				if !strings.Contains(got, w) {
					t.Errorf("%s: markdown lacks %q:\n%s", title, w, got)
				}
			}
			if strings.HasPrefix(got, "# ") {
				t.Errorf("%s: the title heading stayed in the content:\n%s", title, got)
			}
		}
		links := e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+sp+"/links?status=broken", nil).JSON()
		if broken := testenv.Path(links, "stats", "broken", "total"); broken != float64(0) {
			for _, l := range links["items"].([]any) {
				t.Errorf("broken link to %v", l.(map[string]any)["target"])
			}
		}

		// The space shows its Git provider; credentials show nowhere.
		info := e.Do(e.team.Reader.Token, "GET", "/v1/spaces/"+sp+"/git/info", nil)
		if info.Status != 200 {
			t.Fatalf("info: %d %s", info.Status, info.Body)
		}
		gi := info.JSON()
		if gi["repoName"] != "handbook" || gi["installationProvider"] != "github" || gi["integration"] != "github" ||
			gi["url"] != "https://github.com/acme/handbook/tree/main" || gi["updatedAt"] == nil {
			t.Errorf("git info %v", gi)
		}
		space := e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+sp, nil).JSON()
		if fmt.Sprint(space["gitSync"]) != fmt.Sprint(gi) {
			t.Errorf("space gitSync %v, info %v", space["gitSync"], gi)
		}
		raw, _ := json.Marshal([]any{rev, gi, space, in})
		if strings.Contains(string(raw), gitPassword) {
			t.Errorf("a credential shows: %s", raw)
		}
		// metadata=false leaves the Git metadata out.
		plain := e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+sp+"/content?metadata=false", nil)
		if strings.Contains(string(plain.Body), `"git"`) {
			t.Errorf("metadata=false still has git: %.300s", plain.Body)
		}
	})
}
