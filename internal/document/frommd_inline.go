package document

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

func withMark(marks []Mark, m Mark) []Mark {
	out := make([]Mark, 0, len(marks)+1)
	out = append(out, marks...)
	return append(out, m)
}

var (
	htmlBreak    = regexp.MustCompile(`(?i)^<br\s*/?>$`)
	htmlMarkOpen = regexp.MustCompile(`(?i)^<(kbd|sup|sub|mark)(\s+style\s*=\s*"([^"]*)")?\s*>$`)
	htmlMarkEnd  = regexp.MustCompile(`(?i)^</(kbd|sup|sub|mark)\s*>$`)
)

var htmlTagMark = map[string]string{"kbd": MarkKeyboard, "sup": MarkSuperscript, "sub": MarkSubscript, "mark": MarkColor}

// inlineSink collects converted inline content. Adjacent text under the
// same marks becomes one text node as it comes: a paragraph of many short
// lines or entities is one run of text, and a node per piece would cost
// memory many times its size before normalizeInlines merged them.
type inlineSink struct {
	out     []Node
	pending strings.Builder
	marks   []Mark
	open    bool // pending holds text under marks
	// c counts the nodes (see converter.counted); nil for text that
	// makes no nodes, such as alt text.
	c *converter
}

func (s *inlineSink) text(text string, marks []Mark) {
	if s.open && !sameRawMarks(s.marks, marks) {
		s.flush()
	}
	if !s.open {
		s.marks, s.open = marks, true
	}
	s.pending.WriteString(text)
}

func (s *inlineSink) node(n Node) {
	s.flush()
	s.count()
	s.out = append(s.out, n)
}

func (s *inlineSink) flush() {
	if s.open {
		if k := len(s.out); k == 0 || s.out[k-1].Object != ObjectText {
			// Adjacent text nodes become one.
			s.count()
		}
		s.out = append(s.out, NewText(s.pending.String(), s.marks...))
		s.pending.Reset()
		s.open = false
	}
}

func (s *inlineSink) count() {
	if s.c != nil {
		s.c.counted(1)
	}
}

// nodes returns the content collected so far.
func (s *inlineSink) nodes() []Node {
	s.flush()
	return s.out
}

// sameRawMarks reports equal mark lists, order and repeats included: text
// under equal lists normalizes alike.
func sameRawMarks(a, b []Mark) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	for i := range a {
		if markKey(a[i]) != markKey(b[i]) {
			return false
		}
	}
	return true
}

// htmlMarks are the marks that raw HTML tags among a run of siblings have
// opened and not closed: a stack per tag, so that a closing tag ends the
// latest of its kind. Only the latest of each kind applies.
type htmlMarks struct {
	open map[string][]Mark // by mark type
	// order lists the mark types by when their latest mark opened.
	order []string
}

func (h *htmlMarks) push(m Mark) {
	if h.open == nil {
		h.open = map[string][]Mark{}
	}
	h.open[m.Type] = append(h.open[m.Type], m)
	h.order = append(slices.DeleteFunc(h.order, func(t string) bool { return t == m.Type }), m.Type)
}

// pop closes the latest mark of type typ, reporting whether one was open.
func (h *htmlMarks) pop(typ string) bool {
	st := h.open[typ]
	if len(st) == 0 {
		return false
	}
	h.open[typ] = st[:len(st)-1]
	if len(st) == 1 {
		h.order = slices.DeleteFunc(h.order, func(t string) bool { return t == typ })
	}
	return true
}

// over returns marks with the open HTML marks added, innermost: the latest
// of each kind, which is the one normalizeMarks keeps.
func (h *htmlMarks) over(marks []Mark) []Mark {
	out := make([]Mark, 0, len(marks)+len(h.order))
	out = append(out, marks...)
	for _, t := range h.order {
		st := h.open[t]
		out = append(out, st[len(st)-1])
	}
	return out
}

