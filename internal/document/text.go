package document

import (
	"strconv"
	"strings"
)

// Text returns the document's plain text, for search indexing and PDF
// export: one line per paragraph, heading, list item paragraph and code
// line, table rows as tab-separated cells, image alt text and captions,
// math formulas, expandable titles and bodies. Marks are dropped.
func (d *Document) Text() string {
	var b strings.Builder
	for i := range d.Nodes {
		writeBlockText(&b, &d.Nodes[i])
	}
	return strings.TrimRight(b.String(), "\n")
}

func line(b *strings.Builder, s string) {
	if s == "" {
		return
	}
	b.WriteString(s)
	b.WriteByte('\n')
}

func writeBlockText(b *strings.Builder, n *Node) {
	switch n.Type {
	case BlockParagraph, BlockHeading1, BlockHeading2, BlockHeading3:
		line(b, inlineText(n.Nodes))
	case BlockCodeLine:
		b.WriteString(inlineText(n.Nodes))
		b.WriteByte('\n')
	case BlockImage:
		alt, _ := n.Data["alt"].(string)
		line(b, alt)
		for i := range n.Fragments {
			for j := range n.Fragments[i].Nodes {
				writeBlockText(b, &n.Fragments[i].Nodes[j])
			}
		}
	case BlockFile:
		caption, _ := n.Data["caption"].(string)
		line(b, caption)
	case BlockMath:
		formula, _ := n.Data["formula"].(string)
		line(b, formula)
	case BlockEmbed:
		url, _ := n.Data["url"].(string)
		line(b, url)
	case BlockTabsItem:
		title, _ := n.Data["title"].(string)
		line(b, title)
	case BlockExpandable:
		for _, name := range []string{FragmentExpandableTitle, FragmentExpandableBody} {
			if f, ok := n.FragmentByName(name); ok {
				for j := range f.Nodes {
					writeBlockText(b, &f.Nodes[j])
				}
			}
		}
		return
	case BlockTable:
		t := layoutTable(n)
		titles := make([]string, len(t.cols))
		for i, c := range t.cols {
			titles[i] = c.title
		}
		line(b, strings.TrimRight(strings.Join(titles, "\t"), "\t"))
		for _, r := range t.rows {
			cells := make([]string, len(r.cells))
			for i, c := range r.cells {
				cells[i] = strings.Join(strings.Fields(inlineText(c)), " ")
			}
			line(b, strings.TrimRight(strings.Join(cells, "\t"), "\t"))
		}
		return
	}
	for i := range n.Nodes {
		writeBlockText(b, &n.Nodes[i])
	}
}

func inlineText(nodes []Node) string {
	var b strings.Builder
	writeInlineText(&b, nodes)
	return b.String()
}

func writeInlineText(b *strings.Builder, nodes []Node) {
	for i := range nodes {
		n := &nodes[i]
		switch {
		case n.Object == ObjectText:
			for _, l := range n.Leaves {
				b.WriteString(l.Text)
			}
		case n.Type == InlineMath:
			f, _ := n.Data["formula"].(string)
			b.WriteString(f)
		case n.Type == InlineImage:
			alt, _ := n.Data["alt"].(string)
			b.WriteString(alt)
		case n.Type == InlineEmoji:
			code, _ := n.Data["code"].(string)
			b.WriteString(emojiText(code))
		case n.Type == InlineButton:
			label, _ := n.Data["label"].(string)
			b.WriteString(label)
		default:
			writeInlineText(b, n.Nodes)
		}
	}
}

// emojiText turns an emoji code (hex code points joined by '-') into the
// characters, or returns it unchanged.
func emojiText(code string) string {
	var b strings.Builder
	for _, part := range strings.Split(code, "-") {
		r, err := strconv.ParseUint(part, 16, 32)
		if err != nil || r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF) || r == 0 {
			return code
		}
		b.WriteRune(rune(r))
	}
	return b.String()
}
