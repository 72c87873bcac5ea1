package render

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"quire/internal/document"
	"quire/internal/evaluate"
)

// openLinks resolves every reference, echoing what the document says, so
// that the fuzzer reaches every link, image and file the renderer writes
// with targets taken from its input.
type openLinks struct{}

func (openLinks) Ref(ref document.ContentRef) (string, bool) {
	if ref.Kind == document.RefURL {
		return ref.URL, true
	}
	return ref.MarkdownURL(), true
}

func (openLinks) File(id string) (File, bool) {
	return File{URL: id, Name: id, Width: len(id), Height: 2 * len(id), Size: int64(len(id)) * 999}, true
}

func (openLinks) Title(ref document.ContentRef) (string, bool) { return ref.MarkdownURL(), true }

var fuzzEnv = evaluate.Env{
	Space:  map[string]any{"version": "<b>2</b>"},
	Claims: map[string]any{"plan": "pro", "name": `"><script>alert(1)</script>`},
}

// FuzzDocument renders documents made from the input, read as Markdown and
// as the document's JSON, and checks that the HTML parses and holds
// nothing that runs, styles the page or loads a frame.
func FuzzDocument(f *testing.F) {
	page, err := os.ReadFile("testdata/page.md")
	if err != nil {
		f.Fatal(err)
	}
	for i, sec := range strings.Split(string(page), "\n## ") {
		f.Add("## " + sec)
		if i%4 == 0 {
			// The same content as JSON, for the fuzzer to vary the data
			// of blocks that Markdown does not spell.
			if d, err := document.FromMarkdown("## " + sec); err == nil {
				if raw, err := json.Marshal(d); err == nil {
					f.Add(string(raw))
				}
			}
		}
	}
	for _, s := range []string{
		"[x](javascript:alert(1)) ![y](data:text/html,x) <script>alert(1)</script>",
		"{% embed url=\"javascript:alert(1)\" %}",
		"# A\n\n# A\n\n## A 2",
		"```go\nfunc main() { \"<\" }\n```",
		"| <b> | a |\n| - | - |\n| `x` | [l](vbscript:x) |",
		`{"object":"document","nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"inline","type":"link","data":{"ref":{"kind":"url","url":" javascript:x"}},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"t","marks":[{"object":"mark","type":"color","data":{"text":"red\"style=x"}}]}]}]}]}]}`,
		`{"object":"document","nodes":[{"object":"block","type":"if","data":{"expression":"visitor.claims.plan == \"pro\""},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"inline","type":"expression","data":{"expression":"visitor.claims.name"},"isVoid":true}]}]}]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var docs []*document.Document
		if d, err := document.FromMarkdown(in); err == nil {
			docs = append(docs, d)
		}
		if json.Valid([]byte(in)) {
			if d, err := document.Parse([]byte(in)); err == nil {
				docs = append(docs, d)
			}
		}
		for _, d := range docs {
			for _, links := range []Links{openLinks{}, testLinks, nil} {
				res, err := Document(d, Options{Links: links, Env: fuzzEnv})
				if err != nil {
					t.Fatalf("Document: %v", err)
				}
				s := string(res.HTML)
				assertSafe(t, s)
				if strings.Contains(strings.ToLower(s), "javascript:") && strings.Contains(s, `href="javascript`) {
					t.Fatalf("javascript: URL in %s", s)
				}
				ids := map[string]bool{}
				for _, h := range res.Outline {
					if ids[h.ID] {
						t.Fatalf("heading id %q twice", h.ID)
					}
					ids[h.ID] = true
				}
			}
		}
	})
}
