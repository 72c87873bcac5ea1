package document

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// FromMarkdown converts Markdown into a document. It accepts CommonMark
// with the GFM extensions (tables, task lists, strikethrough, autolinks)
// and the block spellings described in markdown.go. Constructs that may not
// appear where the Markdown put them (say a code block inside a blockquote)
// are degraded into the nearest allowed form, so the result always passes
// Validate; the error is only non-nil if that ever fails, which is a bug.
// Headings deeper than level 3 become heading-3. A leading YAML front matter
// block is page metadata, not content, and is skipped. Raw HTML other than
// the tags listed in markdown.go is kept as literal text; HTML comments are
// dropped.
func FromMarkdown(md string) (*Document, error) {
	nodes := convertMarkdown(frontMatter.ReplaceAllString(normalizeInput(md), ""), ctxTop)
	if nodes == nil {
		nodes = []Node{}
	}
	doc := &Document{Data: map[string]any{}, Nodes: nodes}
	for i := range doc.Nodes {
		canonicalize(&doc.Nodes[i])
	}
	if err := doc.Validate(); err != nil {
		return nil, fmt.Errorf("document: markdown conversion produced an invalid document: %w", err)
	}
	return doc, nil
}

func normalizeInput(md string) string {
	if !utf8.ValidString(md) {
		md = strings.ToValidUTF8(md, "\uFFFD")
	}
	if strings.ContainsRune(md, '\r') {
		md = strings.ReplaceAll(md, "\r\n", "\n")
		md = strings.ReplaceAll(md, "\r", "\n")
	}
	if strings.ContainsRune(md, 0) {
		md = strings.ReplaceAll(md, "\x00", "\uFFFD")
	}
	return md
}

// frontMatter matches a leading YAML front matter block ("---" lines around
// "key: value" lines), which holds page metadata rather than content.
var frontMatter = regexp.MustCompile(`\A---[ \t]*\n(?:[A-Za-z0-9_-]+:.*\n(?:[ \t-].*\n|[ \t]*\n)*)+---[ \t]*(?:\n|\z)`)

func convertMarkdown(md string, ctx set) []Node {
	src := []byte(normalizeInput(md))
	root := markdown.Parser().Parse(text.NewReader(src))
	c := &converter{src: src}
	return c.blocks(root, ctx)
}

type converter struct {
	src []byte
}

// blocks converts the block children of parent and fits them into ctx.
func (c *converter) blocks(parent ast.Node, ctx set) []Node {
	var out []Node
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		out = append(out, c.block(n)...)
	}
	return fit(out, ctx)
}

func (c *converter) block(n ast.Node) []Node {
	switch x := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		if imgs := c.imagesOnly(x); imgs != nil {
			return []Node{*imgs}
		}
		inl := trimEdges(c.inlines(x))
		if len(inl) == 0 {
			return nil
		}
		return []Node{{Object: ObjectBlock, Type: BlockParagraph, Nodes: inl}}
	case *ast.Heading:
		typ := BlockHeading3
		switch x.Level {
		case 1:
			typ = BlockHeading1
		case 2:
			typ = BlockHeading2
		}
		data := map[string]any{}
		if id, ok := x.AttributeString("id"); ok {
			if b, ok := id.([]byte); ok && headingIDPattern.Match(b) {
				data["id"] = string(b)
			}
		}
		return []Node{{Object: ObjectBlock, Type: typ, Data: data, Nodes: trimEdges(c.inlines(x))}}
	case *ast.ThematicBreak:
		return []Node{{Object: ObjectBlock, Type: BlockDivider}}
	case *ast.FencedCodeBlock:
		return []Node{codeBlock(c.lines(x), unescape(string(x.Language(c.src))))}
	case *ast.CodeBlock:
		return []Node{codeBlock(c.lines(x), "")}
	case *ast.Blockquote:
		return []Node{{Object: ObjectBlock, Type: BlockQuote, Nodes: c.blocks(x, ctxQuote)}}
	case *ast.List:
		return []Node{c.list(x)}
	case *ast.HTMLBlock:
		return c.htmlBlock(x)
	case *east.Table:
		return []Node{c.table(x)}
	case *liquidBlock:
		return c.liquid(x)
	case *detailsBlock:
		return []Node{c.details(x)}
	case *mathBlock:
		return []Node{{Object: ObjectBlock, Type: BlockMath, IsVoid: true,
			Data: map[string]any{"formula": strings.Join(x.formula, "\n")}}}
	}
	return c.blocks(n, ctxAnyBlock)
}

func (c *converter) lines(n ast.Node) string {
	var b strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(c.src))
	}
	return b.String()
}

