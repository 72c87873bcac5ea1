package document

import (
	"encoding/json"
	"strings"
	"testing"
)

// nestedList is Markdown for a list nested levels deep, one item per level.
func nestedList(levels int) string {
	var b strings.Builder
	for i := range levels {
		b.WriteString(strings.Repeat("  ", i) + "- item\n")
	}
	return b.String()
}

func TestFromMarkdownLimits(t *testing.T) {
	nested := func(open, close string, n int) string {
		return strings.Repeat(open, n) + "x\n" + strings.Repeat(close, n)
	}
	for _, tc := range []struct {
		name, md, limit string
	}{
		{"10,000 nested block quotes", strings.Repeat(">", 10_000) + " x\n", "nesting deeper than 32 levels (the limit), at line 1"},
		{"10,000 spaced block quotes", strings.Repeat("> ", 10_000) + "x\n", "nesting deeper than 32 levels (the limit), at line 1"},
		{"block quotes over lines", "a\n\n" + nested("> ", "", 40), "nesting deeper than 32 levels (the limit), at line 3"},
		{"10,000 nested list levels", strings.Repeat("- ", 10_000) + "x\n", "nesting deeper than 32 levels (the limit), at line 1"},
		{"indented lists", nestedList(40), "nesting deeper than 32 levels (the limit), at line 17"},
		{"nested hints", nested("{% hint style=\"info\" %}\n", "{% endhint %}\n", 40), "nesting deeper than 32 levels (the limit), at line 33"},
		{"nested details", nested("<details><summary>s</summary>\n\n", "</details>\n\n", 40), "nesting deeper than 32 levels (the limit), at line 65"},
		{"1,000-column table", strings.Repeat("| a ", 1000) + "|\n" + strings.Repeat("|---", 1000) + "|\n" + strings.Repeat("| b ", 1000) + "|\n",
			"a table has at most 100 columns (the limit), this one 1,000, at line 1"},
		{"10,001-row table", "| a |\n| - |\n" + strings.Repeat("| b |\n", 10_001), "a table has at most 10,000 rows (the limit), this one 10,001, at line 1"},
		{"100,000 [", strings.Repeat("[", 100_000), "more than 1,000 emphasis, code and link delimiters in one paragraph (the limit), at line 1"},
		{"100,000 [a](", strings.Repeat("[a](", 100_000), "delimiters in one paragraph (the limit)"},
		{"100,000 *a", strings.Repeat("*a", 100_000), "delimiters in one paragraph (the limit)"},
		{"100,000 _a", strings.Repeat("_a", 100_000), "delimiters in one paragraph (the limit)"},
		{"100,000 ``a`", strings.Repeat("``a`", 100_000), "delimiters in one paragraph (the limit)"},
		{"delimiters on a later line", "a\n\nb\n" + strings.Repeat("~a", 1001), "delimiters in one paragraph (the limit), at line 4"},
		{"deep inline nesting", nested("*a _", "_ a*", 5_000), "delimiters in one paragraph (the limit)"},
		{"nested links", nested("[", "](u)", 5_000), "delimiters in one paragraph (the limit)"},
		{"delimiters in a title", "a\n\n<details><summary>" + strings.Repeat("[", 2000) + "</summary>\n\nb\n</details>\n",
			"delimiters in one paragraph (the limit), at line 3"},
		{"200,000 list items", strings.Repeat("-\n", 200_000), "more than 100,000 nodes (the limit)"},
		{"60,000 paragraphs", strings.Repeat("a\n\n", 60_000), "more than 100,000 nodes (the limit)"},
		{"a code block of 60,000 lines", "```\n" + strings.Repeat("a\n", 60_000), "more than 100,000 nodes (the limit)"},
		{"over 1 MiB", strings.Repeat("a", MaxMarkdownSize+1), "larger than 1,048,576 bytes (the limit), 1,048,577 bytes given"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FromMarkdown(tc.md)
			wantLimit(t, err, "markdown", tc.limit)
		})
	}
}

