package translate_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
	"quire/internal/translate"
	"quire/internal/translate/fakelt"
	"quire/internal/types"
)

// source writes a space to translate: a welcome page with marks, inline
// code, a code block, links to a URL and to another page, an image file;
// a child page; a group; a link page.
func source(t *testing.T, e *testenv.Env, tok *testenv.Actor, org string) (spaceID string, pages map[string]string) {
	t.Helper()
	spaceID = e.Do(tok.Token, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Docs", "language": "en"}).JSON()["id"].(string)
	ctx := jobs.NewContext(context.Background(), e.Client(), tok.User)
	svc := e.Server.Resolver().Content
	png := []byte("\x89PNG\r\n\x1a\n")
	res, err := svc.EditSpace(ctx, spaceID, &content.UploadFile{Name: "logo.png", Data: png})
	if err != nil {
		t.Fatal(err)
	}
	file := res.IDs[0]
	install := "Run the server and see the docs.\n"
	res, err = svc.EditSpace(ctx, spaceID, &content.CreatePage{Title: "Install", Markdown: &install, LinkTitle: "Install", Icon: "download", NoIndex: true})
	if err != nil {
		t.Fatal(err)
	}
	installID := res.IDs[0]
	welcome := fmt.Sprintf("Welcome to **Quire**, the fast documentation platform.\n\nRun `quire serve` then read [the guide](https://example.com/guide) and [this page](page://%s).\n\n```go\ngo build ./cmd/quire\n```\n\n![logo](file://%s)\n", installID, file)
	res, err = svc.EditSpace(ctx, spaceID, &content.CreatePage{Title: "Welcome", Markdown: &welcome, Position: &content.Position{Before: installID},
		MetaLinks: &types.PageMetaLinks{Canonical: &document.ContentRef{Kind: document.RefPage, Page: installID}}})
	if err != nil {
		t.Fatal(err)
	}
	welcomeID := res.IDs[0]
	first := "Hello world.\n"
	res, err = svc.EditSpace(ctx, spaceID, &content.CreatePage{Title: "First page", Parent: welcomeID, Markdown: &first},
		&content.CreatePage{Title: "Reference", Type: content.TypeGroup})
	if err != nil {
		t.Fatal(err)
	}
	return spaceID, map[string]string{"welcome": welcomeID, "install": installID, "first": res.IDs[0], "file": file}
}

// waitRun waits for the translation's latest run.
func waitRun(t *testing.T, e *testenv.Env, id string) {
	t.Helper()
	in, err := e.Server.Jobs().Latest(context.Background(), "translation:"+id)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.WaitJob(in.ID); got.State != jobs.StateCompleted {
		t.Fatalf("run: %s %+v", got.State, got.Errors)
	}
}

func TestTranslationRuns(t *testing.T) {
	for _, backend := range testenv.Backends {
		t.Run(backend, func(t *testing.T) {
			fake := fakelt.Start(t)
			e := testenv.NewWith(t, backend, testenv.Options{Translator: translate.NewLibreTranslate(fake.URL, "")})
			team := e.NewTeam()
			org := team.Org.ID
			base := "/v1/orgs/" + org + "/translations"
			spaceID, pages := source(t, e, &team.Admin, org)

			r := e.Do(team.Admin.Token, "POST", base, map[string]any{"source": map[string]any{"space": spaceID, "language": "en"}, "language": "fr",
				"instructions": map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{
					map[string]any{"object": "block", "type": "paragraph", "nodes": []any{map[string]any{"object": "text", "leaves": []any{
						map[string]any{"object": "leaf", "text": "Keep 'Quire' untranslated.", "marks": []any{}}}}}}}}})
			if r.Status != 201 || r.Header.Get("Location") == "" {
				t.Fatalf("create: %d %s", r.Status, r.Body)
			}
			tr := r.JSON()
			id := tr["id"].(string)
			if tr["status"] != "pending" || tr["result"] != nil || testenv.Path(tr, "stats", "runs") != 0.0 ||
				testenv.Path(tr, "permissions", "edit") != true || testenv.Path(tr, "source", "space") != spaceID {
				t.Errorf("created: %v", tr)
			}
			if r := e.Do(team.Reader.Token, "POST", base+"/"+id+"/run", nil); r.Status != 403 {
				t.Errorf("a reader ran it: %d", r.Status)
			}
			if r := e.Do(team.Admin.Token, "POST", base+"/"+id+"/run", nil); r.Status != 204 || len(r.Body) != 0 {
				t.Fatalf("run: %d %s", r.Status, r.Body)
			}
			e.StartJobs()
			waitRun(t, e, id)

			tr = e.Do(team.Reader.Token, "GET", base+"/"+id, nil).JSON()
			stats := tr["stats"].(map[string]any)
			if tr["status"] != "completed" || stats["runs"] != 1.0 || stats["totalPages"] != 4.0 || stats["latestPages"] != 4.0 ||
				stats["latestWords"].(float64) < 20 || stats["totalWords"] != stats["latestWords"] || stats["latestRunDuration"].(float64) < 1 {
				t.Fatalf("after the first run: %v", tr)
			}
			result := testenv.Path(tr, "result", "space").(string)
			if sp := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+result, nil).JSON(); sp["language"] != "fr" || !strings.HasSuffix(sp["title"].(string), "(fr)") {
				t.Errorf("result space %v", sp)
			}
			tree := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+result+"/content/pages", nil).JSON()
			titles := []string{}
			ids := map[string]string{}
			var walk func(list []any)
			walk = func(list []any) {
				for _, p := range list {
					p := p.(map[string]any)
					titles = append(titles, p["title"].(string))
					ids[p["title"].(string)] = p["id"].(string)
					walk(p["pages"].([]any))
				}
			}
			walk(tree["pages"].([]any))
			if got := strings.Join(titles, "|"); got != "Bienvenue|Premier page|Installez|Référence" {
				t.Errorf("result pages %q", got)
			}
			md := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+result+"/content/page/"+ids["Bienvenue"]+"?format=markdown", nil).JSON()["markdown"].(string)
			for _, want := range []string{"Bienvenue à **Quire**, le rapide documentation plateforme.", "Lancez `quire serve` puis lisez [le guide](https://example.com/guide)",
				"(page://" + ids["Installez"] + ")", "go build ./cmd/quire"} {
				if !strings.Contains(md, want) {
					t.Errorf("translated page lacks %q:\n%s", want, md)
				}
			}
			// The page properties follow: the link title translated, the
			// icon and flags copied, meta links pointing at result pages.
			inst := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+result+"/content/page/"+ids["Installez"], nil).JSON()
			if inst["linkTitle"] != "Installez" || inst["icon"] != "download" || inst["noIndex"] != true {
				t.Errorf("translated page properties: linkTitle %v icon %v noIndex %v", inst["linkTitle"], inst["icon"], inst["noIndex"])
			}
			welcomePage := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+result+"/content/page/"+ids["Bienvenue"], nil).JSON()
			if got := testenv.Path(welcomePage, "metaLinks", "canonical", "page"); got != ids["Installez"] {
				t.Errorf("translated canonical link %v, want the result's page %s", got, ids["Installez"])
			}
			files := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+result+"/content/files", nil).JSON()
			copied := testenv.Path(files, "items", 0, "id")
			if copied == nil || !strings.Contains(md, fmt.Sprintf("file://%s", copied)) {
				t.Errorf("the image's file %v is not the copy's in:\n%s", copied, md)
			}
			for _, s := range fake.Sent() {
				if strings.Contains(s, "example.com") || strings.Contains(s, "go build") || strings.Contains(s, pages["install"]) {
					t.Errorf("sent for translation: %q", s)
				}
			}

			// Nothing changed: nothing is translated, and the pages keep their ids.
			sent := len(fake.Sent())
			e.Do(team.Admin.Token, "POST", base+"/"+id+"/run", nil)
			waitRun(t, e, id)
			tr = e.Do(team.Reader.Token, "GET", base+"/"+id, nil).JSON()
			if testenv.Path(tr, "stats", "runs") != 2.0 || testenv.Path(tr, "stats", "latestPages") != 0.0 || len(fake.Sent()) != sent {
				t.Errorf("an unchanged run: %v (%d texts sent)", tr["stats"], len(fake.Sent())-sent)
			}

			// One page changed: only it is translated again, in place.
			ctx := jobs.NewContext(context.Background(), e.Client(), team.Admin.User)
			newText := "Start the server with your team.\n"
			if _, err := e.Server.Resolver().Content.EditSpace(ctx, spaceID, &content.UpdatePage{Page: pages["install"], Markdown: &newText}); err != nil {
				t.Fatal(err)
			}
			e.Do(team.Admin.Token, "POST", base+"/"+id+"/run", nil)
			waitRun(t, e, id)
			tr = e.Do(team.Reader.Token, "GET", base+"/"+id, nil).JSON()
			if testenv.Path(tr, "stats", "latestPages") != 1.0 || testenv.Path(tr, "stats", "totalPages") != 4.0 {
				t.Errorf("one page changed: %v", tr["stats"])
			}
			page := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+result+"/content/page/"+ids["Installez"]+"?format=markdown", nil).JSON()
			if !strings.Contains(page["markdown"].(string), "Démarrez le serveur avec votre équipe.") {
				t.Errorf("the changed page: %v", page["markdown"])
			}

			// New instructions: every page again; then the source page gone.
			r = e.Do(team.Admin.Token, "PUT", base+"/"+id, map[string]any{"instructions": map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{}}})
			if r.Status != 200 {
				t.Fatalf("update: %d %s", r.Status, r.Body)
			}
			if _, err := e.Server.Resolver().Content.EditSpace(ctx, spaceID, &content.DeletePage{Page: pages["first"]}); err != nil {
				t.Fatal(err)
			}
			e.Do(team.Admin.Token, "POST", base+"/"+id+"/run", nil)
			waitRun(t, e, id)
			tr = e.Do(team.Reader.Token, "GET", base+"/"+id, nil).JSON()
			if testenv.Path(tr, "stats", "latestPages") != 3.0 {
				t.Errorf("new instructions: %v", tr["stats"])
			}
			md = e.Do(team.Reader.Token, "GET", "/v1/spaces/"+result+"/content/page/"+ids["Bienvenue"]+"?format=markdown", nil).JSON()["markdown"].(string)
			if !strings.Contains(md, "**Plume**") {
				t.Errorf("without the glossary Quire is translated too:\n%s", md)
			}
			if r := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+result+"/content/page/"+ids["Premier page"], nil); r.Status != 404 {
				t.Errorf("the page gone from the source is still in the result: %d", r.Status)
			}

			// GraphQL.
			g := e.GraphQL(team.Reader.Token, `query($id: ID!) { translation(id: $id) { status language glossary { kind term }
				source { space { id } language } result { space { id language } revision } stats { runs } latestRun { state } permissions { edit } } }`,
				map[string]any{"id": id})
			if g.Code() != "" || testenv.Path(g.Data, "translation", "latestRun", "state") != "completed" ||
				testenv.Path(g.Data, "translation", "result", "space", "language") != "fr" || testenv.Path(g.Data, "translation", "permissions", "edit") != false {
				t.Errorf("GraphQL: %s", g.Raw)
			}
			if r := e.Do(team.Admin.Token, "DELETE", base+"/"+id, nil); r.Status != 205 {
				t.Errorf("delete: %d", r.Status)
			}
			if r := e.Do(team.Admin.Token, "DELETE", base+"/"+id, nil); r.Status != 204 {
				t.Errorf("delete again: %d", r.Status)
			}
		})
	}
}

