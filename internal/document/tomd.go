package document

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// ToMarkdown renders a document as Markdown, in the spellings FromMarkdown
// reads (see markdown.go). Blocks Markdown cannot express (OpenAPI blocks,
// integrations, reusable content, drawings) are rendered as a link to what
// they reference, or omitted.
func ToMarkdown(d *Document) string {
	if d == nil {
		return ""
	}
	nodes := d.Nodes
	if deeperThan(nodes, MaxDepth) {
		// Stored before the limits existed (see ParseStored).
		nodes = hoistDeep(nodes, 1)
	}
	s := renderBlocks(nodes)
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
		if op, ok := OpenAPIOperationOf(n); ok {
			return renderOpenAPIOperation(op)
		}
		if s, ok := OpenAPISchemasOf(n); ok {
			return renderOpenAPISchemas(s)
		}
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
