package rest_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"quire/internal/content"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

func text(s string) map[string]any {
	return map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": s, "marks": []any{}}}}
}

func link(ref map[string]any, label string) map[string]any {
	return map[string]any{"object": "inline", "type": "link", "data": map[string]any{"ref": ref}, "nodes": []any{text(label)}}
}

func paragraph(nodes ...any) map[string]any {
	return map[string]any{"object": "block", "type": "paragraph", "nodes": nodes}
}

func doc(blocks ...any) map[string]any {
	return map[string]any{"object": "document", "data": map[string]any{}, "nodes": blocks}
}

// contentFixture is a space whose content has a page tree, files and links.
type contentFixture struct {
	team                       *testenv.Team
	space, cr                  string // cr: an open change request with one more page
	guide, intro, group, ext   string // page ids: guide > intro; group; ext (link page)
	crPage                     string
	files                      []string // ids, in name order
	logo                       string   // the file intro refers to
	reusable                   string   // a reusable content
	spaceBase, crBase, crBase2 string
}

func newContentFixture(t *testing.T, e *testenv.Env) *contentFixture {
	t.Helper()
	f := &contentFixture{team: e.NewTeam()}
	team := f.team
	f.space = newSpace(t, e, team, "Docs")
	seed := newCR(t, e, team.Editor.Token, f.space, map[string]any{"subject": "Seed"})["id"].(string)

	// Files go in through the content engine (the GraphQL door takes multipart uploads).
	svc := e.Server.Resolver().Content
	var ops []content.Op
	for _, name := range []string{"a.txt", "b.txt", "logo.svg"} {
		ops = append(ops, &content.UploadFile{Name: name, ContentType: "text/plain", Data: []byte("file " + name)})
	}
	res, err := svc.Edit(jobs.NewContext(context.Background(), e.Client(), team.Editor.User), seed, ops...)
	if err != nil {
		t.Fatalf("upload files: %v", err)
	}
	f.files = res.IDs
	f.logo = res.IDs[2]
	f.reusable = newReusable(t, e, team.Editor.Token, seed, "Note")

	f.guide = createPage(t, e, team.Editor.Token, seed, map[string]any{"title": "Guide", "markdown": "Top page\n", "description": "All about it"})
	f.intro = createPage(t, e, team.Editor.Token, seed, map[string]any{
		"title": "Intro", "parent": f.guide, "variables": map[string]any{"product": "Quire"},
		"document": doc(
			paragraph(text("Hello "), map[string]any{"object": "inline", "type": "expression", "isVoid": true, "data": map[string]any{"expression": "page.vars.product"}}, text("!")),
			paragraph(link(map[string]any{"kind": "url", "url": "https://example.com"}, "site"), text(" "),
				link(map[string]any{"kind": "page", "page": f.guide}, "guide"), text(" "),
				link(map[string]any{"kind": "page", "page": "missing-page"}, "gone"), text(" "),
				link(map[string]any{"kind": "file", "file": f.logo}, "logo")),
		),
	})
	f.group = createPage(t, e, team.Editor.Token, seed, map[string]any{"title": "Reference", "type": "group"})
	f.ext = createPage(t, e, team.Editor.Token, seed, map[string]any{"title": "Website", "type": "link", "target": map[string]any{"kind": "url", "url": "https://example.org"}})
	merge(t, e, team.Admin.Token, f.space, seed)

	f.cr = newCR(t, e, team.Editor.Token, f.space, map[string]any{"subject": "More"})["id"].(string)
	f.crPage = createPage(t, e, team.Editor.Token, f.cr, map[string]any{"title": "Draft page", "markdown": "See [guide](https://example.com/x)\n"})
	f.spaceBase = "/v1/spaces/" + f.space + "/content"
	f.crBase = "/v1/spaces/" + f.space + "/change-requests/" + f.cr + "/content"
	f.crBase2 = "/v1/spaces/" + f.space + "/change-requests/2/content"
	return f
}

