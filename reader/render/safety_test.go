package render

import (
	"strings"
	"testing"

	"golang.org/x/net/html"

	"quire/internal/document"
)

// TestUnsafeSchemes renders links, buttons, images, embeds and integration
// URLs with schemes that run code or carry content as text only.
func TestUnsafeSchemes(t *testing.T) {
	unsafe := []string{
		"javascript:alert(1)",
		"JavaScript:alert(1)",
		"java\tscript:alert(1)",
		" javascript:alert(1)",
		"\x01javascript:alert(1)",
		"data:text/html;base64,PHNjcmlwdD4=",
		"vbscript:msgbox(1)",
		"file:///etc/passwd",
	}
	for _, u := range unsafe {
		t.Run(u, func(t *testing.T) {
			doc := docOf(
				para(inline(document.InlineLink, map[string]any{"ref": urlRef(u)}, document.NewText("link text"))),
				para(inline(document.InlineButton, map[string]any{"label": "button", "kind": "primary", "ref": urlRef(u)})),
				para(inline(document.InlineImage, map[string]any{"ref": urlRef(u), "alt": "img"})),
				document.NewBlock(document.BlockEmbed, map[string]any{"url": u}),
				document.NewBlock(document.BlockIntegration, map[string]any{"integration": "x", "block": "b", "props": map[string]any{}, "url": u}),
			)
			res, root := render(t, doc, Options{})
			if n := len(find(root, "a")) + len(find(root, "img")); n != 0 {
				t.Errorf("%d links or images for %q: %s", n, u, res.HTML)
			}
			for _, want := range []string{"link text", "button", "img"} {
				if !strings.Contains(text(root), want) {
					t.Errorf("text %q missing: %s", want, res.HTML)
				}
			}
			assertSafe(t, string(res.HTML))
		})
	}
	// The same holds for what Links answers: a resolver that returns an
	// unsafe URL does not get it into the page.
	res, root := render(t, docOf(para(inline(document.InlineLink, map[string]any{"ref": pageRef("p")}, document.NewText("t")))),
		Options{Links: evilLinks{}})
	if len(find(root, "a")) != 0 {
		t.Errorf("unsafe href from Links: %s", res.HTML)
	}
}

type evilLinks struct{}

func (evilLinks) Ref(document.ContentRef) (string, bool) { return "javascript:alert(1)", true }
func (evilLinks) File(string) (File, bool)               { return File{URL: "javascript:alert(1)"}, true }

func TestSafeSchemes(t *testing.T) {
	for _, u := range []string{"https://example.com", "HTTP://example.com", "mailto:a@example.com", "/docs/a:b", "#intro", "page?x=1", "//cdn.example.com/x"} {
		if !safeURL(u) {
			t.Errorf("safeURL(%q) = false", u)
		}
	}
	if safeSrc("mailto:a@example.com") {
		t.Error("mailto is not an image source")
	}
}

// TestEscaping puts markup into every kind of text a document carries.
func TestEscaping(t *testing.T) {
	const x = `<script>alert(1)</script>"'&`
	md := "# " + x + "\n\n" + x + "\n\n```go\n" + x + "\n```\n\n| " + "&lt;img src=x onerror=alert(1)&gt;" + " |\n| - |\n| " + x + " |\n"
	doc := fromMarkdown(t, md)
	doc.Nodes = append(doc.Nodes,
		document.NewBlock(document.BlockMath, map[string]any{"formula": x}),
		document.NewBlock(document.BlockTabs, nil, document.NewBlock(document.BlockTabsItem, map[string]any{"title": x}, para(document.NewText(x)))),
		para(inline(document.InlineImage, map[string]any{"ref": urlRef(`https://x/"onerror="alert(1)`), "alt": x})),
		para(inline(document.InlineLink, map[string]any{"ref": urlRef(`https://x/"><script>`)}, document.NewText(x))),
	)
	res, root := render(t, doc, Options{})
	assertSafe(t, string(res.HTML))
	if n := strings.Count(text(root), "<script>alert(1)</script>"); n < 6 {
		t.Errorf("the markup shows as text %d times, want at least 6: %s", n, res.HTML)
	}
}

