package content_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"testing"

	"quire/ent"
	"quire/internal/content"
	"quire/internal/merge"
)

// seed merges a change request creating pages with the given titles at the
// root, each with Markdown content, and returns their ids by title.
func (e *env) seed(titles ...string) map[string]string {
	e.t.Helper()
	cr := e.cr("Seed")
	var ops []content.Op
	for _, title := range titles {
		ops = append(ops, &content.CreatePage{Title: title, Markdown: md("Text of " + title + ".\n")})
	}
	res := e.edit(cr, e.alice.ID, ops...)
	if m := e.merge(res.ChangeRequest); m.Result != content.ResultMerge {
		e.t.Fatalf("seed merge: %+v", m)
	}
	out := map[string]string{}
	for i, title := range titles {
		out[title] = res.IDs[i]
	}
	return out
}

func (e *env) markdown(revisionID, pageID string) string {
	e.t.Helper()
	p, err := e.svc.Page(context.Background(), revisionID, pageID)
	if err != nil {
		e.t.Fatalf("read page: %v", err)
	}
	return p.Markdown
}

func TestMergeConflicts(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		ids := e.seed("Alpha", "Beta", "Gamma")
		a, b := e.cr("Edit alpha one way"), e.cr("Edit alpha another way")
		e.edit(a, e.alice.ID, &content.UpdatePage{Page: ids["Alpha"], Markdown: md("Alpha by A.\n")})
		e.edit(b, e.bob.ID, &content.UpdatePage{Page: ids["Alpha"], Markdown: md("Alpha by B.\n")},
			&content.UpdatePage{Page: ids["Beta"], Title: str("Beta by B")})
		if m := e.merge(a); m.Result != content.ResultMerge {
			t.Fatalf("first merge: %+v", m)
		}
		before := e.reload(e.space.ID)
		revisions := e.count(e.db.Client.Revision.Query().Count(ctx))
		versions := e.count(e.db.Client.PageVersion.Query().Count(ctx))

		m, err := e.svc.Merge(e.as(e.bob.ID), b.ID)
		if err != nil {
			t.Fatal(err)
		}
		if m.Result != content.ResultConflicts || len(m.Conflicts) != 1 || m.Conflicts[0].Kind != merge.KindContent ||
			m.Conflicts[0].Page != ids["Alpha"] || m.Revision != "" {
			t.Fatalf("second merge: %+v", m)
		}
		// Nothing changed.
		after := e.reload(e.space.ID)
		if after.RevisionID != before.RevisionID || after.ChangeRequestsDraft != before.ChangeRequestsDraft {
			t.Fatalf("space changed by a conflicting merge")
		}
		if got, _ := e.svc.ChangeRequest(ctx, b.ID); got.Status != content.StatusDraft || got.RevisionMerged != nil {
			t.Fatalf("change request changed by a conflicting merge: %+v", got)
		}
		if n := e.count(e.db.Client.Revision.Query().Count(ctx)); n != revisions {
			t.Fatalf("revisions %d → %d", revisions, n)
		}
		if n := e.count(e.db.Client.PageVersion.Query().Count(ctx)); n != versions {
			t.Fatalf("page versions %d → %d", versions, n)
		}
		if got := e.markdown(after.RevisionID, ids["Alpha"]); got != "Alpha by A.\n" {
			t.Fatalf("alpha = %q", got)
		}
	})
}