func TestContentRevisionAndPages(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := newContentFixture(t, e)
		reader := f.team.Reader.Token

		r := e.Do(reader, "GET", f.spaceBase+"?metadata=false&computed=true", nil)
		if r.Status != 200 {
			t.Fatalf("revision: %d %s", r.Status, r.Body)
		}
		rev := r.JSON()
		sp := e.Do(reader, "GET", "/v1/spaces/"+f.space, nil).JSON()
		if rev["object"] != "revision" || rev["id"] != sp["revision"] || rev["type"] != "merge" || testenv.Path(rev, "urls", "app") == nil {
			t.Errorf("revision = %.600s", r.Body)
		}
		if n := len(rev["files"].([]any)); n != 3 {
			t.Errorf("%d files", n)
		}
		if reusable, ok := rev["reusableContents"].([]any); !ok || len(reusable) != 1 || testenv.Path(reusable[0], "id") != f.reusable || testenv.Path(reusable[0], "title") != "Note" {
			t.Errorf("reusableContents = %v", rev["reusableContents"])
		}
		pages := rev["pages"].([]any)
		if len(pages) != 3 {
			t.Fatalf("root pages = %v", pages)
		}
		guide := pages[0].(map[string]any)
		if guide["id"] != f.guide || guide["kind"] != "sheet" || guide["type"] != "document" || guide["slug"] != "guide" ||
			guide["path"] != "guide" || guide["description"] != "All about it" || guide["hidden"] != false {
			t.Errorf("guide = %v", guide)
		}
		// Document pages carry their document, as the reference requires.
		if testenv.Path(guide, "document", "object") != "document" || testenv.Path(guide, "pages", 0, "document", "object") != "document" {
			t.Errorf("tree pages without their document: %v", guide)
		}
		layout, _ := guide["layout"].(map[string]any)
		for _, k := range []string{"width", "cover", "coverSize", "title", "description", "tableOfContents", "outline", "pagination", "metadata"} {
			if _, ok := layout[k]; !ok {
				t.Errorf("layout.%s missing: %v", k, layout)
			}
		}
		if testenv.Path(guide, "pages", 0, "id") != f.intro || testenv.Path(guide, "pages", 0, "path") != "guide/intro" {
			t.Errorf("guide's children = %v", guide["pages"])
		}
		group := pages[1].(map[string]any)
		if group["kind"] != "group" || group["type"] != "group" || group["pages"] == nil || group["document"] != nil {
			t.Errorf("group = %v", group)
		}
		ext := pages[2].(map[string]any)
		if ext["kind"] != "link" || testenv.Path(ext, "target", "url") != "https://example.org" || ext["href"] != "https://example.org" {
			t.Errorf("link page = %v", ext)
		}

		// The page tree alone.
		pl := e.Do(reader, "GET", f.spaceBase+"/pages", nil)
		if pl.Status != 200 || len(pl.JSON()["pages"].([]any)) != 3 {
			t.Errorf("pages: %d %s", pl.Status, pl.Body)
		}
		// The change request's content has its extra page; by id and by number.
		for _, base := range []string{f.crBase, f.crBase2} {
			cp := e.Do(reader, "GET", base+"/pages", nil)
			if cp.Status != 200 || len(cp.JSON()["pages"].([]any)) != 4 {
				t.Errorf("%s/pages: %d %s", base, cp.Status, cp.Body)
			}
			cr := e.Do(reader, "GET", base, nil)
			if cr.Status != 200 || cr.JSON()["type"] != "edits" {
				t.Errorf("%s: %d %.300s", base, cr.Status, cr.Body)
			}
		}

		// One page: document (default), markdown, evaluated.
		page := f.spaceBase + "/page/" + f.intro
		d := e.Do(reader, "GET", page, nil)
		if d.Status != 200 || testenv.Path(d.JSON(), "document", "object") != "document" || d.JSON()["markdown"] != nil {
			t.Fatalf("page: %d %s", d.Status, d.Body)
		}
		if d.JSON()["title"] != "Intro" || testenv.Path(d.JSON(), "variables", "product") != "Quire" {
			t.Errorf("page = %s", d.Body)
		}
		md := e.Do(reader, "GET", page+"?format=markdown", nil)
		mdText, _ := md.JSON()["markdown"].(string)
		if md.Status != 200 || md.JSON()["document"] != nil || !strings.Contains(mdText, "[site](https://example.com)") {
			t.Errorf("markdown: %d %s", md.Status, md.Body)
		}
		ev := e.Do(reader, "GET", page+"?format=markdown&evaluated=true&dereferenced=reusable-contents", nil)
		if s, _ := ev.JSON()["markdown"].(string); !strings.Contains(s, "Hello Quire!") {
			t.Errorf("evaluated markdown: %d %s", ev.Status, ev.Body)
		}
		if s, _ := e.Do(reader, "GET", page+"?format=markdown&evaluated=deterministic-only", nil).JSON()["markdown"].(string); !strings.Contains(s, "Hello Quire!") {
			t.Errorf("deterministic-only markdown: %s", s)
		}
		if s := mdText; strings.Contains(s, "Hello Quire!") {
			t.Errorf("unevaluated markdown was evaluated: %s", s)
		}
		parent := e.Do(reader, "GET", f.spaceBase+"/page/"+f.guide+"?format=markdown", nil)
		if testenv.Path(parent.JSON(), "pages", 0, "id") != f.intro {
			t.Errorf("a page read lists its children: %s", parent.Body)
		}
		if g := e.Do(reader, "GET", f.spaceBase+"/page/"+f.group, nil); g.Status != 200 || g.JSON()["document"] != nil {
			t.Errorf("group page: %d %s", g.Status, g.Body)
		}
		if g := e.Do(reader, "GET", f.crBase+"/page/"+f.crPage+"?format=markdown", nil); g.Status != 200 {
			t.Errorf("change request page: %d %s", g.Status, g.Body)
		}
		if g := e.Do(reader, "GET", f.spaceBase+"/page/"+f.crPage, nil); g.Status != 404 {
			t.Errorf("an unmerged page in the space: %d", g.Status)
		}

		for _, q := range []string{"?format=html", "?evaluated=maybe", "?dereferenced=yes", "?metadata=perhaps", "?computed=2"} {
			if g := e.Do(reader, "GET", page+q, nil); g.Status != 400 {
				t.Errorf("page%s: %d %s", q, g.Status, g.Body)
			}
		}
		if g := e.Do(reader, "GET", f.spaceBase+"?metadata=perhaps", nil); g.Status != 400 {
			t.Errorf("revision with a bad metadata: %d", g.Status)
		}

		// Permission matrix of the reads.
		for _, path := range []string{f.spaceBase, f.spaceBase + "/pages", page, f.crBase, f.crBase + "/files", "/v1/spaces/" + f.space + "/links"} {
			if g := e.Do(f.team.Outsider.Token, "GET", path, nil); g.Status != 404 {
				t.Errorf("outsider %s: %d", path, g.Status)
			}
			if g := e.Do("", "GET", path, nil); g.Status != 401 {
				t.Errorf("anonymous %s: %d", path, g.Status)
			}
			if g := e.Do(f.team.Editor.Token, "GET", path, nil); g.Status != 200 {
				t.Errorf("editor %s: %d", path, g.Status)
			}
		}
		for _, path := range []string{"/v1/spaces/nope/content", f.spaceBase + "/page/nope", "/v1/spaces/" + f.space + "/change-requests/9/content"} {
			if g := e.Do(reader, "GET", path, nil); g.Status != 404 {
				t.Errorf("%s: %d", path, g.Status)
			}
		}
	})
}

