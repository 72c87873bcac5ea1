package content_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/types"
)

// guideTree is a documentation tree: a home page, a page with a child, a
// group with a page, a link page and an image, whose documents point at
// each other through keys.
func guideTree(t testing.TB, png []byte) *content.Tree {
	return &content.Tree{
		Pages: []*content.TreePage{
			{Key: "README.md", Title: "Welcome", Markdown: md("Start with [the install](page://guide/install.md#setup).\n\n![logo](file://logo)\n"),
				Git: &types.GitBlob{OID: "1111", Path: "README.md"}},
			{Key: "guide/README.md", Title: "Guide", Slug: "guide", Markdown: md("The guide.\n"), Pages: []*content.TreePage{
				{Key: "guide/install.md", Title: "Install", Markdown: md("## Setup\n\nRun it. Back [home](page://README.md).\n"),
					Git: &types.GitBlob{OID: "2222", Path: "guide/install.md"}},
			}},
			{Type: content.TypeGroup, Title: "Reference", Pages: []*content.TreePage{
				{Key: "reference/api.md", Title: "API", Markdown: md("Endpoints.\n")},
			}},
			{Type: content.TypeLink, Title: "Website", Link: &document.ContentRef{Kind: document.RefURL, URL: "https://example.com"}},
			{Type: content.TypeLink, Title: "Installing", Link: &document.ContentRef{Kind: document.RefPage, Page: "guide/install.md"}},
		},
		Files: []*content.TreeFile{{Key: "logo", Name: "logo.png", Data: png, Git: &types.GitBlob{OID: "3333", Path: ".gitbook/assets/logo.png"}}},
	}
}

func refsOf(t testing.TB, e *env, revID, pageID string) []string {
	t.Helper()
	p, err := e.svc.Page(context.Background(), revID, pageID)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	document.EachRef(p.Document, func(r document.ContentRef) { out = append(out, r.MarkdownURL()) })
	return out
}

