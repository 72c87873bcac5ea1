package render

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"quire/internal/document"
)

// fakeLinks resolves pages and files that the test lists; anything else is
// hidden from the reader.
type fakeLinks struct {
	pages  map[string]string // page id → href
	files  map[string]File
	specs  map[string]string
	titles map[string]string // page id → title
}

func (l fakeLinks) Ref(ref document.ContentRef) (string, bool) {
	switch ref.Kind {
	case document.RefURL:
		return ref.URL, true
	case document.RefPage:
		h, ok := l.pages[ref.Page]
		return h, ok
	case document.RefAnchor:
		if ref.Page == "" {
			return "#" + ref.Anchor, true
		}
		h, ok := l.pages[ref.Page]
		return h + "#" + ref.Anchor, ok
	case document.RefOpenAPI:
		h, ok := l.specs[ref.Spec]
		return h, ok
	case document.RefFile:
		f, ok := l.files[ref.File]
		return f.URL, ok
	}
	return "", false
}

func (l fakeLinks) File(id string) (File, bool) {
	f, ok := l.files[id]
	return f, ok
}

func (l fakeLinks) Title(ref document.ContentRef) (string, bool) {
	t, ok := l.titles[ref.Page]
	return t, ok
}

var testLinks = fakeLinks{
	pages:  map[string]string{"p1": "/docs/getting-started"},
	files:  map[string]File{"f1": {URL: "/files/f1/logo.png", Name: "logo.png", ContentType: "image/png", Width: 200, Height: 100, Size: 2048}},
	specs:  map[string]string{"petstore": "/openapi/petstore.yaml"},
	titles: map[string]string{"p1": "Getting started"},
}

// fromMarkdown builds a document from Markdown.
func fromMarkdown(t testing.TB, md string) *document.Document {
	t.Helper()
	doc, err := document.FromMarkdown(md)
	if err != nil {
		t.Fatalf("FromMarkdown: %v", err)
	}
	return doc
}

// fromJSON builds a document from its JSON form, validated.
func fromJSON(t testing.TB, js string) *document.Document {
	t.Helper()
	doc, err := document.Parse([]byte(js))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return doc
}

func docOf(nodes ...document.Node) *document.Document {
	return &document.Document{Data: map[string]any{}, Nodes: nodes}
}

// render renders doc with the test links and returns the result, its HTML
// parsed as a body fragment under a <div>.
func render(t testing.TB, doc *document.Document, opt Options) (Result, *html.Node) {
	t.Helper()
	if opt.Links == nil {
		opt.Links = testLinks
	}
	res, err := Document(doc, opt)
	if err != nil {
		t.Fatalf("Document: %v", err)
	}
	return res, parseHTML(t, string(res.HTML))
}

func parseHTML(t testing.TB, s string) *html.Node {
	t.Helper()
	root := &html.Node{Type: html.ElementNode, Data: "div"}
	nodes, err := html.ParseFragment(strings.NewReader(s), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		t.Fatalf("parse HTML: %v\n%s", err, s)
	}
	for _, n := range nodes {
		root.AppendChild(n)
	}
	return root
}

// find returns the elements below n matching selector, a tag name with
// optional .class parts ("aside.hint", ".stepper", "a").
func find(n *html.Node, selector string) []*html.Node {
	tag, classes := selector, []string(nil)
	if i := strings.IndexByte(selector, '.'); i >= 0 {
		tag, classes = selector[:i], strings.Split(selector[i+1:], ".")
	}
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(c *html.Node) {
		for k := c.FirstChild; k != nil; k = k.NextSibling {
			if k.Type == html.ElementNode && (tag == "" || k.Data == tag) && hasClasses(k, classes) {
				out = append(out, k)
			}
			walk(k)
		}
	}
	walk(n)
	return out
}

func one(t testing.TB, n *html.Node, selector string) *html.Node {
	t.Helper()
	got := find(n, selector)
	if len(got) != 1 {
		t.Fatalf("%d elements match %q, want 1, in:\n%s", len(got), selector, outer(n))
	}
	return got[0]
}

func hasClasses(n *html.Node, classes []string) bool {
	have := strings.Fields(attr(n, "class"))
	for _, c := range classes {
		found := false
		for _, h := range have {
			found = found || h == c
		}
		if !found {
			return false
		}
	}
	return true
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// text is the text content of n.
func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(c *html.Node) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
		for k := c.FirstChild; k != nil; k = k.NextSibling {
			walk(k)
		}
	}
	walk(n)
	return b.String()
}

func outer(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		_ = html.Render(&b, c)
	}
	return b.String()
}
