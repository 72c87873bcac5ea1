package evaluate_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"quire/internal/apierr"
	"quire/internal/document"
	"quire/internal/evaluate"
)

func expression(src string) document.Node {
	return document.NewInline(document.InlineExpression, map[string]any{"expression": src})
}

func ifBlock(src string, children ...document.Node) document.Node {
	return document.NewBlock(document.BlockIf, map[string]any{"expression": src}, children...)
}

func para(nodes ...document.Node) document.Node {
	return document.NewBlock(document.BlockParagraph, nil, nodes...)
}

func text(s string) document.Node { return document.NewText(s) }

var env = evaluate.Env{
	Space: map[string]any{"version": "2.1", "count": float64(3), "ratio": 1.5, "beta": true, "tags": []any{"a", "b"}},
	Page:  map[string]any{"product": "Quire", "show": false},
}

// render returns the document's plain text with evaluated values, and
// "{expr}" for expressions left unevaluated, one line per top-level block.
func render(t *testing.T, doc *document.Document) string {
	t.Helper()
	var b strings.Builder
	var walk func(nodes []document.Node)
	walk = func(nodes []document.Node) {
		for _, n := range nodes {
			switch {
			case n.Object == document.ObjectText:
				for _, l := range n.Leaves {
					b.WriteString(l.Text)
				}
			case n.Type == document.InlineExpression:
				b.WriteString("{" + n.Data["expression"].(string) + "}")
			case n.Type == document.BlockIf:
				b.WriteString("<if " + n.Data["expression"].(string) + ">")
				walk(n.Nodes)
				b.WriteString("</if>")
			case n.Object == document.ObjectBlock && n.Type != document.BlockListItem:
				walk(n.Nodes)
				b.WriteString("|")
			default:
				walk(n.Nodes)
			}
		}
	}
	walk(doc.Nodes)
	return b.String()
}

func eval(t *testing.T, mode evaluate.Mode, nodes ...document.Node) string {
	t.Helper()
	out, err := evaluate.Document(&document.Document{Nodes: nodes}, env, mode)
	if err != nil {
		t.Fatalf("evaluate: %v", err)
	}
	return render(t, out)
}

