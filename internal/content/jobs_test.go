package content_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/content"
	"quire/internal/jobs"
	"quire/internal/loaders"
	"quire/internal/types"
)

// The trash sweep runs outside any request: the sweeper makes its own job
// context (the system caller) and the content engine, handed to it as its
// purger, removes what the space held.
func TestSweeperPurgesContent(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		c := e.db.Client
		e.seed("Alpha", "Beta")
		cr := e.cr("Open")
		e.edit(cr, e.alice.ID, &content.UploadFile{Name: "a.bin", Data: []byte{1, 2, 3}})
		now := time.Date(2030, 6, 1, 0, 0, 0, 0, time.UTC)
		if err := c.Space.UpdateOneID(e.space.ID).SetDeletedAt(now.Add(-8 * 24 * time.Hour)).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		n, err := jobs.PurgeDeletedSpaces(jobs.NewContext(ctx, c, nil), c, e.svc, now)
		if err != nil || n != 1 {
			t.Fatalf("sweep: purged=%d err=%v", n, err)
		}
		if n := e.count(c.Space.Query().Count(ctx)); n != 0 {
			t.Errorf("%d spaces left", n)
		}
		e.wantNoContentLeft(t)
	})
}

// A merge started by a background job: with the system caller (no user:
// the merge revision has no author), as a user (their rights apply and
// they are the author), and from a context that belongs to no request or
// job (an error that says so, not a crash).
func TestMergeFromJobContext(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		c := e.db.Client
		ids := e.seed("Alpha")

		cr := e.cr("By the system")
		e.edit(cr, e.alice.ID, &content.UpdatePage{Page: ids["Alpha"], Markdown: md("Merged by a job.\n")})
		res, err := e.svc.Merge(jobs.NewContext(ctx, c, nil), cr.ID)
		if err != nil || res.Result != content.ResultMerge {
			t.Fatalf("system merge: %+v %v", res, err)
		}
		rev, err := c.Revision.Get(ctx, res.Revision)
		if err != nil {
			t.Fatal(err)
		}
		if rev.AuthorID != nil {
			t.Errorf("system merge has author %q, want none", *rev.AuthorID)
		}
		page, err := e.svc.Page(ctx, res.Revision, ids["Alpha"])
		if err != nil || page.Markdown != "Merged by a job.\n" {
			t.Fatalf("merged page: %+v %v", page, err)
		}

		cr = e.cr("For Bob")
		e.edit(cr, e.alice.ID, &content.UpdatePage{Page: ids["Alpha"], Markdown: md("Merged for Bob.\n")})
		res, err = e.svc.Merge(jobs.NewContext(ctx, c, e.bob), cr.ID)
		if err != nil || res.Result != content.ResultMerge {
			t.Fatalf("merge as Bob: %+v %v", res, err)
		}
		if rev, err = c.Revision.Get(ctx, res.Revision); err != nil || rev.AuthorID == nil || *rev.AuthorID != e.bob.ID {
			t.Fatalf("merge as Bob: author %v (%v)", rev.AuthorID, err)
		}

		// A job acting for a user without rights on the space sees
		// nothing, as that user's request would.
		mallory, err := c.User.Create().SetEmail("mallory@else.test").SetDisplayName("Mallory").Save(ctx)
		if err != nil {
			t.Fatal(err)
		}
		cr = e.cr("Not for Mallory")
		if _, err := e.svc.Merge(jobs.NewContext(ctx, c, mallory), cr.ID); apierr.CodeOf(err) != apierr.NotFound {
			t.Fatalf("merge as a non-member: %v, want NotFound", err)
		}
		if _, err := e.svc.Merge(ctx, cr.ID); !errors.Is(err, loaders.ErrNoContext) {
			t.Fatalf("merge without a request or job context: %v, want ErrNoContext", err)
		}
		if got, err := c.ChangeRequest.Get(ctx, cr.ID); err != nil || got.Status != content.StatusDraft {
			t.Fatalf("refused merges changed the change request: %+v %v", got, err)
		}
	})
}

// Merge rules inherited from the organization are read in the merge's
// transaction, whoever merges: the system caller is held to them too.
func TestMergeRulesInheritedInsideTheMerge(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		c := e.db.Client
		ids := e.seed("Alpha")
		if err := c.Organization.UpdateOneID(e.org.ID).SetMergeRules(types.MergeRules{Type: "rules",
			Rules: []types.MergeRule{{Rule: "require_change_request_subject"}}}).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if sp := e.reload(e.space.ID); sp.MergeRules.Type != "inherit" {
			t.Fatalf("space merge rules %q, want inherit", sp.MergeRules.Type)
		}
		cr := e.cr("")
		e.edit(cr, e.alice.ID, &content.UpdatePage{Page: ids["Alpha"], Markdown: md("Needs a subject.\n")})
		for _, as := range []*ent.User{nil, e.alice} {
			if _, err := e.svc.Merge(jobs.NewContext(ctx, c, as), cr.ID); apierr.CodeOf(err) != apierr.PreconditionFailed {
				t.Fatalf("merge without a subject: %v, want PreconditionFailed", err)
			}
		}
		subject := "Now with a subject"
		if _, err := e.svc.UpdateChangeRequest(e.as(e.alice.ID), cr.ID, content.UpdateChangeRequest{Subject: &subject}); err != nil {
			t.Fatal(err)
		}
		if res, err := e.svc.Merge(jobs.NewContext(ctx, c, nil), cr.ID); err != nil || res.Result != content.ResultMerge {
			t.Fatalf("merge with a subject: %+v %v", res, err)
		}
	})
}
