package gqlguard

// The conflict search of the overlapping-fields rule: gqlparser's
// (github.com/vektah/gqlparser/v2 v2.5.33, validator/rules/
// overlapping_fields_can_be_merged.go, MIT License, Copyright (c) 2018 Adam
// Scarr) with the one change overlap.go describes, in
// getFieldsAndFragmentNames.

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator/core"
)

type overlapManager struct {
	walker *core.Walker

	// per walker
	comparedFragmentPairs pairSet
	keys                  *fieldKeys
	keepCopies            bool
	selfConflicts         map[int]bool // by field key

	// per selection set
	comparedFragments map[string]bool
}

func (m *overlapManager) findConflictsWithinSelectionSet(selectionSet ast.SelectionSet) []*conflictMessage {
	if len(selectionSet) == 0 {
		return nil
	}
	fieldsMap, fragmentSpreads := m.getFieldsAndFragmentNames(selectionSet)

	var conflicts conflictMessageContainer
	// (A) Find all conflicts "within" the fields of this selection set.
	m.collectConflictsWithin(&conflicts, fieldsMap)

	m.comparedFragments = map[string]bool{}
	for idx, fragmentSpreadA := range fragmentSpreads {
		// (B) Then collect conflicts between these fields and those
		// represented by each spread fragment name found.
		m.collectConflictsBetweenFieldsAndFragment(&conflicts, false, fieldsMap, fragmentSpreadA)
		for _, fragmentSpreadB := range fragmentSpreads[idx+1:] {
			// (C) Then compare this fragment with all other fragments
			// found in this selection set.
			m.collectConflictsBetweenFragments(&conflicts, false, fragmentSpreadA, fragmentSpreadB)
		}
	}
	return conflicts.Conflicts
}

func (m *overlapManager) collectConflictsBetweenFieldsAndFragment(conflicts *conflictMessageContainer, areMutuallyExclusive bool, fieldsMap *sequentialFieldsMap, fragmentSpread *ast.FragmentSpread) {
	if m.comparedFragments[fragmentSpread.Name] {
		return
	}
	m.comparedFragments[fragmentSpread.Name] = true
	if fragmentSpread.Definition == nil {
		return
	}
	fieldsMapB, fragmentSpreads := m.getFieldsAndFragmentNames(fragmentSpread.Definition.SelectionSet)

	// Do not compare a fragment's fields to themselves.
	if reflect.DeepEqual(fieldsMap, fieldsMapB) {
		return
	}

	// (D) First collect any conflicts between the provided fields and the
	// fields of the given fragment.
	m.collectConflictsBetween(conflicts, areMutuallyExclusive, fieldsMap, fieldsMapB)

	// (E) Then collect any conflicts between the provided fields and any
	// fragment names found in the given fragment.
	for _, spread := range fragmentSpreads {
		if spread.Name == fragmentSpread.Name {
			continue
		}
		m.collectConflictsBetweenFieldsAndFragment(conflicts, areMutuallyExclusive, fieldsMap, spread)
	}
}

func (m *overlapManager) collectConflictsBetweenFragments(conflicts *conflictMessageContainer, areMutuallyExclusive bool, fragmentSpreadA, fragmentSpreadB *ast.FragmentSpread) {
	var check func(a, b *ast.FragmentSpread)
	check = func(a, b *ast.FragmentSpread) {
		if a.Name == b.Name {
			return
		}
		if m.comparedFragmentPairs.Has(a, b, areMutuallyExclusive) {
			return
		}
		m.comparedFragmentPairs.Add(a, b, areMutuallyExclusive)
		if a.Definition == nil || b.Definition == nil {
			return
		}
		fieldsMapA, fragmentSpreadsA := m.getFieldsAndFragmentNames(a.Definition.SelectionSet)
		fieldsMapB, fragmentSpreadsB := m.getFieldsAndFragmentNames(b.Definition.SelectionSet)

		// (F) First, collect all conflicts between these two collections
		// of fields (not including any nested fragments).
		m.collectConflictsBetween(conflicts, areMutuallyExclusive, fieldsMapA, fieldsMapB)

		// (G) Then collect conflicts between the first fragment and any
		// nested fragments spread in the second fragment, and the other
		// way round.
		for _, spread := range fragmentSpreadsB {
			check(a, spread)
		}
		for _, spread := range fragmentSpreadsA {
			check(spread, b)
		}
	}
	check(fragmentSpreadA, fragmentSpreadB)
}

