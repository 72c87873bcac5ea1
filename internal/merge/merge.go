// Package merge implements the page-level three-way merge used to merge a
// change request into its space and to update a change request from its
// space.
//
// A revision is seen as a [Tree]: a map from page id to [Page], where a page
// carries its place in the tree (Parent and Position) and fingerprints of its
// title, content and other properties. Page ids are stable across revisions,
// so the merge matches pages by id.
//
// # Three-way merge
//
// [ThreeWay] takes the common ancestor (base) and the two sides (ours and
// theirs). Merging a change request uses base = the change request's base
// revision, ours = the space's current revision and theirs = the change
// request's head; updating a change request swaps ours and theirs.
//
// Every page id of base ∪ ours ∪ theirs is merged on its own, and each
// property of a page independently:
//
//   - Title, Content and Meta are three properties; the location — Parent and
//     Position together — is a fourth. A property changed on one side only
//     takes that side's value; a property changed identically on both sides
//     takes that value; a property changed differently on both sides is a
//     conflict of Kind "title", "content", "meta" or "move" respectively.
//     Moving a page to the same parent with different Position keys on the
//     two sides is a "move" conflict too.
//   - A page deleted on one side and unchanged on the other is deleted;
//     deleted on one side and edited (any property, including its location)
//     on the other is a conflict: "delete-edit" when ours deleted it and
//     theirs edited it, "edit-delete" the other way round. Deleted on both
//     sides it is deleted.
//   - A page added on one side only is added. Added on both sides with the
//     same id it is kept if both versions are identical and is an "add-add"
//     conflict otherwise.
//
// The merged tree is then checked as a whole:
//
//   - Orphans: a kept page whose parent was deleted (the parent was deleted
//     on one side and left unchanged on the other, while the other side added
//     or moved a page under it, or edited a child the first side deleted
//     along with it). The conflict is reported on the deleted parent, with
//     Kind "delete-edit" when ours deleted it and "edit-delete" when theirs
//     did, and a message naming the orphaned pages. Nothing is re-attached:
//     in Result.Tree the orphans still point at the missing parent.
//   - Cycles: moves from both sides can combine into a cycle even though
//     each side is a valid tree (A moved under B on one side, B moved under
//     A on the other). Each page of the cycle whose location differs from
//     base (the moved pages, not the ones merely carried along) is reported
//     with Kind "cycle"; the message lists the whole cycle.
//
// Pages whose location is itself in conflict ("move", or "add-add" with
// different locations) are left out of both checks: their final location is
// undecided, so they neither get orphan conflicts nor take part in cycles.
//
// Two different pages ending with the same (Parent, Position) are not a
// conflict: both keep their keys, and readers order siblings with equal
// Position by page id. Likewise, the merge does not re-key positions.
//
// # Result
//
// When Result.Conflicts is not empty the caller must change nothing;
// Result.Tree is then only a best-effort merge for diagnostics, built as
// follows: a property in conflict keeps ours' value; a page deleted on one
// side and edited on the other is kept in its edited version; a page added
// on both sides keeps ours' version; orphans are kept as they are.
//
// Conflicts are sorted by page id, then Kind, then Message. Changed lists,
// sorted, the ids whose merged value differs from ours (added, removed or
// modified relative to ours), i.e. what applying Result.Tree onto ours would
// write.
//
// Input trees are assumed valid: every non-empty Parent names a page of the
// same tree, there are no cycles, and each map key equals its page's ID (the
// key wins if they differ). The inputs are never modified.
package merge

import (
	"fmt"
	"slices"
	"strings"
)

// Page is what the merge sees of a page: its identity, place in the tree and
// content fingerprint.
type Page struct {
	ID       string
	Parent   string // "" for the root level
	Position string // fractional ordering key among siblings (plain string comparison)
	Title    string
	Content  string // a content hash or serialized content; compared for equality only
	Meta     string // hash of other properties (emoji, description, hidden, layout, cover, variables...), compared for equality
}

// Tree is a revision's pages by id.
type Tree map[string]Page

// Conflict kinds.
const (
	KindContent    = "content"     // content changed differently on both sides
	KindTitle      = "title"       // title changed differently on both sides
	KindMeta       = "meta"        // other properties changed differently on both sides
	KindMove       = "move"        // (Parent, Position) changed differently on both sides
	KindDeleteEdit = "delete-edit" // deleted in ours, edited in theirs (or orphans kept by theirs)
	KindEditDelete = "edit-delete" // edited in ours, deleted in theirs (or orphans kept by ours)
	KindAddAdd     = "add-add"     // added on both sides with the same id and different values
	KindCycle      = "cycle"       // the combined moves of both sides create a cycle
)

