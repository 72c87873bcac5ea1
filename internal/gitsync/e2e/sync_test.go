package e2e_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"quire/internal/gitsync"
	"quire/internal/gitsync/gittest"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

func (e *env) revisionOID(spaceID string) string {
	e.T.Helper()
	rev := e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+spaceID+"/content", nil).JSON()
	g, _ := rev["git"].(map[string]any)
	oid, _ := g["oid"].(string)
	return oid
}

// Operations older than the latest one applied to the space are skipped
// (the job completes saying so) unless forced; without a timestamp an
// operation is not ordered.
func TestTimestampsKeepOperationsInOrder(t *testing.T) {
	forEachDB(t, testenv.Options{}, func(t *testing.T, e *env) {
		e.git.Repo(t, "docs")
		dir := e.git.RepoDir("docs")
		v1 := gittest.Commit(t, dir, "main", map[string][]byte{"README.md": []byte("# Home\n\nVersion one.\n")}, "v1")
		sp := e.space("Docs")
		url := e.git.WithCredentials("docs")
		late, early := "2030-01-02T10:00:00Z", "2030-01-02T09:00:00.500+01:00"
		wantJob(t, e.importRepo(sp, map[string]any{"url": url, "ref": "refs/heads/main", "timestamp": late}), jobs.StateCompleted)
		v2 := gittest.Commit(t, dir, "main", map[string][]byte{"README.md": []byte("# Home\n\nVersion two.\n")}, "v2")

		in := e.importRepo(sp, map[string]any{"url": url, "ref": "refs/heads/main", "timestamp": early})
		wantJob(t, in, jobs.StateCompleted)
		if !strings.HasPrefix(in.Step, "Skipped: this import's timestamp (2030-01-02T08:00:00Z) is older than that of the latest operation applied to the space (2030-01-02T10:00:00Z)") {
			t.Errorf("step %q", in.Step)
		}
		if oid := e.revisionOID(sp); oid != v1 {
			t.Fatalf("a stale import applied: revision from %s, want %s", oid, v1)
		}
		in = e.exportSpace(sp, map[string]any{"url": url, "ref": "refs/heads/main", "commitMessage": "old", "timestamp": early})
		if wantJob(t, in, jobs.StateCompleted); !strings.HasPrefix(in.Step, "Skipped: this export's") || gittest.Head(t, dir, "main").Hash.String() != v2 {
			t.Errorf("a stale export: step %q", in.Step)
		}

		wantJob(t, e.importRepo(sp, map[string]any{"url": url, "ref": "refs/heads/main", "timestamp": early, "force": true}), jobs.StateCompleted)
		if oid := e.revisionOID(sp); oid != v2 {
			t.Fatalf("a forced import did not apply: %s, want %s", oid, v2)
		}
		// The latest timestamp stays the later one: early is still stale.
		gittest.Commit(t, dir, "main", map[string][]byte{"README.md": []byte("# Home\n\nVersion three.\n")}, "v3")
		if in := e.importRepo(sp, map[string]any{"url": url, "ref": "refs/heads/main", "timestamp": early}); !strings.HasPrefix(in.Step, "Skipped") {
			t.Errorf("step %q", in.Step)
		}
		v4 := gittest.Commit(t, dir, "main", map[string][]byte{"README.md": []byte("# Home\n\nVersion four.\n")}, "v4")
		wantJob(t, e.importRepo(sp, map[string]any{"url": url, "ref": "refs/heads/main"}), jobs.StateCompleted)
		if oid := e.revisionOID(sp); oid != v4 {
			t.Fatalf("an import without timestamp: %s, want %s", oid, v4)
		}
	})
}

