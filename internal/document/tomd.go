package document

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ToMarkdown renders a document as Markdown, in the spellings FromMarkdown
// reads (see markdown.go). Blocks Markdown cannot express (OpenAPI blocks,
// integrations, reusable content, drawings) are rendered as a link to what
// they reference, or omitted.
func ToMarkdown(d *Document) string {
	if d == nil {
		return ""
	}
	s := renderBlocks(d.Nodes)
	if s == "" {
		return ""
	}
	return s + "\n"
}

func renderBlocks(nodes []Node) string { return renderBlocksIn(nodes, false) }

// renderBlocksIn joins rendered blocks with blank lines. In a list item
// (inItem), a list right after a paragraph follows it on the next line, so
// nested lists stay tight.
func renderBlocksIn(nodes []Node, inItem bool) string {
	var b strings.Builder
	var prevBullet, prevDelim byte
	prevPara := false
	var parts []string
	add := func(n *Node, s string) {
		sep := "\n\n"
		if inItem && prevPara && canInterruptParagraph(n, s) {
			sep = "\n"
		}
		if len(parts) > 0 {
			b.WriteString(sep)
		}
		b.WriteString(s)
		parts = append(parts, s)
		prevPara = n.Type == BlockParagraph
	}
	for i := range nodes {
		n := &nodes[i]
		var s string
		switch n.Type {
		case BlockListUnordered, BlockListTasks:
			// Adjacent lists with the same marker would merge.
			bullet := byte('-')
			if prevBullet == '-' {
				bullet = '*'
			}
			if s = renderList(n, bullet, '.'); s != "" {
				add(n, s)
				prevBullet, prevDelim = bullet, 0
			}
			continue
		case BlockListOrdered:
			delim := byte('.')
			if prevDelim == '.' {
				delim = ')'
			}
			if s = renderList(n, '-', delim); s != "" {
				add(n, s)
				prevBullet, prevDelim = 0, delim
			}
			continue
		}
		if s = renderBlock(n); s != "" {
			add(n, s)
			prevBullet, prevDelim = 0, 0
		}
	}
	return b.String()
}

// canInterruptParagraph reports whether rendered list s may follow a
// paragraph line directly: a bullet list, or an ordered list starting at 1,
// whose first item is not empty.
func canInterruptParagraph(n *Node, s string) bool {
	switch n.Type {
	case BlockListUnordered, BlockListTasks:
	case BlockListOrdered:
		if !strings.HasPrefix(s, "1. ") && !strings.HasPrefix(s, "1) ") {
			return false
		}
	default:
		return false
	}
	first, _, _ := strings.Cut(s, "\n")
	return !emptyItemLine.MatchString(first)
}

var emptyItemLine = regexp.MustCompile(`^([-*]|\d+[.)])( \[[ x]\])?$`)

func dataString(n *Node, key string) string {
	s, _ := n.Data[key].(string)
	return s
}

func renderBlock(n *Node) string {
	switch n.Type {
	case BlockParagraph:
		return renderInline(n.Nodes, modePara)
	case BlockHeading1, BlockHeading2, BlockHeading3:
		level := map[string]int{BlockHeading1: 1, BlockHeading2: 2, BlockHeading3: 3}[n.Type]
		s := strings.Repeat("#", level)
		if content := renderInline(n.Nodes, modeHeading); content != "" {
			s += " " + content
		}
		if id := dataString(n, "id"); headingIDPattern.MatchString(id) {
			s += " {#" + id + "}"
		}
		return s
	case BlockDivider:
		return "---"
	case BlockCode:
		return renderCode(n)
	case BlockQuote:
		body := renderBlocks(n.Nodes)
		if body == "" {
			return ">"
		}
		return prefixLines(body, "> ", ">")
	case BlockHint:
		style := dataString(n, "style")
		if style == "" {
			style = HintInfo
		}
		return liquid("hint", []string{"style", style}, renderBlocks(n.Nodes))
	case BlockImages:
		return renderImages(n.Nodes)
	case BlockImage:
		return renderImages([]Node{*n})
	case BlockFile:
		r, _ := n.Ref()
		caption := strings.Join(strings.Fields(dataString(n, "caption")), " ")
		return liquid("file", []string{"src", r.MarkdownURL()}, caption)
	case BlockContentRef:
		r, _ := n.Ref()
		u := r.MarkdownURL()
		return liquid("content-ref", []string{"url", u}, "["+escapeTextIn(u, modePara, false, false, true)+"]("+escapeDest(u, modePara)+")")
	case BlockEmbed:
		return `{% embed url="` + escapeAttr(dataString(n, "url")) + `" %}`
	case BlockMath:
		return "$$\n" + dataString(n, "formula") + "\n$$"
	case BlockExpandable:
		return renderExpandable(n)
	case BlockTabs:
		return renderItems(n, "tabs", "tab", "title")
	case BlockStepper:
		return renderItems(n, "stepper", "step", "")
	case BlockColumns:
		return renderItems(n, "columns", "column", "")
	case BlockTable:
		return renderTable(n)
	case BlockDrawing:
		if r, ok := n.Ref(); ok {
			return "![](" + escapeDest(r.MarkdownURL(), modePara) + ")"
		}
		return ""
	case BlockSwagger, BlockOpenAPIOperation, BlockOpenAPISchemas, BlockOpenAPIWebhook, BlockReusableContent:
		if r, ok := n.Ref(); ok {
			u := r.MarkdownURL()
			return "[" + escapeTextIn(u, modePara, false, false, true) + "](" + escapeDest(u, modePara) + ")"
		}
		return ""
	case BlockCodeLine:
		return renderInline(n.Nodes, modePara)
	case BlockIntegration:
		return ""
	}
	return renderBlocks(n.Nodes)
}

