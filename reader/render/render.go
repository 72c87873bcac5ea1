// Package render turns a page document (quire/internal/document) into the
// HTML its readers get on a published site: semantic elements, every text
// and attribute escaped, links only to what the reader may see, and nothing
// that runs (no script, style, event handler, inline style or frame), so
// that the output can be placed into a page as template.HTML under a
// Content-Security-Policy that forbids inline scripts and styles.
package render

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"unicode/utf8"

	"quire/internal/document"
	"quire/internal/evaluate"
)

// Links resolves what a document points to, for the reader who is reading.
// A false ok means the reader may not see it (or it does not exist): the
// link's text renders as plain text, never its target.
type Links interface {
	// Ref resolves a content reference (page, anchor, space, file, url,
	// openapi, reusable content, ...) to an href.
	Ref(ref document.ContentRef) (href string, ok bool)
	// File resolves a file of the revision: images, file blocks, drawings.
	File(fileID string) (f File, ok bool)
}

// File is a file of the revision as the reader may fetch it.
type File struct {
	URL, Name, ContentType string
	Width, Height          int
	// Size is the file's size in bytes; 0 when unknown.
	Size int64
}

// Options says for whom a document renders.
type Options struct {
	// Links resolves references; nil resolves none but plain URLs.
	Links Links
	// Env holds the space and page variables and the visitor's claims:
	// expressions and if blocks are evaluated with it for this visitor.
	Env evaluate.Env
	// ReservedIDs are id attributes the page around the content uses
	// already; a heading whose anchor is one of them gets a suffix (-2),
	// so that ids stay unique in the whole page.
	ReservedIDs []string
}

// Heading is an entry of a page's outline ("On this page").
type Heading struct {
	ID    string // the id attribute of the heading in HTML
	Title string
	Level int // 1, 2 or 3 (heading-1 to heading-3)
}

// Result is a rendered document.
type Result struct {
	HTML    template.HTML
	Outline []Heading
	// Text is the start of the document's plain text (about 300
	// characters, cut at a word), for a meta description.
	Text string
}

// maxText is how much plain text Result.Text keeps.
const maxText = 300

// maxDepth bounds the recursion of the renderer. Documents that reach it
// have been validated (document.MaxDepth), but dereferenced reusable
// contents add levels of their own and stored documents predate the
// limits: content deeper than this is left out rather than risking the
// stack.
const maxDepth = 4 * document.MaxDepth

// Document renders doc for the visitor described by opt.
func Document(doc *document.Document, opt Options) (res Result, err error) {
	if doc == nil {
		return Result{}, nil
	}
	// The reader knows who reads: every expression is evaluated, those on
	// visitor claims included. What cannot be evaluated (an expression
	// that does not compile) stays in the document and is left out below.
	// Evaluation copies the document; most pages hold no expression and
	// render as they are (the renderer never modifies a document).
	ev := doc
	if hasExpressions(doc.Nodes, 0) {
		if ev, err = evaluate.Document(doc, opt.Env, evaluate.All); err != nil {
			return Result{}, fmt.Errorf("evaluate document: %w", err)
		}
	}
	r := &renderer{links: opt.Links, ids: map[string]bool{}, next: map[string]int{}, shift: topHeading(ev.Nodes) - 1}
	for _, id := range opt.ReservedIDs {
		r.ids[id] = true
	}
	r.b.Grow(estimateSize(ev.Nodes))
	defer func() {
		// The renderer is written not to panic; should an odd document
		// find a way, the page shows an error rather than crashing the
		// request.
		if p := recover(); p != nil {
			res, err = Result{}, fmt.Errorf("render document: %v", p)
		}
	}()
	r.blocks(ev.Nodes, 0)
	return Result{HTML: template.HTML(r.b.String()), Outline: r.outline, Text: r.plainText()}, nil
}

// hasExpressions reports whether nodes hold an expression inline or an if
// block.
func hasExpressions(nodes []document.Node, depth int) bool {
	if depth > maxDepth {
		return false
	}
	for i := range nodes {
		n := &nodes[i]
		if n.Type == document.InlineExpression || n.Type == document.BlockIf {
			return true
		}
		if hasExpressions(n.Nodes, depth+1) || hasExpressions(n.Fragments, depth+1) {
			return true
		}
	}
	return false
}

