package e2e_test

import (
	"fmt"
	"strings"
	"testing"

	"quire/internal/gitsync/gittest"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

const importMutation = `mutation($in: ImportGitRepositoryInput!) { importGitRepository(input: $in) { id kind state } }`
const exportMutation = `mutation($in: ExportToGitRepositoryInput!) { exportToGitRepository(input: $in) { id kind state } }`

// Both doors refuse the same inputs with the same messages, before any
// job exists; callers without rights get 403 / FORBIDDEN, callers who may
// not see the space 404 / NOT_FOUND.
func TestBothDoorsCheckRequestsAlike(t *testing.T) {
	forEachDB(t, testenv.Options{}, func(t *testing.T, e *env) {
		sp := e.space("Docs")
		base := func(extra map[string]any) map[string]any {
			m := map[string]any{"url": "https://git.example.com/docs.git", "ref": "refs/heads/main"}
			for k, v := range extra {
				m[k] = v
			}
			return m
		}
		for _, c := range []struct {
			name   string
			export bool
			body   map[string]any
			field  string
			msg    string
		}{
			{"scheme", false, base(map[string]any{"url": "ssh://git@git.example.com/docs.git"}), "url", `url must be an http or https URL (scheme "ssh" is not supported)`},
			{"file", false, base(map[string]any{"url": "file:///srv/git/docs.git"}), "url", "file URLs are not allowed on this server"},
			{"long url", false, base(map[string]any{"url": "https://x.test/" + strings.Repeat("a", 2048)}), "url", "url must be at most 2048 characters long"},
			{"empty url", false, base(map[string]any{"url": ""}), "url", "url is required"},
			{"ref", false, base(map[string]any{"ref": "main"}), "ref", "ref must be a branch, as refs/heads/<branch>"},
			{"ref dots", true, base(map[string]any{"ref": "refs/heads/../../x", "commitMessage": "m"}), "ref", "ref must be a branch, as refs/heads/<branch>"},
			{"directory", false, base(map[string]any{"repoProjectDirectory": "docs/../../etc"}), "repoProjectDirectory", "repoProjectDirectory may not leave the repository (it holds ..)"},
			{"tree url", false, base(map[string]any{"repoTreeURL": "javascript:alert(1)"}), "repoTreeURL", "repoTreeURL must be an http or https URL"},
			{"message", true, base(map[string]any{"commitMessage": "  "}), "commitMessage", "commitMessage is required"},
		} {
			path, doc := "/import", importMutation
			if c.export {
				path, doc = "/export", exportMutation
			}
			r := e.Do(e.team.Admin.Token, "POST", "/v1/spaces/"+sp+"/git"+path, c.body)
			if r.Status != 400 || testenv.Path(r.JSON(), "error", "message") != c.msg {
				t.Errorf("%s: REST %d %s, want 400 %q", c.name, r.Status, r.Body, c.msg)
			}
			in := map[string]any{"space": sp}
			for k, v := range c.body {
				in[k] = v
			}
			g := e.GraphQL(e.team.Admin.Token, doc, map[string]any{"in": in})
			if g.Code() != "BAD_REQUEST" || g.Errors[0].Message != c.msg || g.Errors[0].Extensions["field"] != c.field {
				t.Errorf("%s: GraphQL %s", c.name, g.Raw)
			}
		}
		// REST's own checks of the documented body.
		for body, msg := range map[string]string{
			`{"url": "https://x.test/a.git", "ref": "refs/heads/main", "timestamp": "yesterday"}`:             "timestamp must be a date-time (RFC 3339), such as 2030-01-02T03:04:05Z",
			`{"url": "https://x.test/a.git", "ref": "refs/heads/main", "gitInfo": {"provider": "bitbucket"}}`: "gitInfo.provider must be github or gitlab",
			`{"ref": "refs/heads/main"}`: "url is required",
		} {
			r := e.Do(e.team.Admin.Token, "POST", "/v1/spaces/"+sp+"/git/import", body)
			if r.Status != 400 || testenv.Path(r.JSON(), "error", "message") != msg {
				t.Errorf("%s: %d %s, want %q", body, r.Status, r.Body, msg)
			}
		}
		if g := e.GraphQL(e.team.Admin.Token, `query($id: ID!) { space(id: $id) { gitSyncJob { id } } }`, map[string]any{"id": sp}); testenv.Path(g.Data, "space", "gitSyncJob") != nil {
			t.Errorf("a refused request left a job: %s", g.Raw)
		}

		ok := base(nil)
		okIn := map[string]any{"space": sp, "url": ok["url"], "ref": ok["ref"]}
		for _, c := range []struct {
			who    testenv.Actor
			status int
			code   string
		}{{e.team.Reader, 403, "FORBIDDEN"}, {e.team.Outsider, 404, "NOT_FOUND"}} {
			if r := e.Do(c.who.Token, "POST", "/v1/spaces/"+sp+"/git/import", ok); r.Status != c.status {
				t.Errorf("REST as %s: %d %s", c.who.User.Email, r.Status, r.Body)
			}
			if g := e.GraphQL(c.who.Token, importMutation, map[string]any{"in": okIn}); g.Code() != c.code {
				t.Errorf("GraphQL as %s: %s", c.who.User.Email, g.Raw)
			}
			if r := e.Do(c.who.Token, "DELETE", "/v1/spaces/"+sp+"/git/legacy-installation", nil); r.Status != c.status {
				t.Errorf("delete as %s: %d", c.who.User.Email, r.Status)
			}
		}
		// A locked space takes no import, but may be exported; a deleted
		// one neither.
		if r := e.Do(e.team.Admin.Token, "PATCH", "/v1/spaces/"+sp, map[string]any{"editMode": "locked"}); r.Status != 200 {
			t.Fatal(r.Status)
		}
		if r := e.Do(e.team.Admin.Token, "POST", "/v1/spaces/"+sp+"/git/import", ok); r.Status != 403 {
			t.Errorf("import into a locked space: %d %s", r.Status, r.Body)
		}
		exp := base(map[string]any{"commitMessage": "m"})
		if r := e.Do(e.team.Admin.Token, "POST", "/v1/spaces/"+sp+"/git/export", exp); r.Status != 204 {
			t.Errorf("export of a locked space: %d %s", r.Status, r.Body)
		}
		if r := e.Do(e.team.Admin.Token, "DELETE", "/v1/spaces/"+sp, nil); r.Status != 205 {
			t.Fatal(r.Status)
		}
		if r := e.Do(e.team.Admin.Token, "POST", "/v1/spaces/"+sp+"/git/export", exp); r.Status != 412 {
			t.Errorf("export of a deleted space: %d %s", r.Status, r.Body)
		}
	})
}

// GraphQL: the mutations return their Job; the space shows its Git
// provider and latest Git job; revisions, pages and files their Git
// metadata; deleteLegacyGitInstallation removes the provider once.
func TestGraphQLGitSync(t *testing.T) {
	forEachDB(t, testenv.Options{}, func(t *testing.T, e *env) {
		e.git.Repo(t, "docs")
		oid := gittest.Commit(t, e.git.RepoDir("docs"), "main", map[string][]byte{
			"README.md": []byte("# Home\n\n![pic](.gitbook/assets/pic.png)\n"), ".gitbook/assets/pic.png": pngOf(t, 1, 1)}, "Initial docs")
		sp := e.space("Docs")
		g := e.GraphQL(e.team.Editor.Token, importMutation, map[string]any{"in": map[string]any{
			"space": sp, "url": e.git.WithCredentials("docs"), "ref": "refs/heads/main", "timestamp": "2030-01-01T00:00:00Z",
			"gitInfo": map[string]any{"provider": "gitlab"}}})
		if len(g.Errors) > 0 || testenv.Path(g.Data, "importGitRepository", "kind") != "git.import" {
			t.Fatalf("import: %s", g.Raw)
		}
		wantJob(t, e.WaitJob(testenv.Path(g.Data, "importGitRepository", "id").(string)), jobs.StateCompleted)

		g = e.GraphQL(e.team.Reader.Token, `query($id: ID!) { space(id: $id) {
			gitSync { repoName installationProvider integration url updatedAt }
			gitSyncJob { kind state progress step attempt }
			content { git { oid message createdByService url ref } pages { title git { oid path } } files { name git { path } } } }
			spaceGitInfo(space: $id) { repoName installationProvider } }`, map[string]any{"id": sp})
		if len(g.Errors) > 0 {
			t.Fatal(g.Raw)
		}
		s := g.Data["space"]
		for path, want := range map[string]any{
			"gitSync.repoName": "docs", "gitSync.installationProvider": "gitlab", "gitSync.integration": "gitlab",
			"gitSync.url": e.git.URL + "/docs", "gitSyncJob.kind": "git.import", "gitSyncJob.state": "completed",
			"gitSyncJob.progress": float64(1), "content.git.oid": oid, "content.git.message": "Initial docs",
			"content.git.createdByService": false, "content.git.url": nil, "content.git.ref": "refs/heads/main",
			"content.pages.0.git.path": "README.md", "content.files.0.git.path": ".gitbook/assets/pic.png",
		} {
			var keys []any
			for _, k := range strings.Split(path, ".") {
				if k == "0" {
					keys = append(keys, 0)
				} else {
					keys = append(keys, k)
				}
			}
			if got := testenv.Path(s, keys...); got != want {
				t.Errorf("%s = %v, want %v", path, got, want)
			}
		}
		if testenv.Path(g.Data, "spaceGitInfo", "repoName") != "docs" {
			t.Errorf("spaceGitInfo: %s", g.Raw)
		}

		// An export through GraphQL, by the editor: author is the editor.
		e.git.Repo(t, "out")
		g = e.GraphQL(e.team.Editor.Token, exportMutation, map[string]any{"in": map[string]any{
			"space": sp, "url": e.git.WithCredentials("out"), "ref": "refs/heads/main", "commitMessage": "From GraphQL"}})
		if len(g.Errors) > 0 {
			t.Fatal(g.Raw)
		}
		wantJob(t, e.WaitJob(testenv.Path(g.Data, "exportToGitRepository", "id").(string)), jobs.StateCompleted)
		if c := gittest.Head(t, e.git.RepoDir("out"), "main"); c.Author.Email != "editor@acme.test" || c.Message != "From GraphQL" {
			t.Errorf("export commit %+v", c)
		}

		// Removing the provider: once, then there is none.
		del := `mutation($id: ID!) { deleteLegacyGitInstallation(space: $id) { id deleted } }`
		if g := e.GraphQL(e.team.Editor.Token, del, map[string]any{"id": sp}); g.Code() != "FORBIDDEN" {
			t.Errorf("editor removes the installation: %s", g.Raw)
		}
		if g := e.GraphQL(e.team.Admin.Token, del, map[string]any{"id": sp}); testenv.Path(g.Data, "deleteLegacyGitInstallation", "deleted") != true {
			t.Errorf("remove: %s", g.Raw)
		}
		if g := e.GraphQL(e.team.Admin.Token, del, map[string]any{"id": sp}); testenv.Path(g.Data, "deleteLegacyGitInstallation", "deleted") != false {
			t.Errorf("remove again: %s", g.Raw)
		}
		if g := e.GraphQL(e.team.Admin.Token, `query($id: ID!) { spaceGitInfo(space: $id) { repoName } }`, map[string]any{"id": sp}); g.Code() != "NOT_FOUND" {
			t.Errorf("info after removal: %s", g.Raw)
		}
		if r := e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+sp+"/git/info", nil); r.Status != 404 {
			t.Errorf("REST info after removal: %d", r.Status)
		}
		if r := e.Do(e.team.Admin.Token, "DELETE", "/v1/spaces/"+sp+"/git/legacy-installation", nil); r.Status != 204 {
			t.Errorf("REST removal of none: %d", r.Status)
		}
		if sj := e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+sp, nil).JSON(); sj["gitSync"] != nil {
			t.Errorf("gitSync after removal: %v", sj["gitSync"])
		}
		// The removal forgot the order too: an old timestamp applies.
		in := e.importRepo(sp, map[string]any{"url": e.git.WithCredentials("docs"), "ref": "refs/heads/main", "timestamp": "2029-01-01T00:00:00Z"})
		if wantJob(t, in, jobs.StateCompleted); strings.HasPrefix(in.Step, "Skipped") {
			t.Errorf("step %q", in.Step)
		}
	})
}

