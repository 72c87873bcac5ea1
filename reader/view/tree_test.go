package view

import (
	"bytes"
	"html/template"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// navTemplate is the template treeHTML replaced; treeHTML must write the
// same document for any tree, hostile text and URLs included.
var navTemplate = template.Must(template.New("").Funcs(template.FuncMap{"showNav": showNav, "emoji": emoji}).Parse(`
{{- define "navlist" -}}
<ul>
{{- range .}}{{$open := showNav .}}
<li{{if $open}} class="open"{{else if .Children}} class="closed"{{end}}>
{{- if .Href}}<a href="{{.Href}}"{{if .Current}} aria-current="page"{{end}}{{if .External}} rel="noopener"{{end}}>{{with .Icon}}{{with emoji .}}<span aria-hidden="true">{{.}}</span> {{end}}{{end}}{{.Title}}{{if .External}}<span class="visually-hidden"> (external)</span><span aria-hidden="true" class="ext">↗</span>{{end}}</a>
{{- else}}<span class="group">{{with .Icon}}{{with emoji .}}<span aria-hidden="true">{{.}}</span> {{end}}{{end}}{{.Title}}</span>{{end}}
{{- if $open}}{{template "navlist" .Children}}{{end -}}
</li>
{{- end}}
</ul>
{{- end}}`))

// canonical parses an HTML fragment and writes it back, so that two
// spellings of the same document (&#43; and +) compare equal.
func canonical(t *testing.T, s string) string {
	t.Helper()
	nodes, err := html.ParseFragment(strings.NewReader(s), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, n := range nodes {
		if err := html.Render(&b, n); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

func TestTreeHTMLMatchesTemplate(t *testing.T) {
	hrefs := []string{
		"/a", "https://example.com/x?y=1&z=2#f", "mailto:a@example.com", "MAILTO:a@example.com",
		"javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "data:text/html,<b>x</b>",
		"vbscript:x", "/a b/c'd\"e<f>", "/%zz/%41/%", "/é/ü?q=ñ", "//evil.example/x", "../rel(1)", "?q=a+b",
	}
	titles := []string{`<script>alert(1)</script>`, `"quoted" & 'single'`, "plain", "a\x00b", "emoji 📘"}
	var nav []Nav
	for i, h := range hrefs {
		n := Nav{Href: h, Title: titles[i%len(titles)], External: i%3 == 0, Current: i == 4}
		switch i % 4 {
		case 1:
			n.Icon = "📘"
		case 2:
			n.Icon = "book"
		}
		if i%5 == 0 {
			n.Open = i%10 == 0
			n.Children = []Nav{{Title: "child " + titles[i%len(titles)], Href: h}, {Title: "group", Children: []Nav{{Title: "deep", Href: "/d"}}}}
		}
		nav = append(nav, n)
	}
	nav = append(nav, Nav{Title: `<i>group</i>`, Icon: `"><script>`, Children: []Nav{{Title: "in group", Href: "/g"}}})

	var want bytes.Buffer
	if err := navTemplate.ExecuteTemplate(&want, "navlist", nav); err != nil {
		t.Fatal(err)
	}
	got := string(treeHTML(nav))
	if g, w := canonical(t, got), canonical(t, want.String()); g != w {
		t.Errorf("treeHTML differs from the template\n got: %s\nwant: %s", g, w)
	}
	if strings.Contains(got, "javascript:") || strings.Contains(got, "<script>") {
		t.Error("hostile href or title written as is")
	}
}
