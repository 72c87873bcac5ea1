package pdf

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var sampleOut = flag.String("sample", "", "also write the sample document to this file")

var generated = time.Date(2025, 3, 14, 9, 30, 0, 0, time.UTC)

func samplePages() []Page {
	return []Page{
		{
			Title: "Getting started",
			Emoji: "🚀",
			Blocks: []Block{
				{Kind: "paragraph", Text: []Span{
					{Text: "Quire turns your notes into a documentation site. This paragraph mixes "},
					{Text: "bold", Bold: true},
					{Text: ", "},
					{Text: "italic", Italic: true},
					{Text: ", "},
					{Text: "bold italic", Bold: true, Italic: true},
					{Text: ", "},
					{Text: "inline code", Code: true},
					{Text: ", "},
					{Text: "struck out", Strike: true},
					{Text: " text and a "},
					{Text: "link to the website", Link: "https://example.com/docs?ref=pdf"},
					{Text: ". It is long enough to wrap over several lines so that the word wrapping of mixed styles can be checked visually in the sample output."},
				}},
				{Kind: "heading1", Text: []Span{{Text: "Installation"}}},
				{Kind: "paragraph", Text: []Span{{Text: "Accented Latin text renders: Café, Zürich, naïve, señor, Ærøskøbing, “quotes” – dashes … and 10 €."}}},
				{Kind: "paragraph", Text: []Span{{Text: "Outside cp1252 becomes a question mark: 日本 👍🏽 ok."}}},
				{Kind: "code", Language: "bash", Code: "go install quire/cmd/quire@latest\nquire serve --addr :8080\n\tindented with a tab\n" +
					"echo 'a very long line that is much wider than the code box so it has to be wrapped onto the next line by the renderer'"},
				{Kind: "heading2", Text: []Span{{Text: "Configuration"}}},
				{Kind: "quote", Text: []Span{{Text: "Simplicity is prerequisite for reliability. ", Italic: true}, {Text: "— Edsger W. Dijkstra"}}},
				{Kind: "hint", Style: "info", Text: []Span{{Text: "Configuration is read from "}, {Text: "quire.yaml", Code: true}, {Text: " in the working directory."}}},
				{Kind: "hint", Style: "warning", Text: []Span{{Text: "Changing the database driver requires a restart."}}},
				{Kind: "hint", Style: "danger", Text: []Span{{Text: "Never commit your signing key."}}},
				{Kind: "hint", Style: "success", Text: []Span{{Text: "You are ready to go!"}}},
				{Kind: "heading3", Text: []Span{{Text: "Checklist"}}},
				{Kind: "list-item", Text: []Span{{Text: "First bullet"}}},
				{Kind: "list-item", Depth: 1, Text: []Span{{Text: "Nested bullet with enough text to wrap onto a second line so the hanging indent can be checked in the sample."}}},
				{Kind: "list-item", Depth: 2, Text: []Span{{Text: "Third level"}}},
				{Kind: "list-item", Text: []Span{{Text: "Second bullet"}}},
				{Kind: "list-item", Ordered: true, Index: 1, Text: []Span{{Text: "Step one"}}},
				{Kind: "list-item", Ordered: true, Index: 2, Text: []Span{{Text: "Step two"}}},
				{Kind: "list-item", Ordered: true, Depth: 1, Text: []Span{{Text: "Sub-step"}}},
				{Kind: "list-item", Ordered: true, Index: 3, Text: []Span{{Text: "Step three"}}},
				{Kind: "task", Checked: true, Text: []Span{{Text: "Write the docs"}}},
				{Kind: "task", Text: []Span{{Text: "Export them to PDF"}}},
				{Kind: "divider"},
				{Kind: "table", Rows: [][]string{
					{"Option", "Default", "Description"},
					{"addr", ":8080", "Address the HTTP server listens on."},
					{"db", "sqlite", "Database driver: sqlite or postgres. Long cells wrap inside their column."},
					{"log-level", "info"},
				}},
				{Kind: "image", URL: "https://example.com/images/architecture.png", Caption: "Figure 1: Architecture overview"},
				{Kind: "math", Code: `E = mc^2 \quad \int_0^1 x^2 \, dx = \frac{1}{3}`},
				{Kind: "unknown-kind", Text: []Span{{Text: "Unknown kinds render as paragraphs."}}},
			},
		},
		{
			Title: "Reference",
			Depth: 1,
			Blocks: []Block{
				{Kind: "paragraph", Text: []Span{{Text: "A nested page."}}},
			},
		},
		{
			Title: "FAQ",
			Emoji: "❓",
			Blocks: []Block{
				{Kind: "heading2", Text: []Span{{Text: "Why PDF?"}}},
				{Kind: "paragraph", Text: []Span{{Text: "Because sometimes you need to print."}}},
			},
		},
	}
}

