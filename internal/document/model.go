// Package document is Quire's model of page content: a rich-text tree of
// blocks, inlines and marked text runs, serialised as the JSON document shape
// of the public API, plus conversion to and from Markdown.
//
// The tree has four kinds of node, all carried by the one Node struct:
//
//   - blocks (Object "block"): paragraphs, headings, lists, code, hints, ...
//   - inlines (Object "inline"): links, inline math, inline images, ...
//   - text (Object "text"): a run of Leaves, each a string plus its Marks
//   - fragments (Object "fragment"): named sub-trees owned by a void block,
//     such as the title and body of an expandable or the cells of a table
//
// Parse validates untrusted JSON into this model; FromMarkdown and ToMarkdown
// convert to and from Markdown (see markdown.go for the spellings used for
// constructs that CommonMark lacks).
package document

import "bytes"

// Object kinds.
const (
	ObjectDocument = "document"
	ObjectBlock    = "block"
	ObjectInline   = "inline"
	ObjectText     = "text"
	ObjectFragment = "fragment"
	ObjectLeaf     = "leaf"
	ObjectMark     = "mark"
)

// Block types.
const (
	BlockParagraph        = "paragraph"
	BlockHeading1         = "heading-1"
	BlockHeading2         = "heading-2"
	BlockHeading3         = "heading-3"
	BlockListOrdered      = "list-ordered"
	BlockListUnordered    = "list-unordered"
	BlockListTasks        = "list-tasks"
	BlockListItem         = "list-item"
	BlockDivider          = "divider"
	BlockQuote            = "blockquote"
	BlockHint             = "hint"
	BlockIf               = "if"
	BlockImages           = "images"
	BlockImage            = "image"
	BlockFile             = "file"
	BlockDrawing          = "drawing"
	BlockEmbed            = "embed"
	BlockCode             = "code"
	BlockCodeLine         = "code-line"
	BlockMath             = "math"
	BlockExpandable       = "expandable"
	BlockTabs             = "tabs"
	BlockTabsItem         = "tabs-item"
	BlockTable            = "table"
	BlockSwagger          = "swagger"
	BlockOpenAPIOperation = "openapi-operation"
	BlockOpenAPISchemas   = "openapi-schemas"
	BlockOpenAPIWebhook   = "openapi-webhook"
	BlockContentRef       = "content-ref"
	BlockIntegration      = "integration"
	BlockReusableContent  = "reusable-content"
	BlockStepper          = "stepper"
	BlockStepperStep      = "stepper-step"
	BlockColumns          = "columns"
	BlockColumn           = "column"
)

// Inline types.
const (
	InlineLink       = "link"
	InlineEmoji      = "emoji"
	InlineIcon       = "icon"
	InlineExpression = "expression"
	InlineMath       = "inline-math"
	InlineImage      = "inline-image"
	InlineAnnotation = "annotation"
	InlineMention    = "mention"
	InlineButton     = "button"
)

// Mark types.
const (
	MarkBold          = "bold"
	MarkItalic        = "italic"
	MarkCode          = "code"
	MarkKeyboard      = "keyboard"
	MarkStrikethrough = "strikethrough"
	MarkColor         = "color"
	MarkSuperscript   = "superscript"
	MarkSubscript     = "subscript"
)

// Hint styles.
const (
	HintInfo    = "info"
	HintWarning = "warning"
	HintDanger  = "danger"
	HintSuccess = "success"
)

// Fragment names used by the blocks this package builds.
const (
	FragmentExpandableTitle = "expandable-title"
	FragmentExpandableBody  = "expandable-body"
	FragmentCaption         = "caption"
)

// Document is a page's rich-text content.
type Document struct {
	// Data holds document-level attributes (for example schemaVersion).
	Data map[string]any `json:"data"`
	// Nodes are the top-level blocks.
	Nodes []Node `json:"nodes"`
}

