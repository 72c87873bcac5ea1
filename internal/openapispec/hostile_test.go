package openapispec

import (
	"fmt"
	"strings"
	"testing"
)

// aliasBomb is a "billion laughs" document: nine levels of aliases, each
// naming the level below nine times, 9^9 values when expanded, in a few
// hundred bytes.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("openapi: 3.1.0\ninfo: {title: x, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n")
	b.WriteString("    a0: &a0 {type: string}\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "    a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 9), ", "))
	}
	return b.String()
}

// TestHostileTexts: texts made to cost a reader exponential work or
// unbounded recursion are refused as PARSE_ERROR problems saying why.
func TestHostileTexts(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	cases := []struct{ name, text, want string }{
		{"aliases", aliasBomb(), "openapi.yaml: invalid YAML: document contains excessive aliasing"},
		{"deep yaml", "openapi: 3.1.0\ninfo: {title: x, version: \"1\"}\npaths: {}\nx-deep: " + deep + "\n", "openapi.yaml:4:1: invalid YAML: exceeded max depth"},
		{"deep json", `{"openapi": "3.1.0", "info": {"title": "x", "version": "1"}, "paths": {}, "x-deep": ` + deep + "}", "openapi.json: invalid JSON: exceeded max depth"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := read(t, privateFetcher(), "", tc.text)
			if err != nil {
				t.Fatal(err)
			}
			errs := c.errors()
			if len(errs) != 1 || !strings.HasPrefix(errs[0].Message, tc.want) || errs[0].Code != ErrSyntax {
				t.Errorf("errors = %+v, want one %s starting %q", errs, ErrSyntax, tc.want)
			}
		})
	}
}