func codeBlock(content, syntax string) Node {
	content = strings.TrimSuffix(content, "\n")
	data := map[string]any{}
	if syntax != "" {
		data["syntax"] = syntax
	}
	var lines []Node
	for _, l := range strings.Split(content, "\n") {
		lines = append(lines, Node{Object: ObjectBlock, Type: BlockCodeLine, Data: map[string]any{},
			Nodes: []Node{NewText(l)}})
	}
	return Node{Object: ObjectBlock, Type: BlockCode, Data: data, Nodes: lines}
}

func (c *converter) list(l *ast.List) Node {
	type item struct {
		node    Node
		checked bool
		task    bool
	}
	var items []item
	anyTask := false
	for it := l.FirstChild(); it != nil; it = it.NextSibling() {
		var checked, task bool
		if first := it.FirstChild(); first != nil {
			if cb, ok := first.FirstChild().(*east.TaskCheckBox); ok && first.FirstChild() != nil {
				checked, task = cb.IsChecked, true
			}
		}
		anyTask = anyTask || task
		items = append(items, item{
			node:    Node{Object: ObjectBlock, Type: BlockListItem, Data: map[string]any{}, Nodes: c.blocks(it, ctxListItem)},
			checked: checked, task: task,
		})
	}
	list := Node{Object: ObjectBlock, Type: BlockListUnordered, Data: map[string]any{}}
	switch {
	case anyTask:
		list.Type = BlockListTasks
	case l.IsOrdered():
		list.Type = BlockListOrdered
		if l.Start != 1 {
			list.Data["start"] = float64(l.Start)
		}
	}
	for _, it := range items {
		if anyTask {
			it.node.Data["checked"] = it.checked
		}
		list.Nodes = append(list.Nodes, it.node)
	}
	return list
}

func (c *converter) htmlBlock(h *ast.HTMLBlock) []Node {
	if h.HTMLBlockType == ast.HTMLBlockType2 { // comment
		return nil
	}
	raw := c.lines(h)
	if h.HasClosure() {
		raw += string(h.ClosureLine.Value(c.src))
	}
	var out []Node
	for _, l := range strings.Split(raw, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		out = append(out, Node{Object: ObjectBlock, Type: BlockParagraph, Nodes: []Node{NewText(l)}})
	}
	return out
}

func (c *converter) table(t *east.Table) Node {
	var titles, aligns []string
	var rows [][][]Node
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells [][]Node
		for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
			inl := trimEdges(c.inlines(cell))
			if _, header := r.(*east.TableHeader); header {
				titles = append(titles, inlineText(inl))
				align := "left"
				switch cell.(*east.TableCell).Alignment {
				case east.AlignCenter:
					align = "center"
				case east.AlignRight:
					align = "right"
				}
				aligns = append(aligns, align)
				continue
			}
			cells = append(cells, inl)
		}
		if _, header := r.(*east.TableHeader); !header {
			rows = append(rows, cells)
		}
	}
	for i, t := range titles {
		titles[i] = strings.ReplaceAll(t, "\n", " ")
	}
	return buildTable(titles, aligns, rows)
}

func (c *converter) liquid(l *liquidBlock) []Node {
	switch l.name {
	case "hint":
		style := l.attrs["style"]
		switch style {
		case HintInfo, HintWarning, HintDanger, HintSuccess:
		default:
			style = HintInfo
		}
		return []Node{{Object: ObjectBlock, Type: BlockHint, Data: map[string]any{"style": style},
			Nodes: c.blocks(l, ctxHint)}}
	case "tabs":
		return []Node{c.itemsContainer(l, BlockTabs, "tab", BlockTabsItem, ctxTab, "title")}
	case "stepper":
		return []Node{c.itemsContainer(l, BlockStepper, "step", BlockStepperStep, ctxTab, "")}
	case "columns":
		return []Node{c.itemsContainer(l, BlockColumns, "column", BlockColumn, ctxColumn, "")}
	case "tab", "step", "column":
		// Outside its container: keep the content.
		return c.blocks(l, ctxAnyBlock)
	case "code":
		inner := c.blocks(l, ctxAnyBlock)
		for i := range inner {
			if inner[i].Type != BlockCode {
				continue
			}
			if t := l.attrs["title"]; t != "" {
				inner[i].Data["title"] = t
			}
			if o := l.attrs["overflow"]; o == "wrap" || o == "scroll" {
				inner[i].Data["overflow"] = o
			}
			for _, k := range []string{"lineNumbers", "fullWidth", "expandable"} {
				if b, err := strconv.ParseBool(l.attrs[k]); err == nil {
					inner[i].Data[k] = b
				}
			}
			break
		}
		return inner
	case "file":
		src := l.attrs["src"]
		caption := strings.Join(strings.Fields(strings.Join(l.body, " ")), " ")
		ref := RefFromURL(src)
		if ref.Kind != RefFile {
			label := caption
			if label == "" {
				label = src
			}
			return []Node{{Object: ObjectBlock, Type: BlockParagraph, Nodes: []Node{linkNode(ref, label)}}}
		}
		data := map[string]any{"ref": ref.Map()}
		if caption != "" {
			data["caption"] = caption
		}
		return []Node{{Object: ObjectBlock, Type: BlockFile, Data: data}}
	case "content-ref":
		u := l.attrs["url"]
		if u == "" {
			return nil
		}
		return []Node{{Object: ObjectBlock, Type: BlockContentRef, Data: map[string]any{"ref": RefFromURL(u).Map()}}}
	case "embed":
		u := l.attrs["url"]
		if u == "" {
			return nil
		}
		return []Node{{Object: ObjectBlock, Type: BlockEmbed, Data: map[string]any{"url": u}}}
	}
	return nil
}

