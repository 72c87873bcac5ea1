package content_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/types"
)

const introMarkdown = "# Welcome\n\nSome **bold** and *italic* text with `code`.\n\n- one\n- two\n\n{% hint style=\"info\" %}\nA hint.\n{% endhint %}\n"

func TestBuildMergeRead(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		cr := e.cr("First pages")
		if cr.Number != 1 || cr.Status != content.StatusDraft || cr.RevisionID != e.space.RevisionID || cr.RevisionInitial != e.space.RevisionID {
			t.Fatalf("new change request: %+v", cr)
		}
		res := e.edit(cr, e.alice.ID,
			&content.CreatePage{Title: "Getting started", Markdown: md(introMarkdown), Emoji: "1f680"},
			&content.CreatePage{Title: "Reference"},
		)
		if !res.Changed || res.Revision == cr.RevisionID || len(res.IDs) != 2 {
			t.Fatalf("edit result: %+v", res)
		}
		start, ref := res.IDs[0], res.IDs[1]
		res = e.edit(res.ChangeRequest, e.bob.ID,
			&content.CreatePage{Title: "Install", Parent: start},
			&content.CreatePage{Title: "Configure", Parent: start},
			&content.CreatePage{Title: "Overview", Parent: start, Position: &content.Position{Before: ""}},
		)
		install, configure, overview := res.IDs[0], res.IDs[1], res.IDs[2]
		// Place Overview first, a new page between Install and Configure,
		// and move Reference before Getting started.
		res = e.edit(res.ChangeRequest, e.alice.ID,
			&content.MovePage{Page: overview, Position: &content.Position{Before: install}},
			&content.CreatePage{Title: "Upgrade", Parent: start, Position: &content.Position{After: install}},
			&content.MovePage{Page: ref, Position: &content.Position{Before: start}},
			&content.CreatePage{Title: "Old", Parent: ref},
			&content.UpdatePage{Page: configure, Title: str("Configuration"), Description: str("All settings")},
			&content.CreatePage{Title: "GitHub", Type: content.TypeLink, Link: &document.ContentRef{Kind: document.RefURL, URL: "https://github.com"}},
			&content.UploadFile{Name: "logo.png", ContentType: "image/png", Data: pngBytes(t, 3, 2)},
			&content.SetVariables{Variables: map[string]any{"product": "Quire"}},
		)
		old := res.IDs[3]
		res = e.edit(res.ChangeRequest, e.alice.ID, &content.DeletePage{Page: ref})
		cr = res.ChangeRequest
		if want := []string{e.alice.ID, e.bob.ID}; !slices.Equal(cr.Contributors, want) {
			t.Fatalf("contributors = %v, want %v", cr.Contributors, want)
		}

		// The change request's head has the pages; the space does not yet.
		head, err := e.svc.Revision(ctx, cr.RevisionID)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"Getting started", "  Overview", "  Install", "  Upgrade", "  Configuration", "GitHub"}
		if got := titles(head.Pages); !slices.Equal(got, want) {
			t.Fatalf("head tree = %q, want %q", got, want)
		}
		if got := titles(e.current().Pages); len(got) != 0 {
			t.Fatalf("space changed before merge: %q", got)
		}
		if _, err := e.svc.Page(ctx, cr.RevisionID, old); apierr.CodeOf(err) != apierr.NotFound {
			t.Fatalf("deleted subtree page: %v", err)
		}

		m := e.merge(cr)
		if m.Result != content.ResultMerge || m.ChangeRequest.Status != content.StatusMerged || m.ChangeRequest.RevisionMerged == nil || *m.ChangeRequest.RevisionMerged != m.Revision || m.ChangeRequest.MergedAt == nil {
			t.Fatalf("merge result: %+v", m)
		}
		sp := e.reload(e.space.ID)
		if sp.RevisionID != m.Revision {
			t.Fatalf("space revision = %s, want %s", sp.RevisionID, m.Revision)
		}
		rev := e.current()
		if rev.Type != content.RevisionMerge || !slices.Equal(rev.Parents, []string{e.space.RevisionID, cr.RevisionID}) {
			t.Fatalf("merge revision: type %s parents %v", rev.Type, rev.Parents)
		}
		if got := titles(rev.Pages); !slices.Equal(got, want) {
			t.Fatalf("space tree = %q, want %q", got, want)
		}
		gs := findPage(rev, "Getting started")
		if gs.ID != start || gs.Slug != "getting-started" || gs.Path != "getting-started" || gs.Emoji != "1f680" {
			t.Fatalf("page: %+v", gs)
		}
		if p := findPage(rev, "Configuration"); p.Path != "getting-started/configure" || p.Description != "All settings" {
			t.Fatalf("configuration page: %+v", p)
		}
		if p := findPage(rev, "GitHub"); p.Type != content.TypeLink || p.Link == nil || p.Link.URL != "https://github.com" {
			t.Fatalf("link page: %+v", p)
		}
		if len(rev.Files) != 1 || rev.Files[0].Name != "logo.png" || rev.Files[0].Size != int64(len(pngBytes(t, 3, 2))) ||
			rev.Files[0].Width == nil || *rev.Files[0].Width != 3 || *rev.Files[0].Height != 2 {
			t.Fatalf("files: %+v", rev.Files)
		}
		if rev.Variables["product"] != "Quire" {
			t.Fatalf("variables: %v", rev.Variables)
		}

		// Markdown round trip.
		page, err := e.svc.Page(ctx, rev.ID, start)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := document.FromMarkdown(introMarkdown)
		if err != nil {
			t.Fatal(err)
		}
		if page.Markdown != document.ToMarkdown(doc) || !strings.Contains(page.Markdown, "Some **bold** and *italic* text with `code`.") ||
			!strings.Contains(page.Markdown, `{% hint style="info" %}`) {
			t.Fatalf("markdown:\n%s", page.Markdown)
		}
		if page.Document == nil || page.Document.Text() != doc.Text() {
			t.Fatalf("document text: %q", page.Document.Text())
		}
		child, err := e.svc.Page(ctx, rev.ID, install)
		if err != nil || child.Path != "getting-started/install" || child.Markdown != "" {
			t.Fatalf("child page: %+v %v", child, err)
		}
		f, data, err := e.svc.FileContent(ctx, rev.ID, rev.Files[0].ID)
		if err != nil || f.ContentType != "image/png" || string(data) != string(pngBytes(t, 3, 2)) {
			t.Fatalf("file content: %+v %v", f, err)
		}

		files, err := e.svc.Files(ctx, rev.ID)
		if err != nil || len(files) != 1 || files[0].ID != rev.Files[0].ID || files[0].Hash != rev.Files[0].Hash {
			t.Fatalf("files: %+v %v", files, err)
		}
		if f, err := e.svc.File(ctx, rev.ID, files[0].ID); err != nil || f.Name != "logo.png" {
			t.Fatalf("file: %+v %v", f, err)
		}
		_, err = e.svc.File(ctx, rev.ID, "Fmissing000000000000")
		wantCode(t, err, apierr.NotFound)
		if p, err := e.svc.PageByPath(ctx, rev.ID, "/getting-started/install"); err != nil || p.ID != install {
			t.Fatalf("page by path: %+v %v", p, err)
		}
		_, err = e.svc.PageByPath(ctx, rev.ID, "getting-started/nope")
		wantCode(t, err, apierr.NotFound)
		_, err = e.svc.Revision(ctx, "Rmissing000000000000")
		wantCode(t, err, apierr.NotFound)

		// The merged change request refuses edits; merging again too.
		_, err = e.svc.Edit(e.as(e.alice.ID), cr.ID, &content.CreatePage{Title: "Late"})
		wantCode(t, err, apierr.BadRequest)
		_, err = e.svc.Merge(e.as(e.alice.ID), cr.ID)
		wantCode(t, err, apierr.BadRequest)

		// Lookups.
		got, err := e.svc.ChangeRequestByNumber(ctx, e.space.ID, 1)
		if err != nil || got.ID != cr.ID {
			t.Fatalf("by number: %v %v", got, err)
		}
		_, err = e.svc.ChangeRequestByNumber(ctx, e.space.ID, 2)
		wantCode(t, err, apierr.NotFound)
		_, err = e.svc.ChangeRequest(ctx, "Qnothere")
		wantCode(t, err, apierr.NotFound)
	})
}