// liquid renders {% name k="v" %}\nbody\n{% endname %}.
func liquid(name string, attrs []string, body string) string {
	var b strings.Builder
	b.WriteString("{% " + name)
	for i := 0; i+1 < len(attrs); i += 2 {
		b.WriteString(" " + attrs[i] + `="` + escapeAttr(attrs[i+1]) + `"`)
	}
	b.WriteString(" %}\n")
	if body != "" {
		b.WriteString(body + "\n")
	}
	b.WriteString("{% end" + name + " %}")
	return b.String()
}

func escapeAttr(s string) string {
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }), " ")
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}

func prefixLines(s, prefix, emptyPrefix string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l == "" {
			lines[i] = emptyPrefix
		} else {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}

func renderList(n *Node, bullet, delim byte) string {
	start := 1
	if n.Type == BlockListOrdered {
		if s, ok := n.Data["start"].(float64); ok && s >= 0 && s == math.Trunc(s) && s < 1e8 {
			start = int(s)
		}
	}
	var items []string
	for i := range n.Nodes {
		it := &n.Nodes[i]
		marker := string(bullet)
		if n.Type == BlockListOrdered {
			marker = strconv.Itoa(start+i) + string(delim)
		}
		var content string
		if it.Type == BlockListItem {
			content = renderBlocksIn(it.Nodes, true)
		} else {
			content = renderBlock(it)
		}
		// A divider right after the marker would read as a thematic break.
		if content == "---" || strings.HasPrefix(content, "---\n") {
			content = "___" + content[3:]
		}
		if content == "" && n.Type != BlockListTasks {
			// goldmark ends the enclosing list item after an empty item
			// followed by a blank line; an invisible comment keeps the item
			// non-empty for the parser.
			content = "<!-- -->"
		}
		width := len(marker) + 1
		first := marker
		if n.Type == BlockListTasks {
			box := "[ ]"
			if checked, _ := it.Data["checked"].(bool); checked {
				box = "[x]"
			}
			first += " " + box
			if content != "" && (len(it.Nodes) == 0 || it.Nodes[0].Type != BlockParagraph ||
				renderBlock(&it.Nodes[0]) == "") {
				// The checkbox must open a paragraph: give it its own.
				content = "\n\n" + content
			}
		}
		items = append(items, indentItem(first, width, content))
	}
	return strings.Join(items, "\n")
}

func indentItem(first string, width int, content string) string {
	if content == "" {
		return first
	}
	lines := strings.Split(content, "\n")
	var b strings.Builder
	b.WriteString(first)
	if lines[0] != "" {
		b.WriteString(" " + lines[0])
	}
	pad := strings.Repeat(" ", width)
	for _, l := range lines[1:] {
		b.WriteByte('\n')
		if l != "" {
			b.WriteString(pad + l)
		}
	}
	return b.String()
}

func longestRun(s string, c byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

func renderCode(n *Node) string {
	lines := make([]string, len(n.Nodes))
	for i := range n.Nodes {
		lines[i] = inlineText(n.Nodes[i].Nodes)
	}
	content := strings.Join(lines, "\n")
	syntax := ""
	if f := strings.Fields(dataString(n, "syntax")); len(f) > 0 {
		syntax = strings.NewReplacer(`\`, `\\`, `&`, `\&`).Replace(f[0])
	}
	fc := byte('`')
	if strings.ContainsRune(syntax, '`') {
		fc = '~'
	}
	fence := strings.Repeat(string(fc), max(3, longestRun(content, fc)+1))
	s := fence + syntax + "\n"
	if len(n.Nodes) > 0 {
		s += content + "\n"
	}
	s += fence
	var attrs []string
	if t := dataString(n, "title"); t != "" {
		attrs = append(attrs, "title", t)
	}
	if o := dataString(n, "overflow"); o != "" {
		attrs = append(attrs, "overflow", o)
	}
	for _, k := range []string{"lineNumbers", "fullWidth", "expandable"} {
		if b, ok := n.Data[k].(bool); ok {
			attrs = append(attrs, k, strconv.FormatBool(b))
		}
	}
	if len(attrs) > 0 {
		return liquid("code", attrs, s)
	}
	return s
}

func renderImages(imgs []Node) string {
	var lines []string
	for i := range imgs {
		img := &imgs[i]
		r, _ := img.Ref()
		alt := strings.Join(strings.Fields(dataString(img, "alt")), " ")
		caption := ""
		if f, ok := img.FragmentByName(FragmentCaption); ok {
			caption = inlineText(blockInlinesAll(f.Nodes))
		}
		lines = append(lines, imageMarkdown(alt, r.MarkdownURL(), caption, modePara))
	}
	return strings.Join(lines, "\n")
}

func imageMarkdown(alt, dest, caption string, mode inlineMode) string {
	s := "![" + escapeTextIn(alt, mode, false, false, true) + "](" + escapeDest(dest, mode)
	if c := strings.Join(strings.Fields(caption), " "); c != "" {
		s += ` "` + escapeTitle(c, mode) + `"`
	}
	return s + ")"
}

func renderExpandable(n *Node) string {
	title := ""
	if f, ok := n.FragmentByName(FragmentExpandableTitle); ok {
		title = renderInline(blockInlinesAll(f.Nodes), modeSummary)
	}
	body := ""
	if f, ok := n.FragmentByName(FragmentExpandableBody); ok {
		body = renderBlocks(f.Nodes)
	}
	s := "<details><summary>" + title + "</summary>\n\n"
	if body != "" {
		s += body + "\n\n"
	}
	return s + "</details>"
}

func renderItems(n *Node, container, item, attr string) string {
	var parts []string
	for i := range n.Nodes {
		it := &n.Nodes[i]
		var attrs []string
		if attr != "" {
			attrs = []string{attr, dataString(it, attr)}
		}
		parts = append(parts, liquid(item, attrs, renderBlocks(it.Nodes)))
	}
	return liquid(container, nil, strings.Join(parts, "\n\n"))
}

func renderTable(n *Node) string {
	t := layoutTable(n)
	if len(t.cols) == 0 {
		return ""
	}
	row := func(cells []string) string {
		return "| " + strings.Join(cells, " | ") + " |"
	}
	var lines []string
	cells := make([]string, len(t.cols))
	delims := make([]string, len(t.cols))
	for i, c := range t.cols {
		cells[i] = escapeText(strings.Join(strings.Fields(c.title), " "), modeTable, false, false)
		switch c.align {
		case "center":
			delims[i] = ":-:"
		case "right":
			delims[i] = "--:"
		default:
			delims[i] = "---"
		}
	}
	lines = append(lines, row(cells), row(delims))
	for _, r := range t.rows {
		cells := make([]string, len(r.cells))
		for i, c := range r.cells {
			cells[i] = renderInline(c, modeTable)
		}
		lines = append(lines, row(cells))
	}
	return strings.Join(lines, "\n")
}

// Inline rendering.

type inlineMode int

const (
	modePara    inlineMode = iota // paragraph: may span lines
	modeHeading                   // one line after "#"
	modeTable                     // one table cell
	modeSummary                   // one line parsed on its own (expandable title)
)

type run struct {
	text  string
	marks []Mark // without code
	code  bool
	atom  *Node
}

// flattenRuns turns inline content into text runs and atoms (links, math,
// images, ...). Annotations contribute their text.
func flattenRuns(nodes []Node) []run {
	var out []run
	for i := range nodes {
		n := &nodes[i]
		switch {
		case n.Object == ObjectText:
			for _, l := range n.Leaves {
				if l.Text == "" {
					continue
				}
				marks := normalizeMarks(l.Marks)
				r := run{text: l.Text}
				for _, m := range marks {
					if m.Type == MarkCode {
						r.code = true
					} else {
						r.marks = append(r.marks, m)
					}
				}
				if k := len(out); k > 0 && out[k-1].atom == nil && out[k-1].code == r.code && sameMarks(out[k-1].marks, r.marks) {
					out[k-1].text += r.text
					continue
				}
				out = append(out, r)
			}
		case n.Type == InlineAnnotation:
			out = append(out, flattenRuns(n.Nodes)...)
		case n.Object == ObjectInline:
			out = append(out, run{atom: n})
		}
	}
	return out
}

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
	for i, part := range strings.Split(s, "\n") {
		if i > 0 {
			e.hardBreak()
		}
		if e.lineStart {
			part = strings.TrimLeft(part, " \t")
			if part == "" {
				continue
			}
		}
		last := i == strings.Count(s, "\n")
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

var entityLike = regexp.MustCompile(`^&(?:#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);`)

// escapeText backslash-escapes what Markdown would otherwise read as syntax.
// atLineStart adds the escapes needed at the start of a line (block
// markers); beforeLink escapes a final '!' that would turn a following link
// into an image.
func escapeText(s string, mode inlineMode, atLineStart, beforeLink bool) string {
	return escapeTextIn(s, mode, atLineStart, beforeLink, false)
}

// escapeTextIn is escapeText; inLink drops the escapes that keep URLs from
// being autolinked, which never happens inside a link's text.
func escapeTextIn(s string, mode inlineMode, atLineStart, beforeLink, inLink bool) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		esc := false
		switch c {
		case '~':
			// goldmark counts an escaped tilde into a neighbouring
			// strikethrough delimiter run; an entity stays out of it.
			if i == 0 || i == len(s)-1 {
				b.WriteString("&#126;")
				continue
			}
			esc = true
		case '\\', '`', '*', '[', ']', '<', '|':
			esc = true
		case '_':
			esc = !(i > 0 && isAlnum(s[i-1]) && i+1 < len(s) && isAlnum(s[i+1]))
		case '$':
			esc = i == 0 || i == len(s)-1 || s[i-1] == '$' || s[i+1] == '$'
		case '&':
			esc = entityLike.MatchString(s[i:])
		case '{':
			esc = mode == modeHeading || (i+1 < len(s) && s[i+1] == '%')
		case '!':
			esc = beforeLink && i == len(s)-1
		case ':':
			// Keep text that looks like a URL from being autolinked.
			esc = (atLineStart && i == 0) || (!inLink && i > 0 && isAlnum(s[i-1]) && strings.HasPrefix(s[i+1:], "//"))
		case '.':
			esc = !inLink && i >= 3 && strings.EqualFold(s[i-3:i], "www")
		case '@':
			esc = !inLink && i > 0 && i+1 < len(s) && s[i-1] != ' ' && isAlnum(s[i+1])
		case '#', '>', '+', '-', '=':
			esc = atLineStart && i == 0
		case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			if atLineStart && i == 0 {
				j := 0
				for j < len(s) && j < 10 && s[j] >= '0' && s[j] <= '9' {
					j++
				}
				if j < len(s) && j <= 9 && (s[j] == '.' || s[j] == ')') {
					b.WriteString(s[:j])
					b.WriteByte('\\')
					b.WriteByte(s[j])
					i = j
					continue
				}
			}
		}
		if esc {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// escapeDest writes a link destination so that it parses back unchanged.
func escapeDest(u string, mode inlineMode) string {
	var b strings.Builder
	angle := false
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c == '\n' || c == '\r' || c < ' ' || c == 0x7f:
			b.WriteString("%" + strings.ToUpper(strconv.FormatInt(int64(c)+0x100, 16)[1:]))
			continue
		case c == ' ' || c == '\t':
			angle = true
		case c == '\\' || c == '<' || c == '>' || c == '(' || c == ')':
			b.WriteByte('\\')
		case c == '|' && mode == modeTable:
			b.WriteByte('\\')
		case c == '&' && entityLike.MatchString(u[i:]):
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	if angle {
		return "<" + b.String() + ">"
	}
	return b.String()
}

func escapeTitle(s string, mode inlineMode) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' || c == '"':
			b.WriteByte('\\')
		case c == '|' && mode == modeTable:
			b.WriteByte('\\')
		case c == '&' && entityLike.MatchString(s[i:]):
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}
