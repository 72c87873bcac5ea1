package document

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"quire/internal/apierr"
)

func TestParseValid(t *testing.T) {
	raw := `{"object":"document","data":{"schemaVersion":1},"nodes":[
		{"object":"block","type":"heading-1","key":"k1","data":{"id":"intro"},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Intro","marks":[]}]}]},
		{"object":"block","type":"paragraph","nodes":[
			{"object":"text","leaves":[
				{"object":"leaf","text":"Hi "},
				{"object":"leaf","text":"there","marks":[{"object":"mark","type":"bold"},{"object":"mark","type":"color","data":{"text":"red","background":"default"}}]}]},
			{"object":"inline","type":"link","data":{"ref":{"kind":"anchor","anchor":"intro","page":"p1"}},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[]}]}]},
			{"object":"inline","type":"emoji","isVoid":true,"data":{"code":"1f600"}},
			{"object":"inline","type":"mention","data":{"ref":{"kind":"user","user":"u1"}}}]},
		{"object":"block","type":"list-tasks","nodes":[{"object":"block","type":"list-item","data":{"checked":true},"nodes":[]}]},
		{"object":"block","type":"code","data":{"syntax":"js","collapsedLineCount":3},"nodes":[{"object":"block","type":"code-line","data":{"highlighted":true},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x()","marks":[]}]}]}]},
		{"object":"block","type":"swagger","isVoid":true,"data":{"ref":{"kind":"url","url":"https://x/openapi.json"},"method":"get","path":"/pets"}},
		{"object":"block","type":"openapi-operation","data":{"ref":{"kind":"openapi","spec":"pets"},"operationId":"listPets"}},
		{"object":"block","type":"integration","data":{"integration":"github","block":"files","props":{}}},
		{"object":"block","type":"reusable-content","data":{"ref":{"kind":"reusable-content","reusableContent":"rc1"}}},
		{"object":"block","type":"stepper","nodes":[{"object":"block","type":"stepper-step","data":{},"nodes":[]}]},
		{"object":"block","type":"columns","data":{},"isVoid":false,"nodes":[{"object":"block","type":"column","data":{"width":{"unit":"%","value":50}},"nodes":[]}]},
		{"object":"block","type":"drawing","data":{}},
		{"object":"block","type":"divider","isVoid":true,"data":{},"nodes":[{"object":"text","leaves":[]}]}
	]}`
	doc := mustParse(t, raw)
	if len(doc.Nodes) != 12 {
		t.Fatalf("got %d nodes", len(doc.Nodes))
	}
	if doc.Nodes[0].Key != "k1" || doc.Data["schemaVersion"] != float64(1) {
		t.Errorf("key or data lost: %+v", doc.Nodes[0])
	}
	if !doc.Nodes[11].IsVoid || doc.Nodes[11].Nodes != nil {
		t.Errorf("void divider kept its children: %+v", doc.Nodes[11])
	}
	if got := doc.Nodes[1].Nodes[0].Leaves[0].Marks; got == nil || len(got) != 0 {
		t.Errorf("missing marks should read as empty, got %#v", got)
	}
	// Marshal → Parse is the identity.
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	again := mustParse(t, string(b))
	if !reflect.DeepEqual(doc, again) {
		t.Errorf("round trip changed the document:\n%s\n%s", b, mustJSON(t, again))
	}
	// Unmarshal goes through Parse.
	var viaUnmarshal struct {
		Document Document `json:"document"`
	}
	if err := json.Unmarshal([]byte(`{"document":`+string(b)+`}`), &viaUnmarshal); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&viaUnmarshal.Document, doc) {
		t.Error("json.Unmarshal differs from Parse")
	}
	// Unmarshal reports validation errors as apierr errors with a path.
	err = json.Unmarshal([]byte(`{"document":{"object":"document","nodes":[{"object":"block","type":"hint","data":{},"nodes":[]}]}}`), &viaUnmarshal)
	var e *apierr.Error
	if !errors.As(err, &e) || e.Field != "document.nodes[0].data.style" {
		t.Errorf("Unmarshal error = %v", err)
	}
	// null is no document.
	var withNull struct{ Document *Document }
	if err := json.Unmarshal([]byte(`{"Document":null}`), &withNull); err != nil || withNull.Document != nil {
		t.Errorf("null: %v %v", withNull.Document, err)
	}
	if ToMarkdown(doc) == "" || doc.Text() == "" {
		t.Error("empty rendering")
	}
}

