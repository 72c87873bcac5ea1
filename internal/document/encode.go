package document

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// The JSON encoding of documents is written in one pass over the tree.
// encoding/json re-reads (validates and compacts) whatever a MarshalJSON
// method returns, so a tree whose every node marshals its children through
// json.Marshal is re-read once per level above each node: time quadratic in
// the depth. The encoder below appends the whole tree itself, byte for byte
// as encoding/json would write the API shapes (field order, omitted fields,
// sorted map keys, HTML-safe string escapes, number format), so that
// json.Marshal of a document re-reads its output exactly once.

// AppendJSON appends the JSON encoding of d to dst. It writes the same bytes
// as json.Marshal(d); the error is that of json.Marshal for data values it
// cannot encode (NaN, infinities, channels, ...).
func (d *Document) AppendJSON(dst []byte) ([]byte, error) {
	e := encoder{buf: dst}
	e.document(d)
	return e.buf, e.err
}

// MarshalJSON writes the document in the API shape.
func (d Document) MarshalJSON() ([]byte, error) {
	return d.AppendJSON(nil)
}

// MarshalJSON writes the node in the API shape for its object kind.
func (n Node) MarshalJSON() ([]byte, error) {
	e := encoder{}
	e.node(&n)
	return e.buf, e.err
}

// MarshalJSON writes the leaf in the API shape.
func (l Leaf) MarshalJSON() ([]byte, error) {
	e := encoder{}
	e.leaf(&l)
	return e.buf, e.err
}

// MarshalJSON writes the mark in the API shape.
func (m Mark) MarshalJSON() ([]byte, error) {
	e := encoder{}
	e.mark(&m)
	return e.buf, e.err
}

type encoder struct {
	buf []byte
	err error
}

func (e *encoder) raw(s string) { e.buf = append(e.buf, s...) }

func (e *encoder) str(s string) { e.buf = appendJSONString(e.buf, s) }

// field writes `,"name":`; names are plain ASCII.
func (e *encoder) field(name string) {
	e.buf = append(e.buf, ',', '"')
	e.buf = append(e.buf, name...)
	e.buf = append(e.buf, '"', ':')
}

func (e *encoder) document(d *Document) {
	e.raw(`{"object":"document","data":`)
	if d.Data == nil {
		e.raw("{}")
	} else {
		e.object(d.Data)
	}
	e.raw(`,"nodes":`)
	e.nodes(d.Nodes)
	e.raw("}")
}

// nodes writes an array of nodes; nil is written as [].
func (e *encoder) nodes(ns []Node) {
	e.buf = append(e.buf, '[')
	for i := range ns {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.node(&ns[i])
	}
	e.buf = append(e.buf, ']')
}

func (e *encoder) node(n *Node) {
	switch n.Object {
	case ObjectText:
		e.raw(`{"object":"text"`)
		if n.Key != "" {
			e.field("key")
			e.str(n.Key)
		}
		e.field("leaves")
		e.buf = append(e.buf, '[')
		for i := range n.Leaves {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.leaf(&n.Leaves[i])
		}
		e.raw("]}")
		return
	case ObjectFragment:
		e.raw(`{"object":"fragment"`)
		if n.Key != "" {
			e.field("key")
			e.str(n.Key)
		}
		if n.Fragment != "" {
			e.field("fragment")
			e.str(n.Fragment)
		}
		if n.Type != "" {
			e.field("type")
			e.str(n.Type)
		}
		e.field("nodes")
		e.nodes(n.Nodes)
		e.raw("}")
		return
	}
	e.raw(`{"object":`)
	e.str(n.Object)
	e.field("type")
	e.str(n.Type)
	if n.Key != "" {
		e.field("key")
		e.str(n.Key)
	}
	e.field("data")
	if n.Data == nil {
		e.raw("{}")
	} else {
		e.object(n.Data)
	}
	if !n.IsVoid {
		e.field("nodes")
		e.nodes(n.Nodes)
	}
	if n.Fragments != nil || fragmentTypes[n.Type] {
		e.field("fragments")
		e.nodes(n.Fragments)
	}
	e.field("isVoid")
	e.raw(strconv.FormatBool(n.IsVoid))
	if len(n.Meta) > 0 {
		e.field("meta")
		e.object(n.Meta)
	}
	e.raw("}")
}

func (e *encoder) leaf(l *Leaf) {
	e.raw(`{"object":"leaf","text":`)
	e.str(l.Text)
	e.raw(`,"marks":[`)
	for i := range l.Marks {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.mark(&l.Marks[i])
	}
	e.raw("]}")
}

func (e *encoder) mark(m *Mark) {
	e.raw(`{"object":"mark","type":`)
	e.str(m.Type)
	if len(m.Data) > 0 {
		e.raw(`,"data":`)
		e.object(m.Data)
	}
	e.raw("}")
}

// object writes a decoded JSON object with its keys sorted, as
// encoding/json writes maps.
func (e *encoder) object(m map[string]any) {
	if m == nil {
		e.raw("null")
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.buf = append(e.buf, '{')
	for i, k := range keys {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.str(k)
		e.buf = append(e.buf, ':')
		e.value(m[k])
	}
	e.buf = append(e.buf, '}')
}

// value writes a data value. The decoded JSON types are written here;
// anything else a caller put in data goes through encoding/json, which
// never nests a document's nodes and so costs no re-reading.
func (e *encoder) value(v any) {
	switch x := v.(type) {
	case nil:
		e.raw("null")
	case string:
		e.str(x)
	case bool:
		e.raw(strconv.FormatBool(x))
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			e.fallback(x)
			return
		}
		e.buf = appendJSONFloat(e.buf, x)
	case map[string]any:
		e.object(x)
	case []any:
		if x == nil {
			e.raw("null")
			return
		}
		e.buf = append(e.buf, '[')
		for i, item := range x {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.value(item)
		}
		e.buf = append(e.buf, ']')
	default:
		e.fallback(x)
	}
}

func (e *encoder) fallback(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		if e.err == nil {
			e.err = err
		}
		e.raw("null")
		return
	}
	e.buf = append(e.buf, b...)
}

// appendJSONFloat formats f as encoding/json does: like ES6 number to
// string conversion, exponent form below 1e-6 and from 1e21 on.
func appendJSONFloat(dst []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// e-09 is written e-9.
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes s as encoding/json does with HTML escaping on:
// control characters, '"', '\\', '<', '>' and '&' are escaped, invalid
// UTF-8 becomes \ufffd, and U+2028 and U+2029 are escaped.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
