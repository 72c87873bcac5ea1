package content_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"quire/internal/apierr"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/types"
)

func TestTemplatesList(t *testing.T) {
	list := content.Templates()
	if len(list) < 4 || len(list) > 6 {
		t.Fatalf("%d templates", len(list))
	}
	seen := map[string]bool{}
	for _, tp := range list {
		if tp.ID == "" || tp.Title == "" || tp.Description == "" || seen[tp.ID] {
			t.Fatalf("template %+v", tp)
		}
		seen[tp.ID] = true
		for _, p := range tp.Params {
			if p.Name == "" || p.Description == "" || len(p.Kinds) == 0 {
				t.Fatalf("%s: param %+v", tp.ID, p)
			}
		}
		got, err := content.TemplateByID(tp.ID)
		if err != nil || got.Title != tp.Title {
			t.Fatalf("TemplateByID(%s): %+v %v", tp.ID, got, err)
		}
	}
	// Callers get copies.
	list[0].Params[0].Kinds[0] = "changed"
	list[0].Params = nil
	if again := content.Templates(); again[0].Params[0].Kinds[0] == "changed" {
		t.Fatal("Templates returned shared params")
	}
	_, err := content.TemplateByID("nope")
	wantField(t, err, "id")
}

func wantField(t testing.TB, err error, field string) {
	t.Helper()
	ae, ok := apierr.As(err)
	if !ok || ae.Code != apierr.BadRequest || ae.Field != field {
		t.Fatalf("want BadRequest on %s, got %v (%+v)", field, err, ae)
	}
}

// allParams gives every param of a template a reference of its first kind.
func (e *env) allParams(tp content.Template, other string) map[string]document.ContentRef {
	refs := map[string]document.ContentRef{}
	for _, p := range tp.Params {
		var r document.ContentRef
		switch p.Kinds[0] {
		case document.RefURL:
			r = document.ContentRef{Kind: document.RefURL, URL: "https://example.com/" + p.Name}
		case document.RefUser:
			r = document.ContentRef{Kind: document.RefUser, User: e.bob.ID}
		case document.RefSpace:
			r = document.ContentRef{Kind: document.RefSpace, Space: other}
		case document.RefOpenAPI:
			r = document.ContentRef{Kind: document.RefOpenAPI, Spec: "petstore"}
		case document.RefPage:
			r = document.ContentRef{Kind: document.RefPage, Page: "page_elsewhere", Space: other}
		default:
			e.t.Fatalf("%s: no sample for kind %s", tp.ID, p.Kinds[0])
		}
		refs[p.Name] = r
	}
	return refs
}

// requiredParams keeps the required members of refs.
func requiredParams(tp content.Template, refs map[string]document.ContentRef) map[string]document.ContentRef {
	out := map[string]document.ContentRef{}
	for _, p := range tp.Params {
		if p.Required {
			out[p.Name] = refs[p.Name]
		}
	}
	return out
}

// Trees of the templates applied with every param.
var templateTrees = map[string][]string{
	"getting-started": {"Welcome", "Quickstart", "FAQ"},
	"api-reference":   {"API reference", "  Overview", "  Authentication", "  Errors", "  Endpoints"},
	"knowledge-base":  {"Knowledge base", "  How-to guides", "  Troubleshooting", "  Glossary"},
	"product-docs": {"Introduction", "Guides", "  Installation", "  Configuration", "  Upgrading",
		"Reference", "  Concepts", "  Release notes", "  API reference"},
	"changelog":     {"Changelog", "  Release checklist"},
	"meeting-notes": {"Meeting notes", "  Meeting template", "  Decision log"},
}

