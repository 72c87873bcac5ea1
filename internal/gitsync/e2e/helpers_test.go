package e2e_test

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"strings"
	"testing"
	"time"

	"quire/internal/gitsync"
	"quire/internal/gitsync/gittest"
	"quire/internal/jobs"
	"quire/internal/testing/testdb"
	"quire/internal/testing/testenv"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// env is a server working jobs, a team, and a Git server.
type env struct {
	*testenv.Env
	team *testenv.Team
	git  *gittest.Server
}

const (
	gitUser     = "docs-bot"
	gitPassword = "s3cret-t0ken-value"
)

func forEachDB(t *testing.T, o testenv.Options, fn func(t *testing.T, e *env)) {
	t.Helper()
	// The test Git server listens on 127.0.0.1, inside the server's
	// network: allowed here, as an operator allows an internal server.
	o.Git.AllowPrivate = true
	forEachDBPolicy(t, o, fn)
}

// forEachDBPolicy is forEachDB with the address policy o gives.
func forEachDBPolicy(t *testing.T, o testenv.Options, fn func(t *testing.T, e *env)) {
	t.Helper()
	for _, b := range testenv.Backends {
		t.Run(b, func(t *testing.T) {
			if o.JobRetryBase == 0 {
				o.JobRetryBase = 10 * time.Millisecond
			}
			te := testenv.NewWith(t, b, o)
			te.StartJobs()
			fn(t, &env{Env: te, team: te.NewTeam(), git: gittest.New(t, gitUser, gitPassword)})
		})
	}
}

// withFiles allows file:// URLs below dir.
func withFiles(dir string) testenv.Options {
	return testenv.Options{Git: gitsync.Config{FileRoots: []string{dir}}}
}

// space creates a space as the admin and returns its id.
func (e *env) space(title string) string {
	e.T.Helper()
	r := e.Do(e.team.Admin.Token, "POST", "/v1/orgs/"+e.team.Org.ID+"/spaces", map[string]any{"title": title})
	if r.Status != 201 {
		e.T.Fatalf("create space: %d %s", r.Status, r.Body)
	}
	return r.JSON()["id"].(string)
}

// pngOf encodes a w×h image.
func pngOf(t testing.TB, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// handbook is the test documentation repository: testdata/handbook with
// its images.
func handbook(t testing.TB) map[string][]byte {
	files := gittest.Dir(t, "testdata/handbook")
	files["docs/.gitbook/assets/architecture.png"] = pngOf(t, 4, 3)
	files["docs/.gitbook/assets/logo mark.png"] = pngOf(t, 2, 2)
	return files
}

// importRepo asks for an import as the admin and waits for its job.
func (e *env) importRepo(spaceID string, body map[string]any) *jobs.Info {
	e.T.Helper()
	r := e.Do(e.team.Admin.Token, "POST", "/v1/spaces/"+spaceID+"/git/import", body)
	if r.Status != 204 || len(r.Body) != 0 {
		e.T.Fatalf("import: %d %s", r.Status, r.Body)
	}
	return e.waitGit(spaceID)
}

// exportSpace asks for an export as the admin and waits for its job.
func (e *env) exportSpace(spaceID string, body map[string]any) *jobs.Info {
	e.T.Helper()
	r := e.Do(e.team.Admin.Token, "POST", "/v1/spaces/"+spaceID+"/git/export", body)
	if r.Status != 204 || len(r.Body) != 0 {
		e.T.Fatalf("export: %d %s", r.Status, r.Body)
	}
	return e.waitGit(spaceID)
}

// waitGit waits for the space's latest Git job, found through GraphQL.
func (e *env) waitGit(spaceID string) *jobs.Info {
	e.T.Helper()
	g := e.GraphQL(e.team.Admin.Token, `query($id: ID!) { space(id: $id) { gitSyncJob { id } } }`, map[string]any{"id": spaceID})
	id, _ := testenv.Path(g.Data, "space", "gitSyncJob", "id").(string)
	if id == "" {
		e.T.Fatalf("no Git job on space %s: %s", spaceID, g.Raw)
	}
	return e.WaitJob(id)
}

// wantJob checks a finished job's state.
func wantJob(t testing.TB, in *jobs.Info, state jobs.State) {
	t.Helper()
	if in.State != state {
		t.Fatalf("job %s: state %s (step %q, errors %+v), want %s", in.Kind, in.State, in.Step, in.Errors, state)
	}
}

// tree lists a page tree as "path title" lines, depth first.
func tree(pages []any) []string {
	var out []string
	var walk func(list []any)
	walk = func(list []any) {
		for _, p := range list {
			m := p.(map[string]any)
			path, _ := m["path"].(string)
			out = append(out, strings.TrimSpace(path+" "+m["title"].(string)+" ("+m["type"].(string)+")"))
			if kids, ok := m["pages"].([]any); ok {
				walk(kids)
			}
		}
	}
	walk(pages)
	return out
}

// pageAt finds a page of a tree by title.
func pageAt(pages []any, title string) map[string]any {
	for _, p := range pages {
		m := p.(map[string]any)
		if m["title"] == title {
			return m
		}
		if kids, ok := m["pages"].([]any); ok {
			if f := pageAt(kids, title); f != nil {
				return f
			}
		}
	}
	return nil
}