// A whole tree becomes the space's current revision; writing it again
// with changes keeps the ids of pages at the same paths, shares what did
// not change and drops what the tree no longer holds.
func TestWriteTree(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := e.as(e.alice.ID)
		png := pngBytes(t, 3, 2)
		commit := &types.GitCommit{OID: "c0ffee", Message: "Docs", Ref: "refs/heads/main"}
		res, err := e.svc.WriteTree(ctx, e.space.ID, guideTree(t, png), content.TreeOptions{Git: commit})
		if err != nil {
			t.Fatal(err)
		}
		if res.Revision == "" || res.Space.RevisionID != res.Revision || res.Matched != 0 {
			t.Fatalf("result %+v", res)
		}
		rev := e.current()
		if got := strings.Join(titles(rev.Pages), "|"); got != "Welcome|Guide|  Install|Reference|  API|Website|Installing" {
			t.Fatalf("tree %q", got)
		}
		if rev.Git == nil || *rev.Git != *commit || rev.Author == nil || *rev.Author != e.alice.ID {
			t.Errorf("revision git %+v, author %v", rev.Git, rev.Author)
		}
		install := findPage(rev, "Install")
		if install.Path != "guide/install" || install.Git == nil || install.Git.Path != "guide/install.md" || install.ID != res.Pages["guide/install.md"] {
			t.Errorf("install page %+v", install)
		}
		if ref := findPage(rev, "Reference"); ref.Type != content.TypeGroup || ref.Path != "reference" {
			t.Errorf("group %+v", ref)
		}
		if l := findPage(rev, "Installing"); l.Link == nil || l.Link.Kind != document.RefPage || l.Link.Page != install.ID {
			t.Errorf("link page to a key: %+v", l.Link)
		}
		if len(rev.Files) != 1 || rev.Files[0].ID != res.Files["logo"] || rev.Files[0].Width == nil || *rev.Files[0].Width != 3 ||
			rev.Files[0].Git == nil || rev.Files[0].Git.OID != "3333" || rev.Files[0].ContentType != "image/png" {
			t.Errorf("files %+v", rev.Files[0])
		}
		welcome := findPage(rev, "Welcome")
		if got := strings.Join(refsOf(t, e, rev.ID, welcome.ID), " "); got != "page://"+install.ID+"#setup file://"+rev.Files[0].ID {
			t.Errorf("welcome refs %q", got)
		}
		// The links resolve: nothing is broken.
		links, err := e.svc.Links(ctx, rev.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range links {
			if l.Status == content.LinkBroken {
				t.Errorf("broken link %+v", l)
			}
		}

		// Again: Install moves under the group and changes, API goes, a
		// page comes; Guide and Welcome stay as they were.
		before := e.written()
		tree := guideTree(t, png)
		tree.Pages[1].Pages = nil
		tree.Pages[2].Pages = []*content.TreePage{
			{Key: "reference/install.md", Title: "Install", Markdown: md("Run it twice.\n"), Git: &types.GitBlob{OID: "2223", Path: "guide/install.md"}},
			{Title: "Changelog", Markdown: md("News.\n")},
		}
		tree.Pages[4].Link.Page = "reference/install.md"
		tree.Pages[0].Markdown = md("Start with [the install](page://reference/install.md#setup).\n\n![logo](file://logo)\n")
		res2, err := e.svc.WriteTree(ctx, e.space.ID, tree, content.TreeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rev2 := e.current()
		if got := strings.Join(titles(rev2.Pages), "|"); got != "Welcome|Guide|Reference|  Install|  Changelog|Website|Installing" {
			t.Fatalf("tree %q", got)
		}
		install2 := findPage(rev2, "Install")
		if install2.ID != install.ID || install2.Path != "reference/install" {
			t.Errorf("moved page: id %s path %s, want id %s (matched by Git path)", install2.ID, install2.Path, install.ID)
		}
		if findPage(rev2, "Guide").Version != findPage(rev, "Guide").Version || findPage(rev2, "Reference").ID != findPage(rev, "Reference").ID {
			t.Error("unchanged pages did not keep their versions")
		}
		if findPage(rev2, "API") != nil || findPage(rev2, "Changelog").ID == findPage(rev, "API").ID {
			t.Error("a page at a new path took a dropped page's id")
		}
		if rev2.Files[0].ID != rev.Files[0].ID || rev2.Files[0].Version != rev.Files[0].Version {
			t.Error("the unchanged file was written again")
		}
		if res2.Matched != 7 { // Welcome, Guide, Install, Reference, Website, Installing and the file
			t.Errorf("matched %d, want 7", res2.Matched)
		}
		after := e.written()
		if after["revisions"] != before["revisions"]+1 || after["page versions"]-before["page versions"] > 5 {
			t.Errorf("rows written: before %v after %v", before, after)
		}
		if rev2.Git != nil {
			t.Errorf("revision git %+v without a commit", rev2.Git)
		}

		// The same tree again writes nothing.
		before = e.written()
		res3, err := e.svc.WriteTree(ctx, e.space.ID, tree, content.TreeOptions{})
		if err != nil || res3.Revision != "" {
			t.Fatalf("unchanged write: %+v, %v", res3, err)
		}
		e.wantUnchanged(before)
	})
}

// A standalone write makes a revision that follows the current one
// without becoming the space's content.
func TestWriteTreeStandalone(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := e.as(e.alice.ID)
		sp := e.reload(e.space.ID)
		res, err := e.svc.WriteTree(ctx, e.space.ID, &content.Tree{Pages: []*content.TreePage{{Title: "Draft"}}},
			content.TreeOptions{Standalone: true, Git: &types.GitCommit{OID: "abc", Message: "m"}})
		if err != nil {
			t.Fatal(err)
		}
		if e.reload(e.space.ID).RevisionID != sp.RevisionID {
			t.Fatal("a standalone write changed the space's revision")
		}
		rev, err := e.svc.Revision(context.Background(), res.Revision)
		if err != nil {
			t.Fatal(err)
		}
		if len(rev.Pages) != 1 || rev.Pages[0].Title != "Draft" || len(rev.Parents) != 1 || rev.Parents[0] != sp.RevisionID || rev.Git.OID != "abc" {
			t.Errorf("standalone revision %+v", rev)
		}
		// Even a tree equal to the content makes one.
		res2, err := e.svc.WriteTree(ctx, e.space.ID, &content.Tree{}, content.TreeOptions{Standalone: true})
		if err != nil || res2.Revision == "" {
			t.Fatalf("empty standalone write: %+v, %v", res2, err)
		}
	})
}

