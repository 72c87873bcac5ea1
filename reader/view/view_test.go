package view

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestRenderPageFrame(t *testing.T) {
	out, doc := render(t, fullPage())
	checkCSP(t, doc)

	if !strings.HasPrefix(out, "<!doctype html>") {
		t.Errorf("document starts %q", out[:20])
	}
	if h := all(doc, tag("html")); len(h) != 1 || attrFor(h[0], "lang") != "fr" {
		t.Errorf("html lang: %v", h[0].Attr)
	}
	// Head.
	for _, want := range []func(*html.Node) bool{
		with("meta", "charset", "utf-8"),
		with("meta", "name", "viewport"),
		with("meta", "name", "description"),
		with("meta", "name", "robots"),
		with("link", "rel", "canonical"),
		with("link", "hreflang", "de"),
		with("meta", "property", "og:title"),
		with("meta", "property", "og:description"),
		with("meta", "property", "og:image"),
	} {
		if len(all(doc, want)) != 1 {
			t.Errorf("head lacks an element: %s", out[:600])
			break
		}
	}
	if got := texts(all(doc, tag("title"))); !slices.Equal(got, []string{"Install · Docs"}) {
		t.Errorf("title %q", got)
	}
	icon := all(doc, with("link", "rel", "icon"))
	if len(icon) != 1 || attrFor(icon[0], "href") != "/_quire/"+AssetName("favicon.svg") {
		t.Errorf("favicon %v", icon)
	}
	var sheets []string
	for _, l := range all(doc, with("link", "rel", "stylesheet")) {
		sheets = append(sheets, attrFor(l, "href"))
	}
	if want := []string{"/_quire/" + AssetName("reader.css"), "/_quire/theme-0123456789abcdef.css"}; !slices.Equal(sheets, want) {
		t.Errorf("stylesheets %q, want %q (base first)", sheets, want)
	}
	scripts := all(doc, tag("script"))
	if len(scripts) != 2 || attrFor(scripts[0], "src") != "/_quire/"+AssetName("reader.js") || attrFor(scripts[1], "src") != "https://cdn.example.com/a.js" {
		t.Fatalf("scripts %v", scripts)
	}
	for _, s := range scripts {
		if _, ok := attrOf(s, "defer"); !ok {
			t.Errorf("script %s is not deferred", attrFor(s, "src"))
		}
	}

	// Skip link first, pointing at main.
	links := all(doc, tag("a"))
	if attrFor(links[0], "href") != "#content" || text(links[0]) != "Skip to content" {
		t.Errorf("first link %q %q", attrFor(links[0], "href"), text(links[0]))
	}
	if m := all(doc, tag("main")); len(m) != 1 || attrFor(m[0], "id") != "content" {
		t.Errorf("main %v", m)
	}
	for _, landmark := range []string{"header", "footer", "aside"} {
		if len(all(doc, tag(landmark))) == 0 {
			t.Errorf("no <%s>", landmark)
		}
	}
	var navs []string
	for _, n := range all(doc, tag("nav")) {
		l, ok := attrOf(n, "aria-label")
		if !ok {
			l, ok = attrOf(n, "aria-labelledby")
		}
		if !ok {
			t.Errorf("unlabelled nav")
		}
		navs = append(navs, l)
	}
	if want := []string{"Site", "Sections", "Variants", "Pages", "Breadcrumb", "Previous and next page", "outline-title"}; !slices.Equal(navs, want) {
		t.Errorf("navs %q, want %q", navs, want)
	}
	if h1 := all(doc, tag("h1")); len(h1) != 1 || text(h1[0]) != "Install" {
		t.Errorf("h1s %q", texts(h1))
	}

	// Current items.
	if got := texts(all(doc, with("a", "aria-current", "page"))); !slices.Equal(got, []string{"Install"}) {
		t.Errorf("aria-current=page on %q", got)
	}
	if got := texts(all(doc, with("a", "aria-current", "true"))); !slices.Equal(got, []string{"Guides", "v2"}) {
		t.Errorf("aria-current=true on %q", got)
	}
	if strings.Contains(out, "Hidden below") {
		t.Error("a collapsed subtree is rendered")
	}

	// Header parts.
	form := all(doc, with("form", "role", "search"))
	if len(form) != 1 || attrFor(form[0], "action") != "/search" || attrFor(form[0], "method") != "get" {
		t.Fatalf("search form %v", form)
	}
	q := all(form[0], with("input", "name", "q"))
	if len(q) != 1 || len(all(doc, with("label", "for", attrFor(q[0], "id")))) != 1 {
		t.Errorf("search input without a label")
	}
	if b := all(doc, with("button", "class", "theme-toggle")); len(b) != 1 || !strings.Contains(text(b[0]), "Dark theme") {
		t.Errorf("theme toggle %v", b)
	}
	if logo := all(doc, with("img", "class", "logo")); len(logo) != 1 || attrFor(logo[0], "alt") != "Example Docs" {
		t.Errorf("logo %v", logo)
	}
	if got := texts(all(doc, with("details", "class", "dropdown"))); len(got) != 3 {
		t.Errorf("dropdowns %q", got)
	}
	if b := all(doc, with("a", "class", "button button-primary")); len(b) != 1 || text(b[0]) != "Blog" {
		t.Errorf("header button %q", texts(b))
	}
	if a := all(doc, with("div", "class", "announcement hint-warning")); len(a) != 1 || !strings.Contains(text(a[0]), "Warning: New release") {
		t.Errorf("announcement %q", texts(a))
	}

	// Page parts.
	if bc := all(doc, with("nav", "aria-label", "Breadcrumb")); len(all(bc[0], tag("ol"))) != 1 {
		t.Error("breadcrumbs without <ol>")
	}
	if got := texts(all(doc, with("p", "class", "lead"))); !slices.Equal(got, []string{"Get it running."}) {
		t.Errorf("lead %q", got)
	}
	if c := all(doc, with("img", "class", "cover")); len(c) != 1 || attrFor(c[0], "alt") != "A cover" {
		t.Errorf("cover %v", c)
	}
	if got := texts(all(doc, with("aside", "class", "outline"))); len(got) != 1 || !strings.Contains(got[0], "On this page") {
		t.Errorf("outline %q", got)
	}
	if p, n := all(doc, with("a", "rel", "prev")), all(doc, with("a", "rel", "next")); len(p) != 1 || len(n) != 1 || attrFor(n[0], "href") != "/upgrade" {
		t.Errorf("pagination prev %d next %d", len(p), len(n))
	}
	if got := texts(all(doc, with("ul", "class", "page-actions"))); len(got) != 1 || !strings.Contains(got[0], "Edit on Git") || !strings.Contains(got[0], "PDF") || !strings.Contains(got[0], "Markdown") {
		t.Errorf("actions %q", got)
	}
	if !strings.Contains(out, `<h2 id="a">A</h2>`) {
		t.Error("content not placed as is")
	}
	if f := all(doc, tag("footer")); !strings.Contains(text(f[0]), "© Example") || len(all(f[0], with("a", "href", "https://example.com/privacy"))) != 1 {
		t.Errorf("footer %q", text(f[0]))
	}
}