func render(t *testing.T, pages []Page, opt Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Render(&buf, pages, opt); err != nil {
		t.Fatalf("Render: %v", err)
	}
	out := buf.Bytes()
	if !bytes.HasPrefix(out, []byte("%PDF-")) {
		t.Fatalf("output does not start with %%PDF-: %q", out[:min(len(out), 20)])
	}
	if !bytes.HasSuffix(bytes.TrimRight(out, " \r\n\t"), []byte("%%EOF")) {
		t.Fatalf("output does not end with %%%%EOF: %q", out[max(0, len(out)-20):])
	}
	return out
}

var pageObj = regexp.MustCompile(`/Type\s*/Page\b`)

func pageCount(pdf []byte) int { return len(pageObj.FindAll(pdf, -1)) }

func TestRenderAllBlockKinds(t *testing.T) {
	out := render(t, samplePages(), Options{Title: "Quire Handbook", Subtitle: "Everything you need", Generated: generated, Uncompressed: true})

	// title page + contents + 3 pages (the first one spans two pages)
	if n := pageCount(out); n != 6 {
		t.Errorf("page count = %d, want 6", n)
	}
	for _, want := range []string{
		"(Installation)", "(Configuration)", "(Checklist)", // headings
		"(Getting started)",              // page title
		"(Quire Handbook)",               // title page
		"(Everything you need)",          // subtitle
		"(14 March 2025  \x95  3 pages)", // date
		"(Contents)",
		"Page 3 of 6", // footer, with the page count alias replaced
		"(Address the HTTP server listens on.)",
		"(echo 'a very long line that is much wider than the code box so it has to be wrapped on)", // hard-wrapped code
		"(to the next line by the renderer')",
		"(    indented with a tab)",
		"([x])", "([ ])", "(Image)", "(Figure 1: Architecture overview)",
		"(E = mc^2 \\\\quad", // math; fpdf escapes backslashes
		"/URI (https://example.com/docs?ref=pdf)",
		"/URI (https://example.com/images/architecture.png)",
		"/Outlines",
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("output does not contain %q", want)
		}
	}
	// cp1252 text, with unrepresentable characters replaced by '?'.
	for _, want := range []string{"Caf\xe9, Z\xfcrich, na\xefve", "\x93quotes\x94 \x96 dashes \x85 and 10 \x80", "(Outside cp1252 becomes a question mark: ?? ? ok.)"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("output does not contain cp1252 text %q", want)
		}
	}
	// Outline titles keep the emoji (UTF-16).
	for _, title := range []string{"🚀 Getting started", "Reference", "❓ FAQ", "Contents"} {
		if !bytes.Contains(out, []byte(utf16Text(title))) {
			t.Errorf("outline entry %q missing", title)
		}
	}
	// The visible page title omits the unrepresentable emoji rather than
	// showing "? Getting started".
	if bytes.Contains(out, []byte("(? Getting started)")) {
		t.Error("unrepresentable emoji rendered in the page title")
	}
	// "Reference" (Depth 1) is nested under "Getting started".
	if !bytes.Contains(out, []byte("/First ")) {
		t.Error("outline has no nested entries")
	}
	// Internal links from the table of contents.
	if !bytes.Contains(out, []byte("/Dest [")) {
		t.Error("no internal links from the table of contents")
	}
}

func TestCompressedOutputHidesText(t *testing.T) {
	out := render(t, samplePages(), Options{Title: "Quire Handbook", Generated: generated})
	if bytes.Contains(out, []byte("(Installation)")) {
		t.Error("content streams are not compressed")
	}
	if !bytes.Contains(out, []byte("/FlateDecode")) {
		t.Error("no compressed streams")
	}
	if !bytes.Contains(out, []byte("/URI")) {
		t.Error("no link annotations")
	}
}

func TestLongDocument(t *testing.T) {
	var blocks []Block
	for i := range 200 {
		blocks = append(blocks, Block{Kind: "paragraph", Text: []Span{{Text: fmt.Sprintf("Paragraph %d. Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.", i)}}})
	}
	out := render(t, []Page{{Title: "Long", Blocks: blocks}}, Options{Generated: generated, Uncompressed: true})
	n := pageCount(out)
	if n <= 3 {
		t.Fatalf("page count = %d, want > 3", n)
	}
	// Single page: no table of contents, so title page + content pages.
	if !bytes.Contains(out, []byte(fmt.Sprintf("Page %d of %d", n, n))) {
		t.Errorf("last footer %q not found", fmt.Sprintf("Page %d of %d", n, n))
	}
	if !bytes.Contains(out, []byte("(Paragraph 199. Lorem ipsum")) {
		t.Error("last paragraph missing")
	}
}

