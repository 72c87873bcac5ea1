package render

import (
	"strconv"
	"strings"

	"quire/internal/document"
)

// inlines renders text runs and inlines.
func (r *renderer) inlines(nodes []document.Node, depth int) {
	if depth > maxDepth {
		return
	}
	for i := range nodes {
		r.inline(&nodes[i], depth+1)
	}
}

// inlineBlocks renders the inline content of blocks that sit where only
// inline content may (a summary, a caption, a table cell): paragraphs
// joined by line breaks.
func (r *renderer) inlineBlocks(nodes []document.Node, depth int) {
	if depth > maxDepth {
		return
	}
	for i := range nodes {
		n := &nodes[i]
		if i > 0 {
			r.w("<br>")
		}
		switch n.Object {
		case document.ObjectText, document.ObjectInline:
			r.inline(n, depth+1)
		default:
			r.inlineBlocks(n.Nodes, depth+1)
		}
	}
}

func (r *renderer) inline(n *document.Node, depth int) {
	if n.Object == document.ObjectText {
		for _, l := range n.Leaves {
			r.leaf(l)
		}
		return
	}
	if n.Object != document.ObjectInline {
		// A block among inlines (a hand-made document): its inline content.
		r.inlines(n.Nodes, depth)
		return
	}
	switch n.Type {
	case document.InlineLink:
		r.link(n, depth)
	case document.InlineEmoji:
		s := emojiText(dataString(n, "code"))
		r.w(`<span class="emoji" role="img"`)
		r.attr("aria-label", s)
		r.w(">")
		r.esc(s)
		r.w("</span>")
		r.addText(s)
	case document.InlineIcon:
		r.icon(n)
	case document.InlineExpression:
		// Evaluation turns every expression it can into text; one still
		// here does not compile and shows nothing.
	case document.InlineMath:
		f := dataString(n, "formula")
		r.w(`<code class="math">`)
		r.esc(f)
		r.w("</code>")
		r.addText(f)
	case document.InlineImage:
		r.inlineImage(n)
	case document.InlineAnnotation:
		r.annotation(n, depth)
	case document.InlineMention:
		r.mention(n)
	case document.InlineButton:
		r.button(n)
	default:
		r.inlines(n.Nodes, depth)
	}
}

// markTags are the elements of the marks, outermost first.
var markTags = [...]struct{ mark, tag string }{
	{document.MarkBold, "strong"},
	{document.MarkItalic, "em"},
	{document.MarkStrikethrough, "s"},
	{document.MarkSuperscript, "sup"},
	{document.MarkSubscript, "sub"},
	{document.MarkKeyboard, "kbd"},
	{document.MarkCode, "code"},
}

// colors are the names a color mark and an icon may use, as class names;
// the $-prefixed theme colors lose their $.
var colors = map[string]string{
	"default": "", "green": "green", "blue": "blue", "red": "red", "orange": "orange",
	"yellow": "yellow", "purple": "purple", "$primary": "primary", "$info": "info",
	"$success": "success", "$warning": "warning", "$danger": "danger",
}

// leaf renders one run of text in its marks. Each leaf closes what it
// opens, so the output nests correctly whatever the marks.
func (r *renderer) leaf(l document.Leaf) {
	if l.Text == "" {
		return
	}
	var has [len(markTags)]bool
	colorClass := ""
	for _, m := range l.Marks {
		for i, t := range markTags {
			if m.Type == t.mark {
				has[i] = true
			}
		}
		if m.Type == document.MarkColor {
			colorClass = colorClasses(m.Data)
		}
	}
	if colorClass != "" {
		r.open("span", colorClass)
	}
	for i, t := range markTags {
		if has[i] {
			r.w("<" + t.tag + ">")
		}
	}
	r.esc(l.Text)
	for i := len(markTags) - 1; i >= 0; i-- {
		if has[i] {
			r.w("</" + markTags[i].tag + ">")
		}
	}
	if colorClass != "" {
		r.w("</span>")
	}
	r.addText(l.Text)
}

func colorClasses(data map[string]any) string {
	var out []string
	if s, _ := data["text"].(string); colors[s] != "" {
		out = append(out, "color-"+colors[s])
	}
	if s, _ := data["background"].(string); colors[s] != "" {
		out = append(out, "bg-"+colors[s])
	}
	return strings.Join(out, " ")
}

