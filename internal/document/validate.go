package document

import "quire/internal/apierr"

// The rules of the type table (spec.go) applied to a tree: where each type
// may appear, its data, its children and fragments. Errors name the JSON
// path of the value at fault.

func validateBlocks(nodes []Node, path *jsonPath, allowed set) error {
	for i := range nodes {
		n := &nodes[i]
		p := path.index(i)
		if n.Object != ObjectBlock {
			ps := p.String()
			return apierr.Invalid(ps+".object", "%s.object must be %q", ps, ObjectBlock)
		}
		spec, ok := blockSpecs[n.Type]
		if !ok {
			ps := p.String()
			return apierr.Invalid(ps+".type", "%s.type: unknown block type %q", ps, n.Type)
		}
		if !allowed[n.Type] {
			ps := p.String()
			return apierr.Invalid(ps+".type", "%s.type: block %q is not allowed here", ps, n.Type)
		}
		if err := validateElement(n, p, spec); err != nil {
			return err
		}
	}
	return nil
}

func validateInlines(nodes []Node, path *jsonPath, allowed set) error {
	for i := range nodes {
		n := &nodes[i]
		switch n.Object {
		case ObjectText:
			if err := validateText(n, path.index(i)); err != nil {
				return err
			}
		case ObjectInline:
			spec, ok := inlineSpecs[n.Type]
			if !ok {
				ps := path.index(i).String()
				return apierr.Invalid(ps+".type", "%s.type: unknown inline type %q", ps, n.Type)
			}
			if !allowed[n.Type] {
				ps := path.index(i).String()
				return apierr.Invalid(ps+".type", "%s.type: inline %q is not allowed here", ps, n.Type)
			}
			if err := validateElement(n, path.index(i), spec); err != nil {
				return err
			}
		default:
			ps := path.index(i).String()
			return apierr.Invalid(ps+".object", "%s.object must be text or inline", ps)
		}
	}
	return nil
}

func validateText(n *Node, path *jsonPath) error {
	for i, l := range n.Leaves {
		for j, m := range l.Marks {
			if markTypes[m.Type] && m.Type != MarkColor {
				continue
			}
			p := path.field("leaves").index(i).field("marks").index(j)
			if !markTypes[m.Type] {
				ps := p.String()
				return apierr.Invalid(ps+".type", "%s.type: unknown mark type %q", ps, m.Type)
			}
			c := &dataCheck{d: m.Data, path: p.field("data")}
			c.enum("text", true, textColors...)
			c.enum("background", true, textColors...)
			if c.err != nil {
				return c.err
			}
		}
	}
	return nil
}

func validateElement(n *Node, path *jsonPath, spec blockSpec) error {
	if n.IsVoid != spec.void {
		ps := path.String()
		return apierr.Invalid(ps+".isVoid", "%s.isVoid must be %t", ps, spec.void)
	}
	if spec.data != nil {
		c := &dataCheck{d: n.Data, path: path.field("data")}
		spec.data(c)
		if c.err != nil {
			return c.err
		}
	}
	switch spec.children {
	case childBlocks:
		if err := validateBlocks(n.Nodes, path.field("nodes"), spec.allowed); err != nil {
			return err
		}
	case childInlines, childText:
		if err := validateInlines(n.Nodes, path.field("nodes"), spec.allowed); err != nil {
			return err
		}
	case childNone:
		if len(n.Nodes) > 0 {
			ps := path.String()
			return apierr.Invalid(ps+".nodes", "%s: a void %s has no nodes", ps, n.Object)
		}
	}
	if spec.fragments == nil {
		if len(n.Fragments) > 0 {
			ps := path.String()
			return apierr.Invalid(ps+".fragments", "%s: %q has no fragments", ps, n.Type)
		}
		return nil
	}
	frags := path.field("fragments")
	for i := range n.Fragments {
		f := &n.Fragments[i]
		if f.Object != ObjectFragment {
			ps := frags.index(i).String()
			return apierr.Invalid(ps+".object", "%s.object must be %q", ps, ObjectFragment)
		}
		if err := spec.fragments(f, frags.index(i)); err != nil {
			return err
		}
	}
	return nil
}

func captionFragment(f *Node, path *jsonPath) error {
	if f.Fragment != FragmentCaption {
		ps := path.String()
		return apierr.Invalid(ps+".fragment", "%s.fragment must be %q", ps, FragmentCaption)
	}
	return validateBlocks(f.Nodes, path.field("nodes"), ctxCaption)
}

func expandableFragment(f *Node, path *jsonPath) error {
	switch f.Fragment {
	case FragmentExpandableTitle:
		if len(f.Nodes) != 1 {
			ps := path.String()
			return apierr.Invalid(ps+".nodes", "%s.nodes must hold exactly one paragraph", ps)
		}
		if err := validateBlocks(f.Nodes, path.field("nodes"), ctxCaption); err != nil {
			return err
		}
	case FragmentExpandableBody:
		if len(f.Nodes) == 0 {
			ps := path.String()
			return apierr.Invalid(ps+".nodes", "%s.nodes must not be empty", ps)
		}
		if err := validateBlocks(f.Nodes, path.field("nodes"), ctxExpandableBody); err != nil {
			return err
		}
	default:
		ps := path.String()
		return apierr.Invalid(ps+".fragment", "%s.fragment must be %q or %q", ps, FragmentExpandableTitle, FragmentExpandableBody)
	}
	if f.Type != "" && f.Type != f.Fragment {
		ps := path.String()
		return apierr.Invalid(ps+".type", "%s.type must be %q", ps, f.Fragment)
	}
	return nil
}

func anyFragment(f *Node, path *jsonPath) error {
	return validateBlocks(f.Nodes, path.field("nodes"), ctxAnyBlock)
}

func annotationFragment(f *Node, path *jsonPath) error {
	if f.Type != "annotation-body" {
		ps := path.String()
		return apierr.Invalid(ps+".type", "%s.type must be %q", ps, "annotation-body")
	}
	if len(f.Nodes) == 0 {
		ps := path.String()
		return apierr.Invalid(ps+".nodes", "%s.nodes must not be empty", ps)
	}
	return validateBlocks(f.Nodes, path.field("nodes"), ctxAnnotationBody)
}