func TestFromMarkdownWithinLimits(t *testing.T) {
	for _, tc := range []struct {
		name, md string
	}{
		{"quotes to the deepest", strings.Repeat("> ", MaxDepth-2) + "x\n"},
		{"a list 15 levels deep", nestedList(15)},
		{"a table of 100 columns", strings.Repeat("| a ", 100) + "|\n" + strings.Repeat("|---", 100) + "|\n" + strings.Repeat("| b ", 100) + "|\n"},
		{"1,000 delimiters", strings.Repeat("*a* ", 500)},
		{"1,000 delimiters in each of many paragraphs", strings.Repeat(strings.Repeat("*a* ", 500)+"\n\n", 20)},
		{"a run of 100,000 *", "a" + strings.Repeat("*", 100_000) + "a"},
		{"a line of 100,000 *", strings.Repeat("*", 100_000)},
		{"100,000 escaped [", strings.Repeat(`\[`, 100_000)},
		{"one paragraph of 100,000 lines", strings.Repeat("a\n", 100_000)},
		{"100,000 HTML marks", strings.Repeat("<kbd><sup>", 50_000) + "x"},
		{"a text of almost 1 MiB", strings.Repeat("a", MaxMarkdownSize-1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := FromMarkdown(tc.md)
			if err != nil {
				t.Fatal(err)
			}
			if err := doc.Validate(); err != nil {
				t.Fatal(err)
			}
			// The Markdown of a document within the limits converts back
			// to the same document.
			again, err := FromMarkdown(ToMarkdown(doc))
			if err != nil {
				t.Fatalf("FromMarkdown(ToMarkdown(doc)): %v", err)
			}
			if a, b := mustJSON(t, doc), mustJSON(t, again); a != b {
				t.Fatalf("round trip changed the document:\n%s", firstDiff(a, b))
			}
		})
	}
	t.Run("HTML marks apply once", func(t *testing.T) {
		doc, err := FromMarkdown(strings.Repeat("<kbd><sup>", 1000) + "x")
		if err != nil {
			t.Fatal(err)
		}
		leaf := doc.Nodes[0].Nodes[0].Leaves[0]
		if b, _ := json.Marshal(leaf.Marks); leaf.Text != "x" || len(leaf.Marks) != 2 {
			t.Fatalf("leaf %q with marks %s", leaf.Text, b)
		}
	})
}

// TestDocumentsAtTheLimitsRoundTrip: the Markdown of a document as deep as
// the limit allows is itself within the limits.
func TestDocumentsAtTheLimitsRoundTrip(t *testing.T) {
	item := func(nodes ...Node) Node { return NewBlock(BlockListItem, nil, nodes...) }
	// listOf is a list whose deepest text is at depth levels (even).
	listOf := func(levels int) Node {
		list := NewBlock(BlockListUnordered, nil, item(NewBlock(BlockParagraph, nil, NewText("x"))))
		for range (levels - 4) / 2 {
			list = NewBlock(BlockListUnordered, nil, item(NewBlock(BlockParagraph, nil, NewText("x")), list))
		}
		return list
	}
	quote := NewBlock(BlockParagraph, nil, NewText("q"))
	for range MaxDepth - 2 {
		quote = NewBlock(BlockQuote, nil, quote)
	}
	hint := NewBlock(BlockHint, map[string]any{"style": HintInfo}, NewBlock(BlockListOrdered, nil, item(
		NewBlock(BlockParagraph, nil, NewText("h")), listOf(MaxDepth-4))))
	for _, doc := range []*Document{{Nodes: []Node{listOf(MaxDepth)}}, {Nodes: []Node{quote}}, {Nodes: []Node{hint}}} {
		if err := doc.Validate(); err != nil {
			t.Fatal(err)
		}
		back, err := FromMarkdown(ToMarkdown(doc))
		if err != nil {
			t.Fatalf("FromMarkdown(ToMarkdown(doc)): %v", err)
		}
		if a, b := mustJSON(t, doc.Nodes), mustJSON(t, back.Nodes); a != b {
			t.Fatalf("round trip changed the document:\n%s", firstDiff(a, b))
		}
	}
}