// itemsContainer converts tabs, stepper and columns: a container whose
// children are item tags. Stray content goes into the preceding item.
func (c *converter) itemsContainer(l *liquidBlock, typ, itemTag, itemType string, itemCtx set, titleAttr string) Node {
	out := Node{Object: ObjectBlock, Type: typ, Data: map[string]any{}}
	for ch := l.FirstChild(); ch != nil; ch = ch.NextSibling() {
		if lb, ok := ch.(*liquidBlock); ok && lb.name == itemTag {
			data := map[string]any{}
			if titleAttr != "" {
				data[titleAttr] = lb.attrs[titleAttr]
			}
			out.Nodes = append(out.Nodes, Node{Object: ObjectBlock, Type: itemType, Data: data,
				Nodes: c.blocks(lb, itemCtx)})
			continue
		}
		stray := fit(c.block(ch), itemCtx)
		if len(stray) == 0 {
			continue
		}
		if len(out.Nodes) == 0 {
			data := map[string]any{}
			if titleAttr != "" {
				data[titleAttr] = ""
			}
			out.Nodes = append(out.Nodes, Node{Object: ObjectBlock, Type: itemType, Data: data})
		}
		last := &out.Nodes[len(out.Nodes)-1]
		last.Nodes = append(last.Nodes, stray...)
	}
	return out
}

func (c *converter) details(d *detailsBlock) Node {
	title := titleInlines(d.title)
	body := c.blocks(d, ctxExpandableBody)
	return expandable(title, body)
}

func expandable(title []Node, body []Node) Node {
	if len(body) == 0 {
		body = []Node{{Object: ObjectBlock, Type: BlockParagraph}}
	}
	return Node{Object: ObjectBlock, Type: BlockExpandable, Fragments: []Node{
		{Object: ObjectFragment, Fragment: FragmentExpandableTitle, Type: FragmentExpandableTitle,
			Nodes: []Node{{Object: ObjectBlock, Type: BlockParagraph, Nodes: title}}},
		{Object: ObjectFragment, Fragment: FragmentExpandableBody, Type: FragmentExpandableBody, Nodes: body},
	}}
}

// titleInlines parses a one-line Markdown title into inline content.
func titleInlines(s string) []Node {
	blocks := convertMarkdown(s, ctxAnyBlock)
	if len(blocks) == 0 {
		return nil
	}
	var out []Node
	for i := range blocks {
		if i > 0 {
			out = append(out, NewText(" "))
		}
		out = append(out, blockInlines(&blocks[i])...)
	}
	return trimEdges(normalizeInlines(out))
}

// imagesOnly returns an images block when a paragraph holds nothing but
// images separated by white space.
func (c *converter) imagesOnly(p ast.Node) *Node {
	var imgs []Node
	for n := p.FirstChild(); n != nil; n = n.NextSibling() {
		switch x := n.(type) {
		case *ast.Image:
			data := c.imageData(x)
			img := Node{Object: ObjectBlock, Type: BlockImage, Fragments: []Node{}}
			if cap, ok := data["caption"].(string); ok {
				delete(data, "caption")
				img.Fragments = append(img.Fragments, Node{Object: ObjectFragment, Fragment: FragmentCaption,
					Nodes: []Node{{Object: ObjectBlock, Type: BlockParagraph, Nodes: []Node{NewText(cap)}}}})
			}
			img.Data = data
			imgs = append(imgs, img)
		case *ast.Text:
			if !util.IsBlank(x.Segment.Value(c.src)) {
				return nil
			}
		default:
			return nil
		}
	}
	if len(imgs) == 0 {
		return nil
	}
	return &Node{Object: ObjectBlock, Type: BlockImages, Data: map[string]any{}, Nodes: imgs}
}