func TestExpressionValues(t *testing.T) {
	tests := []struct {
		expr, want string
	}{
		{`space.vars.version`, "2.1"},
		{`page.vars.product + " v2"`, "Quire v2"},
		{`space.vars.count`, "3"},
		{`space.vars.count * 2`, "6"},
		{`space.vars.count / 2`, "1.5"},
		{`space.vars.ratio`, "1.5"},
		{`space.vars.beta`, "true"},
		{`page.vars.show`, "false"},
		{`space.vars.missing`, ""},
		{`space.vars.missing.deeper`, ""},
		{`upper(page.vars.product)`, "QUIRE"},
		{`let v = space.vars.version; "v" + v`, "v2.1"},
		{`space.vars.tags`, `["a","b"]`},
		{`len(space.vars.tags)`, "2"},
		{`visitor.claims.plan`, ""},
		{`visitor.claims.plan ?? "free"`, "free"},
		{`"<b>" + page.vars.product`, "<b>Quire"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			got := eval(t, evaluate.All, para(text("["), expression(tt.expr), text("]")))
			if want := "[" + tt.want + "]|"; got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

func TestModes(t *testing.T) {
	doc := []document.Node{
		para(text("v"), expression(`space.vars.version`), text(" for "), expression(`visitor.claims.name`)),
		ifBlock(`space.vars.beta`, para(text("beta"))),
		ifBlock(`page.vars.show`, para(text("hidden"))),
		ifBlock(`visitor.claims.plan == "pro"`, para(text("pro "), expression(`page.vars.product`))),
		ifBlock(`now().Year() > 2000`, para(text("clock"))),
		para(text("["), expression(`undefinedFunc(space.vars.version)`), text("]")),
		para(expression(`date("2024-01-02").Year()`), text(" "), expression(`space.vars.count | string()`)),
	}
	tests := []struct {
		mode evaluate.Mode
		want string
	}{
		{evaluate.None, `v{space.vars.version} for {visitor.claims.name}|<if space.vars.beta>beta|</if><if page.vars.show>hidden|</if>` +
			`<if visitor.claims.plan == "pro">pro {page.vars.product}|</if><if now().Year() > 2000>clock|</if>` +
			`[{undefinedFunc(space.vars.version)}]|{date("2024-01-02").Year()} {space.vars.count | string()}|`},
		{evaluate.All, `v2.1 for |beta|clock|[]|2024 3|`},
		{evaluate.DeterministicOnly, `v2.1 for {visitor.claims.name}|beta|<if visitor.claims.plan == "pro">pro Quire|</if>` +
			`<if now().Year() > 2000>clock|</if>[{undefinedFunc(space.vars.version)}]|{date("2024-01-02").Year()} 3|`},
	}
	for _, tt := range tests {
		t.Run(tt.mode.String(), func(t *testing.T) {
			if got := eval(t, tt.mode, doc...); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestConditions(t *testing.T) {
	tests := []struct {
		cond  string
		shown bool
	}{
		{`true`, true},
		{`false`, false},
		{`nil`, false},
		{`space.vars.beta && page.vars.product == "Quire"`, true},
		{`space.vars.count > 5`, false},
		{`space.vars.count`, true},
		{`space.vars.count - 3`, false},
		{`page.vars.product`, true},
		{`""`, false},
		{`space.vars.missing`, false},
		{`space.vars.missing.deeper`, false},
		{`visitor.claims.beta`, false},
		{`!visitor.claims.beta`, true},
		{`"admin" in space.vars.tags`, false},
	}
	for _, tt := range tests {
		t.Run(tt.cond, func(t *testing.T) {
			got := eval(t, evaluate.All, para(text("before")), ifBlock(tt.cond, para(text("x")), para(text("y"))))
			want := "before|"
			if tt.shown {
				want = "before|x|y|"
			}
			if got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

func TestNesting(t *testing.T) {
	link := document.NewInline(document.InlineLink,
		map[string]any{"ref": map[string]any{"kind": "url", "url": "https://example.com"}},
		text("see "), expression(`page.vars.product`))
	list := document.NewBlock(document.BlockListUnordered, nil,
		document.NewBlock(document.BlockListItem, nil, para(text("one"))),
		ifBlock(`space.vars.beta`, document.NewBlock(document.BlockListItem, nil, para(text("two "), expression(`space.vars.count`)))),
		document.NewBlock(document.BlockListItem, nil,
			ifBlock(`page.vars.show`, para(text("never"))),
			ifBlock(`!page.vars.show`, ifBlock(`space.vars.count == 3`, para(text("three"))))),
	)
	quote := document.NewBlock(document.BlockQuote, nil, para(link))
	got := eval(t, evaluate.All, list, quote)
	if want := "one|two 3|three||see Quire||"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}

	// Fragments (table cells, expandable bodies) are evaluated too.
	exp := document.Node{Object: document.ObjectBlock, Type: document.BlockExpandable, IsVoid: true, Data: map[string]any{},
		Fragments: []document.Node{{Object: document.ObjectFragment, Fragment: document.FragmentExpandableBody,
			Nodes: []document.Node{para(expression(`space.vars.version`)), ifBlock(`false`, para(text("gone")))}}}}
	out, err := evaluate.Document(&document.Document{Nodes: []document.Node{exp}}, env, evaluate.All)
	if err != nil {
		t.Fatal(err)
	}
	body := out.Nodes[0].Fragments[0].Nodes
	if len(body) != 1 || body[0].Nodes[0].Leaves[0].Text != "2.1" {
		t.Errorf("expandable body = %+v", body)
	}
}

func TestExpressionTextNode(t *testing.T) {
	in := expression(`space.vars.version`)
	in.Key = "k1"
	out, err := evaluate.Document(&document.Document{Nodes: []document.Node{para(in)}}, env, evaluate.All)
	if err != nil {
		t.Fatal(err)
	}
	n := out.Nodes[0].Nodes[0]
	if n.Object != document.ObjectText || n.Key != "k1" || len(n.Leaves) != 1 || n.Leaves[0].Text != "2.1" || n.Leaves[0].Marks == nil {
		t.Errorf("expression became %+v", n)
	}
	// The result is still a valid document.
	raw, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := document.Parse(raw); err != nil {
		t.Errorf("evaluated document does not parse: %v\n%s", err, raw)
	}
}

func TestBadExpressions(t *testing.T) {
	for _, src := range []string{`space.vars.`, `(`, `1 +`, `"unterminated`, `space.vars.version +* 2`, `foo(`} {
		t.Run(src, func(t *testing.T) {
			for _, mode := range []evaluate.Mode{evaluate.All, evaluate.DeterministicOnly} {
				got := eval(t, mode, para(expression(src)), ifBlock(src, para(expression(`space.vars.version`))))
				want := "{" + src + "}|<if " + src + ">2.1|</if>"
				if got != want {
					t.Errorf("%s: got %q, want %q", mode, got, want)
				}
			}
		})
	}
	// A runtime error (here a type mismatch) evaluates as nil.
	if got := eval(t, evaluate.All, para(text("["), expression(`space.vars.version - 1`), text("]"))); got != "[]|" {
		t.Errorf("runtime error: got %q", got)
	}
	// Huge ranges are cut off by the evaluation budget, not the server.
	if got := eval(t, evaluate.All, para(text("["), expression(`len(1..100000000)`), text("]"))); got != "[]|" && got != "[100000000]|" {
		t.Errorf("budget: got %q", got)
	}
}

func TestInputUnchanged(t *testing.T) {
	doc := &document.Document{Data: map[string]any{"schemaVersion": float64(1)}, Nodes: []document.Node{
		para(text("a"), expression(`space.vars.version`)),
		ifBlock(`space.vars.beta`, para(expression(`page.vars.product`))),
		ifBlock(`false`, para(text("x"))),
		document.NewBlock(document.BlockParagraph, map[string]any{"align": "center", "nested": map[string]any{"a": []any{"b"}}},
			document.NewText("bold", document.Mark{Type: document.MarkBold})),
	}}
	before, _ := json.Marshal(doc)
	for _, mode := range []evaluate.Mode{evaluate.None, evaluate.All, evaluate.DeterministicOnly} {
		out, err := evaluate.Document(doc, env, mode)
		if err != nil {
			t.Fatal(err)
		}
		// Changing the copy leaves the input alone.
		out.Data["schemaVersion"] = float64(2)
		last := &out.Nodes[len(out.Nodes)-1]
		last.Data["nested"].(map[string]any)["a"].([]any)[0] = "changed"
		last.Nodes[0].Leaves[0].Text = "changed"
		last.Nodes[0].Leaves[0].Marks[0].Type = "italic"
		if mode == evaluate.None {
			out.Nodes[0].Nodes[1].Data["expression"] = "changed"
		}
	}
	after, _ := json.Marshal(doc)
	if string(before) != string(after) {
		t.Errorf("input changed:\n%s\n%s", before, after)
	}
}

func TestNilDocumentAndMode(t *testing.T) {
	if out, err := evaluate.Document(nil, env, evaluate.All); out != nil || err != nil {
		t.Errorf("nil document: %v, %v", out, err)
	}
	if _, err := evaluate.Document(&document.Document{}, env, evaluate.Mode(42)); apierr.CodeOf(err) != apierr.BadRequest {
		t.Errorf("unknown mode: %v", err)
	}
	out, err := evaluate.Document(&document.Document{Nodes: []document.Node{para(expression(`space.vars.x`))}}, evaluate.Env{}, evaluate.All)
	if err != nil || render(t, out) != "|" {
		t.Errorf("empty env: %v %q", err, render(t, out))
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]evaluate.Mode{"": evaluate.None, "false": evaluate.None, "true": evaluate.All,
		"deterministic-only": evaluate.DeterministicOnly} {
		got, err := evaluate.ParseMode(in)
		if err != nil || got != want {
			t.Errorf("ParseMode(%q) = %v, %v", in, got, err)
		}
		if in != "" && got.String() != in {
			t.Errorf("%v.String() = %q", got, got.String())
		}
	}
	if _, err := evaluate.ParseMode("yes"); apierr.CodeOf(err) != apierr.BadRequest {
		t.Errorf("ParseMode(yes): %v", err)
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{nil, ""}, {"s", "s"}, {true, "true"}, {float64(3), "3"}, {2.50, "2.5"}, {-0.25, "-0.25"},
		{7, "7"}, {int64(-7), "-7"}, {1e22, "1e+22"}, {[]any{1.0, "x"}, `[1,"x"]`},
		{map[string]any{"b": 1.0, "a": true}, `{"a":true,"b":1}`},
	}
	for _, tt := range tests {
		if got := evaluate.Format(tt.in); got != tt.want {
			t.Errorf("Format(%#v) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if !reflect.DeepEqual(evaluate.Truthy(0), false) || !evaluate.Truthy([]any{}) {
		t.Error("Truthy")
	}
}

// TestVisitorClaims evaluates visitor.claims for a reader that knows them,
// and leaves them to DeterministicOnly as depending on the reader.
func TestVisitorClaims(t *testing.T) {
	withClaims := env
	withClaims.Claims = map[string]any{"plan": "pro", "name": "Ada"}
	nodes := []document.Node{
		para(text("hi "), expression(`visitor.claims.name`), text(" "), expression(`visitor.claims.missing ?? "-"`)),
		ifBlock(`visitor.claims.plan == "pro"`, para(text("pro"))),
		ifBlock(`visitor.claims.plan == "free"`, para(text("free"))),
	}
	for _, tc := range []struct {
		mode evaluate.Mode
		want string
	}{
		{evaluate.All, "hi Ada -|pro|"},
		{evaluate.DeterministicOnly, `hi {visitor.claims.name} {visitor.claims.missing ?? "-"}|<if visitor.claims.plan == "pro">pro|</if><if visitor.claims.plan == "free">free|</if>`},
	} {
		out, err := evaluate.Document(&document.Document{Nodes: nodes}, withClaims, tc.mode)
		if err != nil {
			t.Fatal(err)
		}
		if got := render(t, out); got != tc.want {
			t.Errorf("mode %v: got %q, want %q", tc.mode, got, tc.want)
		}
	}
}
