package content

import (
	"encoding/json"
	"fmt"
	_ "image/gif"  // image dimensions of GIF files
	_ "image/jpeg" // image dimensions of JPEG files
	_ "image/png"  // image dimensions of PNG files
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/document"
	"quire/internal/position"
)

// editor applies ops to a state.
type editor struct {
	spaceID string
	now     time.Time
	st      *state
	// kids indexes the pages by parent id.
	kids map[string]map[string]bool
	// last is, per parent, a key not smaller than any child's position.
	last map[string]string
	// pages and files written by the ops, by item id (the latest wins).
	pages     map[string]*ent.PageVersion
	files     map[string]*ent.FileVersion
	reusables map[string]*ent.ReusableContentVersion
	blobs     pending
	// inherit maps revised versions to the version whose content (and so
	// refs and anchors) they keep.
	inherit map[string]string
	// slugs counts, per parent (built when first needed), the slugs of its
	// children.
	slugs map[string]map[string]int
}

func newEditor(spaceID string, now time.Time, st *state) *editor {
	e := &editor{spaceID: spaceID, now: now, st: st, kids: map[string]map[string]bool{},
		last: map[string]string{}, pages: map[string]*ent.PageVersion{}, files: map[string]*ent.FileVersion{},
		reusables: map[string]*ent.ReusableContentVersion{}, inherit: map[string]string{}, slugs: map[string]map[string]int{}}
	for id, v := range st.pages {
		e.link(id, v)
	}
	return e
}

func (e *editor) link(id string, v *ent.PageVersion) {
	k := e.kids[v.ParentID]
	if k == nil {
		k = map[string]bool{}
		e.kids[v.ParentID] = k
	}
	k[id] = true
	if v.Position > e.last[v.ParentID] {
		e.last[v.ParentID] = v.Position
	}
}

// put makes v the page's version.
func (e *editor) put(v *ent.PageVersion) {
	e.remove(v.PageID)
	seal(v)
	e.st.pages[v.PageID] = v
	e.pages[v.PageID] = v
	e.link(v.PageID, v)
	if s := e.slugs[v.ParentID]; s != nil {
		s[v.Slug]++
	}
}

func (e *editor) remove(id string) {
	if old := e.st.pages[id]; old != nil {
		delete(e.kids[old.ParentID], id)
		delete(e.st.pages, id)
		if s := e.slugs[old.ParentID]; s != nil {
			s[old.Slug]--
		}
	}
}

// pendingFor lists the new versions still in the state, and their blobs.
func (e *editor) pendingFor() *pending {
	p := &pending{blobs: e.blobs.blobs, inherit: e.inherit}
	for _, id := range sortedKeys(e.pages) {
		if v := e.pages[id]; e.st.pages[id] == v {
			p.pages = append(p.pages, v)
		}
	}
	for _, id := range sortedKeys(e.files) {
		if v := e.files[id]; e.st.files[id] == v {
			p.files = append(p.files, v)
		}
	}
	for _, id := range sortedKeys(e.reusables) {
		if v := e.reusables[id]; e.st.reusables[id] == v {
			p.reusables = append(p.reusables, v)
		}
	}
	return p
}

func (e *editor) page(field, id string) (*ent.PageVersion, error) {
	if id == "" {
		return nil, apierr.Invalid(field, "%s is required", field)
	}
	v := e.st.pages[id]
	if v == nil {
		return nil, apierr.NotFoundf("No matching page found for id %q", id)
	}
	return v, nil
}

// siblings lists the children of parent in order, without exclude.
func (e *editor) siblings(parent, exclude string) []*ent.PageVersion {
	out := make([]*ent.PageVersion, 0, len(e.kids[parent]))
	for id := range e.kids[parent] {
		if id != exclude {
			out = append(out, e.st.pages[id])
		}
	}
	slices.SortFunc(out, siblingOrder)
	return out
}

// place computes a position key under parent for a page (exclude: the page
// being moved, "" for a new one).
func (e *editor) place(parent string, pos *Position, exclude string) (string, error) {
	if pos == nil || (pos.Before == "" && pos.After == "") {
		if e.last[parent] == "" {
			return position.First(), nil
		}
		key, err := position.Between(e.last[parent], "")
		if err != nil {
			return "", fmt.Errorf("position after %q: %w", e.last[parent], err)
		}
		return key, nil
	}
	sibs := e.siblings(parent, exclude)
	find := func(field, id string) (int, error) {
		for i, s := range sibs {
			if s.PageID == id {
				return i, nil
			}
		}
		return 0, apierr.Invalid("position."+field, "Invalid position: page %q is not a sibling in the target location", id)
	}
	var lo, hi string
	if pos.After != "" {
		i, err := find("after", pos.After)
		if err != nil {
			return "", err
		}
		lo = sibs[i].Position
		if pos.Before == "" {
			// The next sibling with a greater key (equal keys sort by id).
			for j := i + 1; j < len(sibs); j++ {
				if sibs[j].Position > lo {
					hi = sibs[j].Position
					break
				}
			}
		}
	}
	if pos.Before != "" {
		i, err := find("before", pos.Before)
		if err != nil {
			return "", err
		}
		hi = sibs[i].Position
		if pos.After == "" {
			for j := i - 1; j >= 0; j-- {
				if sibs[j].Position < hi {
					lo = sibs[j].Position
					break
				}
			}
		}
	}
	if lo != "" && hi != "" && lo >= hi {
		return "", apierr.Invalid("position", "Invalid position: \"after\" must come before \"before\"")
	}
	key, err := position.Between(lo, hi)
	if err != nil {
		return "", apierr.Invalid("position", "Invalid position: %v", err)
	}
	return key, nil
}