// inlineChildren converts the inline children of parent under marks.
// Raw HTML <kbd>, <sup>, <sub> and <mark style="..."> toggle marks over the
// siblings that follow them.
func (c *converter) inlineChildren(parent ast.Node, marks []Mark, out *inlineSink) {
	var html htmlMarks
	for n := parent.FirstChild(); n != nil && c.guard.err == nil; n = n.NextSibling() {
		cur := marks
		if len(html.order) > 0 {
			cur = html.over(marks)
		}
		switch x := n.(type) {
		case *ast.Text:
			s := x.Segment.Value(c.src)
			if x.IsRaw() {
				out.text(string(s), cur)
			} else {
				out.text(unescape(string(s)), cur)
			}
			if x.HardLineBreak() {
				out.text("\n", cur)
			} else if x.SoftLineBreak() {
				out.text(" ", cur)
			}
		case *ast.String:
			if x.IsRaw() || x.IsCode() {
				out.text(string(x.Value), cur)
			} else {
				out.text(unescape(string(x.Value)), cur)
			}
		case *ast.Emphasis:
			m := MarkItalic
			if x.Level >= 2 {
				m = MarkBold
			}
			c.inlineChildren(x, withMark(cur, Mark{Type: m}), out)
		case *east.Strikethrough:
			c.inlineChildren(x, withMark(cur, Mark{Type: MarkStrikethrough}), out)
		case *ast.CodeSpan:
			var b strings.Builder
			for t := x.FirstChild(); t != nil; t = t.NextSibling() {
				if tt, ok := t.(*ast.Text); ok {
					b.Write(tt.Segment.Value(c.src))
				} else if s, ok := t.(*ast.String); ok {
					b.Write(s.Value)
				}
			}
			code := strings.ReplaceAll(b.String(), "\n", " ")
			out.text(code, withMark(cur, Mark{Type: MarkCode}))
		case *ast.Link:
			inner := inlineSink{c: c}
			c.inlineChildren(x, cur, &inner)
			ref := c.refFromURL(unescape(string(x.Destination)))
			out.node(Node{Object: ObjectInline, Type: InlineLink, Data: map[string]any{"ref": ref.Map()},
				Nodes: linkContent(normalizeInlines(inner.nodes()))})
		case *ast.AutoLink:
			label := string(x.Label(c.src))
			u := string(x.URL(c.src))
			if x.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(u), "mailto:") {
				u = "mailto:" + u
			}
			ref := RefFromURL(u)
			out.node(Node{Object: ObjectInline, Type: InlineLink, Data: map[string]any{"ref": ref.Map()},
				Nodes: []Node{NewText(label, cur...)}})
		case *ast.Image:
			out.node(Node{Object: ObjectInline, Type: InlineImage, Data: c.imageData(x), IsVoid: true})
		case *ast.RawHTML:
			var b strings.Builder
			for i := 0; i < x.Segments.Len(); i++ {
				seg := x.Segments.At(i)
				b.Write(seg.Value(c.src))
			}
			raw := b.String()
			tag := strings.TrimSpace(raw)
			switch {
			case strings.HasPrefix(tag, "<!--"):
			case htmlBreak.MatchString(tag):
				out.text("\n", cur)
			case htmlMarkOpen.MatchString(tag):
				m := htmlMarkOpen.FindStringSubmatch(tag)
				mk := Mark{Type: htmlTagMark[strings.ToLower(m[1])]}
				if mk.Type == MarkColor {
					mk.Data = colorData(m[3])
				}
				html.push(mk)
			case htmlMarkEnd.MatchString(tag):
				typ := htmlTagMark[strings.ToLower(htmlMarkEnd.FindStringSubmatch(tag)[1])]
				if !html.pop(typ) {
					out.text(raw, cur)
				}
			default:
				out.text(raw, cur)
			}
		case *east.TaskCheckBox:
		case *inlineMathNode:
			out.node(Node{Object: ObjectInline, Type: InlineMath, IsVoid: true,
				Data: map[string]any{"formula": x.formula}})
		default:
			c.inlineChildren(n, cur, out)
		}
	}
}

func colorData(style string) map[string]any {
	data := map[string]any{"text": "default", "background": "default"}
	for _, decl := range strings.Split(style, ";") {
		prop, v, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		prop, v = strings.TrimSpace(prop), strings.ToLower(strings.TrimSpace(v))
		known := false
		for _, c := range textColors {
			known = known || c == v
		}
		if !known {
			continue
		}
		switch strings.ToLower(prop) {
		case "color":
			data["text"] = v
		case "background-color", "background":
			data["background"] = v
		}
	}
	return data
}

// linkContent keeps what a link may hold (text and inline images) and
// flattens the rest into text.
func linkContent(nodes []Node) []Node {
	var out []Node
	for _, n := range nodes {
		switch {
		case n.Object == ObjectText, n.Type == InlineImage:
			out = append(out, n)
		case n.Type == InlineMath:
			f, _ := n.Data["formula"].(string)
			out = append(out, NewText(f))
		default:
			out = append(out, linkContent(n.Nodes)...)
		}
	}
	return normalizeInlines(out)
}

var markOrder = map[string]int{
	MarkBold: 0, MarkItalic: 1, MarkStrikethrough: 2, MarkCode: 3,
	MarkKeyboard: 4, MarkSuperscript: 5, MarkSubscript: 6, MarkColor: 7,
}

// normalizeMarks sorts marks into canonical order and keeps one per type
// (the innermost color wins).
func normalizeMarks(marks []Mark) []Mark {
	out := make([]Mark, 0, min(len(marks), len(markOrder)))
	var seen map[string]bool // types other than the first
	for i := len(marks) - 1; i >= 0; i-- {
		t := marks[i].Type
		dup := false
		if seen != nil {
			dup = seen[t]
		} else {
			for _, m := range out {
				dup = dup || m.Type == t
			}
		}
		if dup {
			continue
		}
		out = append(out, marks[i])
		if len(out) == len(markOrder) && seen == nil {
			// Marks of unknown types (in documents built in code) can make
			// the list long: count them in a set from here on.
			seen = map[string]bool{}
			for _, m := range out {
				seen[m.Type] = true
			}
		} else if seen != nil {
			seen[t] = true
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return markOrder[out[i].Type] < markOrder[out[j].Type] })
	return out
}

