package content

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif"  // image dimensions of GIF files
	_ "image/jpeg" // image dimensions of JPEG files
	_ "image/png"  // image dimensions of PNG files
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/document"
	"quire/internal/ids"
	"quire/internal/position"
	"quire/internal/types"
)

// Op is one edit of a change request's content: *CreatePage, *UpdatePage,
// *MovePage, *DeletePage, *UploadFile, *DeleteFile or *SetVariables.
type Op interface {
	// apply performs the edit and returns the id of the page or file it
	// created or changed ("" for others).
	apply(e *editor) (string, error)
}

// Position places a page among its siblings: right before the page
// Before, right after the page After, or between both. An empty Position
// places it at the end.
type Position struct {
	Before string
	After  string
}

// CreatePage adds a page. Content is given as Markdown or as a document,
// not both, and only for document pages; link pages need Link.
type CreatePage struct {
	// Type is document (the default), group or link. Groups live at the
	// root level only.
	Type string
	// Parent is the parent page id; "" for the root level.
	Parent   string
	Position *Position
	Title    string
	// Slug defaults to one made from the title; it is made unique among
	// the siblings.
	Slug        string
	Emoji       string
	Description string
	Hidden      bool
	Markdown    *string
	Document    *document.Document
	Link        *document.ContentRef
	Layout      map[string]any
	Cover       map[string]any
	Variables   map[string]any
}

// UpdatePage changes properties of a page; nil (or unset) fields are left
// unchanged.
type UpdatePage struct {
	Page        string
	Title       *string
	Slug        *string
	Emoji       *string
	Description *string
	Hidden      *bool
	Markdown    *string
	Document    *document.Document
	Link        *document.ContentRef
	// A set option with a nil value removes the property.
	Layout    catalog.Opt[map[string]any]
	Cover     catalog.Opt[map[string]any]
	Variables catalog.Opt[map[string]any]
}

// MovePage moves a page (with its subtree) under another parent and/or
// among its siblings. At least one of Parent and Position must be given;
// Parent.Value "" is the root level.
type MovePage struct {
	Page     string
	Parent   catalog.Opt[string]
	Position *Position
}

// DeletePage removes a page and its subtree.
type DeletePage struct {
	Page string
}

// UploadFile adds a file, or replaces the content (and name) of the file
// File when set. An empty ContentType is detected from the bytes.
type UploadFile struct {
	File        string
	Name        string
	ContentType string
	Data        []byte
}

// DeleteFile removes a file.
type DeleteFile struct {
	File string
}

// SetVariables replaces the space-level variables.
type SetVariables struct {
	Variables map[string]any
}

// EditResult is the outcome of Edit.
type EditResult struct {
	ChangeRequest *ent.ChangeRequest
	// Revision is the change request's head after the edit.
	Revision string
	// Changed is false when the edits changed nothing (no revision was
	// written).
	Changed bool
	// IDs holds, for each op, the id of the page or file it created or
	// changed ("" for the others).
	IDs []string
}

