package downloads

import (
	"strconv"
	"strings"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/evaluate"
	"quire/internal/pdf"
)

// converter turns page documents into PDF blocks.
type converter struct {
	s     *Service
	rev   *content.Revision
	files map[string]*content.File
	out   []pdf.Block
}

func newConverter(s *Service, rev *content.Revision) *converter {
	files := make(map[string]*content.File, len(rev.Files))
	for _, f := range rev.Files {
		files[f.ID] = f
	}
	return &converter{s: s, rev: rev, files: files}
}

// document converts a page's document. Expressions on space and page
// variables are evaluated; those that depend on the reader are shown as
// written, and the content of unevaluated if blocks is shown.
func (c *converter) document(doc *document.Document, pageVars map[string]any) []pdf.Block {
	if ev, err := evaluate.Document(doc, evaluate.Env{Space: c.rev.Variables, Page: pageVars}, evaluate.DeterministicOnly); err == nil {
		doc = ev
	}
	c.out = nil
	c.blocks(doc.Nodes, 0)
	return c.out
}

func (c *converter) emit(b pdf.Block) { c.out = append(c.out, b) }

// blocks converts a list of blocks; depth is the list nesting level of
// list items among them.
func (c *converter) blocks(nodes []document.Node, depth int) {
	for i := range nodes {
		c.block(&nodes[i], depth)
	}
}

func (c *converter) block(n *document.Node, depth int) {
	switch n.Type {
	case document.BlockParagraph:
		c.emit(pdf.Block{Kind: "paragraph", Text: c.spans(n.Nodes, "")})
	case document.BlockHeading1:
		c.emit(pdf.Block{Kind: "heading1", Text: c.spans(n.Nodes, "")})
	case document.BlockHeading2:
		c.emit(pdf.Block{Kind: "heading2", Text: c.spans(n.Nodes, "")})
	case document.BlockHeading3:
		c.emit(pdf.Block{Kind: "heading3", Text: c.spans(n.Nodes, "")})
	case document.BlockCode:
		lines := make([]string, 0, len(n.Nodes))
		for i := range n.Nodes {
			lines = append(lines, plain(n.Nodes[i].Nodes))
		}
		lang, _ := n.Data["syntax"].(string)
		c.emit(pdf.Block{Kind: "code", Code: strings.Join(lines, "\n"), Language: lang})
	case document.BlockQuote:
		c.boxed(n.Nodes, pdf.Block{Kind: "quote"}, depth)
	case document.BlockHint:
		style, _ := n.Data["style"].(string)
		c.boxed(n.Nodes, pdf.Block{Kind: "hint", Style: style}, depth)
	case document.BlockListOrdered, document.BlockListUnordered, document.BlockListTasks:
		start := 1
		if f, ok := n.Data["start"].(float64); ok && f >= 0 && f < 1e9 {
			start = int(f)
		}
		for i := range n.Nodes {
			c.listItem(&n.Nodes[i], n.Type, depth, start+i)
		}
	case document.BlockListItem:
		// Outside a list (for example from an if block): a bullet.
		c.listItem(n, document.BlockListUnordered, depth, 0)
	case document.BlockDivider:
		c.emit(pdf.Block{Kind: "divider"})
	case document.BlockTable:
		c.table(n)
	case document.BlockImage:
		c.image(n)
	case document.BlockMath:
		formula, _ := n.Data["formula"].(string)
		c.emit(pdf.Block{Kind: "math", Code: formula})
	case document.BlockExpandable:
		if f, ok := n.FragmentByName(document.FragmentExpandableTitle); ok {
			c.titled(textOf(f.Nodes))
		}
		if f, ok := n.FragmentByName(document.FragmentExpandableBody); ok {
			c.blocks(f.Nodes, depth)
		}
	case document.BlockTabsItem:
		title, _ := n.Data["title"].(string)
		c.titled(title)
		c.blocks(n.Nodes, depth)
	case document.BlockFile:
		ref, _ := n.Ref()
		name, _ := n.Data["caption"].(string)
		if f := c.files[ref.File]; f != nil && name == "" {
			name = f.Name
		}
		if name == "" {
			name = "File"
		}
		c.emit(pdf.Block{Kind: "paragraph", Text: []pdf.Span{{Text: name, Link: c.refURL(ref)}}})
	case document.BlockEmbed:
		u, _ := n.Data["url"].(string)
		c.emit(pdf.Block{Kind: "paragraph", Text: []pdf.Span{{Text: u, Link: u}}})
	case document.BlockImages, document.BlockIf, document.BlockTabs, document.BlockColumns, document.BlockColumn,
		document.BlockStepper, document.BlockStepperStep:
		c.blocks(n.Nodes, depth)
	default:
		if t := textOf([]document.Node{*n}); t != "" {
			c.emit(pdf.Block{Kind: "paragraph", Text: []pdf.Span{{Text: t}}})
		}
	}
}

// titled adds a bold line, the title of an expandable or tab.
func (c *converter) titled(title string) {
	if title != "" {
		c.emit(pdf.Block{Kind: "paragraph", Text: []pdf.Span{{Text: title, Bold: true}}})
	}
}