func attrFor(n *html.Node, key string) string {
	v, _ := attrOf(n, key)
	return v
}

func TestRenderEscapesHostileText(t *testing.T) {
	const evil = `<script>alert(1)</script>`
	p := fullPage()
	p.Title, p.Heading, p.Lead, p.Message = evil, evil, evil, evil
	p.Site.Title = evil
	p.Sidebar[0].Title = evil
	p.Sections[0].Title = evil
	p.Breadcrumbs[0].Title = evil
	p.Site.HeaderLinks[0].Href = "javascript:alert(1)"
	p.Sidebar[0].Href = "javascript:alert(1)"
	p.Site.Announcement.Style = `x" onclick="alert(1)`
	p.Site.HeaderLinks[1].Style = `x" onclick="alert(1)`
	out, doc := render(t, p)
	checkCSP(t, doc)
	if strings.Contains(out, evil) {
		t.Error("hostile text reached the page unescaped")
	}
	if h1 := all(doc, tag("h1")); text(h1[0]) != evil {
		t.Errorf("h1 text %q, want the literal text", text(h1[0]))
	}
	if strings.Contains(out, "javascript:") {
		t.Error("javascript: URL kept")
	}
	if n := strings.Count(out, `href="#ZgotmplZ"`); n != 2 {
		t.Errorf("%d javascript: links neutralised, want 2", n)
	}

	for _, kind := range []Kind{KindNotFound, KindUnauthorized, KindSearch} {
		p := fullPage()
		p.Kind, p.Message, p.Search = kind, evil, &Search{Query: evil, Error: evil}
		out, doc := render(t, p)
		checkCSP(t, doc)
		if strings.Contains(out, evil) {
			t.Errorf("%s page: hostile text unescaped", kind)
		}
	}
}

func TestRenderSearchPage(t *testing.T) {
	p := fullPage()
	p.Kind = KindSearch
	p.Search = &Search{Query: "install", Results: []SearchResult{
		{Title: "Install", Href: "/install", Space: "v2", Excerpt: "how to <mark>install</mark>"},
		{Title: "Upgrade", Href: "/upgrade"},
	}}
	_, doc := render(t, p)
	checkCSP(t, doc)
	res := all(doc, with("ol", "class", "results"))
	if len(res) != 1 {
		t.Fatal("no results list")
	}
	if got := texts(all(res[0], tag("a"))); !slices.Equal(got, []string{"Install", "Upgrade"}) {
		t.Errorf("result titles %q", got)
	}
	if got := texts(all(res[0], tag("mark"))); !slices.Equal(got, []string{"install"}) {
		t.Errorf("excerpt marks %q", got)
	}
	if got := texts(all(res[0], with("span", "class", "space"))); !slices.Equal(got, []string{"v2"}) {
		t.Errorf("spaces %q", got)
	}
	if len(all(doc, tag("h1"))) != 1 || len(all(doc, tag("main"))) != 1 {
		t.Error("search page lacks its h1 or main")
	}

	p.Search = &Search{Query: "nothing"}
	if _, doc := render(t, p); !strings.Contains(text(all(doc, tag("main"))[0]), "No pages match “nothing”") {
		t.Errorf("empty state: %q", text(all(doc, tag("main"))[0]))
	}
	p.Search = &Search{Query: "x", Error: "The query is too long."}
	if _, doc := render(t, p); len(all(doc, with("p", "role", "alert"))) != 1 {
		t.Error("error not shown as an alert")
	}
	p.Search = nil
	if _, doc := render(t, p); !strings.Contains(text(all(doc, tag("main"))[0]), "Type one or more words") {
		t.Error("no prompt without a query")
	}
}