// renderer holds the state of one rendering.
type renderer struct {
	b       strings.Builder
	links   Links
	ids     map[string]bool // id attributes emitted, to keep them unique
	next    map[string]int  // the next suffix to try for an id
	outline []Heading
	text    strings.Builder // the start of the plain text
	inLink  int             // > 0 inside <a>: no nested links
	// shift lowers every heading's level so that the page's highest one
	// is the first below the page's title (h2): outlines skip no level.
	shift int
	// highlighted counts the bytes of code given to the highlighter, which
	// stops past a budget (see code.go).
	highlighted int
}

func estimateSize(nodes []document.Node) int {
	// A rough guess that saves the builder a few doublings on long pages.
	return min(64*len(nodes)+256, 1<<20)
}

// w writes trusted markup (element names, fixed attributes).
func (r *renderer) w(s string) { r.b.WriteString(s) }

// esc writes text, escaped.
func (r *renderer) esc(s string) { escapeTo(&r.b, s) }

// attr writes ` name="value"` with value escaped.
func (r *renderer) attr(name, value string) {
	r.b.WriteByte(' ')
	r.b.WriteString(name)
	r.b.WriteString(`="`)
	escapeTo(&r.b, value)
	r.b.WriteByte('"')
}

// open writes <tag class="class"> (class omitted when empty).
func (r *renderer) open(tag, class string) {
	r.b.WriteByte('<')
	r.b.WriteString(tag)
	if class != "" {
		r.attr("class", class)
	}
	r.b.WriteByte('>')
}

func (r *renderer) close(tag string) {
	r.w("</")
	r.w(tag)
	r.w(">")
}

// escapeTo writes s HTML-escaped, dropping what HTML cannot carry: invalid
// UTF-8 becomes U+FFFD and NUL is left out (the HTML parser would replace
// or drop it anyway).
func escapeTo(b *strings.Builder, s string) {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		var rep string
		size := 1
		switch c {
		case '<':
			rep = "&lt;"
		case '>':
			rep = "&gt;"
		case '&':
			rep = "&amp;"
		case '"':
			rep = "&#34;"
		case '\'':
			rep = "&#39;"
		case 0:
			rep = ""
		default:
			if c < utf8.RuneSelf {
				i++
				continue
			}
			r, n := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || n != 1 {
				i += n
				continue
			}
			rep = "\uFFFD"
		}
		b.WriteString(s[last:i])
		b.WriteString(rep)
		i += size
		last = i
	}
	b.WriteString(s[last:])
}

// addText appends to the plain text kept for Result.Text, until it holds
// enough.
func (r *renderer) addText(s string) {
	if r.text.Len() < 2*maxText {
		r.text.WriteString(s)
	}
}

// endText marks the end of a block in the plain text.
func (r *renderer) endText() { r.addText(" ") }

// plainText is the start of the plain text, white space collapsed, cut at
// a word after about maxText characters.
func (r *renderer) plainText() string {
	words := strings.Fields(r.text.String())
	var b strings.Builder
	for _, w := range words {
		if b.Len() > 0 {
			if utf8.RuneCountInString(b.String())+1+utf8.RuneCountInString(w) > maxText {
				b.WriteString("…")
				break
			}
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	out := b.String()
	if utf8.RuneCountInString(out) > maxText+1 { // one long word
		out = string([]rune(out)[:maxText]) + "…"
	}
	return strings.ToValidUTF8(out, "\uFFFD")
}

// uniqueID returns id, or id-2, id-3, ... when it is taken, and takes it.
func (r *renderer) uniqueID(id string) string {
	if id == "" {
		id = "section"
	}
	// next remembers where the suffixes of id go on, so that many
	// headings with one title cost linear time, not quadratic.
	out := id
	n := max(r.next[id], 2)
	for r.ids[out] {
		out = id + "-" + strconv.Itoa(n)
		n++
	}
	r.next[id] = n
	r.ids[out] = true
	return out
}

func dataString(n *document.Node, key string) string {
	s, _ := n.Data[key].(string)
	return s
}

func dataBool(n *document.Node, key string) bool {
	b, _ := n.Data[key].(bool)
	return b
}

// oneOf returns s when it is among allowed, else "": values that become
// class names come from fixed lists only.
func oneOf(s string, allowed ...string) string {
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	return ""
}

// topHeading is the highest level (1 to 3) of the top-level headings of a
// document, 1 when it has none.
func topHeading(nodes []document.Node) int {
	top := 4
	for i := range nodes {
		if l, ok := headingLevel[nodes[i].Type]; ok && l < top {
			top = l
		}
	}
	if top == 4 {
		return 1
	}
	return top
}
