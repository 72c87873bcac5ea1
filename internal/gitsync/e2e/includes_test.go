package e2e_test

import (
	"strings"
	"testing"

	"quire/internal/gitsync/gittest"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

// reusablesOf lists a space's reusable contents as title → id, with git paths.
func (e *env) reusablesOf(spaceID string) (ids, paths map[string]string) {
	e.T.Helper()
	rev := e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+spaceID+"/content", nil).JSON()
	ids, paths = map[string]string{}, map[string]string{}
	list, _ := rev["reusableContents"].([]any)
	for _, r := range list {
		title, _ := testenv.Path(r, "title").(string)
		ids[title], _ = testenv.Path(r, "id").(string)
		paths[title], _ = testenv.Path(r, "git", "path").(string)
	}
	return ids, paths
}

// pageRead reads a page of a space by title: its raw body and its
// dereferenced Markdown.
func (e *env) pageRead(spaceID, title string) (raw, md string) {
	e.T.Helper()
	ids, _ := e.pagesOf(spaceID)
	p := "/v1/spaces/" + spaceID + "/content/page/" + ids[title]
	raw = string(e.Do(e.team.Admin.Token, "GET", p, nil).Body)
	md, _ = e.Do(e.team.Admin.Token, "GET", p+"?format=markdown&dereferenced=true", nil).JSON()["markdown"].(string)
	return raw, md
}

func includeRepo() map[string][]byte {
	return map[string][]byte{
		"README.md":       []byte("# Welcome\n\nIntro.\n\n{% include \".gitbook/includes/warning.md\" %}\n"),
		"SUMMARY.md":      []byte("# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n"),
		"guide/README.md": []byte("# Guide\n\nGuide text.\n"),
		"guide/setup.md": []byte("# Setup\n\nBefore.\n\n{% include \"../.gitbook/includes/warning.md\" %}\n\n" +
			"{% include \"../.gitbook/includes/missing.md\" %}\n"),
		".gitbook/includes/warning.md":    []byte("---\ntitle: Mind the gap\n---\n\nMind the **gap**.\n"),
		".gitbook/includes/plain-note.md": []byte("A plain note.\n"),
	}
}

// A repository written by hand: the files of .gitbook/includes become
// reusable contents (titled by their front matter, else their file
// name), include lines become reusable-content blocks, an include of a
// missing file stays text, and includes are not pages.
func TestIncludeImportFromHand(t *testing.T) {
	forEachDB(t, testenv.Options{}, func(t *testing.T, e *env) {
		e.git.Repo(t, "inc")
		gittest.Commit(t, e.git.RepoDir("inc"), "main", includeRepo(), "Docs")
		sp := e.space("Inc")
		wantJob(t, e.importRepo(sp, map[string]any{"url": e.git.WithCredentials("inc"), "ref": "refs/heads/main"}), jobs.StateCompleted)
		rcs, paths := e.reusablesOf(sp)
		if len(rcs) != 2 || rcs["Mind the gap"] == "" || rcs["Plain note"] == "" || paths["Mind the gap"] != ".gitbook/includes/warning.md" {
			t.Fatalf("reusable contents %v %v", rcs, paths)
		}
		ids, lines := e.pagesOf(sp)
		if len(ids) != 3 {
			t.Fatalf("pages %v", lines)
		}
		for _, title := range []string{"Welcome", "Setup"} {
			raw, md := e.pageRead(sp, title)
			if !strings.Contains(raw, `"reusable-content"`) || !strings.Contains(raw, rcs["Mind the gap"]) || !strings.Contains(md, "Mind the **gap**.") {
				t.Errorf("%s: %s\n%s", title, raw, md)
			}
		}
		if _, md := e.pageRead(sp, "Setup"); !strings.Contains(md, `{% include "../.gitbook/includes/missing.md" %}`) {
			t.Errorf("missing include: %q", md)
		}

		// Re-importing keeps the ids; a file no longer in the repository
		// is deleted.
		files := map[string][]byte{".gitbook/includes/plain-note.md": nil}
		files[".gitbook/includes/warning.md"] = []byte("---\ntitle: Mind the step\n---\n\nMind the step.\n")
		gittest.Commit(t, e.git.RepoDir("inc"), "main", files, "Less")
		wantJob(t, e.importRepo(sp, map[string]any{"url": e.git.WithCredentials("inc"), "ref": "refs/heads/main"}), jobs.StateCompleted)
		again, _ := e.reusablesOf(sp)
		if len(again) != 1 || again["Mind the step"] != rcs["Mind the gap"] {
			t.Errorf("after re-import: %v (was %v)", again, rcs)
		}
	})
}

// A space's reusable contents, embedded in a top-level and a nested page,
// export as .gitbook/includes files and include lines, and import into a
// fresh space with their titles, text and embeddings.
func TestIncludeRoundTrip(t *testing.T) {
	forEachDB(t, testenv.Options{}, func(t *testing.T, e *env) {
		e.git.Repo(t, "inc")
		gittest.Commit(t, e.git.RepoDir("inc"), "main", includeRepo(), "Docs")
		sp := e.space("Inc")
		wantJob(t, e.importRepo(sp, map[string]any{"url": e.git.WithCredentials("inc"), "ref": "refs/heads/main"}), jobs.StateCompleted)

		e.git.Repo(t, "out")
		wantJob(t, e.exportSpace(sp, map[string]any{"url": e.git.WithCredentials("out"), "ref": "refs/heads/main", "commitMessage": "Export"}), jobs.StateCompleted)
		files := gittest.Files(t, e.git.RepoDir("out"), "main")
		if w := string(files[".gitbook/includes/mind-the-gap.md"]); !strings.HasPrefix(w, "---\ntitle: Mind the gap\n---\n") || !strings.Contains(w, "Mind the **gap**.") {
			t.Errorf("include file: %q (files %v)", w, sorted(keysOf(files)))
		}
		if _, ok := files[".gitbook/includes/plain-note.md"]; !ok {
			t.Errorf("files %v", sorted(keysOf(files)))
		}
		if r := string(files["README.md"]); !strings.Contains(r, "\n{% include \".gitbook/includes/mind-the-gap.md\" %}\n") {
			t.Errorf("README.md:\n%s", r)
		}
		if s := string(files["guide/setup.md"]); !strings.Contains(s, "\n{% include \"../.gitbook/includes/mind-the-gap.md\" %}\n") {
			t.Errorf("setup.md:\n%s", s)
		}

		sp2 := e.space("Copy")
		wantJob(t, e.importRepo(sp2, map[string]any{"url": e.git.WithCredentials("out"), "ref": "refs/heads/main"}), jobs.StateCompleted)
		rcs, _ := e.reusablesOf(sp2)
		if len(rcs) != 2 || rcs["Mind the gap"] == "" || rcs["Plain note"] == "" {
			t.Fatalf("reusable contents of the copy: %v", rcs)
		}
		for _, title := range []string{"Welcome", "Setup"} {
			raw, md := e.pageRead(sp2, title)
			if !strings.Contains(raw, rcs["Mind the gap"]) || !strings.Contains(md, "Mind the **gap**.") {
				t.Errorf("copy %s: %s\n%s", title, raw, md)
			}
		}

		// Nothing changed: nothing to push.
		in := e.exportSpace(sp, map[string]any{"url": e.git.WithCredentials("out"), "ref": "refs/heads/main", "commitMessage": "Again"})
		wantJob(t, in, jobs.StateCompleted)
		if !strings.HasPrefix(in.Step, "Nothing to export") {
			t.Errorf("second export: step %q", in.Step)
		}
	})
}

func keysOf(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