// link renders an inline link whose target the reader may follow, or its
// text alone.
func (r *renderer) link(n *document.Node, depth int) {
	href, ok := "", false
	if ref, has := n.Ref(); has && r.inLink == 0 {
		href, ok = r.resolve(ref)
	}
	if !ok {
		r.inlines(n.Nodes, depth)
		return
	}
	r.w("<a")
	r.attr("href", href)
	if external(href) {
		r.w(` rel="noopener nofollow"`)
	}
	r.w(">")
	r.inLink++
	r.inlines(n.Nodes, depth)
	r.inLink--
	r.w("</a>")
}

// external reports an absolute URL: links to other sites get rel
// noopener nofollow.
func external(href string) bool {
	l := strings.ToLower(href)
	return strings.HasPrefix(l, "http:") || strings.HasPrefix(l, "https:") || strings.HasPrefix(l, "//")
}

func (r *renderer) icon(n *document.Node) {
	name := iconName(dataString(n, "icon"))
	if name == "" {
		return
	}
	class := "icon icon-" + name
	if c := colors[dataString(n, "color")]; c != "" {
		class += " color-" + c
	}
	r.open("span", class)
	r.w("</span>")
}

// iconName keeps an icon name usable as a class name: letters, digits and
// hyphens.
func iconName(s string) string {
	if len(s) > 64 {
		return ""
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return ""
		}
	}
	return strings.ToLower(s)
}

func (r *renderer) inlineImage(n *document.Node) {
	alt := dataString(n, "alt")
	ref, _ := n.Ref()
	src, ok := r.image(ref)
	if !ok {
		r.esc(alt)
		return
	}
	class := "inline-image"
	if dataString(n, "size") == "line" {
		class += " inline-image-line"
	}
	r.w("<img")
	r.attr("class", class)
	r.attr("src", src.URL)
	r.attr("alt", alt)
	if c := dataString(n, "caption"); c != "" {
		r.attr("title", c)
	}
	r.dimensions(nil, src)
	r.w(` loading="lazy">`)
	r.addText(alt)
}

// annotation renders annotated text with its note as the title (a tooltip)
// and as visually hidden text beside it, so that screen readers and
// readers without a pointer get it too.
func (r *renderer) annotation(n *document.Node, depth int) {
	note := ""
	for i := range n.Fragments {
		if s := document.BlocksText(n.Fragments[i].Nodes); s != "" {
			note = s
			break
		}
	}
	if note == "" {
		r.inlines(n.Nodes, depth)
		return
	}
	r.w(`<span class="annotation" tabindex="0"`)
	r.attr("title", note)
	r.w(">")
	r.inlines(n.Nodes, depth)
	r.w(`<span class="visually-hidden"> (`)
	r.esc(note)
	r.w(")</span></span>")
}

// mention renders the label of what it names, linked when the reader may
// follow it.
func (r *renderer) mention(n *document.Node) {
	ref, ok := n.Ref()
	if !ok {
		return
	}
	label := dataString(n, "label")
	if label == "" {
		if t, ok := r.links.(Titles); ok {
			label, _ = t.Title(ref)
		}
	}
	if label == "" {
		return
	}
	href, linked := "", false
	if ref.Kind != document.RefUser && r.inLink == 0 {
		href, linked = r.resolve(ref)
	}
	if linked {
		r.w(`<a class="mention"`)
		r.attr("href", href)
		r.w(">")
		r.esc(label)
		r.w("</a>")
	} else {
		r.w(`<span class="mention">`)
		r.esc(label)
		r.w("</span>")
	}
	r.addText(label)
}

func (r *renderer) button(n *document.Node) {
	label := dataString(n, "label")
	ref, ok := n.Ref()
	href := ""
	if ok && r.inLink == 0 {
		href, ok = r.resolve(ref)
	}
	if !ok || r.inLink > 0 {
		r.esc(label)
		return
	}
	kind := oneOf(dataString(n, "kind"), "primary", "secondary")
	if kind == "" {
		kind = "primary"
	}
	r.w(`<a class="button button-` + kind + `"`)
	r.attr("href", href)
	r.w(">")
	r.esc(label)
	r.w("</a>")
	r.addText(label)
}

// emojiText turns an emoji code (hex code points joined by '-') into its
// characters, or returns it unchanged.
func emojiText(code string) string {
	var b strings.Builder
	for _, p := range strings.Split(code, "-") {
		v, err := strconv.ParseUint(p, 16, 32)
		if err != nil || v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) {
			return code
		}
		b.WriteRune(rune(v))
	}
	return b.String()
}