func TestMergeCombinesSides(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		ids := e.seed("Alpha", "Beta", "Gamma")
		a, b, c := e.cr("A"), e.cr("B"), e.cr("C")
		// Same page, different properties; and different pages.
		e.edit(a, e.alice.ID,
			&content.UpdatePage{Page: ids["Alpha"], Title: str("Alpha (A)")},
			&content.UpdatePage{Page: ids["Beta"], Markdown: md("Beta by A.\n")},
			&content.CreatePage{Title: "New from A"},
		)
		e.edit(b, e.bob.ID,
			&content.UpdatePage{Page: ids["Alpha"], Markdown: md("Alpha by B.\n"), Emoji: str("2728")},
			&content.MovePage{Page: ids["Gamma"], Position: &content.Position{Before: ids["Alpha"]}},
			&content.DeletePage{Page: ids["Beta"]},
		)
		// C makes the same edits as B but for the delete.
		e.edit(c, e.bob.ID,
			&content.UpdatePage{Page: ids["Alpha"], Markdown: md("Alpha by B.\n"), Emoji: str("2728")},
			&content.MovePage{Page: ids["Gamma"], Position: &content.Position{Before: ids["Alpha"]}},
		)
		if m := e.merge(a); m.Result != content.ResultMerge {
			t.Fatalf("merge a: %+v", m)
		}
		// B deleted Beta, which the space (ours) now has edited: an
		// edit-delete conflict. Updating B from the space reports it too.
		m, err := e.svc.Merge(e.as(e.bob.ID), b.ID)
		if err != nil {
			t.Fatal(err)
		}
		if m.Result != content.ResultConflicts || len(m.Conflicts) != 1 || m.Conflicts[0].Kind != merge.KindEditDelete || m.Conflicts[0].Page != ids["Beta"] {
			t.Fatalf("merge b: %+v", m)
		}
		up, err := e.svc.UpdateFromSpace(e.as(e.bob.ID), b.ID)
		if err != nil || up.Result != content.ResultConflicts || up.Conflicts[0].Kind != merge.KindDeleteEdit {
			t.Fatalf("update b: %+v %v", up, err)
		}
		versions := e.count(e.db.Client.PageVersion.Query().Count(ctx))
		if m := e.merge(c); m.Result != content.ResultMerge {
			t.Fatalf("merge c: %+v", m)
		}
		rev := e.current()
		if got, want := titles(rev.Pages), []string{"Gamma", "Alpha (A)", "Beta", "New from A"}; !slices.Equal(got, want) {
			t.Fatalf("tree = %q, want %q", got, want)
		}
		alpha := findPage(rev, "Alpha (A)")
		if alpha.Emoji != "2728" || e.markdown(rev.ID, alpha.ID) != "Alpha by B.\n" {
			t.Fatalf("alpha = %+v", alpha)
		}
		if e.markdown(rev.ID, ids["Beta"]) != "Beta by A.\n" {
			t.Fatalf("beta lost A's edit")
		}
		// Only Alpha, which combines both sides, got a new version: Gamma
		// is C's version as is.
		if n := e.count(e.db.Client.PageVersion.Query().Count(ctx)); n != versions+1 {
			t.Fatalf("page versions %d → %d, want one more", versions, n)
		}
	})
}

func TestUpdateFromSpace(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		ids := e.seed("Alpha", "Beta")
		a, b := e.cr("A"), e.cr("B")
		e.edit(a, e.alice.ID, &content.UpdatePage{Page: ids["Alpha"], Markdown: md("Alpha by A.\n")})
		e.edit(b, e.bob.ID, &content.UpdatePage{Page: ids["Beta"], Markdown: md("Beta by B.\n")},
			&content.CreatePage{Title: "Delta"})
		if content.Outdated(a, e.reload(e.space.ID)) {
			t.Fatalf("fresh change request is outdated")
		}
		e.merge(b)
		sp := e.reload(e.space.ID)
		a, _ = e.svc.ChangeRequest(ctx, a.ID)
		if !content.Outdated(a, sp) {
			t.Fatalf("change request not outdated after a merge into the space")
		}
		up, err := e.svc.UpdateFromSpace(e.as(e.alice.ID), a.ID)
		if err != nil || up.Result != content.ResultUpdate {
			t.Fatalf("update: %+v %v", up, err)
		}
		a = up.ChangeRequest
		if content.Outdated(a, sp) || a.RevisionMergedAncestor == nil || *a.RevisionMergedAncestor != sp.RevisionID || a.RevisionID != up.Revision {
			t.Fatalf("after update: %+v", a)
		}
		head, err := e.svc.Revision(ctx, a.RevisionID)
		if err != nil {
			t.Fatal(err)
		}
		if head.Type != content.RevisionUpdate || !slices.Equal(titles(head.Pages), []string{"Alpha", "Beta", "Delta"}) {
			t.Fatalf("head: %s %q", head.Type, titles(head.Pages))
		}
		if e.markdown(head.ID, ids["Alpha"]) != "Alpha by A.\n" || e.markdown(head.ID, ids["Beta"]) != "Beta by B.\n" {
			t.Fatalf("update lost edits")
		}
		// Updating again has nothing to bring.
		again, err := e.svc.UpdateFromSpace(e.as(e.alice.ID), a.ID)
		if err != nil || again.Result != content.ResultUpdate || again.Revision != a.RevisionID {
			t.Fatalf("second update: %+v %v", again, err)
		}
		// Merging uses the merged ancestor as base: no conflict on Beta.
		if m := e.merge(a); m.Result != content.ResultMerge {
			t.Fatalf("merge: %+v", m)
		}
		rev := e.current()
		if e.markdown(rev.ID, ids["Alpha"]) != "Alpha by A.\n" || e.markdown(rev.ID, ids["Beta"]) != "Beta by B.\n" || findPage(rev, "Delta") == nil {
			t.Fatalf("merged content wrong")
		}
		changes, err := e.svc.Changes(ctx, a.ID)
		if err != nil || len(changes) != 1 || changes[0].PageID != ids["Alpha"] || changes[0].Kind != merge.ChangeModified {
			t.Fatalf("changes: %+v %v", changes, err)
		}
	})
}

