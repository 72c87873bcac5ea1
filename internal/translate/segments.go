package translate

import (
	"fmt"
	"html"
	"regexp"
	"slices"
	"strconv"
	"strings"

	xhtml "golang.org/x/net/html"

	"quire/internal/document"
)

// A text is sent to the translator as HTML in which only the words to
// translate are text: marks are tags (<b>, <i>, <s>, <sup>, <sub>,
// <span data-m> for colors), a link is <a data-n> around its text (its
// target is not sent), and what must not change (inline code, keyboard
// keys, glossary terms kept, inlines such as emoji, mentions or math) is a
// placeholder (<code data-n> or <img data-n>) whose content is put back
// from what was kept here, whatever comes back inside it. URLs, content
// references and the data of every node never leave Quire.

// skipped are the block types whose content is never translated.
var skipped = map[string]bool{
	document.BlockCode: true, document.BlockMath: true, document.BlockSwagger: true,
	document.BlockOpenAPIOperation: true, document.BlockOpenAPISchemas: true, document.BlockOpenAPIWebhook: true,
	document.BlockIntegration: true, document.BlockEmbed: true, document.BlockDrawing: true,
	document.BlockContentRef: true, document.BlockReusableContent: true,
}

// unit is one text sent for translation and how to put the answer back.
type unit struct {
	html string
	// kept are the placeholders: leaves (code, kept terms), inlines and
	// links, by index.
	kept []keptItem
	// colors are the data of color marks, by index.
	colors []map[string]any
	apply  func(u *unit, translated string)
	words  int
}

type keptItem struct {
	leaf   *document.Leaf // a leaf kept as is (code, kbd, a glossary term)
	inline *document.Node // an inline kept as is, or a link (translated inside)
	link   bool
}

// segmenter collects the units of a page.
type segmenter struct {
	rules []Rule
	re    *regexp.Regexp
	units []*unit
}

func newSegmenter(rules []Rule) *segmenter {
	return &segmenter{rules: rules, re: glossaryRe(rules)}
}

func (s *segmenter) rule(term string) Rule {
	for _, r := range s.rules {
		if r.Term == term {
			return r
		}
	}
	return Rule{Kind: RuleKeep, Term: term}
}

// text adds a plain text (a title, a description); set receives its
// translation.
func (s *segmenter) text(t string, set func(string)) {
	if strings.TrimSpace(t) == "" {
		return
	}
	u := &unit{}
	u.html = s.leafHTML(u, document.Leaf{Text: t, Marks: []document.Mark{}})
	u.words = len(strings.Fields(t))
	u.apply = func(u *unit, translated string) {
		var b strings.Builder
		for _, n := range u.parse(translated) {
			if n.Object == document.ObjectText {
				for _, l := range n.Leaves {
					b.WriteString(l.Text)
				}
			}
		}
		set(strings.TrimSpace(b.String()))
	}
	s.units = append(s.units, u)
}

// document adds the text of every block of d that holds text.
func (s *segmenter) document(d *document.Document) {
	for i := range d.Nodes {
		s.node(&d.Nodes[i])
	}
}

func (s *segmenter) node(n *document.Node) {
	if n.Object == document.ObjectBlock && skipped[n.Type] {
		return
	}
	if n.Object == document.ObjectBlock && holdsText(n) {
		s.container(n)
	} else {
		for i := range n.Nodes {
			s.node(&n.Nodes[i])
		}
	}
	for i := range n.Fragments {
		s.node(&n.Fragments[i])
	}
	for _, k := range []string{"title", "alt", "caption", "label"} {
		if v, ok := n.Data[k].(string); ok && n.Type != document.BlockCode {
			data := n.Data
			key := k
			s.text(v, func(t string) { data[key] = t })
		}
	}
}

// holdsText reports a block whose children are text and inlines, with
// some words.
func holdsText(n *document.Node) bool {
	words := false
	for _, c := range n.Nodes {
		switch c.Object {
		case document.ObjectText:
			for _, l := range c.Leaves {
				words = words || strings.TrimSpace(l.Text) != ""
			}
		case document.ObjectInline:
			words = words || c.Type == document.InlineLink
		default:
			return false
		}
	}
	return words
}

// container makes a unit of a block's inline content.
func (s *segmenter) container(n *document.Node) {
	u := &unit{}
	var b strings.Builder
	s.inlines(u, &b, n.Nodes)
	u.html = b.String()
	u.words = len(strings.Fields(textOf(n.Nodes)))
	u.apply = func(u *unit, translated string) {
		n.Nodes = u.parse(translated)
	}
	s.units = append(s.units, u)
}

func textOf(nodes []document.Node) string {
	var b strings.Builder
	for _, n := range nodes {
		for _, l := range n.Leaves {
			b.WriteString(l.Text)
		}
		b.WriteString(textOf(n.Nodes))
		b.WriteByte(' ')
	}
	return b.String()
}

