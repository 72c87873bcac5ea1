package content_test

import (
	"fmt"
	"testing"

	"quire/internal/apierr"
	"quire/internal/content"
	"quire/internal/document"
)

func TestLinks(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		// Links are resolved for a caller: what it may not see is broken.
		ctx := e.as(e.alice.ID)
		other := e.newSpace("Other")
		cr := e.cr("Links")
		res := e.edit(cr, e.alice.ID,
			&content.CreatePage{Title: "Target", Markdown: md("# Intro {#intro}\n\n## Install steps\n\nText.\n")},
			&content.UploadFile{Name: "spec.pdf", ContentType: "application/pdf", Data: []byte("%PDF-1.4")},
		)
		target, file := res.IDs[0], res.IDs[1]
		source := fmt.Sprintf(`## Local

[to target](page://%[1]s) [to nowhere](page://Pmissing000000000000)
[to install](page://%[1]s#install-steps) [to intro](page://%[1]s#intro) [to bad anchor](page://%[1]s#nope)
[to local](#local) [to no local](#elsewhere)
[to file](file://%[2]s) [to no file](file://Fmissing000000000000)
[in app](https://quire.test/app/o/123) [external](https://example.com/docs)
[to alice](user://%[3]s) [to nobody](user://Umissing000000000000)
[to other space](space://%[4]s) [to no space](space://Smissing000000000000)

{%% content-ref url="page://%[1]s" %%}
[Target](page://%[1]s)
{%% endcontent-ref %%}

{%% file src="file://%[2]s" %%}
The spec
{%% endfile %%}
`, target, file, e.alice.ID, other.ID)
		res = e.edit(cr, e.alice.ID,
			&content.CreatePage{Title: "Source", Markdown: md(source)},
			&content.CreatePage{Title: "Shortcut", Type: content.TypeLink, Link: &document.ContentRef{Kind: document.RefPage, Page: target}},
		)
		src, shortcut := res.IDs[0], res.IDs[1]
		e.merge(res.ChangeRequest)
		rev := e.reload(e.space.ID).RevisionID

		type want struct{ node, text, status string }
		expect := []want{
			{"link", "to target", content.LinkOK},
			{"link", "to nowhere", content.LinkBroken},
			{"link", "to install", content.LinkOK},
			{"link", "to intro", content.LinkOK},
			{"link", "to bad anchor", content.LinkBroken},
			{"link", "to local", content.LinkOK},
			{"link", "to no local", content.LinkBroken},
			{"link", "to file", content.LinkOK},
			{"link", "to no file", content.LinkBroken},
			{"link", "in app", content.LinkInApp},
			{"link", "external", content.LinkOK},
			{"link", "to alice", content.LinkOK},
			{"link", "to nobody", content.LinkBroken},
			{"link", "to other space", content.LinkOK},
			{"link", "to no space", content.LinkBroken},
			{"content-ref", "", content.LinkOK},
			{"file", "", content.LinkOK},
		}
		links, err := e.svc.Links(ctx, rev, &src)
		if err != nil {
			t.Fatal(err)
		}
		if len(links) != len(expect) {
			t.Fatalf("got %d links, want %d: %+v", len(links), len(expect), links)
		}
		for i, w := range expect {
			l := links[i]
			if l.Page != src || l.Node != w.node || l.Text != w.text || l.Status != w.status {
				t.Errorf("link %d = %+v, want %+v", i, l, w)
			}
		}
		all, err := e.svc.Links(ctx, rev, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Source, then the link page (tree order: Target has none).
		if len(all) != len(expect)+1 || all[len(all)-1].Page != shortcut || all[len(all)-1].Node != "link-page" || all[len(all)-1].Status != content.LinkOK {
			t.Fatalf("all links: %+v", all)
		}
		_, err = e.svc.Links(ctx, rev, str("Pmissing000000000000"))
		wantCode(t, err, apierr.NotFound)

		back, err := e.svc.Backlinks(ctx, rev, "page", target)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range back {
			got = append(got, l.Page+"/"+l.Node+"/"+l.Text)
		}
		wantBack := []string{src + "/link/to target", src + "/link/to install", src + "/link/to intro", src + "/link/to bad anchor",
			src + "/content-ref/", shortcut + "/link-page/"}
		if fmt.Sprint(got) != fmt.Sprint(wantBack) {
			t.Fatalf("page backlinks = %q, want %q", got, wantBack)
		}
		back, err = e.svc.Backlinks(ctx, rev, "file", file)
		if err != nil || len(back) != 2 || back[0].Text != "to file" || back[1].Node != "file" {
			t.Fatalf("file backlinks = %+v %v", back, err)
		}
		_, err = e.svc.Backlinks(ctx, rev, "space", e.space.ID)
		wantCode(t, err, apierr.BadRequest)

		// New versions that keep the content keep its references: a title
		// change and a move in one change request, an emoji in another,
		// combined by the merge into a fresh version.
		x, y := e.cr("Rename"), e.cr("Emoji")
		e.edit(x, e.alice.ID, &content.UpdatePage{Page: src, Title: str("Source (renamed)")},
			&content.MovePage{Page: src, Position: &content.Position{Before: target}})
		e.edit(y, e.bob.ID, &content.UpdatePage{Page: src, Emoji: str("1f517")})
		e.merge(x)
		if m := e.merge(y); m.Result != content.ResultMerge {
			t.Fatalf("merge: %+v", m)
		}
		rev = e.reload(e.space.ID).RevisionID
		if p, err := e.svc.Page(ctx, rev, src); err != nil || p.Title != "Source (renamed)" || p.Emoji != "1f517" {
			t.Fatalf("combined page: %+v %v", p, err)
		}
		links, err = e.svc.Links(ctx, rev, &src)
		if err != nil || len(links) != len(expect) || links[2].Status != content.LinkOK || links[4].Status != content.LinkBroken || links[5].Status != content.LinkOK {
			t.Fatalf("links after rename: %+v %v", links, err)
		}

		// Deleting the target breaks the links to it.
		del := e.cr("Delete target")
		e.edit(del, e.alice.ID, &content.DeletePage{Page: target}, &content.DeleteFile{File: file})
		e.merge(del)
		rev = e.reload(e.space.ID).RevisionID
		links, err = e.svc.Links(ctx, rev, &src)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range []int{0, 2, 3, 7, 15, 16} {
			if links[i].Status != content.LinkBroken {
				t.Errorf("after delete, link %d (%s %s) is %s", i, links[i].Node, links[i].Text, links[i].Status)
			}
		}
	})
}
