package document

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// The reference encoding below is the struct-by-struct encoding/json form of
// the API shapes, one json.Marshal per node. The one-pass encoder must
// write the same bytes.

type refDoc Document
type refNode Node
type refLeaf Leaf
type refMark Mark

func refNodes(ns []Node) []refNode {
	out := make([]refNode, len(ns))
	for i := range ns {
		out[i] = refNode(ns[i])
	}
	return out
}

func (d refDoc) MarshalJSON() ([]byte, error) {
	out := struct {
		Object string         `json:"object"`
		Data   map[string]any `json:"data"`
		Nodes  []refNode      `json:"nodes"`
	}{ObjectDocument, d.Data, refNodes(d.Nodes)}
	if out.Data == nil {
		out.Data = map[string]any{}
	}
	return json.Marshal(out)
}

func (n refNode) MarshalJSON() ([]byte, error) {
	switch n.Object {
	case ObjectText:
		leaves := make([]refLeaf, len(n.Leaves))
		for i, l := range n.Leaves {
			leaves[i] = refLeaf(l)
		}
		return json.Marshal(struct {
			Object string    `json:"object"`
			Key    string    `json:"key,omitempty"`
			Leaves []refLeaf `json:"leaves"`
		}{ObjectText, n.Key, leaves})
	case ObjectFragment:
		return json.Marshal(struct {
			Object   string    `json:"object"`
			Key      string    `json:"key,omitempty"`
			Fragment string    `json:"fragment,omitempty"`
			Type     string    `json:"type,omitempty"`
			Nodes    []refNode `json:"nodes"`
		}{ObjectFragment, n.Key, n.Fragment, n.Type, refNodes(n.Nodes)})
	}
	out := struct {
		Object    string         `json:"object"`
		Type      string         `json:"type"`
		Key       string         `json:"key,omitempty"`
		Data      map[string]any `json:"data"`
		Nodes     *[]refNode     `json:"nodes,omitempty"`
		Fragments *[]refNode     `json:"fragments,omitempty"`
		IsVoid    bool           `json:"isVoid"`
		Meta      map[string]any `json:"meta,omitempty"`
	}{Object: n.Object, Type: n.Type, Key: n.Key, Data: n.Data, IsVoid: n.IsVoid, Meta: n.Meta}
	if out.Data == nil {
		out.Data = map[string]any{}
	}
	if !n.IsVoid {
		nodes := refNodes(n.Nodes)
		out.Nodes = &nodes
	}
	if n.Fragments != nil || fragmentTypes[n.Type] {
		frags := refNodes(n.Fragments)
		out.Fragments = &frags
	}
	return json.Marshal(out)
}

func (l refLeaf) MarshalJSON() ([]byte, error) {
	marks := make([]refMark, len(l.Marks))
	for i, m := range l.Marks {
		marks[i] = refMark(m)
	}
	return json.Marshal(struct {
		Object string    `json:"object"`
		Text   string    `json:"text"`
		Marks  []refMark `json:"marks"`
	}{ObjectLeaf, l.Text, marks})
}

func (m refMark) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Object string         `json:"object"`
		Type   string         `json:"type"`
		Data   map[string]any `json:"data,omitempty"`
	}{ObjectMark, m.Type, m.Data})
}

func checkSameJSON(t *testing.T, name string, doc *Document) {
	t.Helper()
	want, err := json.Marshal(refDoc(*doc))
	if err != nil {
		t.Fatalf("%s: reference: %v", name, err)
	}
	got, err := json.Marshal(doc)
	if err != nil {
		t.Fatalf("%s: json.Marshal: %v", name, err)
	}
	if string(got) != string(want) {
		t.Fatalf("%s: json.Marshal differs from the reference:\n%s", name, firstDiff(string(got), string(want)))
	}
	appended, err := doc.AppendJSON([]byte("x"))
	if err != nil || string(appended) != "x"+string(want) {
		t.Fatalf("%s: AppendJSON differs from the reference (%v):\n%s", name, err, firstDiff(string(appended[1:]), string(want)))
	}
	for i := range doc.Nodes {
		want, _ := json.Marshal(refNode(doc.Nodes[i]))
		if got, _ := json.Marshal(doc.Nodes[i]); string(got) != string(want) {
			t.Fatalf("%s: node %d differs:\n%s", name, i, firstDiff(string(got), string(want)))
		}
	}
}

func TestEncoderMatchesEncodingJSONOnCorpus(t *testing.T) {
	for name, md := range corpusFiles(t) {
		doc, err := FromMarkdown(md)
		if err != nil {
			t.Fatal(err)
		}
		checkSameJSON(t, name, doc)
		parsed, err := Parse(mustJSONBytes(t, doc))
		if err != nil {
			t.Fatal(err)
		}
		checkSameJSON(t, name+" parsed", parsed)
	}
}

