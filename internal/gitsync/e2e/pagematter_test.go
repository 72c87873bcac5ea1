package e2e_test

import (
	"encoding/json"
	"strings"
	"testing"

	"quire/internal/gitsync/gittest"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

// matterRepo is a project whose pages set every property front matter
// carries beyond description, emoji and hidden.
var matterRepo = map[string][]byte{
	"README.md":  []byte("---\ndescription: Start here.\nicon: house\nlinkTitle: Home\n---\n\n# Welcome\n\nHello.\n"),
	"SUMMARY.md": []byte("# Table of contents\n\n* [Welcome](README.md)\n* [Install guide](install.md)\n* [Models](models.md)\n"),
	"install.md": []byte("---\nnoIndex: true\nnoRobotsIndex: true\nmetaLinks:\n  canonical: https://example.com/install\n" +
		"  alternates:\n    - README.md\n    - https://example.com/fr/install\n---\n\n# Install guide\n\nSteps.\n"),
	"models.md": []byte("---\ncomputed:\n  type: builtin:openapi\n  dependencies:\n    spec:\n      ref:\n        kind: openapi\n" +
		"        spec: petstore\n  props:\n    doc: models\n---\n\n# Models\n"),
}

// pageProps reads, by title, the link title, icon, indexing, meta links
// (page ids replaced by titles) and computed definition of a space's
// pages, as JSON.
func (e *env) pageProps(spaceID string) map[string]string {
	e.T.Helper()
	rev := e.Do(e.team.Admin.Token, "GET", "/v1/spaces/"+spaceID+"/content", nil).JSON()
	titles := map[string]string{}
	var pages []map[string]any
	for _, p := range rev["pages"].([]any) {
		m := p.(map[string]any)
		titles[m["id"].(string)] = m["title"].(string)
		pages = append(pages, m)
	}
	out := map[string]string{}
	for _, m := range pages {
		props := map[string]any{}
		for _, k := range []string{"linkTitle", "icon", "noIndex", "noRobotsIndex", "metaLinks", "computed", "computedSeed", "description"} {
			props[k] = m[k]
		}
		b, _ := json.Marshal(props)
		s := string(b)
		for id, title := range titles {
			s = strings.ReplaceAll(s, id, "<"+title+">")
		}
		out[m["title"].(string)] = s
	}
	return out
}

// Front matter carries link title, icon, indexing, meta links and computed
// definitions into Quire and back out: an export of the imported space
// writes them, and importing that export into a new space gives the same
// properties.
func TestFrontMatterRoundTrip(t *testing.T) {
	forEachDB(t, testenv.Options{}, func(t *testing.T, e *env) {
		e.git.Repo(t, "matter")
		gittest.Commit(t, e.git.RepoDir("matter"), "main", matterRepo, "Docs")
		sp := e.space("Matter")
		wantJob(t, e.importRepo(sp, map[string]any{"url": e.git.WithCredentials("matter"), "ref": "refs/heads/main"}), jobs.StateCompleted)
		before := e.pageProps(sp)
		want := map[string][]string{
			"Welcome":       {`"linkTitle":"Home"`, `"icon":"house"`, `"noIndex":false`, `"description":"Start here."`},
			"Install guide": {`"noIndex":true`, `"noRobotsIndex":true`, `"canonical":{"kind":"url","url":"https://example.com/install"}`, `{"kind":"page","page":"<Welcome>"}`, `"https://example.com/fr/install"`},
			"Models":        {`"computed":{"dependencies":{"spec":{"ref":{"kind":"openapi","spec":"petstore"}}},"props":{"doc":"models"},"type":"builtin:openapi"}`},
		}
		for title, parts := range want {
			for _, p := range parts {
				if !strings.Contains(before[title], p) {
					t.Errorf("%s imported as %s, lacks %s", title, before[title], p)
				}
			}
		}
		if !strings.Contains(before["Models"], `"computedSeed":"`) {
			t.Errorf("Models has no computed seed: %s", before["Models"])
		}

		e.git.Repo(t, "out")
		wantJob(t, e.exportSpace(sp, map[string]any{"url": e.git.WithCredentials("out"), "ref": "refs/heads/main", "commitMessage": "Export"}), jobs.StateCompleted)
		files := gittest.Files(t, e.git.RepoDir("out"), "main")
		install := string(files["install.md"])
		for _, w := range []string{"noIndex: true", "noRobotsIndex: true", "canonical: https://example.com/install", "- README.md"} {
			if !strings.Contains(install, w) {
				t.Errorf("install.md lacks %q:\n%s", w, install)
			}
		}
		if readme := string(files["README.md"]); !strings.Contains(readme, "linkTitle: Home") || !strings.Contains(readme, "icon: house") {
			t.Errorf("README.md:\n%s", readme)
		}
		if models := string(files["models.md"]); !strings.Contains(models, "type: builtin:openapi") || !strings.Contains(models, "spec: petstore") {
			t.Errorf("models.md:\n%s", models)
		}

		sp2 := e.space("Copy")
		wantJob(t, e.importRepo(sp2, map[string]any{"url": e.git.WithCredentials("out"), "ref": "refs/heads/main"}), jobs.StateCompleted)
		after := e.pageProps(sp2)
		for title, b := range before {
			if after[title] != b {
				t.Errorf("%s after the round trip:\n%s\nwant:\n%s", title, after[title], b)
			}
		}
	})
}
