package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"

	"quire/internal/document"
)

// Highlighting budgets. Chroma's lexers are regular expressions with
// backtracking; these keep one page's highlighting to a bounded amount of
// work. Code beyond them is shown plain.
const (
	maxHighlightBlock    = 64 << 10  // bytes of one code block
	maxHighlightDocument = 512 << 10 // bytes of all code blocks of a page
)

// code renders a code block: a figure with the block's title as caption,
// and a <pre> whose lines carry chroma's token classes (never inline
// styles, which the page's Content-Security-Policy forbids; HighlightCSS
// makes the stylesheet).
func (r *renderer) code(n *document.Node) {
	lines := make([]string, len(n.Nodes))
	size := 0
	for i := range n.Nodes {
		lines[i] = document.InlineText(n.Nodes[i].Nodes)
		size += len(lines[i]) + 1
	}
	syntax := dataString(n, "syntax")
	class := "code"
	if dataString(n, "overflow") == "wrap" {
		class += " code-wrap"
	}
	if dataBool(n, "lineNumbers") {
		class += " code-line-numbers"
	}
	if dataBool(n, "fullWidth") {
		class += " full-width"
	}
	r.w("<figure")
	r.attr("class", class)
	if dataBool(n, "expandable") {
		if c, ok := n.Data["collapsedLineCount"].(float64); ok && c >= 1 && c < 1e6 {
			r.attr("data-collapsed-lines", strconv.Itoa(int(c)))
		}
	}
	r.w(">")
	if t := dataString(n, "title"); t != "" {
		r.w(`<figcaption class="code-title">`)
		r.esc(t)
		r.w("</figcaption>")
	}
	r.w(`<pre class="chroma"><code`)
	if lang := languageClass(syntax); lang != "" {
		r.attr("class", "language-"+lang)
	}
	r.w(">")
	var highlighted []string
	if size <= maxHighlightBlock && r.highlighted+size <= maxHighlightDocument {
		r.highlighted += size
		highlighted = highlightCached(syntax, lines)
	}
	numbers := dataBool(n, "lineNumbers")
	for i, l := range lines {
		r.w(`<span class="line`)
		if dataBool(&n.Nodes[i], "highlighted") {
			r.w(" hl")
		}
		r.w(`">`)
		if numbers {
			r.w(`<span class="ln" aria-hidden="true">`)
			r.w(strconv.Itoa(i + 1))
			r.w("</span>")
		}
		r.w(`<span class="cl">`)
		if highlighted != nil {
			r.w(highlighted[i])
		} else {
			r.esc(l)
		}
		r.w("</span></span>\n")
	}
	r.w("</code></pre></figure>\n")
}

// writeToken writes one token, escaped, in the span of its class.
func writeToken(b *strings.Builder, t chroma.Token) {
	v := strings.TrimSuffix(t.Value, "\n")
	if v == "" {
		return
	}
	cls := tokenClass(t.Type)
	if cls == "" {
		escapeTo(b, v)
		return
	}
	b.WriteString(`<span class="` + cls + `">`)
	escapeTo(b, v)
	b.WriteString("</span>")
}

// tokenClass is chroma's short class of a token type, or of the nearest
// category that has one (as chroma's own HTML formatter names them).
func tokenClass(t chroma.TokenType) string {
	for t != 0 {
		if cls, ok := chroma.StandardTypes[t]; ok {
			return cls
		}
		t = t.Parent()
	}
	return ""
}

// highlight returns the HTML of the code's lines highlighted for syntax;
// nil when there is no lexer for it or the lexer does not account for the
// text exactly (the code is then shown plain).
func highlight(syntax string, lines []string) (out []string) {
	if syntax == "" || len(lines) == 0 {
		return nil
	}
	lexer := lexers.Get(syntax)
	if lexer == nil {
		return nil
	}
	defer func() {
		// A lexer is third-party code run on a page's text: if it fails,
		// the code still reads.
		if recover() != nil {
			out = nil
		}
	}()
	src := strings.Join(lines, "\n") + "\n"
	tokens, err := chroma.Tokenise(chroma.Coalesce(lexer), nil, src)
	if err != nil {
		return nil
	}
	var b strings.Builder
	for _, t := range tokens {
		b.WriteString(t.Value)
	}
	if b.String() != src {
		return nil
	}
	split := chroma.SplitTokensIntoLines(tokens)
	if len(split) < len(lines) {
		return nil
	}
	out = make([]string, len(lines))
	for i := range lines {
		var lb strings.Builder
		for _, t := range split[i] {
			writeToken(&lb, t)
		}
		out[i] = lb.String()
	}
	return out
}

// languageClass keeps a syntax name usable in a class: letters, digits and
// + # - . _
func languageClass(s string) string {
	if s == "" || len(s) > 40 {
		return ""
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("+#-._", c) >= 0) {
			return ""
		}
	}
	return strings.ToLower(s)
}

// HighlightCSS returns the stylesheet for highlighted code: the rules of
// chroma style light, and those of style dark for readers who prefer a
// dark color scheme ("" for none). Style names are chroma's (github,
// github-dark, monokai, ...; see styles.Names).
func HighlightCSS(light, dark string) (string, error) {
	var b strings.Builder
	f := chromahtml.New(chromahtml.WithClasses(true), chromahtml.WithLineNumbers(true))
	ls, ok := styles.Registry[light]
	if !ok {
		return "", fmt.Errorf("unknown highlighting style %q", light)
	}
	if err := f.WriteCSS(&b, ls); err != nil {
		return "", fmt.Errorf("highlighting style %q: %w", light, err)
	}
	if dark != "" {
		ds, ok := styles.Registry[dark]
		if !ok {
			return "", fmt.Errorf("unknown highlighting style %q", dark)
		}
		b.WriteString("@media (prefers-color-scheme: dark) {\n")
		if err := f.WriteCSS(&b, ds); err != nil {
			return "", fmt.Errorf("highlighting style %q: %w", dark, err)
		}
		b.WriteString("}\n")
	}
	return b.String(), nil
}

// codeText writes the text of a code line outside a code block.
func (r *renderer) codeText(nodes []document.Node) {
	r.esc(document.InlineText(nodes))
}