// Refused credentials, a missing repository or ref fail a job at once;
// a server that is down for a while is retried until it answers. No
// error or step shows the credentials.
func TestFailuresAndRetries(t *testing.T) {
	forEachDB(t, testenv.Options{}, func(t *testing.T, e *env) {
		e.git.Repo(t, "docs")
		gittest.Commit(t, e.git.RepoDir("docs"), "main", map[string][]byte{"README.md": []byte("# Home\n")}, "v1")
		sp := e.space("Docs")
		bad := strings.Replace(e.git.WithCredentials("docs"), gitPassword, "wrong-password-123", 1)
		for _, c := range []struct {
			name, url, ref, want string
		}{
			{"credentials", bad, "refs/heads/main", "authentication refused: the repository's server did not accept the credentials of the URL"},
			{"repository", e.git.WithCredentials("nope"), "refs/heads/main", "not a Git repository: the server has no repository at this URL"},
			{"ref", e.git.WithCredentials("docs"), "refs/heads/gone", "the ref does not exist in the repository: refs/heads/gone"},
		} {
			in := e.importRepo(sp, map[string]any{"url": c.url, "ref": c.ref})
			wantJob(t, in, jobs.StateFailed)
			if in.Attempt != 1 || len(in.Errors) != 1 || !strings.Contains(in.Errors[0].Message, c.want) {
				t.Errorf("%s: attempts %d, errors %+v; want one with %q", c.name, in.Attempt, in.Errors, c.want)
			}
			raw, _ := json.Marshal(in)
			if strings.Contains(string(raw), gitPassword) || strings.Contains(string(raw), "wrong-password-123") {
				t.Errorf("%s: a credential shows: %s", c.name, raw)
			}
		}
		e.git.Unavailable(2)
		in := e.importRepo(sp, map[string]any{"url": e.git.WithCredentials("docs"), "ref": "refs/heads/main"})
		wantJob(t, in, jobs.StateCompleted)
		if in.Attempt != 3 || len(in.Errors) != 2 || !strings.Contains(in.Errors[0].Message, "503") {
			t.Errorf("retried job: attempt %d, errors %+v", in.Attempt, in.Errors)
		}
		if r := e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+sp+"/content", nil).JSON(); len(r["pages"].([]any)) != 1 {
			t.Errorf("pages %v", r["pages"])
		}
	})
}

// Repositories beyond the limits fail for good, naming the limit.
func TestRepositoryLimits(t *testing.T) {
	o := testenv.Options{Git: gitsync.Config{Limits: gitsync.Limits{ObjectBytes: 2048, TotalBytes: 8 << 10, PackBytes: 6 << 10, Files: 5}}}
	forEachDB(t, o, func(t *testing.T, e *env) {
		sp := e.space("Docs")
		for _, c := range []struct {
			name  string
			files map[string][]byte
			want  string
		}{
			{"object", map[string][]byte{"README.md": []byte("# Home\n"), ".gitbook/assets/big.bin": []byte(strings.Repeat("x", 4096))}, "an object of 4096 bytes (the limit is 2048)"},
			{"total", map[string][]byte{"a.md": []byte(strings.Repeat("a", 2000)), "b.md": []byte(strings.Repeat("b", 2000)),
				"c.md": []byte(strings.Repeat("c", 2000)), "d.md": []byte(strings.Repeat("d", 2000)), "e.md": []byte(strings.Repeat("e", 2000))}, "its files take more than 8192 bytes"},
			{"files", map[string][]byte{"1.md": []byte("1"), "2.md": []byte("2"), "3.md": []byte("3"), "4.md": []byte("4"), "5.md": []byte("5"), "6.md": []byte("6")}, "more than 5 files"},
		} {
			e.git.Repo(t, c.name)
			gittest.Commit(t, e.git.RepoDir(c.name), "main", c.files, c.name)
			in := e.importRepo(sp, map[string]any{"url": e.git.WithCredentials(c.name), "ref": "refs/heads/main"})
			wantJob(t, in, jobs.StateFailed)
			if in.Attempt != 1 || !strings.Contains(in.Errors[0].Message, c.want) {
				t.Errorf("%s: attempts %d, errors %+v, want %q", c.name, in.Attempt, in.Errors, c.want)
			}
		}
		// Incompressible content beyond the packed size.
		rnd := rand.New(rand.NewPCG(1, 2))
		files := map[string][]byte{}
		for _, n := range []string{"a", "b", "c", "d", "e"} {
			noise := make([]byte, 1500)
			for i := range noise {
				noise[i] = byte(rnd.Uint32())
			}
			files[n+".bin"] = noise
		}
		e.git.Repo(t, "packed")
		gittest.Commit(t, e.git.RepoDir("packed"), "main", files, "noise")
		in := e.importRepo(sp, map[string]any{"url": e.git.WithCredentials("packed"), "ref": "refs/heads/main"})
		wantJob(t, in, jobs.StateFailed)
		if !strings.Contains(in.Errors[0].Message, "its objects take more than 6144 bytes packed") {
			t.Errorf("packed: %+v", in.Errors)
		}
	})
}

