// Package evaluate evaluates the expressions of a page document: expression
// inlines (data.expression, such as `space.vars.version` or
// `page.vars.product + " v2"`) and if blocks (data.expression, a condition
// deciding whether the block's children are shown).
//
// Expressions are written in the github.com/expr-lang/expr language. Two
// names are defined: space.vars (the variables of the revision) and
// page.vars (the variables of the page). Any other name, such as
// visitor.claims.plan, depends on who reads the page: it evaluates as nil
// in mode All and keeps the expression unevaluated in mode
// DeterministicOnly.
//
// Evaluation never fails a read: an expression that does not compile is
// left as it is, and one that fails while running (for example a field of
// a missing variable) evaluates as nil.
package evaluate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"

	"quire/internal/apierr"
	"quire/internal/document"
)

// Mode says which expressions Document evaluates.
type Mode int

// Evaluation modes, matching the values of the evaluated parameter of page
// reads.
const (
	// None evaluates nothing: the document is returned as stored.
	None Mode = iota
	// All evaluates every expression; names other than space and page are
	// nil.
	All
	// DeterministicOnly evaluates only the expressions whose value depends
	// on nothing but space and page variables and literals, so that the
	// result is the same for every reader.
	DeterministicOnly
)

// String returns the mode as spelled in the evaluated parameter.
func (m Mode) String() string {
	switch m {
	case All:
		return "true"
	case DeterministicOnly:
		return "deterministic-only"
	}
	return "false"
}

// ParseMode reads the evaluated parameter: "true", "false" or
// "deterministic-only"; empty means false.
// Errors: BadRequest (field "evaluated").
func ParseMode(s string) (Mode, error) {
	switch s {
	case "", "false":
		return None, nil
	case "true":
		return All, nil
	case "deterministic-only":
		return DeterministicOnly, nil
	}
	return None, apierr.Invalid("evaluated", "evaluated must be true, false or deterministic-only (got %q)", s)
}

// Env holds the variables expressions can read.
type Env struct {
	// Space holds the revision's variables (space.vars).
	Space map[string]any
	// Page holds the page's variables (page.vars).
	Page map[string]any
	// Claims holds the claims of the visitor reading the page
	// (visitor.claims), for a reader that knows them; nil leaves visitor a
	// name that depends on who reads the page, as described above.
	Claims map[string]any
}

// maxNodes bounds the size of one expression's syntax tree.
const maxNodes = 1000

