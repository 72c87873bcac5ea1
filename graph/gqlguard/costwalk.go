package gqlguard

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// costCap bounds the counts, so that connections nested deeply or
// fragments spread many times saturate instead of overflowing.
const costCap = math.MaxInt32

func costAdd(a, b int) int { return min(a+b, costCap) } // a, b <= costCap

func costMul(a, b int) int {
	if a != 0 && b > costCap/a {
		return costCap
	}
	return a * b
}

// cost is what a selection set costs per item of the connections above it.
type cost struct {
	nodes, requests int
}

// pageViolation is a first or last argument outside [1, maxPage].
type pageViolation struct {
	argument   string // "first" or "last"
	connection string // Type.field
	value      int
	position   *ast.Position
}

type costWalker struct {
	fragments ast.FragmentDefinitionList
	vars      map[string]any
	// maxPage > 0 checks first and last against [1, maxPage]; the first
	// argument outside is kept in violation.
	maxPage   int
	violation *pageViolation
	// usedVars is set when a count read a variable: the answer then
	// depends on the variables.
	usedVars bool

	memo   map[string]cost // per fragment, per item above it
	active map[string]bool // fragments being walked: a spread back into one is a cycle
}

func newCostWalker(doc *ast.QueryDocument, vars map[string]any, maxPage int) *costWalker {
	return &costWalker{fragments: doc.Fragments, vars: vars, maxPage: maxPage}
}

func (w *costWalker) selections(set ast.SelectionSet) cost {
	var c cost
	for _, sel := range set {
		var sc cost
		var dirs ast.DirectiveList
		switch s := sel.(type) {
		case *ast.Field:
			sc, dirs = w.field(s), s.Directives
		case *ast.InlineFragment:
			sc, dirs = w.selections(s.SelectionSet), s.Directives
		case *ast.FragmentSpread:
			sc, dirs = w.spread(s.Name), s.Directives
		}
		// Skipped selections are still walked, so that their page sizes
		// are checked as validation would.
		if w.skipped(dirs) {
			continue
		}
		c.nodes = costAdd(c.nodes, sc.nodes)
		c.requests = costAdd(c.requests, sc.requests)
	}
	return c
}

func (w *costWalker) field(f *ast.Field) cost {
	sub := w.selections(f.SelectionSet)
	size, ok := w.listSize(f)
	if !ok {
		return sub
	}
	// size items, each with what is below it, in one request.
	return cost{
		nodes:    costAdd(size, costMul(size, sub.nodes)),
		requests: costAdd(1, costMul(size, sub.requests)),
	}
}

func (w *costWalker) spread(name string) cost {
	if c, ok := w.memo[name]; ok {
		return c
	}
	frag := w.fragments.ForName(name)
	if frag == nil || w.active[name] {
		return cost{} // unknown fragment or cycle: validation refuses it
	}
	if w.memo == nil {
		w.memo, w.active = map[string]cost{}, map[string]bool{}
	}
	w.active[name] = true
	c := w.selections(frag.SelectionSet)
	delete(w.active, name)
	w.memo[name] = c
	return c
}

// listSize returns how many items f asks for when f is a connection (its
// page size) or nodes(ids:) (the number of ids).
func (w *costWalker) listSize(f *ast.Field) (int, bool) {
	def := f.Definition
	if def == nil || def.Type == nil {
		return 0, false
	}
	if def.Type.Elem != nil {
		if a := f.Arguments.ForName("ids"); a != nil && def.Arguments.ForName("ids") != nil {
			if ids, ok := w.value(a.Value).([]any); ok {
				return min(len(ids), costCap), true
			}
			return 0, true
		}
		return 0, false
	}
	if !strings.HasSuffix(def.Type.Name(), "Connection") || (def.Arguments.ForName("first") == nil && def.Arguments.ForName("last") == nil) {
		return 0, false
	}
	size := -1
	for _, name := range [...]string{"first", "last"} {
		a := f.Arguments.ForName(name)
		if a == nil {
			continue
		}
		n, ok := toInt(w.value(a.Value))
		if !ok {
			continue // null: as if not given
		}
		if w.maxPage > 0 && (n < 1 || n > w.maxPage) && w.violation == nil {
			parent := ""
			if f.ObjectDefinition != nil {
				parent = f.ObjectDefinition.Name + "."
			}
			w.violation = &pageViolation{argument: name, connection: parent + f.Name, value: n, position: a.Position}
		}
		n = max(n, 0)
		if size < 0 || n < size {
			size = n
		}
	}
	if size < 0 {
		size = DefaultPageSize
	}
	return min(size, costCap), true
}

// value is v with variables replaced by their values; nil when unknown.
func (w *costWalker) value(v *ast.Value) any {
	if v == nil {
		return nil
	}
	if v.Kind == ast.Variable {
		w.usedVars = true
		return w.vars[v.Raw]
	}
	if hasVariable(v) {
		w.usedVars = true
	}
	out, err := v.Value(w.vars)
	if err != nil {
		return nil
	}
	return out
}

func hasVariable(v *ast.Value) bool {
	if v.Kind == ast.Variable {
		return true
	}
	for _, c := range v.Children {
		if c.Value != nil && hasVariable(c.Value) {
			return true
		}
	}
	return false
}

// skipped reports whether @skip(if: true) or @include(if: false) leaves
// the selection out.
func (w *costWalker) skipped(dirs ast.DirectiveList) bool {
	for _, d := range dirs {
		if d.Name != "skip" && d.Name != "include" {
			continue
		}
		a := d.Arguments.ForName("if")
		if a == nil {
			continue
		}
		b, ok := w.value(a.Value).(bool)
		if ok && b == (d.Name == "skip") {
			return true
		}
	}
	return false
}

// toInt reads an Int argument as a literal (int64), a coerced variable
// (int, int64) or a variable decoded from JSON (float64, json.Number)
// gives it.
func toInt(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int32:
		return int(n), true
	case int64:
		return clampInt64(n), true
	case float64:
		if n != math.Trunc(n) || math.IsNaN(n) {
			return 0, false
		}
		return clampInt64(int64(max(min(n, math.MaxInt64/2), math.MinInt64/2))), true
	case json.Number:
		i, err := n.Int64()
		if err != nil {
			return 0, false
		}
		return clampInt64(i), true
	case string:
		// gqlparser accepts an Int variable written as a string.
		i, err := strconv.ParseInt(n, 10, 64)
		if err != nil {
			return 0, false
		}
		return clampInt64(i), true
	}
	return 0, false
}

func clampInt64(n int64) int {
	return int(max(min(n, math.MaxInt32), math.MinInt32))
}
