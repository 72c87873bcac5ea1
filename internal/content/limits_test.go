package content_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"quire/ent/contentblob"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/document"
)

// wantLimit checks that err is a BadRequest on field whose message names a
// limit.
func wantLimit(t *testing.T, err error, field, limit string) {
	t.Helper()
	e, ok := apierr.As(err)
	if !ok {
		t.Fatalf("error %v is not an apierr.Error", err)
	}
	if e.Code != apierr.BadRequest || e.Field != field {
		t.Fatalf("got %s on %q (%s), want BAD_REQUEST on %q", e.Code, e.Field, e.Message, field)
	}
	if !strings.Contains(e.Message, limit) || !strings.HasPrefix(e.Message, field) {
		t.Fatalf("message %q does not name the limit %q on %q", e.Message, limit, field)
	}
}

// quotes is a document of n nested blockquotes around a paragraph.
func quotes(n int) *document.Document {
	b := document.NewBlock(document.BlockParagraph, nil, document.NewText("x"))
	for range n {
		b = document.NewBlock(document.BlockQuote, nil, b)
	}
	return &document.Document{Data: map[string]any{}, Nodes: []document.Node{b}}
}

// wideTable is a document holding a table of cols columns.
func wideTable(cols int) *document.Document {
	doc, err := document.FromMarkdown(strings.Repeat("| h ", 2) + "|\n|---|---|\n| c | c |\n")
	if err != nil {
		panic(err)
	}
	// Widen the table in code: Markdown this wide is refused on input.
	data := doc.Nodes[0].Data
	defs := data["definition"].(map[string]any)
	view := data["view"].(map[string]any)
	for i := 2; i < cols; i++ {
		id := fmt.Sprintf("x%d", i)
		defs[id] = map[string]any{"id": id, "title": "h", "type": "text", "textAlignment": "left"}
		view["columns"] = append(view["columns"].([]any), id)
	}
	return doc
}

// TestEditLimits: pages and change request descriptions beyond the limits
// are refused with a BadRequest naming the limit and the field, and nothing
// is written.
func TestEditLimits(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := e.as(e.alice.ID)
		cr := e.cr("Limits")
		page := e.edit(cr, e.alice.ID, &content.CreatePage{Title: "Page", Markdown: md("text")}).IDs[0]
		before, err := e.svc.ChangeRequest(context.Background(), cr.ID)
		if err != nil {
			t.Fatal(err)
		}
		deepField := "document" + strings.Repeat(".nodes[0]", document.MaxDepth+1)
		for _, tc := range []struct {
			name         string
			op           content.Op
			field, limit string
		}{
			{"10,000 nested block quotes", &content.CreatePage{Title: "Q", Markdown: md(strings.Repeat(">", 10_000) + " x")},
				"markdown", "nesting deeper than 32 levels (the limit), at line 1"},
			{"10,000 nested list levels", &content.UpdatePage{Page: page, Markdown: md(strings.Repeat("- ", 10_000) + "x")},
				"markdown", "nesting deeper than 32 levels (the limit)"},
			{"100,000 [", &content.UpdatePage{Page: page, Markdown: md(strings.Repeat("[", 100_000))},
				"markdown", "more than 1,000 emphasis, code and link delimiters in one paragraph (the limit)"},
			{"100,000 *a", &content.CreatePage{Title: "S", Markdown: md(strings.Repeat("*a", 100_000))},
				"markdown", "delimiters in one paragraph (the limit)"},
			{"a 1,000-column table", &content.CreatePage{Title: "T", Markdown: md(strings.Repeat("| a ", 1000) + "|\n" + strings.Repeat("|---", 1000) + "|\n")},
				"markdown", "a table has at most 100 columns (the limit), this one 1,000"},
			{"very many nodes", &content.CreatePage{Title: "N", Markdown: md(strings.Repeat("-\n", 200_000))},
				"markdown", "more than 100,000 nodes (the limit)"},
			{"Markdown over 1 MiB", &content.CreatePage{Title: "M", Markdown: md(strings.Repeat("a", document.MaxMarkdownSize+1))},
				"markdown", "larger than 1,048,576 bytes (the limit)"},
			{"a deep document", &content.UpdatePage{Page: page, Document: quotes(document.MaxDepth - 1)},
				deepField, "nesting deeper than 32 levels (the limit)"},
			{"a wide table", &content.CreatePage{Title: "W", Document: wideTable(1000)},
				"document.nodes[0].data", "a table has at most 100 columns (the limit), this one 1,000"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, err := e.svc.Edit(ctx, cr.ID, tc.op)
				wantLimit(t, err, tc.field, tc.limit)
			})
		}
		after, err := e.svc.ChangeRequest(context.Background(), cr.ID)
		if err != nil || after.RevisionID != before.RevisionID {
			t.Fatalf("a refused edit wrote a revision: %v %v", after.RevisionID, err)
		}

		// Descriptions: the same limits, on the field "description".
		_, err = e.svc.CreateChangeRequest(ctx, e.space.ID, content.CreateChangeRequest{Subject: "Deep", Description: quotes(document.MaxDepth - 1)})
		wantLimit(t, err, "description"+strings.Repeat(".nodes[0]", document.MaxDepth+1), "nesting deeper than 32 levels (the limit)")
		_, err = e.svc.UpdateChangeRequest(ctx, cr.ID, content.UpdateChangeRequest{Description: catalog.Some(wideTable(101))})
		wantLimit(t, err, "description.nodes[0].data", "a table has at most 100 columns (the limit), this one 101")

		// At the limits, content is written and reads back unchanged.
		deepest := quotes(document.MaxDepth - 2)
		res := e.edit(cr, e.alice.ID, &content.UpdatePage{Page: page, Document: deepest})
		p, err := e.svc.Page(context.Background(), res.Revision, page)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := mustJSON(t, p.Document), mustJSON(t, deepest); got != want {
			t.Fatalf("deepest document read back as\n%s\nwant\n%s", got, want)
		}
		if p.Markdown != strings.Repeat("> ", document.MaxDepth-2)+"x\n" {
			t.Fatalf("Markdown = %q", p.Markdown)
		}
	})
}

