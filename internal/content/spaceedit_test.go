package content_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"quire/internal/apierr"
	"quire/internal/content"
	"quire/internal/types"
)

// written counts the rows an edit writes.
func (e *env) written() map[string]int {
	e.t.Helper()
	ctx := context.Background()
	c := e.db.Client
	return map[string]int{
		"revisions":     e.count(c.Revision.Query().Count(ctx)),
		"entries":       e.count(c.RevisionEntry.Query().Count(ctx)),
		"page versions": e.count(c.PageVersion.Query().Count(ctx)),
		"file versions": e.count(c.FileVersion.Query().Count(ctx)),
		"blobs":         e.count(c.ContentBlob.Query().Count(ctx)),
	}
}

func (e *env) wantUnchanged(before map[string]int) {
	e.t.Helper()
	after := e.written()
	for k, n := range before {
		if after[k] != n {
			e.t.Fatalf("%s: %d rows, want %d (nothing written)", k, after[k], n)
		}
	}
}

func TestEditSpace(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		ids := e.seed("Alpha")
		before := e.reload(e.space.ID)
		cr := e.cr("Pending")
		if content.Outdated(cr, before) {
			t.Fatal("new change request is outdated")
		}

		res, err := e.svc.EditSpace(e.as(e.bob.ID), e.space.ID,
			&content.CreatePage{Title: "Guide", Markdown: md("Read **this**.\n")},
			&content.UpdatePage{Page: ids["Alpha"], Title: str("Alpha one")},
			&content.SetVariables{Variables: map[string]any{"product": "Quire"}},
		)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Changed || len(res.IDs) != 3 || res.IDs[1] != ids["Alpha"] || res.IDs[2] != "" || res.Revision == before.RevisionID {
			t.Fatalf("result: %+v", res)
		}
		sp := e.reload(e.space.ID)
		if sp.RevisionID != res.Revision || res.Space.RevisionID != res.Revision {
			t.Fatalf("space revision = %s, want %s", sp.RevisionID, res.Revision)
		}
		if !sp.UpdatedAt.After(before.UpdatedAt) {
			t.Fatalf("updatedAt not bumped: %v → %v", before.UpdatedAt, sp.UpdatedAt)
		}
		rev := e.current()
		if rev.Type != content.RevisionEdits || !slices.Equal(rev.Parents, []string{before.RevisionID}) ||
			rev.ChangeRequest != nil || rev.Author == nil || *rev.Author != e.bob.ID {
			t.Fatalf("revision: type %s parents %v cr %v author %v", rev.Type, rev.Parents, rev.ChangeRequest, rev.Author)
		}
		if got, want := titles(rev.Pages), []string{"Alpha one", "Guide"}; !slices.Equal(got, want) {
			t.Fatalf("tree = %q, want %q", got, want)
		}
		if rev.Variables["product"] != "Quire" {
			t.Fatalf("variables = %v", rev.Variables)
		}
		if got := e.markdown(rev.ID, res.IDs[0]); got != "Read **this**.\n" {
			t.Fatalf("markdown = %q", got)
		}
		// The previous revision is kept as it was.
		old, err := e.svc.Revision(ctx, before.RevisionID)
		if err != nil || !slices.Equal(titles(old.Pages), []string{"Alpha"}) {
			t.Fatalf("previous revision: %v %v", titles(old.Pages), err)
		}

		// The change request now misses the space's content, as after a
		// merge; an update brings it in.
		if cr, err = e.svc.ChangeRequest(ctx, cr.ID); err != nil {
			t.Fatal(err)
		}
		if !content.Outdated(cr, sp) {
			t.Fatal("change request not outdated after a direct edit")
		}
		up, err := e.svc.UpdateFromSpace(e.as(e.alice.ID), cr.ID)
		if err != nil || up.Result != content.ResultUpdate || content.Outdated(up.ChangeRequest, sp) {
			t.Fatalf("update: %+v %v", up, err)
		}
		head, err := e.svc.Revision(ctx, up.ChangeRequest.RevisionID)
		if err != nil || !slices.Equal(titles(head.Pages), []string{"Alpha one", "Guide"}) {
			t.Fatalf("updated change request: %v %v", titles(head.Pages), err)
		}
	})
}

