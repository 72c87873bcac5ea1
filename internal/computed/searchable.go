package computed

import (
	"strings"

	"quire/internal/document"
)

// Searchable is a computed document as the search index reads it: the
// generated OpenAPI blocks carry their text in data, which the index does
// not read, so each becomes a heading (method and path, or the schema's
// name) and paragraphs of its words (summary, description, parameters,
// properties). Each operation and schema is then a section of its own.
func Searchable(d *document.Document) *document.Document {
	out := &document.Document{Data: d.Data, Nodes: make([]document.Node, 0, len(d.Nodes))}
	for i := range d.Nodes {
		n := &d.Nodes[i]
		if op, ok := document.OpenAPIOperationOf(n); ok {
			out.Nodes = append(out.Nodes, heading(document.BlockHeading2, strings.ToUpper(op.Method)+" "+op.Path))
			words := []string{op.Summary, op.Description, op.OperationID}
			for _, p := range op.Parameters {
				words = append(words, p.Name, p.Description)
			}
			if op.RequestBody != nil {
				words = append(words, op.RequestBody.Description)
			}
			for _, r := range op.Responses {
				words = append(words, r.Description)
			}
			out.Nodes = append(out.Nodes, textBlocks(words)...)
			continue
		}
		if s, ok := document.OpenAPISchemasOf(n); ok {
			for _, def := range s.Definitions {
				out.Nodes = append(out.Nodes, heading(document.BlockHeading2, def.Name))
				var words []string
				if def.Schema != nil {
					words = append(words, def.Schema.Description)
					for _, p := range def.Schema.Properties {
						words = append(words, p.Name)
						if p.Schema != nil {
							words = append(words, p.Schema.Description)
						}
					}
				}
				out.Nodes = append(out.Nodes, textBlocks(words)...)
			}
			continue
		}
		out.Nodes = append(out.Nodes, *n)
	}
	return out
}

// textBlocks is a paragraph per non-empty text.
func textBlocks(texts []string) []document.Node {
	var out []document.Node
	for _, t := range texts {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, paragraph(t))
		}
	}
	return out
}