func TestEditValidation(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		cr := e.cr("Validation")
		res := e.edit(cr, e.alice.ID,
			&content.CreatePage{Title: "A"},
			&content.CreatePage{Title: "B"},
			&content.CreatePage{Title: "Group", Type: content.TypeGroup},
			&content.CreatePage{Title: "Link", Type: content.TypeLink, Link: &document.ContentRef{Kind: document.RefURL, URL: "https://x.test"}},
		)
		a, b, group, link := res.IDs[0], res.IDs[1], res.IDs[2], res.IDs[3]
		res = e.edit(cr, e.alice.ID, &content.CreatePage{Title: "A1", Parent: a})
		a1 := res.IDs[0]
		before := res.Revision
		cases := []struct {
			name string
			op   content.Op
			code apierr.Code
		}{
			{"empty title", &content.CreatePage{Title: "  "}, apierr.BadRequest},
			{"long title", &content.CreatePage{Title: strings.Repeat("x", content.MaxTitle+1)}, apierr.BadRequest},
			{"bad type", &content.CreatePage{Title: "X", Type: "folder"}, apierr.BadRequest},
			{"missing parent", &content.CreatePage{Title: "X", Parent: "Pmissing"}, apierr.NotFound},
			{"under a link", &content.CreatePage{Title: "X", Parent: link}, apierr.BadRequest},
			{"nested group", &content.CreatePage{Title: "X", Type: content.TypeGroup, Parent: a}, apierr.BadRequest},
			{"markdown and document", &content.CreatePage{Title: "X", Markdown: md("x"), Document: &document.Document{}}, apierr.BadRequest},
			{"group with content", &content.CreatePage{Title: "X", Type: content.TypeGroup, Markdown: md("x")}, apierr.BadRequest},
			{"link without target", &content.CreatePage{Title: "X", Type: content.TypeLink}, apierr.BadRequest},
			{"position not a sibling", &content.CreatePage{Title: "X", Position: &content.Position{After: a1}}, apierr.BadRequest},
			{"after must precede before", &content.CreatePage{Title: "X", Position: &content.Position{After: b, Before: a}}, apierr.BadRequest},
			{"bad slug", &content.CreatePage{Title: "X", Slug: "Not A Slug"}, apierr.BadRequest},
			{"update missing page", &content.UpdatePage{Page: "Pmissing", Title: str("X")}, apierr.NotFound},
			{"content of a group", &content.UpdatePage{Page: group, Markdown: md("x")}, apierr.BadRequest},
			{"move into descendant", &content.MovePage{Page: a, Parent: catalog.Some(a1)}, apierr.BadRequest},
			{"move into itself", &content.MovePage{Page: a, Parent: catalog.Some(a)}, apierr.BadRequest},
			{"move nowhere", &content.MovePage{Page: a}, apierr.BadRequest},
			{"delete missing page", &content.DeletePage{Page: "Pmissing"}, apierr.NotFound},
			{"file without name", &content.UploadFile{Data: []byte("x")}, apierr.BadRequest},
			{"delete missing file", &content.DeleteFile{File: "Fmissing"}, apierr.NotFound},
			{"invalid document", &content.CreatePage{Title: "X", Document: &document.Document{Nodes: []document.Node{{Object: "block", Type: "nope"}}}}, apierr.BadRequest},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				_, err := e.svc.Edit(e.as(e.alice.ID), cr.ID, c.op)
				wantCode(t, err, c.code)
			})
		}
		// A failed op rolls back the whole edit.
		_, err := e.svc.Edit(e.as(e.alice.ID), cr.ID, &content.CreatePage{Title: "Kept?"}, &content.DeletePage{Page: "Pmissing"})
		wantCode(t, err, apierr.NotFound)
		got, err := e.svc.ChangeRequest(ctx, cr.ID)
		if err != nil || got.RevisionID != before {
			t.Fatalf("failed edit changed the head: %v %v", got.RevisionID, err)
		}
		// An edit that changes nothing writes no revision.
		res = e.edit(cr, e.alice.ID, &content.UpdatePage{Page: a, Title: str("A")})
		if res.Changed || res.Revision != before {
			t.Fatalf("no-op edit: %+v", res)
		}
		// Moving a page to another parent keeps slugs unique there.
		res = e.edit(cr, e.alice.ID, &content.CreatePage{Title: "A1", Parent: b})
		res = e.edit(cr, e.alice.ID, &content.MovePage{Page: a1, Parent: catalog.Some(b), Position: &content.Position{Before: res.IDs[0]}})
		rev, err := e.svc.Revision(ctx, res.Revision)
		if err != nil {
			t.Fatal(err)
		}
		bp := findPage(rev, "B")
		if len(bp.Pages) != 2 || bp.Pages[0].ID != a1 || bp.Pages[0].Slug != "a1-2" || bp.Pages[1].Slug != "a1" {
			t.Fatalf("moved page: %+v %+v", bp.Pages[0], bp.Pages[1])
		}
	})
}

