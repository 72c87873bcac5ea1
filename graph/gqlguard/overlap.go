package gqlguard

// This file is gqlparser's OverlappingFieldsCanBeMerged rule
// (github.com/vektah/gqlparser/v2 v2.5.33, validator/rules/
// overlapping_fields_can_be_merged.go, MIT License, Copyright (c) 2018 Adam
// Scarr) with one change, in getFieldsAndFragmentNames: when it gathers the
// fields of a selection set by response name, copies of a field already
// gathered are left out. The rule compares every pair of fields that share
// a response name, so a selection set repeating one field n times cost n²
// comparisons, each walking both sub-selections: about 0.6 s of CPU for a
// 6 KB document, and the query cache does not help against documents that
// differ by a character. A copy compares with every other field as the
// field it copies does, so a document is refused exactly when gqlparser's
// rule refuses it, with the same messages, less the repetitions copies
// add (a conflict found once per copy is reported once, and a message
// listing the conflicts below a field lists each once). Everything else,
// the order of the comparisons included, is gqlparser's; tests compare the
// two on random documents.

import (
	"bytes"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator/core"
)

// overlappingFieldsRule replaces gqlparser's rule of the same name (see
// ValidationRules).
var overlappingFieldsRule = newOverlappingFieldsRule(false)

// newOverlappingFieldsRule returns the rule; keepCopies makes it gqlparser's
// exactly (for tests).
func newOverlappingFieldsRule(keepCopies bool) core.Rule {
	return core.Rule{Name: "OverlappingFieldsCanBeMerged", RuleFunc: func(observers *core.Events, addError core.AddErrFunc) {
		// The algorithm, steps (A) to (J), is described in gqlparser's
		// file and in graphql-js's OverlappingFieldsCanBeMergedRule.
		m := &overlapManager{
			comparedFragmentPairs: pairSet{data: map[string]map[string]bool{}},
			keys:                  newFieldKeys(),
			keepCopies:            keepCopies,
		}
		report := func(walker *core.Walker, set ast.SelectionSet) {
			m.walker = walker
			for _, conflict := range m.findConflictsWithinSelectionSet(set) {
				conflict.addFieldsConflictMessage(addError)
			}
		}
		observers.OnOperation(func(walker *core.Walker, operation *ast.OperationDefinition) {
			report(walker, operation.SelectionSet)
		})
		observers.OnField(func(walker *core.Walker, field *ast.Field) {
			if walker.CurrentOperation == nil {
				// Fragment definitions are checked once, by OnFragment.
				return
			}
			report(walker, field.SelectionSet)
		})
		observers.OnInlineFragment(func(walker *core.Walker, inlineFragment *ast.InlineFragment) {
			report(walker, inlineFragment.SelectionSet)
		})
		observers.OnFragment(func(walker *core.Walker, fragment *ast.FragmentDefinition) {
			report(walker, fragment.SelectionSet)
		})
	}}
}

type pairSet struct {
	data map[string]map[string]bool
}

func (p *pairSet) Add(a, b *ast.FragmentSpread, areMutuallyExclusive bool) {
	add := func(a, b *ast.FragmentSpread) {
		m := p.data[a.Name]
		if m == nil {
			m = map[string]bool{}
			p.data[a.Name] = m
		}
		m[b.Name] = areMutuallyExclusive
	}
	add(a, b)
	add(b, a)
}

func (p *pairSet) Has(a, b *ast.FragmentSpread, areMutuallyExclusive bool) bool {
	am, ok := p.data[a.Name]
	if !ok {
		return false
	}
	result, ok := am[b.Name]
	if !ok {
		return false
	}
	// areMutuallyExclusive being false is a superset of being true, hence
	// if we want to know if this set "has" these two with no exclusivity,
	// we have to ensure it was added as such.
	if !areMutuallyExclusive {
		return !result
	}
	return true
}

// sequentialFieldsMap groups fields by response name, in the order the
// names first appear.
type sequentialFieldsMap struct {
	seq  []string
	data map[string][]*ast.Field
}

type fieldIterateEntry struct {
	ResponseName string
	Fields       []*ast.Field
}

func (m *sequentialFieldsMap) Push(responseName string, field *ast.Field) {
	fields, ok := m.data[responseName]
	if !ok {
		m.seq = append(m.seq, responseName)
	}
	m.data[responseName] = append(fields, field)
}

func (m *sequentialFieldsMap) Get(responseName string) ([]*ast.Field, bool) {
	fields, ok := m.data[responseName]
	return fields, ok
}

func (m *sequentialFieldsMap) Iterator() [][]*ast.Field {
	out := make([][]*ast.Field, 0, len(m.seq))
	for _, name := range m.seq {
		out = append(out, m.data[name])
	}
	return out
}

func (m *sequentialFieldsMap) KeyValueIterator() []*fieldIterateEntry {
	out := make([]*fieldIterateEntry, 0, len(m.seq))
	for _, name := range m.seq {
		out = append(out, &fieldIterateEntry{ResponseName: name, Fields: m.data[name]})
	}
	return out
}

type conflictMessageContainer struct {
	Conflicts []*conflictMessage
}

type conflictMessage struct {
	Message      string
	ResponseName string
	SubMessage   []*conflictMessage
	Position     *ast.Position
}

func (m *conflictMessage) String(buf *bytes.Buffer) {
	if len(m.SubMessage) == 0 {
		buf.WriteString(m.Message)
		return
	}
	for idx, sub := range m.SubMessage {
		buf.WriteString(`subfields "`)
		buf.WriteString(sub.ResponseName)
		buf.WriteString(`" conflict because `)
		sub.String(buf)
		if idx != len(m.SubMessage)-1 {
			buf.WriteString(" and ")
		}
	}
}

func (m *conflictMessage) addFieldsConflictMessage(addError core.AddErrFunc) {
	var buf bytes.Buffer
	m.String(&buf)
	addError(
		core.Message(`Fields "%s" conflict because %s. Use different aliases on the fields to fetch both if this was intentional.`,
			m.ResponseName, buf.String()),
		core.At(m.Position),
	)
}
