package document

import (
	"strconv"

	"quire/internal/apierr"
	"quire/internal/jsonguard"
)

// Limits on the size and shape of a document. Every step of the package
// (parsing, validation, Markdown both ways, JSON both ways, plain text)
// takes time linear in its input; the limits keep that input, and what a
// small input may expand into, to what real pages need. Parse, Validate and
// FromMarkdown refuse anything beyond them with a BadRequest error that
// names the limit, before doing the work that depends on it.
const (
	// MaxDepth is the deepest nesting of nodes: a top-level block is at
	// depth 1, its children (blocks, inlines, text runs, fragments) at
	// depth 2, and so on. Real pages nest up to about 8 levels; a Markdown
	// list nested 15 deep, a paragraph in each item, reaches 32.
	MaxDepth = 32

	// MaxJSONDepth is the deepest nesting of arrays and objects in the
	// JSON of a document, checked before it is decoded. Each level of nodes
	// takes two (a node's object and its nodes array), so MaxDepth levels
	// of nodes leave data values 30 levels of their own.
	MaxJSONDepth = 2*MaxDepth + 32

	// MaxNodes is the number of nodes (blocks, inlines, text runs and
	// fragments) a document may hold. A megabyte of ordinary Markdown makes
	// about 75,000.
	MaxNodes = 100_000

	// MaxTableColumns, MaxTableRows and MaxTableCells bound a table block:
	// its columns (definitions or view columns, whichever are more), its
	// rows (records), and the grid of columns times rows that rendering a
	// table walks, empty cells included. A full grid of cells with text
	// (three nodes each) fits within MaxNodes.
	MaxTableColumns = 100
	MaxTableRows    = 10_000
	MaxTableCells   = 20_000

	// MaxMarkdownSize is the largest Markdown input, in bytes, that
	// FromMarkdown converts; it matches the request body limit.
	MaxMarkdownSize = 1 << 20

	// MaxInlineDelimiters is the number of emphasis, strikethrough, code
	// and link delimiters ('*', '_', '~', '`', '[', ']' and "![") that one
	// paragraph, heading or table cell of Markdown may hold. The Markdown
	// parser matches delimiters in time quadratic in their number within a
	// paragraph; the limit is far above what prose needs and keeps the
	// worst paragraph to a few milliseconds.
	MaxInlineDelimiters = 1_000
)

// limitError is a limit that a document or a Markdown input exceeds. at is
// the node or member of the document at fault (nil for Markdown input).
type limitError struct {
	at  *jsonPath
	msg string
}

// apiError reports the violation on the document path, or on field when
// the document came from another input (Markdown) whose paths would mean
// nothing to the caller.
func (e *limitError) apiError(field string) error {
	if field != "" || e.at == nil {
		if field == "" {
			field = rootField
		}
		return apierr.Invalid(field, "%s: %s", field, e.msg)
	}
	p := e.at.String()
	return apierr.Invalid(p, "%s: %s", p, e.msg)
}

func tooDeep(at *jsonPath) *limitError {
	return &limitError{at: at, msg: "nesting deeper than " + strconv.Itoa(MaxDepth) + " levels (the limit)"}
}

// jsonDepthError reports JSON nested deeper than MaxJSONDepth; it reads
// raw once, without decoding it.
func jsonDepthError(raw []byte) *limitError {
	if jsonguard.TooDeep(raw, MaxJSONDepth) {
		return &limitError{msg: "JSON nested deeper than " + strconv.Itoa(MaxJSONDepth) +
			" levels (the limit; nodes nest at most " + strconv.Itoa(MaxDepth) + " levels)"}
	}
	return nil
}

func tooManyNodes() *limitError {
	return &limitError{msg: "more than " + grouped(MaxNodes) + " nodes (the limit)"}
}

// grouped writes n with thousands separators, as the limits are written in
// the documentation.
func grouped(n int) string {
	if n < 0 {
		return "-" + grouped(-n)
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// limitWalk checks the depth, the node count and the tables of a tree, in
// one pass that does no other work.
type limitWalk struct {
	count int
}

func checkLimits(nodes []Node, at *jsonPath) *limitError {
	w := &limitWalk{}
	return w.nodes(nodes, at.field("nodes"), 1)
}

func (w *limitWalk) nodes(nodes []Node, at *jsonPath, depth int) *limitError {
	if len(nodes) == 0 {
		return nil
	}
	if depth > MaxDepth {
		return tooDeep(at.index(0))
	}
	w.count += len(nodes)
	if w.count > MaxNodes {
		return tooManyNodes()
	}
	for i := range nodes {
		n := &nodes[i]
		if len(n.Nodes) == 0 && len(n.Fragments) == 0 && n.Type != BlockTable {
			continue
		}
		p := at.index(i)
		if n.Type == BlockTable && n.Object == ObjectBlock {
			if err := checkTableSize(n, p.field("data")); err != nil {
				return err
			}
		}
		if err := w.nodes(n.Nodes, p.field("nodes"), depth+1); err != nil {
			return err
		}
		if err := w.nodes(n.Fragments, p.field("fragments"), depth+1); err != nil {
			return err
		}
	}
	return nil
}

// tableSize is the number of columns and rows a table block lays out.
func tableSize(n *Node) (cols, rows int) {
	defs, _ := n.Data["definition"].(map[string]any)
	cols = len(defs)
	if view, ok := n.Data["view"].(map[string]any); ok {
		if c, ok := view["columns"].([]any); ok {
			cols = max(cols, len(c))
		}
	}
	records, _ := n.Data["records"].(map[string]any)
	return cols, len(records)
}

func checkTableSize(n *Node, at *jsonPath) *limitError {
	cols, rows := tableSize(n)
	return tableLimit(cols, rows, at)
}

// tableLimit reports a table of cols columns and rows rows beyond the
// limits.
func tableLimit(cols, rows int, at *jsonPath) *limitError {
	switch {
	case cols > MaxTableColumns:
		return &limitError{at: at, msg: "a table has at most " + grouped(MaxTableColumns) +
			" columns (the limit), this one " + grouped(cols)}
	case rows > MaxTableRows:
		return &limitError{at: at, msg: "a table has at most " + grouped(MaxTableRows) +
			" rows (the limit), this one " + grouped(rows)}
	case cols*rows > MaxTableCells:
		return &limitError{at: at, msg: "a table has at most " + grouped(MaxTableCells) +
			" cells (the limit), this one " + grouped(cols) + " columns by " + grouped(rows) + " rows"}
	}
	return nil
}
