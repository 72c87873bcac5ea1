package view

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io"
	"sync"
	"unicode/utf8"
)

//go:embed templates/*.html
var templateFS embed.FS

// tmpl is parsed once: a template that does not parse is a build mistake,
// caught by every test of this package, not something a request can cause.
var tmpl = template.Must(template.New("").Funcs(template.FuncMap{
	"asset":       AssetName,
	"buttonStyle": buttonStyle,
	"emoji":       emoji,
	"hintStyle":   hintStyle,
	"hintLabel":   hintLabel,
	"treeHTML":    treeHTML,
}).ParseFS(templateFS, "templates/*.html"))

// ThemeCookie is the cookie reader.js sets when a reader switches the
// color mode ("light" or "dark"). On sites with the toggle the door may
// open pages in that mode (Site.DefaultTheme), so that they do not switch
// after the script runs.
const ThemeCookie = "quire-theme"

// bufs keeps render buffers between requests: a page is tens of
// kilobytes, and growing a fresh buffer for each is most of Render's
// allocations.
var bufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Render writes p as a complete HTML document. The page is rendered into a
// buffer first, so a template error is returned before anything reaches w
// and the caller can still answer with an error status.
func Render(w io.Writer, p *Page) error {
	if p == nil {
		return fmt.Errorf("view: render: no page")
	}
	buf := bufs.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		// A buffer grown by one huge page is not kept for every later one.
		if buf.Cap() <= 1<<20 {
			bufs.Put(buf)
		}
	}()
	if err := tmpl.ExecuteTemplate(buf, "layout", p); err != nil {
		return fmt.Errorf("view: render %s page: %w", p.Kind, err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// emoji is s when it is an emoji (any non-ASCII text of a few characters)
// and "" for an icon name: the reader ships no icon font, so named icons
// are left out rather than shown as words.
func emoji(s string) string {
	if s == "" || utf8.RuneCountInString(s) > 8 {
		return ""
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return s
		}
	}
	return ""
}

// hintStyle is an announcement style as a class suffix, "info" for
// anything unknown.
func hintStyle(s string) string {
	switch s {
	case "warning", "danger", "success":
		return s
	}
	return "info"
}

// buttonStyle is the class of a header link drawn as a button, "" for a
// plain link or an unknown style.
func buttonStyle(s string) string {
	switch s {
	case "button-primary", "button-secondary":
		return "button " + s
	}
	return ""
}

// hintLabel names the style in words, so that the banner's meaning does
// not rest on its color.
func hintLabel(s string) string {
	switch hintStyle(s) {
	case "warning":
		return "Warning"
	case "danger":
		return "Important"
	case "success":
		return "Note"
	}
	return "Information"
}

// showNav tells whether an entry's children are listed: a group always
// (it has no page of its own to open), a page when it or a page below it
// is shown. Collapsed subtrees are left out of the HTML, which keeps large
// sidebars small; their pages are one click away.
func showNav(n Nav) bool {
	return len(n.Children) > 0 && (n.Href == "" || n.Open || n.Current)
}
