package document

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

type inlineMode int

const (
	modePara    inlineMode = iota // paragraph: may span lines
	modeHeading                   // one line after "#"
	modeTable                     // one table cell
	modeSummary                   // one line parsed on its own (expandable title)
)

type emitter struct {
	out       []byte
	mode      inlineMode
	lineStart bool
	inLink    bool
}

func renderInline(nodes []Node, mode inlineMode) string {
	e := &emitter{mode: mode, lineStart: mode == modePara || mode == modeSummary}
	e.runs(flattenRuns(nodes), nil)
	s := strings.TrimRight(string(e.out), " \t")
	if mode == modePara {
		// A trailing hard break means nothing.
		for {
			switch {
			case strings.HasSuffix(s, "\\\n") && !strings.HasSuffix(s, "\\\\\n"):
				s = strings.TrimRight(s[:len(s)-2], " \t")
				continue
			case strings.HasSuffix(s, "  \n"):
				s = strings.TrimRight(s[:len(s)-3], " \t")
				continue
			}
			break
		}
	} else {
		s = strings.TrimLeft(s, " \t")
		for strings.HasSuffix(s, "<br>") {
			s = strings.TrimRight(s[:len(s)-4], " \t")
		}
		for strings.HasPrefix(s, "<br>") {
			s = strings.TrimLeft(s[4:], " \t")
		}
	}
	if mode == modeHeading && strings.HasSuffix(s, "#") {
		// Keep a trailing "#" from reading as a closing sequence.
		i := len(s)
		for i > 0 && s[i-1] == '#' {
			i--
		}
		if i == 0 || s[i-1] == ' ' || s[i-1] == '\t' {
			s = s[:i] + `\` + s[i:]
		}
	}
	return s
}

func markSet(marks []Mark) map[string]bool {
	s := map[string]bool{}
	for _, m := range marks {
		s[markKey(m)] = true
	}
	return s
}

// linkMarks is the set of marks shared by all the text of a link.
func linkMarks(n *Node) []Mark {
	var common []Mark
	first := true
	for _, r := range flattenRuns(n.Nodes) {
		if r.atom != nil {
			continue
		}
		if first {
			common = append(common, r.marks...)
			first = false
			continue
		}
		var keep []Mark
		rs := markSet(r.marks)
		for _, m := range common {
			if rs[markKey(m)] {
				keep = append(keep, m)
			}
		}
		common = keep
	}
	return common
}

// runHas reports whether run r carries mark key k; atoms other than links
// are neutral.
func runHas(r run, k string) bool {
	if r.atom == nil {
		return markSet(r.marks)[k]
	}
	if r.atom.Type == InlineLink {
		return markSet(linkMarks(r.atom))[k]
	}
	return true
}

func without(marks []Mark, outer map[string]bool) []Mark {
	var out []Mark
	for _, m := range marks {
		if !outer[markKey(m)] {
			out = append(out, m)
		}
	}
	return out
}

func intersect(a []Mark, b []Mark) []Mark {
	bs := markSet(b)
	var out []Mark
	for _, m := range a {
		if bs[markKey(m)] {
			out = append(out, m)
		}
	}
	return out
}

// openOrder ranks marks opened together: HTML-like marks outside
// emphasis.
var openOrder = map[string]int{
	MarkColor: 0, MarkKeyboard: 1, MarkSuperscript: 2, MarkSubscript: 3,
	MarkStrikethrough: 4, MarkBold: 5, MarkItalic: 6,
}

func opener(m Mark) string {
	switch m.Type {
	case MarkBold:
		return "**"
	case MarkItalic:
		return "*"
	case MarkStrikethrough:
		return "~~"
	case MarkKeyboard:
		return "<kbd>"
	case MarkSuperscript:
		return "<sup>"
	case MarkSubscript:
		return "<sub>"
	case MarkColor:
		style := ""
		if t, _ := m.Data["text"].(string); t != "" && t != "default" {
			style += "color:" + t + ";"
		}
		if bg, _ := m.Data["background"].(string); bg != "" && bg != "default" {
			style += "background-color:" + bg + ";"
		}
		if style == "" {
			return "<mark>"
		}
		return `<mark style="` + style + `">`
	}
	return ""
}

func closer(m Mark) string {
	switch m.Type {
	case MarkBold:
		return "**"
	case MarkItalic:
		return "*"
	case MarkStrikethrough:
		return "~~"
	case MarkKeyboard:
		return "</kbd>"
	case MarkSuperscript:
		return "</sup>"
	case MarkSubscript:
		return "</sub>"
	case MarkColor:
		return "</mark>"
	}
	return ""
}

func (e *emitter) write(s string) {
	if s == "" {
		return
	}
	e.out = append(e.out, s...)
	e.lineStart = false
}

// sync closes and opens marks so that exactly want is open. Marks to open
// are ordered by how long they stay open from run i on.
func (e *emitter) sync(stack *[]Mark, want []Mark, rs []run, i int) {
	ws := markSet(want)
	cut := len(*stack)
	for j, m := range *stack {
		if !ws[markKey(m)] {
			cut = j
			break
		}
	}
	for j := len(*stack) - 1; j >= cut; j-- {
		e.write(closer((*stack)[j]))
	}
	*stack = (*stack)[:cut]
	open := markSet(*stack)
	var toOpen []Mark
	for _, m := range want {
		if !open[markKey(m)] {
			toOpen = append(toOpen, m)
		}
	}
	if len(toOpen) == 0 {
		return
	}
	span := map[string]int{}
	for _, m := range toOpen {
		k := markKey(m)
		n := 0
		for j := i; j < len(rs) && runHas(rs[j], k); j++ {
			n++
		}
		span[k] = n
	}
	sort.SliceStable(toOpen, func(a, b int) bool {
		sa, sb := span[markKey(toOpen[a])], span[markKey(toOpen[b])]
		if sa != sb {
			return sa > sb
		}
		return openOrder[toOpen[a].Type] < openOrder[toOpen[b].Type]
	})
	// A closing run followed by an opening run of the same character would
	// read as one delimiter run; an empty comment keeps them apart.
	if k := len(e.out); k > 0 && (e.out[k-1] == '*' || e.out[k-1] == '~') &&
		opener(toOpen[0])[0] == e.out[k-1] && (k < 2 || e.out[k-2] != '\\') {
		e.write("<!-- -->")
	}
	for _, m := range toOpen {
		e.write(opener(m))
		*stack = append(*stack, m)
	}
}

func splitSpace(s string) (lead, core, trail string) {
	start := 0
	for start < len(s) {
		r, size := utf8.DecodeRuneInString(s[start:])
		if !unicode.IsSpace(r) {
			break
		}
		start += size
	}
	end := len(s)
	for end > start {
		r, size := utf8.DecodeLastRuneInString(s[:end])
		if !unicode.IsSpace(r) {
			break
		}
		end -= size
	}
	return s[:start], s[start:end], s[end:]
}

// runs emits runs; outer holds marks already open around them (inside a
// link).
func (e *emitter) runs(rs []run, outer map[string]bool) {
	var stack []Mark
	stackOuter := func() map[string]bool {
		m := map[string]bool{}
		for k := range outer {
			m[k] = true
		}
		for _, s := range stack {
			m[markKey(s)] = true
		}
		return m
	}
	for i, r := range rs {
		nextIsLink := i+1 < len(rs) && rs[i+1].atom != nil && rs[i+1].atom.Type == InlineLink
		if r.atom != nil {
			if r.atom.Type == InlineLink {
				e.sync(&stack, intersect(stack, linkMarks(r.atom)), rs, i)
				e.link(r.atom, stackOuter())
			} else {
				e.atom(r.atom, stackOuter())
			}
			continue
		}
		want := without(r.marks, outer)
		if r.code {
			e.sync(&stack, want, rs, i)
			e.code(r.text)
			continue
		}
		lead, core, trail := splitSpace(r.text)
		if core == "" {
			e.sync(&stack, intersect(want, stack), rs, i)
			e.text(r.text, nextIsLink)
			continue
		}
		if lead != "" {
			e.sync(&stack, intersect(want, stack), rs, i)
			e.text(lead, false)
		}
		e.sync(&stack, want, rs, i)
		e.text(core, nextIsLink && trail == "")
		if trail != "" {
			var next []Mark
			if i+1 < len(rs) {
				nr := rs[i+1]
				switch {
				case nr.atom == nil:
					next = without(nr.marks, outer)
				case nr.atom.Type == InlineLink:
					next = linkMarks(nr.atom)
				default:
					next = want
				}
			}
			e.sync(&stack, intersect(want, next), rs, i+1)
			e.text(trail, nextIsLink)
		}
	}
	for j := len(stack) - 1; j >= 0; j-- {
		e.write(closer(stack[j]))
	}
}

func (e *emitter) hardBreak() {
	if e.mode != modePara {
		e.write("<br>")
		return
	}
	if len(e.out) > 0 && e.out[len(e.out)-1] == '\\' {
		e.out = append(e.out, "  \n"...)
	} else {
		e.out = append(e.out, "\\\n"...)
	}
	e.lineStart = true
}

func (e *emitter) text(s string, beforeLink bool) {
	parts := strings.Split(s, "\n")
	for i, part := range parts {
		if i > 0 {
			e.hardBreak()
		}
		if e.lineStart {
			part = strings.TrimLeft(part, " \t")
			if part == "" {
				continue
			}
		}
		last := i == len(parts)-1
		e.write(escapeTextIn(part, e.mode, e.lineStart, beforeLink && last, e.inLink))
	}
}

func (e *emitter) code(s string) {
	for i, part := range strings.Split(s, "\n") {
		if i > 0 {
			e.hardBreak()
		}
		if part == "" {
			continue
		}
		e.write(codeSpan(part, e.mode))
	}
}

func codeSpan(s string, mode inlineMode) string {
	if mode == modeTable {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	pad := ""
	if s[0] == '`' || s[len(s)-1] == '`' || (s[0] == ' ' && s[len(s)-1] == ' ' && strings.Trim(s, " ") != "") {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

func (e *emitter) link(n *Node, outer map[string]bool) {
	if k := len(e.out); k > 0 && e.out[k-1] == '!' && (k < 2 || e.out[k-2] != '\\') {
		e.out = append(e.out[:k-1], `\!`...)
	}
	r, _ := n.Ref()
	e.write("[")
	e.inLink = true
	e.runs(flattenRuns(n.Nodes), outer)
	e.inLink = false
	e.write("](" + escapeDest(r.MarkdownURL(), e.mode) + ")")
}

func (e *emitter) atom(n *Node, outer map[string]bool) {
	switch n.Type {
	case InlineMath:
		f := dataString(n, "formula")
		if !inlineFormulaOK(f) {
			e.text(f, false)
			return
		}
		f = strings.ReplaceAll(f, "\n", " ")
		if e.mode == modeTable {
			f = strings.ReplaceAll(f, "|", `\|`)
		}
		e.write("$$" + f + "$$")
	case InlineImage:
		r, _ := n.Ref()
		e.write(imageMarkdown(dataString(n, "alt"), r.MarkdownURL(), dataString(n, "caption"), e.mode))
	case InlineEmoji:
		e.text(emojiText(dataString(n, "code")), false)
	case InlineMention, InlineButton:
		r, ok := n.Ref()
		if !ok {
			return
		}
		label := dataString(n, "label")
		if label == "" {
			label = r.MarkdownURL()
		}
		e.link(&Node{Object: ObjectInline, Type: InlineLink, Data: n.Data, Nodes: []Node{NewText(label)}}, outer)
	case InlineLink:
		e.link(n, outer)
	}
}