// A standalone import writes a revision of its own, which the job's step
// names, and leaves the space's content as it was.
func TestStandaloneImport(t *testing.T) {
	forEachDB(t, testenv.Options{}, func(t *testing.T, e *env) {
		e.git.Repo(t, "docs")
		oid := gittest.Commit(t, e.git.RepoDir("docs"), "main", map[string][]byte{"README.md": []byte("# Preview\n\nNot yet.\n")}, "preview")
		sp := e.space("Docs")
		before := e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+sp, nil).JSON()["revision"]
		in := e.importRepo(sp, map[string]any{"url": e.git.WithCredentials("docs"), "ref": "refs/heads/main", "standalone": true})
		wantJob(t, in, jobs.StateCompleted)
		_, revID, ok := strings.Cut(in.Step, "into standalone revision ")
		if !ok {
			t.Fatalf("step %q", in.Step)
		}
		if now := e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+sp, nil).JSON()["revision"]; now != before {
			t.Errorf("the space's revision changed: %v, was %v", now, before)
		}
		g := e.GraphQL(e.team.Reader.Token, `query($id: ID!) { revision(id: $id) { parents git { oid createdByService ref } pages { title git { path } } } }`,
			map[string]any{"id": revID})
		if len(g.Errors) > 0 || testenv.Path(g.Data, "revision", "git", "oid") != oid || testenv.Path(g.Data, "revision", "parents", 0) != before ||
			testenv.Path(g.Data, "revision", "pages", 0, "title") != "Preview" || testenv.Path(g.Data, "revision", "pages", 0, "git", "path") != "README.md" {
			t.Errorf("standalone revision: %s", g.Raw)
		}
	})
}

// file:// URLs name repositories in the directories the operator allows,
// and nowhere else (symbolic links included); without a SUMMARY.md the
// directory layout is the page tree; a project directory and the root of
// its .gitbook.yaml say where the content lives.
func TestLocalRepositoriesAndLayouts(t *testing.T) {
	root := t.TempDir()
	forEachDB(t, withFiles(root), func(t *testing.T, e *env) {
		repo := filepath.Join(root, e.Dialect+"-layout.git")
		gittest.Init(t, repo)
		oid := gittest.Commit(t, repo, "trunk", map[string][]byte{
			"site/.gitbook.yaml":                      []byte("root: content\nstructure:\n  readme: intro.md\n"),
			"site/content/intro.md":                   []byte("# Introduction\n\nSee [tuning](advanced/tuning.md).\n"),
			"site/content/guide.md":                   []byte("Plain text, no heading.\n"),
			"site/content/advanced/README.md":         []byte("# Advanced topics\n"),
			"site/content/advanced/tuning.md":         []byte("# Tuning\n\nBack to the [intro](../intro.md).\n"),
			"site/content/misc-notes/release-plan.md": []byte("# Release plan\n"),
			"site/content/.github/template.md":        []byte("# Not content\n"),
			"README.md":                               []byte("# The project\n"),
		}, "layout")
		sp := e.space("Local")
		in := e.importRepo(sp, map[string]any{"url": "file://" + repo, "ref": "refs/heads/trunk", "repoProjectDirectory": "./site/"})
		wantJob(t, in, jobs.StateCompleted)
		rev := e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+sp+"/content", nil).JSON()
		want := []string{
			"introduction Introduction (document)",
			"advanced Advanced topics (document)",
			"advanced/tuning Tuning (document)",
			"guide Guide (document)",
			"misc-notes Misc notes (document)",
			"misc-notes/release-plan Release plan (document)",
		}
		if got := tree(rev["pages"].([]any)); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("tree:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if g := rev["git"].(map[string]any); g["oid"] != oid {
			t.Errorf("git %v", g)
		}
		if info := e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+sp+"/git/info", nil).JSON(); info["repoName"] != e.Dialect+"-layout" {
			t.Errorf("info %v", info)
		}

		// Outside the allowed directory, even through a link: refused.
		outside := t.TempDir()
		gittest.Init(t, filepath.Join(outside, "secret.git"))
		link := filepath.Join(root, e.Dialect+"-link.git")
		if err := os.Symlink(filepath.Join(outside, "secret.git"), link); err != nil {
			t.Fatal(err)
		}
		for _, u := range []string{"file://" + filepath.Join(outside, "secret.git"), "file://" + link, "file://" + root + "/../" + filepath.Base(outside)} {
			r := e.Do(e.team.Admin.Token, "POST", "/v1/spaces/"+sp+"/git/import", map[string]any{"url": u, "ref": "refs/heads/main"})
			if r.Status != 400 || !strings.Contains(string(r.Body), "url does not name a directory this server allows repositories in") {
				t.Errorf("%s: %d %s", u, r.Status, r.Body)
			}
		}

		// A SUMMARY.md entry that leaves the content root fails the import.
		gittest.Commit(t, repo, "bad", map[string][]byte{"SUMMARY.md": []byte("* [Home](README.md)\n* [Secret](../etc/passwd.md)\n"), "README.md": []byte("# Home\n")}, "bad")
		in = e.importRepo(sp, map[string]any{"url": "file://" + repo, "ref": "refs/heads/bad"})
		wantJob(t, in, jobs.StateFailed)
		if !strings.Contains(in.Errors[0].Message, `SUMMARY.md line 2: "../etc/passwd.md" points outside the content root`) {
			t.Errorf("errors %+v", in.Errors)
		}
	})
}