func TestRenderErrorPages(t *testing.T) {
	p := fullPage()
	p.Kind, p.Status, p.Message = KindNotFound, 404, "No page at /nope."
	_, doc := render(t, p)
	checkCSP(t, doc)
	main := all(doc, tag("main"))[0]
	if got := texts(all(main, tag("h1"))); !slices.Equal(got, []string{"Page not found"}) {
		t.Errorf("404 h1 %q", got)
	}
	if !strings.Contains(text(main), "No page at /nope.") || len(all(main, with("form", "action", "/search"))) != 1 {
		t.Errorf("404 body %q", text(main))
	}
	if len(all(doc, with("nav", "aria-label", "Pages"))) != 0 {
		t.Error("404 page shows the page tree")
	}

	p.Kind, p.Status, p.LoginURL, p.Site.SearchURL = KindUnauthorized, 401, "/auth/login?next=%2F", ""
	_, doc = render(t, p)
	main = all(doc, tag("main"))[0]
	if len(all(main, with("a", "href", "/auth/login?next=%2F"))) != 1 {
		t.Error("401 page without its login link")
	}
	if len(all(doc, tag("form"))) != 0 {
		t.Error("search form without a search URL")
	}
}

func TestLayoutFlags(t *testing.T) {
	p := fullPage()
	p.Layout = Layout{TableOfContents: true, Outline: false, Pagination: false}
	out, doc := render(t, p)
	if strings.Contains(out, "On this page") {
		t.Error("outline shown with Layout.Outline off")
	}
	if len(all(doc, with("a", "rel", "prev")))+len(all(doc, with("a", "rel", "next"))) != 0 {
		t.Error("pagination shown with Layout.Pagination off")
	}
	if len(all(doc, with("img", "class", "cover")))+len(all(doc, with("p", "class", "lead"))) != 0 {
		t.Error("cover or lead shown with their flags off")
	}
	if h1 := all(doc, tag("h1")); len(h1) != 1 || attrFor(h1[0], "class") != "visually-hidden" {
		t.Error("a hidden title still needs its (visually hidden) h1")
	}

	p = fullPage()
	p.Outline = p.Outline[:1]
	if out, _ := render(t, p); strings.Contains(out, "On this page") {
		t.Error("outline shown for a single heading")
	}
	p.Layout.TableOfContents = false
	if _, doc := render(t, p); len(all(doc, with("nav", "aria-label", "Pages"))) != 0 {
		t.Error("page tree shown with Layout.TableOfContents off")
	}
}

func TestFavicon(t *testing.T) {
	p := fullPage()
	p.Favicon = "https://cdn.example.com/icon.png"
	if _, doc := render(t, p); attrFor(all(doc, with("link", "rel", "icon"))[0], "href") != p.Favicon {
		t.Error("site favicon not used")
	}
	p.Favicon, p.FaviconEmoji = "", "📘"
	out, doc := render(t, p)
	if attrFor(all(doc, with("link", "rel", "icon"))[0], "href") != "/_quire/"+AssetName("favicon.svg") {
		t.Error("an emoji favicon must fall back to the embedded icon")
	}
	if strings.Contains(out, "data:") {
		t.Error("a data: URL in the page")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("gone") }

func TestRenderErrors(t *testing.T) {
	if err := Render(failWriter{}, fullPage()); err == nil {
		t.Error("a write error is not returned")
	}
	if err := Render(failWriter{}, nil); err == nil {
		t.Error("a nil page is not an error")
	}
}

func TestDefaultThemeAttribute(t *testing.T) {
	for theme, want := range map[string]string{"dark": "dark", "light": "light", "": ""} {
		p := fullPage()
		p.Site.DefaultTheme = theme
		_, doc := render(t, p)
		// No attribute means "follow the system": the stylesheets' dark
		// rules under prefers-color-scheme apply only then.
		got, ok := attrOf(all(doc, tag("html"))[0], "data-theme")
		if got != want || ok != (want != "") {
			t.Errorf("DefaultTheme %q: data-theme %q (present %v)", theme, got, ok)
		}
	}
	p := fullPage()
	p.Site.ThemeToggle = false
	if _, doc := render(t, p); len(all(doc, with("button", "class", "theme-toggle"))) != 0 {
		t.Error("toggle shown on a site without it")
	}
}