// Bad trees, callers without rights and failing hooks write nothing.
func TestWriteTreeRefusals(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := e.as(e.alice.ID)
		before := e.written()
		for _, c := range []struct {
			name  string
			tree  *content.Tree
			field string
		}{
			{"no title", &content.Tree{Pages: []*content.TreePage{{Title: "A", Pages: []*content.TreePage{{Title: " "}}}}}, "pages[0].pages[0].title"},
			{"nested group", &content.Tree{Pages: []*content.TreePage{{Title: "A", Pages: []*content.TreePage{{Title: "G", Type: content.TypeGroup}}}}}, "pages[0].pages[0].type"},
			{"bad slug", &content.Tree{Pages: []*content.TreePage{{Title: "A", Slug: "Not A Slug"}}}, "pages[0].slug"},
			{"link children", &content.Tree{Pages: []*content.TreePage{{Title: "L", Type: content.TypeLink, Link: &document.ContentRef{Kind: "url", URL: "https://x"}, Pages: []*content.TreePage{{Title: "B"}}}}}, "pages[0].pages"},
			{"link without target", &content.Tree{Pages: []*content.TreePage{{Title: "L", Type: content.TypeLink}}}, "pages[0].link"},
			{"duplicate key", &content.Tree{Pages: []*content.TreePage{{Title: "A", Key: "k"}, {Title: "B", Key: "k"}}}, "pages[1].key"},
			{"markdown limit", &content.Tree{Pages: []*content.TreePage{{Title: "A", Markdown: md(strings.Repeat("> ", 40) + "deep\n")}}}, "pages[0].markdown"},
			{"file name", &content.Tree{Files: []*content.TreeFile{{Name: ""}}}, "files[0].name"},
		} {
			_, err := e.svc.WriteTree(ctx, e.space.ID, c.tree, content.TreeOptions{})
			wantCode(t, err, apierr.BadRequest)
			if ae, _ := apierr.As(err); ae.Field != c.field {
				t.Errorf("%s: field %q (%v), want %q", c.name, ae.Field, err, c.field)
			}
		}
		deep := &content.TreePage{Title: "leaf"}
		for range content.MaxTreeDepth {
			deep = &content.TreePage{Title: "level", Pages: []*content.TreePage{deep}}
		}
		_, err := e.svc.WriteTree(ctx, e.space.ID, &content.Tree{Pages: []*content.TreePage{deep}}, content.TreeOptions{})
		wantCode(t, err, apierr.BadRequest)

		// A reader may not write; an outsider does not see the space.
		reader, err := e.db.Client.User.Create().SetEmail("reader@acme.test").SetDisplayName("Reader").Save(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if err := e.db.Client.Member.Create().SetOrganizationID(e.org.ID).SetUserID(reader.ID).SetRole(types.RoleRead).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := e.db.Client.Space.UpdateOneID(e.space.ID).SetDefaultLevel(types.Inherit).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		tree := &content.Tree{Pages: []*content.TreePage{{Title: "A"}}}
		_, err = e.svc.WriteTree(e.as(reader.ID), e.space.ID, tree, content.TreeOptions{})
		wantCode(t, err, apierr.Forbidden)
		outsider, err := e.db.Client.User.Create().SetEmail("out@other.test").SetDisplayName("Out").Save(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.svc.WriteTree(e.as(outsider.ID), e.space.ID, tree, content.TreeOptions{})
		wantCode(t, err, apierr.NotFound)

		// A failing hook rolls the write back, whichever runs.
		boom := errors.New("boom")
		_, err = e.svc.WriteTree(ctx, e.space.ID, tree, content.TreeOptions{Check: func(context.Context, *ent.Space) error { return boom }})
		if !errors.Is(err, boom) {
			t.Fatalf("check: %v", err)
		}
		_, err = e.svc.WriteTree(ctx, e.space.ID, tree, content.TreeOptions{Then: func(_ context.Context, _ *ent.Tx, res *content.TreeResult) error {
			if res.Revision == "" {
				t.Error("Then saw no revision")
			}
			return boom
		}})
		if !errors.Is(err, boom) {
			t.Fatalf("then: %v", err)
		}
		e.wantUnchanged(before)
	})
}
