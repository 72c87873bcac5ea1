package document

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func corpusFiles(t testing.TB) map[string]string {
	t.Helper()
	paths, err := filepath.Glob("testdata/corpus/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 10 {
		t.Fatalf("corpus has %d documents, want at least 10", len(paths))
	}
	out := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = string(b)
	}
	return out
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// firstDiff shows where two strings part.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-80)
	return "…" + a[lo:min(len(a), i+80)] + "…\n  vs\n…" + b[lo:min(len(b), i+80)] + "…"
}

// TestCorpusRoundTrip checks, for every corpus page, that Markdown →
// document → Markdown reaches a fixed point after one normalization, that
// the document is stable across the second round, and that its JSON parses
// back to the same document.
func TestCorpusRoundTrip(t *testing.T) {
	for name, md := range corpusFiles(t) {
		t.Run(name, func(t *testing.T) {
			doc0, err := FromMarkdown(md)
			if err != nil {
				t.Fatalf("FromMarkdown: %v", err)
			}
			if len(doc0.Nodes) == 0 {
				t.Fatal("empty document")
			}
			md1 := ToMarkdown(doc0)
			doc1, err := FromMarkdown(md1)
			if err != nil {
				t.Fatalf("FromMarkdown(md1): %v", err)
			}
			md2 := ToMarkdown(doc1)
			if md1 != md2 {
				t.Fatalf("Markdown is not a fixed point:\n%s", firstDiff(md1, md2))
			}
			doc2, err := FromMarkdown(md2)
			if err != nil {
				t.Fatalf("FromMarkdown(md2): %v", err)
			}
			j1, j2 := mustJSON(t, doc1), mustJSON(t, doc2)
			if j1 != j2 {
				t.Fatalf("document JSON differs across the second round:\n%s", firstDiff(j1, j2))
			}
			// The first normalization keeps the content.
			if j0 := mustJSON(t, doc0); j0 != j1 {
				t.Errorf("document changed by the first Markdown round:\n%s", firstDiff(j0, j1))
			}
			if doc0.Text() != doc1.Text() {
				t.Errorf("plain text changed:\n%s", firstDiff(doc0.Text(), doc1.Text()))
			}

			raw := mustJSON(t, doc0)
			parsed, err := Parse([]byte(raw))
			if err != nil {
				t.Fatalf("Parse(json.Marshal(doc)): %v", err)
			}
			if !reflect.DeepEqual(parsed, doc0) {
				t.Errorf("Parse(json.Marshal(doc)) differs from doc")
			}
			if again := mustJSON(t, parsed); again != raw {
				t.Errorf("JSON differs after Parse:\n%s", firstDiff(raw, again))
			}
			if strings.TrimSpace(doc0.Text()) == "" {
				t.Error("Text() is empty")
			}
		})
	}
}

// TestCorpusCoverage makes sure the corpus exercises every block, inline
// and mark the Markdown conversion supports.
func TestCorpusCoverage(t *testing.T) {
	seen := map[string]bool{}
	var walk func(nodes []Node)
	walk = func(nodes []Node) {
		for i := range nodes {
			n := &nodes[i]
			seen[n.Object+":"+n.Type] = true
			for _, l := range n.Leaves {
				for _, m := range l.Marks {
					seen["mark:"+m.Type] = true
				}
			}
			if r, ok := n.Ref(); ok {
				seen["ref:"+n.Type+":"+r.Kind] = true
			}
			if n.Type == BlockListItem {
				if c, ok := n.Data["checked"].(bool); ok && c {
					seen["checked"] = true
				}
			}
			if n.Type == BlockCode {
				if _, ok := n.Data["title"]; ok {
					seen["code-title"] = true
				}
			}
			walk(n.Nodes)
			walk(n.Fragments)
		}
	}
	for _, md := range corpusFiles(t) {
		doc, err := FromMarkdown(md)
		if err != nil {
			t.Fatal(err)
		}
		walk(doc.Nodes)
	}
	for _, want := range []string{
		"block:paragraph", "block:heading-1", "block:heading-2", "block:heading-3",
		"block:list-ordered", "block:list-unordered", "block:list-tasks", "block:list-item",
		"block:code", "block:code-line", "block:blockquote", "block:hint", "block:table",
		"block:images", "block:image", "block:file", "block:content-ref", "block:expandable",
		"block:tabs", "block:tabs-item", "block:math", "block:divider", "block:embed",
		"block:stepper", "block:stepper-step",
		"inline:link", "inline:inline-math", "inline:inline-image",
		"mark:bold", "mark:italic", "mark:code", "mark:strikethrough", "mark:keyboard",
		"mark:superscript", "mark:subscript", "mark:color",
		"ref:link:url", "ref:link:page", "ref:link:anchor", "ref:link:file",
		"ref:content-ref:page", "ref:content-ref:url", "ref:image:file", "ref:image:url",
		"checked", "code-title",
	} {
		if !seen[want] {
			t.Errorf("corpus never produces %s", want)
		}
	}
}

// TestConcurrent converts in parallel; run with -race.
func TestConcurrent(t *testing.T) {
	files := corpusFiles(t)
	for name, md := range files {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for i := 0; i < 3; i++ {
				doc, err := FromMarkdown(md)
				if err != nil {
					t.Fatal(err)
				}
				_ = ToMarkdown(doc)
			}
		})
	}
}
