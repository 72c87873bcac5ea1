package document

import (
	"strings"
	"unicode"
)

// maxAnchor is the longest anchor HeadingAnchor makes, in characters (as
// long as a page slug).
const maxAnchor = 100

// IsHeading reports whether n is a heading block.
func IsHeading(n *Node) bool {
	switch n.Type {
	case BlockHeading1, BlockHeading2, BlockHeading3:
		return n.Object == ObjectBlock
	}
	return false
}

// HeadingAnchor is the anchor a heading is linked to (page#anchor): its
// data.id when set, else the slug of its text. Links and search both name
// sections this way, so that an anchor found by one is valid in the other.
func HeadingAnchor(n *Node) string {
	if id, _ := n.Data["id"].(string); id != "" {
		return id
	}
	return Slug(LeafText(n.Nodes), maxAnchor)
}

// LeafText is the text of the leaves below nodes, in order, without the
// text that inlines such as emoji or math stand for.
func LeafText(nodes []Node) string {
	var b strings.Builder
	var walk func(nodes []Node)
	walk = func(nodes []Node) {
		for i := range nodes {
			n := &nodes[i]
			for _, l := range n.Leaves {
				b.WriteString(l.Text)
			}
			walk(n.Nodes)
		}
	}
	walk(nodes)
	return b.String()
}

// Slug turns a title into a URL segment of at most max characters: lower
// case letters and digits separated by single hyphens.
func Slug(s string, max int) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		case unicode.IsSpace(r) || r == '-' || r == '_' || r == '.' || r == '/':
			dash = true
		}
	}
	out := b.String()
	if r := []rune(out); len(r) > max {
		out = strings.TrimRight(string(r[:max]), "-")
	}
	return out
}

// BlocksText is the plain text of blocks, as Document.Text writes it.
func BlocksText(nodes []Node) string {
	var b strings.Builder
	for i := range nodes {
		writeBlockText(&b, &nodes[i])
	}
	return strings.TrimRight(b.String(), "\n")
}

// InlineText is the plain text of inlines (a heading's title, say), as
// Document.Text writes it.
func InlineText(nodes []Node) string { return inlineText(nodes) }