func TestContentFiles(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := newContentFixture(t, e)
		reader := f.team.Reader.Token
		for _, base := range []string{f.spaceBase, f.crBase} {
			r := e.Do(reader, "GET", base+"/files?limit=2", nil)
			next, _ := testenv.Path(r.JSON(), "next", "page").(string)
			if r.Status != 200 || r.JSON()["count"] != float64(3) || len(r.JSON()["items"].([]any)) != 2 || next == "" {
				t.Fatalf("%s/files: %d %s", base, r.Status, r.Body)
			}
			if testenv.Path(r.JSON(), "items", 0, "name") != "a.txt" {
				t.Errorf("first file = %v", testenv.Path(r.JSON(), "items", 0))
			}
			r2 := e.Do(reader, "GET", base+"/files?limit=2&page="+next, nil)
			if r2.JSON()["next"] != nil || testenv.Path(r2.JSON(), "items", 0, "name") != "logo.svg" {
				t.Errorf("second page: %s", r2.Body)
			}

			g := e.Do(reader, "GET", base+"/files/"+f.logo+"?metadata=true", nil)
			file := g.JSON()
			if g.Status != 200 || file["id"] != f.logo || file["name"] != "logo.svg" || file["contentType"] != "text/plain" ||
				file["size"] != float64(len("file logo.svg")) {
				t.Fatalf("file: %d %s", g.Status, g.Body)
			}
			resp, err := http.Get(file["downloadURL"].(string))
			if err != nil {
				t.Fatalf("download: %v", err)
			}
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || string(data) != "file logo.svg" {
				t.Errorf("download: %d %q", resp.StatusCode, data)
			}

			bl := e.Do(reader, "GET", base+"/files/"+f.logo+"/backlinks", nil)
			if bl.Status != 200 || bl.JSON()["count"] != float64(1) || testenv.Path(bl.JSON(), "items", 0, "kind") != "page" ||
				testenv.Path(bl.JSON(), "items", 0, "page", "id") != f.intro || testenv.Path(bl.JSON(), "items", 0, "space", "id") != f.space ||
				testenv.Path(bl.JSON(), "items", 0, "organization", "id") != f.team.Org.ID {
				t.Errorf("%s file backlinks: %d %.800s", base, bl.Status, bl.Body)
			}
			inCR := testenv.Path(bl.JSON(), "items", 0, "versionContext", "changeRequest", "id")
			if (base == f.crBase) != (inCR == f.cr) {
				t.Errorf("%s: versionContext = %v", base, testenv.Path(bl.JSON(), "items", 0, "versionContext"))
			}
			if none := e.Do(reader, "GET", base+"/files/"+f.files[0]+"/backlinks", nil); none.JSON()["count"] != float64(0) {
				t.Errorf("backlinks of an unreferenced file: %s", none.Body)
			}
			for _, p := range []string{"/files/nope", "/files/nope/backlinks"} {
				if g := e.Do(reader, "GET", base+p, nil); g.Status != 404 {
					t.Errorf("%s%s: %d", base, p, g.Status)
				}
			}
			if g := e.Do(reader, "GET", base+"/files?limit=-1", nil); g.Status != 400 {
				t.Errorf("limit -1: %d", g.Status)
			}
		}
	})
}

