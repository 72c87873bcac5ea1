package render

import (
	"strings"
	"testing"

	"quire/internal/document"
)

// A page whose highest heading is a heading-2 has it right below the
// page's title (h2): the outline skips no level.
func TestHeadingsStartBelowTheTitle(t *testing.T) {
	md := "## Install\n\nText.\n\n### On Linux\n\nMore.\n"
	doc, err := document.FromMarkdown(md)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Document(doc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	html := string(res.HTML)
	if !strings.Contains(html, `<h2 id="install"`) || !strings.Contains(html, `<h3 id="on-linux"`) {
		t.Fatalf("heading levels: %s", html)
	}
	if len(res.Outline) != 2 || res.Outline[0].Level != 1 || res.Outline[1].Level != 2 {
		t.Fatalf("outline: %+v", res.Outline)
	}
	full, _ := document.FromMarkdown("# Top\n\n## Below\n")
	res, _ = Document(full, Options{})
	if !strings.Contains(string(res.HTML), `<h2 id="top"`) || !strings.Contains(string(res.HTML), `<h3 id="below"`) {
		t.Fatalf("a page using every level: %s", res.HTML)
	}
}
