package render

import (
	"sort"
	"strconv"
	"strings"

	"quire/internal/document"
)

// A table block keeps its columns in data.definition (ordered by
// data.view.columns) and its rows in data.records (ordered by orderIndex);
// a text cell names a fragment of the block holding its rich text. Every
// view (grid, cards) renders as a <table> with a header row: that reads on
// any screen and in any reader.

type column struct {
	id, title, typ, align string
	def                   map[string]any
}

func (r *renderer) table(n *document.Node, depth int) {
	defs, _ := n.Data["definition"].(map[string]any)
	view, _ := n.Data["view"].(map[string]any)
	cols := tableColumns(defs, view)
	if len(cols) == 0 {
		return
	}
	records, _ := n.Data["records"].(map[string]any)
	rows := tableRows(records)
	// Stored content may predate the table limits: what lies beyond them
	// is left out, keeping the grid walked within the limits.
	if len(cols) > document.MaxTableColumns {
		cols = cols[:document.MaxTableColumns]
	}
	if limit := min(document.MaxTableRows, document.MaxTableCells/len(cols)); len(rows) > limit {
		rows = rows[:limit]
	}
	frags := make(map[string]*document.Node, len(n.Fragments))
	for i := len(n.Fragments) - 1; i >= 0; i-- {
		frags[n.Fragments[i].Fragment] = &n.Fragments[i]
	}
	r.w("<div class=\"table-wrapper\"><table>\n<thead><tr>")
	for _, c := range cols {
		r.w(`<th scope="col"`)
		if c.align != "" {
			r.attr("class", c.align)
		}
		r.w(">")
		r.esc(c.title)
		r.w("</th>")
		r.addText(c.title + " ")
	}
	r.w("</tr></thead>\n<tbody>\n")
	for _, values := range rows {
		r.w("<tr>")
		for _, c := range cols {
			r.w("<td")
			if c.align != "" {
				r.attr("class", c.align)
			}
			r.w(">")
			r.cell(c, values[c.id], frags, depth)
			r.w("</td>")
		}
		r.w("</tr>\n")
	}
	r.w("</tbody>\n</table></div>\n")
	r.endText()
}

func tableColumns(defs, view map[string]any) []column {
	var ids []string
	seen := map[string]bool{}
	cols, _ := view["columns"].([]any)
	for _, c := range cols {
		if id, ok := c.(string); ok && !seen[id] {
			if _, ok := defs[id]; ok {
				ids = append(ids, id)
				seen[id] = true
			}
		}
	}
	if len(ids) == 0 {
		for id := range defs {
			ids = append(ids, id)
		}
		sort.Strings(ids)
	}
	out := make([]column, 0, len(ids))
	for _, id := range ids {
		d, _ := defs[id].(map[string]any)
		c := column{id: id, def: d}
		c.title, _ = d["title"].(string)
		c.typ, _ = d["type"].(string)
		switch a, _ := d["textAlignment"].(string); a {
		case "center", "right":
			c.align = "align-" + a
		}
		out = append(out, c)
	}
	return out
}

// tableRows returns the records' values in row order.
func tableRows(records map[string]any) []map[string]any {
	type rec struct {
		id, order string
		values    map[string]any
	}
	recs := make([]rec, 0, len(records))
	for id, v := range records {
		m, _ := v.(map[string]any)
		order, _ := m["orderIndex"].(string)
		values, _ := m["values"].(map[string]any)
		recs = append(recs, rec{id, order, values})
	}
	sort.Slice(recs, func(i, j int) bool {
		if recs[i].order != recs[j].order {
			return recs[i].order < recs[j].order
		}
		return recs[i].id < recs[j].id
	})
	out := make([]map[string]any, len(recs))
	for i, r := range recs {
		out[i] = r.values
	}
	return out
}

// cell renders one record value by its column's type.
func (r *renderer) cell(c column, v any, frags map[string]*document.Node, depth int) {
	switch x := v.(type) {
	case string:
		if c.typ == "text" || c.typ == "" {
			if f, ok := frags[x]; ok {
				r.inlineBlocks(f.Nodes, depth+1)
				r.addText(" ")
				return
			}
		}
		r.esc(x)
		r.addText(x + " ")
	case float64:
		s := strconv.FormatFloat(x, 'f', -1, 64)
		if c.typ == "rating" {
			if m, ok := c.def["max"].(float64); ok {
				s += " / " + strconv.FormatFloat(m, 'f', -1, 64)
			}
		}
		r.esc(s)
	case bool:
		r.w(`<input type="checkbox" disabled`)
		if x {
			r.w(" checked")
		}
		r.w(">")
	case []any:
		r.cellList(c, x)
	case map[string]any:
		r.cellObject(x)
	}
}

// cellList renders the values of a files, select or users cell.
func (r *renderer) cellList(c column, list []any) {
	var labels map[string]string
	if c.typ == "select" {
		labels = selectLabels(c.def)
	}
	first := true
	sep := func() {
		if !first {
			r.w(", ")
		}
		first = false
	}
	for _, item := range list {
		s, ok := item.(string)
		if !ok || s == "" {
			continue
		}
		switch c.typ {
		case "users":
			// User ids mean nothing to a reader; the column shows none.
		case "files":
			f, ok := r.file(s)
			if !ok {
				continue
			}
			sep()
			name := f.Name
			if name == "" {
				name = "File"
			}
			r.w("<a")
			r.attr("href", f.URL)
			r.w(">")
			r.esc(name)
			r.w("</a>")
		default:
			if l, ok := labels[s]; ok {
				s = l
			}
			sep()
			r.esc(s)
		}
	}
}

// selectLabels maps a select column's option values to their labels.
func selectLabels(def map[string]any) map[string]string {
	out := map[string]string{}
	opts, _ := def["options"].([]any)
	for _, o := range opts {
		m, _ := o.(map[string]any)
		value := firstString(m, "value", "id")
		label := firstString(m, "label", "name", "value")
		if value != "" && label != "" {
			out[value] = label
		}
	}
	return out
}

func firstString(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, _ := m[k].(string); s != "" {
			return s
		}
	}
	return ""
}

// cellObject renders a content-ref cell (a link) or an image cell.
func (r *renderer) cellObject(x map[string]any) {
	probe := document.Node{Data: map[string]any{"ref": x}}
	if ref, ok := probe.Ref(); ok {
		href, ok := r.resolve(ref)
		if !ok {
			return
		}
		title := href
		if t, ok := r.links.(Titles); ok {
			if s, ok := t.Title(ref); ok && s != "" {
				title = s
			}
		}
		if r.inLink > 0 {
			r.esc(title)
			return
		}
		r.w("<a")
		r.attr("href", href)
		r.w(">")
		r.esc(title)
		r.w("</a>")
		return
	}
	img := document.Node{Object: document.ObjectInline, Type: document.InlineImage, Data: map[string]any{"ref": x["ref"]}}
	if alt, ok := x["alt"].(string); ok {
		img.Data["alt"] = strings.TrimSpace(alt)
	}
	r.inlineImage(&img)
}
