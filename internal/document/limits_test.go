package document

import (
	"fmt"
	"strings"
	"testing"

	"quire/internal/apierr"
)

// quotesJSON is a document of n nested blockquotes around a paragraph: its
// deepest node (the text run) is at depth n+2.
func quotesJSON(n int) string {
	var b strings.Builder
	b.WriteString(`{"object":"document","nodes":[`)
	for range n {
		b.WriteString(`{"object":"block","type":"blockquote","nodes":[`)
	}
	b.WriteString(para(txt(leaf("x"))))
	for range n {
		b.WriteString(`]}`)
	}
	b.WriteString(`]}`)
	return b.String()
}

// tableJSON is a document holding one table of cols columns and rows rows,
// every cell empty.
func tableJSON(cols, rows int) string {
	var defs, ids, records []string
	for c := range cols {
		id := fmt.Sprintf("c%d", c)
		ids = append(ids, `"`+id+`"`)
		defs = append(defs, `"`+id+`":{"id":"`+id+`","title":"`+id+`","type":"text","textAlignment":"left"}`)
	}
	for r := range rows {
		records = append(records, fmt.Sprintf(`"r%d":{"orderIndex":"%08d","values":{}}`, r, r))
	}
	return docOf(`{"object":"block","type":"table","data":{"view":{"type":"grid","columns":[` + strings.Join(ids, ",") +
		`],"hideHeader":false},"definition":{` + strings.Join(defs, ",") + `},"records":{` + strings.Join(records, ",") + `}},"fragments":[]}`)
}

// wantLimit checks that err is a BadRequest on field whose message names
// the limit.
func wantLimit(t *testing.T, err error, field, limit string) {
	t.Helper()
	e, ok := apierr.As(err)
	if !ok {
		t.Fatalf("error %v is not an apierr.Error", err)
	}
	if e.Code != apierr.BadRequest || e.Field != field {
		t.Fatalf("got %s on %q, want BAD_REQUEST on %q (%s)", e.Code, e.Field, field, e.Message)
	}
	if !strings.Contains(e.Message, limit) || !strings.Contains(e.Message, "(the limit") {
		t.Fatalf("message %q does not name the limit %q", e.Message, limit)
	}
	if !strings.HasPrefix(e.Message, field) {
		t.Fatalf("message %q does not start with the field %q", e.Message, field)
	}
}

func deepPath(levels int) string {
	return "document" + strings.Repeat(".nodes[0]", levels)
}

func TestParseLimits(t *testing.T) {
	t.Run("depth at the limit", func(t *testing.T) {
		mustParse(t, quotesJSON(MaxDepth-2))
	})
	t.Run("one level deeper", func(t *testing.T) {
		_, err := Parse([]byte(quotesJSON(MaxDepth - 1)))
		wantLimit(t, err, deepPath(MaxDepth+1), "nesting deeper than 32 levels")
	})
	t.Run("10,000 levels", func(t *testing.T) {
		_, err := Parse([]byte(quotesJSON(10_000)))
		wantLimit(t, err, "document", "JSON nested deeper than 96 levels")
	})
	t.Run("deep data", func(t *testing.T) {
		deep := strings.Repeat(`[`, MaxJSONDepth) + strings.Repeat(`]`, MaxJSONDepth)
		_, err := Parse([]byte(docOf(`{"object":"block","type":"paragraph","data":{"x":` + deep + `},"nodes":[]}`)))
		wantLimit(t, err, "document", "JSON nested deeper than 96 levels")
	})
	t.Run("brackets in strings do not nest", func(t *testing.T) {
		s := strings.Repeat(`[{"\`, 200)
		doc := mustParse(t, docOf(para(txt(leaf(s)))))
		if got := doc.Nodes[0].Nodes[0].Leaves[0].Text; got != s {
			t.Fatalf("text = %q", got)
		}
	})
	t.Run("nodes at the limit", func(t *testing.T) {
		// A paragraph and its text run per item: MaxNodes in all.
		n := MaxNodes / 2
		items := make([]string, n)
		for i := range items {
			items[i] = para(txt(leaf("x")))
		}
		mustParse(t, docOf(items...))
		items = append(items, para())
		_, err := Parse([]byte(docOf(items...)))
		wantLimit(t, err, "document", "more than 100,000 nodes")
	})
	t.Run("inline nesting", func(t *testing.T) {
		// Annotations hold blocks that hold annotations: inlines nest too.
		inner := para(txt(leaf("x")))
		for range 11 {
			inner = para(`{"object":"inline","type":"annotation","nodes":[` + txt(leaf("a")) +
				`],"fragments":[{"object":"fragment","type":"annotation-body","nodes":[` + inner + `]}]}`)
		}
		_, err := Parse([]byte(docOf(inner)))
		e, _ := apierr.As(err)
		if e == nil || !strings.Contains(e.Message, "nesting deeper than 32 levels (the limit)") ||
			!strings.Contains(e.Field, ".fragments[0].nodes[0]") {
			t.Fatalf("error = %v", err)
		}
	})
	for _, tc := range []struct {
		name       string
		cols, rows int
		limit      string
	}{
		{"1,000 columns", 1000, 1, "at most 100 columns (the limit), this one 1,000"},
		{"10,001 rows", 1, 10_001, "at most 10,000 rows (the limit), this one 10,001"},
		{"20,100 cells", 100, 201, "at most 20,000 cells (the limit), this one 100 columns by 201 rows"},
	} {
		t.Run("table of "+tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tableJSON(tc.cols, tc.rows)))
			wantLimit(t, err, "document.nodes[0].data", tc.limit)
		})
	}
	t.Run("table at the limits", func(t *testing.T) {
		mustParse(t, tableJSON(MaxTableColumns, MaxTableCells/MaxTableColumns))
	})
}

func TestValidateLimits(t *testing.T) {
	n := NewBlock(BlockParagraph, nil, NewText("x"))
	for range MaxDepth - 2 {
		n = NewBlock(BlockQuote, nil, n)
	}
	doc := &Document{Nodes: []Node{n}}
	if err := doc.Validate(); err != nil {
		t.Fatalf("depth %d: %v", MaxDepth, err)
	}
	doc.Nodes[0] = NewBlock(BlockQuote, nil, n)
	wantLimit(t, doc.Validate(), deepPath(MaxDepth+1), "nesting deeper than 32 levels")

	doc.Nodes = make([]Node, MaxNodes+1)
	for i := range doc.Nodes {
		doc.Nodes[i] = NewBlock(BlockDivider, nil)
	}
	wantLimit(t, doc.Validate(), "document", "more than 100,000 nodes")

	// View columns count even when they repeat a definition.
	table := mustParse(t, tableJSON(MaxTableColumns, 1)).Nodes[0]
	view := table.Data["view"].(map[string]any)
	view["columns"] = append(view["columns"].([]any), "c0")
	doc.Nodes = []Node{table}
	wantLimit(t, doc.Validate(), "document.nodes[0].data", "at most 100 columns (the limit), this one 101")
}