func TestTranslationRules(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		org := team.Org.ID
		base := "/v1/orgs/" + org + "/translations"
		sp := e.Do(team.Admin.Token, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Docs"}).JSON()["id"].(string)
		other := e.Do(team.Outsider.Token, "POST", "/v1/orgs/"+team.Other.ID+"/spaces", map[string]any{"title": "X"}).JSON()["id"].(string)
		body := func(space, from, to string) map[string]any {
			return map[string]any{"source": map[string]any{"space": space, "language": from}, "language": to}
		}
		for _, tc := range []struct {
			body   map[string]any
			status int
			want   string
		}{
			{body(sp, "en", "en"), 400, "differ"},
			{body(sp, "en", "xx"), 400, "language"},
			{body("SAAAAAAAAAAAAAAAAAAA", "en", "fr"), 400, "source.space"},
			{body(other, "en", "fr"), 400, "source.space"},
		} {
			r := e.Do(team.Admin.Token, "POST", base, tc.body)
			if r.Status != tc.status || !strings.Contains(string(r.Body), tc.want) {
				t.Errorf("%v: %d %s", tc.body, r.Status, r.Body)
			}
		}
		if r := e.Do(team.Reader.Token, "POST", base, body(sp, "en", "fr")); r.Status != 403 {
			t.Errorf("a reader created: %d", r.Status)
		}
		tr := e.Do(team.Admin.Token, "POST", base, body(sp, "en", "de")).JSON()
		id := tr["id"].(string)
		r := e.Do(team.Admin.Token, "POST", base+"/"+id+"/run", nil)
		if r.Status != 400 || !strings.Contains(string(r.Body), "QUIRE_TRANSLATE_URL") {
			t.Errorf("a run with no provider: %d %s", r.Status, r.Body)
		}
		if r := e.Do(team.Outsider.Token, "GET", "/v1/orgs/"+team.Other.ID+"/translations/"+id, nil); r.Status != 404 {
			t.Errorf("read through another organization: %d", r.Status)
		}
		if r := e.Do(team.Admin.Token, "POST", base+"/HAAAAAAAAAAAAAAAAAAA/run", nil); r.Status != 404 {
			t.Errorf("run of none: %d", r.Status)
		}
		list := e.Do(team.Reader.Token, "GET", base, nil).JSON()
		if list["count"] != 1.0 || testenv.Path(list, "items", 0, "instructions", "object") != "document" {
			t.Errorf("list: %v", list)
		}
	})
}

