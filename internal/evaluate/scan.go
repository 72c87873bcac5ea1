package evaluate

import (
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
)

// scanned is what an expression's syntax tree refers to.
type scanned struct {
	// foreign holds the top-level names other than space and page, with
	// the member paths read through them.
	foreign map[string]*path
	// volatile is set when the expression calls a function whose result
	// depends on the current time, or a function that is not defined.
	volatile bool
}

func (s scanned) deterministic() bool { return len(s.foreign) == 0 && !s.volatile }

// path is a tree of member names read below a name.
type path map[string]*path

// value builds nested empty objects for the paths read below a name; a
// name read only as a whole is nil.
func (p *path) value() any {
	if p == nil || len(*p) == 0 {
		return nil
	}
	m := make(map[string]any, len(*p))
	for k, sub := range *p {
		if sub != nil && len(*sub) > 0 {
			m[k] = sub.value()
		}
	}
	return m
}

// clockFuncs are the built-in functions whose result depends on when they
// run.
var clockFuncs = map[string]bool{"now": true, "date": true}

// scan finds the names an expression reads. Function names (the callees of
// calls) and names introduced with let are not names it reads.
func scan(tree *parser.Tree) scanned {
	s := scanned{foreign: map[string]*path{}}
	callees := map[*ast.IdentifierNode]bool{}
	members := map[*ast.IdentifierNode][]string{} // root → member names, outermost first
	declared := map[string]bool{}
	ast.Walk(&tree.Node, visitFunc(func(n *ast.Node) {
		switch x := (*n).(type) {
		case *ast.BuiltinNode:
			if clockFuncs[x.Name] {
				s.volatile = true
			}
		case *ast.CallNode:
			if id, ok := x.Callee.(*ast.IdentifierNode); ok {
				callees[id] = true
				if id.Value != truthyName {
					s.volatile = true
				}
			}
		case *ast.VariableDeclaratorNode:
			declared[x.Name] = true
		case *ast.MemberNode:
			// Record the longest chain of constant member names for
			// the root identifier; inner member nodes are visited first
			// and overwritten by outer ones.
			var names []string
			var cur ast.Node = x
			for {
				m, ok := cur.(*ast.MemberNode)
				if !ok {
					break
				}
				prop, ok := m.Property.(*ast.StringNode)
				if !ok {
					names = names[:0]
					cur = m.Node
					continue
				}
				names = append(names, prop.Value)
				cur = m.Node
			}
			if id, ok := cur.(*ast.IdentifierNode); ok {
				if len(names) > len(members[id]) {
					members[id] = names
				}
			}
		}
	}))
	ast.Walk(&tree.Node, visitFunc(func(n *ast.Node) {
		id, ok := (*n).(*ast.IdentifierNode)
		if !ok || callees[id] || declared[id.Value] || id.Value == "space" || id.Value == "page" {
			return
		}
		p := s.foreign[id.Value]
		if p == nil {
			p = &path{}
			s.foreign[id.Value] = p
		}
		// members lists names from the outermost access inwards; the
		// last one read is a leaf (nil), the others are objects.
		names := members[id]
		for i := len(names) - 1; i > 0; i-- {
			next := (*p)[names[i]]
			if next == nil {
				next = &path{}
				(*p)[names[i]] = next
			}
			p = next
		}
		if len(names) > 0 {
			if _, ok := (*p)[names[0]]; !ok {
				(*p)[names[0]] = nil
			}
		}
	}))
	return s
}

type visitFunc func(n *ast.Node)

func (f visitFunc) Visit(n *ast.Node) { f(n) }
