package search

import (
	"strings"
	"unicode/utf8"

	"quire/internal/document"
)

// ChunkBytes and PageChunkBytes are the most text one indexed row of a
// section, and of a whole page, holds. Longer text is indexed as several
// rows of about this size, cut between words, that share the section's
// anchor and title (or the page's): every word of a page is searchable,
// and a row's text vector stays small enough for ranking to be quick
// (PostgreSQL also refuses vectors over 1 MB). A query's words are found
// together when they are within one page row, so page rows are larger.
const (
	ChunkBytes     = 16 << 10
	PageChunkBytes = 64 << 10
)

// Section is the text under one heading of a page: the blocks from the
// heading to the next top-level heading. The text before a page's first
// heading is a section with no anchor and no title.
type Section struct {
	// Anchor is the heading's anchor (document.HeadingAnchor), "" for the
	// text before the first heading.
	Anchor string
	// Title is the heading's text.
	Title string
	// Text is the plain text of the section's blocks (document.Text),
	// heading excluded.
	Text string
}

// Sections splits a document at its top-level headings (headings nested in
// other blocks, such as a hint or an expandable, belong to the section
// around them). Sections without text and without title are left out.
func Sections(doc *document.Document) []Section {
	if doc == nil {
		return nil
	}
	var (
		out  []Section
		cur  Section
		from int
	)
	flush := func(to int) {
		cur.Text = strings.TrimSpace(document.BlocksText(doc.Nodes[from:to]))
		if cur.Text != "" || cur.Title != "" {
			out = append(out, cur)
		}
	}
	for i := range doc.Nodes {
		n := &doc.Nodes[i]
		if !document.IsHeading(n) {
			continue
		}
		flush(i)
		cur = Section{Anchor: document.HeadingAnchor(n), Title: strings.TrimSpace(document.InlineText(n.Nodes))}
		from = i + 1
	}
	flush(len(doc.Nodes))
	return out
}

// chunks cuts text into pieces of at most size bytes, at whitespace where
// there is some in the second half of a piece, never inside a UTF-8
// character. An empty text is one empty chunk.
func chunks(text string, size int) []string {
	if len(text) <= size {
		return []string{text}
	}
	var out []string
	for len(text) > size {
		cut := size
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		if sp := strings.LastIndexAny(text[:cut], " \t\n"); sp > size/2 {
			cut = sp
		}
		out = append(out, text[:cut])
		text = strings.TrimLeft(text[cut:], " \t\n")
	}
	if text != "" {
		out = append(out, text)
	}
	return out
}
