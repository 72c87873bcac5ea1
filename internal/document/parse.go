package document

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"quire/internal/apierr"
)

// rootField is the name of the document in error field paths.
const rootField = "document"

var headingIDPattern = regexp.MustCompile(`^[-a-z0-9.+_]+$`)

// Parse decodes and validates a JSON document. It checks object kinds, block
// and inline types and where they may appear, each type's required data
// (including content references), leaves and marks. Errors are apierr
// BadRequest errors whose Field is the JSON path of the offending value,
// such as "document.nodes[2].data.style".
//
// Parse is lenient where the reference is silent or where a value is
// implied: a missing "data" object counts as empty, a missing "marks" array
// as no marks, "isVoid" may be omitted (when present it must match the
// type), unknown members are dropped and the children of void nodes are
// ignored.
func Parse(raw []byte) (*Document, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, apierr.Invalid(rootField, "document is not valid JSON: %v", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, apierr.Invalid(rootField, "document must be a JSON object")
	}
	if o, _ := m["object"].(string); o != ObjectDocument {
		return nil, apierr.Invalid(rootField+".object", "document.object must be %q", ObjectDocument)
	}
	doc := &Document{Data: map[string]any{}}
	if d, present := m["data"]; present {
		dm, ok := d.(map[string]any)
		if !ok {
			return nil, apierr.Invalid(rootField+".data", "document.data must be an object")
		}
		doc.Data = dm
	}
	nodes, err := decodeNodes(m, "nodes", rootField, true)
	if err != nil {
		return nil, err
	}
	doc.Nodes = nodes
	for i := range doc.Nodes {
		canonicalize(&doc.Nodes[i])
	}
	if err := doc.Validate(); err != nil {
		return nil, err
	}
	return doc, nil
}

// Validate checks a document built in code against the same rules as Parse.
func (d *Document) Validate() error {
	return validateBlocks(d.Nodes, rootField+".nodes", ctxTop)
}

