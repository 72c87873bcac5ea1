package document

import (
	"encoding/json"
	"strings"
	"testing"
)

// A resolver turns relative destinations of links, images, file blocks,
// content-refs and expandable titles into references; what it leaves
// alone is read as usual.
func TestFromMarkdownWithResolve(t *testing.T) {
	md := strings.Join([]string{
		"See [install](install.md#setup) and [site](https://example.com).",
		"",
		"![diagram](<.gitbook/assets/a b.png>)",
		"",
		`{% file src=".gitbook/assets/guide.pdf" %}`,
		"The guide",
		"{% endfile %}",
		"",
		`{% content-ref url="install.md" %}`,
		"[install.md](install.md)",
		"{% endcontent-ref %}",
		"",
		"<details><summary>More in [faq](faq.md)</summary>",
		"",
		"body",
		"",
		"</details>",
	}, "\n")
	var asked []string
	resolve := func(dest string) (ContentRef, bool) {
		asked = append(asked, dest)
		switch dest {
		case "install.md#setup":
			return ContentRef{Kind: RefAnchor, Page: "P-install", Anchor: "setup"}, true
		case "install.md":
			return ContentRef{Kind: RefPage, Page: "P-install"}, true
		case "faq.md":
			return ContentRef{Kind: RefPage, Page: "P-faq"}, true
		case ".gitbook/assets/a b.png":
			return ContentRef{Kind: RefFile, File: "F-diagram"}, true
		case ".gitbook/assets/guide.pdf":
			return ContentRef{Kind: RefFile, File: "F-guide"}, true
		}
		return ContentRef{}, false
	}
	doc, err := FromMarkdownWith(md, MarkdownOptions{Resolve: resolve})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	EachRef(doc, func(r ContentRef) { got = append(got, r.MarkdownURL()) })
	want := []string{"page://P-install#setup", "https://example.com", "file://F-diagram", "file://F-guide", "page://P-install", "page://P-faq"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("refs = %q\nwant %q\n(asked %q)", got, want, asked)
	}
	if err := doc.Validate(); err != nil {
		t.Errorf("invalid document: %v", err)
	}
	// The file block stayed a file block, with its caption.
	if doc.Nodes[2].Type != BlockFile || doc.Nodes[2].Data["caption"] != "The guide" {
		t.Errorf("file block = %+v", doc.Nodes[2])
	}
	// Without a resolver the same Markdown keeps its URLs, and the file
	// block, whose src is no file reference, becomes a link.
	plain, err := FromMarkdown(md)
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	EachRef(plain, func(r ContentRef) { got = append(got, r.MarkdownURL()) })
	if got[0] != "install.md#setup" || plain.Nodes[2].Type != BlockParagraph {
		t.Errorf("without resolver: refs %q, third block %s", got, plain.Nodes[2].Type)
	}
}

// MapRefs replaces references in a copy, leaving the original and the
// untouched parts as they were.
func TestMapRefs(t *testing.T) {
	doc, err := FromMarkdown("[a](page://P1) and ![i](file://F1)\n\n| x |\n|---|\n| [b](page://P2) |\n")
	if err != nil {
		t.Fatal(err)
	}
	before, _ := json.Marshal(doc)
	out := MapRefs(doc, func(r ContentRef) (ContentRef, bool) {
		switch r.Kind {
		case RefPage:
			return ContentRef{Kind: RefURL, URL: "../" + r.Page + ".md"}, true
		case RefFile:
			return ContentRef{Kind: RefURL, URL: ".gitbook/assets/" + r.File}, true
		}
		return r, false
	})
	after, _ := json.Marshal(doc)
	if string(before) != string(after) {
		t.Fatal("MapRefs changed its input")
	}
	var got []string
	EachRef(out, func(r ContentRef) { got = append(got, r.MarkdownURL()) })
	if want := "../P1.md .gitbook/assets/F1 ../P2.md"; strings.Join(got, " ") != want {
		t.Errorf("refs = %q, want %q", got, want)
	}
	if md := ToMarkdown(out); !strings.Contains(md, "[a](../P1.md)") || !strings.Contains(md, "![i](.gitbook/assets/F1)") {
		t.Errorf("markdown:\n%s", md)
	}
	// Nothing to change: the same document comes back.
	if same := MapRefs(doc, func(ContentRef) (ContentRef, bool) { return ContentRef{}, false }); same != doc {
		t.Error("MapRefs copied a document it did not change")
	}
}

// An escape in a reference that decodes to bytes which are not UTF-8 is
// kept as written, so the document's JSON reads back to the same document.
func TestRefFromURLKeepsUndecodableEscapes(t *testing.T) {
	for u, want := range map[string]ContentRef{
		"file://a%80":            {Kind: RefFile, File: "a%80"},
		"file://a%20b":           {Kind: RefFile, File: "a b"},
		"page://p?space=s%FF":    {Kind: RefPage, Page: "p", Space: "s\uFFFD"},
		"page://p%C3%A9?space=s": {Kind: RefPage, Page: "p\u00e9", Space: "s"},
	} {
		if got := RefFromURL(u); got != want {
			t.Errorf("RefFromURL(%q) = %+v, want %+v", u, got, want)
		}
	}
}