func TestPathologicalContent(t *testing.T) {
	huge := strings.Repeat("word ", 3000)
	rows := [][]string{{"A", "B"}}
	for i := range 80 {
		rows = append(rows, []string{fmt.Sprint("row ", i), "value"})
	}
	rows = append(rows, []string{huge, "tall row"}) // taller than a page
	pages := []Page{{
		Title: strings.Repeat("Very long title ", 20),
		Blocks: []Block{
			{Kind: "paragraph", Text: []Span{{Text: strings.Repeat("x", 5000)}}}, // unbreakable word
			{Kind: "code", Code: strings.Repeat("line\n", 150) + strings.Repeat("y", 2000)},
			{Kind: "table", Rows: rows},
			{Kind: "table"},
			{Kind: "hint", Style: "bogus", Text: []Span{{Text: huge}}},
			{Kind: "quote", Text: []Span{{Text: huge}}},
			{Kind: "list-item", Depth: 50, Text: []Span{{Text: "deep"}}},
			{Kind: "paragraph"},
			{Kind: "heading1"},
			{Kind: "image"},
			{Kind: "math"},
			{Kind: "paragraph", Text: []Span{{Text: "ctrl\x00\x07chars and \u200bzero\ufeffwidth and e\u0301 (decomposed) \xff invalid"}}},
		},
	}, {Depth: 5}}
	out := render(t, pages, Options{Uncompressed: true, Generated: generated})
	if *sampleOut != "" {
		_ = os.WriteFile(strings.TrimSuffix(*sampleOut, ".pdf")+"-stress.pdf", out, 0o644)
	}
	if n := pageCount(out); n < 20 {
		t.Errorf("page count = %d, expected many pages", n)
	}
	if !bytes.Contains(out, []byte("(ctrlchars and zerowidth and \xe9 \\(decomposed\\) ? invalid)")) {
		t.Error("control, invisible or decomposed characters not handled")
	}
}

// TestWideTables: tables as wide as documents allow (100 columns) and wider
// render, in columns narrower than their padding and than one character.
func TestWideTables(t *testing.T) {
	for _, cols := range []int{48, 100, 1000} {
		t.Run(fmt.Sprint(cols, " columns"), func(t *testing.T) {
			head, row := make([]string, cols), make([]string, cols)
			for i := range cols {
				head[i], row[i] = fmt.Sprint("column ", i), "value"
			}
			out := render(t, []Page{{Title: "Wide", Blocks: []Block{{Kind: "table", Rows: [][]string{head, row, row}}}}},
				Options{Uncompressed: true, Generated: generated})
			if !bytes.Contains(out, []byte("(c)")) {
				t.Error("cell text missing")
			}
		})
	}
}

func TestLinksAreFiltered(t *testing.T) {
	out := render(t, []Page{{Title: "Links", Blocks: []Block{{Kind: "paragraph", Text: []Span{
		{Text: "ok", Link: "https://example.com/ü ber"},
		{Text: " mail", Link: "mailto:docs@example.com"},
		{Text: " js", Link: "javascript:alert(1)"},
		{Text: " rel", Link: "../other-page"},
	}}}}}, Options{Uncompressed: true, Generated: generated})
	for _, want := range []string{"/URI (https://example.com/%C3%BC%20ber)", "/URI (mailto:docs@example.com)"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("missing %q", want)
		}
	}
	for _, bad := range []string{"javascript", "other-page"} {
		if bytes.Contains(out, []byte("/URI ("+bad)) || bytes.Contains(out, []byte("/URI (../"+bad)) {
			t.Errorf("unsafe link %q made clickable", bad)
		}
	}
}

func TestEmptyAndDeterministic(t *testing.T) {
	out := render(t, nil, Options{Generated: generated})
	if n := pageCount(out); n != 1 {
		t.Errorf("empty document: %d pages, want 1 (title page)", n)
	}
	a := render(t, samplePages(), Options{Title: "X", Generated: generated})
	b := render(t, samplePages(), Options{Title: "X", Generated: generated})
	if !bytes.Equal(a, b) {
		t.Error("output is not deterministic")
	}
}