func TestContentLinks(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := newContentFixture(t, e)
		reader := f.team.Reader.Token

		byTarget := func(r *testenv.Response) map[string]map[string]any {
			out := map[string]map[string]any{}
			for _, it := range r.JSON()["items"].([]any) {
				u := it.(map[string]any)
				tg := u["target"].(map[string]any)
				key := fmt.Sprint(tg["kind"], ":")
				for _, k := range []string{"url", "page", "file"} {
					if v, ok := tg[k].(string); ok {
						key += v
					}
				}
				out[key] = u
			}
			return out
		}

		r := e.Do(reader, "GET", f.spaceBase+"/page/"+f.intro+"/links", nil)
		if r.Status != 200 {
			t.Fatalf("page links: %d %s", r.Status, r.Body)
		}
		stats := r.JSON()["stats"].(map[string]any)
		if stats["total"] != float64(4) || testenv.Path(stats, "broken", "total") != float64(1) || stats["ok"] != float64(3) {
			t.Errorf("stats = %v", stats)
		}
		items := byTarget(r)
		if len(items) != 4 || r.JSON()["count"] != float64(4) {
			t.Fatalf("items = %s", r.Body)
		}
		if u := items["url:https://example.com"]; u["status"] != "ok" || u["relation"] != "reference" ||
			testenv.Path(u, "targetReference", "url") != "https://example.com" || testenv.Path(u, "locationReferences", 0, "page", "id") != f.intro {
			t.Errorf("url usage = %v", u)
		}
		if u := items["page:"+f.guide]; u["status"] != "ok" || testenv.Path(u, "targetReference", "page", "id") != f.guide {
			t.Errorf("page usage = %v", u)
		}
		if u := items["page:missing-page"]; u["status"] != "broken" || u["targetReference"] != nil {
			t.Errorf("broken usage = %v", u)
		}
		if u := items["file:"+f.logo]; testenv.Path(u, "targetReference", "file", "id") != f.logo {
			t.Errorf("file usage = %v", u)
		}

		broken := e.Do(reader, "GET", f.spaceBase+"/page/"+f.intro+"/links?status=broken", nil)
		if broken.JSON()["count"] != float64(1) || testenv.Path(broken.JSON(), "stats", "total") != float64(4) {
			t.Errorf("broken only: %s", broken.Body)
		}
		if g := e.Do(reader, "GET", f.spaceBase+"/page/"+f.intro+"/links?status=in_app", nil); g.Status != 400 {
			t.Errorf("status in_app: %d", g.Status)
		}
		if g := e.Do(reader, "GET", f.spaceBase+"/page/"+f.intro+"/links?status=in-app", nil); g.Status != 200 || g.JSON()["count"] != float64(0) {
			t.Errorf("status in-app: %d %s", g.Status, g.Body)
		}
		paged := e.Do(reader, "GET", f.spaceBase+"/page/"+f.intro+"/links?limit=3", nil)
		next, _ := testenv.Path(paged.JSON(), "next", "page").(string)
		if len(paged.JSON()["items"].([]any)) != 3 || next == "" {
			t.Fatalf("paged links: %s", paged.Body)
		}
		if rest := e.Do(reader, "GET", f.spaceBase+"/page/"+f.intro+"/links?limit=3&page="+next, nil); len(rest.JSON()["items"].([]any)) != 1 {
			t.Errorf("second page of links: %s", rest.Body)
		}

		// Whole-space report: the link page's target counts too.
		sl := e.Do(reader, "GET", "/v1/spaces/"+f.space+"/links", nil)
		if sl.Status != 200 || testenv.Path(sl.JSON(), "stats", "total") != float64(5) {
			t.Errorf("space links: %d %.600s", sl.Status, sl.Body)
		}
		if _, ok := byTarget(sl)["url:https://example.org"]; !ok {
			t.Errorf("the link page's target is missing from the space report")
		}
		// The change request's page links.
		cl := e.Do(reader, "GET", f.crBase+"/page/"+f.crPage+"/links", nil)
		if cl.Status != 200 || testenv.Path(cl.JSON(), "stats", "total") != float64(1) ||
			testenv.Path(cl.JSON(), "items", 0, "locationReferences", 0, "versionContext", "changeRequest", "id") != f.cr {
			t.Errorf("change request page links: %d %.600s", cl.Status, cl.Body)
		}

		// Backlinks of a page.
		bl := e.Do(reader, "GET", f.spaceBase+"/page/"+f.guide+"/backlinks", nil)
		if bl.Status != 200 || bl.JSON()["count"] != float64(1) || testenv.Path(bl.JSON(), "items", 0, "page", "id") != f.intro {
			t.Errorf("page backlinks: %d %.600s", bl.Status, bl.Body)
		}
		if bl := e.Do(reader, "GET", f.crBase+"/page/"+f.guide+"/backlinks", nil); bl.JSON()["count"] != float64(1) {
			t.Errorf("page backlinks in the change request: %s", bl.Body)
		}
		if g := e.Do(reader, "GET", f.spaceBase+"/page/nope/backlinks", nil); g.Status != 404 {
			t.Errorf("backlinks of a missing page: %d", g.Status)
		}
	})
}