// Edit applies ops, in order, to the content of a change request, and
// records the result as one new revision of the change request (a delta
// on its previous head) with the caller among its contributors. The
// caller needs edit rights on the space.
// Errors: NotFound (change request, or a page or file an op names),
// BadRequest (invalid input; the change request is merged or archived),
// Forbidden (no edit rights; the space is locked), PreconditionFailed (the
// space is deleted).
func (s *Service) Edit(ctx context.Context, crID string, ops ...Op) (*EditResult, error) {
	if err := checkOps(ops); err != nil {
		return nil, err
	}
	if _, _, err := s.ChangeRequestFor(ctx, crID, types.RoleEdit); err != nil {
		return nil, err
	}
	userID := actor(ctx)
	now := s.Now()
	var res *EditResult
	err := withTx(ctx, s.Client, func(tx *ent.Tx) error {
		var err error
		res, err = editIn(ctx, tx.Client(), crID, userID, now, ops)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// editIn is Edit inside a transaction (c is its client).
func editIn(ctx context.Context, c *ent.Client, crID, userID string, now time.Time, ops []Op) (*EditResult, error) {
	var res *EditResult
	cr, err := lockChangeRequest(ctx, c, crID)
	if err != nil {
		return nil, err
	}
	if err := checkOpen(cr, "edit"); err != nil {
		return nil, err
	}
	sp, err := c.Space.Get(ctx, cr.SpaceID)
	if err != nil {
		return nil, fmt.Errorf("load space: %w", err)
	}
	if err := checkEditable(sp, "editing content"); err != nil {
		return nil, err
	}
	revs, states, err := loadStates(ctx, c, loadTree, cr.RevisionID)
	if err != nil {
		return nil, err
	}
	head, base := revs[cr.RevisionID], states[cr.RevisionID]
	e := newEditor(cr.SpaceID, now, base.clone())
	res = &EditResult{ChangeRequest: cr, Revision: head.ID, IDs: make([]string, len(ops))}
	for i, op := range ops {
		if res.IDs[i], err = op.apply(e); err != nil {
			return nil, err
		}
	}
	if len(diffEntries(base, e.st)) == 0 && sameJSON(base.vars, e.st.vars) {
		return res, nil
	}
	if err := insertPending(ctx, c, e.pendingFor()); err != nil {
		return nil, err
	}
	rev, err := writeRevision(ctx, c, revisionWrite{
		spaceID: cr.SpaceID, typ: RevisionEdits, base: head, baseState: base, next: e.st,
		parents: []string{head.ID}, crID: &cr.ID, authorID: author(userID), now: now,
	})
	if err != nil {
		return nil, err
	}
	contributors := cr.Contributors
	if userID != "" && !slices.Contains(contributors, userID) {
		contributors = append(slices.Clone(contributors), userID)
	}
	cr, err = c.ChangeRequest.UpdateOneID(cr.ID).SetRevisionID(rev.ID).SetUpdatedAt(now).
		SetContributors(contributors).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("update change request: %w", err)
	}
	res.ChangeRequest, res.Revision, res.Changed = cr, rev.ID, true
	return res, nil
}

// checkOps refuses an empty list of ops, or one holding a nil op.
func checkOps(ops []Op) error {
	if len(ops) == 0 {
		return apierr.Invalid("ops", "Provide at least one edit")
	}
	for i, op := range ops {
		if op == nil || isNilOp(op) {
			return apierr.Invalid("ops", "ops[%d] is empty", i)
		}
	}
	return nil
}

func isNilOp(op Op) bool {
	switch o := op.(type) {
	case *CreatePage:
		return o == nil
	case *UpdatePage:
		return o == nil
	case *MovePage:
		return o == nil
	case *DeletePage:
		return o == nil
	case *UploadFile:
		return o == nil
	case *DeleteFile:
		return o == nil
	case *SetVariables:
		return o == nil
	}
	return false
}

// checkOpen refuses changes to merged and archived change requests.
func checkOpen(cr *ent.ChangeRequest, what string) error {
	switch cr.Status {
	case StatusMerged:
		return apierr.Invalid("status", "Change request #%d is merged: it cannot %s anymore", cr.Number, what)
	case StatusArchived:
		return apierr.Invalid("status", "Change request #%d is archived: reopen it to %s", cr.Number, what)
	}
	return nil
}

func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

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
	pages map[string]*ent.PageVersion
	files map[string]*ent.FileVersion
	blobs pending
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
		inherit: map[string]string{}, slugs: map[string]map[string]int{}}
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
	if md != nil && doc != nil {
		return apierr.Invalid("document", "Provide the content as markdown or as a document, not both")
	}
	if md != nil {
		d, err := document.FromMarkdown(*md)
		if err != nil {
			return apierr.Invalid("markdown", "Invalid markdown: %v", err)
		}
		doc = d
	}
	if doc == nil {
		doc = &document.Document{Data: map[string]any{}, Nodes: []document.Node{}}
	}
	if err := doc.Validate(); err != nil {
		if ae, ok := apierr.As(err); ok {
			return ae
		}
		return apierr.Invalid("document", "Invalid document: %v", err)
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return apierr.Invalid("document", "Invalid document: %v", err)
	}
	h := e.blobs.blob(raw)
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

func validType(t string) bool { return t == TypeDocument || t == TypeGroup || t == TypeLink }

func (c *CreatePage) apply(e *editor) (string, error) {
	typ := c.Type
	if typ == "" {
		typ = TypeDocument
	}
	if !validType(typ) {
		return "", apierr.Invalid("type", "type must be document, group or link")
	}
	title := strings.TrimSpace(c.Title)
	if title == "" {
		return "", apierr.Invalid("title", "title is required")
	}
	for _, x := range []struct {
		field, v string
		max      int
	}{{"title", title, MaxTitle}, {"description", c.Description, MaxDescription}, {"emoji", c.Emoji, MaxEmoji}, {"slug", c.Slug, MaxSlug}} {
		if err := checkLen(x.field, x.v, x.max); err != nil {
			return "", err
		}
	}
	if err := e.checkParent(c.Parent, typ); err != nil {
		return "", err
	}
	slug := slugify(title)
	if c.Slug != "" {
		if !validSlug(c.Slug) {
			return "", apierr.Invalid("slug", "slug %q must hold lower case letters and digits separated by single hyphens", c.Slug)
		}
		slug = c.Slug
	}
	if slug == "" {
		slug = "untitled"
	}
	pos, err := e.place(c.Parent, c.Position, "")
	if err != nil {
		return "", err
	}
	v := &ent.PageVersion{
		ID: ids.New(ids.PageVersion), SpaceID: e.spaceID, PageID: ids.New(ids.Page), ParentID: c.Parent,
		Position: pos, Type: typ, Title: title, Slug: e.uniqueSlug(c.Parent, slug, ""), Emoji: c.Emoji,
		Description: c.Description, Hidden: c.Hidden, Layout: c.Layout, Cover: c.Cover,
		Variables: c.Variables, CreatedAt: e.now,
	}
	switch typ {
	case TypeDocument:
		if c.Link != nil {
			return "", apierr.Invalid("link", "Only link pages have a link target")
		}
		if err := e.setDocument(v, c.Markdown, c.Document); err != nil {
			return "", err
		}
	case TypeLink:
		if c.Markdown != nil || c.Document != nil {
			return "", apierr.Invalid("document", "A link page has no content")
		}
		if err := e.setLink(v, c.Link); err != nil {
			return "", err
		}
	case TypeGroup:
		if c.Markdown != nil || c.Document != nil || c.Link != nil {
			return "", apierr.Invalid("document", "A page group has no content")
		}
	}
	e.put(v)
	return v.PageID, nil
}

// revise returns a copy of v to change into a new version.
func (e *editor) revise(v *ent.PageVersion) *ent.PageVersion {
	nv := *v
	nv.ID = ids.New(ids.PageVersion)
	nv.SpaceID = e.spaceID
	nv.CreatedAt = e.now
	if src, ok := e.inherit[v.ID]; ok {
		e.inherit[nv.ID] = src // v is itself new in this edit
	} else if v.Refs == nil && v.Anchors == nil {
		e.inherit[nv.ID] = v.ID
	}
	return &nv
}

func samePage(a, b *ent.PageVersion) bool {
	return a.ParentID == b.ParentID && a.Position == b.Position && a.Title == b.Title &&
		a.ContentHash == b.ContentHash && a.MetaHash == b.MetaHash
}

func (u *UpdatePage) apply(e *editor) (string, error) {
	old, err := e.page("page", u.Page)
	if err != nil {
		return "", err
	}
	v := e.revise(old)
	if u.Title != nil {
		t := strings.TrimSpace(*u.Title)
		if t == "" {
			return "", apierr.Invalid("title", "title must not be empty")
		}
		if err := checkLen("title", t, MaxTitle); err != nil {
			return "", err
		}
		v.Title = t
	}
	if u.Slug != nil {
		if !validSlug(*u.Slug) || utf8.RuneCountInString(*u.Slug) > MaxSlug {
			return "", apierr.Invalid("slug", "slug %q must hold lower case letters and digits separated by single hyphens", *u.Slug)
		}
		if *u.Slug != old.Slug {
			v.Slug = e.uniqueSlug(old.ParentID, *u.Slug, old.PageID)
		}
	}
	if u.Emoji != nil {
		if err := checkLen("emoji", *u.Emoji, MaxEmoji); err != nil {
			return "", err
		}
		v.Emoji = *u.Emoji
	}
	if u.Description != nil {
		if err := checkLen("description", *u.Description, MaxDescription); err != nil {
			return "", err
		}
		v.Description = *u.Description
	}
	if u.Hidden != nil {
		v.Hidden = *u.Hidden
	}
	if u.Layout.Set {
		v.Layout = u.Layout.Value
	}
	if u.Cover.Set {
		v.Cover = u.Cover.Value
	}
	if u.Variables.Set {
		v.Variables = u.Variables.Value
	}
	if u.Markdown != nil || u.Document != nil {
		if old.Type != TypeDocument {
			return "", apierr.Invalid("document", "Only document pages have content (page %q is a %s)", old.PageID, old.Type)
		}
		if err := e.setDocument(v, u.Markdown, u.Document); err != nil {
			return "", err
		}
	}
	if u.Link != nil {
		if old.Type != TypeLink {
			return "", apierr.Invalid("link", "Only link pages have a link target (page %q is a %s)", old.PageID, old.Type)
		}
		if err := e.setLink(v, u.Link); err != nil {
			return "", err
		}
	}
	seal(v)
	if samePage(v, old) {
		return old.PageID, nil
	}
	e.put(v)
	return v.PageID, nil
}

func (m *MovePage) apply(e *editor) (string, error) {
	old, err := e.page("page", m.Page)
	if err != nil {
		return "", err
	}
	if !m.Parent.Set && m.Position == nil {
		return "", apierr.Invalid("parent", "Provide parent and/or position")
	}
	parent := old.ParentID
	if m.Parent.Set {
		parent = m.Parent.Value
	}
	if err := e.checkParent(parent, old.Type); err != nil {
		return "", err
	}
	for a, depth := parent, 0; a != "" && depth <= len(e.st.pages); depth++ {
		if a == old.PageID {
			return "", apierr.Invalid("parent", "A page cannot be moved into itself or one of its descendants")
		}
		p := e.st.pages[a]
		if p == nil {
			break
		}
		a = p.ParentID
	}
	if parent == old.ParentID && (m.Position == nil || (m.Position.Before == "" && m.Position.After == "")) {
		return old.PageID, nil // already there
	}
	pos, err := e.place(parent, m.Position, old.PageID)
	if err != nil {
		return "", err
	}
	v := e.revise(old)
	v.ParentID, v.Position = parent, pos
	if parent != old.ParentID {
		v.Slug = e.uniqueSlug(parent, old.Slug, old.PageID)
	}
	e.put(v)
	return v.PageID, nil
}

func (d *DeletePage) apply(e *editor) (string, error) {
	if _, err := e.page("page", d.Page); err != nil {
		return "", err
	}
	var drop func(id string)
	drop = func(id string) {
		for kid := range e.kids[id] {
			drop(kid)
		}
		delete(e.kids, id)
		delete(e.slugs, id)
		e.remove(id)
	}
	drop(d.Page)
	return d.Page, nil
}

func (u *UploadFile) apply(e *editor) (string, error) {
	name := strings.TrimSpace(u.Name)
	if name == "" {
		return "", apierr.Invalid("name", "name is required")
	}
	if err := checkLen("name", name, MaxFileName); err != nil {
		return "", err
	}
	if len(u.Data) > MaxFileSize {
		return "", apierr.New(apierr.TooLarge, "The file is larger than %d bytes", MaxFileSize)
	}
	fileID := u.File
	if fileID != "" && e.st.files[fileID] == nil {
		return "", apierr.NotFoundf("No matching file found for id %q", fileID)
	}
	if fileID == "" {
		fileID = ids.New(ids.File)
	}
	ct := strings.TrimSpace(u.ContentType)
	if ct == "" {
		ct = http.DetectContentType(u.Data)
	}
	if err := checkLen("contentType", ct, 255); err != nil {
		return "", err
	}
	v := &ent.FileVersion{
		ID: ids.New(ids.FileVersion), SpaceID: e.spaceID, FileID: fileID, Name: name, ContentType: ct,
		Size: int64(len(u.Data)), BlobID: e.blobs.blob(u.Data), CreatedAt: e.now,
	}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(u.Data)); err == nil {
		v.Width, v.Height = &cfg.Width, &cfg.Height
	}
	if old := e.st.files[fileID]; old != nil && old.Name == v.Name && old.ContentType == v.ContentType && old.BlobID == v.BlobID {
		return fileID, nil
	}
	e.st.files[fileID] = v
	e.files[fileID] = v
	return fileID, nil
}

func (d *DeleteFile) apply(e *editor) (string, error) {
	if d.File == "" {
		return "", apierr.Invalid("file", "file is required")
	}
	if e.st.files[d.File] == nil {
		return "", apierr.NotFoundf("No matching file found for id %q", d.File)
	}
	delete(e.st.files, d.File)
	return d.File, nil
}

func (s *SetVariables) apply(e *editor) (string, error) {
	vars := s.Variables
	if vars == nil {
		vars = map[string]any{}
	}
	if _, err := json.Marshal(vars); err != nil {
		return "", apierr.Invalid("variables", "Invalid variables: %v", err)
	}
	e.st.vars = vars
	return "", nil
}
