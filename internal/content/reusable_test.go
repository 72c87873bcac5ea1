package content_test

import (
	"context"
	"strings"
	"testing"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/document"
)

// embed is Markdown-free content: a document embedding reusable contents.
func embed(ids ...string) *document.Document {
	d := &document.Document{Data: map[string]any{}, Nodes: []document.Node{}}
	for _, id := range ids {
		d.Nodes = append(d.Nodes, document.Node{Object: document.ObjectBlock, Type: document.BlockReusableContent, IsVoid: true,
			Data: map[string]any{"ref": map[string]any{"kind": "reusable-content", "reusableContent": id}}})
	}
	return d
}

func (e *env) editSpace(ops ...content.Op) *content.SpaceEditResult {
	e.t.Helper()
	res, err := e.svc.EditSpace(e.as(e.alice.ID), e.space.ID, ops...)
	if err != nil {
		e.t.Fatalf("edit space: %v", err)
	}
	return res
}

func reusableTitles(rev *content.Revision) []string {
	var out []string
	for _, r := range rev.ReusableContents {
		out = append(out, r.Title)
	}
	return out
}

// Reusable contents are carried through deltas and snapshots, duplicated
// without copies, and purged with their space.
func TestReusableStorage(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		c := e.db.Client
		res := e.editSpace(&content.CreateReusableContent{Title: "Warning", Markdown: md("Mind the gap.\n")})
		warn := res.IDs[0]
		// More edits than a chain holds: the next revision is a snapshot.
		for i := 0; i <= content.MaxChain; i++ {
			e.editSpace(&content.CreatePage{Title: "P", Markdown: md("x\n")})
		}
		e.editSpace(&content.CreateReusableContent{Title: "Aside", Markdown: md("Aside.\n")})
		rev := e.current()
		if got := strings.Join(reusableTitles(rev), ","); got != "Aside,Warning" {
			t.Fatalf("reusable contents = %q", got)
		}
		rc, err := e.svc.ReusableContent(ctx, rev.ID, warn)
		if err != nil || rc.Markdown != "Mind the gap.\n" || rc.Title != "Warning" {
			t.Fatalf("read = %+v %v", rc, err)
		}
		// A change request edits its own copy; the space keeps the old one.
		cr := e.cr("Edit")
		er := e.edit(cr, e.alice.ID, &content.UpdateReusableContent{ReusableContent: warn, Markdown: md("Mind the step.\n")})
		if rc, _ := e.svc.ReusableContent(ctx, er.Revision, warn); rc == nil || rc.Markdown != "Mind the step.\n" {
			t.Fatalf("change request's version = %+v", rc)
		}
		if rc, _ := e.svc.ReusableContent(ctx, rev.ID, warn); rc.Markdown != "Mind the gap.\n" {
			t.Fatalf("space's version changed: %q", rc.Markdown)
		}
		e.editSpace(&content.DeleteReusableContent{ReusableContent: warn})
		if _, err := e.svc.ReusableContent(ctx, e.current().ID, warn); apierr.CodeOf(err) != apierr.NotFound {
			t.Fatalf("deleted: %v", err)
		}
		if _, err := e.svc.ReusableContent(ctx, rev.ID, warn); err != nil {
			t.Fatalf("older revision lost it: %v", err)
		}

		versions := e.count(c.ReusableContentVersion.Query().Count(ctx))
		src := e.reload(e.space.ID)
		var dst *ent.Space
		err = catalog.WithTx(ctx, c, func(tx *ent.Tx) error {
			var err error
			if dst, err = tx.Space.Create().SetOrganizationID(e.org.ID).SetTitle("Copy").SetPosition("i2").Save(ctx); err != nil {
				return err
			}
			return e.svc.DuplicateContent(ctx, tx, src, dst)
		})
		if err != nil {
			t.Fatal(err)
		}
		copied, err := e.svc.Revision(ctx, e.reload(dst.ID).RevisionID)
		if err != nil || strings.Join(reusableTitles(copied), ",") != "Aside" {
			t.Fatalf("copy = %v %v", reusableTitles(copied), err)
		}
		if n := e.count(c.ReusableContentVersion.Query().Count(ctx)); n != versions {
			t.Fatalf("duplicate wrote versions: %d → %d", versions, n)
		}
		for _, id := range []string{src.ID, dst.ID} {
			err := catalog.WithTx(ctx, c, func(tx *ent.Tx) error {
				if err := e.svc.PurgeSpace(ctx, tx, id); err != nil {
					return err
				}
				return tx.Space.DeleteOneID(id).Exec(ctx)
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		e.wantNoContentLeft(t)
	})
}

func TestReusableEditLimits(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := e.as(e.alice.ID)
		before := e.reload(e.space.ID).RevisionID
		for _, tc := range []struct {
			op    content.Op
			field string
		}{
			{&content.CreateReusableContent{Title: "  "}, "title"},
			{&content.CreateReusableContent{Title: strings.Repeat("t", 101)}, "title"},
			{&content.CreateReusableContent{Title: "T", Markdown: md("x"), Document: embed()}, "document"},
			{&content.CreateReusableContent{Title: "T", ID: "nope"}, "id"},
			{&content.UpdateReusableContent{}, "reusableContent"},
		} {
			_, err := e.svc.EditSpace(ctx, e.space.ID, tc.op)
			if ae, ok := apierr.As(err); !ok || ae.Code != apierr.BadRequest || ae.Field != tc.field {
				t.Errorf("%T: %v, want BadRequest on %s", tc.op, err, tc.field)
			}
		}
		_, err := e.svc.EditSpace(ctx, e.space.ID, &content.DeleteReusableContent{ReusableContent: "r0000000000000000000"})
		wantCode(t, err, apierr.NotFound)
		if after := e.reload(e.space.ID).RevisionID; after != before {
			t.Fatalf("a refused edit wrote a revision")
		}
	})
}

