package render

import (
	"os"
	"strings"
	"testing"

	"quire/internal/document"
	"quire/internal/evaluate"
)

// BenchmarkDocument renders a long page (testdata/page.md, about 50 KB of
// Markdown with every block family) as a reader's page view does.
func BenchmarkDocument(b *testing.B) {
	md, err := os.ReadFile("testdata/page.md")
	if err != nil {
		b.Fatal(err)
	}
	doc := fromMarkdown(b, string(md))
	opt := Options{Links: openLinks{}, Env: evaluate.Env{Space: map[string]any{"version": "2"}}}
	b.SetBytes(int64(len(md)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Document(doc, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLinear renders a page and the same page repeated: the work grows
// with the page, not faster. Allocations stand for the work, as they are
// deterministic where times are not.
func TestLinear(t *testing.T) {
	md, err := os.ReadFile("testdata/page.md")
	if err != nil {
		t.Fatal(err)
	}
	one := fromMarkdown(t, string(md))
	four := fromMarkdown(t, string(md)+"\n\n"+string(md)+"\n\n"+string(md)+"\n\n"+string(md))
	opt := Options{Links: testLinks}
	a1 := testing.AllocsPerRun(3, func() { _, _ = Document(one, opt) })
	a4 := testing.AllocsPerRun(3, func() { _, _ = Document(four, opt) })
	if a4 > 5*a1 {
		t.Errorf("four times the page makes %.0f allocations, one makes %.0f", a4, a1)
	}
}

// TestLinearHeadings renders many headings of one title: finding each a
// unique id takes constant work, not work growing with those before it.
func TestLinearHeadings(t *testing.T) {
	page := func(n int) *document.Document {
		return fromMarkdown(t, strings.Repeat("# Same\n\n", n))
	}
	one, four := page(500), page(2000)
	a1 := testing.AllocsPerRun(3, func() { _, _ = Document(one, Options{}) })
	a4 := testing.AllocsPerRun(3, func() { _, _ = Document(four, Options{}) })
	if a4 > 5*a1 {
		t.Errorf("2000 headings make %.0f allocations, 500 make %.0f", a4, a1)
	}
}

// TestConcurrent renders one document from many goroutines, as page views
// do: the document is only read and the highlighting cache is shared.
func TestConcurrent(t *testing.T) {
	doc := fromMarkdown(t, "# T\n\n```go\nfunc main() {}\n```\n\n[a](page://p1) {% hint style=\"info\" %}\nx\n{% endhint %}")
	want, err := Document(doc, Options{Links: testLinks})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan string, 8)
	for range 8 {
		go func() {
			res, err := Document(doc, Options{Links: testLinks})
			if err != nil || res.HTML != want.HTML {
				errs <- "a concurrent rendering differs"
				return
			}
			errs <- ""
		}()
	}
	for range 8 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}