func (m *overlapManager) findConflictsBetweenSubSelectionSets(areMutuallyExclusive bool, selectionSetA, selectionSetB ast.SelectionSet) *conflictMessageContainer {
	var conflicts conflictMessageContainer

	fieldsMapA, fragmentSpreadsA := m.getFieldsAndFragmentNames(selectionSetA)
	fieldsMapB, fragmentSpreadsB := m.getFieldsAndFragmentNames(selectionSetB)

	// (H) First, collect all conflicts between these two collections of
	// fields.
	m.collectConflictsBetween(&conflicts, areMutuallyExclusive, fieldsMapA, fieldsMapB)

	// (I) Then collect conflicts between each collection of fields and
	// those referenced by each fragment name associated with the other.
	for _, spread := range fragmentSpreadsB {
		m.comparedFragments = map[string]bool{}
		m.collectConflictsBetweenFieldsAndFragment(&conflicts, areMutuallyExclusive, fieldsMapA, spread)
	}
	for _, spread := range fragmentSpreadsA {
		m.comparedFragments = map[string]bool{}
		m.collectConflictsBetweenFieldsAndFragment(&conflicts, areMutuallyExclusive, fieldsMapB, spread)
	}

	// (J) Also collect conflicts between any fragment names by the first
	// and fragment names by the second.
	for _, spreadA := range fragmentSpreadsA {
		for _, spreadB := range fragmentSpreadsB {
			m.collectConflictsBetweenFragments(&conflicts, areMutuallyExclusive, spreadA, spreadB)
		}
	}

	if len(conflicts.Conflicts) == 0 {
		return nil
	}
	return &conflicts
}

func (m *overlapManager) collectConflictsWithin(conflicts *conflictMessageContainer, fieldsMap *sequentialFieldsMap) {
	for _, fields := range fieldsMap.Iterator() {
		for idx, fieldA := range fields {
			for _, fieldB := range fields[idx+1:] {
				if conflict := m.findConflict(false, fieldA, fieldB); conflict != nil {
					conflicts.Conflicts = append(conflicts.Conflicts, conflict)
				}
			}
		}
	}
}

func (m *overlapManager) collectConflictsBetween(conflicts *conflictMessageContainer, parentFieldsAreMutuallyExclusive bool, fieldsMapA, fieldsMapB *sequentialFieldsMap) {
	for _, entryA := range fieldsMapA.KeyValueIterator() {
		fieldsB, ok := fieldsMapB.Get(entryA.ResponseName)
		if !ok {
			continue
		}
		for _, fieldA := range entryA.Fields {
			for _, fieldB := range fieldsB {
				if conflict := m.findConflict(parentFieldsAreMutuallyExclusive, fieldA, fieldB); conflict != nil {
					conflicts.Conflicts = append(conflicts.Conflicts, conflict)
				}
			}
		}
	}
}

func (m *overlapManager) findConflict(parentFieldsAreMutuallyExclusive bool, fieldA, fieldB *ast.Field) *conflictMessage {
	if fieldA.ObjectDefinition == nil || fieldB.ObjectDefinition == nil {
		return nil
	}

	areMutuallyExclusive := parentFieldsAreMutuallyExclusive
	if !areMutuallyExclusive {
		areMutuallyExclusive = fieldA.ObjectDefinition.Name != fieldB.ObjectDefinition.Name &&
			fieldA.ObjectDefinition.Kind == ast.Object &&
			fieldB.ObjectDefinition.Kind == ast.Object &&
			fieldA.Definition != nil && fieldB.Definition != nil
	}

	fieldNameA := fieldA.Name
	if fieldA.Alias != "" {
		fieldNameA = fieldA.Alias
	}

	if !areMutuallyExclusive {
		// Two aliases must refer to the same field.
		if fieldA.Name != fieldB.Name {
			return &conflictMessage{
				ResponseName: fieldNameA,
				Message:      fmt.Sprintf(`"%s" and "%s" are different fields`, fieldA.Name, fieldB.Name),
				Position:     fieldB.Position,
			}
		}
		// Two field calls must have the same arguments.
		if !sameArguments(fieldA.Arguments, fieldB.Arguments) {
			return &conflictMessage{
				ResponseName: fieldNameA,
				Message:      "they have differing arguments",
				Position:     fieldB.Position,
			}
		}
	}

	if fieldA.Definition != nil && fieldB.Definition != nil && doTypesConflict(m.walker, fieldA.Definition.Type, fieldB.Definition.Type) {
		return &conflictMessage{
			ResponseName: fieldNameA,
			Message:      fmt.Sprintf(`they return conflicting types "%s" and "%s"`, fieldA.Definition.Type.String(), fieldB.Definition.Type.String()),
			Position:     fieldB.Position,
		}
	}

	// Collect and compare sub-fields.
	conflicts := m.findConflictsBetweenSubSelectionSets(areMutuallyExclusive, fieldA.SelectionSet, fieldB.SelectionSet)
	if conflicts == nil {
		return nil
	}
	return &conflictMessage{
		ResponseName: fieldNameA,
		SubMessage:   conflicts.Conflicts,
		Position:     fieldB.Position,
	}
}

