package downloads

import (
	"testing"

	"quire/internal/document"
)

// A generated operation prints as a heading and tables: the PDF has no
// drawing for the block itself.
func TestPrintableOperation(t *testing.T) {
	op := document.OpenAPIOperation{
		Ref: document.ContentRef{Kind: document.RefOpenAPI, Spec: "pets"}, Method: "get", Path: "/pets", Summary: "List pets",
		Tags: []string{}, Parameters: []document.OpenAPIParameter{{Name: "limit", In: "query", Schema: &document.OpenAPISchema{Type: "integer"}}},
		Responses: []document.OpenAPIResponse{{Status: "200", Description: "The pets.", Content: []document.OpenAPIMediaType{}}},
	}
	doc := &document.Document{Data: map[string]any{}, Nodes: []document.Node{document.NewBlock(document.BlockOpenAPIOperation, document.DataOf(op))}}
	var types []string
	for _, n := range printable(doc).Nodes {
		types = append(types, n.Type)
	}
	want := []string{document.BlockHeading2, document.BlockParagraph, document.BlockHeading3, document.BlockTable, document.BlockHeading3, document.BlockTable}
	if len(types) != len(want) {
		t.Fatalf("printable blocks %v, want %v", types, want)
	}
	for i := range want {
		if types[i] != want[i] {
			t.Fatalf("printable blocks %v, want %v", types, want)
		}
	}
}
