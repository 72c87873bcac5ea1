package document

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// The benchmarks measure every step on inputs from 1 KB to 1 MB of four
// shapes, and report the cost per kilobyte of input (ns/KB): linear work
// shows the same figure at every size.
//
//	go test ./internal/document -run '^$' -bench . -benchtime 2s
//
// The shapes:
//
//   - corpus: the Markdown corpus repeated, ordinary pages;
//   - deep: block quotes nested to MaxDepth around a paragraph of five
//     lines, so that every line sits at the deepest level (Markdown writes
//     every level's marker on every line);
//   - table: tables at MaxTableColumns and MaxTableCells, one word per row
//     and every other cell empty (the grid that layout walks is large for
//     the bytes that make it);
//   - inline: paragraphs of MaxInlineDelimiters emphasis, code and
//     strikethrough delimiters, which the Markdown parser matches in time
//     quadratic in their number within a paragraph.
//
// A shape starts at the first size that holds one of its units: a table is
// 60 KB, a paragraph of delimiters 2.3 KB.

var benchSizes = []int{1 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20}

// benchShapes make Markdown of about size bytes (never more than
// MaxMarkdownSize) from a unit repeated.
var benchShapes = []struct {
	name string
	unit func(tb testing.TB) []string
}{
	{"corpus", func(tb testing.TB) []string {
		files := corpusFiles(tb)
		names := make([]string, 0, len(files))
		for n := range files {
			names = append(names, n)
		}
		sort.Strings(names)
		var out []string
		for _, n := range names {
			for _, s := range sections(files[n]) {
				out = append(out, s+"\n\n")
			}
		}
		return out
	}},
	{"deep", func(testing.TB) []string {
		prefix := strings.Repeat("> ", MaxDepth-2)
		var b strings.Builder
		for i := range 5 {
			fmt.Fprintf(&b, "%sLine %d of a paragraph *nested* as deep as a document may nest.\n", prefix, i)
		}
		return []string{b.String() + "\n"}
	}},
	{"table", func(testing.TB) []string {
		rows := MaxTableCells / MaxTableColumns
		var b strings.Builder
		b.WriteString(strings.Repeat("| h ", MaxTableColumns) + "|\n" + strings.Repeat("|---", MaxTableColumns) + "|\n")
		for r := range rows {
			fmt.Fprintf(&b, "| r%d%s|\n", r, strings.Repeat(" | ", MaxTableColumns-1))
		}
		return []string{b.String() + "\n"}
	}},
	{"inline", func(testing.TB) []string {
		return []string{strings.Repeat("*a* `b` ~~c~~ ", MaxInlineDelimiters/6) + "\n\n"}
	}},
}

// shapeMarkdown repeats units up to size bytes (at least one unit).
func shapeMarkdown(units []string, size int) string {
	var b strings.Builder
	for i := 0; ; i++ {
		u := units[i%len(units)]
		if b.Len() > 0 && b.Len()+len(u) > min(size, MaxMarkdownSize) {
			return b.String()
		}
		b.WriteString(u)
	}
}

func sizeName(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%dMB", n>>20)
	}
	return fmt.Sprintf("%dKB", n>>10)
}

// benchEach runs f for every shape and size; f returns the number of input
// bytes one operation reads and the operation.
func benchEach(b *testing.B, f func(b *testing.B, md string) (int, func())) {
	for _, shape := range benchShapes {
		units := shape.unit(b)
		for _, size := range benchSizes {
			if len(units[0]) > size {
				continue
			}
			b.Run(shape.name+"/"+sizeName(size), func(b *testing.B) {
				n, op := f(b, shapeMarkdown(units, size))
				b.SetBytes(int64(n))
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					op()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(float64(n)/1024), "ns/KB")
			})
		}
	}
}

func mustFromMarkdown(b *testing.B, md string) *Document {
	doc, err := FromMarkdown(md)
	if err != nil {
		b.Fatal(err)
	}
	return doc
}

func BenchmarkFromMarkdown(b *testing.B) {
	benchEach(b, func(b *testing.B, md string) (int, func()) {
		mustFromMarkdown(b, md)
		return len(md), func() { _, _ = FromMarkdown(md) }
	})
}

func BenchmarkToMarkdown(b *testing.B) {
	benchEach(b, func(b *testing.B, md string) (int, func()) {
		doc := mustFromMarkdown(b, md)
		return len(ToMarkdown(doc)), func() { _ = ToMarkdown(doc) }
	})
}

func BenchmarkParse(b *testing.B) {
	benchEach(b, func(b *testing.B, md string) (int, func()) {
		raw, err := json.Marshal(mustFromMarkdown(b, md))
		if err != nil {
			b.Fatal(err)
		}
		return len(raw), func() {
			if _, err := Parse(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkMarshalJSON(b *testing.B) {
	benchEach(b, func(b *testing.B, md string) (int, func()) {
		doc := mustFromMarkdown(b, md)
		raw, _ := json.Marshal(doc)
		return len(raw), func() { _, _ = json.Marshal(doc) }
	})
}

func BenchmarkText(b *testing.B) {
	benchEach(b, func(b *testing.B, md string) (int, func()) {
		doc := mustFromMarkdown(b, md)
		return len(md), func() { _ = doc.Text() }
	})
}