func (s *segmenter) inlines(u *unit, b *strings.Builder, nodes []document.Node) {
	for i := range nodes {
		n := &nodes[i]
		switch {
		case n.Object == document.ObjectText:
			for _, l := range n.Leaves {
				b.WriteString(s.leafHTML(u, l))
			}
		case n.Object == document.ObjectInline && n.Type == document.InlineLink:
			k := len(u.kept)
			u.kept = append(u.kept, keptItem{inline: n, link: true})
			fmt.Fprintf(b, `<a data-n="%d">`, k)
			s.inlines(u, b, n.Nodes)
			b.WriteString("</a>")
		default:
			k := len(u.kept)
			u.kept = append(u.kept, keptItem{inline: n})
			fmt.Fprintf(b, `<img data-n="%d">`, k)
		}
	}
}

var markTags = map[string]string{
	document.MarkBold: "b", document.MarkItalic: "i", document.MarkStrikethrough: "s",
	document.MarkSuperscript: "sup", document.MarkSubscript: "sub",
}

// leafHTML writes a leaf: code and keyboard leaves, and glossary terms, as
// placeholders; the other marks as tags around the text.
func (s *segmenter) leafHTML(u *unit, l document.Leaf) string {
	var open, close strings.Builder
	for _, m := range l.Marks {
		switch m.Type {
		case document.MarkCode, document.MarkKeyboard:
			k := len(u.kept)
			leaf := l
			u.kept = append(u.kept, keptItem{leaf: &leaf})
			return fmt.Sprintf(`<code data-n="%d">%s</code>`, k, html.EscapeString(l.Text))
		case document.MarkColor:
			fmt.Fprintf(&open, `<span data-m="%d">`, len(u.colors))
			u.colors = append(u.colors, m.Data)
			close.WriteString("</span>")
		default:
			if t, ok := markTags[m.Type]; ok {
				open.WriteString("<" + t + ">")
				close.WriteString("</" + t + ">")
			}
		}
	}
	tags := strings.Split(strings.TrimSuffix(strings.TrimPrefix(close.String(), "</"), ">"), "></")
	slices.Reverse(tags)
	closing := ""
	if close.Len() > 0 {
		closing = "</" + strings.Join(tags, "></") + ">"
	}
	var body strings.Builder
	text := l.Text
	if s.re != nil {
		for {
			loc := s.re.FindStringSubmatchIndex(text)
			if loc == nil {
				break
			}
			body.WriteString(html.EscapeString(text[:loc[2]]))
			k := len(u.kept)
			r := s.rule(text[loc[2]:loc[3]])
			kept := document.Leaf{Text: text[loc[2]:loc[3]], Marks: l.Marks}
			if r.Kind == RuleReplace {
				kept.Text = r.Replacement
			}
			u.kept = append(u.kept, keptItem{leaf: &kept})
			fmt.Fprintf(&body, `<code data-n="%d">%s</code>`, k, html.EscapeString(text[loc[2]:loc[3]]))
			text = text[loc[3]:]
		}
	}
	body.WriteString(html.EscapeString(text))
	return open.String() + body.String() + closing
}

