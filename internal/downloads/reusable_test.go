package downloads

import (
	"context"
	"strings"
	"testing"

	"quire/internal/content"
	"quire/internal/document"
)

// embedding is a content engine whose one page embeds a reusable content.
type embedding struct{ Content }

func (embedding) Revision(context.Context, string) (*content.Revision, error) {
	return &content.Revision{ID: "rev", Pages: []*content.Page{{ID: "p", Title: "Guide", Type: content.TypeDocument, Version: "v"}}}, nil
}

func (embedding) Documents(context.Context, []string) (map[string]*document.Document, error) {
	return map[string]*document.Document{"v": {Nodes: []document.Node{document.NewBlock(document.BlockReusableContent,
		map[string]any{"ref": map[string]any{"kind": "reusable-content", "reusableContent": "r"}})}}}, nil
}

func (embedding) Dereference(_ context.Context, rev string, doc *document.Document) (*document.Document, error) {
	if rev != "rev" || len(doc.Nodes) != 1 || doc.Nodes[0].Type != document.BlockReusableContent {
		return doc, nil
	}
	return &document.Document{Nodes: []document.Node{document.NewBlock(document.BlockParagraph, nil, document.NewText("Mind the gap."))}}, nil
}

// A PDF shows the reusable contents its pages embed, inlined.
func TestPDFInlinesReusableContents(t *testing.T) {
	s := &Service{Content: embedding{}}
	pages, err := s.pages(context.Background(), "rev", PDFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, b := range pages[0].Blocks {
		for _, sp := range b.Text {
			text.WriteString(sp.Text)
		}
	}
	if len(pages) != 1 || text.String() != "Mind the gap." {
		t.Fatalf("pages = %+v", pages)
	}
}
