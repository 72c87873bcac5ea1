package downloads

import (
	"context"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/types"
)

// ComputedPages computes the documents of computed pages (the API
// references made from OpenAPI specifications), so that a PDF shows
// them as a page read does. The link is the authorization: the document
// is computed from the specifications of the space's organization.
type ComputedPages interface {
	SpaceDocument(ctx context.Context, spaceID string, def *types.PageComputed, seed string) (*document.Document, error)
}

// computedDocuments computes the documents of the computed pages among
// items' pages; none without a ComputedPages.
func (s *Service) computedDocuments(ctx context.Context, spaceID string, pages []*content.Page) (map[string]*document.Document, error) {
	out := map[string]*document.Document{}
	if s.Computed == nil {
		return out, nil
	}
	for _, p := range pages {
		if p.Type != content.TypeDocument || p.Computed == nil {
			continue
		}
		doc, err := s.Computed.SpaceDocument(ctx, spaceID, p.Computed, p.ComputedSeed)
		if err != nil {
			return nil, err
		}
		out[p.Version] = printable(doc)
	}
	return out, nil
}

// printable is a generated document as a PDF shows it: its OpenAPI blocks
// carry their operation in data, which a PDF has no drawing for, so the
// document goes through its Markdown (headings, paragraphs and tables of
// parameters and responses) and back.
func printable(d *document.Document) *document.Document {
	out, err := document.FromMarkdown(document.ToMarkdown(d))
	if err != nil {
		return d
	}
	return out
}
