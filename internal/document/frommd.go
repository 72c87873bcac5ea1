package document

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"quire/internal/apierr"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// FromMarkdown converts Markdown into a document. It accepts CommonMark
// with the GFM extensions (tables, task lists, strikethrough, autolinks)
// and the block spellings described in markdown.go. Constructs that may not
// appear where the Markdown put them (say a code block inside a blockquote)
// are degraded into the nearest allowed form, so the result always passes
// Validate. Headings deeper than level 3 become heading-3. A leading YAML
// front matter block is page metadata, not content, and is skipped. Raw HTML
// other than the tags listed in markdown.go is kept as literal text; HTML
// comments are dropped.
//
// Input beyond the limits (MaxMarkdownSize, MaxInlineDelimiters, and a
// result beyond MaxDepth, MaxNodes or the table limits) is refused with a
// BadRequest error on the field "markdown" that names the limit. Any other
// error is a bug.
func FromMarkdown(md string) (*Document, error) {
	return FromMarkdownWith(md, MarkdownOptions{})
}

// MarkdownOptions change how FromMarkdownWith reads Markdown.
type MarkdownOptions struct {
	// Resolve, when set, is asked first for the content reference of each
	// link, image, file and content-ref destination (after unescaping);
	// when it answers false the destination is read as FromMarkdown reads
	// it (RefFromURL). Importers use it to turn relative paths into
	// references to the pages and files they stand for.
	Resolve func(dest string) (ContentRef, bool)
}

// FromMarkdownWith is FromMarkdown with options.
func FromMarkdownWith(md string, o MarkdownOptions) (*Document, error) {
	if len(md) > MaxMarkdownSize {
		return nil, apierr.Invalid(markdownField, "%s: larger than %s bytes (the limit), %s bytes given",
			markdownField, grouped(MaxMarkdownSize), grouped(len(md)))
	}
	nodes, err := convertMarkdown(frontMatter.ReplaceAllString(normalizeInput(md), ""), ctxTop, o.Resolve)
	if err != nil {
		return nil, err
	}
	if nodes == nil {
		nodes = []Node{}
	}
	doc := &Document{Data: map[string]any{}, Nodes: nodes}
	for i := range doc.Nodes {
		canonicalize(&doc.Nodes[i])
	}
	root := rootPath(rootField)
	if err := checkLimits(doc.Nodes, root); err != nil {
		return nil, err.apiError(markdownField)
	}
	if err := validateBlocks(doc.Nodes, root.field("nodes"), ctxTop); err != nil {
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

// convertMarkdown parses and converts Markdown; the error is the first
// limit that the input exceeds.
func convertMarkdown(md string, ctx set, resolve func(string) (ContentRef, bool)) ([]Node, error) {
	nodes, g := convert(md, ctx, resolve)
	if g.err != nil {
		return nil, g.apiError()
	}
	return nodes, nil
}

// convert parses and converts Markdown; the guard tells whether it
// exceeded a limit, in which case the nodes mean nothing.
func convert(md string, ctx set, resolve func(string) (ContentRef, bool)) ([]Node, *mdGuard) {
	src := []byte(normalizeInput(md))
	g, pc := newGuard(src)
	root := markdown.Parser().Parse(text.NewReader(src), parser.WithContext(pc))
	if g.err != nil {
		return nil, g
	}
	c := &converter{src: src, guard: g, resolve: resolve}
	return c.blocks(root, ctx), g
}

type converter struct {
	src   []byte
	guard *mdGuard
	count int // nodes converted so far, see counted
	// resolve is MarkdownOptions.Resolve.
	resolve func(string) (ContentRef, bool)
}

// refFromURL reads a destination: through resolve first, when set.
func (c *converter) refFromURL(dest string) ContentRef {
	if c.resolve != nil {
		if r, ok := c.resolve(dest); ok {
			return r
		}
	}
	return RefFromURL(dest)
}

// blocks converts the block children of parent and fits them into ctx.
func (c *converter) blocks(parent ast.Node, ctx set) []Node {
	var out []Node
	for n := parent.FirstChild(); n != nil && c.guard.err == nil; n = n.NextSibling() {
		conv := c.block(n)
		_ = c.counted(len(conv))
		out = append(out, conv...)
	}
	if c.guard.err != nil {
		// The input is refused: what is left need not be converted.
		return nil
	}
	return fit(out, ctx)
}

// offsetOf is where the first line of n or its first descendant with
// lines starts in the source; -1 if there is none.
func offsetOf(n ast.Node) int {
	for ; n != nil; n = n.FirstChild() {
		if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
			return n.Lines().At(0).Start
		}
	}
	return -1
}

// counted adds n nodes about to be made to the count, reporting whether
// the conversion may go on. The count follows the conversion (blocks, list
// items, code lines, inlines) and comes close to what the document will
// hold (it is more only where a block degrades into fewer nodes, such as a
// code block in a blockquote); past MaxNodes the input is refused before
// the rest is converted, rather than after building a tree many times the
// limit.
func (c *converter) counted(n int) bool {
	c.count += n
	if c.count > MaxNodes {
		c.guard.exceed(tooManyNodes(), -1)
	}
	return c.guard.err == nil
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
		if !c.counted(2 * x.Lines().Len()) { // a code line and its text per line
			return nil
		}
		return []Node{codeBlock(c.lines(x), unescape(string(x.Language(c.src))))}
	case *ast.CodeBlock:
		if !c.counted(2 * x.Lines().Len()) {
			return nil
		}
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
	for it := l.FirstChild(); it != nil && c.counted(1); it = it.NextSibling() {
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
		if !c.counted(2) {
			return nil
		}
		out = append(out, Node{Object: ObjectBlock, Type: BlockParagraph, Nodes: []Node{NewText(l)}})
	}
	return out
}

func (c *converter) table(t *east.Table) Node {
	// Check the size before converting any cell.
	if head := t.FirstChild(); head != nil {
		if err := tableLimit(head.ChildCount(), t.ChildCount()-1, nil); err != nil {
			c.guard.exceed(err, offsetOf(t))
			return Node{}
		}
	}
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
	ref := c.refFromURL(dest)
	if ref.Kind != RefURL && ref.Kind != RefFile {
		ref = ContentRef{Kind: RefURL, URL: dest}
	}
	data := map[string]any{"ref": ref.Map()}
	var alt inlineSink
	c.inlineChildren(img, nil, &alt)
	if a := strings.TrimSpace(inlineText(alt.nodes())); a != "" {
		data["alt"] = a
	}
	if t := strings.TrimSpace(unescape(string(img.Title))); t != "" {
		data["caption"] = t
	}
	return data
}

func (c *converter) inlines(parent ast.Node) []Node {
	out := inlineSink{c: c}
	c.inlineChildren(parent, nil, &out)
	return normalizeInlines(out.nodes())
}
