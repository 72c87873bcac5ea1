package document

import "strings"

// fit rewrites blocks that may not appear in ctx into ones that may. The
// reference restricts nesting (a blockquote holds only essentials and
// quotes, a hint only essentials, a list item no images, ...), while Markdown
// nests anything; fit keeps the content and loses only the container.
func fit(nodes []Node, ctx set) []Node {
	var out []Node
	for _, n := range nodes {
		if ctx[n.Type] {
			out = append(out, n)
			continue
		}
		out = append(out, degrade(n, ctx)...)
	}
	return out
}

func paragraph(nodes ...Node) Node {
	return Node{Object: ObjectBlock, Type: BlockParagraph, Nodes: normalizeInlines(nodes)}
}

func degrade(n Node, ctx set) []Node {
	switch n.Type {
	case BlockCode:
		// One paragraph of code-marked lines separated by line breaks.
		var inl []Node
		for _, l := range n.Nodes {
			s := inlineText(l.Nodes)
			if strings.TrimSpace(s) == "" {
				continue
			}
			if len(inl) > 0 {
				inl = append(inl, NewText("\n"))
			}
			inl = append(inl, NewText(s, Mark{Type: MarkCode}))
		}
		if len(inl) == 0 {
			return nil
		}
		return []Node{paragraph(inl...)}
	case BlockMath:
		f, _ := n.Data["formula"].(string)
		f = strings.ReplaceAll(strings.TrimSpace(f), "\n", " ")
		if !inlineFormulaOK(f) {
			if f == "" {
				return nil
			}
			return []Node{paragraph(NewText(f))}
		}
		return []Node{paragraph(Node{Object: ObjectInline, Type: InlineMath, IsVoid: true,
			Data: map[string]any{"formula": f}})}
	case BlockImages:
		var inl []Node
		for _, img := range n.Nodes {
			data := map[string]any{}
			for k, v := range img.Data {
				switch k {
				case "ref", "refDark", "alt":
					data[k] = v
				}
			}
			if f, ok := img.FragmentByName(FragmentCaption); ok {
				if c := strings.TrimSpace(inlineText(blockInlinesAll(f.Nodes))); c != "" {
					data["caption"] = c
				}
			}
			if len(inl) > 0 {
				inl = append(inl, NewText(" "))
			}
			inl = append(inl, Node{Object: ObjectInline, Type: InlineImage, IsVoid: true, Data: data})
		}
		if len(inl) == 0 {
			return nil
		}
		return []Node{paragraph(inl...)}
	case BlockTable:
		t := layoutTable(&n)
		var out []Node
		titles := make([]string, len(t.cols))
		for i, c := range t.cols {
			titles[i] = c.title
		}
		if h := strings.TrimSpace(strings.Join(titles, " | ")); strings.Trim(h, "| ") != "" {
			out = append(out, paragraph(NewText(h, Mark{Type: MarkBold})))
		}
		for _, r := range t.rows {
			var inl []Node
			for i, cell := range r.cells {
				if i > 0 {
					inl = append(inl, NewText(" | "))
				}
				inl = append(inl, cell...)
			}
			if p := paragraph(trimEdges(normalizeInlines(inl))...); len(p.Nodes) > 0 {
				out = append(out, p)
			}
		}
		return fit(out, ctx)
	case BlockFile:
		r, _ := n.Ref()
		label, _ := n.Data["caption"].(string)
		if label == "" {
			label = r.MarkdownURL()
		}
		return []Node{paragraph(linkNode(r, label))}
	case BlockContentRef:
		r, _ := n.Ref()
		return []Node{paragraph(linkNode(r, r.MarkdownURL()))}
	case BlockEmbed:
		u, _ := n.Data["url"].(string)
		return []Node{paragraph(linkNode(ContentRef{Kind: RefURL, URL: u}, u))}
	case BlockExpandable:
		var out []Node
		if f, ok := n.FragmentByName(FragmentExpandableTitle); ok {
			out = append(out, f.Nodes...)
		}
		if f, ok := n.FragmentByName(FragmentExpandableBody); ok {
			out = append(out, f.Nodes...)
		}
		return fit(dropEmpty(out), ctx)
	case BlockTabs:
		var out []Node
		for _, tab := range n.Nodes {
			if title, _ := tab.Data["title"].(string); strings.TrimSpace(title) != "" {
				out = append(out, paragraph(NewText(title, Mark{Type: MarkBold})))
			}
			out = append(out, tab.Nodes...)
		}
		return fit(out, ctx)
	case BlockImage:
		return fit([]Node{{Object: ObjectBlock, Type: BlockImages, Data: map[string]any{}, Nodes: []Node{n}}}, ctx)
	case BlockListItem:
		return fit([]Node{{Object: ObjectBlock, Type: BlockListUnordered, Data: map[string]any{}, Nodes: []Node{n}}}, ctx)
	case BlockCodeLine:
		if p := paragraph(n.Nodes...); len(p.Nodes) > 0 {
			return []Node{p}
		}
		return nil
	case BlockDrawing, BlockSwagger, BlockOpenAPIOperation, BlockOpenAPISchemas, BlockOpenAPIWebhook,
		BlockIntegration, BlockReusableContent:
		return nil
	}
	// Containers (hint, blockquote, stepper, columns, if, ...): keep the
	// content.
	return fit(append([]Node(nil), n.Nodes...), ctx)
}

func blockInlinesAll(nodes []Node) []Node {
	var out []Node
	for i := range nodes {
		if i > 0 {
			out = append(out, NewText(" "))
		}
		out = append(out, blockInlines(&nodes[i])...)
	}
	return out
}

func dropEmpty(nodes []Node) []Node {
	var out []Node
	for _, n := range nodes {
		if n.Type == BlockParagraph && len(n.Nodes) == 0 {
			continue
		}
		out = append(out, n)
	}
	return out
}

// inlineFormulaOK reports whether $$formula$$ reads back as the same formula.
func inlineFormulaOK(f string) bool {
	return strings.TrimSpace(f) != "" && !strings.Contains(f, "$$") && !strings.HasSuffix(f, "$")
}