// checkPages reads every page of a revision and checks that its Markdown
// reads back as its document, holds no placeholder, and that its links to
// other pages of the revision resolve.
func (e *env) checkPages(rev *content.Revision) map[string]*content.Page {
	e.t.Helper()
	ctx := context.Background()
	byTitle := map[string]*content.Page{}
	ids := map[string]bool{}
	content.Walk(rev.Pages, func(p *content.Page) { ids[p.ID] = true })
	content.Walk(rev.Pages, func(p *content.Page) {
		full, err := e.svc.Page(ctx, rev.ID, p.ID)
		if err != nil {
			e.t.Fatalf("read %s: %v", p.Title, err)
		}
		byTitle[p.Path] = full
		if p.Type != content.TypeDocument {
			return
		}
		if strings.TrimSpace(full.Markdown) == "" {
			e.t.Fatalf("%s: empty page", p.Path)
		}
		if strings.Contains(full.Markdown, "tpl-") || strings.Contains(full.Markdown, "{{") {
			e.t.Fatalf("%s: placeholder left:\n%s", p.Path, full.Markdown)
		}
		back, err := document.FromMarkdown(full.Markdown)
		if err != nil {
			e.t.Fatal(err)
		}
		a, _ := json.Marshal(back)
		b, _ := json.Marshal(full.Document)
		if string(a) != string(b) {
			e.t.Fatalf("%s: Markdown does not read back as the document:\n%s", p.Path, full.Markdown)
		}
		for _, m := range strings.Split(full.Markdown, "page://")[1:] {
			id, _, _ := strings.Cut(m, ")")
			if !ids[id] && !strings.HasPrefix(id, "page_elsewhere") {
				e.t.Fatalf("%s: link to unknown page %q", p.Path, id)
			}
		}
	})
	return byTitle
}

func TestApplyTemplates(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		other := e.newSpace("Elsewhere")
		for _, tp := range content.Templates() {
			t.Run(tp.ID, func(t *testing.T) {
				sp := e.newSpace(tp.Title)
				refs := e.allParams(tp, other.ID)
				if err := e.svc.ApplyTemplate(e.as(e.alice.ID), sp.ID, "", tp.ID, refs); err != nil {
					t.Fatal(err)
				}
				after := e.reload(sp.ID)
				rev, err := e.svc.Revision(ctx, after.RevisionID)
				if err != nil {
					t.Fatal(err)
				}
				if rev.Type != content.RevisionEdits || !slices.Equal(rev.Parents, []string{sp.RevisionID}) || rev.Author == nil || *rev.Author != e.alice.ID {
					t.Fatalf("revision: %+v", rev)
				}
				if got, want := titles(rev.Pages), templateTrees[tp.ID]; !slices.Equal(got, want) {
					t.Fatalf("tree = %q, want %q", got, want)
				}
				pages := e.checkPages(rev)
				// Every param shows up in the content.
				var all strings.Builder
				for _, p := range pages {
					all.WriteString(p.Markdown)
				}
				for name, r := range refs {
					used := strings.Contains(all.String(), "("+r.MarkdownURL()+")")
					content.Walk(rev.Pages, func(p *content.Page) {
						used = used || (p.Link != nil && *p.Link == r)
					})
					if !used {
						t.Fatalf("param %s (%s) not used", name, r.MarkdownURL())
					}
				}

				// With only the required params, the optional parts are left out.
				sp2 := e.newSpace(tp.Title + " 2")
				if err := e.svc.ApplyTemplate(e.as(e.alice.ID), sp2.ID, "", tp.ID, requiredParams(tp, refs)); err != nil {
					t.Fatal(err)
				}
				rev2 := e.current2(sp2.ID)
				e.checkPages(rev2)
				want := templateTrees[tp.ID]
				if tp.ID == "product-docs" {
					want = want[:len(want)-1] // no API reference link page
				}
				if got := titles(rev2.Pages); !slices.Equal(got, want) {
					t.Fatalf("tree without optional params = %q, want %q", got, want)
				}
			})
		}
	})
}

func (e *env) current2(spaceID string) *content.Revision {
	e.t.Helper()
	rev, err := e.svc.Revision(context.Background(), e.reload(spaceID).RevisionID)
	if err != nil {
		e.t.Fatalf("read revision: %v", err)
	}
	return rev
}