func sameMarks(a, b []Mark) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if markKey(a[i]) != markKey(b[i]) {
			return false
		}
	}
	return true
}

func markKey(m Mark) string {
	if m.Type != MarkColor {
		return m.Type
	}
	t, _ := m.Data["text"].(string)
	bg, _ := m.Data["background"].(string)
	return m.Type + ":" + t + ":" + bg
}

// normalizeInlines merges adjacent text nodes into one, merges adjacent
// leaves with equal marks and drops empty leaves.
func normalizeInlines(nodes []Node) []Node {
	var out []Node
	// merged holds the text of the last leaf while leaves merge into it,
	// so that n leaves cost their length once rather than n times.
	var merged strings.Builder
	merging := false
	flush := func() {
		if merging {
			last := &out[len(out)-1]
			last.Leaves[len(last.Leaves)-1].Text = merged.String()
			merged.Reset()
			merging = false
		}
	}
	for _, n := range nodes {
		if n.Object != ObjectText {
			flush()
			out = append(out, n)
			continue
		}
		for _, l := range n.Leaves {
			if l.Text == "" {
				continue
			}
			l.Marks = normalizeMarks(l.Marks)
			if len(out) == 0 || out[len(out)-1].Object != ObjectText {
				out = append(out, Node{Object: ObjectText, Leaves: []Leaf{l}})
				continue
			}
			last := &out[len(out)-1]
			prev := &last.Leaves[len(last.Leaves)-1]
			if !sameMarks(prev.Marks, l.Marks) {
				flush()
				last.Leaves = append(last.Leaves, l)
				continue
			}
			if !merging {
				merged.WriteString(prev.Text)
				merging = true
			}
			merged.WriteString(l.Text)
		}
	}
	flush()
	return out
}

func hasMark(marks []Mark, typ string) bool {
	for _, m := range marks {
		if m.Type == typ {
			return true
		}
	}
	return false
}

// trimEdges removes line breaks and spaces at the start and end of a block's
// inline content (outside code).
func trimEdges(nodes []Node) []Node {
	for len(nodes) > 0 && nodes[0].Object == ObjectText {
		t := &nodes[0]
		for len(t.Leaves) > 0 && !hasMark(t.Leaves[0].Marks, MarkCode) {
			t.Leaves[0].Text = strings.TrimLeft(t.Leaves[0].Text, " \t\n")
			if t.Leaves[0].Text != "" {
				break
			}
			t.Leaves = t.Leaves[1:]
		}
		if len(t.Leaves) > 0 {
			break
		}
		nodes = nodes[1:]
	}
	for len(nodes) > 0 && nodes[len(nodes)-1].Object == ObjectText {
		t := &nodes[len(nodes)-1]
		for len(t.Leaves) > 0 && !hasMark(t.Leaves[len(t.Leaves)-1].Marks, MarkCode) {
			l := &t.Leaves[len(t.Leaves)-1]
			l.Text = strings.TrimRight(l.Text, " \t\n")
			if l.Text != "" {
				break
			}
			t.Leaves = t.Leaves[:len(t.Leaves)-1]
		}
		if len(t.Leaves) > 0 {
			break
		}
		nodes = nodes[:len(nodes)-1]
	}
	return nodes
}

// unescape resolves backslash escapes and entity references the way
// CommonMark text does.
func unescape(s string) string {
	if !strings.ContainsAny(s, "\\&") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && util.IsPunct(s[i+1]) {
			b.WriteByte(s[i+1])
			i++
			continue
		}
		if c == '&' {
			if r, n := entityAt(s[i:]); n > 0 {
				b.WriteString(r)
				i += n - 1
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

var entityPattern = regexp.MustCompile(`^&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([A-Za-z][A-Za-z0-9]*));`)

// entityAt decodes an entity reference at the start of s.
func entityAt(s string) (string, int) {
	m := entityPattern.FindStringSubmatch(s)
	if m == nil {
		return "", 0
	}
	var r uint64
	switch {
	case m[1] != "":
		r, _ = strconv.ParseUint(m[1], 16, 32)
	case m[2] != "":
		r, _ = strconv.ParseUint(m[2], 10, 32)
	default:
		e, ok := util.LookUpHTML5EntityByName(m[3])
		if !ok {
			return "", 0
		}
		return string(e.Characters), len(m[0])
	}
	if r == 0 || r > utf8.MaxRune || (r >= 0xD800 && r <= 0xDFFF) {
		return "\uFFFD", len(m[0])
	}
	return string(rune(r)), len(m[0])
}
