package view

import (
	"fmt"
	"html/template"
	"io"
	"strings"
	"testing"
)

// typicalPage is a page of a large space: a 200-entry sidebar (20 groups
// of 10 pages, one open) and 5 KB of content.
func typicalPage() *Page {
	p := fullPage()
	p.Sidebar = nil
	for g := 0; g < 20; g++ {
		group := Nav{Title: fmt.Sprintf("Group %d", g)}
		for i := 0; i < 9; i++ {
			group.Children = append(group.Children, Nav{
				Title: fmt.Sprintf("Page %d.%d", g, i), Href: fmt.Sprintf("/g%d/p%d", g, i),
				Current: g == 3 && i == 4,
			})
		}
		p.Sidebar = append(p.Sidebar, group)
	}
	para := "<p>Quire serves published documentation to readers, with <code>code</code> and <a href=\"/x\">links</a>.</p>\n"
	p.Content = template.HTML(strings.Repeat(para, 5<<10/len(para)))
	return p
}

func BenchmarkRender(b *testing.B) {
	p := typicalPage()
	b.ReportAllocs()
	for b.Loop() {
		if err := Render(io.Discard, p); err != nil {
			b.Fatal(err)
		}
	}
}
