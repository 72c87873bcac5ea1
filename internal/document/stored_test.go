package document

import (
	"strings"
	"testing"
)

// Documents stored before the limits existed may exceed them: ParseStored
// reads them, and rendering them stays within what the limits allow.

func TestParseStoredBeyondTheLimits(t *testing.T) {
	deep := NewBlock(BlockParagraph, nil, NewText("bottom"))
	for i := range 2000 {
		if i%2 == 0 {
			deep = NewBlock(BlockListUnordered, nil, NewBlock(BlockListItem, nil, NewBlock(BlockParagraph, nil, NewText("item")), deep))
		} else {
			deep = NewBlock(BlockQuote, nil, deep)
		}
	}
	stored, err := (&Document{Nodes: []Node{deep}}).AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(stored); err == nil {
		t.Fatal("Parse accepted a document 3,000 levels deep")
	}
	doc, err := ParseStored(stored)
	if err != nil {
		t.Fatal(err)
	}
	md := ToMarkdown(doc)
	if got, want := strings.Count(md, "item"), 1000; got != want {
		t.Errorf("Markdown holds %d items, want %d", got, want)
	}
	if !strings.Contains(md, "bottom") {
		t.Error("Markdown lost the deepest paragraph")
	}
	// Written within the depth limit, the Markdown reads back.
	back, err := FromMarkdown(md)
	if err != nil {
		t.Fatalf("FromMarkdown(ToMarkdown(stored)): %v", err)
	}
	if got := back.Text(); got != strings.Repeat("item\n", 1000)+"bottom" {
		t.Errorf("text read back: %.100q…", got)
	}
	if got := doc.Text(); got != strings.Repeat("item\n", 1000)+"bottom" {
		t.Errorf("Text: %.100q…", got)
	}

	// Parse refuses what ParseStored refuses.
	if _, err := ParseStored([]byte(docOf(`{"object":"block","type":"hint","data":{},"nodes":[]}`))); err == nil {
		t.Error("ParseStored accepted an invalid document")
	}
}

func TestStoredTableBeyondTheLimits(t *testing.T) {
	stored := []byte(tableJSON(1000, 50))
	if _, err := Parse(stored); err == nil {
		t.Fatal("Parse accepted a table of 1,000 columns")
	}
	doc, err := ParseStored(stored)
	if err != nil {
		t.Fatal(err)
	}
	md := ToMarkdown(doc)
	header, _, _ := strings.Cut(md, "\n")
	if got := strings.Count(header, "|") - 1; got != MaxTableColumns {
		t.Errorf("Markdown table of %d columns, want %d", got, MaxTableColumns)
	}
	if got := strings.Count(md, "\n"); got != 2+50 {
		t.Errorf("Markdown table of %d lines, want 52", got)
	}
	if _, err := FromMarkdown(md); err != nil {
		t.Errorf("FromMarkdown(ToMarkdown(stored)): %v", err)
	}
	if got := strings.Count(doc.Text(), "\t"); got != MaxTableColumns-1 {
		t.Errorf("Text lays out %d columns, want %d", got+1, MaxTableColumns)
	}
}