// Conflict is one reason why a merge cannot be applied automatically.
type Conflict struct {
	PageID  string
	Kind    string // one of the Kind* constants
	Message string // human-readable explanation; refers to the sides as "ours" and "theirs"
}

// Result is the outcome of [ThreeWay].
type Result struct {
	// Tree is the merged tree. When Conflicts is not empty it is only a
	// best-effort merge for diagnostics.
	Tree Tree
	// Conflicts, sorted by page id, then Kind, then Message.
	Conflicts []Conflict
	// Changed lists, sorted, the ids whose merged value differs from ours:
	// pages added, removed or modified relative to ours.
	Changed []string
}

// Property names, as used in messages and in [Change.Fields].
const (
	FieldParent   = "parent"
	FieldPosition = "position"
	FieldTitle    = "title"
	FieldContent  = "content"
	FieldMeta     = "meta"
)

// samePage reports whether a and b have the same properties (ids are not
// compared: the callers compare pages stored under the same key).
func samePage(a, b Page) bool {
	return a.Parent == b.Parent && a.Position == b.Position &&
		a.Title == b.Title && a.Content == b.Content && a.Meta == b.Meta
}

func sameLocation(a, b Page) bool {
	return a.Parent == b.Parent && a.Position == b.Position
}

// changedFields lists the properties that differ between a and b, in the
// order parent, position, title, content, meta.
func changedFields(a, b Page) []string {
	var f []string
	if a.Parent != b.Parent {
		f = append(f, FieldParent)
	}
	if a.Position != b.Position {
		f = append(f, FieldPosition)
	}
	if a.Title != b.Title {
		f = append(f, FieldTitle)
	}
	if a.Content != b.Content {
		f = append(f, FieldContent)
	}
	if a.Meta != b.Meta {
		f = append(f, FieldMeta)
	}
	return f
}

// merge3 merges one property. ok is false when both sides changed it
// differently; v is then ours' value.
func merge3(b, o, t string) (v string, ok bool) {
	switch {
	case o == t, t == b:
		return o, true
	case o == b:
		return t, true
	}
	return o, false
}

type merger struct {
	base, ours, theirs Tree
	out                Tree
	conflicts          []Conflict
	// undecided holds the pages whose location is in conflict; they are
	// skipped by the orphan and cycle checks.
	undecided map[string]bool
	// changed lists the ids whose merged value differs from ours.
	changed []string
	// relocated lists the kept pages whose merged location differs from
	// ours' (including pages ours does not have).
	relocated []string
}

// ThreeWay merges ours and theirs, two descendants of base. See the package
// documentation for the semantics.
func ThreeWay(base, ours, theirs Tree) Result {
	m := &merger{
		base:      base,
		ours:      ours,
		theirs:    theirs,
		out:       make(Tree, max(len(ours), len(theirs))),
		undecided: map[string]bool{},
	}
	for id := range base {
		m.mergePage(id)
	}
	for id := range ours {
		if _, ok := base[id]; !ok {
			m.mergePage(id)
		}
	}
	for id := range theirs {
		if _, ok := base[id]; ok {
			continue
		}
		if _, ok := ours[id]; ok {
			continue
		}
		m.mergePage(id)
	}
	m.checkOrphans()
	m.checkCycles()

	slices.SortFunc(m.conflicts, func(a, b Conflict) int {
		if c := strings.Compare(a.PageID, b.PageID); c != 0 {
			return c
		}
		if c := strings.Compare(a.Kind, b.Kind); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})

	slices.Sort(m.changed)
	return Result{Tree: m.out, Conflicts: m.conflicts, Changed: m.changed}
}

func (m *merger) conflict(id, kind, format string, args ...any) {
	m.conflicts = append(m.conflicts, Conflict{PageID: id, Kind: kind, Message: fmt.Sprintf(format, args...)})
}

func (m *merger) mergePage(id string) {
	b, inB := m.base[id]
	o, inO := m.ours[id]
	t, inT := m.theirs[id]
	var p Page
	kept := true
	switch {
	case inB && inO && inT:
		p = m.mergeKept(id, b, o, t)
	case inB && inO: // deleted in theirs
		kept = !samePage(b, o)
		if kept {
			m.conflict(id, KindEditDelete, "page edited in ours (%s) but deleted in theirs",
				strings.Join(changedFields(b, o), ", "))
			p = o
		}
	case inB && inT: // deleted in ours
		kept = !samePage(b, t)
		if kept {
			m.conflict(id, KindDeleteEdit, "page deleted in ours but edited in theirs (%s)",
				strings.Join(changedFields(b, t), ", "))
			p = t
		}
	case inB: // deleted on both sides
		kept = false
	case inO && inT:
		if !samePage(o, t) {
			m.conflict(id, KindAddAdd, "page added on both sides with different %s",
				strings.Join(changedFields(o, t), ", "))
			if !sameLocation(o, t) {
				m.undecided[id] = true
			}
		}
		p = o
	case inO:
		p = o
	default:
		p = t
	}
	if !kept {
		if inO {
			m.changed = append(m.changed, id)
		}
		return
	}
	p.ID = id
	m.out[id] = p
	if !inO || !samePage(o, p) {
		m.changed = append(m.changed, id)
	}
	if !inO || !sameLocation(o, p) {
		m.relocated = append(m.relocated, id)
	}
}