func TestApplyTemplateContent(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		other := e.newSpace("Elsewhere")
		err := e.svc.ApplyTemplate(e.as(e.alice.ID), e.space.ID, "", "getting-started", map[string]document.ContentRef{
			"homepage": {Kind: document.RefURL, URL: "https://quire.test/product"},
			"support":  {Kind: document.RefUser, User: e.bob.ID},
		})
		if err != nil {
			t.Fatal(err)
		}
		err = e.svc.ApplyTemplate(e.as(e.alice.ID), e.space.ID, "", "knowledge-base", map[string]document.ContentRef{
			"related": {Kind: document.RefSpace, Space: other.ID},
		})
		if err != nil {
			t.Fatal(err)
		}
		err = e.svc.ApplyTemplate(e.as(e.alice.ID), e.space.ID, "", "product-docs", map[string]document.ContentRef{
			// Fields the kind does not use are dropped.
			"api": {Kind: document.RefSpace, Space: other.ID, URL: "https://ignored.test"},
		})
		if err != nil {
			t.Fatal(err)
		}
		rev := e.current()
		pages := e.checkPages(rev)
		// One blob per document page: nothing else was stored (pages that
		// link to their children are filled in after them).
		docs := 0
		for _, p := range pages {
			if p.Type == content.TypeDocument {
				docs++
			}
		}
		if n := e.count(e.db.Client.ContentBlob.Query().Count(ctx)); n != docs {
			t.Fatalf("%d blobs for %d document pages", n, docs)
		}
		welcome, quickstart, faq := pages["welcome"], pages["quickstart"], pages["faq"]
		if !strings.Contains(welcome.Markdown, "[the product website](https://quire.test/product)") ||
			!strings.Contains(welcome.Markdown, "[Quickstart](page://"+quickstart.ID+")") ||
			!strings.Contains(welcome.Markdown, "[FAQ](page://"+faq.ID+")") {
			t.Fatalf("welcome:\n%s", welcome.Markdown)
		}
		if !strings.Contains(faq.Markdown, "[Contact support](user://"+e.bob.ID+")") {
			t.Fatalf("faq:\n%s", faq.Markdown)
		}
		home := pages["knowledge-base"]
		if !strings.Contains(home.Markdown, `{% content-ref url="space://`+other.ID+`" %}`) {
			t.Fatalf("knowledge base:\n%s", home.Markdown)
		}
		var ref *document.Node
		for i := range home.Document.Nodes {
			if home.Document.Nodes[i].Type == document.BlockContentRef {
				ref = &home.Document.Nodes[i]
			}
		}
		if r, ok := ref.Ref(); ref == nil || !ok || r != (document.ContentRef{Kind: document.RefSpace, Space: other.ID}) {
			t.Fatalf("content-ref block: %+v", ref)
		}
		link := pages["reference/api-reference"]
		if link == nil || link.Type != content.TypeLink || *link.Link != (document.ContentRef{Kind: document.RefSpace, Space: other.ID}) {
			t.Fatalf("API reference link page: %+v", link)
		}
		// Links between the template's pages, to the other space and to
		// the user all resolve.
		links, err := e.svc.Links(e.as(e.alice.ID), rev.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		kinds := map[string]int{}
		for _, l := range links {
			if l.Status == content.LinkBroken {
				t.Fatalf("broken link: %+v", l)
			}
			kinds[l.Ref.Kind]++
		}
		if kinds[document.RefPage] < 5 || kinds[document.RefSpace] != 2 || kinds[document.RefUser] != 1 || kinds[document.RefURL] != 1 {
			t.Fatalf("links by kind: %v", kinds)
		}
	})
}

func TestApplyTemplateInChangeRequest(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		spec := map[string]document.ContentRef{"spec": {Kind: document.RefOpenAPI, Spec: "petstore"}}
		cr := e.cr("API docs")
		sp := e.reload(e.space.ID)
		if err := e.svc.ApplyTemplate(e.as(e.bob.ID), e.space.ID, cr.ID, "api-reference", spec); err != nil {
			t.Fatal(err)
		}
		cr2, err := e.svc.ChangeRequest(ctx, cr.ID)
		if err != nil {
			t.Fatal(err)
		}
		head, err := e.svc.Revision(ctx, cr2.RevisionID)
		if err != nil {
			t.Fatal(err)
		}
		// One edit: one revision on the change request's previous head.
		if head.Type != content.RevisionEdits || head.ChangeRequest == nil || *head.ChangeRequest != cr.ID ||
			!slices.Equal(head.Parents, []string{cr.RevisionID}) || !slices.Equal(cr2.Contributors, []string{e.bob.ID}) {
			t.Fatalf("head: %+v, contributors %v", head, cr2.Contributors)
		}
		if got := titles(head.Pages); !slices.Equal(got, templateTrees["api-reference"]) {
			t.Fatalf("change request tree = %q", got)
		}
		pages := e.checkPages(head)
		if ov := pages["api-reference/overview"]; !strings.Contains(ov.Markdown, `{% content-ref url="openapi://petstore" %}`) {
			t.Fatalf("overview:\n%s", ov.Markdown)
		}
		if got := e.reload(e.space.ID); got.RevisionID != sp.RevisionID || len(e.current().Pages) != 0 {
			t.Fatal("space changed before merge")
		}
		if m := e.merge(cr2); m.Result != content.ResultMerge {
			t.Fatalf("merge: %+v", m)
		}
		if got := titles(e.current().Pages); !slices.Equal(got, templateTrees["api-reference"]) {
			t.Fatalf("space tree after merge = %q", got)
		}

		// A merged change request takes no more edits.
		err = e.svc.ApplyTemplate(e.as(e.bob.ID), e.space.ID, cr.ID, "changelog", nil)
		wantField(t, err, "status")
		// The change request must belong to the space.
		other := e.newSpace("Other")
		open := e.cr("Open")
		err = e.svc.ApplyTemplate(e.as(e.bob.ID), other.ID, open.ID, "changelog", nil)
		wantCode(t, err, apierr.NotFound)
		err = e.svc.ApplyTemplate(e.as(e.bob.ID), e.space.ID, "cr_missing", "changelog", nil)
		wantCode(t, err, apierr.NotFound)
		if got, _ := e.svc.ChangeRequest(ctx, open.ID); got.RevisionID != open.RevisionID {
			t.Fatal("change request of another space edited")
		}
	})
}