// decodeNodes decodes the array m[key]; path is the path of m.
func decodeNodes(m map[string]any, key, path string, required bool) ([]Node, error) {
	p := path + "." + key
	raw, present := m[key]
	if !present {
		if required {
			return nil, apierr.Invalid(p, "%s is required", p)
		}
		return nil, nil
	}
	arr, ok := raw.([]any)
	if !ok {
		return nil, apierr.Invalid(p, "%s must be an array", p)
	}
	out := make([]Node, len(arr))
	for i, item := range arr {
		n, err := decodeNode(item, idx(p, i))
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

func optString(m map[string]any, key, path string) (string, error) {
	v, present := m[key]
	if !present {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", apierr.Invalid(path+"."+key, "%s.%s must be a string", path, key)
	}
	return s, nil
}

func optObject(m map[string]any, key, path string) (map[string]any, error) {
	v, present := m[key]
	if !present {
		return nil, nil
	}
	o, ok := v.(map[string]any)
	if !ok {
		return nil, apierr.Invalid(path+"."+key, "%s.%s must be an object", path, key)
	}
	return o, nil
}

// decodeNode turns one decoded JSON value into a Node, checking the shape of
// its members. Type rules are left to validate.
func decodeNode(v any, path string) (Node, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return Node{}, apierr.Invalid(path, "%s must be an object", path)
	}
	obj, _ := m["object"].(string)
	n := Node{Object: obj}
	var err error
	if n.Key, err = optString(m, "key", path); err != nil {
		return Node{}, err
	}
	switch obj {
	case ObjectText:
		raw, present := m["leaves"]
		if !present {
			return Node{}, apierr.Invalid(path+".leaves", "%s.leaves is required", path)
		}
		arr, ok := raw.([]any)
		if !ok {
			return Node{}, apierr.Invalid(path+".leaves", "%s.leaves must be an array", path)
		}
		n.Leaves = make([]Leaf, len(arr))
		for i, item := range arr {
			if n.Leaves[i], err = decodeLeaf(item, idx(path+".leaves", i)); err != nil {
				return Node{}, err
			}
		}
		return n, nil
	case ObjectFragment:
		if n.Fragment, err = optString(m, "fragment", path); err != nil {
			return Node{}, err
		}
		if n.Type, err = optString(m, "type", path); err != nil {
			return Node{}, err
		}
		if n.Nodes, err = decodeNodes(m, "nodes", path, true); err != nil {
			return Node{}, err
		}
		return n, nil
	case ObjectBlock, ObjectInline:
	default:
		return Node{}, apierr.Invalid(path+".object", "%s.object must be one of block, inline, text", path)
	}
	typ, ok := m["type"].(string)
	if !ok {
		return Node{}, apierr.Invalid(path+".type", "%s.type is required and must be a string", path)
	}
	n.Type = typ
	if !known(obj, typ) {
		return Node{}, apierr.Invalid(path+".type", "%s.type: unknown %s type %q", path, obj, typ)
	}
	if n.Data, err = optObject(m, "data", path); err != nil {
		return Node{}, err
	}
	if n.Meta, err = optObject(m, "meta", path); err != nil {
		return Node{}, err
	}
	if raw, present := m["isVoid"]; present {
		b, ok := raw.(bool)
		if !ok {
			return Node{}, apierr.Invalid(path+".isVoid", "%s.isVoid must be a boolean", path)
		}
		if b != isVoidType(obj, typ) {
			return Node{}, apierr.Invalid(path+".isVoid", "%s.isVoid must be %t for %s %q", path, !b, obj, typ)
		}
	}
	if !isVoidType(obj, typ) {
		if n.Nodes, err = decodeNodes(m, "nodes", path, true); err != nil {
			return Node{}, err
		}
	}
	if fragmentTypes[typ] {
		if n.Fragments, err = decodeNodes(m, "fragments", path, false); err != nil {
			return Node{}, err
		}
	}
	return n, nil
}

func known(obj, typ string) bool {
	if obj == ObjectInline {
		_, ok := inlineSpecs[typ]
		return ok
	}
	_, ok := blockSpecs[typ]
	return ok
}

func decodeLeaf(v any, path string) (Leaf, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return Leaf{}, apierr.Invalid(path, "%s must be an object", path)
	}
	if o, _ := m["object"].(string); o != ObjectLeaf {
		return Leaf{}, apierr.Invalid(path+".object", "%s.object must be %q", path, ObjectLeaf)
	}
	text, ok := m["text"].(string)
	if !ok {
		return Leaf{}, apierr.Invalid(path+".text", "%s.text is required and must be a string", path)
	}
	l := Leaf{Text: text, Marks: []Mark{}}
	raw, present := m["marks"]
	if !present {
		return l, nil
	}
	arr, ok := raw.([]any)
	if !ok {
		return Leaf{}, apierr.Invalid(path+".marks", "%s.marks must be an array", path)
	}
	for i, item := range arr {
		p := idx(path+".marks", i)
		mm, ok := item.(map[string]any)
		if !ok {
			return Leaf{}, apierr.Invalid(p, "%s must be an object", p)
		}
		if o, _ := mm["object"].(string); o != ObjectMark {
			return Leaf{}, apierr.Invalid(p+".object", "%s.object must be %q", p, ObjectMark)
		}
		typ, _ := mm["type"].(string)
		if !markTypes[typ] {
			return Leaf{}, apierr.Invalid(p+".type", "%s.type must be one of %s", p, strings.Join(sortedKeys(markTypes), ", "))
		}
		mk := Mark{Type: typ}
		if typ == MarkColor {
			data, err := optObject(mm, "data", p)
			if err != nil {
				return Leaf{}, err
			}
			c := &dataCheck{d: data, path: p + ".data"}
			if data == nil {
				c.d = map[string]any{}
			}
			c.enum("text", true, textColors...)
			c.enum("background", true, textColors...)
			if c.err != nil {
				return Leaf{}, c.err
			}
			mk.Data = data
		}
		l.Marks = append(l.Marks, mk)
	}
	return l, nil
}

