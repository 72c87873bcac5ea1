package server

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// The GraphQL responses are written without encoding/json, but must be the
// bytes json.Marshal writes.
func TestAppendResponseMatchesJSONMarshal(t *testing.T) {
	yes := true
	for _, resp := range []*graphql.Response{
		{},
		{Data: json.RawMessage(`{"a":1}`)},
		{Data: json.RawMessage(" {\n\t\"a b\" : [ 1 , \"x <y> & z\" , \"\u2028\u2029\" , \"q\\\" <\" , null ] }\r\n")},
		{Data: json.RawMessage(`{"s":"é ü ☃ 𝄞","t":"\\u003c\\\\"}`)},
		{Errors: gqlerror.List{{Message: "bad <thing>", Path: ast.Path{ast.PathName("site"), ast.PathIndex(2)}, Extensions: map[string]any{"code": "NOT_FOUND"}}}, Data: json.RawMessage(`null`)},
		{Data: json.RawMessage(`{}`), Label: "l", Path: ast.Path{ast.PathName("a")}, HasNext: &yes, Extensions: map[string]any{"cost": 3, "x": "<"}},
	} {
		want, err := json.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendResponse(nil, resp)
		if err != nil {
			t.Fatalf("%s: %v", want, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("appendResponse:\n got %s\nwant %s", got, want)
		}
	}
	if _, err := appendResponse(nil, &graphql.Response{Data: json.RawMessage(`{"a":"open`)}); err == nil {
		t.Error("unterminated string: no error")
	}
}

// Documents of every shape the skipping loop meets (runs at the start and
// end, escapes at the end of strings, specials next to each other), both
// compact and indented, compact to what encoding/json writes.
func TestAppendCompactJSONMatchesEncodingJSON(t *testing.T) {
	values := []any{
		"", "a", `\`, `"`, `\"`, "<>&", "x\u2028y\u2029z", "\u2027\u202a", "é☃", "tab\there", "line\nbreak",
		map[string]any{"k <": []any{1.5, true, nil, "a&b", map[string]any{}}, "": ""},
		[]any{[]any{}, []any{"\\\\", "\\\""}, map[string]any{"q": "\"<\""}},
	}
	for _, v := range values {
		compact, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var indented bytes.Buffer
		if err := json.Indent(&indented, compact, " ", "\t "); err != nil {
			t.Fatal(err)
		}
		for _, src := range [][]byte{compact, indented.Bytes()} {
			want, err := json.Marshal(json.RawMessage(src))
			if err != nil {
				t.Fatal(err)
			}
			got, ok := appendCompactJSON(nil, src)
			if !ok || !bytes.Equal(got, want) {
				t.Errorf("appendCompactJSON(%s):\n got %s (%v)\nwant %s", src, got, ok, want)
			}
		}
	}
}