// parse turns a translated unit back into inline nodes: text with its
// marks, the links (their targets as they were) around their translated
// text, and the placeholders as they were kept. A placeholder the
// translator dropped is added at the end, so that nothing is lost.
func (u *unit) parse(translated string) []document.Node {
	var out []document.Node
	used := make([]bool, len(u.kept))
	type frame struct {
		tag   string
		mark  *document.Mark
		link  int
		nodes []document.Node
	}
	stack := []*frame{{tag: "", link: -1}}
	marks := func() []document.Mark {
		var ms []document.Mark
		for _, f := range stack {
			if f.mark != nil {
				ms = append(ms, *f.mark)
			}
		}
		if ms == nil {
			ms = []document.Mark{}
		}
		return ms
	}
	emit := func(n document.Node) {
		top := stack[len(stack)-1]
		for i := len(stack) - 1; i >= 0; i-- {
			if stack[i].link >= 0 || i == 0 {
				top = stack[i]
				break
			}
		}
		top.nodes = appendNode(top.nodes, n)
	}
	skipCode := 0
	z := xhtml.NewTokenizer(strings.NewReader(translated))
	for {
		tt := z.Next()
		if tt == xhtml.ErrorToken {
			break
		}
		tok := z.Token()
		switch tt {
		case xhtml.TextToken:
			if skipCode > 0 || tok.Data == "" {
				continue
			}
			emit(document.Node{Object: document.ObjectText, Leaves: []document.Leaf{{Text: tok.Data, Marks: marks()}}})
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			n, hasN := attrInt(tok, "data-n")
			switch {
			case tok.Data == "code" && hasN && n < len(u.kept) && u.kept[n].leaf != nil:
				if !used[n] {
					used[n] = true
					l := *u.kept[n].leaf
					l.Marks = mergeMarks(marks(), l.Marks)
					emit(document.Node{Object: document.ObjectText, Leaves: []document.Leaf{l}})
				}
				if tt == xhtml.StartTagToken {
					skipCode++
				}
			case tok.Data == "img" && hasN && n < len(u.kept) && u.kept[n].inline != nil && !u.kept[n].link:
				if !used[n] {
					used[n] = true
					emit(*u.kept[n].inline)
				}
			case tok.Data == "a" && hasN && n < len(u.kept) && u.kept[n].link && !used[n] && tt == xhtml.StartTagToken:
				used[n] = true
				stack = append(stack, &frame{tag: "a", link: n})
			case tt == xhtml.StartTagToken:
				f := &frame{tag: tok.Data, link: -1}
				if t := markOfTag(tok.Data); t != "" {
					f.mark = &document.Mark{Type: t}
				} else if m, ok := attrInt(tok, "data-m"); ok && m < len(u.colors) {
					f.mark = &document.Mark{Type: document.MarkColor, Data: u.colors[m]}
				}
				stack = append(stack, f)
			}
		case xhtml.EndTagToken:
			if tok.Data == "code" && skipCode > 0 {
				skipCode--
				continue
			}
			for i := len(stack) - 1; i > 0; i-- {
				if stack[i].tag == tok.Data {
					closed := stack[i:]
					stack = stack[:i]
					// A link closes with what it holds.
					for j := len(closed) - 1; j >= 0; j-- {
						if f := closed[j]; f.link >= 0 {
							link := *u.kept[f.link].inline
							link.Nodes = f.nodes
							emit(link)
						}
					}
					break
				}
			}
		}
	}
	for i := len(stack) - 1; i > 0; i-- {
		if f := stack[i]; f.link >= 0 {
			link := *u.kept[f.link].inline
			link.Nodes = f.nodes
			stack = stack[:i]
			emit(link)
		}
	}
	out = stack[0].nodes
	for i, k := range u.kept {
		if used[i] {
			continue
		}
		switch {
		case k.leaf != nil:
			out = appendNode(out, document.Node{Object: document.ObjectText, Leaves: []document.Leaf{*k.leaf}})
		case k.inline != nil:
			out = appendNode(out, *k.inline)
		}
	}
	return withEdges(out)
}

// appendNode adds a node, joining text runs into one text node and leaves
// with the same marks into one leaf.
func appendNode(nodes []document.Node, n document.Node) []document.Node {
	if n.Object == document.ObjectText && len(nodes) > 0 && nodes[len(nodes)-1].Object == document.ObjectText {
		last := &nodes[len(nodes)-1]
		for _, l := range n.Leaves {
			if k := len(last.Leaves); k > 0 && sameMarks(last.Leaves[k-1].Marks, l.Marks) {
				last.Leaves[k-1].Text += l.Text
			} else {
				last.Leaves = append(last.Leaves, l)
			}
		}
		return nodes
	}
	return append(nodes, n)
}

// withEdges puts the empty text nodes a document has around inlines.
func withEdges(nodes []document.Node) []document.Node {
	var out []document.Node
	for i, n := range nodes {
		if n.Object == document.ObjectInline && (i == 0 || nodes[i-1].Object != document.ObjectText) {
			out = append(out, document.NewText(""))
		}
		out = append(out, n)
	}
	if len(out) == 0 || out[len(out)-1].Object == document.ObjectInline {
		out = append(out, document.NewText(""))
	}
	return out
}

func sameMarks(a, b []document.Mark) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Type != b[i].Type || fmt.Sprint(a[i].Data) != fmt.Sprint(b[i].Data) {
			return false
		}
	}
	return true
}

// mergeMarks adds to a kept leaf's marks those around it in the answer
// that it lacks.
func mergeMarks(outer, own []document.Mark) []document.Mark {
	out := append([]document.Mark{}, own...)
	for _, m := range outer {
		has := false
		for _, o := range own {
			has = has || o.Type == m.Type
		}
		if !has {
			out = append(out, m)
		}
	}
	return out
}

func markOfTag(tag string) string {
	switch tag {
	case "b", "strong":
		return document.MarkBold
	case "i", "em":
		return document.MarkItalic
	case "s", "del", "strike":
		return document.MarkStrikethrough
	case "sup":
		return document.MarkSuperscript
	case "sub":
		return document.MarkSubscript
	}
	return ""
}

func attrInt(tok xhtml.Token, name string) (int, bool) {
	for _, a := range tok.Attr {
		if a.Key == name {
			n, err := strconv.Atoi(a.Val)
			return n, err == nil && n >= 0
		}
	}
	return 0, false
}
