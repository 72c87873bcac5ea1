package e2e_test

import (
	"context"
	"strings"
	"testing"

	"quire/internal/gitsync/gittest"
	"quire/internal/jobs"
	"quire/internal/openapispec"
	"quire/internal/testing/testenv"
)

// A computed page imported from Git (its definition in front matter)
// reads the API reference its organization's specification generates.
func TestImportedComputedPageReadsItsDocument(t *testing.T) {
	forEachDB(t, testenv.Options{}, func(t *testing.T, e *env) {
		spec := "openapi: 3.0.3\ninfo: {title: Pets, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    Pet:\n      type: object\n      properties:\n        name: {type: string}\n"
		r := e.Do(e.team.Admin.Token, "PUT", "/v1/orgs/"+e.team.Org.ID+"/openapi/petstore", map[string]any{"source": map[string]any{"text": spec}})
		if r.Status != 201 {
			t.Fatalf("put spec: %d %s", r.Status, r.Body)
		}
		in, err := e.Server.Jobs().Latest(context.Background(), openapispec.Subject(r.JSON()["id"].(string)))
		if err != nil {
			t.Fatal(err)
		}
		e.WaitJob(in.ID)

		e.git.Repo(t, "computed")
		gittest.Commit(t, e.git.RepoDir("computed"), "main", matterRepo, "Docs")
		sp := e.space("Computed")
		wantJob(t, e.importRepo(sp, map[string]any{"url": e.git.WithCredentials("computed"), "ref": "refs/heads/main"}), jobs.StateCompleted)
		var models string
		for _, p := range e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+sp+"/content", nil).JSON()["pages"].([]any) {
			if m := p.(map[string]any); m["title"] == "Models" {
				models = m["id"].(string)
			}
		}
		page := e.Do(e.team.Reader.Token, "GET", "/v1/spaces/"+sp+"/content/page/"+models+"?format=markdown", nil)
		md, _ := page.JSON()["markdown"].(string)
		if page.Status != 200 || !strings.Contains(md, "## Pet") || !strings.Contains(md, "| `name` | string | no |") {
			t.Fatalf("imported computed page: %d\n%s", page.Status, md)
		}
	})
}
