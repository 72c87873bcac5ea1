package view

import (
	"html/template"
	"strings"
)

// treeHTML writes the sidebar's page tree. It is the one part of the page
// written in Go rather than in a template: a space's tree has hundreds of
// entries on every page, and html/template's reflection and per-value
// escaper calls made it nine tenths of Render's time. It escapes exactly
// what the template did (text and attributes HTML-escaped, hrefs through
// safeHref), which tree_test.go checks against the template it replaced.
func treeHTML(nav []Nav) template.HTML {
	var b strings.Builder
	b.Grow(len(nav) * 96)
	writeTree(&b, nav)
	return template.HTML(b.String())
}

func writeTree(b *strings.Builder, nav []Nav) {
	b.WriteString("<ul>")
	for i := range nav {
		n := &nav[i]
		open := showNav(*n)
		b.WriteString("\n<li")
		if open {
			b.WriteString(` class="open"`)
		} else if len(n.Children) > 0 {
			b.WriteString(` class="closed"`)
		}
		b.WriteByte('>')
		if n.Href != "" {
			b.WriteString(`<a href="`)
			b.WriteString(template.HTMLEscapeString(safeHref(n.Href)))
			b.WriteByte('"')
			if n.Current {
				b.WriteString(` aria-current="page"`)
			}
			if n.External {
				b.WriteString(` rel="noopener"`)
			}
			b.WriteByte('>')
			writeIcon(b, n.Icon)
			b.WriteString(template.HTMLEscapeString(n.Title))
			if n.External {
				b.WriteString(`<span class="visually-hidden"> (external)</span><span aria-hidden="true" class="ext">↗</span>`)
			}
			b.WriteString("</a>")
		} else {
			b.WriteString(`<span class="group">`)
			writeIcon(b, n.Icon)
			b.WriteString(template.HTMLEscapeString(n.Title))
			b.WriteString("</span>")
		}
		if open {
			writeTree(b, n.Children)
		}
		b.WriteString("</li>")
	}
	b.WriteString("\n</ul>")
}

func writeIcon(b *strings.Builder, icon string) {
	if e := emoji(icon); e != "" {
		b.WriteString(`<span aria-hidden="true">`)
		b.WriteString(template.HTMLEscapeString(e))
		b.WriteString("</span> ")
	}
}

// safeHref is what html/template makes of a URL in an href: a URL whose
// scheme is not http, https or mailto becomes "#ZgotmplZ", and bytes that
// may not appear in a URL are percent-encoded (valid escapes are kept).
func safeHref(s string) string {
	if scheme, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(scheme, "/") {
		if !strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") && !strings.EqualFold(scheme, "mailto") {
			return "#ZgotmplZ"
		}
	}
	for i := 0; i < len(s); i++ {
		if !urlByte(s, i) {
			return normalizeURL(s)
		}
	}
	return s
}

func normalizeURL(s string) string {
	const hex = "0123456789abcdef"
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); i++ {
		if urlByte(s, i) {
			b.WriteByte(s[i])
			continue
		}
		c := s[i]
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// urlByte tells whether s[i] stays as it is in a normalized URL: RFC
// 3986's unreserved and reserved characters but for the single quote and
// parentheses, and '%' when it starts a valid escape.
func urlByte(s string, i int) bool {
	c := s[i]
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	case strings.IndexByte("-._~!#$&*+,/:;=?@[]", c) >= 0:
		return true
	case c == '%':
		return i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