func TestParseErrors(t *testing.T) {
	p := func(nodes ...string) string { return docOf(nodes...) }
	tx := `{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[]}]}`
	tests := []struct {
		name, raw, field string
	}{
		{"not json", `{`, "document"},
		{"not an object", `[]`, "document"},
		{"wrong object", `{"object":"doc","nodes":[]}`, "document.object"},
		{"missing nodes", `{"object":"document","data":{}}`, "document.nodes"},
		{"bad data", `{"object":"document","data":[],"nodes":[]}`, "document.data"},
		{"node not an object", p(`1`), "document.nodes[0]"},
		{"unknown object kind", p(`{"object":"leaf"}`), "document.nodes[0].object"},
		{"text at top level", p(tx), "document.nodes[0].object"},
		{"missing type", p(`{"object":"block","nodes":[]}`), "document.nodes[0].type"},
		{"unknown block type", p(`{"object":"block","type":"banner","nodes":[]}`), "document.nodes[0].type"},
		{"block not allowed at top level", p(`{"object":"block","type":"list-item","nodes":[]}`), "document.nodes[0].type"},
		{"missing nodes on a block", p(`{"object":"block","type":"paragraph"}`), "document.nodes[0].nodes"},
		{"wrong isVoid", p(`{"object":"block","type":"paragraph","isVoid":true,"nodes":[]}`), "document.nodes[0].isVoid"},
		{"heading id pattern", p(`{"object":"block","type":"heading-2","data":{"id":"Bad Id"},"nodes":[]}`), "document.nodes[0].data.id"},
		{"code syntax not a string", p(`{"object":"block","type":"code","data":{"syntax":3},"nodes":[]}`), "document.nodes[0].data.syntax"},
		{"code overflow", p(`{"object":"block","type":"code","data":{"overflow":"hide"},"nodes":[]}`), "document.nodes[0].data.overflow"},
		{"code child", p(`{"object":"block","type":"code","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[]}]}`), "document.nodes[0].nodes[0].type"},
		{"hint without style", p(`{"object":"block","type":"hint","data":{},"nodes":[]}`), "document.nodes[0].data.style"},
		{"hint bad style", p(`{"object":"block","type":"hint","data":{"style":"tip"},"nodes":[]}`), "document.nodes[0].data.style"},
		{"hint holding code", p(`{"object":"block","type":"hint","data":{"style":"info"},"nodes":[{"object":"block","type":"code","data":{},"nodes":[]}]}`), "document.nodes[0].nodes[0].type"},
		{"list item checked", p(`{"object":"block","type":"list-tasks","nodes":[{"object":"block","type":"list-item","data":{"checked":"yes"},"nodes":[]}]}`), "document.nodes[0].nodes[0].data.checked"},
		{"content-ref without ref", p(`{"object":"block","type":"content-ref","data":{}}`), "document.nodes[0].data.ref"},
		{"content-ref bad kind", p(`{"object":"block","type":"content-ref","data":{"ref":{"kind":"site","site":"x"}}}`), "document.nodes[0].data.ref.kind"},
		{"page ref without page", p(`{"object":"block","type":"content-ref","data":{"ref":{"kind":"page"}}}`), "document.nodes[0].data.ref.page"},
		{"file block with url ref", p(`{"object":"block","type":"file","data":{"ref":{"kind":"url","url":"x"}}}`), "document.nodes[0].data.ref.kind"},
		{"image without ref", p(`{"object":"block","type":"images","data":{},"nodes":[{"object":"block","type":"image","data":{},"fragments":[]}]}`), "document.nodes[0].nodes[0].data.ref"},
		{"math without formula", p(`{"object":"block","type":"math","data":{}}`), "document.nodes[0].data.formula"},
		{"expandable bad fragment", p(`{"object":"block","type":"expandable","data":{},"fragments":[{"object":"fragment","fragment":"x","nodes":[]}]}`), "document.nodes[0].fragments[0].fragment"},
		{"expandable empty body", p(`{"object":"block","type":"expandable","data":{},"fragments":[{"object":"fragment","fragment":"expandable-body","nodes":[]}]}`), "document.nodes[0].fragments[0].nodes"},
		{"table without view", p(`{"object":"block","type":"table","data":{"records":{},"definition":{}}}`), "document.nodes[0].data.view"},
		{"table unknown column", p(`{"object":"block","type":"table","data":{"view":{"type":"grid","columns":["z"],"hideHeader":false},"records":{},"definition":{}}}`), "document.nodes[0].data.view.columns[0]"},
		{"table definition type", p(`{"object":"block","type":"table","data":{"view":{"type":"grid","columns":[],"hideHeader":false},"records":{},"definition":{"a":{"id":"a","title":"A","type":"color"}}}}`), "document.nodes[0].data.definition.a.type"},
		{"table record order", p(`{"object":"block","type":"table","data":{"view":{"type":"grid","columns":[],"hideHeader":false},"records":{"r":{"values":{}}},"definition":{}}}`), "document.nodes[0].data.records.r.orderIndex"},
		{"tabs holding a paragraph", p(`{"object":"block","type":"tabs","nodes":[{"object":"block","type":"paragraph","nodes":[]}]}`), "document.nodes[0].nodes[0].type"},
		{"block in a paragraph", p(`{"object":"block","type":"paragraph","nodes":[{"object":"block","type":"paragraph","nodes":[]}]}`), "document.nodes[0].nodes[0].object"},
		{"unknown inline", p(`{"object":"block","type":"paragraph","nodes":[{"object":"inline","type":"sticker","nodes":[]}]}`), "document.nodes[0].nodes[0].type"},
		{"link without ref", p(`{"object":"block","type":"paragraph","nodes":[{"object":"inline","type":"link","data":{},"nodes":[]}]}`), "document.nodes[0].nodes[0].data.ref"},
		{"link ref url missing", p(`{"object":"block","type":"paragraph","nodes":[{"object":"inline","type":"link","data":{"ref":{"kind":"url"}},"nodes":[]}]}`), "document.nodes[0].nodes[0].data.ref.url"},
		{"link ref user missing", p(`{"object":"block","type":"paragraph","nodes":[{"object":"inline","type":"link","data":{"ref":{"kind":"user","user":""}},"nodes":[]}]}`), "document.nodes[0].nodes[0].data.ref.user"},
		{"link ref anchor page type", p(`{"object":"block","type":"paragraph","nodes":[{"object":"inline","type":"link","data":{"ref":{"kind":"anchor","anchor":"a","page":1}},"nodes":[]}]}`), "document.nodes[0].nodes[0].data.ref.page"},
		{"link holding math", p(`{"object":"block","type":"paragraph","nodes":[{"object":"inline","type":"link","data":{"ref":{"kind":"url","url":"u"}},"nodes":[{"object":"inline","type":"inline-math","data":{"formula":"x"}}]}]}`), "document.nodes[0].nodes[0].nodes[0].type"},
		{"inline math formula", p(`{"object":"block","type":"paragraph","nodes":[{"object":"inline","type":"inline-math","data":{"formula":1}}]}`), "document.nodes[0].nodes[0].data.formula"},
		{"text without leaves", p(`{"object":"block","type":"paragraph","nodes":[{"object":"text"}]}`), "document.nodes[0].nodes[0].leaves"},
		{"leaf without text", p(`{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","marks":[]}]}]}`), "document.nodes[0].nodes[0].leaves[0].text"},
		{"leaf wrong object", p(`{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"run","text":"x"}]}]}`), "document.nodes[0].nodes[0].leaves[0].object"},
		{"unknown mark", p(`{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[{"object":"mark","type":"underline"}]}]}]}`), "document.nodes[0].nodes[0].leaves[0].marks[0].type"},
		{"color mark without data", p(`{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[{"object":"mark","type":"color"}]}]}]}`), "document.nodes[0].nodes[0].leaves[0].marks[0].data.text"},
		{"color mark bad color", p(`{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[{"object":"mark","type":"color","data":{"text":"pink","background":"default"}}]}]}]}`), "document.nodes[0].nodes[0].leaves[0].marks[0].data.text"},
		{"deep path", p(`{"object":"block","type":"blockquote","nodes":[` + para(tx) + `,{"object":"block","type":"list-unordered","nodes":[{"object":"block","type":"list-item","nodes":[{"object":"block","type":"hint","data":{"style":"nope"},"nodes":[]}]}]}]}`), "document.nodes[0].nodes[1].nodes[0].nodes[0].data.style"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.raw))
			if err == nil {
				t.Fatalf("Parse succeeded, want an error on %s", tc.field)
			}
			var e *apierr.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T %v is not an apierr.Error", err, err)
			}
			if e.Code != apierr.BadRequest || e.Field != tc.field {
				t.Errorf("got %s on %q (%s), want BAD_REQUEST on %q", e.Code, e.Field, e.Message, tc.field)
			}
			if !strings.Contains(e.Message, tc.field) {
				t.Errorf("message %q does not name %q", e.Message, tc.field)
			}
		})
	}
}

