package content_test

import (
	"context"
	"slices"
	"testing"

	"quire/ent"
	"quire/internal/catalog"
	"quire/internal/content"
)

func TestDuplicateAndPurge(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		c := e.db.Client
		ids := e.seed("Alpha", "Beta")
		cr := e.cr("Files")
		e.edit(cr, e.alice.ID, &content.UploadFile{Name: "a.txt", Data: []byte("hello")},
			&content.CreatePage{Title: "Child", Parent: ids["Alpha"], Markdown: md("Child.\n")})
		e.merge(cr)
		open := e.cr("Still open")
		e.edit(open, e.bob.ID, &content.UpdatePage{Page: ids["Beta"], Markdown: md("Unmerged.\n")})

		versions := e.count(c.PageVersion.Query().Count(ctx))
		files := e.count(c.FileVersion.Query().Count(ctx))
		blobs := e.count(c.ContentBlob.Query().Count(ctx))
		src := e.reload(e.space.ID)
		var dst *ent.Space
		err := catalog.WithTx(ctx, c, func(tx *ent.Tx) error {
			var err error
			dst, err = tx.Space.Create().SetOrganizationID(e.org.ID).SetTitle("Copy").SetPosition("i2").Save(ctx)
			if err != nil {
				return err
			}
			return e.svc.DuplicateContent(ctx, tx, src, dst)
		})
		if err != nil {
			t.Fatal(err)
		}
		dst = e.reload(dst.ID)
		if n := e.count(c.PageVersion.Query().Count(ctx)); n != versions {
			t.Fatalf("duplicate wrote page versions: %d → %d", versions, n)
		}
		if e.count(c.FileVersion.Query().Count(ctx)) != files || e.count(c.ContentBlob.Query().Count(ctx)) != blobs {
			t.Fatalf("duplicate copied files or blobs")
		}
		a, err := e.svc.Revision(ctx, src.RevisionID)
		if err != nil {
			t.Fatal(err)
		}
		b, err := e.svc.Revision(ctx, dst.RevisionID)
		if err != nil {
			t.Fatal(err)
		}
		if b.Space != dst.ID || b.Type != content.RevisionInitial || !slices.Equal(titles(a.Pages), titles(b.Pages)) ||
			len(b.Files) != 1 || b.Files[0].ID != a.Files[0].ID || findPage(b, "Alpha").Version != findPage(a, "Alpha").Version {
			t.Fatalf("duplicate content differs: %q %q", titles(a.Pages), titles(b.Pages))
		}

		// Purging the source keeps what the copy uses.
		purge := func(id string) {
			t.Helper()
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
		purge(src.ID)
		b2, err := e.svc.Revision(ctx, dst.RevisionID)
		if err != nil || !slices.Equal(titles(b2.Pages), titles(b.Pages)) {
			t.Fatalf("copy after purge: %v", err)
		}
		if got := e.markdown(dst.RevisionID, ids["Alpha"]); got != "Text of Alpha.\n" {
			t.Fatalf("copy's document after purge: %q", got)
		}
		if _, data, err := e.svc.FileContent(ctx, dst.RevisionID, b.Files[0].ID); err != nil || string(data) != "hello" {
			t.Fatalf("copy's file after purge: %q %v", data, err)
		}
		if n := e.count(c.ChangeRequest.Query().Count(ctx)); n != 0 {
			t.Fatalf("%d change requests left", n)
		}
		// The unmerged version of Beta, used by no one now, is gone.
		if n := e.count(c.PageVersion.Query().Count(ctx)); n != len(b.Pages)+1 {
			t.Fatalf("%d page versions left, want %d", n, len(b.Pages)+1)
		}
		purge(dst.ID)
		e.wantNoContentLeft(t)
	})
}

// wantNoContentLeft checks that nothing stored under spaces is left.
func (e *env) wantNoContentLeft(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	c := e.db.Client
	for name, n := range map[string]int{
		"revisions":         e.count(c.Revision.Query().Count(ctx)),
		"entries":           e.count(c.RevisionEntry.Query().Count(ctx)),
		"page versions":     e.count(c.PageVersion.Query().Count(ctx)),
		"file versions":     e.count(c.FileVersion.Query().Count(ctx)),
		"reusable versions": e.count(c.ReusableContentVersion.Query().Count(ctx)),
		"blobs":             e.count(c.ContentBlob.Query().Count(ctx)),
		"change requests":   e.count(c.ChangeRequest.Query().Count(ctx)),
	} {
		if n != 0 {
			t.Errorf("%d %s left", n, name)
		}
	}
}