func TestLockedSpace(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		cr := e.cr("Locked")
		e.edit(cr, e.alice.ID, &content.CreatePage{Title: "A"})
		if err := e.db.Client.Space.UpdateOneID(e.space.ID).SetEditMode(types.EditModeLocked).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		_, err := e.svc.Edit(e.as(e.alice.ID), cr.ID, &content.CreatePage{Title: "B"})
		wantCode(t, err, apierr.Forbidden)
		if !strings.Contains(err.Error(), "locked") {
			t.Fatalf("message: %v", err)
		}
		_, err = e.svc.Merge(e.as(e.alice.ID), cr.ID)
		wantCode(t, err, apierr.Forbidden)
		if got := e.reload(e.space.ID); got.RevisionID != e.space.RevisionID || got.ChangeRequestsDraft != 1 {
			t.Fatalf("locked space changed: %+v", got)
		}
		if err := e.db.Client.Space.UpdateOneID(e.space.ID).SetEditMode(types.EditModeLive).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if m := e.merge(cr); m.Result != content.ResultMerge {
			t.Fatalf("merge after unlock: %+v", m)
		}
	})
}

func TestCounters(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		check := func(step string, total, open, draft int) {
			t.Helper()
			sp := e.reload(e.space.ID)
			if sp.ChangeRequests != total || sp.ChangeRequestsOpen != open || sp.ChangeRequestsDraft != draft {
				t.Fatalf("%s: counters total=%d open=%d draft=%d, want %d %d %d", step, sp.ChangeRequests,
					sp.ChangeRequestsOpen, sp.ChangeRequestsDraft, total, open, draft)
			}
		}
		check("start", 0, 0, 0)
		a := e.cr("A")
		check("draft created", 1, 0, 1)
		b, err := e.svc.CreateChangeRequest(e.as(e.bob.ID), e.space.ID, content.CreateChangeRequest{Subject: "B", Status: content.StatusOpen})
		if err != nil {
			t.Fatal(err)
		}
		check("open created", 2, 1, 1)
		open := content.StatusOpen
		if _, err := e.svc.UpdateChangeRequest(e.as(e.alice.ID), a.ID, content.UpdateChangeRequest{Status: &open}); err != nil {
			t.Fatal(err)
		}
		check("draft opened", 2, 2, 0)
		// Setting the same status changes nothing.
		if _, err := e.svc.UpdateChangeRequest(e.as(e.alice.ID), a.ID, content.UpdateChangeRequest{Status: &open}); err != nil {
			t.Fatal(err)
		}
		check("opened again", 2, 2, 0)
		archived := content.StatusArchived
		if _, err := e.svc.UpdateChangeRequest(e.as(e.alice.ID), b.ID, content.UpdateChangeRequest{Status: &archived}); err != nil {
			t.Fatal(err)
		}
		check("archived", 2, 1, 0)
		_, err = e.svc.Edit(e.as(e.bob.ID), b.ID, &content.CreatePage{Title: "X"})
		wantCode(t, err, apierr.BadRequest)
		_, err = e.svc.Merge(e.as(e.bob.ID), b.ID)
		wantCode(t, err, apierr.BadRequest)
		draft := content.StatusDraft
		if _, err := e.svc.UpdateChangeRequest(e.as(e.alice.ID), b.ID, content.UpdateChangeRequest{Status: &draft}); err != nil {
			t.Fatal(err)
		}
		check("reopened as draft", 2, 1, 1)
		e.edit(a, e.alice.ID, &content.CreatePage{Title: "A"})
		e.merge(a)
		check("open merged", 2, 0, 1)
		e.merge(b)
		check("draft merged", 2, 0, 0)
		merged := content.StatusMerged
		_, err = e.svc.UpdateChangeRequest(e.as(e.alice.ID), b.ID, content.UpdateChangeRequest{Status: &merged})
		wantCode(t, err, apierr.BadRequest)
		_, err = e.svc.UpdateChangeRequest(e.as(e.alice.ID), b.ID, content.UpdateChangeRequest{Status: &open})
		wantCode(t, err, apierr.BadRequest)
		bogus := "closed"
		_, err = e.svc.UpdateChangeRequest(e.as(e.alice.ID), a.ID, content.UpdateChangeRequest{Status: &bogus})
		wantCode(t, err, apierr.BadRequest)
		_, err = e.svc.CreateChangeRequest(e.as(e.alice.ID), e.space.ID, content.CreateChangeRequest{Subject: strings.Repeat("s", 101)})
		wantCode(t, err, apierr.BadRequest)
		_, err = e.svc.CreateChangeRequest(e.as(e.alice.ID), e.space.ID, content.CreateChangeRequest{Status: content.StatusMerged})
		wantCode(t, err, apierr.BadRequest)
		_, err = e.svc.CreateChangeRequest(e.as(e.alice.ID), "Snothere", content.CreateChangeRequest{})
		wantCode(t, err, apierr.NotFound)
		check("after refusals", 2, 0, 0)
	})
}