func TestReusableMerge(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		a := e.editSpace(&content.CreateReusableContent{Title: "A", Markdown: md("a\n")}).IDs[0]
		b := e.editSpace(&content.CreateReusableContent{Title: "B", Markdown: md("b\n")}).IDs[0]
		// Title changed in the space, document in the change request: both kept.
		cr := e.cr("Combine")
		e.edit(cr, e.alice.ID, &content.UpdateReusableContent{ReusableContent: a, Markdown: md("a2\n")})
		e.editSpace(&content.UpdateReusableContent{ReusableContent: a, Title: str("A2")})
		if res := e.merge(cr); res.Result != content.ResultMerge {
			t.Fatalf("merge = %+v", res)
		}
		rc, err := e.svc.ReusableContent(ctx, e.current().ID, a)
		if err != nil || rc.Title != "A2" || rc.Markdown != "a2\n" {
			t.Fatalf("combined = %+v %v", rc, err)
		}
		// The same document changed on both sides is a conflict; so is a
		// deletion against a change.
		cr = e.cr("Clash")
		e.edit(cr, e.alice.ID, &content.UpdateReusableContent{ReusableContent: a, Markdown: md("theirs\n")},
			&content.DeleteReusableContent{ReusableContent: b})
		e.editSpace(&content.UpdateReusableContent{ReusableContent: a, Markdown: md("ours\n")},
			&content.UpdateReusableContent{ReusableContent: b, Markdown: md("b2\n")})
		res := e.merge(cr)
		if res.Result != content.ResultConflicts || len(res.Conflicts) != 2 {
			t.Fatalf("merge = %+v", res)
		}
		for _, c := range res.Conflicts {
			if c.Kind != content.KindReusableContent || (c.ReusableContent != a && c.ReusableContent != b) {
				t.Errorf("conflict = %+v", c)
			}
		}
		if rc, _ := e.svc.ReusableContent(ctx, e.current().ID, a); rc.Markdown != "ours\n" {
			t.Fatalf("a conflicting merge changed the space: %q", rc.Markdown)
		}
	})
}

func TestDereference(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		ids := e.editSpace(
			&content.CreateReusableContent{Title: "L1", Markdown: md("one\n")},
			&content.CreateReusableContent{Title: "L2", Markdown: md("two\n")},
			&content.CreateReusableContent{Title: "L3", Markdown: md("three\n")},
			&content.CreateReusableContent{Title: "L4", Markdown: md("four\n")},
		).IDs
		// L1 embeds L2 embeds L3 embeds L4 embeds L1 (a cycle).
		var ops []content.Op
		for i := range 4 {
			d := embed(ids[(i+1)%4])
			d.Nodes = append([]document.Node{{Object: document.ObjectBlock, Type: document.BlockParagraph,
				Nodes: []document.Node{{Object: document.ObjectText, Leaves: []document.Leaf{{Text: []string{"one", "two", "three", "four"}[i]}}}}}}, d.Nodes...)
			ops = append(ops, &content.UpdateReusableContent{ReusableContent: ids[i], Document: d})
		}
		e.editSpace(ops...)
		rev := e.current().ID
		out, err := e.svc.Dereference(ctx, rev, embed(ids[0], "r0000000000000000000"))
		if err != nil {
			t.Fatal(err)
		}
		got := document.ToMarkdown(out)
		// Three levels inlined; the fourth stays a block, as does the
		// reference to a missing reusable content.
		if !strings.Contains(got, "one\n\ntwo\n\nthree\n") || strings.Contains(got, "four") {
			t.Fatalf("dereferenced:\n%s", got)
		}
		if n := len(embedBlocks(out.Nodes)); n != 2 {
			t.Fatalf("%d reusable-content blocks left, want 2:\n%s", n, got)
		}
	})
}

func embedBlocks(nodes []document.Node) []document.Node {
	var out []document.Node
	for _, n := range nodes {
		if n.Type == document.BlockReusableContent {
			out = append(out, n)
		}
		out = append(out, embedBlocks(n.Nodes)...)
	}
	return out
}

// A page's link report follows the reusable contents it embeds.
func TestReusableLinks(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := e.as(e.alice.ID)
		rc := e.editSpace(&content.CreateReusableContent{Title: "Links", Markdown: md("[gone](page://P0000000000000000000)\n")}).IDs[0]
		page := e.editSpace(&content.CreatePage{Title: "Guide", Document: embed(rc)}).IDs[0]
		links, err := e.svc.Links(ctx, e.current().ID, &page)
		if err != nil {
			t.Fatal(err)
		}
		if len(links) != 2 || links[0].Status != content.LinkOK || links[0].Ref.Kind != "reusable-content" ||
			links[1].Status != content.LinkBroken || links[1].ReusableContent != rc || links[1].Page != page {
			t.Fatalf("links = %+v", links)
		}
		e.editSpace(&content.DeleteReusableContent{ReusableContent: rc})
		links, err = e.svc.Links(ctx, e.current().ID, &page)
		if err != nil || len(links) != 1 || links[0].Status != content.LinkBroken {
			t.Fatalf("links after delete = %+v %v", links, err)
		}
	})
}
