package render

import (
	"strings"
	"testing"

	"golang.org/x/net/html"

	"quire/internal/document"
	"quire/internal/evaluate"
)

func para(nodes ...document.Node) document.Node {
	return document.NewBlock(document.BlockParagraph, nil, nodes...)
}

func inline(typ string, data map[string]any, nodes ...document.Node) document.Node {
	return document.NewInline(typ, data, nodes...)
}

func pageRef(id string) map[string]any { return map[string]any{"kind": "page", "page": id} }
func urlRef(u string) map[string]any   { return map[string]any{"kind": "url", "url": u} }

// TestInlines renders each inline and mark in a paragraph.
func TestInlines(t *testing.T) {
	tests := []struct {
		name  string
		nodes []document.Node
		check func(t *testing.T, p *html.Node)
	}{
		{"marks", []document.Node{
			document.NewText("b", document.Mark{Type: document.MarkBold}),
			document.NewText("i", document.Mark{Type: document.MarkItalic}),
			document.NewText("s", document.Mark{Type: document.MarkStrikethrough}),
			document.NewText("c", document.Mark{Type: document.MarkCode}),
			document.NewText("k", document.Mark{Type: document.MarkKeyboard}),
			document.NewText("2", document.Mark{Type: document.MarkSuperscript}),
			document.NewText("0", document.Mark{Type: document.MarkSubscript}),
			document.NewText("bi", document.Mark{Type: document.MarkItalic}, document.Mark{Type: document.MarkBold}),
		}, func(t *testing.T, p *html.Node) {
			for tag, want := range map[string]string{"s": "s", "code": "c", "kbd": "k", "sup": "2", "sub": "0"} {
				if got := text(one(t, p, tag)); got != want {
					t.Errorf("<%s> holds %q, want %q", tag, got, want)
				}
			}
			if s := find(p, "strong"); len(s) != 2 || text(s[1]) != "bi" || len(find(s[1], "em")) != 1 {
				t.Errorf("bold and italic: %s", outer(p))
			}
		}},
		{"color mark is a class, never a style", []document.Node{
			document.NewText("red", document.Mark{Type: document.MarkColor, Data: map[string]any{"text": "red", "background": "$warning"}}),
			document.NewText("odd", document.Mark{Type: document.MarkColor, Data: map[string]any{"text": "red;background:url(x)"}}),
		}, func(t *testing.T, p *html.Node) {
			s := one(t, p, "span")
			if attr(s, "class") != "color-red bg-warning" || text(s) != "red" {
				t.Errorf("color: %s", outer(p))
			}
			if !strings.HasSuffix(text(p), "odd") {
				t.Errorf("text: %q", text(p))
			}
		}},
		{"link to a page", []document.Node{inline(document.InlineLink, map[string]any{"ref": pageRef("p1")}, document.NewText("start"))},
			func(t *testing.T, p *html.Node) {
				a := one(t, p, "a")
				if attr(a, "href") != "/docs/getting-started" || text(a) != "start" || hasAttr(a, "rel") {
					t.Errorf("link: %s", outer(p))
				}
			}},
		{"external link", []document.Node{inline(document.InlineLink, map[string]any{"ref": urlRef("https://example.com/?a=1&b=2")}, document.NewText("ex"))},
			func(t *testing.T, p *html.Node) {
				a := one(t, p, "a")
				if attr(a, "href") != "https://example.com/?a=1&b=2" || attr(a, "rel") != "noopener nofollow" {
					t.Errorf("link: %s", outer(p))
				}
			}},
		{"emoji", []document.Node{inline(document.InlineEmoji, map[string]any{"code": "1f600"})}, func(t *testing.T, p *html.Node) {
			if got := text(one(t, p, "span.emoji")); got != "😀" {
				t.Errorf("emoji %q", got)
			}
		}},
		{"icon", []document.Node{inline(document.InlineIcon, map[string]any{"icon": "rocket", "color": "$primary"})}, func(t *testing.T, p *html.Node) {
			one(t, p, "span.icon.icon-rocket.color-primary")
		}},
		{"inline math", []document.Node{inline(document.InlineMath, map[string]any{"formula": `a<b`})}, func(t *testing.T, p *html.Node) {
			if text(one(t, p, "code.math")) != "a<b" {
				t.Errorf("math: %s", outer(p))
			}
		}},
		{"inline image", []document.Node{inline(document.InlineImage, map[string]any{"ref": map[string]any{"kind": "file", "file": "f1"}, "alt": "logo"})},
			func(t *testing.T, p *html.Node) {
				img := one(t, p, "img")
				if attr(img, "src") != "/files/f1/logo.png" || attr(img, "alt") != "logo" || attr(img, "loading") != "lazy" {
					t.Errorf("img: %s", outer(p))
				}
			}},
		{"annotation", []document.Node{func() document.Node {
			n := inline(document.InlineAnnotation, nil, document.NewText("term"))
			n.Fragments = []document.Node{{Object: document.ObjectFragment, Type: "annotation-body", Fragment: "note",
				Nodes: []document.Node{para(document.NewText("the meaning"))}}}
			return n
		}()}, func(t *testing.T, p *html.Node) {
			s := find(p, "span.annotation")
			if len(s) != 1 || attr(s[0], "title") != "the meaning" || !strings.HasPrefix(text(s[0]), "term") {
				t.Errorf("annotation: %s", outer(p))
			}
		}},
		{"mention", []document.Node{inline(document.InlineMention, map[string]any{"ref": pageRef("p1")})}, func(t *testing.T, p *html.Node) {
			a := one(t, p, "a.mention")
			if text(a) != "Getting started" || attr(a, "href") != "/docs/getting-started" {
				t.Errorf("mention: %s", outer(p))
			}
		}},
		{"button", []document.Node{inline(document.InlineButton, map[string]any{"label": "Sign up", "kind": "secondary", "ref": urlRef("https://example.com/signup")})},
			func(t *testing.T, p *html.Node) {
				a := one(t, p, "a.button.button-secondary")
				if text(a) != "Sign up" || attr(a, "href") != "https://example.com/signup" {
					t.Errorf("button: %s", outer(p))
				}
			}},
		{"expression", []document.Node{document.NewText("v"), inline(document.InlineExpression, map[string]any{"expression": `space.vars.version + "<b>"`})},
			func(t *testing.T, p *html.Node) {
				if text(p) != "v2.1<b>" || len(find(p, "b")) != 0 {
					t.Errorf("expression: %s", outer(p))
				}
			}},
		{"expression that does not compile", []document.Node{document.NewText("v"), inline(document.InlineExpression, map[string]any{"expression": `space.vars.(`})},
			func(t *testing.T, p *html.Node) {
				if text(p) != "v" {
					t.Errorf("expression: %s", outer(p))
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := Options{Env: evaluate.Env{Space: map[string]any{"version": "2.1"}}}
			_, root := render(t, docOf(para(tt.nodes...)), opt)
			tt.check(t, one(t, root, "p"))
		})
	}
}

// TestUnresolvableRefs renders links, buttons, images and files that the
// reader may not see as their text, without their targets.
func TestUnresolvableRefs(t *testing.T) {
	doc := docOf(
		para(inline(document.InlineLink, map[string]any{"ref": pageRef("hidden-page")}, document.NewText("secret page"))),
		para(inline(document.InlineButton, map[string]any{"label": "Go", "kind": "primary", "ref": pageRef("hidden-page")})),
		para(inline(document.InlineMention, map[string]any{"ref": pageRef("hidden-page")})),
		para(inline(document.InlineImage, map[string]any{"ref": map[string]any{"kind": "file", "file": "hidden-file"}, "alt": "chart"})),
		document.NewBlock(document.BlockFile, map[string]any{"ref": map[string]any{"kind": "file", "file": "hidden-file"}, "caption": "report"}),
	)
	res, root := render(t, doc, Options{})
	for _, tag := range []string{"a", "img"} {
		if n := find(root, tag); len(n) != 0 {
			t.Errorf("%d <%s> for references the reader may not see: %s", len(n), tag, res.HTML)
		}
	}
	if s := string(res.HTML); strings.Contains(s, "hidden-page") || strings.Contains(s, "hidden-file") {
		t.Errorf("targets leak: %s", s)
	}
	for _, want := range []string{"secret page", "Go", "chart", "report"} {
		if !strings.Contains(text(root), want) {
			t.Errorf("text %q missing: %s", want, res.HTML)
		}
	}
}

// TestIfBlockByClaims shows an if block to the visitors its condition
// selects.
func TestIfBlockByClaims(t *testing.T) {
	doc := docOf(
		document.NewBlock(document.BlockIf, map[string]any{"expression": `visitor.claims.plan == "pro"`}, para(document.NewText("pro only"))),
		document.NewBlock(document.BlockIf, map[string]any{"expression": `!visitor.claims.plan`}, para(document.NewText("anonymous only"))),
		document.NewBlock(document.BlockIf, map[string]any{"expression": `visitor.claims.(`}, para(document.NewText("broken condition"))),
		para(document.NewText("Hello "), inline(document.InlineExpression, map[string]any{"expression": `visitor.claims.name ?? "reader"`})),
	)
	tests := []struct {
		claims   map[string]any
		want     string
		excluded []string
	}{
		{map[string]any{"plan": "pro", "name": "Ada"}, "pro only Hello Ada", []string{"anonymous only", "broken condition"}},
		{map[string]any{"plan": "free"}, "Hello reader", []string{"pro only", "anonymous only", "broken condition"}},
		{nil, "anonymous only Hello reader", []string{"pro only", "broken condition"}},
	}
	for _, tt := range tests {
		res, root := render(t, doc, Options{Env: evaluate.Env{Claims: tt.claims}})
		if got := strings.Join(strings.Fields(text(root)), " "); got != tt.want {
			t.Errorf("claims %v: text %q, want %q", tt.claims, got, tt.want)
		}
		for _, x := range tt.excluded {
			if strings.Contains(string(res.HTML), x) || strings.Contains(res.Text, x) {
				t.Errorf("claims %v: %q shows", tt.claims, x)
			}
		}
	}
}
