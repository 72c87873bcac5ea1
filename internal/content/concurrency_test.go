package content_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"quire/ent/revision"
	"quire/internal/apierr"
	"quire/internal/content"
)

// Twenty saves of one page made against the same revision at the same
// time: one is applied and the others are refused with Conflict, writing
// nothing. Each refused editor then reads the page again and redoes its
// change on what it finds, so every change ends up in the page: none
// overwrote another it had not seen.
func TestConcurrentSavesFromOneRevision(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		ids := e.seed("Notes")
		page := ids["Notes"]
		cr := e.cr("Many hands")
		base := cr.RevisionID
		baseText := e.markdown(base, page)
		const n = 20
		line := func(i int) string { return fmt.Sprintf("Line of editor %d.\n", i) }

		errs := make([]error, n)
		heads := make([]string, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				res, err := e.svc.EditAt(e.as(e.alice.ID), cr.ID, base,
					&content.UpdatePage{Page: page, Markdown: md(baseText + "\n" + line(i))})
				errs[i] = err
				if err == nil {
					heads[i] = res.Revision
				}
			})
		}
		wg.Wait()
		winner := -1
		for i, err := range errs {
			switch {
			case err == nil && winner >= 0:
				t.Fatalf("editors %d and %d both saved over revision %s", winner, i, base)
			case err == nil:
				winner = i
			default:
				ae, ok := apierr.As(err)
				if !ok || ae.Code != apierr.Conflict || ae.Field != "revision" {
					t.Fatalf("editor %d: %v, want Conflict on revision", i, err)
				}
			}
		}
		if winner < 0 {
			t.Fatal("no save was applied")
		}
		got, err := e.svc.ChangeRequest(ctx, cr.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.RevisionID != heads[winner] {
			t.Fatalf("head %s, want the winner's %s", got.RevisionID, heads[winner])
		}
		if text := e.markdown(got.RevisionID, page); !strings.Contains(text, line(winner)) {
			t.Fatalf("page after the race: %q", text)
		}
		// The refused saves wrote nothing: one revision, on the base.
		revs, err := e.db.Client.Revision.Query().Where(revision.ChangeRequestID(cr.ID)).All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(revs) != 1 || revs[0].ID != heads[winner] || len(revs[0].Parents) != 1 || revs[0].Parents[0] != base {
			t.Fatalf("revisions of the change request: %+v", revs)
		}

		// The others redo their change on what they read, until it applies.
		for i := range n {
			if i == winner {
				continue
			}
			wg.Go(func() {
				for {
					cur, err := e.svc.ChangeRequest(ctx, cr.ID)
					if err != nil {
						errs[i] = err
						return
					}
					text := e.markdown(cur.RevisionID, page)
					_, err = e.svc.EditAt(e.as(e.bob.ID), cr.ID, cur.RevisionID,
						&content.UpdatePage{Page: page, Markdown: md(text + "\n" + line(i))})
					if apierr.CodeOf(err) == apierr.Conflict {
						continue
					}
					errs[i] = err
					return
				}
			})
		}
		wg.Wait()
		for i, err := range errs {
			if i != winner && err != nil {
				t.Fatalf("editor %d: %v", i, err)
			}
		}
		got, err = e.svc.ChangeRequest(ctx, cr.ID)
		if err != nil {
			t.Fatal(err)
		}
		text := e.markdown(got.RevisionID, page)
		for i := range n {
			if strings.Count(text, line(i)) != 1 {
				t.Fatalf("line of editor %d lost or doubled:\n%s", i, text)
			}
		}
	})
}

// Edits racing the merge of their change request are never lost: each one
// either lands before the merge and is in the space's content after it, or
// is refused because the change request is merged.
func TestEditsRacingAMerge(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		e.seed("Home")
		cr := e.cr("Race")
		e.edit(cr, e.alice.ID, &content.CreatePage{Title: "Before the race"})
		const n = 12
		errs := make([]error, n)
		var merged *content.MergeResult
		var mergeErr error
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				_, errs[i] = e.svc.Edit(e.as(e.bob.ID), cr.ID, &content.CreatePage{Title: fmt.Sprintf("Racer %d", i)})
			})
			if i == n/2 {
				wg.Go(func() { merged, mergeErr = e.svc.Merge(e.as(e.alice.ID), cr.ID) })
			}
		}
		wg.Wait()
		if mergeErr != nil || merged.Result != content.ResultMerge {
			t.Fatalf("merge: %+v %v", merged, mergeErr)
		}
		rev := e.current()
		if findPage(rev, "Before the race") == nil {
			t.Fatal("the edit before the race is lost")
		}
		for i, err := range errs {
			title := fmt.Sprintf("Racer %d", i)
			switch {
			case err == nil && findPage(rev, title) == nil:
				t.Fatalf("%s was saved but is not in the merged content", title)
			case err != nil && (apierr.CodeOf(err) != apierr.BadRequest || !strings.Contains(err.Error(), "merged")):
				t.Fatalf("%s: %v, want saved or refused as merged", title, err)
			}
		}
	})
}