func (c *converter) imageData(img *ast.Image) map[string]any {
	dest := unescape(string(img.Destination))
	ref := RefFromURL(dest)
	if ref.Kind != RefURL && ref.Kind != RefFile {
		ref = ContentRef{Kind: RefURL, URL: dest}
	}
	data := map[string]any{"ref": ref.Map()}
	var alt []Node
	c.inlineChildren(img, nil, &alt)
	if a := strings.TrimSpace(inlineText(alt)); a != "" {
		data["alt"] = a
	}
	if t := strings.TrimSpace(unescape(string(img.Title))); t != "" {
		data["caption"] = t
	}
	return data
}

func (c *converter) inlines(parent ast.Node) []Node {
	var out []Node
	c.inlineChildren(parent, nil, &out)
	return normalizeInlines(out)
}

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

// inlineChildren converts the inline children of parent under marks.
// Raw HTML <kbd>, <sup>, <sub> and <mark style="..."> toggle marks over the
// siblings that follow them.
func (c *converter) inlineChildren(parent ast.Node, marks []Mark, out *[]Node) {
	var html []Mark
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		cur := marks
		if len(html) > 0 {
			cur = append(append([]Mark{}, marks...), html...)
		}
		switch x := n.(type) {
		case *ast.Text:
			s := x.Segment.Value(c.src)
			if x.IsRaw() {
				*out = append(*out, NewText(string(s), cur...))
			} else {
				*out = append(*out, NewText(unescape(string(s)), cur...))
			}
			if x.HardLineBreak() {
				*out = append(*out, NewText("\n", cur...))
			} else if x.SoftLineBreak() {
				*out = append(*out, NewText(" ", cur...))
			}
		case *ast.String:
			if x.IsRaw() || x.IsCode() {
				*out = append(*out, NewText(string(x.Value), cur...))
			} else {
				*out = append(*out, NewText(unescape(string(x.Value)), cur...))
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
			*out = append(*out, NewText(code, withMark(cur, Mark{Type: MarkCode})...))
		case *ast.Link:
			var inner []Node
			c.inlineChildren(x, cur, &inner)
			ref := RefFromURL(unescape(string(x.Destination)))
			*out = append(*out, Node{Object: ObjectInline, Type: InlineLink, Data: map[string]any{"ref": ref.Map()},
				Nodes: linkContent(normalizeInlines(inner))})
		case *ast.AutoLink:
			label := string(x.Label(c.src))
			u := string(x.URL(c.src))
			if x.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(u), "mailto:") {
				u = "mailto:" + u
			}
			ref := RefFromURL(u)
			*out = append(*out, Node{Object: ObjectInline, Type: InlineLink, Data: map[string]any{"ref": ref.Map()},
				Nodes: []Node{NewText(label, cur...)}})
		case *ast.Image:
			*out = append(*out, Node{Object: ObjectInline, Type: InlineImage, Data: c.imageData(x), IsVoid: true})
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
				*out = append(*out, NewText("\n", cur...))
			case htmlMarkOpen.MatchString(tag):
				m := htmlMarkOpen.FindStringSubmatch(tag)
				mk := Mark{Type: htmlTagMark[strings.ToLower(m[1])]}
				if mk.Type == MarkColor {
					mk.Data = colorData(m[3])
				}
				html = append(html, mk)
			case htmlMarkEnd.MatchString(tag):
				typ := htmlTagMark[strings.ToLower(htmlMarkEnd.FindStringSubmatch(tag)[1])]
				found := false
				for i := len(html) - 1; i >= 0; i-- {
					if html[i].Type == typ {
						html = append(html[:i:i], html[i+1:]...)
						found = true
						break
					}
				}
				if !found {
					*out = append(*out, NewText(raw, cur...))
				}
			default:
				*out = append(*out, NewText(raw, cur...))
			}
		case *east.TaskCheckBox:
		case *inlineMathNode:
			*out = append(*out, Node{Object: ObjectInline, Type: InlineMath, IsVoid: true,
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
	out := make([]Mark, 0, len(marks))
	for i := len(marks) - 1; i >= 0; i-- {
		dup := false
		for _, m := range out {
			dup = dup || m.Type == marks[i].Type
		}
		if !dup {
			out = append(out, marks[i])
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
	for _, n := range nodes {
		if n.Object != ObjectText {
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
			if sameMarks(prev.Marks, l.Marks) {
				prev.Text += l.Text
			} else {
				last.Leaves = append(last.Leaves, l)
			}
		}
	}
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
