package downloads

import (
	"fmt"
	"strings"
	"testing"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/pdf"
	"quire/internal/signedurl"
)

const sample = "# Title\n\nSome **bold**, *italic*, `code`, ~~gone~~ and a [link](https://example.com) to [a file](file://file1).\n\n" +
	"## Lists\n\n- one\n  - nested\n    1. deep\n- two\n\n3. third\n4. fourth\n\n- [x] done\n- [ ] todo\n\n" +
	"### Code\n\n```go\nfunc main() {\n\tprintln(1)\n}\n```\n\n" +
	"> Quoted *text*\n\n{% hint style=\"warning\" %}\nCareful.\n\nTwice.\n{% endhint %}\n\n---\n\n" +
	"| Name | Value |\n| --- | --- |\n| a | 1 |\n| b **c** | 2 |\n\n" +
	"![Logo](file://file1 \"The logo\")\n\n![Remote](https://img.test/x.png)\n\n$$\nE = mc^2\n$$\n\n" +
	"<details><summary>More</summary>\n\nHidden body.\n\n</details>\n\n{% embed url=\"https://video.test/v\" %}\n"

// describe renders blocks compactly: kind, depth and flags, then text.
func describe(blocks []pdf.Block) string {
	var b strings.Builder
	for _, bl := range blocks {
		fmt.Fprintf(&b, "%s", bl.Kind)
		if bl.Depth > 0 {
			fmt.Fprintf(&b, " d%d", bl.Depth)
		}
		if bl.Ordered {
			fmt.Fprintf(&b, " #%d", bl.Index)
		}
		if bl.Checked {
			b.WriteString(" [x]")
		}
		if bl.Style != "" {
			b.WriteString(" " + bl.Style)
		}
		if bl.Language != "" {
			b.WriteString(" " + bl.Language)
		}
		b.WriteString(":")
		for _, sp := range bl.Text {
			t := sp.Text
			switch {
			case sp.Bold:
				t = "*" + t + "*"
			case sp.Italic:
				t = "_" + t + "_"
			case sp.Code:
				t = "`" + t + "`"
			case sp.Strike:
				t = "~" + t + "~"
			}
			if sp.Link != "" {
				t = "[" + t + "](" + linkName(sp.Link) + ")"
			}
			b.WriteString(t)
		}
		if bl.Code != "" {
			b.WriteString(strings.ReplaceAll(bl.Code, "\n", "⏎"))
		}
		for _, r := range bl.Rows {
			b.WriteString("[" + strings.Join(r, "|") + "]")
		}
		if bl.URL != "" {
			b.WriteString(linkName(bl.URL) + " " + bl.Caption)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// linkName shortens signed file links for comparison.
func linkName(u string) string {
	if rest, ok := strings.CutPrefix(u, "https://quire.test/downloads/revisions/rev1/files/"); ok {
		name, query, _ := strings.Cut(rest, "?")
		if strings.Contains(query, "sig=") && strings.Contains(query, "expires=") {
			return "signed:" + name
		}
	}
	return u
}

func testConverter() *converter {
	s := New(nil, signedurl.NewSigner([]byte("key")), "https://quire.test")
	rev := &content.Revision{ID: "rev1", Variables: map[string]any{"product": "Quire", "beta": false},
		Files: []*content.File{{ID: "file1", Name: "logo.png"}}}
	return newConverter(s, rev)
}

func TestConvertMarkdown(t *testing.T) {
	doc, err := document.FromMarkdown(sample)
	if err != nil {
		t.Fatal(err)
	}
	got := describe(testConverter().document(doc, nil))
	want := `heading1:Title
paragraph:Some *bold*, _italic_, ` + "`code`" + `, ~gone~ and a [link](https://example.com) to [a file](signed:file1).
heading2:Lists
list-item:one
list-item d1:nested
list-item d2 #1:deep
list-item:two
list-item #3:third
list-item #4:fourth
task [x]:done
task:todo
heading3:Code
code go:func main() {⏎	println(1)⏎}
quote:Quoted _text_
hint warning:Careful.
Twice.
divider:
table:[Name|Value][a|1][b c|2]
image:signed:file1 The logo
image:https://img.test/x.png Remote
math:E = mc^2
paragraph:*More*
paragraph:Hidden body.
paragraph:[https://video.test/v](https://video.test/v)
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestConvertExpressions(t *testing.T) {
	expr := func(src string) document.Node {
		return document.NewInline(document.InlineExpression, map[string]any{"expression": src})
	}
	ifBlock := func(src string, children ...document.Node) document.Node {
		return document.NewBlock(document.BlockIf, map[string]any{"expression": src}, children...)
	}
	para := func(nodes ...document.Node) document.Node {
		return document.NewBlock(document.BlockParagraph, nil, nodes...)
	}
	doc := &document.Document{Nodes: []document.Node{
		para(document.NewText("Welcome to "), expr(`space.vars.product`), document.NewText(" "), expr(`page.vars.edition`)),
		ifBlock(`space.vars.beta`, para(document.NewText("beta only"))),
		ifBlock(`visitor.claims.pro`, para(document.NewText("pro: "), expr(`visitor.claims.name`))),
		document.NewBlock(document.BlockFile, map[string]any{"ref": map[string]any{"kind": "file", "file": "file1"}}),
	}}
	got := describe(testConverter().document(doc, map[string]any{"edition": "2030"}))
	want := "paragraph:Welcome to Quire 2030\n" +
		"paragraph:pro: `{{ visitor.claims.name }}`\n" +
		"paragraph:[logo.png](signed:file1)\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestPDFFileName(t *testing.T) {
	for in, want := range map[string]string{
		"":                         "document.pdf",
		"Release notes: v2.0!":     "release-notes-v2-0.pdf",
		"../../etc/passwd":         "etc-passwd.pdf",
		"Été 🚀":                    "t.pdf",
		"  --  ":                   "document.pdf",
		strings.Repeat("ab ", 100): strings.TrimSuffix(strings.Repeat("ab-", 27), "-") + ".pdf",
	} {
		if got := pdfFileName(in); got != want {
			t.Errorf("pdfFileName(%q) = %q, want %q", in, got, want)
		}
	}
}
