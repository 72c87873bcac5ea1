package document

import (
	"strconv"
	"strings"
)

// jsonPath is the JSON path of a value in a document, such as
// document.nodes[2].data.style, as errors name it. Decoding and validation
// pass one down the tree and write it out only for an error: a link per
// level rather than a string that every level copies from its parent,
// which costs time quadratic in the depth.
type jsonPath struct {
	up   *jsonPath
	name string // member name; "" for an array element
	i    int    // array index when name is ""
}

func rootPath(name string) *jsonPath { return &jsonPath{name: name} }

// field is the path of member name of the value at p.
func (p *jsonPath) field(name string) *jsonPath { return &jsonPath{up: p, name: name} }

// index is the path of element i of the array at p.
func (p *jsonPath) index(i int) *jsonPath { return &jsonPath{up: p, i: i} }

func (p *jsonPath) String() string {
	var segs []*jsonPath
	for q := p; q != nil; q = q.up {
		segs = append(segs, q)
	}
	var b strings.Builder
	for k := len(segs) - 1; k >= 0; k-- {
		q := segs[k]
		switch {
		case q.name == "":
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(q.i))
			b.WriteByte(']')
		case q.up == nil:
			b.WriteString(q.name)
		default:
			b.WriteByte('.')
			b.WriteString(q.name)
		}
	}
	return b.String()
}
