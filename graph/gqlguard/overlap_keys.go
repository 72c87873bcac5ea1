package gqlguard

import (
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// fieldKeys numbers fields so that two fields get the same number exactly
// when they are copies: the same parent type, alias, name and arguments
// (values written the same way), and sub-selections made of copies in the
// same order (fragment spreads by name, inline fragments by type condition).
// Directives and positions do not count: the overlapping-fields rule looks
// at neither. A field's key is built from its children's numbers, and every
// number is kept, so numbering a whole document costs time linear in its
// size however deeply it nests.
type fieldKeys struct {
	byField map[*ast.Field]int
	byText  map[string]int
	buf     strings.Builder
}

func newFieldKeys() *fieldKeys {
	return &fieldKeys{byField: map[*ast.Field]int{}, byText: map[string]int{}}
}

// field returns f's number.
func (k *fieldKeys) field(f *ast.Field) int {
	if n, ok := k.byField[f]; ok {
		return n
	}
	// Children first: the buffer holds one key at a time.
	children := k.selections(f.SelectionSet)

	b := &k.buf
	b.Reset()
	if f.ObjectDefinition != nil {
		b.WriteString(f.ObjectDefinition.Name)
	}
	b.WriteByte('|')
	b.WriteString(f.Alias)
	b.WriteByte('|')
	b.WriteString(f.Name)
	b.WriteByte('(')
	for _, a := range f.Arguments {
		b.WriteString(a.Name)
		b.WriteByte(':')
		if a.Value != nil {
			b.WriteString(a.Value.String())
		}
		b.WriteByte(',')
	}
	b.WriteByte(')')
	b.WriteString(children)
	n := k.intern(b.String())
	k.byField[f] = n
	return n
}

// selections returns the text standing for a selection set in its parent's
// key: the numbers of its fields and inline fragments, and the names of the
// fragments it spreads.
func (k *fieldKeys) selections(set ast.SelectionSet) string {
	if len(set) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteByte('{')
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			b.WriteString(strconv.Itoa(k.field(s)))
		case *ast.InlineFragment:
			// Numbered too, so that nested inline fragments do not nest
			// their texts.
			b.WriteByte('i')
			b.WriteString(strconv.Itoa(k.intern("...on " + s.TypeCondition + k.selections(s.SelectionSet))))
		case *ast.FragmentSpread:
			b.WriteString("...")
			b.WriteString(s.Name)
		}
		b.WriteByte(' ')
	}
	b.WriteByte('}')
	return b.String()
}

func (k *fieldKeys) intern(text string) int {
	if n, ok := k.byText[text]; ok {
		return n
	}
	n := len(k.byText)
	k.byText[text] = n
	return n
}
