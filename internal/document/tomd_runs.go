package document

import "strings"

// Inline content is rendered from runs: text under one set of marks, or
// an atom (a link, math, an image, ...).

type run struct {
	text  string
	marks []Mark // without code
	code  bool
	atom  *Node
}

// flattenRuns turns inline content into text runs and atoms (links, math,
// images, ...). Annotations contribute their text.
func flattenRuns(nodes []Node) []run {
	f := &runFlattener{}
	f.nodes(nodes)
	f.flush()
	return f.out
}

// runFlattener collects runs; merged holds the text of the last run while
// leaves merge into it, so that n leaves cost their length once rather
// than n times.
type runFlattener struct {
	out     []run
	merged  strings.Builder
	merging bool
	// apart keeps the next run from merging into the last one: the runs
	// of an annotation start afresh.
	apart bool
}

func (f *runFlattener) flush() {
	if f.merging {
		f.out[len(f.out)-1].text = f.merged.String()
		f.merged.Reset()
		f.merging = false
	}
}

func (f *runFlattener) nodes(nodes []Node) {
	for i := range nodes {
		n := &nodes[i]
		switch {
		case n.Object == ObjectText:
			for _, l := range n.Leaves {
				if l.Text == "" {
					continue
				}
				marks := normalizeMarks(l.Marks)
				r := run{text: l.Text}
				for _, m := range marks {
					if m.Type == MarkCode {
						r.code = true
					} else {
						r.marks = append(r.marks, m)
					}
				}
				if k := len(f.out); k > 0 && !f.apart && f.out[k-1].atom == nil && f.out[k-1].code == r.code && sameMarks(f.out[k-1].marks, r.marks) {
					if !f.merging {
						f.merged.WriteString(f.out[k-1].text)
						f.merging = true
					}
					f.merged.WriteString(r.text)
					continue
				}
				f.flush()
				f.out = append(f.out, r)
				f.apart = false
			}
		case n.Type == InlineAnnotation:
			f.flush()
			f.apart = true
			f.nodes(n.Nodes)
			f.apart = false
		case n.Object == ObjectInline:
			f.flush()
			f.out = append(f.out, run{atom: n})
			f.apart = false
		}
	}
}
