package merge

import (
	"fmt"
	"maps"
	"math/rand"
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

func TestConflictMessages(t *testing.T) {
	base := stdBase()
	r := ThreeWay(base, apply(base, move("B", "A", "a9")), apply(base, move("A", "B", "a9")))
	for _, c := range r.Conflicts {
		if !strings.Contains(c.Message, "A → B → A") {
			t.Errorf("cycle message %q does not describe the cycle", c.Message)
		}
	}
	r = ThreeWay(base, apply(base, del("E")), apply(base, add(pg("Y", "E", "a1")), add(pg("X", "E", "a0"))))
	if len(r.Conflicts) != 1 || !strings.Contains(r.Conflicts[0].Message, "orphaned: X, Y") {
		t.Errorf("orphan conflicts = %v", r.Conflicts)
	}
	r = ThreeWay(base, apply(base, setTitle("C", "Ours")), apply(base, setTitle("C", "Theirs")))
	if len(r.Conflicts) != 1 || !strings.Contains(r.Conflicts[0].Message, `ours "Ours", theirs "Theirs"`) {
		t.Errorf("title conflicts = %v", r.Conflicts)
	}
}

func bigTree(n int) Tree {
	r := rand.New(rand.NewSource(int64(n)))
	t := Tree{}
	for i := range n {
		id := fmt.Sprintf("p%05d", i)
		parent := ""
		if i >= 10 {
			parent = fmt.Sprintf("p%05d", r.Intn(i)) // some earlier page
		}
		t[id] = pg(id, parent, fmt.Sprintf("a%d", i%50))
	}
	return t
}

func TestManyUnrelatedEdits(t *testing.T) {
	base := bigTree(1000)
	ours, theirs := maps.Clone(base), maps.Clone(base)
	want := maps.Clone(base)
	var wantChanged []string
	for i := range 100 {
		id := fmt.Sprintf("p%05d", i)
		p := ours[id]
		p.Title = "ours " + id
		ours[id] = p
		want[id] = p
	}
	for i := 100; i < 200; i++ {
		id := fmt.Sprintf("p%05d", i)
		p := theirs[id]
		p.Content = "theirs " + id
		if i%10 == 0 {
			p.Parent, p.Position = "", "z"
		}
		theirs[id] = p
		want[id] = p
		wantChanged = append(wantChanged, id)
	}
	// Theirs also adds pages.
	for i := range 5 {
		id := fmt.Sprintf("new%d", i)
		theirs[id] = pg(id, "p00001", "b")
		want[id] = theirs[id]
		wantChanged = append(wantChanged, id)
	}
	slices.Sort(wantChanged)

	r := ThreeWay(base, ours, theirs)
	if len(r.Conflicts) != 0 {
		t.Fatalf("conflicts: %v", r.Conflicts)
	}
	if !maps.Equal(r.Tree, want) {
		t.Errorf("unexpected merged tree")
	}
	if !slices.Equal(r.Changed, wantChanged) {
		t.Errorf("changed = %v, want %v", r.Changed, wantChanged)
	}

	// The other direction: merged relative to theirs.
	s := ThreeWay(base, theirs, ours)
	if len(s.Conflicts) != 0 || !maps.Equal(s.Tree, want) {
		t.Fatalf("swapped merge differs: %v", s.Conflicts)
	}
	if len(s.Changed) != 100 || s.Changed[0] != "p00000" || s.Changed[99] != "p00099" {
		t.Errorf("swapped changed = %v", s.Changed)
	}
}

func TestDiff(t *testing.T) {
	base := stdBase()
	head := apply(base,
		del("D"),
		add(pg("X", "B", "a1")),
		setTitle("C", "new"), move("C", "B", "a2"),
		move("E", "B", "a5"),
		move("A", "", "a3"),
		setMeta("B", "m"),
	)
	got := Diff(base, head)
	type row struct {
		id, kind, fields string
	}
	var rows []row
	for _, c := range got {
		rows = append(rows, row{c.PageID, c.Kind, strings.Join(c.Fields, ",")})
		if c.Kind != ChangeAdded && c.Before != base[c.PageID] {
			t.Errorf("%s: Before = %v", c.PageID, c.Before)
		}
		if c.Kind != ChangeRemoved && c.After != head[c.PageID] {
			t.Errorf("%s: After = %v", c.PageID, c.After)
		}
	}
	want := []row{
		{"A", ChangeMoved, "position"},
		{"B", ChangeModified, "meta"},
		{"C", ChangeModified, "parent,position,title"},
		{"D", ChangeRemoved, ""},
		{"E", ChangeMoved, "position"},
		{"X", ChangeAdded, ""},
	}
	if !slices.Equal(rows, want) {
		t.Errorf("Diff =\n%v\nwant\n%v", rows, want)
	}
	if d := Diff(base, base); len(d) != 0 {
		t.Errorf("Diff of identical trees = %v", d)
	}
}

// applyDiff rebuilds head from base and Diff(base, head).
func applyDiff(base Tree, changes []Change) Tree {
	t := maps.Clone(base)
	for _, c := range changes {
		if c.Kind == ChangeRemoved {
			delete(t, c.PageID)
		} else {
			t[c.PageID] = c.After
		}
	}
	return t
}

// --- property tests ---

func randPos(r *rand.Rand) string { return fmt.Sprintf("a%d", r.Intn(8)) }

func randomTree(r *rand.Rand, n int) Tree {
	t := Tree{}
	var ids []string
	for i := range n {
		id := fmt.Sprintf("p%03d", i)
		parent := ""
		if len(ids) > 0 && r.Intn(4) != 0 {
			parent = ids[r.Intn(len(ids))]
		}
		t[id] = pg(id, parent, randPos(r))
		ids = append(ids, id)
	}
	return t
}

func subtree(t Tree, root string) map[string]bool {
	children := map[string][]string{}
	for id, p := range t {
		children[p.Parent] = append(children[p.Parent], id)
	}
	out := map[string]bool{}
	stack := []string{root}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out[id] = true
		stack = append(stack, children[id]...)
	}
	return out
}

