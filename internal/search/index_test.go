package search_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

// rowIDs lists the ids of a page's rows in the index, in order.
func rowIDs(t *testing.T, e *testenv.Env, spaceID, pageID string) []int64 {
	t.Helper()
	q := "SELECT id FROM search_sections WHERE space_id = ? AND page_id = ? ORDER BY id"
	if e.Dialect == "postgres" {
		q = "SELECT id FROM search_sections WHERE space_id = $1 AND page_id = $2 ORDER BY id"
	}
	rows, err := e.DB.SQL.QueryContext(context.Background(), q, spaceID, pageID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		out = append(out, id)
	}
	return out
}

func countRows(t *testing.T, e *testenv.Env, table, spaceID string) int {
	t.Helper()
	q := "SELECT count(*) FROM " + table + " WHERE space_id = ?"
	if e.Dialect == "postgres" {
		q = "SELECT count(*) FROM " + table + " WHERE space_id = $1"
	}
	var n int
	if err := e.DB.SQL.QueryRowContext(context.Background(), q, spaceID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The index follows every change of a space's current content, in the
// transaction that makes it, page by page.
func TestIndexFollowsContent(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		d := newDocs(t, e)
		admin := d.team.Admin
		ctx := as(e, admin.User)
		svc := e.Server.Resolver().Content
		untouched := rowIDs(t, e, d.space, d.pages["Glossary"])
		if len(untouched) == 0 {
			t.Fatal("the Glossary page has no rows")
		}

		// A direct edit of one page: its new text is found, its old text
		// is not, and no other page's rows are written again.
		md := "Beacon keeps a ledger of every heliograph signal.\n\n## Mirrors\n\nPolish the mirrors weekly.\n"
		if _, err := svc.EditSpace(ctx, d.space, &content.UpdatePage{Page: d.pages["Backups"], Markdown: &md}); err != nil {
			t.Fatal(err)
		}
		if hits := d.find(t, admin.User, d.space, "heliograph"); len(hits) != 1 || hits[0].Title != "Backups" {
			t.Errorf("heliograph after the edit: %v", titles(hits))
		}
		if hits := d.find(t, admin.User, d.space, "pg_restore"); len(hits) != 0 {
			t.Errorf("pg_restore after the edit: %v", titles(hits))
		}
		if got := rowIDs(t, e, d.space, d.pages["Glossary"]); !slices.Equal(got, untouched) {
			t.Errorf("an edit of another page rewrote the Glossary's rows: %v, then %v", untouched, got)
		}

		// A merged change request: a new page, a renamed one, a moved one
		// and a deleted one.
		cr, err := svc.CreateChangeRequest(ctx, d.space, content.CreateChangeRequest{Subject: "Reorganize"})
		if err != nil {
			t.Fatal(err)
		}
		newMD := "## Sundials\n\nBeacon reads sundials at noon.\n"
		title := "Observability"
		_, err = svc.Edit(ctx, cr.ID,
			&content.CreatePage{Title: "Sundials", Parent: d.pages["Reference"], Markdown: &newMD},
			&content.UpdatePage{Page: d.pages["Monitoring"], Title: &title},
			&content.MovePage{Page: d.pages["Webhooks"], Parent: catalog.Some(d.pages["API reference"])},
			&content.DeletePage{Page: d.pages["FAQ"]})
		if err != nil {
			t.Fatal(err)
		}
		if hits := d.find(t, admin.User, d.space, "sundials"); len(hits) != 0 {
			t.Errorf("sundials before the merge: %v", titles(hits))
		}
		if res, err := svc.Merge(ctx, cr.ID); err != nil || res.Result != content.ResultMerge {
			t.Fatalf("merge: %+v %v", res, err)
		}
		hits := d.find(t, admin.User, d.space, "sundials")
		if len(hits) != 1 || hits[0].Title != "Sundials" || hits[0].Path != "reference/sundials" ||
			!slices.Equal(hits[0].Ancestors, []string{"Reference"}) {
			t.Errorf("sundials after the merge: %+v", hits)
		}
		if hits := d.find(t, admin.User, d.space, "prometheus"); index(hits, "Observability") < 0 || index(hits, "Monitoring") >= 0 {
			t.Errorf("prometheus after the rename: %v", titles(hits))
		}
		hits = d.find(t, admin.User, d.space, "hmac")
		if len(hits) != 1 || hits[0].Path != "api-reference/webhooks" || !slices.Equal(hits[0].Ancestors, []string{"API reference"}) {
			t.Errorf("hmac after the move: %+v", hits)
		}
		if hits := d.find(t, admin.User, d.space, "cookies"); len(hits) != 0 {
			t.Errorf("cookies after the FAQ was deleted: %v", titles(hits))
		}
		if got := rowIDs(t, e, d.space, d.pages["Glossary"]); !slices.Equal(got, untouched) {
			t.Errorf("a merge of other pages rewrote the Glossary's rows")
		}

		// A duplicate is searchable at once, with a copy of the index.
		r := e.Do(admin.Token, "POST", "/v1/spaces/"+d.space+"/duplicate", nil)
		if r.Status != 201 {
			t.Fatalf("duplicate: %d %s", r.Status, r.Body)
		}
		dup := r.JSON()["id"].(string)
		if hits := d.find(t, admin.User, dup, "sundials"); len(hits) != 1 || hits[0].Space.ID != dup {
			t.Errorf("sundials in the duplicate: %+v", hits)
		}
		if countRows(t, e, "search_sections", dup) != countRows(t, e, "search_sections", d.space) {
			t.Errorf("the duplicate's index is not the original's")
		}

		// Purging a space removes its index.
		if r := e.Do(admin.Token, "DELETE", "/v1/spaces/"+dup, nil); r.Status != 205 {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		purged, err := jobs.PurgeDeletedSpaces(context.Background(), e.Client(), svc, time.Now().Add(8*24*time.Hour))
		if err != nil || purged != 1 {
			t.Fatalf("purge: %d %v", purged, err)
		}
		for _, table := range []string{"search_sections", "search_pages", "search_spaces"} {
			if n := countRows(t, e, table, dup); n != 0 {
				t.Errorf("%d rows of %s left after the purge", n, table)
			}
		}
		if e.Dialect == "sqlite" {
			var pages, sections, rows int
			_ = e.DB.SQL.QueryRow("SELECT count(*) FROM search_fts").Scan(&pages)
			_ = e.DB.SQL.QueryRow("SELECT count(*) FROM search_fts_sections").Scan(&sections)
			_ = e.DB.SQL.QueryRow("SELECT count(*) FROM search_sections").Scan(&rows)
			if pages+sections != rows {
				t.Errorf("%d + %d full-text rows for %d rows", pages, sections, rows)
			}
		}
	})
}

// A space whose index does not reflect its content (one from before search
// existed) is left alone by writes and rebuilt by the catch-up job.
func TestIndexCatchUp(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		d := newDocs(t, e)
		admin := d.team.Admin
		svc := e.Server.Resolver().Content
		// Forget the space's index, as if it predated search.
		q := "DELETE FROM search_spaces WHERE space_id = ?"
		if e.Dialect == "postgres" {
			q = "DELETE FROM search_spaces WHERE space_id = $1"
		}
		if _, err := e.DB.SQL.Exec(q, d.space); err != nil {
			t.Fatal(err)
		}
		if hits := d.find(t, admin.User, d.space, "webhooks"); len(hits) != 0 && e.Dialect == "postgres" {
			t.Errorf("an unindexed space is searched: %v", titles(hits))
		}
		md := "Semaphore flags at dawn.\n"
		if _, err := svc.EditSpace(as(e, admin.User), d.space, &content.CreatePage{Title: "Flags", Markdown: &md}); err != nil {
			t.Fatal(err)
		}
		stale, err := e.Server.Resolver().Search.Stale(context.Background(), 10)
		if err != nil || !slices.Contains(stale, d.space) {
			t.Fatalf("stale spaces: %v %v", stale, err)
		}
		if err := svc.SearchCatchUp(context.Background(), noRun{}); err != nil {
			t.Fatal(err)
		}
		if stale, _ := e.Server.Resolver().Search.Stale(context.Background(), 10); len(stale) != 0 {
			t.Errorf("stale after the catch-up: %v", stale)
		}
		if hits := d.find(t, admin.User, d.space, "semaphore"); len(hits) != 1 || hits[0].Title != "Flags" {
			t.Errorf("semaphore after the catch-up: %v", titles(hits))
		}
		if hits := d.find(t, admin.User, d.space, "webhooks"); len(hits) == 0 || hits[0].Title != "Webhooks" {
			t.Errorf("webhooks after the catch-up: %v", titles(hits))
		}
	})
}

// noRun is a job run that records nothing.
type noRun struct{}

func (noRun) ID() string                                      { return "" }
func (noRun) Attempt() int                                    { return 1 }
func (noRun) MaxAttempts() int                                { return 1 }
func (noRun) Args(any) error                                  { return nil }
func (noRun) Progress(context.Context, float64, string) error { return nil }