// TestPdftotext checks the text extracted by poppler's pdftotext: reading
// order of headings, paragraphs and table cells, and table of contents page
// numbers.
func TestPdftotext(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (apt-get install poppler-utils)")
	}
	out := render(t, samplePages(), Options{Title: "Quire Handbook", Generated: generated})
	dir := t.TempDir()
	file := filepath.Join(dir, "doc.pdf")
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	txt, err := exec.Command("pdftotext", "-enc", "UTF-8", file, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	text := string(txt)

	order := []string{
		"Quire Handbook", "14 March 2025",
		"Contents", "Getting started", "Reference", "FAQ",
		"Getting started",
		"This paragraph mixes bold, italic, bold italic, inline code, struck out text and a link to the website.",
		"Installation",
		"Café, Zürich, naïve, señor, Ærøskøbing, “quotes” – dashes … and 10 €.",
		"Outside cp1252 becomes a question mark: ?? ? ok.",
		"quire serve --addr :8080",
		"Configuration",
		"Simplicity is prerequisite for reliability.",
		"Info: Configuration is read from quire.yaml",
		"Warning: Changing the database driver",
		"Danger: Never commit",
		"Success: You are ready",
		"Checklist", "First bullet", "Nested bullet", "Third level", "Second bullet",
		"1. Step one", "2. Step two", "1. Sub-step", "3. Step three",
		"[x] Write the docs", "[ ] Export them to PDF",
		"Option", "Default", "Description", "addr", ":8080", "Address the HTTP server listens on.",
		"db", "sqlite", "Database driver", "log-level", "info",
		"Image", "https://example.com/images/architecture.png", "Figure 1: Architecture overview",
		"E = mc^2",
		"Unknown kinds render as paragraphs.",
		"Reference", "A nested page.",
		"FAQ", "Why PDF?", "Because sometimes you need to print.",
	}
	norm := strings.Join(strings.Fields(text), " ")
	pos := 0
	for _, want := range order {
		i := strings.Index(norm[pos:], want)
		if i < 0 {
			t.Fatalf("%q not found after position %d in extracted text:\n%s", want, pos, text)
		}
		pos += i + len(want)
	}

	// Table of contents page numbers match where the pages start (pages
	// are separated by form feeds).
	pages := strings.Split(text, "\f")
	pageOf := func(marker string) int {
		for i, p := range pages {
			if strings.Contains(p, marker) {
				return i + 1
			}
		}
		return -1
	}
	toc := strings.Join(strings.Fields(pages[1]), " ")
	for _, c := range []struct{ title, marker string }{
		{"Getting started", "Quire turns your notes"},
		{"Reference", "A nested page."},
		{"FAQ", "Why PDF?"},
	} {
		re := regexp.MustCompile(regexp.QuoteMeta(c.title) + `[ .]*(\d+)`)
		m := re.FindStringSubmatch(toc)
		if m == nil || m[1] != fmt.Sprint(pageOf(c.marker)) {
			t.Errorf("contents entry for %q = %v, page is %d", c.title, m, pageOf(c.marker))
		}
	}
}

// TestContentsSpanningPages checks table of contents page numbers when the
// contents themselves need several pages.
func TestContentsSpanningPages(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (apt-get install poppler-utils)")
	}
	var pages []Page
	for i := range 90 {
		blocks := []Block{{Kind: "paragraph", Text: []Span{{Text: fmt.Sprintf("Body of page %03d.", i)}}}}
		if i%10 == 0 { // some pages span two PDF pages
			for range 60 {
				blocks = append(blocks, Block{Kind: "paragraph", Text: []Span{{Text: "Filler."}}})
			}
		}
		pages = append(pages, Page{Title: fmt.Sprintf("Topic %03d", i), Depth: i % 2, Blocks: blocks})
	}
	out := render(t, pages, Options{Generated: generated})
	file := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	// -layout keeps each contents entry on one line.
	txt, err := exec.Command("pdftotext", "-layout", "-enc", "UTF-8", file, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	pdfPages := strings.Split(string(txt), "\f")
	var toc strings.Builder
	for _, p := range pdfPages[1:] {
		if !strings.Contains(p, "Contents") {
			break
		}
		toc.WriteString(p)
	}
	entries := regexp.MustCompile(`(?m)Topic (\d{3})[ .]*(\d+)$`).FindAllStringSubmatch(toc.String(), -1)
	if len(entries) != 90 {
		t.Fatalf("found %d contents entries, want 90:\n%s", len(entries), toc.String())
	}
	for _, e := range entries {
		var n int
		fmt.Sscan(e[2], &n)
		if n < 1 || n > len(pdfPages) || !strings.Contains(pdfPages[n-1], "Body of page "+e[1]) {
			t.Errorf("contents entry Topic %s points to page %d, which does not start it", e[1], n)
		}
	}
}

// TestWriteSample writes the sample document when -sample is given:
//
//	go test ./internal/pdf -run TestWriteSample -sample "$PWD/test-artifacts/sample.pdf"
func TestWriteSample(t *testing.T) {
	if *sampleOut == "" {
		t.Skip("no -sample path given")
	}
	f, err := os.Create(*sampleOut)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := Render(f, samplePages(), Options{Title: "Quire Handbook", Subtitle: "Everything you need to write, publish and export documentation", Generated: generated}); err != nil {
		t.Fatal(err)
	}
}
