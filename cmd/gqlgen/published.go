package main

import (
	"bytes"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"
)

// publishedFile is where `make generate` writes the schema as Quire
// publishes it (relative to gqlgen.yml). It is committed: a change of the
// contract shows in review as a change of this one file, whatever SDL file
// it was made in, and a test checks the generated code serves exactly it.
const publishedFile = "graph/testdata/published.graphql"

const publishedHeader = "# The GraphQL schema Quire publishes (what introspection answers), one type\n" +
	"# after the other by name. Written by cmd/gqlgen (make generate) from the\n" +
	"# SDL files listed in gqlgen.yml; do not edit.\n\n"

// printPublished prints a schema as publishedFile holds it: its
// description, then gqlparser's formatting of every directive and type
// that is not built in, sorted by name (fields, arguments and values stay
// in their order).
func printPublished(s *ast.Schema) string {
	var b bytes.Buffer
	b.WriteString(publishedHeader)
	if s.Description != "" {
		b.WriteString("\"\"\"\n" + s.Description + "\n\"\"\"\nschema {\n")
		for _, root := range []struct {
			op  string
			def *ast.Definition
		}{{"query", s.Query}, {"mutation", s.Mutation}, {"subscription", s.Subscription}} {
			if root.def != nil {
				b.WriteString("  " + root.op + ": " + root.def.Name + "\n")
			}
		}
		b.WriteString("}\n\n")
	}
	formatter.NewFormatter(&b, formatter.WithIndent("  ")).FormatSchema(s)
	return strings.TrimRight(b.String(), "\n") + "\n"
}
