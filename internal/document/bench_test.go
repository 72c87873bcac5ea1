package document

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

// bigMarkdown concatenates the corpus until it reaches at least size bytes.
func bigMarkdown(b *testing.B, size int) string {
	files := corpusFiles(b)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var sb strings.Builder
	for sb.Len() < size {
		for _, n := range names {
			sb.WriteString(files[n])
			sb.WriteString("\n\n")
		}
	}
	return sb.String()
}

func BenchmarkFromMarkdown200KB(b *testing.B) {
	md := bigMarkdown(b, 200<<10)
	b.SetBytes(int64(len(md)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FromMarkdown(md); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkToMarkdown200KB(b *testing.B) {
	md := bigMarkdown(b, 200<<10)
	doc, err := FromMarkdown(md)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(md)))
	b.ReportAllocs()
	for b.Loop() {
		_ = ToMarkdown(doc)
	}
}

func BenchmarkParse200KB(b *testing.B) {
	doc, err := FromMarkdown(bigMarkdown(b, 200<<10))
	if err != nil {
		b.Fatal(err)
	}
	raw, _ := json.Marshal(doc)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(raw); err != nil {
			b.Fatal(err)
		}
	}
}