// uniqueSlug returns want, or want-2, want-3... so that no other child of
// parent has it.
func (e *editor) uniqueSlug(parent, want, exclude string) string {
	counts := e.slugs[parent]
	if counts == nil {
		counts = map[string]int{}
		for id := range e.kids[parent] {
			counts[e.st.pages[id].Slug]++
		}
		e.slugs[parent] = counts
	}
	taken := func(s string) bool {
		n := counts[s]
		if x := e.st.pages[exclude]; x != nil && x.ParentID == parent && x.Slug == s {
			n--
		}
		return n > 0
	}
	if !taken(want) {
		return want
	}
	for n := 2; ; n++ {
		s := want + "-" + strconv.Itoa(n)
		if !taken(s) {
			return s
		}
	}
}

// checkParent validates that a page of type typ may live under parent.
func (e *editor) checkParent(parent, typ string) error {
	if parent == "" {
		return nil
	}
	p := e.st.pages[parent]
	if p == nil {
		return apierr.NotFoundf("No matching parent page found for id %q", parent)
	}
	if p.Type == TypeLink {
		return apierr.Invalid("parent", "A link page cannot have child pages")
	}
	if typ == TypeGroup {
		return apierr.Invalid("parent", "Page groups live at the root level only")
	}
	return nil
}

func checkLen(field, v string, max int) error {
	if n := utf8.RuneCountInString(v); n > max {
		return apierr.Invalid(field, "%s must be at most %d characters (got %d)", field, max, n)
	}
	return nil
}

// setDocument stores the content of a document page.
func (e *editor) setDocument(v *ent.PageVersion, md *string, doc *document.Document) error {
	h, doc, err := e.documentBlob(md, doc)
	if err != nil {
		return err
	}
	if v.DocumentID == nil || *v.DocumentID != h {
		// The Git blob the page came from no longer holds its content.
		v.Git = nil
	}
	v.DocumentID = &h
	v.Refs, v.Anchors = scanDocument(doc)
	delete(e.inherit, v.ID)
	return nil
}

// setLink stores the target of a link page.
func (e *editor) setLink(v *ent.PageVersion, link *document.ContentRef) error {
	if link == nil {
		return apierr.Invalid("link", "A link page needs a link target")
	}
	n := document.Node{Data: map[string]any{"ref": link.Map()}}
	r, ok := n.Ref()
	if !ok {
		return apierr.Invalid("link.kind", "link.kind %q is not a content reference kind", link.Kind)
	}
	for _, f := range r.Map() {
		if f == "" {
			return apierr.Invalid("link", "The link target is incomplete")
		}
	}
	v.Link = &r
	m := map[string]string{"node": "link-page"}
	for k, x := range r.Map() {
		m[k], _ = x.(string)
	}
	v.Refs, v.Anchors = []map[string]string{m}, nil
	delete(e.inherit, v.ID)
	return nil
}

// documentBlob checks a content given as Markdown or as a document (not
// both; neither: an empty document) against the document limits, and
// stores it as a pending blob: its hash and the document.
func (e *editor) documentBlob(md *string, doc *document.Document) (string, *document.Document, error) {
	if md != nil && doc != nil {
		return "", nil, apierr.Invalid("document", "Provide the content as markdown or as a document, not both")
	}
	if md != nil {
		d, err := document.FromMarkdown(*md)
		if ae, ok := apierr.As(err); ok {
			// A limit, on the field "markdown".
			return "", nil, ae
		}
		if err != nil {
			return "", nil, apierr.Invalid("markdown", "Invalid markdown: %v", err)
		}
		doc = d
	}
	if doc == nil {
		doc = &document.Document{Data: map[string]any{}, Nodes: []document.Node{}}
	}
	if err := doc.Validate(); err != nil {
		if ae, ok := apierr.As(err); ok {
			return "", nil, ae
		}
		return "", nil, apierr.Invalid("document", "Invalid document: %v", err)
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return "", nil, apierr.Invalid("document", "Invalid document: %v", err)
	}
	return e.blobs.blob(raw), doc, nil
}