func TestApplyTemplateTwice(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		spec := map[string]document.ContentRef{"spec": {Kind: document.RefOpenAPI, Spec: "petstore"}}
		for range 2 {
			if err := e.svc.ApplyTemplate(e.as(e.alice.ID), e.space.ID, "", "product-docs", nil); err != nil {
				t.Fatal(err)
			}
		}
		cr := e.cr("Twice")
		for range 2 {
			if err := e.svc.ApplyTemplate(e.as(e.alice.ID), e.space.ID, cr.ID, "api-reference", spec); err != nil {
				t.Fatal(err)
			}
		}
		if m := e.merge(cr); m.Result != content.ResultMerge {
			t.Fatalf("merge: %+v", m)
		}
		rev := e.current()
		paths := map[string]bool{}
		content.Walk(rev.Pages, func(p *content.Page) {
			if paths[p.Path] {
				t.Fatalf("path %q twice", p.Path)
			}
			paths[p.Path] = true
		})
		for _, want := range []string{"introduction", "introduction-2", "guides/installation", "guides-2/installation",
			"api-reference/overview", "api-reference-2/errors"} {
			if !paths[want] {
				t.Fatalf("no page at %q in %v", want, paths)
			}
		}
		if n := len(rev.Pages); n != 8 {
			t.Fatalf("%d root pages, want 8: %q", n, titles(rev.Pages))
		}
		e.checkPages(rev)
	})
}