// idx appends an array index to a JSON path.
func idx(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

func sortedKeys(s set) []string {
	out := make([]string, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func validateBlocks(nodes []Node, path string, allowed set) error {
	for i := range nodes {
		n := &nodes[i]
		p := idx(path, i)
		if n.Object != ObjectBlock {
			return apierr.Invalid(p+".object", "%s.object must be %q", p, ObjectBlock)
		}
		spec, ok := blockSpecs[n.Type]
		if !ok {
			return apierr.Invalid(p+".type", "%s.type: unknown block type %q", p, n.Type)
		}
		if !allowed[n.Type] {
			return apierr.Invalid(p+".type", "%s.type: block %q is not allowed here", p, n.Type)
		}
		if err := validateElement(n, p, spec); err != nil {
			return err
		}
	}
	return nil
}

func validateInlines(nodes []Node, path string, allowed set) error {
	for i := range nodes {
		n := &nodes[i]
		p := idx(path, i)
		switch n.Object {
		case ObjectText:
			if err := validateText(n, p); err != nil {
				return err
			}
		case ObjectInline:
			spec, ok := inlineSpecs[n.Type]
			if !ok {
				return apierr.Invalid(p+".type", "%s.type: unknown inline type %q", p, n.Type)
			}
			if !allowed[n.Type] {
				return apierr.Invalid(p+".type", "%s.type: inline %q is not allowed here", p, n.Type)
			}
			if err := validateElement(n, p, spec); err != nil {
				return err
			}
		default:
			return apierr.Invalid(p+".object", "%s.object must be text or inline", p)
		}
	}
	return nil
}

func validateText(n *Node, path string) error {
	for i, l := range n.Leaves {
		for j, m := range l.Marks {
			p := idx(idx(path+".leaves", i)+".marks", j)
			if !markTypes[m.Type] {
				return apierr.Invalid(p+".type", "%s.type: unknown mark type %q", p, m.Type)
			}
			if m.Type == MarkColor {
				c := &dataCheck{d: m.Data, path: p + ".data"}
				c.enum("text", true, textColors...)
				c.enum("background", true, textColors...)
				if c.err != nil {
					return c.err
				}
			}
		}
	}
	return nil
}

func validateElement(n *Node, path string, spec blockSpec) error {
	if n.IsVoid != spec.void {
		return apierr.Invalid(path+".isVoid", "%s.isVoid must be %t", path, spec.void)
	}
	if spec.data != nil {
		c := &dataCheck{d: n.Data, path: path + ".data"}
		spec.data(c)
		if c.err != nil {
			return c.err
		}
	}
	switch spec.children {
	case childBlocks:
		if err := validateBlocks(n.Nodes, path+".nodes", spec.allowed); err != nil {
			return err
		}
	case childInlines, childText:
		if err := validateInlines(n.Nodes, path+".nodes", spec.allowed); err != nil {
			return err
		}
	case childNone:
		if len(n.Nodes) > 0 {
			return apierr.Invalid(path+".nodes", "%s: a void %s has no nodes", path, n.Object)
		}
	}
	if spec.fragments == nil {
		if len(n.Fragments) > 0 {
			return apierr.Invalid(path+".fragments", "%s: %q has no fragments", path, n.Type)
		}
		return nil
	}
	for i := range n.Fragments {
		f := &n.Fragments[i]
		p := idx(path+".fragments", i)
		if f.Object != ObjectFragment {
			return apierr.Invalid(p+".object", "%s.object must be %q", p, ObjectFragment)
		}
		if err := spec.fragments(f, p); err != nil {
			return err
		}
	}
	return nil
}

func captionFragment(f *Node, path string) error {
	if f.Fragment != FragmentCaption {
		return apierr.Invalid(path+".fragment", "%s.fragment must be %q", path, FragmentCaption)
	}
	return validateBlocks(f.Nodes, path+".nodes", ctxCaption)
}

func expandableFragment(f *Node, path string) error {
	switch f.Fragment {
	case FragmentExpandableTitle:
		if len(f.Nodes) != 1 {
			return apierr.Invalid(path+".nodes", "%s.nodes must hold exactly one paragraph", path)
		}
		if err := validateBlocks(f.Nodes, path+".nodes", ctxCaption); err != nil {
			return err
		}
	case FragmentExpandableBody:
		if len(f.Nodes) == 0 {
			return apierr.Invalid(path+".nodes", "%s.nodes must not be empty", path)
		}
		if err := validateBlocks(f.Nodes, path+".nodes", ctxExpandableBody); err != nil {
			return err
		}
	default:
		return apierr.Invalid(path+".fragment", "%s.fragment must be %q or %q", path, FragmentExpandableTitle, FragmentExpandableBody)
	}
	if f.Type != "" && f.Type != f.Fragment {
		return apierr.Invalid(path+".type", "%s.type must be %q", path, f.Fragment)
	}
	return nil
}

func anyFragment(f *Node, path string) error {
	return validateBlocks(f.Nodes, path+".nodes", ctxAnyBlock)
}

func annotationFragment(f *Node, path string) error {
	if f.Type != "annotation-body" {
		return apierr.Invalid(path+".type", "%s.type must be %q", path, "annotation-body")
	}
	if len(f.Nodes) == 0 {
		return apierr.Invalid(path+".nodes", "%s.nodes must not be empty", path)
	}
	return validateBlocks(f.Nodes, path+".nodes", ctxAnnotationBody)
}
