package adaptive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// node is a parsed JSON value that remembers the order of object keys, so
// that template conditions follow the order in which claims were declared.
type node struct {
	kind   nodeKind
	keys   []string         // object keys in document order
	fields map[string]*node // object members
	items  []*node          // array elements
	str    string           // string value, or number literal
	b      bool             // boolean value
}

type nodeKind int

const (
	kindNull nodeKind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

func (k nodeKind) String() string {
	switch k {
	case kindBool:
		return "a boolean"
	case kindNumber:
		return "a number"
	case kindString:
		return "a string"
	case kindArray:
		return "an array"
	case kindObject:
		return "an object"
	}
	return "null"
}

// maxParseDepth bounds the nesting of parsed documents.
const maxParseDepth = 64

var errDuplicateKey = errors.New("duplicate key")

// parse decodes exactly one JSON value. With strict set, duplicate object
// keys are an error; otherwise the last one wins, as in encoding/json.
func parse(raw []byte, strict bool) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	n, err := parseValue(dec, strict, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return n, nil
}

func parseValue(dec *json.Decoder, strict bool, depth int) (*node, error) {
	if depth > maxParseDepth {
		return nil, fmt.Errorf("nested more than %d levels deep", maxParseDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return &node{kind: kindNull}, nil
	case bool:
		return &node{kind: kindBool, b: t}, nil
	case json.Number:
		return &node{kind: kindNumber, str: t.String()}, nil
	case string:
		return &node{kind: kindString, str: t}, nil
	case json.Delim:
		switch t {
		case '[':
			n := &node{kind: kindArray}
			for dec.More() {
				item, err := parseValue(dec, strict, depth+1)
				if err != nil {
					return nil, err
				}
				n.items = append(n.items, item)
			}
			if _, err := dec.Token(); err != nil { // ]
				return nil, err
			}
			return n, nil
		case '{':
			n := &node{kind: kindObject, fields: map[string]*node{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := kt.(string)
				if !ok {
					return nil, errors.New("object key is not a string")
				}
				val, err := parseValue(dec, strict, depth+1)
				if err != nil {
					return nil, err
				}
				if _, dup := n.fields[key]; dup {
					if strict {
						return nil, fmt.Errorf("%w %q", errDuplicateKey, key)
					}
				} else {
					n.keys = append(n.keys, key)
				}
				n.fields[key] = val
			}
			if _, err := dec.Token(); err != nil { // }
				return nil, err
			}
			return n, nil
		}
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

// get returns an object member, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kindObject {
		return nil
	}
	return n.fields[key]
}

// stringValue returns the string and whether n is a string.
func (n *node) stringValue() (string, bool) {
	if n == nil || n.kind != kindString {
		return "", false
	}
	return n.str, true
}

// isFalse reports whether n is the boolean false.
func (n *node) isFalse() bool { return n != nil && n.kind == kindBool && !n.b }

// path renders a location inside the request body for error messages and
// field names: jsonSchema.properties.plan.type, jsonSchema.properties["a b"],
// jsonSchema.properties.roles.items.enum[0].
type path []seg

type seg struct {
	name  string
	index int // used when name is ""
	isIdx bool
}

func (p path) with(names ...string) path {
	out := make(path, len(p), len(p)+len(names))
	copy(out, p)
	for _, n := range names {
		out = append(out, seg{name: n})
	}
	return out
}

func (p path) index(i int) path {
	out := make(path, len(p), len(p)+1)
	copy(out, p)
	return append(out, seg{index: i, isIdx: true})
}

func (p path) String() string {
	var b bytes.Buffer
	for i, s := range p {
		switch {
		case s.isIdx:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case isIdent(s.name, true):
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.name)
		default:
			b.WriteString("[" + strconv.Quote(s.name) + "]")
		}
	}
	return b.String()
}

// isIdent reports whether s is a plain ASCII identifier; dollar allows '$'
// (for keywords such as $schema).
func isIdent(s string, dollar bool) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case dollar && r == '$':
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}