func TestApplyTemplateRefused(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		cr := e.cr("Pending")
		sp := e.reload(e.space.ID)
		before := e.written()
		url := func(u string) document.ContentRef { return document.ContentRef{Kind: document.RefURL, URL: u} }
		spec := document.ContentRef{Kind: document.RefOpenAPI, Spec: "petstore"}
		for _, tc := range []struct {
			name, id string
			refs     map[string]document.ContentRef
			field    string
		}{
			{"unknown template", "nope", nil, "id"},
			{"empty id", "", nil, "id"},
			{"unknown param", "getting-started", map[string]document.ContentRef{"logo": url("https://x.test")}, "params.contentRefs.logo"},
			{"param of another template", "changelog", map[string]document.ContentRef{"spec": spec}, "params.contentRefs.spec"},
			{"missing required", "api-reference", map[string]document.ContentRef{"status": url("https://status.test")}, "params.contentRefs.spec"},
			{"wrong kind", "api-reference", map[string]document.ContentRef{"spec": url("https://x.test/openapi.json")}, "params.contentRefs.spec"},
			{"wrong kind for url", "getting-started", map[string]document.ContentRef{"homepage": {Kind: document.RefSpace, Space: e.space.ID}}, "params.contentRefs.homepage"},
			{"unknown kind", "getting-started", map[string]document.ContentRef{"homepage": {Kind: "website", URL: "https://x.test"}}, "params.contentRefs.homepage"},
			{"incomplete", "api-reference", map[string]document.ContentRef{"spec": {Kind: document.RefOpenAPI}}, "params.contentRefs.spec"},
			{"empty url", "getting-started", map[string]document.ContentRef{"homepage": url("")}, "params.contentRefs.homepage"},
			{"relative url", "getting-started", map[string]document.ContentRef{"homepage": url("/about")}, "params.contentRefs.homepage"},
			{"url with spaces", "changelog", map[string]document.ContentRef{"repository": url("https://x.test/a b")}, "params.contentRefs.repository"},
			{"user without id", "meeting-notes", map[string]document.ContentRef{"owner": {Kind: document.RefUser}}, "params.contentRefs.owner"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				err := e.svc.ApplyTemplate(e.as(e.alice.ID), e.space.ID, "", tc.id, tc.refs)
				wantField(t, err, tc.field)
				err = e.svc.ApplyTemplate(e.as(e.alice.ID), e.space.ID, cr.ID, tc.id, tc.refs)
				wantField(t, err, tc.field)
			})
		}

		c := e.db.Client
		if err := c.Space.UpdateOneID(e.space.ID).SetEditMode(types.EditModeLocked).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		wantCode(t, e.svc.ApplyTemplate(e.as(e.alice.ID), e.space.ID, "", "changelog", nil), apierr.Forbidden)
		wantCode(t, e.svc.ApplyTemplate(e.as(e.alice.ID), e.space.ID, cr.ID, "changelog", nil), apierr.Forbidden)
		if err := c.Space.UpdateOneID(e.space.ID).SetEditMode(types.EditModeLive).SetDeletedAt(sp.CreatedAt).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		wantCode(t, e.svc.ApplyTemplate(e.as(e.alice.ID), e.space.ID, "", "changelog", nil), apierr.PreconditionFailed)
		wantCode(t, e.svc.ApplyTemplate(e.as(e.alice.ID), e.space.ID, cr.ID, "changelog", nil), apierr.PreconditionFailed)
		wantCode(t, e.svc.ApplyTemplate(e.as(e.alice.ID), "space_missing", "", "changelog", nil), apierr.NotFound)

		e.wantUnchanged(before)
		if got := e.reload(e.space.ID); got.RevisionID != sp.RevisionID {
			t.Fatal("space revision changed")
		}
		if got, err := e.svc.ChangeRequest(ctx, cr.ID); err != nil || got.RevisionID != cr.RevisionID {
			t.Fatalf("change request changed: %v", err)
		}
	})
}

// TestCreateChangeRequestWithTemplate applies a template while creating a
// change request, in one transaction: a template that cannot be applied
// leaves no change request behind.
func TestCreateChangeRequestWithTemplate(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		cr, err := e.svc.CreateChangeRequest(e.as(e.alice.ID), e.space.ID, content.CreateChangeRequest{
			Subject: "Start", Template: &content.TemplateUse{ID: "changelog"},
		})
		if err != nil {
			t.Fatal(err)
		}
		if cr.RevisionID == cr.RevisionInitial || len(cr.Contributors) != 1 || cr.Contributors[0] != e.alice.ID {
			t.Fatalf("change request with a template: %+v", cr)
		}
		rev, err := e.svc.Revision(ctx, cr.RevisionID)
		if err != nil || len(rev.Pages) == 0 {
			t.Fatalf("pages of the change request: %v %v", err, rev)
		}
		if len(e.current().Pages) != 0 {
			t.Fatal("the space changed before a merge")
		}

		before := e.reload(e.space.ID).ChangeRequests
		_, err = e.svc.CreateChangeRequest(e.as(e.alice.ID), e.space.ID, content.CreateChangeRequest{
			Template: &content.TemplateUse{ID: "api-reference"},
		})
		wantField(t, err, "params.contentRefs.spec")
		if err := e.db.Client.Space.UpdateOneID(e.space.ID).SetEditMode(types.EditModeLocked).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		_, err = e.svc.CreateChangeRequest(e.as(e.alice.ID), e.space.ID, content.CreateChangeRequest{
			Template: &content.TemplateUse{ID: "changelog"},
		})
		wantCode(t, err, apierr.Forbidden)
		if after := e.reload(e.space.ID).ChangeRequests; after != before {
			t.Fatalf("change requests after refused templates: %d, want %d", after, before)
		}
		if n, err := e.db.Client.ChangeRequest.Query().Count(ctx); err != nil || n != before {
			t.Fatalf("change request rows: %d (%v), want %d", n, err, before)
		}
	})
}
