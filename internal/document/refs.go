package document

// RefKeys are the data keys of a node that hold content references: the
// reference itself, and the dark-mode variant of images.
var RefKeys = []string{"ref", "refDark"}

// MapRefs returns a copy of d in which every content reference (data.ref
// and data.refDark of every node, fragments included) is replaced by what
// fn returns for it; fn returns false to keep a reference as it is. d is
// not changed: the nodes along the way to a replaced reference are copied,
// the rest are shared with d. The work is linear in the size of d.
func MapRefs(d *Document, fn func(ContentRef) (ContentRef, bool)) *Document {
	if d == nil {
		return nil
	}
	nodes, changed := mapRefNodes(d.Nodes, fn)
	if !changed {
		return d
	}
	out := *d
	out.Nodes = nodes
	return &out
}

func mapRefNodes(nodes []Node, fn func(ContentRef) (ContentRef, bool)) ([]Node, bool) {
	var out []Node
	for i := range nodes {
		n, changed := mapRefNode(&nodes[i], fn)
		if !changed {
			continue
		}
		if out == nil {
			out = make([]Node, len(nodes))
			copy(out, nodes)
		}
		out[i] = n
	}
	if out == nil {
		return nodes, false
	}
	return out, true
}

func mapRefNode(n *Node, fn func(ContentRef) (ContentRef, bool)) (Node, bool) {
	var data map[string]any
	for _, key := range RefKeys {
		if n.Data == nil || n.Data[key] == nil {
			continue
		}
		r, ok := refFromAny(n.Data[key])
		if !ok {
			continue
		}
		nr, ok := fn(r)
		if !ok {
			continue
		}
		if data == nil {
			data = make(map[string]any, len(n.Data))
			for k, v := range n.Data {
				data[k] = v
			}
		}
		data[key] = nr.Map()
	}
	kids, kidsChanged := mapRefNodes(n.Nodes, fn)
	frags, fragsChanged := mapRefNodes(n.Fragments, fn)
	if data == nil && !kidsChanged && !fragsChanged {
		return *n, false
	}
	c := *n
	if data != nil {
		c.Data = data
	}
	c.Nodes, c.Fragments = kids, frags
	return c, true
}

// EachRef calls fn with every content reference of d (data.ref and
// data.refDark of every node, fragments included), in document order.
func EachRef(d *Document, fn func(ContentRef)) {
	if d == nil {
		return
	}
	var walk func(nodes []Node)
	walk = func(nodes []Node) {
		for i := range nodes {
			n := &nodes[i]
			for _, key := range RefKeys {
				if n.Data == nil || n.Data[key] == nil {
					continue
				}
				if r, ok := refFromAny(n.Data[key]); ok {
					fn(r)
				}
			}
			walk(n.Nodes)
			walk(n.Fragments)
		}
	}
	walk(d.Nodes)
}
