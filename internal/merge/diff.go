package merge

import "slices"

// Change kinds.
const (
	ChangeAdded    = "added"    // page only in head
	ChangeRemoved  = "removed"  // page only in base
	ChangeModified = "modified" // title, content or meta changed (the page may also have moved)
	ChangeMoved    = "moved"    // only the location (parent and/or position) changed
)

// Change describes how one page differs between two trees.
type Change struct {
	PageID string
	Kind   string // one of the Change* constants
	// Fields lists the properties that changed, in the order parent,
	// position, title, content, meta (the Field* constants). It is set for
	// ChangeModified and ChangeMoved and nil for ChangeAdded and
	// ChangeRemoved. A reorder among the same siblings is a ChangeMoved with
	// Fields == [position].
	Fields []string
	Before Page // the page in base; zero for ChangeAdded
	After  Page // the page in head; zero for ChangeRemoved
}

// Diff lists the pages that differ between base and head, sorted by page id.
// Unchanged pages are omitted.
func Diff(base, head Tree) []Change {
	var changes []Change
	for id, b := range base {
		b.ID = id
		h, ok := head[id]
		if !ok {
			changes = append(changes, Change{PageID: id, Kind: ChangeRemoved, Before: b})
			continue
		}
		h.ID = id
		fields := changedFields(b, h)
		if len(fields) == 0 {
			continue
		}
		kind := ChangeMoved
		if b.Title != h.Title || b.Content != h.Content || b.Meta != h.Meta {
			kind = ChangeModified
		}
		changes = append(changes, Change{PageID: id, Kind: kind, Fields: fields, Before: b, After: h})
	}
	for id, h := range head {
		if _, ok := base[id]; !ok {
			h.ID = id
			changes = append(changes, Change{PageID: id, Kind: ChangeAdded, After: h})
		}
	}
	slices.SortFunc(changes, func(a, b Change) int {
		switch {
		case a.PageID < b.PageID:
			return -1
		case a.PageID > b.PageID:
			return 1
		}
		return 0
	})
	return changes
}