func TestApplyTemplateToSpace(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := newSpace(t, e, team, "Docs")
		path := "/v1/spaces/" + space + "/content/template"
		body := map[string]any{"id": "changelog", "params": map[string]any{"contentRefs": map[string]any{}}}

		if r := e.Do(team.Reader.Token, "POST", path, body); r.Status != 403 {
			t.Errorf("reader: %d %s", r.Status, r.Body)
		}
		if r := e.Do(team.Outsider.Token, "POST", path, body); r.Status != 404 {
			t.Errorf("outsider: %d %s", r.Status, r.Body)
		}
		if r := e.Do("", "POST", path, body); r.Status != 401 {
			t.Errorf("anonymous: %d", r.Status)
		}
		for _, b := range []any{map[string]any{}, map[string]any{"id": "nope"}, map[string]any{"id": "changelog", "params": "x"}, ""} {
			if r := e.Do(team.Admin.Token, "POST", path, b); r.Status != 400 {
				t.Errorf("body %v: %d %s", b, r.Status, r.Body)
			}
		}

		// Into a change request: the space is untouched.
		cr := newCR(t, e, team.Editor.Token, space, map[string]any{"subject": "T"})
		r := e.Do(team.Editor.Token, "POST", path, map[string]any{"id": "changelog", "changeRequestId": cr["id"]})
		if r.Status != 201 || len(r.Body) != 0 {
			t.Fatalf("apply in a change request: %d %s", r.Status, r.Body)
		}
		if n := len(e.Do(team.Reader.Token, "GET", "/v1/spaces/"+space+"/content/pages", nil).JSON()["pages"].([]any)); n != 0 {
			t.Errorf("space pages = %d", n)
		}
		if n := len(e.Do(team.Reader.Token, "GET", "/v1/spaces/"+space+"/change-requests/"+cr["id"].(string)+"/content/pages", nil).JSON()["pages"].([]any)); n == 0 {
			t.Errorf("no pages in the change request")
		}

		// Straight into the space's content.
		r = e.Do(team.Admin.Token, "POST", path, body)
		if r.Status != 201 {
			t.Fatalf("apply: %d %s", r.Status, r.Body)
		}
		if n := len(e.Do(team.Reader.Token, "GET", "/v1/spaces/"+space+"/content/pages", nil).JSON()["pages"].([]any)); n == 0 {
			t.Errorf("no pages after applying a template")
		}
	})
}