func (m *merger) mergeKept(id string, b, o, t Page) Page {
	p := o
	switch {
	case sameLocation(o, t), sameLocation(t, b):
	case sameLocation(o, b):
		p.Parent, p.Position = t.Parent, t.Position
	default:
		m.conflict(id, KindMove, "page moved differently on both sides: ours %s, theirs %s (base %s)",
			describeLocation(o), describeLocation(t), describeLocation(b))
		m.undecided[id] = true
	}
	var ok bool
	if p.Title, ok = merge3(b.Title, o.Title, t.Title); !ok {
		m.conflict(id, KindTitle, "title changed differently on both sides: ours %q, theirs %q (base %q)",
			o.Title, t.Title, b.Title)
	}
	if p.Content, ok = merge3(b.Content, o.Content, t.Content); !ok {
		m.conflict(id, KindContent, "content changed differently on both sides")
	}
	if p.Meta, ok = merge3(b.Meta, o.Meta, t.Meta); !ok {
		m.conflict(id, KindMeta, "page properties (emoji, icon, link title, description, visibility, indexing, meta links, layout, cover, variables) changed differently on both sides")
	}
	return p
}

func describeLocation(p Page) string {
	if p.Parent == "" {
		return fmt.Sprintf("at the root level at position %q", p.Position)
	}
	return fmt.Sprintf("under page %s at position %q", p.Parent, p.Position)
}

// checkOrphans reports kept pages whose parent is not in the merged tree,
// grouped by parent.
func (m *merger) checkOrphans() {
	var orphans map[string][]string // missing parent -> children
	for id, p := range m.out {
		if p.Parent == "" || m.undecided[id] {
			continue
		}
		if _, ok := m.out[p.Parent]; ok {
			continue
		}
		if orphans == nil {
			orphans = map[string][]string{}
		}
		orphans[p.Parent] = append(orphans[p.Parent], id)
	}
	for parent, children := range orphans {
		slices.Sort(children)
		list := strings.Join(children, ", ")
		// The merged location of a child comes from a side where the parent
		// exists, so the parent is missing because the other side deleted it.
		if _, ok := m.ours[parent]; ok {
			m.conflict(parent, KindEditDelete,
				"page deleted in theirs but ours keeps pages under it, which would be orphaned: %s", list)
		} else {
			m.conflict(parent, KindDeleteEdit,
				"page deleted in ours but theirs keeps pages under it, which would be orphaned: %s", list)
		}
	}
}

// checkCycles reports the pages of every cycle of parent links in the
// merged tree. Ours is acyclic, so every cycle goes through a page whose
// location differs from ours: walking up from those pages finds them all.
func (m *merger) checkCycles() {
	const (
		unvisited = iota
		onPath
		done
	)
	state := make(map[string]uint8, len(m.relocated))
	var path []string
	for _, start := range m.relocated {
		path = path[:0]
		for cur := start; ; {
			if s := state[cur]; s == done {
				break
			} else if s == onPath {
				i := slices.Index(path, cur)
				m.reportCycle(path[i:])
				break
			}
			state[cur] = onPath
			path = append(path, cur)
			p := m.out[cur]
			if p.Parent == "" || m.undecided[cur] {
				break
			}
			if _, ok := m.out[p.Parent]; !ok {
				break // orphan, reported separately
			}
			cur = p.Parent
		}
		for _, id := range path {
			state[id] = done
		}
	}
}

func (m *merger) reportCycle(cycle []string) {
	// Rotate so that the smallest id comes first: the message does not
	// depend on map iteration order.
	first := 0
	for i, id := range cycle {
		if id < cycle[first] {
			first = i
		}
	}
	ids := append(slices.Clone(cycle[first:]), cycle[:first]...)
	desc := strings.Join(append(ids, ids[0]), " → ")

	var moved []string
	for _, id := range ids {
		b, ok := m.base[id]
		if !ok || !sameLocation(b, m.out[id]) {
			moved = append(moved, id)
		}
	}
	if len(moved) == 0 {
		moved = ids // only possible with invalid input trees
	}
	for _, id := range moved {
		m.conflict(id, KindCycle,
			"the moves made on both sides combine into a cycle (each page placed under the next): %s", desc)
	}
}
