package document

import (
	"strconv"
	"strings"
)

// Conversion of the blocks CommonMark lacks (see markdown.go): liquid tags
// and <details>.

func (c *converter) liquid(l *liquidBlock) []Node {
	switch l.name {
	case "hint":
		style := l.attrs["style"]
		switch style {
		case HintInfo, HintWarning, HintDanger, HintSuccess:
		default:
			style = HintInfo
		}
		return []Node{{Object: ObjectBlock, Type: BlockHint, Data: map[string]any{"style": style},
			Nodes: c.blocks(l, ctxHint)}}
	case "tabs":
		return []Node{c.itemsContainer(l, BlockTabs, "tab", BlockTabsItem, ctxTab, "title")}
	case "stepper":
		return []Node{c.itemsContainer(l, BlockStepper, "step", BlockStepperStep, ctxTab, "")}
	case "columns":
		return []Node{c.itemsContainer(l, BlockColumns, "column", BlockColumn, ctxColumn, "")}
	case "tab", "step", "column":
		// Outside its container: keep the content.
		return c.blocks(l, ctxAnyBlock)
	case "code":
		inner := c.blocks(l, ctxAnyBlock)
		for i := range inner {
			if inner[i].Type != BlockCode {
				continue
			}
			if t := l.attrs["title"]; t != "" {
				inner[i].Data["title"] = t
			}
			if o := l.attrs["overflow"]; o == "wrap" || o == "scroll" {
				inner[i].Data["overflow"] = o
			}
			for _, k := range []string{"lineNumbers", "fullWidth", "expandable"} {
				if b, err := strconv.ParseBool(l.attrs[k]); err == nil {
					inner[i].Data[k] = b
				}
			}
			break
		}
		return inner
	case "file":
		src := l.attrs["src"]
		caption := strings.Join(strings.Fields(strings.Join(l.body, " ")), " ")
		ref := c.refFromURL(src)
		if ref.Kind != RefFile {
			label := caption
			if label == "" {
				label = src
			}
			return []Node{{Object: ObjectBlock, Type: BlockParagraph, Nodes: []Node{linkNode(ref, label)}}}
		}
		data := map[string]any{"ref": ref.Map()}
		if caption != "" {
			data["caption"] = caption
		}
		return []Node{{Object: ObjectBlock, Type: BlockFile, Data: data}}
	case "content-ref":
		u := l.attrs["url"]
		if u == "" {
			return nil
		}
		return []Node{{Object: ObjectBlock, Type: BlockContentRef, Data: map[string]any{"ref": c.refFromURL(u).Map()}}}
	case "embed":
		u := l.attrs["url"]
		if u == "" {
			return nil
		}
		return []Node{{Object: ObjectBlock, Type: BlockEmbed, Data: map[string]any{"url": u}}}
	}
	return nil
}

// itemsContainer converts tabs, stepper and columns: a container whose
// children are item tags. Stray content goes into the preceding item.
func (c *converter) itemsContainer(l *liquidBlock, typ, itemTag, itemType string, itemCtx set, titleAttr string) Node {
	out := Node{Object: ObjectBlock, Type: typ, Data: map[string]any{}}
	for ch := l.FirstChild(); ch != nil; ch = ch.NextSibling() {
		if lb, ok := ch.(*liquidBlock); ok && lb.name == itemTag {
			data := map[string]any{}
			if titleAttr != "" {
				data[titleAttr] = lb.attrs[titleAttr]
			}
			out.Nodes = append(out.Nodes, Node{Object: ObjectBlock, Type: itemType, Data: data,
				Nodes: c.blocks(lb, itemCtx)})
			continue
		}
		stray := fit(c.block(ch), itemCtx)
		if len(stray) == 0 {
			continue
		}
		if len(out.Nodes) == 0 {
			data := map[string]any{}
			if titleAttr != "" {
				data[titleAttr] = ""
			}
			out.Nodes = append(out.Nodes, Node{Object: ObjectBlock, Type: itemType, Data: data})
		}
		last := &out.Nodes[len(out.Nodes)-1]
		last.Nodes = append(last.Nodes, stray...)
	}
	return out
}

func (c *converter) details(d *detailsBlock) Node {
	title, g := titleInlines(d.title, c.resolve)
	if g.err != nil {
		// The title is parsed on its own: its line is that of the block.
		c.guard.exceed(g.err, d.offset)
	}
	body := c.blocks(d, ctxExpandableBody)
	return expandable(title, body)
}

func expandable(title []Node, body []Node) Node {
	if len(body) == 0 {
		body = []Node{{Object: ObjectBlock, Type: BlockParagraph}}
	}
	return Node{Object: ObjectBlock, Type: BlockExpandable, Fragments: []Node{
		{Object: ObjectFragment, Fragment: FragmentExpandableTitle, Type: FragmentExpandableTitle,
			Nodes: []Node{{Object: ObjectBlock, Type: BlockParagraph, Nodes: title}}},
		{Object: ObjectFragment, Fragment: FragmentExpandableBody, Type: FragmentExpandableBody, Nodes: body},
	}}
}

// titleInlines parses a one-line Markdown title into inline content.
func titleInlines(s string, resolve func(string) (ContentRef, bool)) ([]Node, *mdGuard) {
	blocks, g := convert(s, ctxAnyBlock, resolve)
	if len(blocks) == 0 {
		return nil, g
	}
	var out []Node
	for i := range blocks {
		if i > 0 {
			out = append(out, NewText(" "))
		}
		out = append(out, blockInlines(&blocks[i])...)
	}
	return trimEdges(normalizeInlines(out)), g
}