// assertSafe fails when HTML does not parse, or holds an element or
// attribute that can run code, load a frame or style the page.
func assertSafe(t testing.TB, s string) {
	t.Helper()
	root := parseHTML(t, s)
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "script", "iframe", "style", "object", "embed", "frame", "frameset", "base", "meta", "link", "form":
				t.Errorf("<%s> in output: %s", n.Data, s)
			}
			for _, a := range n.Attr {
				key := strings.ToLower(a.Key)
				if strings.HasPrefix(key, "on") || key == "style" || key == "srcdoc" || key == "formaction" {
					t.Errorf("attribute %s in output: %s", a.Key, s)
				}
				if key == "href" || key == "src" || key == "srcset" || key == "action" {
					if !safeURL(a.Val) {
						t.Errorf("unsafe URL %s=%q in output", a.Key, a.Val)
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
}

// TestHeadingIDs checks that heading ids are the anchors links use, unique
// in the page, and listed in the outline.
func TestHeadingIDs(t *testing.T) {
	doc := fromMarkdown(t, "# Intro\n\n## Setup\n\n## Setup\n\n### Setup 2\n\n## Setup\n\n# Custom {#my-id}\n\n# 😀\n\n# Intro")
	res, root := render(t, doc, Options{})
	var hs []*html.Node
	for _, n := range find(root, "") {
		switch n.Data {
		case "h2", "h3", "h4":
			hs = append(hs, n)
		}
	}
	want := []Heading{
		{"intro", "Intro", 1}, {"setup", "Setup", 2}, {"setup-2", "Setup", 2}, {"setup-2-2", "Setup 2", 3},
		{"setup-3", "Setup", 2}, {"my-id", "Custom", 1}, {"section", "😀", 1}, {"intro-2", "Intro", 1},
	}
	if len(hs) != len(want) || len(res.Outline) != len(want) {
		t.Fatalf("%d headings, %d outline entries, want %d: %s", len(hs), len(res.Outline), len(want), res.HTML)
	}
	seen := map[string]bool{}
	for i, w := range want {
		if res.Outline[i] != w {
			t.Errorf("outline[%d] = %+v, want %+v", i, res.Outline[i], w)
		}
		id := attr(hs[i], "id")
		if id != w.ID || seen[id] {
			t.Errorf("heading %d id %q, want %q (unique)", i, id, w.ID)
		}
		seen[id] = true
		// The first heading of each text has exactly the anchor that
		// links to it use.
		if anchor := document.HeadingAnchor(&doc.Nodes[i]); i < 2 || i == 5 {
			if anchor != id {
				t.Errorf("heading %d id %q, HeadingAnchor %q", i, id, anchor)
			}
		}
	}
}

// TestText is the start of the page's text, for a meta description.
func TestText(t *testing.T) {
	long := strings.Repeat("word ", 200)
	res, _ := render(t, fromMarkdown(t, "# Title\n\nFirst *para*.\n\n```\ncode is left out\n```\n\n"+long), Options{})
	if !strings.HasPrefix(res.Text, "Title First para. word word") || strings.Contains(res.Text, "code") {
		t.Errorf("text %q", res.Text)
	}
	if n := len([]rune(res.Text)); n > maxText+1 || !strings.HasSuffix(res.Text, "…") {
		t.Errorf("text is %d characters: %q", n, res.Text)
	}
}

func TestNilDocument(t *testing.T) {
	res, err := Document(nil, Options{})
	if err != nil || res.HTML != "" {
		t.Errorf("got %+v, %v", res, err)
	}
}

func TestEscapeTo(t *testing.T) {
	var b strings.Builder
	escapeTo(&b, "a<b>&\"'\x00\xff z")
	if got := b.String(); got != "a&lt;b&gt;&amp;&#34;&#39;\uFFFD z" {
		t.Errorf("escaped %q", got)
	}
}

// TestReservedIDs keeps heading ids clear of the ids of the page around
// the content.
func TestReservedIDs(t *testing.T) {
	res, _ := render(t, fromMarkdown(t, "# Main\n\n# Main"), Options{ReservedIDs: []string{"main"}})
	if len(res.Outline) != 2 || res.Outline[0].ID != "main-2" || res.Outline[1].ID != "main-3" {
		t.Errorf("outline %+v", res.Outline)
	}
}

// TestSamePageAnchorWithoutLinks links to a section of the page when no
// Links is given, and to nothing else but URLs.
func TestSamePageAnchorWithoutLinks(t *testing.T) {
	res, err := Document(fromMarkdown(t, "[intro](#intro) [page](page://p1) [ex](https://example.com)"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	root := parseHTML(t, string(res.HTML))
	var hrefs []string
	for _, a := range find(root, "a") {
		hrefs = append(hrefs, attr(a, "href"))
	}
	if strings.Join(hrefs, " ") != "#intro https://example.com" {
		t.Errorf("links %v: %s", hrefs, res.HTML)
	}
}