func TestListChangeRequests(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		mk := func(subject, user, status string) *ent.ChangeRequest {
			cr, err := e.svc.CreateChangeRequest(e.as(user), e.space.ID, content.CreateChangeRequest{Subject: subject, Status: status})
			if err != nil {
				t.Fatal(err)
			}
			return cr
		}
		a := mk("A", e.alice.ID, content.StatusOpen)
		b := mk("B", e.bob.ID, content.StatusOpen)
		c := mk("C", e.alice.ID, content.StatusDraft)
		d := mk("D", e.bob.ID, content.StatusOpen)
		// Bob edits A: A becomes the most recently updated.
		e.edit(a, e.bob.ID, &content.CreatePage{Title: "A"})
		subjects := func(list []*ent.ChangeRequest) string {
			var s []string
			for _, cr := range list {
				s = append(s, cr.Subject)
			}
			return strings.Join(s, ",")
		}
		cases := []struct {
			name string
			f    content.ListChangeRequests
			want string
		}{
			{"default: open by updatedAt", content.ListChangeRequests{}, "A,D,B"},
			{"by createdAt", content.ListChangeRequests{OrderBy: "createdAt"}, "D,B,A"},
			{"drafts", content.ListChangeRequests{Status: []string{content.StatusDraft}}, "C"},
			{"all statuses", content.ListChangeRequests{Status: []string{content.StatusDraft, content.StatusOpen}, OrderBy: "createdAt"}, "D,C,B,A"},
			{"creator", content.ListChangeRequests{Creator: e.bob.ID}, "D,B"},
			{"contributor", content.ListChangeRequests{Contributor: e.bob.ID}, "A"},
			{"no contributor", content.ListChangeRequests{Contributor: e.alice.ID}, ""},
		}
		for _, c := range cases {
			list, err := e.svc.ChangeRequests(ctx, e.space.ID, c.f)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if got := subjects(list); got != c.want {
				t.Errorf("%s: got %s, want %s", c.name, got, c.want)
			}
		}
		_, err := e.svc.ChangeRequests(ctx, e.space.ID, content.ListChangeRequests{OrderBy: "title"})
		wantCode(t, err, apierr.BadRequest)
		_, err = e.svc.ChangeRequests(ctx, e.space.ID, content.ListChangeRequests{Status: []string{"closed"}})
		wantCode(t, err, apierr.BadRequest)
		_, _ = b, c
		_ = d
	})
}