// mutate applies ops random valid operations to a copy of base. Values are
// drawn from small pools so that both sides often make the same edit.
func mutate(r *rand.Rand, base Tree, side string, ops int) Tree {
	t := maps.Clone(base)
	for op := range ops {
		ids := slices.Sorted(maps.Keys(t))
		if len(ids) == 0 {
			break
		}
		id := ids[r.Intn(len(ids))]
		p := t[id]
		switch r.Intn(9) {
		case 0:
			p.Title = fmt.Sprintf("title %d", r.Intn(3))
		case 1:
			p.Content = fmt.Sprintf("content %d", r.Intn(3))
		case 2:
			p.Meta = fmt.Sprintf("meta %d", r.Intn(3))
		case 3:
			p.Position = randPos(r)
		case 4, 5:
			sub := subtree(t, id)
			var targets []string
			for _, c := range ids {
				if !sub[c] {
					targets = append(targets, c)
				}
			}
			p.Parent = ""
			if len(targets) > 0 && r.Intn(4) != 0 {
				p.Parent = targets[r.Intn(len(targets))]
			}
			p.Position = randPos(r)
		case 6:
			for c := range subtree(t, id) {
				delete(t, c)
			}
			continue
		case 7:
			// Side-specific ids: never collide.
			nid := fmt.Sprintf("%s-new%d", side, op)
			t[nid] = pg(nid, id, randPos(r))
			continue
		case 8:
			// Shared ids: sometimes added on both sides.
			nid := fmt.Sprintf("shared%d", r.Intn(2))
			if _, ok := t[nid]; !ok {
				np := pg(nid, "", "a0")
				np.Title = fmt.Sprintf("title %d", r.Intn(2))
				t[nid] = np
			}
			continue
		}
		t[id] = p
	}
	return t
}

