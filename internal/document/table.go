package document

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// A table block stores columns as data.definition entries (ordered by
// data.view.columns) and rows as data.records (ordered by orderIndex). A text
// cell's value is the name of a fragment of the table block whose nodes hold
// the cell's rich text as a single paragraph; empty cells have no value.

type tableColumn struct {
	id, title, align string
}

type tableRow struct {
	cells [][]Node // inline content per column
}

type tableLayout struct {
	cols []tableColumn
	rows []tableRow
}

// buildTable makes a table block from a header and rows of inline content.
func buildTable(titles []string, aligns []string, rows [][][]Node) Node {
	defs := map[string]any{}
	columns := make([]any, len(titles))
	for i, t := range titles {
		id := fmt.Sprintf("c%d", i)
		columns[i] = id
		defs[id] = map[string]any{"id": id, "title": t, "type": "text", "textAlignment": aligns[i]}
	}
	width := len(strconv.Itoa(max(len(rows)-1, 0)))
	records := map[string]any{}
	frags := []Node{}
	for r, row := range rows {
		rid := fmt.Sprintf("r%d", r)
		values := map[string]any{}
		for c, cell := range row {
			if c >= len(titles) || len(cell) == 0 {
				continue
			}
			fid := fmt.Sprintf("%s-c%d", rid, c)
			values[fmt.Sprintf("c%d", c)] = fid
			frags = append(frags, Node{Object: ObjectFragment, Fragment: fid,
				Nodes: []Node{{Object: ObjectBlock, Type: BlockParagraph, Nodes: cell}}})
		}
		records[rid] = map[string]any{"orderIndex": fmt.Sprintf("%0*d", width, r), "values": values}
	}
	return Node{Object: ObjectBlock, Type: BlockTable, Fragments: frags, Data: map[string]any{
		"view":       map[string]any{"type": "grid", "columns": columns, "hideHeader": false},
		"definition": defs,
		"records":    records,
	}}
}

// layoutTable reads a table block back into columns and ordered rows.
func layoutTable(n *Node) tableLayout {
	var t tableLayout
	defs, _ := n.Data["definition"].(map[string]any)
	var ids []string
	if view, ok := n.Data["view"].(map[string]any); ok {
		cols, _ := view["columns"].([]any)
		for _, c := range cols {
			if id, ok := c.(string); ok {
				if _, ok := defs[id]; ok {
					ids = append(ids, id)
				}
			}
		}
	}
	if len(ids) == 0 {
		ids = sortedAnyKeys(defs)
	}
	types := map[string]string{}
	for _, id := range ids {
		d, _ := defs[id].(map[string]any)
		title, _ := d["title"].(string)
		align, _ := d["textAlignment"].(string)
		types[id], _ = d["type"].(string)
		t.cols = append(t.cols, tableColumn{id: id, title: title, align: align})
	}
	records, _ := n.Data["records"].(map[string]any)
	type rec struct {
		id, order string
		values    map[string]any
	}
	var recs []rec
	for id, v := range records {
		r, _ := v.(map[string]any)
		order, _ := r["orderIndex"].(string)
		values, _ := r["values"].(map[string]any)
		recs = append(recs, rec{id, order, values})
	}
	sort.Slice(recs, func(i, j int) bool {
		if recs[i].order != recs[j].order {
			return recs[i].order < recs[j].order
		}
		return recs[i].id < recs[j].id
	})
	// Content stored before the table limits existed may exceed them: what
	// lies beyond is left out, so that laying a table out costs no more
	// than the limits allow.
	if len(t.cols) > MaxTableColumns {
		t.cols, ids = t.cols[:MaxTableColumns], ids[:MaxTableColumns]
	}
	if rows := min(MaxTableRows, MaxTableCells/max(len(ids), 1)); len(recs) > rows {
		recs = recs[:rows]
	}
	// Cells name their fragments: look them up in a map rather than a scan
	// of the fragments per cell, which costs cells times fragments.
	frags := make(map[string]*Node, len(n.Fragments))
	for i := len(n.Fragments) - 1; i >= 0; i-- {
		frags[n.Fragments[i].Fragment] = &n.Fragments[i]
	}
	for _, r := range recs {
		row := tableRow{cells: make([][]Node, len(ids))}
		for c, id := range ids {
			row.cells[c] = cellContent(frags, types[id], r.values[id])
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// cellContent renders one record value as inline content; frags are the
// table's fragments by name.
func cellContent(frags map[string]*Node, typ string, v any) []Node {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		if typ == "text" || typ == "" {
			if f, ok := frags[x]; ok {
				var out []Node
				for i, b := range f.Nodes {
					if i > 0 {
						out = append(out, NewText("\n"))
					}
					out = append(out, blockInlines(&b)...)
				}
				return out
			}
		}
		if x == "" {
			return nil
		}
		return []Node{NewText(x)}
	case float64:
		return []Node{NewText(strconv.FormatFloat(x, 'f', -1, 64))}
	case bool:
		if x {
			return []Node{NewText("✓")}
		}
		return nil
	case []any:
		var parts []string
		for _, p := range x {
			if s, ok := p.(string); ok {
				parts = append(parts, s)
			}
		}
		if len(parts) == 0 {
			return nil
		}
		return []Node{NewText(strings.Join(parts, ", "))}
	case map[string]any:
		if r, ok := refFromAny(x); ok {
			return []Node{linkNode(r, r.MarkdownURL())}
		}
		if r, ok := refFromAny(x["ref"]); ok {
			data := map[string]any{"ref": r.Map()}
			if alt, ok := x["alt"].(string); ok && alt != "" {
				data["alt"] = alt
			}
			return []Node{{Object: ObjectInline, Type: InlineImage, Data: data, IsVoid: true}}
		}
	}
	return nil
}

func linkNode(r ContentRef, text string) Node {
	return Node{Object: ObjectInline, Type: InlineLink, Data: map[string]any{"ref": r.Map()},
		Nodes: []Node{NewText(text)}}
}

// blockInlines returns the inline content of a paragraph-like block, or the
// content of its descendants joined by line breaks.
func blockInlines(n *Node) []Node {
	switch n.Type {
	case BlockParagraph, BlockHeading1, BlockHeading2, BlockHeading3, BlockCodeLine:
		return n.Nodes
	}
	var out []Node
	for i := range n.Nodes {
		if len(out) > 0 {
			out = append(out, NewText("\n"))
		}
		out = append(out, blockInlines(&n.Nodes[i])...)
	}
	return out
}