func TestConcurrentNumbers(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		const n = 100
		var wg sync.WaitGroup
		numbers := make([]int, n)
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cr, err := e.svc.CreateChangeRequest(e.as(e.alice.ID), e.space.ID, content.CreateChangeRequest{Subject: fmt.Sprint(i)})
				if err == nil {
					numbers[i] = cr.Number
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		sort.Ints(numbers)
		for i, got := range numbers {
			if got != i+1 {
				t.Fatalf("numbers = %v, want 1..%d", numbers, n)
			}
		}
		if sp := e.reload(e.space.ID); sp.ChangeRequests != n || sp.ChangeRequestsDraft != n {
			t.Fatalf("counters: %d %d", sp.ChangeRequests, sp.ChangeRequestsDraft)
		}
	})
}

func TestConcurrentMerges(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		const n = 8
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("Page %d", i)
		}
		ids := e.seed(names...)
		// n change requests edit different pages, and two more edit the same
		// page in conflicting ways.
		crs := make([]*ent.ChangeRequest, n+2)
		for i := range n {
			crs[i] = e.cr(names[i])
			e.edit(crs[i], e.alice.ID, &content.UpdatePage{Page: ids[names[i]], Markdown: md(fmt.Sprintf("Edited %d.\n", i))},
				&content.CreatePage{Title: fmt.Sprintf("New %d", i)})
		}
		for i := n; i < n+2; i++ {
			crs[i] = e.cr("conflict")
			e.edit(crs[i], e.bob.ID, &content.UpdatePage{Page: ids[names[0]], Title: str(fmt.Sprintf("Title %d", i))})
		}
		results := make([]*content.MergeResult, len(crs))
		errs := make([]error, len(crs))
		var wg sync.WaitGroup
		for i := range crs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i], errs[i] = e.svc.Merge(e.as(e.alice.ID), crs[i].ID)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("merge %d: %v", i, err)
			}
		}
		for i := range n {
			if results[i].Result != content.ResultMerge {
				t.Fatalf("merge %d: %+v", i, results[i])
			}
		}
		a, b := results[n].Result, results[n+1].Result
		if !(a == content.ResultMerge && b == content.ResultConflicts || a == content.ResultConflicts && b == content.ResultMerge) {
			t.Fatalf("conflicting merges: %s and %s", a, b)
		}
		// No edit is lost.
		rev := e.current()
		for i := range n {
			if got := e.markdown(rev.ID, ids[names[i]]); got != fmt.Sprintf("Edited %d.\n", i) {
				t.Fatalf("page %d = %q", i, got)
			}
			if findPage(rev, fmt.Sprintf("New %d", i)) == nil {
				t.Fatalf("page New %d lost", i)
			}
		}
		var first *content.Page
		content.Walk(rev.Pages, func(p *content.Page) {
			if p.ID == ids[names[0]] {
				first = p
			}
		})
		if first.Title != "Title 8" && first.Title != "Title 9" {
			t.Fatalf("title = %q", first.Title)
		}
		// The space's revisions form one line: each merge's first parent is
		// the previous merge.
		merges, err := e.db.Client.Revision.Query().All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		parents := map[string]bool{}
		count := 0
		for _, r := range merges {
			if r.Type == content.RevisionMerge {
				count++
				if parents[r.Parents[0]] {
					t.Fatalf("two merges on the same space revision %s", r.Parents[0])
				}
				parents[r.Parents[0]] = true
			}
		}
		if count != n+1+1 { // n, one of the conflicting pair, and the seed
			t.Fatalf("%d merge revisions", count)
		}
		if sp := e.reload(e.space.ID); sp.ChangeRequestsDraft != 1 || sp.ChangeRequestsOpen != 0 {
			t.Fatalf("counters: draft %d open %d", sp.ChangeRequestsDraft, sp.ChangeRequestsOpen)
		}
	})
}