// Lists of spaces show each one's Git provider and latest Git job in a
// number of statements that does not grow with the spaces.
func TestGitSyncStatementsDoNotGrowWithSpaces(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		add := func(n int) {
			for i := 0; i < n; i++ {
				r := e.Do(team.Admin.Token, "POST", "/v1/orgs/"+team.Org.ID+"/spaces", map[string]any{"title": fmt.Sprintf("S%d", i)})
				id := r.JSON()["id"].(string)
				// Jobs are not worked here: each space gets a pending one.
				if r := e.Do(team.Admin.Token, "POST", "/v1/spaces/"+id+"/git/import", map[string]any{"url": "https://git.example.com/" + id, "ref": "refs/heads/main"}); r.Status != 204 {
					t.Fatal(r.Status)
				}
			}
		}
		const q = `query($id: ID!) { organization(id: $id) { spaces(first: 100) { nodes { id gitSync { repoName } gitSyncJob { kind state step } } } } }`
		measure := func(want int) int64 {
			// The token's caller at hand, as after any first request.
			e.GraphQL(team.Reader.Token, `{ __typename }`, nil)
			before := e.Statements()
			g := e.GraphQL(team.Reader.Token, q, map[string]any{"id": team.Org.ID})
			n := e.Statements() - before
			nodes, _ := testenv.Path(g.Data, "organization", "spaces", "nodes").([]any)
			if len(g.Errors) > 0 || len(nodes) != want {
				t.Fatalf("%d spaces: %s", want, g.Raw)
			}
			for _, sp := range nodes {
				if testenv.Path(sp, "gitSyncJob", "state") != "pending" {
					t.Fatalf("space %v", sp)
				}
			}
			return n
		}
		add(2)
		few := measure(2)
		add(6)
		many := measure(8)
		if many != few {
			t.Errorf("statements: %d for 2 spaces, %d for 8", few, many)
		}
		t.Logf("%s: %d statements for 2 or 8 spaces", e.Dialect, many)
	})
}
