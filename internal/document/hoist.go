package document

// Markdown writes the markers of every container (">", list indentation,
// liquid tags) on each line inside it, so its size grows with the depth
// of the lines, and rendering re-reads each level's text once per level
// above it. Documents within MaxDepth stay within a small factor of their
// size; documents stored before the limits existed may nest thousands of
// levels deep, and are rendered with the containers below the limit
// replaced by what they hold.

// deeperThan reports whether nodes nest more than limit levels.
func deeperThan(nodes []Node, limit int) bool {
	if len(nodes) == 0 {
		return false
	}
	if limit < 1 {
		return true
	}
	for i := range nodes {
		if deeperThan(nodes[i].Nodes, limit-1) || deeperThan(nodes[i].Fragments, limit-1) {
			return true
		}
	}
	return false
}

// hoistDeep returns a copy of blocks at depth in which the containers from
// MaxDepth-2 on (leaving room for a paragraph and its text) are replaced
// by the blocks inside them.
func hoistDeep(blocks []Node, depth int) []Node {
	var out []Node
	hoistInto(&out, blocks, depth)
	return out
}

// hoistInto appends the blocks to out, hoisted as hoistDeep says: into one
// list however deep the containers go, since a list per level copied into
// the level above would cost the square of the depth.
func hoistInto(out *[]Node, blocks []Node, depth int) {
	for _, n := range blocks {
		if !holdsBlocks(&n) {
			*out = append(*out, n)
			continue
		}
		if depth >= MaxDepth-2 {
			hoistInto(out, n.Nodes, depth)
			for _, f := range n.Fragments {
				hoistInto(out, f.Nodes, depth)
			}
			continue
		}
		n.Nodes = hoistDeep(n.Nodes, depth+1)
		if len(n.Fragments) > 0 {
			frags := make([]Node, len(n.Fragments))
			for i, f := range n.Fragments {
				f.Nodes = hoistDeep(f.Nodes, depth+2)
				frags[i] = f
			}
			n.Fragments = frags
		}
		*out = append(*out, n)
	}
}

// holdsBlocks reports a container: a block whose children or fragments
// hold blocks. Code blocks hold lines, which stay with them.
func holdsBlocks(n *Node) bool {
	if n.Object != ObjectBlock || n.Type == BlockCode {
		return false
	}
	return len(n.Nodes) > 0 && n.Nodes[0].Object == ObjectBlock || len(n.Fragments) > 0
}