func TestUpdateChangeRequestFields(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		desc, err := document.FromMarkdown("Why this **change**.")
		if err != nil {
			t.Fatal(err)
		}
		cr, err := e.svc.CreateChangeRequest(e.as(e.alice.ID), e.space.ID, content.CreateChangeRequest{Subject: "  Fix typos  ", Description: desc})
		if err != nil {
			t.Fatal(err)
		}
		got, err := content.Description(cr)
		if err != nil || cr.Subject != "Fix typos" || got == nil || got.Text() != "Why this change." {
			t.Fatalf("created: %q %+v %v", cr.Subject, got, err)
		}
		cr, err = e.svc.UpdateChangeRequest(e.as(e.alice.ID), cr.ID, content.UpdateChangeRequest{Subject: str("Fix all typos")})
		if err != nil || cr.Subject != "Fix all typos" || cr.Description == nil {
			t.Fatalf("subject update: %+v %v", cr, err)
		}
		cr, err = e.svc.UpdateChangeRequest(e.as(e.alice.ID), cr.ID, content.UpdateChangeRequest{Description: catalog.Some[*document.Document](nil)})
		if err != nil || cr.Description != nil {
			t.Fatalf("description removal: %+v %v", cr, err)
		}
		_, err = e.svc.UpdateChangeRequest(e.as(e.alice.ID), cr.ID, content.UpdateChangeRequest{Subject: str(strings.Repeat("x", 101))})
		wantCode(t, err, apierr.BadRequest)
		_, err = e.svc.UpdateChangeRequest(e.as(e.alice.ID), "Qmissing000000000000", content.UpdateChangeRequest{Subject: str("x")})
		wantCode(t, err, apierr.NotFound)
	})
}
