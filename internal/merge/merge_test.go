package merge

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// pg builds a page with fingerprints derived from its id.
func pg(id, parent, pos string) Page {
	return Page{ID: id, Parent: parent, Position: pos, Title: "title " + id, Content: "content " + id, Meta: "meta " + id}
}

func mkTree(ps ...Page) Tree {
	t := Tree{}
	for _, p := range ps {
		t[p.ID] = p
	}
	return t
}

// edit returns a function that applies f to page id of a tree.
func edit(id string, f func(*Page)) func(Tree) {
	return func(t Tree) {
		p, ok := t[id]
		if !ok {
			panic("edit of missing page " + id)
		}
		f(&p)
		t[id] = p
	}
}

func setTitle(id, v string) func(Tree)   { return edit(id, func(p *Page) { p.Title = v }) }
func setContent(id, v string) func(Tree) { return edit(id, func(p *Page) { p.Content = v }) }
func setMeta(id, v string) func(Tree)    { return edit(id, func(p *Page) { p.Meta = v }) }
func move(id, parent, pos string) func(Tree) {
	return edit(id, func(p *Page) { p.Parent, p.Position = parent, pos })
}
func del(ids ...string) func(Tree) {
	return func(t Tree) {
		for _, id := range ids {
			if _, ok := t[id]; !ok {
				panic("delete of missing page " + id)
			}
			delete(t, id)
		}
	}
}
func add(p Page) func(Tree) { return func(t Tree) { t[p.ID] = p } }

func apply(t Tree, fs ...func(Tree)) Tree {
	t = maps.Clone(t)
	for _, f := range fs {
		f(t)
	}
	return t
}

// stdBase:
//
//	A (a0)
//	  C (a0)
//	  D (a1)
//	B (a1)
//	  E (a0)
func stdBase() Tree {
	return mkTree(pg("A", "", "a0"), pg("B", "", "a1"), pg("C", "A", "a0"), pg("D", "A", "a1"), pg("E", "B", "a0"))
}

func conflictKeys(cs []Conflict) []string {
	var keys []string
	for _, c := range cs {
		keys = append(keys, c.PageID+":"+c.Kind)
	}
	return keys
}

func swapKind(k string) string {
	switch k {
	case KindDeleteEdit:
		return KindEditDelete
	case KindEditDelete:
		return KindDeleteEdit
	}
	return k
}

// swappedKeys is conflictKeys of cs with delete-edit and edit-delete swapped,
// sorted like ThreeWay sorts conflicts.
func swappedKeys(cs []Conflict) []string {
	swapped := make([]Conflict, len(cs))
	for i, c := range cs {
		swapped[i] = Conflict{PageID: c.PageID, Kind: swapKind(c.Kind)}
	}
	slices.SortFunc(swapped, func(a, b Conflict) int {
		if c := strings.Compare(a.PageID, b.PageID); c != 0 {
			return c
		}
		return strings.Compare(a.Kind, b.Kind)
	})
	return conflictKeys(swapped)
}

// changedVsOurs recomputes Result.Changed independently.
func changedVsOurs(ours, merged Tree) []string {
	ids := map[string]bool{}
	for id, p := range merged {
		if o, ok := ours[id]; !ok || o != p {
			ids[id] = true
		}
	}
	for id := range ours {
		if _, ok := merged[id]; !ok {
			ids[id] = true
		}
	}
	return slices.Sorted(maps.Keys(ids))
}

// validTree checks that every parent exists and there are no cycles.
func validTree(t Tree) error {
	for id, p := range t {
		if p.ID != id {
			return fmt.Errorf("page %s stored under key %s", p.ID, id)
		}
		seen := map[string]bool{id: true}
		for cur := p; cur.Parent != ""; {
			next, ok := t[cur.Parent]
			if !ok {
				return fmt.Errorf("page %s has missing parent %s", cur.ID, cur.Parent)
			}
			if seen[next.ID] {
				return fmt.Errorf("cycle through %s", next.ID)
			}
			seen[next.ID] = true
			cur = next
		}
	}
	return nil
}

