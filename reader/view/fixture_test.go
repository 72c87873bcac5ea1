package view

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"quire/internal/customization"
)

// fullPage is a page with every part of the frame filled in.
func fullPage() *Page {
	settings := customization.Defaults()
	return &Page{
		Kind:        KindPage,
		Status:      200,
		Title:       "Install · Docs",
		Description: "How to install.",
		Lang:        "fr",
		Robots:      "noindex",
		Canonical:   "https://docs.example.com/install",
		Alternates:  []Alternate{{Href: "https://docs.example.com/de/install", Hreflang: "de"}},
		SocialImage: "https://docs.example.com/og.png",
		AssetBase:   "/_quire/",
		ThemeHref:   "/_quire/theme-0123456789abcdef.css",
		Scripts:     []Script{{Src: "https://cdn.example.com/a.js"}},
		Settings:    &settings,
		Site: Site{
			Title:     "Example Docs",
			HomeURL:   "/",
			SearchURL: "/search",
			LogoLight: "/logo.png",
			HeaderLinks: []Link{
				{Title: "Blog", Href: "https://example.com/blog", Style: "button-primary"},
				{Title: "Products", Children: []Link{{Title: "One", Href: "/one"}, {Title: "Two", Href: "/two"}}},
			},
			Announcement:  &Announcement{Message: "New release", Style: "warning", Link: &Link{Title: "Read", Href: "/news"}},
			FooterGroups:  []LinkGroup{{Title: "Company", Links: []Link{{Title: "About", Href: "/about"}}}},
			Copyright:     "© Example",
			PrivacyPolicy: "https://example.com/privacy",
			ThemeToggle:   true,
		},
		Sections: []Tab{
			{Title: "Guides", Href: "/guides", Current: true},
			{Title: "More", Children: []Tab{{Title: "API", Href: "/api", Icon: "📘"}}},
		},
		Variants: []Tab{{Title: "v2", Href: "/v2", Current: true}, {Title: "v1", Href: "/v1"}},
		Sidebar: []Nav{
			{Title: "Start", Href: "/start"},
			{Title: "Setup", Children: []Nav{
				{Title: "Install", Href: "/install", Current: true},
				{Title: "Upgrade", Href: "/upgrade", Children: []Nav{{Title: "Hidden below", Href: "/hb"}}},
			}},
			{Title: "GitHub", Href: "https://github.com/example", External: true},
		},
		Breadcrumbs: []Link{{Title: "Setup", Href: "/setup"}},
		Prev:        &Link{Title: "Start", Href: "/start"},
		Next:        &Link{Title: "Upgrade", Href: "/upgrade"},
		Layout:      Layout{Cover: true, Title: true, Description: true, TableOfContents: true, Outline: true, Pagination: true},
		Heading:     "Install",
		Lead:        "Get it running.",
		Cover:       &Image{Src: "/cover.png", Alt: "A cover"},
		Content:     template.HTML(`<h2 id="a">A</h2><p>Text</p><h2 id="b">B</h2><p>More</p>`),
		Outline:     []Heading{{ID: "a", Title: "A", Level: 2}, {ID: "b", Title: "B", Level: 2}},
		Actions:     Actions{EditURL: "https://git.example.com/edit", PDFURL: "/install.pdf", MarkdownURL: "/install.md"},
	}
}

// render renders p and parses the result.
func render(t testing.TB, p *Page) (string, *html.Node) {
	t.Helper()
	var b bytes.Buffer
	if err := Render(&b, p); err != nil {
		t.Fatalf("Render: %v", err)
	}
	doc, err := html.Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return b.String(), doc
}

// all returns the elements under n that match.
func all(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func tag(name string) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.Data == name }
}

// with matches elements of the tag that carry attr=value ("" value: any).
func with(name, attr, value string) func(*html.Node) bool {
	return func(n *html.Node) bool {
		if name != "" && n.Data != name {
			return false
		}
		v, ok := attrOf(n, attr)
		return ok && (value == "" || v == value)
	}
}

func attrOf(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.TrimSpace(b.String())
}

// texts are the texts of the nodes.
func texts(ns []*html.Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = text(n)
	}
	return out
}

// checkCSP fails when the document has anything the reader's
// Content-Security-Policy would block: inline script, inline style.
func checkCSP(t *testing.T, doc *html.Node) {
	t.Helper()
	for _, s := range all(doc, tag("script")) {
		if _, ok := attrOf(s, "src"); !ok || s.FirstChild != nil {
			t.Errorf("inline script: %s", fmt.Sprint(s.Attr))
		}
	}
	if n := all(doc, tag("style")); len(n) > 0 {
		t.Errorf("%d <style> elements", len(n))
	}
	for _, n := range all(doc, func(n *html.Node) bool { _, ok := attrOf(n, "style"); return ok }) {
		t.Errorf("style attribute on <%s>", n.Data)
	}
	for _, n := range all(doc, func(n *html.Node) bool {
		for _, a := range n.Attr {
			if strings.HasPrefix(a.Key, "on") {
				return true
			}
		}
		return false
	}) {
		t.Errorf("event handler attribute on <%s>", n.Data)
	}
}