// TestTranslationListStatements: listing translations costs the same
// statements for 2 as for 8, through REST and GraphQL with their spaces.
func TestTranslationListStatements(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		measure := func(n int) []int64 {
			org := e.Org(fmt.Sprint("Org ", n))
			au, atok := e.User(fmt.Sprintf("admin%d@acme.test", n))
			ru, rtok := e.User(fmt.Sprintf("reader%d@acme.test", n))
			e.Member(org, au, "admin")
			e.Member(org, ru, "read")
			for i := 0; i < n; i++ {
				sp := e.Do(atok, "POST", "/v1/orgs/"+org.ID+"/spaces", map[string]any{"title": fmt.Sprint("S", i)}).JSON()["id"].(string)
				if r := e.Do(atok, "POST", "/v1/orgs/"+org.ID+"/translations", map[string]any{"source": map[string]any{"space": sp, "language": "en"}, "language": "fr"}); r.Status != 201 {
					t.Fatalf("create: %d %s", r.Status, r.Body)
				}
			}
			var out []int64
			before := e.Statements()
			if r := e.Do(rtok, "GET", "/v1/orgs/"+org.ID+"/translations", nil); r.Status != 200 || r.JSON()["count"] != float64(n) {
				t.Fatalf("list: %d %s", r.Status, r.Body)
			}
			out = append(out, e.Statements()-before)
			before = e.Statements()
			g := e.GraphQL(rtok, `query($o: ID!) { organization(id: $o) { translations { nodes { id source { space { id title } } result { space { id } } permissions { edit } stats { runs } } } } }`,
				map[string]any{"o": org.ID})
			if g.Code() != "" {
				t.Fatalf("graphql: %s", g.Raw)
			}
			return append(out, e.Statements()-before)
		}
		small, big := measure(2), measure(8)
		for i := range small {
			if small[i] != big[i] {
				t.Errorf("statements of list %d: %d for 2 translations, %d for 8", i, small[i], big[i])
			}
		}
	})
}