func TestSnapshotChain(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		ids := e.seed("Alpha", "Beta")
		cr := e.cr("Many edits")
		const edits = 2*content.MaxChain + 5
		for i := range edits {
			cr = e.edit(cr, e.alice.ID, &content.UpdatePage{Page: ids["Alpha"], Markdown: md(fmt.Sprintf("Version %d.\n", i))},
				&content.CreatePage{Title: fmt.Sprintf("P%02d", i)}).ChangeRequest
		}
		revs, err := e.db.Client.Revision.Query().All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		snapshots := 0
		for _, r := range revs {
			if len(r.Chain) > content.MaxChain+1 {
				t.Fatalf("revision %s has a chain of %d", r.ID, len(r.Chain))
			}
			if r.BaseID == nil && r.ChangeRequestID != nil {
				snapshots++
			}
		}
		if snapshots != 2 {
			t.Fatalf("%d snapshots in the change request, want 2", snapshots)
		}
		rev, err := e.svc.Revision(ctx, cr.RevisionID)
		if err != nil {
			t.Fatal(err)
		}
		if len(rev.Pages) != edits+2 || rev.Pages[2].Title != "P00" || rev.Pages[edits+1].Title != fmt.Sprintf("P%02d", edits-1) {
			t.Fatalf("tree: %q", titles(rev.Pages))
		}
		if got := e.markdown(cr.RevisionID, ids["Alpha"]); got != fmt.Sprintf("Version %d.\n", edits-1) {
			t.Fatalf("alpha = %q", got)
		}
		// Reads cost the same whatever the history: revision row, entries,
		// versions.
		before := e.db.Statements()
		if _, err := e.svc.Revision(ctx, cr.RevisionID); err != nil {
			t.Fatal(err)
		}
		// Revision row, entries of the chain, page versions (no files).
		if n := e.db.Statements() - before; n != 3 {
			t.Fatalf("statements to read a revision: %d", n)
		}
		if m := e.merge(cr); m.Result != content.ResultMerge {
			t.Fatalf("merge: %+v", m)
		}
		if got := titles(e.current().Pages); len(got) != edits+2 {
			t.Fatalf("merged tree has %d pages", len(got))
		}
	})
}

func TestStatementsDoNotGrow(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		measure := func(pages int) (create, page int64) {
			e.space = e.newSpace(fmt.Sprintf("Space %d", pages))
			cr := e.cr("Seed")
			ops := make([]content.Op, pages)
			for i := range ops {
				ops[i] = &content.CreatePage{Title: fmt.Sprintf("Page %d", i), Markdown: md("Some text.\n")}
			}
			res := e.edit(cr, e.alice.ID, ops...)
			e.merge(res.ChangeRequest)
			rev := e.reload(e.space.ID).RevisionID
			before := e.db.Statements()
			e.cr("Measured")
			create = e.db.Statements() - before
			before = e.db.Statements()
			if _, err := e.svc.Page(ctx, rev, res.IDs[pages/2]); err != nil {
				t.Fatal(err)
			}
			page = e.db.Statements() - before
			return create, page
		}
		c1, p1 := measure(10)
		c2, p2 := measure(1200)
		if c1 != c2 || p1 != p2 {
			t.Fatalf("statements: create %d vs %d, read page %d vs %d", c1, c2, p1, p2)
		}
		t.Logf("create change request: %d statements; read a page: %d statements", c1, p1)
	})
}