// Document returns a copy of doc with its expressions evaluated according
// to mode; doc itself is never modified. An evaluated expression inline
// becomes a text node holding its value (see Format). An evaluated if block
// is replaced by its children when its condition is truthy, and removed
// otherwise. Expressions that are not evaluated stay as they are, but their
// children are still evaluated.
// Errors: BadRequest for an unknown mode.
func Document(doc *document.Document, env Env, mode Mode) (*document.Document, error) {
	if mode != None && mode != All && mode != DeterministicOnly {
		return nil, apierr.New(apierr.BadRequest, "unknown evaluation mode %d", int(mode))
	}
	if doc == nil {
		return nil, nil
	}
	ev := &evaluator{mode: mode, vars: map[string]any{
		"space": map[string]any{"vars": orEmpty(env.Space)},
		"page":  map[string]any{"vars": orEmpty(env.Page)},
	}, cache: map[string]result{}}
	if env.Claims != nil {
		ev.vars["visitor"] = map[string]any{"claims": env.Claims}
	}
	return &document.Document{Data: copyMap(doc.Data), Nodes: ev.nodes(doc.Nodes)}, nil
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// result is the outcome of one expression: ok is false when it is left
// unevaluated.
type result struct {
	value any
	ok    bool
}

type evaluator struct {
	mode  Mode
	vars  map[string]any
	cache map[string]result // by source, for expressions repeated in a document
}

// nodes returns evaluated copies of a node list; nil stays nil.
func (ev *evaluator) nodes(in []document.Node) []document.Node {
	if in == nil {
		return nil
	}
	out := make([]document.Node, 0, len(in))
	ev.nodesInto(&out, in)
	return out
}

// nodesInto appends evaluated copies of in to out. The content of a true
// if block goes straight into out: returned as a list and copied into the
// level above, if blocks nested n deep would copy their content n times.
func (ev *evaluator) nodesInto(out *[]document.Node, in []document.Node) {
	for i := range in {
		n := &in[i]
		switch {
		case n.Object == document.ObjectBlock && n.Type == document.BlockIf:
			if r := ev.eval(n.Data); r.ok {
				if Truthy(r.value) {
					ev.nodesInto(out, n.Nodes)
				}
				continue
			}
		case n.Object == document.ObjectInline && n.Type == document.InlineExpression:
			if r := ev.eval(n.Data); r.ok {
				t := document.NewText(Format(r.value))
				t.Key = n.Key
				*out = append(*out, t)
				continue
			}
		}
		*out = append(*out, ev.node(n))
	}
}

// node copies one node, evaluating its children and fragments.
func (ev *evaluator) node(n *document.Node) document.Node {
	c := *n
	c.Data = copyMap(n.Data)
	c.Meta = copyMap(n.Meta)
	c.Nodes = ev.nodes(n.Nodes)
	c.Fragments = ev.nodes(n.Fragments)
	if n.Leaves != nil {
		c.Leaves = make([]document.Leaf, len(n.Leaves))
		for i, l := range n.Leaves {
			c.Leaves[i] = document.Leaf{Text: l.Text}
			if l.Marks != nil {
				c.Leaves[i].Marks = make([]document.Mark, len(l.Marks))
				for j, m := range l.Marks {
					c.Leaves[i].Marks[j] = document.Mark{Type: m.Type, Data: copyMap(m.Data)}
				}
			}
		}
	}
	return c
}

// eval evaluates data.expression of an if block or expression inline.
func (ev *evaluator) eval(data map[string]any) result {
	src, _ := data["expression"].(string)
	if ev.mode == None || src == "" {
		return result{}
	}
	if r, ok := ev.cache[src]; ok {
		return r
	}
	r := ev.run(src)
	ev.cache[src] = r
	return r
}

func (ev *evaluator) run(src string) (r result) {
	defer func() {
		// expr is not expected to panic; a document must never break a
		// read, though.
		if recover() != nil {
			r = result{}
		}
	}()
	tree, err := parser.Parse(src)
	if err != nil {
		return result{}
	}
	names := scan(tree)
	if ev.mode == DeterministicOnly && !names.deterministic() {
		return result{}
	}
	env := ev.vars
	if len(names.foreign) > 0 {
		// Reader-dependent names are nil; the member paths read through
		// them get empty objects so that visitor.claims.plan is nil too
		// rather than an error.
		env = make(map[string]any, len(ev.vars)+len(names.foreign))
		for k, v := range ev.vars {
			env[k] = v
		}
		for name, tree := range names.foreign {
			if _, known := ev.vars[name]; known {
				continue // visitor, when its claims are known
			}
			// A name read only as a whole stays undefined, which
			// AllowUndefinedVariables makes nil.
			if v := tree.value(); v != nil {
				env[name] = v
			}
		}
	}
	prog, err := expr.Compile(src, expr.Env(env), expr.AllowUndefinedVariables(), expr.MaxNodes(maxNodes),
		truthyFunc, expr.Patch(logic{}))
	if err != nil {
		return result{}
	}
	out, err := vm.Run(prog, env)
	if err != nil {
		return result{ok: true}
	}
	return result{value: out, ok: true}
}

// truthyName is the function logic wraps the operands of logical
// operators in.
const truthyName = "truthy"

var truthyFunc = expr.Function(truthyName, func(params ...any) (any, error) {
	return Truthy(params[0]), nil
}, new(func(any) bool))

// logic makes the logical operators (!, not, &&, and, ||, or, ?:) accept
// any value, read as Truthy, so that a condition on a variable nobody set,
// such as !visitor.claims.beta, works instead of failing on nil.
type logic struct{}

func (logic) Visit(n *ast.Node) {
	switch x := (*n).(type) {
	case *ast.UnaryNode:
		if x.Operator == "!" || x.Operator == "not" {
			x.Node = truthy(x.Node)
		}
	case *ast.BinaryNode:
		switch x.Operator {
		case "&&", "||", "and", "or":
			x.Left, x.Right = truthy(x.Left), truthy(x.Right)
		}
	case *ast.ConditionalNode:
		x.Cond = truthy(x.Cond)
	}
}

func truthy(n ast.Node) ast.Node {
	if c, ok := n.(*ast.CallNode); ok {
		if id, ok := c.Callee.(*ast.IdentifierNode); ok && id.Value == truthyName {
			return n
		}
	}
	if _, ok := n.(*ast.BoolNode); ok {
		return n
	}
	call := &ast.CallNode{Callee: &ast.IdentifierNode{Value: truthyName}, Arguments: []ast.Node{n}}
	call.SetLocation(n.Location())
	call.Callee.SetLocation(n.Location())
	return call
}

// Truthy reports whether an if condition's value shows the block: nil,
// false, zero numbers, NaN and the empty string do not; anything else
// does.
func Truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case float64:
		return x != 0 && !math.IsNaN(x)
	case float32:
		return x != 0 && !math.IsNaN(float64(x))
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int() != 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return rv.Uint() != 0
	case reflect.Pointer, reflect.Interface:
		return !rv.IsNil()
	}
	return true
}

// Format renders an expression's value as text: strings as they are,
// numbers in their shortest form (3, not 3.0), booleans as true or false,
// nil as the empty string, times in RFC 3339, and lists and objects as
// JSON-like text.
func Format(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return formatFloat(x)
	case float32:
		return formatFloat(float64(x))
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case time.Time:
		return x.Format(time.RFC3339)
	case time.Duration:
		return x.String()
	case fmt.Stringer:
		return x.String()
	}
	return formatValue(v)
}

func formatFloat(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// formatValue renders lists and objects as JSON, or anything else as Go
// prints it.
func formatValue(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// copyMap deep-copies decoded JSON data.
func copyMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = copyValue(v)
	}
	return out
}

func copyValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return copyMap(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = copyValue(e)
		}
		return out
	}
	return v
}
