package merge

import (
	"fmt"
	"maps"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

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