func TestThreeWayProperties(t *testing.T) {
	r := rand.New(rand.NewSource(42))
	kinds := map[string]int{}
	clean := 0
	const iterations = 3000
	for it := range iterations {
		base := randomTree(r, 1+r.Intn(30))
		ours := mutate(r, base, "o", r.Intn(8))
		theirs := mutate(r, base, "t", r.Intn(8))
		for _, tr := range []Tree{base, ours, theirs} {
			if err := validTree(tr); err != nil {
				t.Fatalf("generator produced an invalid tree: %v", err)
			}
		}
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("iteration %d: %s\nbase   %v\nours   %v\ntheirs %v", it, fmt.Sprintf(format, args...), base, ours, theirs)
		}

		// Theirs == base: ours unchanged, nothing to change.
		if res := ThreeWay(base, ours, base); len(res.Conflicts) != 0 || !maps.Equal(res.Tree, ours) || len(res.Changed) != 0 {
			fail("merge with theirs == base: %v %v", res.Conflicts, res.Changed)
		}
		// Ours == base: theirs, with its diff as changes.
		res := ThreeWay(base, base, theirs)
		var diffIDs []string
		for _, c := range Diff(base, theirs) {
			diffIDs = append(diffIDs, c.PageID)
		}
		if len(res.Conflicts) != 0 || !maps.Equal(res.Tree, theirs) || !slices.Equal(res.Changed, diffIDs) {
			fail("merge with ours == base: %v %v %v", res.Conflicts, res.Changed, diffIDs)
		}
		// Same change on both sides.
		if res := ThreeWay(base, ours, ours); len(res.Conflicts) != 0 || !maps.Equal(res.Tree, ours) || len(res.Changed) != 0 {
			fail("merge of identical sides: %v", res.Conflicts)
		}
		// Diff round-trips.
		if got := applyDiff(base, Diff(base, ours)); !maps.Equal(got, ours) {
			fail("Diff does not round-trip")
		}

		res = ThreeWay(base, ours, theirs)
		swapped := ThreeWay(base, theirs, ours)
		if got, want := conflictKeys(swapped.Conflicts), swappedKeys(res.Conflicts); !slices.Equal(got, want) {
			fail("asymmetric conflicts: %v vs %v", res.Conflicts, swapped.Conflicts)
		}
		if !slices.Equal(res.Changed, changedVsOurs(ours, res.Tree)) {
			fail("changed %v inconsistent", res.Changed)
		}
		if !slices.Equal(swapped.Changed, changedVsOurs(theirs, swapped.Tree)) {
			fail("swapped changed %v inconsistent", swapped.Changed)
		}
		// Deterministic, including messages.
		again := ThreeWay(base, ours, theirs)
		if !slices.Equal(again.Conflicts, res.Conflicts) || !maps.Equal(again.Tree, res.Tree) {
			fail("non-deterministic result")
		}
		if !slices.IsSortedFunc(res.Conflicts, func(a, b Conflict) int {
			if c := strings.Compare(a.PageID, b.PageID); c != 0 {
				return c
			}
			return strings.Compare(a.Kind, b.Kind)
		}) {
			fail("conflicts not sorted: %v", res.Conflicts)
		}
		for _, c := range res.Conflicts {
			kinds[c.Kind]++
		}
		if len(res.Conflicts) > 0 {
			continue
		}

		clean++
		if !maps.Equal(res.Tree, swapped.Tree) {
			fail("clean merge is not symmetric")
		}
		if err := validTree(res.Tree); err != nil {
			fail("clean merge produced an invalid tree: %v", err)
		}
		// Every property comes from a side, and a side that did not change a
		// property yields to the other.
		for id, p := range res.Tree {
			o, inO := ours[id]
			th, inT := theirs[id]
			b, inB := base[id]
			if !inO && !inT {
				fail("page %s appeared from nowhere", id)
			}
			if inB && inO && inT {
				for _, f := range []func(Page) string{
					func(p Page) string { return p.Parent + "\x00" + p.Position },
					func(p Page) string { return p.Title },
					func(p Page) string { return p.Content },
					func(p Page) string { return p.Meta },
				} {
					want := f(o)
					if f(o) == f(b) {
						want = f(th)
					}
					if f(p) != want {
						fail("page %s: property %q, want %q", id, f(p), want)
					}
				}
			}
		}
		for id := range base {
			_, inO := ours[id]
			_, inT := theirs[id]
			if _, kept := res.Tree[id]; kept != (inO && inT) {
				fail("page %s: kept=%v although ours=%v theirs=%v", id, kept, inO, inT)
			}
		}
	}
	t.Logf("%d/%d clean merges; conflict kinds: %v", clean, iterations, kinds)
	if clean < iterations/10 || clean > iterations*9/10 {
		t.Errorf("generator is unbalanced: %d/%d clean merges", clean, iterations)
	}
	for _, k := range []string{KindContent, KindTitle, KindMeta, KindMove, KindDeleteEdit, KindEditDelete, KindAddAdd, KindCycle} {
		if kinds[k] == 0 {
			t.Errorf("property test never produced a %q conflict", k)
		}
	}
}

// TestDisjointEditsProperty: property edits and moves to distinct pages on
// each side always merge cleanly into the union of the edits.
func TestDisjointEditsProperty(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for it := range 500 {
		base := randomTree(r, 2+r.Intn(40))
		ids := slices.Sorted(maps.Keys(base))
		ours, theirs, want := maps.Clone(base), maps.Clone(base), maps.Clone(base)
		var changed []string
		for _, id := range ids {
			side := r.Intn(3) // 0: untouched, 1: ours, 2: theirs
			if side == 0 {
				continue
			}
			p := base[id]
			switch r.Intn(4) {
			case 0:
				p.Title = "edited"
			case 1:
				p.Content = "edited"
			case 2:
				p.Meta = "edited"
			case 3:
				p.Position = "edited" // reorder only: never creates cycles
			}
			want[id] = p
			if side == 1 {
				ours[id] = p
			} else {
				theirs[id] = p
				changed = append(changed, id)
			}
		}
		res := ThreeWay(base, ours, theirs)
		if len(res.Conflicts) != 0 || !maps.Equal(res.Tree, want) || !slices.Equal(res.Changed, changed) {
			t.Fatalf("iteration %d: conflicts %v, changed %v want %v", it, res.Conflicts, res.Changed, changed)
		}
	}
}

func BenchmarkThreeWay10k(b *testing.B) {
	base := bigTree(10000)
	ours, theirs := maps.Clone(base), maps.Clone(base)
	r := rand.New(rand.NewSource(1))
	ids := slices.Sorted(maps.Keys(base))
	perm := r.Perm(len(ids))
	for i, k := range perm[:200] {
		id := ids[k]
		if i < 100 {
			p := theirs[id]
			p.Content = "theirs"
			theirs[id] = p
		} else {
			p := ours[id]
			p.Title = "ours"
			ours[id] = p
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		res := ThreeWay(base, ours, theirs)
		if len(res.Conflicts) != 0 || len(res.Changed) != 100 {
			b.Fatalf("unexpected result: %d conflicts, %d changed", len(res.Conflicts), len(res.Changed))
		}
	}
}
