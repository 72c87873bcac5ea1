package render

import (
	"strings"
	"testing"

	"golang.org/x/net/html"

	"quire/internal/document"
)

// TestBlocks renders each block family from Markdown and checks the
// elements a reader gets.
func TestBlocks(t *testing.T) {
	tests := []struct {
		name  string
		md    string
		check func(t *testing.T, root *html.Node)
	}{
		{"paragraph", "Hello *world*.", func(t *testing.T, root *html.Node) {
			p := one(t, root, "p")
			if got := text(p); got != "Hello world." {
				t.Errorf("text %q", got)
			}
			one(t, p, "em")
		}},
		{"headings", "# One\n\n## Two\n\n### Three", func(t *testing.T, root *html.Node) {
			for _, want := range []struct{ tag, id string }{{"h2", "one"}, {"h3", "two"}, {"h4", "three"}} {
				h := one(t, root, want.tag)
				if attr(h, "id") != want.id {
					t.Errorf("%s id %q, want %q", want.tag, attr(h, "id"), want.id)
				}
				a := one(t, h, "a.heading-anchor")
				if attr(a, "href") != "#"+want.id {
					t.Errorf("self link %q", attr(a, "href"))
				}
			}
			if len(find(root, "h1")) != 0 {
				t.Error("h1 is the page title's")
			}
		}},
		{"unordered list", "- a\n- b", func(t *testing.T, root *html.Node) {
			if n := len(find(one(t, root, "ul"), "li")); n != 2 {
				t.Errorf("%d items", n)
			}
		}},
		{"ordered list with start", "3. a\n4. b", func(t *testing.T, root *html.Node) {
			if s := attr(one(t, root, "ol"), "start"); s != "3" {
				t.Errorf("start %q", s)
			}
		}},
		{"task list", "- [x] done\n- [ ] todo", func(t *testing.T, root *html.Node) {
			boxes := find(one(t, root, "ul.task-list"), "input")
			if len(boxes) != 2 {
				t.Fatalf("%d checkboxes", len(boxes))
			}
			for i, b := range boxes {
				if attr(b, "type") != "checkbox" || !hasAttr(b, "disabled") {
					t.Errorf("checkbox %d is not a disabled checkbox: %v", i, b.Attr)
				}
				if hasAttr(b, "checked") != (i == 0) {
					t.Errorf("checkbox %d checked = %v", i, hasAttr(b, "checked"))
				}
			}
		}},
		{"blockquote", "> quoted", func(t *testing.T, root *html.Node) {
			if text(one(t, one(t, root, "blockquote"), "p")) != "quoted" {
				t.Error("quote text")
			}
		}},
		{"divider", "a\n\n---\n\nb", func(t *testing.T, root *html.Node) { one(t, root, "hr") }},
		{"hint", "{% hint style=\"warning\" %}\nCareful.\n{% endhint %}", func(t *testing.T, root *html.Node) {
			a := one(t, root, "aside.hint.hint-warning")
			if attr(a, "role") != "note" || text(one(t, a, "p")) != "Careful." {
				t.Errorf("hint: %s", outer(root))
			}
		}},
		{"expandable", "<details><summary>More</summary>\n\nHidden body.\n\n</details>", func(t *testing.T, root *html.Node) {
			d := one(t, root, "details.expandable")
			if text(one(t, d, "summary")) != "More" || text(one(t, d, "p")) != "Hidden body." {
				t.Errorf("expandable: %s", outer(root))
			}
		}},
		{"tabs", "{% tabs %}\n{% tab title=\"Go\" %}\ngo text\n{% endtab %}\n{% tab title=\"JS\" %}\njs text\n{% endtab %}\n{% endtabs %}",
			func(t *testing.T, root *html.Node) {
				secs := find(one(t, root, "div.tabs"), "section.tab")
				if len(secs) != 2 {
					t.Fatalf("%d tab sections", len(secs))
				}
				for i, title := range []string{"Go", "JS"} {
					d := one(t, secs[i], "details")
					if !hasAttr(d, "open") || text(one(t, d, "summary")) != title {
						t.Errorf("tab %d: %s", i, outer(secs[i]))
					}
				}
			}},
		{"stepper", "{% stepper %}\n{% step %}\nFirst\n{% endstep %}\n{% step %}\nSecond\n{% endstep %}\n{% endstepper %}",
			func(t *testing.T, root *html.Node) {
				if n := len(find(one(t, root, "ol.stepper"), "li.step")); n != 2 {
					t.Errorf("%d steps", n)
				}
			}},
		{"columns", "{% columns %}\n{% column %}\nLeft\n{% endcolumn %}\n{% column %}\nRight\n{% endcolumn %}\n{% endcolumns %}",
			func(t *testing.T, root *html.Node) {
				if n := len(find(one(t, root, "div.columns"), "div.column")); n != 2 {
					t.Errorf("%d columns", n)
				}
			}},
		{"math", "$$\nx^2 < y\n$$", func(t *testing.T, root *html.Node) {
			if got := text(one(t, root, "code.math")); got != "x^2 < y" {
				t.Errorf("formula %q", got)
			}
		}},
		{"table", "| Name | Age |\n| :-: | --: |\n| Ann | **3** |\n| Bob | 4 |", func(t *testing.T, root *html.Node) {
			tbl := one(t, root, "table")
			ths := find(one(t, tbl, "thead"), "th")
			if len(ths) != 2 || text(ths[0]) != "Name" || text(ths[1]) != "Age" {
				t.Fatalf("header: %s", outer(root))
			}
			rows := find(one(t, tbl, "tbody"), "tr")
			if len(rows) != 2 || text(rows[0]) != "Ann3" || text(rows[1]) != "Bob4" {
				t.Fatalf("rows: %s", outer(root))
			}
			one(t, rows[0], "strong")
			if !hasClasses(ths[1], []string{"align-right"}) {
				t.Errorf("alignment: %s", outer(ths[1]))
			}
		}},
		{"embed", `{% embed url="https://example.com/video" %}`, func(t *testing.T, root *html.Node) {
			a := one(t, one(t, root, "p.embed"), "a")
			if attr(a, "href") != "https://example.com/video" || len(find(root, "iframe")) != 0 {
				t.Errorf("embed: %s", outer(root))
			}
		}},
		{"content-ref", "{% content-ref url=\"page://p1\" %}\n[x](page://p1)\n{% endcontent-ref %}", func(t *testing.T, root *html.Node) {
			a := one(t, root, "a.content-ref-link")
			if attr(a, "href") != "/docs/getting-started" || text(a) != "Getting started" {
				t.Errorf("content-ref: %s", outer(root))
			}
		}},
		{"hidden content-ref", "{% content-ref url=\"page://secret\" %}\n[x](page://secret)\n{% endcontent-ref %}", func(t *testing.T, root *html.Node) {
			if s := outer(root); strings.Contains(s, "secret") || len(find(root, "a")) != 0 {
				t.Errorf("hidden content-ref shows: %s", s)
			}
		}},
		{"file", "{% file src=\"file://f1\" %}\nThe logo\n{% endfile %}", func(t *testing.T, root *html.Node) {
			p := one(t, root, "p.file")
			a := one(t, p, "a")
			if attr(a, "href") != "/files/f1/logo.png" || text(a) != "logo.png" || !hasAttr(a, "download") {
				t.Errorf("file link: %s", outer(p))
			}
			if text(one(t, p, "span.file-size")) != "2.0 kB" || text(one(t, p, "span.file-caption")) != "The logo" {
				t.Errorf("file: %s", outer(p))
			}
		}},
		{"image", "![A logo](file://f1 \"Our logo\")", func(t *testing.T, root *html.Node) {
			fig := one(t, root, "figure.image")
			img := one(t, fig, "img")
			want := map[string]string{"src": "/files/f1/logo.png", "alt": "A logo", "width": "200", "height": "100", "loading": "lazy"}
			for k, v := range want {
				if attr(img, k) != v {
					t.Errorf("img %s = %q, want %q", k, attr(img, k), v)
				}
			}
			if text(one(t, fig, "figcaption")) != "Our logo" {
				t.Errorf("caption: %s", outer(fig))
			}
		}},
		{"hidden image", "![Secret diagram](file://nope)", func(t *testing.T, root *html.Node) {
			if len(find(root, "img")) != 0 || !strings.Contains(text(root), "Secret diagram") {
				t.Errorf("image the reader may not fetch: %s", outer(root))
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, root := render(t, fromMarkdown(t, tt.md), Options{})
			tt.check(t, root)
		})
	}
}

// TestBlocksWithoutMarkdown covers the blocks Markdown cannot spell.
func TestBlocksWithoutMarkdown(t *testing.T) {
	ref := func(kind, key, id string) map[string]any { return map[string]any{"kind": kind, key: id} }
	tests := []struct {
		name  string
		node  document.Node
		check func(t *testing.T, root *html.Node)
	}{
		{"drawing", document.NewBlock(document.BlockDrawing, map[string]any{"ref": ref("file", "file", "f1")}), func(t *testing.T, root *html.Node) {
			if attr(one(t, one(t, root, "figure.drawing"), "img"), "src") != "/files/f1/logo.png" {
				t.Errorf("drawing: %s", outer(root))
			}
		}},
		{"integration", document.NewBlock(document.BlockIntegration, map[string]any{"integration": "<b>runkit</b>", "block": "x", "props": map[string]any{}}),
			func(t *testing.T, root *html.Node) {
				a := one(t, root, "aside.integration")
				if !strings.Contains(text(a), "<b>runkit</b>") || len(find(a, "b")) != 0 {
					t.Errorf("integration: %s", outer(root))
				}
			}},
		{"reusable content not dereferenced", document.NewBlock(document.BlockReusableContent, map[string]any{"ref": ref("reusable-content", "reusableContent", "r1")}),
			func(t *testing.T, root *html.Node) {
				if s := outer(root); s != "" {
					t.Errorf("got %q, want nothing", s)
				}
			}},
		{"code line out of place", document.NewBlock(document.BlockCodeLine, nil, document.NewText("x := 1")), func(t *testing.T, root *html.Node) {
			if text(one(t, root, "code")) != "x := 1" {
				t.Errorf("code line: %s", outer(root))
			}
		}},
		{"unknown type renders its children", document.Node{Object: document.ObjectBlock, Type: "mystery", Nodes: []document.Node{
			document.NewBlock(document.BlockParagraph, nil, document.NewText("inside"))}}, func(t *testing.T, root *html.Node) {
			if text(one(t, root, "p")) != "inside" {
				t.Errorf("unknown: %s", outer(root))
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, root := render(t, docOf(tt.node), Options{})
			tt.check(t, root)
		})
	}
}

// TestDereferencedReusableContent renders the blocks a dereferenced
// reusable content put in place of its block.
func TestDereferencedReusableContent(t *testing.T) {
	// Dereferencing splices the content's blocks into the page, inside
	// whatever contained the reusable-content block.
	inner := document.NewBlock(document.BlockParagraph, nil, document.NewText("shared text"))
	body := document.Node{Object: document.ObjectFragment, Fragment: document.FragmentExpandableBody, Nodes: []document.Node{inner}}
	title := document.Node{Object: document.ObjectFragment, Fragment: document.FragmentExpandableTitle,
		Nodes: []document.Node{document.NewBlock(document.BlockParagraph, nil, document.NewText("T"))}}
	exp := document.NewBlock(document.BlockExpandable, nil)
	exp.Fragments = []document.Node{title, body}
	_, root := render(t, docOf(exp), Options{})
	if text(one(t, one(t, root, "details"), "p")) != "shared text" {
		t.Errorf("got %s", outer(root))
	}
}