func mustJSONBytes(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEncoderMatchesEncodingJSONOnRandomDocuments covers what the corpus
// does not: keys, meta, nil and empty maps and slices, unknown object
// kinds, odd strings and numbers, and data values of Go types that decoded
// JSON never has.
func TestEncoderMatchesEncodingJSONOnRandomDocuments(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		doc := &Document{Nodes: randomNodes(r, 4)}
		if r.IntN(3) > 0 {
			doc.Data = randomMap(r, 2)
		}
		checkSameJSON(t, fmt.Sprintf("document %d", i), doc)
	}
}

func TestEncoderErrors(t *testing.T) {
	for _, v := range []any{math.NaN(), math.Inf(1), make(chan int)} {
		doc := &Document{Nodes: []Node{{Object: ObjectBlock, Type: BlockParagraph, Data: map[string]any{"x": v}}}}
		_, want := json.Marshal(refDoc(*doc))
		_, got := json.Marshal(doc)
		if want == nil || got == nil {
			t.Errorf("%v: got error %v, want %v", v, got, want)
		}
	}
}

var randomStrings = []string{"", "a", "héllo", "<b>&amp;</b>", "tab\there", "nl\n\r", "\x00\x01\x1f\x7f", "quote\"back\\slash",
	"\u2028\u2029", "bad \xff utf8 \xc3", "emoji 😀", "\b\f", "€", "key with spaces"}

func randomString(r *rand.Rand) string { return randomStrings[r.IntN(len(randomStrings))] }

var randomFloats = []float64{0, 1, -1, 0.5, 1e-7, 1e-6, 123456789, 1e20, 1e21, 1.5e300, -2.5e-10, 3.14159, math.MaxFloat64, math.SmallestNonzeroFloat64, math.Copysign(0, -1)}

func randomValue(r *rand.Rand, depth int) any {
	switch r.IntN(12) {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2, 3:
		return randomFloats[r.IntN(len(randomFloats))]
	case 4:
		if depth > 0 {
			return randomMap(r, depth-1)
		}
	case 5:
		if depth > 0 {
			var out []any
			if r.IntN(4) > 0 {
				out = []any{}
			}
			for range r.IntN(3) {
				out = append(out, randomValue(r, depth-1))
			}
			return out
		}
	case 6:
		return []string{"x", "<y>"}
	case 7:
		return map[string]string{"b": "1", "a": "&"}
	case 8:
		return r.IntN(1000) - 500
	}
	return randomString(r)
}

func randomMap(r *rand.Rand, depth int) map[string]any {
	switch r.IntN(5) {
	case 0:
		return nil
	case 1:
		return map[string]any{}
	}
	m := map[string]any{}
	for range 1 + r.IntN(4) {
		m[randomString(r)] = randomValue(r, depth)
	}
	return m
}

var randomObjects = []string{ObjectBlock, ObjectBlock, ObjectInline, ObjectText, ObjectFragment, "", "weird"}
var randomTypes = []string{BlockParagraph, BlockTable, BlockImage, BlockExpandable, InlineAnnotation, InlineLink, BlockDivider, "", "x"}

func randomNodes(r *rand.Rand, depth int) []Node {
	var out []Node
	switch r.IntN(4) {
	case 0:
		return nil
	case 1:
		out = []Node{}
	}
	for range r.IntN(4) {
		n := Node{Object: randomObjects[r.IntN(len(randomObjects))], Type: randomTypes[r.IntN(len(randomTypes))]}
		if r.IntN(3) == 0 {
			n.Key = randomString(r)
		}
		if r.IntN(3) == 0 {
			n.Fragment = randomString(r)
		}
		n.IsVoid = r.IntN(3) == 0
		n.Data = randomMap(r, 2)
		if r.IntN(3) == 0 {
			n.Meta = randomMap(r, 1)
		}
		if depth > 0 {
			n.Nodes = randomNodes(r, depth-1)
			if r.IntN(3) == 0 {
				n.Fragments = randomNodes(r, depth-1)
			}
		}
		if r.IntN(2) == 0 {
			for range r.IntN(3) {
				l := Leaf{Text: randomString(r)}
				if r.IntN(4) > 0 {
					l.Marks = []Mark{}
				}
				for range r.IntN(3) {
					l.Marks = append(l.Marks, Mark{Type: randomString(r), Data: randomMap(r, 1)})
				}
				n.Leaves = append(n.Leaves, l)
			}
		}
		out = append(out, n)
	}
	return out
}
