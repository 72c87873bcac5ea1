package computed

import (
	"fmt"
	"strings"

	"quire/internal/document"
	"quire/internal/textcut"
)

// builder makes the document of a computed page: its blocks carry keys
// derived from the page's seed, so that the same input always gives the
// same keys.
type builder struct {
	seed  string
	nodes []document.Node
}

func (b *builder) add(n document.Node) {
	seed := b.seed
	if len(seed) > 12 {
		seed = seed[:12]
	}
	n.Key = fmt.Sprintf("%s-%d", seed, len(b.nodes))
	b.nodes = append(b.nodes, n)
}

func (b *builder) document() *document.Document {
	nodes := b.nodes
	if nodes == nil {
		nodes = []document.Node{}
	}
	return &document.Document{Data: map[string]any{}, Nodes: nodes}
}

func paragraph(text string) document.Node {
	return document.NewBlock(document.BlockParagraph, nil, document.NewText(text))
}

func heading(typ, text string) document.Node {
	return document.NewBlock(typ, nil, document.NewText(text))
}

// paragraphs adds a paragraph per blank-line-separated part of text.
func (b *builder) paragraphs(text string) {
	for _, p := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			b.add(paragraph(p))
		}
	}
}

// hint adds a hint block of a style with a text.
func (b *builder) hint(style, text string) {
	b.add(document.NewBlock(document.BlockHint, map[string]any{"style": style}, paragraph(text)))
}

// buildOperations makes the operations document: a heading per tag with
// its description, then a block per operation.
func buildOperations(b *builder, s *spec, ref document.ContentRef, page string) {
	groups, truncated := s.operations(ref, page)
	if len(groups) == 0 {
		if page != "" {
			b.hint(document.HintInfo, fmt.Sprintf("The OpenAPI specification %q has no operation tagged %q.", ref.Spec, page))
		} else {
			b.hint(document.HintInfo, fmt.Sprintf("The OpenAPI specification %q has no operation.", ref.Spec))
		}
		return
	}
	for _, g := range groups {
		b.add(heading(document.BlockHeading1, textcut.Runes(g.name, MaxName)))
		b.paragraphs(g.description)
		for _, op := range g.ops {
			b.add(document.NewBlock(document.BlockOpenAPIOperation, document.DataOf(op)))
		}
	}
	if truncated {
		b.hint(document.HintWarning, fmt.Sprintf("The specification has more than %d operations; this page shows the first %d. Split it with props.page (a tag).", MaxOperations, MaxOperations))
	}
}

// buildModels makes the models document: a block per component schema.
func buildModels(b *builder, s *spec, ref document.ContentRef) {
	models, truncated := s.models()
	if len(models) == 0 {
		b.hint(document.HintInfo, fmt.Sprintf("The OpenAPI specification %q has no component schema.", ref.Spec))
		return
	}
	for _, m := range models {
		b.add(document.NewBlock(document.BlockOpenAPISchemas, document.DataOf(document.OpenAPISchemas{
			Ref: ref, Schemas: []string{m.Name}, Grouped: false, Definitions: []document.OpenAPINamedSchema{m},
		})))
	}
	if truncated {
		b.hint(document.HintWarning, fmt.Sprintf("The specification has more than %d component schemas; this page shows the first %d.", MaxModels, MaxModels))
	}
}

// buildInfo makes the info document: title, version and description.
func buildInfo(b *builder, s *spec) {
	info := s.rootDoc().obj("info")
	title := info.str("title")
	if title == "" {
		title = "API"
	}
	b.add(heading(document.BlockHeading1, textcut.Runes(title, MaxName)))
	if v := scalarText(info.get("version")); v != "" && info.get("version") != nil {
		b.add(paragraph("Version " + textcut.Runes(v, MaxName)))
	}
	b.paragraphs(textcut.Runes(info.str("description"), MaxText))
	var servers []document.Node
	for _, sv := range s.rootDoc().list("servers") {
		if m, ok := sv.(*omap); ok && m.str("url") != "" && len(servers) < MaxParameters {
			text := m.str("url")
			if d := m.str("description"); d != "" {
				text += " — " + d
			}
			servers = append(servers, document.NewBlock(document.BlockListItem, nil, paragraph(textcut.Runes(text, MaxText))))
		}
	}
	if len(servers) > 0 {
		b.add(heading(document.BlockHeading2, "Servers"))
		b.add(document.NewBlock(document.BlockListUnordered, nil, servers...))
	}
}
