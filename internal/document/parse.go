package document

import (
	"encoding/json"
	"math"
	"regexp"
	"sort"
	"strings"

	"quire/internal/apierr"
)

// rootField is the name of the document in error field paths.
const rootField = "document"

var headingIDPattern = regexp.MustCompile(`^[-a-z0-9.+_]+$`)

// Parse decodes and validates a JSON document. It checks the limits (see
// MaxDepth), object kinds, block and inline types and where they may
// appear, each type's required data (including content references), leaves
// and marks. Errors are apierr
// BadRequest errors whose Field is the JSON path of the offending value,
// such as "document.nodes[2].data.style".
//
// Parse is lenient where the reference is silent or where a value is
// implied: a missing "data" object counts as empty, a missing "marks" array
// as no marks, "isVoid" may be omitted (when present it must match the
// type), unknown members are dropped and the children of void nodes are
// ignored.
func Parse(raw []byte) (*Document, error) {
	if err := jsonDepthError(raw); err != nil {
		return nil, err.apiError("")
	}
	doc, err := parse(raw, MaxDepth)
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(); err != nil {
		return nil, err
	}
	return doc, nil
}

// ParseStored decodes a document that Quire stored itself. It checks what
// Parse checks except the limits: content stored before they existed may
// exceed them and must stay readable. Work on such a document is still
// linear in its size: ToMarkdown writes containers below MaxDepth without
// their own markers, and tables are laid out within the table limits.
func ParseStored(raw []byte) (*Document, error) {
	doc, err := parse(raw, math.MaxInt)
	if err != nil {
		return nil, err
	}
	if err := validateBlocks(doc.Nodes, rootPath(rootField).field("nodes"), ctxTop); err != nil {
		return nil, err
	}
	return doc, nil
}

// parse decodes a document whose nodes nest at most depth levels.
func parse(raw []byte, depth int) (*Document, error) {
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
	nodes, err := decodeNodes(m, "nodes", rootPath(rootField), true, depth)
	if err != nil {
		return nil, err
	}
	doc.Nodes = nodes
	for i := range doc.Nodes {
		canonicalize(&doc.Nodes[i])
	}
	return doc, nil
}

// Validate checks a document built in code against the same rules as Parse,
// the limits first.
func (d *Document) Validate() error {
	root := rootPath(rootField)
	if err := checkLimits(d.Nodes, root); err != nil {
		return err.apiError("")
	}
	return validateBlocks(d.Nodes, root.field("nodes"), ctxTop)
}

