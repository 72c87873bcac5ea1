package types

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"quire/internal/document"
	"quire/internal/nonempty"
)

// The GraphQL schema types page documents: a document's nodes are blocks,
// inlines, text runs and fragments, each its own GraphQL type behind the
// DocumentNode union. The wrappers below tell them apart for the GraphQL
// executor; they hold the node of the document model unchanged.

// DocNode is a node of a document in GraphQL: DocBlock, DocInline, DocText
// or DocFragment.
type DocNode interface{ isDocNode() }

// DocBlock is a block node.
type DocBlock struct{ N *document.Node }

// DocInline is an inline node.
type DocInline struct{ N *document.Node }

// DocText is a text node.
type DocText struct{ N *document.Node }

// DocFragment is a named fragment of a void block or an annotation.
type DocFragment struct{ N *document.Node }

func (DocBlock) isDocNode()    {}
func (DocInline) isDocNode()   {}
func (DocText) isDocNode()     {}
func (DocFragment) isDocNode() {}

// WrapDocNodes wraps document nodes for GraphQL.
func WrapDocNodes(nodes []document.Node) []DocNode {
	out := make([]DocNode, 0, len(nodes))
	for i := range nodes {
		n := &nodes[i]
		switch n.Object {
		case document.ObjectBlock:
			out = append(out, wrapBlock(n))
		case document.ObjectInline:
			out = append(out, DocInline{n})
		case document.ObjectText:
			out = append(out, DocText{n})
		case document.ObjectFragment:
			out = append(out, DocFragment{n})
		}
	}
	return out
}

func wrapFragments(nodes []document.Node) []DocFragment {
	out := make([]DocFragment, 0, len(nodes))
	for i := range nodes {
		out = append(out, DocFragment{&nodes[i]})
	}
	return out
}

func data(m map[string]any) JSON {
	if m == nil {
		return JSON("{}")
	}
	return toJSON(m)
}

func toJSON(v any) JSON {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return JSON(b)
}

// Type is the block type.
func (b DocBlock) Type() DocType { return DocType(b.N.Type) }

// Key is the client-chosen key, if any.
func (b DocBlock) Key() *string { return nonempty.String(b.N.Key) }

// Data holds the block's attributes.
func (b DocBlock) Data() JSON { return data(b.N.Data) }

// IsVoid reports a block without editable children.
func (b DocBlock) IsVoid() bool { return b.N.IsVoid }

// Nodes are the block's children.
func (b DocBlock) Nodes() []DocNode { return WrapDocNodes(b.N.Nodes) }

// Fragments are the named sub-trees of a void block.
func (b DocBlock) Fragments() []DocFragment { return wrapFragments(b.N.Fragments) }

// Ref is the content reference the block points at (file, image, content-ref...).
func (b DocBlock) Ref() JSON { return refOf(b.N) }

// Type is the inline type.
func (i DocInline) Type() DocType { return DocType(i.N.Type) }

// Key is the client-chosen key, if any.
func (i DocInline) Key() *string { return nonempty.String(i.N.Key) }

// Data holds the inline's attributes.
func (i DocInline) Data() JSON { return data(i.N.Data) }

// IsVoid reports an inline without editable children.
func (i DocInline) IsVoid() bool { return i.N.IsVoid }

// Nodes are the inline's children.
func (i DocInline) Nodes() []DocNode { return WrapDocNodes(i.N.Nodes) }

// Fragments are the named sub-trees of an annotation.
func (i DocInline) Fragments() []DocFragment { return wrapFragments(i.N.Fragments) }

// Ref is the content reference of a link, mention or button.
func (i DocInline) Ref() JSON { return refOf(i.N) }

// Leaves are the runs of the text node.
func (t DocText) Leaves() []DocLeaf {
	out := make([]DocLeaf, 0, len(t.N.Leaves))
	for _, l := range t.N.Leaves {
		out = append(out, DocLeaf{l})
	}
	return out
}

// Text is the plain text of the node, written once rather than grown leaf
// by leaf (which costs time quadratic in the number of leaves).
func (t DocText) Text() string {
	var b strings.Builder
	for _, l := range t.N.Leaves {
		b.WriteString(l.Text)
	}
	return b.String()
}

// Fragment is the fragment's name.
func (f DocFragment) Fragment() string { return f.N.Fragment }

// Type is the fragment's optional type.
func (f DocFragment) Type() *string { return nonempty.String(f.N.Type) }

// Nodes are the fragment's content.
func (f DocFragment) Nodes() []DocNode { return WrapDocNodes(f.N.Nodes) }

// DocLeaf is a run of text with its marks.
type DocLeaf struct{ L document.Leaf }

// Text is the leaf's text.
func (l DocLeaf) Text() string { return l.L.Text }

// Marks are the leaf's formatting marks.
func (l DocLeaf) Marks() []DocMark {
	out := make([]DocMark, 0, len(l.L.Marks))
	for _, m := range l.L.Marks {
		out = append(out, DocMark{m})
	}
	return out
}

// DocMark is a formatting mark.
type DocMark struct{ M document.Mark }

// Type is the mark's type.
func (m DocMark) Type() DocType { return DocType(m.M.Type) }

// Data holds the mark's attributes (the color mark only).
func (m DocMark) Data() JSON {
	if m.M.Data == nil {
		return nil
	}
	return toJSON(m.M.Data)
}

func refOf(n *document.Node) JSON {
	if n.Data == nil {
		return nil
	}
	if r, ok := n.Data["ref"].(map[string]any); ok {
		return toJSON(r)
	}
	return nil
}

// DocType is the type of a block, inline or mark: the document's spelling
// ("heading-1") served as a GraphQL enum name (heading_1).
type DocType string

// MarshalGQL implements graphql.Marshaler.
func (t DocType) MarshalGQL(w io.Writer) { marshalEnum(w, string(t)) }

// UnmarshalGQL implements graphql.Unmarshaler.
func (t *DocType) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("document node type must be an enum value")
	}
	*t = DocType(restValue(s))
	return nil
}

// Doc is a document in GraphQL.
type Doc struct{ D *document.Document }

// Data holds document-level attributes (schemaVersion, ...).
func (d Doc) Data() JSON { return data(d.D.Data) }

// Nodes are the top-level blocks.
func (d Doc) Nodes() []DocNode { return WrapDocNodes(d.D.Nodes) }