func TestThreeWay(t *testing.T) {
	base := stdBase()
	tests := []struct {
		name      string
		base      Tree // stdBase() when nil
		ours      []func(Tree)
		theirs    []func(Tree)
		want      []func(Tree) // applied to base; ignored when wantTree is set
		wantTree  Tree
		conflicts []string // "id:kind", in the expected order
		changed   []string
	}{
		{name: "no changes"},

		// One-sided edits of each property.
		{name: "ours title", ours: []func(Tree){setTitle("C", "new")}, want: []func(Tree){setTitle("C", "new")}},
		{name: "theirs title", theirs: []func(Tree){setTitle("C", "new")}, want: []func(Tree){setTitle("C", "new")}, changed: []string{"C"}},
		{name: "ours content", ours: []func(Tree){setContent("C", "new")}, want: []func(Tree){setContent("C", "new")}},
		{name: "theirs content", theirs: []func(Tree){setContent("C", "new")}, want: []func(Tree){setContent("C", "new")}, changed: []string{"C"}},
		{name: "ours meta", ours: []func(Tree){setMeta("C", "new")}, want: []func(Tree){setMeta("C", "new")}},
		{name: "theirs meta", theirs: []func(Tree){setMeta("C", "new")}, want: []func(Tree){setMeta("C", "new")}, changed: []string{"C"}},
		{name: "ours move", ours: []func(Tree){move("C", "B", "a1")}, want: []func(Tree){move("C", "B", "a1")}},
		{name: "theirs move", theirs: []func(Tree){move("C", "B", "a1")}, want: []func(Tree){move("C", "B", "a1")}, changed: []string{"C"}},
		{name: "theirs move to root", theirs: []func(Tree){move("C", "", "a2")}, want: []func(Tree){move("C", "", "a2")}, changed: []string{"C"}},
		{name: "theirs reorder", theirs: []func(Tree){move("C", "A", "a2")}, want: []func(Tree){move("C", "A", "a2")}, changed: []string{"C"}},
		{
			name:    "different properties of one page on each side",
			ours:    []func(Tree){setTitle("C", "ours"), setMeta("C", "ours")},
			theirs:  []func(Tree){setContent("C", "theirs"), move("C", "B", "a1")},
			want:    []func(Tree){setTitle("C", "ours"), setMeta("C", "ours"), setContent("C", "theirs"), move("C", "B", "a1")},
			changed: []string{"C"},
		},
		{
			name:    "unrelated edits on both sides",
			ours:    []func(Tree){setTitle("C", "ours"), move("E", "A", "a2")},
			theirs:  []func(Tree){setContent("D", "theirs"), move("A", "", "a2")},
			want:    []func(Tree){setTitle("C", "ours"), move("E", "A", "a2"), setContent("D", "theirs"), move("A", "", "a2")},
			changed: []string{"A", "D"},
		},

		// Identical edits on both sides.
		{
			name:   "identical edits",
			ours:   []func(Tree){setTitle("C", "t"), setContent("C", "c"), setMeta("C", "m"), move("C", "B", "b")},
			theirs: []func(Tree){setTitle("C", "t"), setContent("C", "c"), setMeta("C", "m"), move("C", "B", "b")},
			want:   []func(Tree){setTitle("C", "t"), setContent("C", "c"), setMeta("C", "m"), move("C", "B", "b")},
		},
		{name: "both moved to the same place", ours: []func(Tree){move("D", "B", "a5")}, theirs: []func(Tree){move("D", "B", "a5")}, want: []func(Tree){move("D", "B", "a5")}},

		// Property conflicts.
		{
			name:      "title conflict",
			ours:      []func(Tree){setTitle("C", "ours")},
			theirs:    []func(Tree){setTitle("C", "theirs")},
			want:      []func(Tree){setTitle("C", "ours")},
			conflicts: []string{"C:title"},
		},
		{
			name:      "content conflict",
			ours:      []func(Tree){setContent("C", "ours")},
			theirs:    []func(Tree){setContent("C", "theirs")},
			want:      []func(Tree){setContent("C", "ours")},
			conflicts: []string{"C:content"},
		},
		{
			name:      "meta conflict",
			ours:      []func(Tree){setMeta("C", "ours")},
			theirs:    []func(Tree){setMeta("C", "theirs")},
			want:      []func(Tree){setMeta("C", "ours")},
			conflicts: []string{"C:meta"},
		},
		{
			name:      "moved to different parents",
			ours:      []func(Tree){move("E", "A", "a2")},
			theirs:    []func(Tree){move("E", "", "a2")},
			want:      []func(Tree){move("E", "A", "a2")},
			conflicts: []string{"E:move"},
		},
		{
			name:      "moved to the same parent at different positions",
			ours:      []func(Tree){move("E", "A", "a2")},
			theirs:    []func(Tree){move("E", "A", "a3")},
			want:      []func(Tree){move("E", "A", "a2")},
			conflicts: []string{"E:move"},
		},
		{
			name:      "several conflicts on one page are sorted by kind",
			ours:      []func(Tree){setTitle("C", "o"), setContent("C", "o"), setMeta("C", "o"), move("C", "B", "o"), setTitle("A", "o")},
			theirs:    []func(Tree){setTitle("C", "t"), setContent("C", "t"), setMeta("C", "t"), move("C", "", "t"), setTitle("A", "t")},
			want:      []func(Tree){setTitle("C", "o"), setContent("C", "o"), setMeta("C", "o"), move("C", "B", "o"), setTitle("A", "o")},
			conflicts: []string{"A:title", "C:content", "C:meta", "C:move", "C:title"},
		},

		// Deletions.
		{name: "ours deletes unchanged leaf", ours: []func(Tree){del("D")}, want: []func(Tree){del("D")}},
		{name: "theirs deletes unchanged leaf", theirs: []func(Tree){del("D")}, want: []func(Tree){del("D")}, changed: []string{"D"}},
		{name: "theirs deletes unchanged subtree", theirs: []func(Tree){del("A", "C", "D")}, want: []func(Tree){del("A", "C", "D")}, changed: []string{"A", "C", "D"}},
		{name: "both delete", ours: []func(Tree){del("B", "E")}, theirs: []func(Tree){del("E")}, want: []func(Tree){del("B", "E")}},
		{
			name:      "ours deletes, theirs edits",
			ours:      []func(Tree){del("D")},
			theirs:    []func(Tree){setContent("D", "theirs")},
			want:      []func(Tree){setContent("D", "theirs")},
			conflicts: []string{"D:delete-edit"},
			changed:   []string{"D"},
		},
		{
			name:      "ours edits, theirs deletes",
			ours:      []func(Tree){setMeta("D", "ours")},
			theirs:    []func(Tree){del("D")},
			want:      []func(Tree){setMeta("D", "ours")},
			conflicts: []string{"D:edit-delete"},
		},
		{
			name:      "ours deletes, theirs moves",
			ours:      []func(Tree){del("D")},
			theirs:    []func(Tree){move("D", "B", "a1")},
			want:      []func(Tree){move("D", "B", "a1")},
			conflicts: []string{"D:delete-edit"},
			changed:   []string{"D"},
		},
		{
			name:      "ours deletes subtree, theirs edits a child",
			ours:      []func(Tree){del("A", "C", "D")},
			theirs:    []func(Tree){setTitle("C", "theirs")},
			want:      []func(Tree){del("A", "D"), setTitle("C", "theirs")},
			conflicts: []string{"A:delete-edit", "C:delete-edit"},
			changed:   []string{"C"},
		},
		{
			name:      "orphan: ours deletes a page, theirs adds a child",
			ours:      []func(Tree){del("E")},
			theirs:    []func(Tree){add(pg("X", "E", "a0"))},
			want:      []func(Tree){del("E"), add(pg("X", "E", "a0"))},
			conflicts: []string{"E:delete-edit"},
			changed:   []string{"X"},
		},
		{
			name:      "orphan: theirs deletes a page, ours moves a page under it",
			ours:      []func(Tree){move("C", "E", "a0")},
			theirs:    []func(Tree){del("B", "E")},
			want:      []func(Tree){del("B", "E"), move("C", "E", "a0")},
			conflicts: []string{"E:edit-delete"},
			changed:   []string{"B", "E"},
		},

		// Additions.
		{name: "ours adds", ours: []func(Tree){add(pg("X", "A", "a2"))}, want: []func(Tree){add(pg("X", "A", "a2"))}},
		{name: "theirs adds", theirs: []func(Tree){add(pg("X", "A", "a2"))}, want: []func(Tree){add(pg("X", "A", "a2"))}, changed: []string{"X"}},
		{
			name:    "theirs adds a subtree",
			theirs:  []func(Tree){add(pg("X", "A", "a2")), add(pg("Y", "X", "a0"))},
			want:    []func(Tree){add(pg("X", "A", "a2")), add(pg("Y", "X", "a0"))},
			changed: []string{"X", "Y"},
		},
		{name: "identical add on both sides", ours: []func(Tree){add(pg("X", "A", "a2"))}, theirs: []func(Tree){add(pg("X", "A", "a2"))}, want: []func(Tree){add(pg("X", "A", "a2"))}},
		{
			name:      "different add with the same id",
			ours:      []func(Tree){add(pg("X", "A", "a2"))},
			theirs:    []func(Tree){add(pg("X", "A", "a2")), setTitle("X", "other")},
			want:      []func(Tree){add(pg("X", "A", "a2"))},
			conflicts: []string{"X:add-add"},
		},
		{
			name:      "different add with the same id at different places",
			ours:      []func(Tree){add(pg("X", "A", "a2")), add(pg("Y", "X", "a0"))},
			theirs:    []func(Tree){add(pg("X", "B", "a2"))},
			want:      []func(Tree){add(pg("X", "A", "a2")), add(pg("Y", "X", "a0"))},
			conflicts: []string{"X:add-add"},
		},

		// Same (Parent, Position) for different pages is not a conflict.
		{
			name:    "two adds at the same key",
			ours:    []func(Tree){add(pg("X", "A", "a5"))},
			theirs:  []func(Tree){add(pg("Y", "A", "a5"))},
			want:    []func(Tree){add(pg("X", "A", "a5")), add(pg("Y", "A", "a5"))},
			changed: []string{"Y"},
		},
		{
			name:    "move onto an existing key",
			theirs:  []func(Tree){move("E", "A", "a1")}, // D is at (A, a1)
			want:    []func(Tree){move("E", "A", "a1")},
			changed: []string{"E"},
		},

		// Cycles.
		{
			name:      "A under B on one side, B under A on the other",
			ours:      []func(Tree){move("B", "A", "a9")},
			theirs:    []func(Tree){move("A", "B", "a9")},
			want:      []func(Tree){move("B", "A", "a9"), move("A", "B", "a9")},
			conflicts: []string{"A:cycle", "B:cycle"},
			changed:   []string{"A"},
		},
		{
			name: "longer cycle through unmoved pages",
			// Ours: A under E (child of B); theirs: B under C (child of A).
			// Merged: A → E → B → C → A; only A and B moved.
			ours:      []func(Tree){move("A", "E", "a9")},
			theirs:    []func(Tree){move("B", "C", "a9")},
			want:      []func(Tree){move("A", "E", "a9"), move("B", "C", "a9")},
			conflicts: []string{"A:cycle", "B:cycle"},
			changed:   []string{"B"},
		},
		{
			name:    "moves into each other's former subtree without cycle",
			ours:    []func(Tree){move("E", "C", "a0")},
			theirs:  []func(Tree){move("D", "E", "a0")},
			want:    []func(Tree){move("E", "C", "a0"), move("D", "E", "a0")},
			changed: []string{"D"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := base
			if tc.base != nil {
				b = tc.base
			}
			ours := apply(b, tc.ours...)
			theirs := apply(b, tc.theirs...)
			want := tc.wantTree
			if want == nil {
				want = apply(b, tc.want...)
			}
			snapshot := []Tree{maps.Clone(b), maps.Clone(ours), maps.Clone(theirs)}

			r := ThreeWay(b, ours, theirs)
			if got := conflictKeys(r.Conflicts); !slices.Equal(got, tc.conflicts) {
				t.Errorf("conflicts = %v, want %v\n%v", got, tc.conflicts, r.Conflicts)
			}
			if !maps.Equal(r.Tree, want) {
				t.Errorf("tree =\n%v\nwant\n%v", r.Tree, want)
			}
			if !slices.Equal(r.Changed, tc.changed) {
				t.Errorf("changed = %v, want %v", r.Changed, tc.changed)
			}
			if got := changedVsOurs(ours, r.Tree); !slices.Equal(got, r.Changed) {
				t.Errorf("changed = %v, inconsistent with tree (%v)", r.Changed, got)
			}
			for _, c := range r.Conflicts {
				if c.Message == "" {
					t.Errorf("conflict %s:%s without message", c.PageID, c.Kind)
				}
			}
			if len(r.Conflicts) == 0 {
				if err := validTree(r.Tree); err != nil {
					t.Errorf("clean merge produced an invalid tree: %v", err)
				}
			}
			for i, in := range []Tree{b, ours, theirs} {
				if !maps.Equal(in, snapshot[i]) {
					t.Errorf("input %d modified", i)
				}
			}

			// Symmetry.
			s := ThreeWay(b, theirs, ours)
			if got, want := conflictKeys(s.Conflicts), swappedKeys(r.Conflicts); !slices.Equal(got, want) {
				t.Errorf("swapped conflicts = %v, want %v", got, want)
			}
			if len(r.Conflicts) == 0 && !maps.Equal(s.Tree, r.Tree) {
				t.Errorf("swapped merge differs:\n%v\n%v", s.Tree, r.Tree)
			}
		})
	}
}
