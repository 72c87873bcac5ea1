package render

import (
	"strings"
	"testing"

	"quire/internal/document"
)

func TestCode(t *testing.T) {
	md := "{% code title=\"main.go\" overflow=\"wrap\" lineNumbers=\"true\" %}\n```go\npackage main\n\nfunc main() { println(\"<hi>\") }\n```\n{% endcode %}"
	res, root := render(t, fromMarkdown(t, md), Options{})
	fig := one(t, root, "figure.code.code-wrap.code-line-numbers")
	if text(one(t, fig, "figcaption.code-title")) != "main.go" {
		t.Errorf("title: %s", outer(fig))
	}
	code := one(t, one(t, fig, "pre.chroma"), "code.language-go")
	lines := find(code, "span.line")
	if len(lines) != 3 {
		t.Fatalf("%d lines: %s", len(lines), outer(code))
	}
	if got := text(one(t, lines[2], "span.cl")); got != `func main() { println("<hi>") }` {
		t.Errorf("line 3 reads %q", got)
	}
	if text(one(t, lines[2], "span.ln")) != "3" {
		t.Errorf("line number: %s", outer(lines[2]))
	}
	// Keywords carry chroma's classes: "kd" for package/func (keyword
	// declaration), "s" for strings.
	if kw := find(lines[0], "span.kn"); len(kw) == 0 && len(find(lines[0], "span.kd")) == 0 {
		t.Errorf("no keyword class on %s", outer(lines[0]))
	}
	if len(find(lines[2], "span.s")) == 0 {
		t.Errorf("no string class on %s", outer(lines[2]))
	}
	assertSafe(t, string(res.HTML))
}

func TestCodeHighlightedLineAndPlain(t *testing.T) {
	line := func(s string, hl bool) document.Node {
		return document.NewBlock(document.BlockCodeLine, map[string]any{"highlighted": hl}, document.NewText(s))
	}
	for _, syntax := range []string{"", "no-such-language"} {
		doc := docOf(document.NewBlock(document.BlockCode, map[string]any{"syntax": syntax}, line("a < b", false), line("c", true)))
		_, root := render(t, doc, Options{})
		lines := find(root, "span.line")
		if len(lines) != 2 || text(lines[0]) != "a < b" || !hasClasses(lines[1], []string{"hl"}) || len(find(root, "span.ln")) != 0 {
			t.Errorf("syntax %q: %s", syntax, outer(root))
		}
	}
}

func TestCodeBudget(t *testing.T) {
	// A block beyond the highlighting budget is shown plain, in full.
	big := strings.Repeat("x := 1\n", maxHighlightBlock/7+10)
	res, root := render(t, fromMarkdown(t, "```go\n"+big+"```"), Options{})
	if len(find(root, "span.line")) != strings.Count(big, "\n") {
		t.Errorf("lines missing")
	}
	if strings.Contains(string(res.HTML), `class="o"`) {
		t.Error("highlighted beyond the budget")
	}
}

func TestHighlightCSS(t *testing.T) {
	css, err := HighlightCSS("github", "github-dark")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".chroma .kd", "@media (prefers-color-scheme: dark)", ".chroma .s "} {
		if !strings.Contains(css, want) {
			t.Errorf("stylesheet lacks %q:\n%s", want, css)
		}
	}
	if _, err := HighlightCSS("no-such-style", ""); err == nil {
		t.Error("unknown style accepted")
	}
}