func sameArguments(args1, args2 []*ast.Argument) bool {
	if len(args1) != len(args2) {
		return false
	}
	for _, arg1 := range args1 {
		matched := false
		for _, arg2 := range args2 {
			if arg1.Name == arg2.Name && sameValue(arg1.Value, arg2.Value) {
				matched = true
				break
			}
		}
		if !matched {
			return false
		}
	}
	return true
}

func sameValue(value1, value2 *ast.Value) bool {
	return value1.Kind == value2.Kind && value1.Raw == value2.Raw
}

func doTypesConflict(walker *core.Walker, type1, type2 *ast.Type) bool {
	if type1.Elem != nil {
		if type2.Elem != nil {
			return doTypesConflict(walker, type1.Elem, type2.Elem)
		}
		return true
	}
	if type2.Elem != nil {
		return true
	}
	if type1.NonNull != type2.NonNull {
		return true
	}
	t1 := walker.Schema.Types[type1.NamedType]
	t2 := walker.Schema.Types[type2.NamedType]
	if (t1.Kind == ast.Scalar || t1.Kind == ast.Enum) && (t2.Kind == ast.Scalar || t2.Kind == ast.Enum) {
		return t1.Name != t2.Name
	}
	return false
}

// getFieldsAndFragmentNames gathers the fields of selectionSet (inline
// fragments included) by response name, and the fragments it spreads. Here
// is the one change to gqlparser's rule: a field with the same key (see
// fieldKeys) as one already gathered under its response name is left out,
// as is a second spread of the same fragment. Every use of the spreads goes
// by fragment name, and a copy compares with every other field as the field
// it copies does; what a copy adds is only its comparison with that field,
// which finds a conflict when there is one inside the field (in a fragment
// no operation uses, the rule reports it nowhere else). So a copy is kept
// when the field conflicts with itself, and only one.
func (m *overlapManager) getFieldsAndFragmentNames(selectionSet ast.SelectionSet) (*sequentialFieldsMap, []*ast.FragmentSpread) {
	fieldsMap := &sequentialFieldsMap{data: map[string][]*ast.Field{}}
	var fragmentSpreads []*ast.FragmentSpread
	// Keys are only needed under a response name met twice, which is rare
	// outside repetitions.
	type seenField struct {
		responseName string
		key          int
	}
	var seen map[seenField]int // copies gathered

	var walk func(selectionSet ast.SelectionSet)
	walk = func(selectionSet ast.SelectionSet) {
		for _, selection := range selectionSet {
			switch selection := selection.(type) {
			case *ast.Field:
				responseName := selection.Name
				if selection.Alias != "" {
					responseName = selection.Alias
				}
				if fields, ok := fieldsMap.data[responseName]; ok && !m.keepCopies {
					if seen == nil {
						seen = map[seenField]int{}
					}
					if len(fields) == 1 {
						seen[seenField{responseName, m.keys.field(fields[0])}] = 1
					}
					k := seenField{responseName, m.keys.field(selection)}
					if n := seen[k]; n > 1 || n == 1 && !m.conflictsWithItself(k.key, selection) {
						continue
					}
					seen[k]++
				}
				fieldsMap.Push(responseName, selection)
			case *ast.InlineFragment:
				walk(selection.SelectionSet)
			case *ast.FragmentSpread:
				if !m.keepCopies && slices.ContainsFunc(fragmentSpreads, func(s *ast.FragmentSpread) bool { return s.Name == selection.Name }) {
					continue
				}
				fragmentSpreads = append(fragmentSpreads, selection)
			}
		}
	}
	walk(selectionSet)
	return fieldsMap, fragmentSpreads
}

// conflictsWithItself reports whether field, whose key is key, conflicts
// with a copy of itself. The comparison runs on a manager of its own, so
// that the fragment pairs it compares are still compared, and reported, by
// the rule; its answer is kept per key.
func (m *overlapManager) conflictsWithItself(key int, field *ast.Field) bool {
	if c, ok := m.selfConflicts[key]; ok {
		return c
	}
	probe := &overlapManager{
		walker:                m.walker,
		comparedFragmentPairs: pairSet{data: map[string]map[string]bool{}},
		keys:                  m.keys,
		selfConflicts:         m.selfConflicts,
	}
	c := probe.findConflict(false, field, field) != nil
	if m.selfConflicts == nil {
		m.selfConflicts = map[int]bool{}
	}
	m.selfConflicts[key] = c
	return c
}