func TestText(t *testing.T) {
	doc, err := FromMarkdown(`# Title

Some **bold** text with $$x^2$$ and [a link](https://x.test).

- one
- two

| A | B |
| --- | --- |
| 1 | 2<br>3 |

![Alt text](https://x.test/i.png "Caption")

<details><summary>Q?</summary>

A.

</details>

` + "```sh\necho hi\n\nls\n```\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "Title\nSome bold text with x^2 and a link.\none\ntwo\nA\tB\n1\t2 3\nAlt text\nCaption\nQ?\nA.\necho hi\n\nls"
	if got := doc.Text(); got != want {
		t.Errorf("Text()\n got %q\nwant %q", got, want)
	}
}

func TestConstructors(t *testing.T) {
	p := NewBlock(BlockParagraph, nil, NewText("a", Mark{Type: MarkBold}),
		NewInline(InlineLink, map[string]any{"ref": ContentRef{Kind: RefPage, Page: "p"}.Map()}, NewText("b")))
	doc := &Document{Nodes: []Node{p, NewBlock(BlockDivider, nil)}}
	if err := doc.Validate(); err != nil {
		t.Fatal(err)
	}
	if got, want := ToMarkdown(doc), "**a**[b](page://p)\n\n---\n"; got != want {
		t.Errorf("ToMarkdown = %q, want %q", got, want)
	}
	if got := mustJSON(t, doc.Nodes[1]); got != `{"object":"block","type":"divider","data":{},"isVoid":true}` {
		t.Errorf("divider JSON = %s", got)
	}
	if r, ok := doc.Nodes[0].Nodes[1].Ref(); !ok || r.Page != "p" {
		t.Errorf("Ref() = %+v, %v", r, ok)
	}
}