// TestStoredContentBeyondTheLimits: content stored before the limits
// existed stays readable, and its Markdown is written within them.
func TestStoredContentBeyondTheLimits(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		cr := e.cr("Old content")
		res := e.edit(cr, e.alice.ID, &content.CreatePage{Title: "Old", Markdown: md("placeholder")})
		p, err := e.svc.Page(ctx, res.Revision, res.IDs[0])
		if err != nil {
			t.Fatal(err)
		}
		stored, err := json.Marshal(p.Document)
		if err != nil {
			t.Fatal(err)
		}
		// Replace the stored document with one 1,000 levels deep, as an
		// earlier version could write.
		old, err := quotes(1000).AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		blobs, err := e.db.Client.ContentBlob.Query().All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		replaced := 0
		for _, b := range blobs {
			if !bytes.Equal(b.Data, stored) {
				continue
			}
			q := "UPDATE " + contentblob.Table + " SET " + contentblob.FieldData + " = ? WHERE " + contentblob.FieldID + " = ?"
			if e.backend == "postgres" {
				q = strings.Replace(strings.Replace(q, "?", "$1", 1), "?", "$2", 1)
			}
			if _, err := e.db.SQL.ExecContext(ctx, q, old, b.ID); err != nil {
				t.Fatal(err)
			}
			replaced++
		}
		if replaced != 1 {
			t.Fatalf("%d blobs hold the page's document", replaced)
		}

		p, err = e.svc.Page(ctx, res.Revision, res.IDs[0])
		if err != nil {
			t.Fatalf("read old content: %v", err)
		}
		if got := p.Document.Text(); got != "x" {
			t.Fatalf("Text = %q", got)
		}
		if _, err := document.FromMarkdown(p.Markdown); err != nil {
			t.Fatalf("the Markdown of old content is beyond the limits: %v", err)
		}
		docs, err := e.svc.Documents(ctx, []string{p.Version})
		if err != nil || docs[p.Version] == nil {
			t.Fatalf("Documents: %v %v", docs, err)
		}
	})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