// boxed converts the content of a quote or hint: its text blocks become
// one box of the given kind, each in a paragraph of its own; other blocks
// (lists, code) are converted as they are, between boxes.
func (c *converter) boxed(nodes []document.Node, box pdf.Block, depth int) {
	var text []pdf.Span
	flush := func() {
		if len(text) > 0 {
			b := box
			b.Text = text
			c.emit(b)
			text = nil
		}
	}
	for i := range nodes {
		n := &nodes[i]
		switch n.Type {
		case document.BlockParagraph, document.BlockHeading1, document.BlockHeading2, document.BlockHeading3:
			if len(text) > 0 {
				text = append(text, pdf.Span{Text: "\n"})
			}
			spans := c.spans(n.Nodes, "")
			if n.Type != document.BlockParagraph {
				for j := range spans {
					spans[j].Bold = true
				}
			}
			text = append(text, spans...)
		default:
			flush()
			c.block(n, depth)
		}
	}
	flush()
}

// listItem converts a list item: its first paragraph is the item's text,
// nested lists go one level deeper, other blocks follow as they are.
func (c *converter) listItem(n *document.Node, listType string, depth, index int) {
	item := pdf.Block{Kind: "list-item", Depth: depth}
	switch listType {
	case document.BlockListOrdered:
		item.Ordered, item.Index = true, index
	case document.BlockListTasks:
		item.Kind = "task"
		item.Checked, _ = n.Data["checked"].(bool)
	}
	rest := n.Nodes
	if n.Type != document.BlockListItem {
		// An if block or other wrapper inside a list.
		c.block(n, depth)
		return
	}
	if len(rest) > 0 && isText(rest[0].Type) {
		item.Text = c.spans(rest[0].Nodes, "")
		rest = rest[1:]
	}
	c.emit(item)
	for i := range rest {
		switch rest[i].Type {
		case document.BlockListOrdered, document.BlockListUnordered, document.BlockListTasks:
			c.block(&rest[i], depth+1)
		default:
			c.block(&rest[i], depth)
		}
	}
}

func isText(t string) bool {
	switch t {
	case document.BlockParagraph, document.BlockHeading1, document.BlockHeading2, document.BlockHeading3:
		return true
	}
	return false
}

// table converts a table block to rows of cell text, the column titles
// first.
func (c *converter) table(n *document.Node) {
	var rows [][]string
	for _, line := range strings.Split(textOf([]document.Node{*n}), "\n") {
		if line != "" {
			rows = append(rows, strings.Split(line, "\t"))
		}
	}
	if len(rows) > 0 {
		c.emit(pdf.Block{Kind: "table", Rows: rows})
	}
}

func (c *converter) image(n *document.Node) {
	ref, _ := n.Ref()
	caption := ""
	if f, ok := n.FragmentByName(document.FragmentCaption); ok {
		caption = textOf(f.Nodes)
	}
	if caption == "" {
		caption, _ = n.Data["caption"].(string)
	}
	if caption == "" {
		caption, _ = n.Data["alt"].(string)
	}
	c.emit(pdf.Block{Kind: "image", URL: c.refURL(ref), Caption: caption})
}

// refURL is the address of a referenced file or URL; "" for other
// references.
func (c *converter) refURL(ref document.ContentRef) string {
	switch ref.Kind {
	case document.RefURL:
		return ref.URL
	case document.RefFile:
		if ref.File != "" {
			return c.s.FileURL(c.rev.ID, ref.File)
		}
	}
	return ""
}

// spans converts inline content; link is the target of an enclosing link.
func (c *converter) spans(nodes []document.Node, link string) []pdf.Span {
	var out []pdf.Span
	for i := range nodes {
		n := &nodes[i]
		switch {
		case n.Object == document.ObjectText:
			for _, l := range n.Leaves {
				if l.Text == "" {
					continue
				}
				sp := pdf.Span{Text: l.Text, Link: link}
				for _, m := range l.Marks {
					switch m.Type {
					case document.MarkBold:
						sp.Bold = true
					case document.MarkItalic:
						sp.Italic = true
					case document.MarkCode, document.MarkKeyboard:
						sp.Code = true
					case document.MarkStrikethrough:
						sp.Strike = true
					}
				}
				out = append(out, sp)
			}
		case n.Type == document.InlineLink:
			target := link
			if ref, ok := n.Ref(); ok {
				if u := c.refURL(ref); u != "" {
					target = u
				}
			}
			out = append(out, c.spans(n.Nodes, target)...)
		case n.Type == document.InlineMath:
			f, _ := n.Data["formula"].(string)
			out = append(out, pdf.Span{Text: f, Code: true, Link: link})
		case n.Type == document.InlineExpression:
			// Left unevaluated: it depends on the reader.
			e, _ := n.Data["expression"].(string)
			out = append(out, pdf.Span{Text: "{{ " + e + " }}", Code: true, Link: link})
		case n.Type == document.InlineAnnotation:
			out = append(out, c.spans(n.Nodes, link)...)
		default:
			if t := textOf([]document.Node{document.NewBlock(document.BlockParagraph, nil, *n)}); t != "" {
				out = append(out, pdf.Span{Text: t, Link: link})
			}
		}
	}
	return out
}

// textOf is the plain text of blocks.
func textOf(nodes []document.Node) string {
	return (&document.Document{Nodes: nodes}).Text()
}

// plain is the plain text of inline content.
func plain(nodes []document.Node) string {
	return textOf([]document.Node{{Object: document.ObjectBlock, Type: document.BlockParagraph, Nodes: nodes}})
}

// emojiChars turns a page emoji code (hex code points joined by '-') into
// its characters; anything else is kept as it is.
func emojiChars(code string) string {
	if code == "" {
		return ""
	}
	var b strings.Builder
	for _, part := range strings.Split(code, "-") {
		r, err := strconv.ParseUint(part, 16, 32)
		if err != nil || r == 0 || r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF) {
			return code
		}
		b.WriteRune(rune(r))
	}
	return b.String()
}
