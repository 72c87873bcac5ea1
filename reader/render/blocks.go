package render

import (
	"strconv"

	"quire/internal/document"
)

// blocks renders a list of blocks. Inlines and text met where blocks are
// expected (a document put together by hand) render as inline content
// rather than being lost.
func (r *renderer) blocks(nodes []document.Node, depth int) {
	if depth > maxDepth {
		return
	}
	for i := range nodes {
		n := &nodes[i]
		switch n.Object {
		case document.ObjectText, document.ObjectInline:
			r.inline(n, depth+1)
		case document.ObjectFragment:
			r.blocks(n.Nodes, depth+1)
		default:
			r.block(n, depth+1)
		}
	}
}

func (r *renderer) block(n *document.Node, depth int) {
	switch n.Type {
	case document.BlockParagraph:
		r.open("p", alignClass(n))
		r.inlines(n.Nodes, depth)
		r.w("</p>\n")
		r.endText()
	case document.BlockHeading1, document.BlockHeading2, document.BlockHeading3:
		r.heading(n, depth)
	case document.BlockListOrdered, document.BlockListUnordered, document.BlockListTasks:
		r.list(n, depth)
	case document.BlockDivider:
		r.w("<hr>\n")
	case document.BlockQuote:
		r.w("<blockquote>\n")
		r.blocks(n.Nodes, depth)
		r.w("</blockquote>\n")
	case document.BlockHint:
		style := oneOf(dataString(n, "style"), document.HintInfo, document.HintWarning, document.HintDanger, document.HintSuccess)
		if style == "" {
			style = document.HintInfo
		}
		r.w(`<aside class="hint hint-` + style + `" role="note">` + "\n")
		r.blocks(n.Nodes, depth)
		r.w("</aside>\n")
	case document.BlockIf:
		// Evaluation replaced every if block whose condition it could
		// decide; one still here has a condition that does not compile,
		// and content meant for some visitors only stays hidden.
	case document.BlockImages:
		r.images(n, depth)
	case document.BlockImage:
		r.figure(n, depth)
	case document.BlockFile:
		r.fileBlock(n)
	case document.BlockDrawing:
		r.drawing(n)
	case document.BlockEmbed:
		r.embed(n)
	case document.BlockCode:
		r.code(n)
	case document.BlockCodeLine:
		// Outside a code block (a hand-made document): a line of code.
		r.w(`<pre><code>`)
		r.codeText(n.Nodes)
		r.w("</code></pre>\n")
	case document.BlockMath:
		r.w(`<p class="math-display"><code class="math">`)
		r.esc(dataString(n, "formula"))
		r.w("</code></p>\n")
	case document.BlockExpandable:
		r.expandable(n, depth)
	case document.BlockTabs:
		r.tabs(n, depth)
	case document.BlockStepper:
		r.w(`<ol class="stepper">` + "\n")
		for i := range n.Nodes {
			r.w(`<li class="step">`)
			r.blocks(n.Nodes[i].Nodes, depth+1)
			r.w("</li>\n")
		}
		r.w("</ol>\n")
	case document.BlockColumns:
		r.w(`<div class="columns">` + "\n")
		for i := range n.Nodes {
			c := &n.Nodes[i]
			class := "column"
			if a := oneOf(dataString(c, "verticalAlignment"), "top", "middle", "bottom"); a != "" {
				class += " column-" + a
			}
			r.open("div", class)
			r.blocks(c.Nodes, depth+1)
			r.w("</div>\n")
		}
		r.w("</div>\n")
	case document.BlockTable:
		r.table(n, depth)
	case document.BlockSwagger, document.BlockOpenAPIOperation, document.BlockOpenAPISchemas, document.BlockOpenAPIWebhook:
		r.openAPI(n)
	case document.BlockContentRef:
		r.contentRef(n)
	case document.BlockIntegration:
		r.integration(n)
	case document.BlockReusableContent:
		// The reader dereferences reusable contents before rendering (their
		// blocks replace the block); one still here could not be read, and
		// shows nothing.
	default:
		// A list item, tab or step out of place, or a type this package
		// does not know: its content still reads.
		r.blocks(n.Nodes, depth)
	}
}

// alignClass is the class of a block's text alignment.
func alignClass(n *document.Node) string {
	if a := oneOf(dataString(n, "align"), "center", "end", "start"); a != "" && a != "start" {
		return "align-" + a
	}
	return ""
}

var headingLevel = map[string]int{document.BlockHeading1: 1, document.BlockHeading2: 2, document.BlockHeading3: 3}

