// Package pdf renders documentation pages to PDF with github.com/go-pdf/fpdf.
//
// The output is an A4 document with a title page, a table of contents (when
// there is more than one page) whose entries link to the pages, a PDF outline
// (bookmarks) mirroring the page tree, running headers with the document and
// page title, and "Page N of M" footers. Every documentation page starts on a
// new PDF page.
//
// Supported block kinds are heading1-3, paragraph, code, quote, hint,
// list-item, task, divider, table, image and math; unknown kinds are rendered
// as paragraphs. Images are rendered as a placeholder box showing the URL and
// caption: nothing is fetched over the network.
//
// # Character set limitation
//
// The document uses the PDF core fonts (Helvetica and Courier), which only
// cover the Windows-1252 (cp1252) character set: ASCII, accented Latin
// letters (é, ü, ß, ñ, ...) and common typographic punctuation (“ ” – — …
// € •). Text is normalised to NFC and converted to cp1252; every other
// character (emoji, CJK, Cyrillic, Greek, math symbols, ...) is rendered as
// '?'. Zero-width characters, variation selectors and emoji modifiers are
// dropped so that one emoji becomes a single '?'. Two exceptions: a page's
// Emoji is omitted from the visible title when it cannot be represented, and
// outline (bookmark) titles and document metadata are written as UTF-16, so
// they keep the full text including emoji.
//
// Links are clickable only for absolute http, https and mailto URLs; other
// links (relative paths, javascript:, data:, ...) are rendered as plain text.
package pdf

import (
	"io"
	"time"
)

// Page is one documentation page.
type Page struct {
	Title  string
	Emoji  string
	Depth  int // nesting level in the page tree, for the outline
	Blocks []Block
}

// Block is one content block of a page.
type Block struct {
	// Kind is one of "heading1", "heading2", "heading3", "paragraph",
	// "code", "quote", "hint", "list-item", "task", "divider", "table",
	// "image", "math".
	Kind string
	// Text is the rich text of headings, paragraphs, quotes, hints, list
	// items and tasks; for math it is used when Code is empty.
	Text []Span
	// Code is the source of code blocks and math (TeX) blocks.
	Code     string
	Language string
	// Style is the hint style: "info", "warning", "danger" or "success"
	// (also accepted: note, tip, caution, error). Defaults to info.
	Style string
	// Depth is the nesting level of list items and tasks (0 = top level).
	Depth int
	// Ordered marks numbered list items; Index is the item number (when
	// zero, items are numbered consecutively).
	Ordered bool
	Index   int
	// Checked is the state of a task item.
	Checked bool
	// Rows holds table cells; the first row is the header.
	Rows [][]string
	// URL and Caption describe an image.
	URL     string
	Caption string
}

// Span is a run of text with inline formatting.
type Span struct {
	Text                       string
	Bold, Italic, Code, Strike bool
	Link                       string
}

// Options controls document-level output.
type Options struct {
	// Title is shown on the title page, in running headers and in the
	// document metadata. Defaults to "Documentation".
	Title    string
	Subtitle string
	// Generated is the date shown on the title page and the PDF creation
	// date. Defaults to the current time.
	Generated time.Time
	// Uncompressed disables content stream compression (for tests and
	// debugging).
	Uncompressed bool
}

// Render writes pages as a PDF document to w.
func Render(w io.Writer, pages []Page, opt Options) error {
	if opt.Generated.IsZero() {
		opt.Generated = time.Now()
	}
	// With a table of contents, a first pass finds the page on which every
	// documentation page starts. The table of contents has a fixed layout
	// (one line per entry, numbers in a fixed-width column), so both passes
	// paginate identically.
	var starts []int
	if hasTOC(pages) {
		r := newRenderer(pages, opt, nil)
		if err := r.render(); err != nil {
			return err
		}
		starts = r.starts
	}
	r := newRenderer(pages, opt, starts)
	if err := r.render(); err != nil {
		return err
	}
	return r.pdf.Output(w)
}

func hasTOC(pages []Page) bool { return len(pages) > 1 }