// decodeNodes decodes the array m[key]; path is the path of m, and room the
// levels of nodes that may still nest, the array's included. Deeper nodes
// are refused here, before anything is decoded below them.
func decodeNodes(m map[string]any, key string, path *jsonPath, required bool, room int) ([]Node, error) {
	p := path.field(key)
	raw, present := m[key]
	if !present {
		if required {
			ps := p.String()
			return nil, apierr.Invalid(ps, "%s is required", ps)
		}
		return nil, nil
	}
	arr, ok := raw.([]any)
	if !ok {
		ps := p.String()
		return nil, apierr.Invalid(ps, "%s must be an array", ps)
	}
	if len(arr) > 0 && room < 1 {
		return nil, tooDeep(p.index(0)).apiError("")
	}
	out := make([]Node, len(arr))
	for i, item := range arr {
		n, err := decodeNode(item, p.index(i), room-1)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

func optString(m map[string]any, key string, path *jsonPath) (string, error) {
	v, present := m[key]
	if !present {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		ps := path.String()
		return "", apierr.Invalid(ps+"."+key, "%s.%s must be a string", ps, key)
	}
	return s, nil
}

func optObject(m map[string]any, key string, path *jsonPath) (map[string]any, error) {
	v, present := m[key]
	if !present {
		return nil, nil
	}
	o, ok := v.(map[string]any)
	if !ok {
		ps := path.String()
		return nil, apierr.Invalid(ps+"."+key, "%s.%s must be an object", ps, key)
	}
	return o, nil
}

// decodeNode turns one decoded JSON value into a Node, checking the shape of
// its members. Type rules are left to validate.
func decodeNode(v any, path *jsonPath, room int) (Node, error) {
	m, ok := v.(map[string]any)
	if !ok {
		ps := path.String()
		return Node{}, apierr.Invalid(ps, "%s must be an object", ps)
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
			ps := path.String()
			return Node{}, apierr.Invalid(ps+".leaves", "%s.leaves is required", ps)
		}
		arr, ok := raw.([]any)
		if !ok {
			ps := path.String()
			return Node{}, apierr.Invalid(ps+".leaves", "%s.leaves must be an array", ps)
		}
		leaves := path.field("leaves")
		n.Leaves = make([]Leaf, len(arr))
		for i, item := range arr {
			if n.Leaves[i], err = decodeLeaf(item, leaves.index(i)); err != nil {
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
		if n.Nodes, err = decodeNodes(m, "nodes", path, true, room); err != nil {
			return Node{}, err
		}
		return n, nil
	case ObjectBlock, ObjectInline:
	default:
		ps := path.String()
		return Node{}, apierr.Invalid(ps+".object", "%s.object must be one of block, inline, text", ps)
	}
	typ, ok := m["type"].(string)
	if !ok {
		ps := path.String()
		return Node{}, apierr.Invalid(ps+".type", "%s.type is required and must be a string", ps)
	}
	n.Type = typ
	if !known(obj, typ) {
		ps := path.String()
		return Node{}, apierr.Invalid(ps+".type", "%s.type: unknown %s type %q", ps, obj, typ)
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
			ps := path.String()
			return Node{}, apierr.Invalid(ps+".isVoid", "%s.isVoid must be a boolean", ps)
		}
		if b != isVoidType(obj, typ) {
			ps := path.String()
			return Node{}, apierr.Invalid(ps+".isVoid", "%s.isVoid must be %t for %s %q", ps, !b, obj, typ)
		}
	}
	if !isVoidType(obj, typ) {
		if n.Nodes, err = decodeNodes(m, "nodes", path, true, room); err != nil {
			return Node{}, err
		}
	}
	if fragmentTypes[typ] {
		if n.Fragments, err = decodeNodes(m, "fragments", path, false, room); err != nil {
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

func decodeLeaf(v any, path *jsonPath) (Leaf, error) {
	m, ok := v.(map[string]any)
	if !ok {
		ps := path.String()
		return Leaf{}, apierr.Invalid(ps, "%s must be an object", ps)
	}
	if o, _ := m["object"].(string); o != ObjectLeaf {
		ps := path.String()
		return Leaf{}, apierr.Invalid(ps+".object", "%s.object must be %q", ps, ObjectLeaf)
	}
	text, ok := m["text"].(string)
	if !ok {
		ps := path.String()
		return Leaf{}, apierr.Invalid(ps+".text", "%s.text is required and must be a string", ps)
	}
	l := Leaf{Text: text, Marks: []Mark{}}
	raw, present := m["marks"]
	if !present {
		return l, nil
	}
	arr, ok := raw.([]any)
	if !ok {
		ps := path.String()
		return Leaf{}, apierr.Invalid(ps+".marks", "%s.marks must be an array", ps)
	}
	marks := path.field("marks")
	for i, item := range arr {
		mm, ok := item.(map[string]any)
		if !ok {
			ps := marks.index(i).String()
			return Leaf{}, apierr.Invalid(ps, "%s must be an object", ps)
		}
		if o, _ := mm["object"].(string); o != ObjectMark {
			ps := marks.index(i).String()
			return Leaf{}, apierr.Invalid(ps+".object", "%s.object must be %q", ps, ObjectMark)
		}
		typ, _ := mm["type"].(string)
		if !markTypes[typ] {
			ps := marks.index(i).String()
			return Leaf{}, apierr.Invalid(ps+".type", "%s.type must be one of %s", ps, strings.Join(sortedKeys(markTypes), ", "))
		}
		mk := Mark{Type: typ}
		if typ == MarkColor {
			p := marks.index(i)
			data, err := optObject(mm, "data", p)
			if err != nil {
				return Leaf{}, err
			}
			c := &dataCheck{d: data, path: p.field("data")}
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

func sortedKeys(s set) []string {
	out := make([]string, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