// heading renders heading-1..3 as h2..h4 (the page title is the h1; a
// page whose highest heading is a heading-2 has it as h2), with
// the anchor links and search use, made unique within the page, and a link
// to itself.
func (r *renderer) heading(n *document.Node, depth int) {
	level := max(headingLevel[n.Type]-r.shift, 1)
	tag := "h" + strconv.Itoa(level+1)
	id := r.uniqueID(document.HeadingAnchor(n))
	r.b.WriteByte('<')
	r.w(tag)
	r.attr("id", id)
	if c := alignClass(n); c != "" {
		r.attr("class", c)
	}
	r.w(">")
	r.inlines(n.Nodes, depth)
	r.w(`<a class="heading-anchor" href="#`)
	escapeTo(&r.b, id)
	r.w(`" aria-label="Link to this section">#</a></`)
	r.w(tag)
	r.w(">\n")
	r.endText()
	r.outline = append(r.outline, Heading{ID: id, Title: document.InlineText(n.Nodes), Level: level})
}

func (r *renderer) list(n *document.Node, depth int) {
	tag, class := "ul", ""
	switch n.Type {
	case document.BlockListOrdered:
		tag = "ol"
	case document.BlockListTasks:
		class = "task-list"
	}
	r.b.WriteByte('<')
	r.w(tag)
	if class != "" {
		r.attr("class", class)
	}
	if s, ok := n.Data["start"].(float64); ok && tag == "ol" && s != 1 && s >= 0 && s < 1e9 && s == float64(int(s)) {
		r.attr("start", strconv.Itoa(int(s)))
	}
	r.w(">\n")
	for i := range n.Nodes {
		it := &n.Nodes[i]
		if n.Type == document.BlockListTasks {
			r.w(`<li class="task"><input type="checkbox" disabled`)
			if dataBool(it, "checked") {
				r.w(" checked")
			}
			r.w(`> `)
		} else {
			r.w("<li>")
		}
		if it.Type == document.BlockListItem {
			r.blocks(it.Nodes, depth+1)
		} else {
			r.blocks(n.Nodes[i:i+1], depth)
		}
		r.w("</li>\n")
	}
	r.close(tag)
	r.w("\n")
}

func (r *renderer) expandable(n *document.Node, depth int) {
	r.w(`<details class="expandable"><summary>`)
	if f, ok := n.FragmentByName(document.FragmentExpandableTitle); ok {
		r.inlineBlocks(f.Nodes, depth+1)
	}
	r.w("</summary>\n")
	r.endText()
	if f, ok := n.FragmentByName(document.FragmentExpandableBody); ok {
		r.blocks(f.Nodes, depth+1)
	}
	r.w("</details>\n")
}

// tabs renders each tab as a section whose title opens an open <details>:
// every tab's content reads with JavaScript off, and the site's script may
// turn them into a tab bar.
func (r *renderer) tabs(n *document.Node, depth int) {
	r.w(`<div class="tabs">` + "\n")
	for i := range n.Nodes {
		t := &n.Nodes[i]
		title := dataString(t, "title")
		if title == "" {
			title = "Tab " + strconv.Itoa(i+1)
		}
		r.w(`<section class="tab"><details open><summary>`)
		r.esc(title)
		r.w("</summary>\n")
		r.addText(title)
		r.endText()
		r.blocks(t.Nodes, depth+1)
		r.w("</details></section>\n")
	}
	r.w("</div>\n")
}

// contentRef renders a card linking to what the block references; a
// reference the reader may not follow shows nothing, as there is no text
// to fall back on.
func (r *renderer) contentRef(n *document.Node) {
	ref, ok := n.Ref()
	if !ok {
		return
	}
	href, ok := r.resolve(ref)
	if !ok {
		return
	}
	title := href
	if t, ok := r.links.(Titles); ok {
		if s, ok := t.Title(ref); ok && s != "" {
			title = s
		}
	}
	r.w(`<p class="content-ref"><a class="content-ref-link"`)
	r.attr("href", href)
	r.w(">")
	r.esc(title)
	r.w("</a></p>\n")
}

// Titles is implemented by a Links that also knows the titles of what
// references point to; content-ref cards show the title instead of the
// href.
type Titles interface {
	Title(ref document.ContentRef) (string, bool)
}

func (r *renderer) integration(n *document.Node) {
	name := dataString(n, "integration")
	r.w(`<aside class="integration" role="note"><p>`)
	if name != "" {
		r.w("Content from the ")
		r.esc(name)
		r.w(" integration is not shown here.")
	} else {
		r.w("Content from an integration is not shown here.")
	}
	if u := dataString(n, "url"); u != "" && safeURL(u) {
		r.w(` <a rel="noopener nofollow"`)
		r.attr("href", u)
		r.w(">Open it</a>")
	}
	r.w("</p></aside>\n")
}

func (r *renderer) embed(n *document.Node) {
	u := dataString(n, "url")
	if u == "" {
		return
	}
	r.w(`<p class="embed">`)
	if safeURL(u) && r.inLink == 0 {
		r.w(`<a class="embed-link" rel="noopener nofollow"`)
		r.attr("href", u)
		r.w(">")
		r.esc(u)
		r.w("</a>")
	} else {
		r.esc(u)
	}
	r.w("</p>\n")
	r.addText(u)
	r.endText()
}