// Node is one element of the tree: a block, an inline, a text run or a
// fragment, told apart by Object.
type Node struct {
	Object string `json:"object"`
	// Type is the block or inline type (paragraph, link, ...). For
	// fragments it is optional.
	Type string `json:"type,omitempty"`
	// Key is an optional client-chosen identifier, kept as given.
	Key string `json:"key,omitempty"`
	// Fragment names a fragment (Object "fragment" only).
	Fragment string `json:"fragment,omitempty"`
	// Data holds the type's attributes, as decoded JSON values
	// (map[string]any, []any, string, float64, bool).
	Data map[string]any `json:"data,omitempty"`
	// Nodes are the children of a non-void block or inline, or the content
	// of a fragment.
	Nodes []Node `json:"nodes,omitempty"`
	// Leaves are the runs of a text node.
	Leaves []Leaf `json:"leaves,omitempty"`
	// Fragments are the named sub-trees of a void block (expandable, image,
	// table) or an annotation.
	Fragments []Node `json:"fragments,omitempty"`
	// IsVoid reports a node without editable children; it always matches
	// the type.
	IsVoid bool `json:"isVoid,omitempty"`
	// Meta holds optional editor metadata, kept as given.
	Meta map[string]any `json:"meta,omitempty"`
}

// Leaf is a run of text sharing one set of marks.
type Leaf struct {
	Text  string `json:"text"`
	Marks []Mark `json:"marks"`
}

// Mark is a formatting attribute of a leaf.
type Mark struct {
	Type string `json:"type"`
	// Data is only used by the color mark ({"text": ..., "background": ...}).
	Data map[string]any `json:"data,omitempty"`
}

// NewText returns a text node with a single leaf.
func NewText(text string, marks ...Mark) Node {
	return Node{Object: ObjectText, Leaves: []Leaf{{Text: text, Marks: append([]Mark{}, marks...)}}}
}

// NewBlock returns a block of the given type. Data may be nil.
func NewBlock(typ string, data map[string]any, nodes ...Node) Node {
	n := Node{Object: ObjectBlock, Type: typ, Data: data, Nodes: nodes}
	canonicalize(&n)
	return n
}

// NewInline returns an inline of the given type. Data may be nil.
func NewInline(typ string, data map[string]any, nodes ...Node) Node {
	n := Node{Object: ObjectInline, Type: typ, Data: data, Nodes: nodes}
	canonicalize(&n)
	return n
}

// fragmentTypes are the block and inline types that own fragments; their
// "fragments" array is always present.
var fragmentTypes = map[string]bool{
	BlockExpandable: true, BlockImage: true, BlockTable: true, InlineAnnotation: true,
}

// UnmarshalJSON parses and validates a document; see Parse. A JSON null
// leaves d unchanged.
func (d *Document) UnmarshalJSON(raw []byte) error {
	if string(bytes.TrimSpace(raw)) == "null" {
		return nil
	}
	doc, err := Parse(raw)
	if err != nil {
		return err
	}
	*d = *doc
	return nil
}

// canonicalize brings a node tree into the one form Parse and FromMarkdown
// both produce: voidness from the type table, non-nil data, children and
// marks, and no children on void nodes.
func canonicalize(n *Node) {
	switch n.Object {
	case ObjectText:
		if n.Leaves == nil {
			n.Leaves = []Leaf{}
		}
		for i := range n.Leaves {
			if n.Leaves[i].Marks == nil {
				n.Leaves[i].Marks = []Mark{}
			}
		}
		return
	case ObjectFragment:
		if n.Nodes == nil {
			n.Nodes = []Node{}
		}
		for i := range n.Nodes {
			canonicalize(&n.Nodes[i])
		}
		return
	}
	if n.Data == nil {
		n.Data = map[string]any{}
	}
	n.IsVoid = isVoidType(n.Object, n.Type)
	if n.IsVoid {
		n.Nodes = nil
	} else if n.Nodes == nil {
		n.Nodes = []Node{}
	}
	if fragmentTypes[n.Type] && n.Fragments == nil {
		n.Fragments = []Node{}
	}
	for i := range n.Nodes {
		canonicalize(&n.Nodes[i])
	}
	for i := range n.Fragments {
		canonicalize(&n.Fragments[i])
	}
}

func isVoidType(object, typ string) bool {
	if object == ObjectInline {
		if s, ok := inlineSpecs[typ]; ok {
			return s.void
		}
		return false
	}
	if s, ok := blockSpecs[typ]; ok {
		return s.void
	}
	return false
}

// FragmentByName returns the fragment of n named name.
func (n *Node) FragmentByName(name string) (*Node, bool) {
	for i := range n.Fragments {
		if n.Fragments[i].Fragment == name {
			return &n.Fragments[i], true
		}
	}
	return nil, false
}

// Ref returns the content reference in n.Data["ref"], if any.
func (n *Node) Ref() (ContentRef, bool) {
	if n.Data == nil {
		return ContentRef{}, false
	}
	return refFromAny(n.Data["ref"])
}