func TestEditSpaceNothingChanged(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ids := e.seed("Alpha")
		sp := e.reload(e.space.ID)
		before := e.written()
		res, err := e.svc.EditSpace(e.as(e.alice.ID), e.space.ID, &content.UpdatePage{Page: ids["Alpha"], Title: str("Alpha")})
		if err != nil {
			t.Fatal(err)
		}
		if res.Changed || res.Revision != sp.RevisionID || res.IDs[0] != ids["Alpha"] {
			t.Fatalf("result: %+v", res)
		}
		e.wantUnchanged(before)
		if got := e.reload(e.space.ID); got.RevisionID != sp.RevisionID || !got.UpdatedAt.Equal(sp.UpdatedAt) {
			t.Fatalf("space changed: %+v", got)
		}
	})
}

func TestEditSpaceRefused(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		ids := e.seed("Alpha")
		sp := e.reload(e.space.ID)
		before := e.written()

		// An op that fails undoes the ops before it.
		_, err := e.svc.EditSpace(e.as(e.alice.ID), e.space.ID,
			&content.CreatePage{Title: "Kept?", Markdown: md("Some text.\n")},
			&content.UpdatePage{Page: "missing", Title: str("X")})
		wantCode(t, err, apierr.NotFound)
		_, err = e.svc.EditSpace(e.as(e.alice.ID), e.space.ID,
			&content.CreatePage{Title: "Kept?"},
			&content.CreatePage{Title: "Child", Parent: ids["Alpha"], Type: content.TypeGroup})
		wantCode(t, err, apierr.BadRequest)
		_, err = e.svc.EditSpace(e.as(e.alice.ID), e.space.ID)
		wantCode(t, err, apierr.BadRequest)
		_, err = e.svc.EditSpace(e.as(e.alice.ID), e.space.ID, nil, (*content.CreatePage)(nil))
		wantCode(t, err, apierr.BadRequest)
		_, err = e.svc.EditSpace(e.as(e.alice.ID), "space_missing", &content.CreatePage{Title: "A"})
		wantCode(t, err, apierr.NotFound)

		c := e.db.Client
		if err := c.Space.UpdateOneID(e.space.ID).SetEditMode(types.EditModeLocked).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		_, err = e.svc.EditSpace(e.as(e.alice.ID), e.space.ID, &content.CreatePage{Title: "B"})
		wantCode(t, err, apierr.Forbidden)
		if err := c.Space.UpdateOneID(e.space.ID).SetEditMode(types.EditModeLive).SetDeletedAt(time.Now()).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		_, err = e.svc.EditSpace(e.as(e.alice.ID), e.space.ID, &content.CreatePage{Title: "B"})
		wantCode(t, err, apierr.PreconditionFailed)

		e.wantUnchanged(before)
		if got := e.reload(e.space.ID); got.RevisionID != sp.RevisionID {
			t.Fatalf("space revision changed: %s", got.RevisionID)
		}
		if err := c.Space.UpdateOneID(e.space.ID).ClearDeletedAt().Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.EditSpace(e.as(e.alice.ID), e.space.ID, &content.CreatePage{Title: "B"}); err != nil {
			t.Fatalf("edit after restore: %v", err)
		}
	})
}

// Direct edits and merges into one space run one after the other: none is
// lost, and each revision follows the one before.
func TestEditSpaceConcurrent(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		const n = 6
		cr := e.cr("Merged meanwhile")
		e.edit(cr, e.alice.ID, &content.CreatePage{Title: "From the change request"})
		errs := make([]error, n+1)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = e.svc.EditSpace(e.as(e.alice.ID), e.space.ID, &content.CreatePage{Title: fmt.Sprintf("Page %d", i)})
			}()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[n] = e.svc.Merge(e.as(e.alice.ID), cr.ID)
		}()
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("edit %d: %v", i, err)
			}
		}
		rev := e.current()
		if len(rev.Pages) != n+1 {
			t.Fatalf("pages = %q, want %d", titles(rev.Pages), n+1)
		}
		// Walk back the first parents: every write is on the line.
		steps := 0
		for id := rev.ID; ; steps++ {
			r, err := e.svc.Revision(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Parents) == 0 {
				break
			}
			id = r.Parents[0]
		}
		if steps != n+1 {
			t.Fatalf("%d revisions on the space's line, want %d", steps, n+1)
		}
	})
}
