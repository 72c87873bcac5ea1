package document

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"quire/internal/apierr"
)

func addMarkdownSeeds(f *testing.F) {
	// Whole corpus pages make slow seeds (the fuzzer minimizes every input
	// that finds new coverage); their sections are small and as varied.
	for _, md := range corpusFiles(f) {
		for _, s := range sections(md) {
			f.Add(s)
		}
	}
	for _, s := range []string{
		"", "# a\n\n- b\n- [x] c\n", "**a *b* c**", "| a |\n| - |\n| b |",
		"{% hint style=\"info\" %}\nx\n{% endhint %}", "{% tabs %}\n{% tab title=\"a\" %}\nx\n{% endtab %}\n{% endtabs %}",
		"<details><summary>x</summary>\n\ny\n</details>", "$$\nx\n$$", "a $$b$$ c", "> a\n> ```\n> x\n> ```",
		"[a](page://p#b) ![c](file://d)", "1. a\n   1. b\n", "{% file src=\"file://x\" %}c{% endfile %}",
		"<kbd>a</kbd><sup>b</sup><mark style=\"color:red\">c</mark>", "- {% hint %}\n  x\n  {% endhint %}",
	} {
		f.Add(s)
	}
}

// sections splits a page at its "## " headings.
func sections(md string) []string {
	var out []string
	for _, part := range strings.Split(md, "\n## ") {
		if len(out) > 0 {
			part = "## " + part
		}
		out = append(out, part)
	}
	return out
}

// limitRefusal reports whether err is the refusal of an input beyond the
// limits: a BadRequest whose message names the limit.
func limitRefusal(err error, field string) bool {
	e, ok := apierr.As(err)
	return ok && e.Code == apierr.BadRequest && e.Field == field && strings.Contains(e.Message, "(the limit")
}

// FuzzFromMarkdown: any input converts without panicking or is refused for
// a limit, the result is a valid document within the limits whose JSON
// parses back to it, and it renders back to Markdown that converts again.
func FuzzFromMarkdown(f *testing.F) {
	addMarkdownSeeds(f)
	for _, s := range []string{
		strings.Repeat(">", 40) + " x", strings.Repeat("- ", 40) + "x", strings.Repeat("[", 1200),
		strings.Repeat("*a ", 1100), "| a |\n| - |\n" + strings.Repeat("| b |\n", 10),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		doc, err := FromMarkdown(md)
		if limitRefusal(err, "markdown") {
			return
		}
		if err != nil {
			t.Fatalf("FromMarkdown: %v", err)
		}
		if err := doc.Validate(); err != nil {
			t.Fatalf("FromMarkdown made a document beyond the rules or the limits: %v", err)
		}
		raw, err := json.Marshal(doc)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		parsed, err := Parse(raw)
		if err != nil {
			t.Fatalf("Parse(Marshal(doc)): %v\n%s", err, raw)
		}
		if !reflect.DeepEqual(parsed, doc) {
			again, _ := json.Marshal(parsed)
			t.Fatalf("Parse(Marshal(doc)) differs from doc\nmarkdown %q\nfirst  %s\nparsed %s", md, raw, again)
		}
		_ = doc.Text()
		if _, err := FromMarkdown(ToMarkdown(doc)); err != nil {
			t.Fatalf("FromMarkdown(ToMarkdown(doc)): %v", err)
		}
	})
}

// rewrittenFine reports whether the Markdown of a valid document converts
// back: it may only exceed MaxInlineDelimiters, a limit of Markdown that
// documents lack.
func rewrittenFine(err error) bool {
	return err == nil || limitRefusal(err, "markdown") && strings.Contains(err.Error(), "delimiters")
}

// FuzzParse: any input parses or fails without panicking; a parsed
// document marshals to JSON that parses to the same document, and renders.
func FuzzParse(f *testing.F) {
	for _, md := range corpusFiles(f) {
		for _, sec := range sections(md) {
			doc, err := FromMarkdown(sec)
			if err != nil {
				f.Fatal(err)
			}
			b, _ := json.Marshal(doc)
			f.Add(b)
		}
	}
	for _, s := range []string{
		`{"object":"document","data":{},"nodes":[]}`,
		`{"object":"document","nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[{"object":"mark","type":"bold"}]}]}]}]}`,
		`{"object":"document","nodes":[{"object":"block","type":"table","data":{"view":{"type":"grid","columns":["a"],"hideHeader":false},"definition":{"a":{"id":"a","title":"A","type":"text","textAlignment":"left"}},"records":{"r":{"orderIndex":"0","values":{"a":"f"}}}},"fragments":[{"object":"fragment","fragment":"f","nodes":[]}]}]}`,
		`{"object":"document","nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"inline","type":"link","data":{"ref":{"kind":"page","page":"p"}},"nodes":[]}]}]}`,
		`[]`, `null`, `{"object":"document","nodes":[1,"a",null,{}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Add([]byte(quotesJSON(MaxDepth - 1)))
	f.Add([]byte(tableJSON(MaxTableColumns+1, 1)))
	f.Fuzz(func(t *testing.T, raw []byte) {
		doc, err := Parse(raw)
		if err != nil {
			if e, ok := apierr.As(err); !ok || e.Code != apierr.BadRequest {
				t.Fatalf("Parse: %v, want a 400", err)
			}
			if !strings.Contains(err.Error(), "document") {
				t.Fatalf("error without a path: %v", err)
			}
			return
		}
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		again, err := Parse(b)
		if err != nil {
			t.Fatalf("Parse(Marshal(Parse(x))): %v\n%s", err, b)
		}
		if b2, _ := json.Marshal(again); string(b2) != string(b) {
			t.Fatalf("not stable:\n%s\n%s", b, b2)
		}
		if err := doc.Validate(); err != nil {
			t.Fatalf("Parse accepted a document that Validate refuses: %v", err)
		}
		_ = doc.Text()
		md := ToMarkdown(doc)
		if _, err := FromMarkdown(md); !rewrittenFine(err) {
			t.Fatalf("FromMarkdown(ToMarkdown(doc)): %v", err)
		}
	})
}

// FuzzMarkdownFixpoint checks the round-trip property of the corpus test on
// arbitrary input: after one normalization, Markdown → document → Markdown
// is a fixed point.
func FuzzMarkdownFixpoint(f *testing.F) {
	addMarkdownSeeds(f)
	f.Fuzz(func(t *testing.T, md string) {
		d0, err := FromMarkdown(md)
		if limitRefusal(err, "markdown") {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		md1 := ToMarkdown(d0)
		d1, err := FromMarkdown(md1)
		if err != nil {
			t.Fatal(err)
		}
		md2 := ToMarkdown(d1)
		d2, err := FromMarkdown(md2)
		if err != nil {
			t.Fatal(err)
		}
		if md1 != md2 {
			t.Fatalf("Markdown is not a fixed point\nmd0=%q\nmd1=%q\nmd2=%q", md, md1, md2)
		}
		if j1, j2 := mustJSON(t, d1), mustJSON(t, d2); j1 != j2 {
			t.Fatalf("document differs across the second round\nmd0=%q\n%s", md, firstDiff(j1, j2))
		}
	})
}
