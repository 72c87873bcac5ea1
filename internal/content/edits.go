package content

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	_ "image/gif"  // image dimensions of GIF files
	_ "image/jpeg" // image dimensions of JPEG files
	_ "image/png"  // image dimensions of PNG files
	"slices"
	"time"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/document"
	"quire/internal/types"
)

// Op is one edit of a change request's content: *CreatePage, *UpdatePage,
// *MovePage, *DeletePage, *UploadFile, *DeleteFile, *SetVariables,
// *CreateReusableContent, *UpdateReusableContent or *DeleteReusableContent.
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
	// ID, when set, is the new page's id: one ids.New(ids.Page) minted
	// and the content does not hold, so that later ops of the same edit
	// (children, positions) can name the page. Empty: one is minted.
	ID string
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
	// LinkTitle (at most MaxLinkTitle characters) and Icon (at most
	// MaxIcon) are optional.
	LinkTitle, Icon string
	// NoIndex and NoRobotsIndex are for document and group pages only.
	NoIndex, NoRobotsIndex bool
	// MetaLinks are for document pages only.
	MetaLinks *types.PageMetaLinks
	// Computed makes a document page computed: it has no content of its
	// own (no Markdown or Document).
	Computed *types.PageComputed
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
	// "" removes the link title or the icon.
	LinkTitle, Icon        *string
	NoIndex, NoRobotsIndex *bool
	// A set option with a nil value removes the meta links, or makes a
	// computed page an empty document page. Setting a definition makes
	// the page computed and drops its document.
	MetaLinks catalog.Opt[*types.PageMetaLinks]
	Computed  catalog.Opt[*types.PageComputed]
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
	File string
	// NewID, when set (and File is not), is the new file's id: one
	// ids.New(ids.File) minted, so that documents written in the same
	// edit can refer to it. Empty: one is minted.
	NewID       string
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
	return s.EditAt(ctx, crID, "", ops...)
}

// EditAt is Edit for a caller that made its edits against the change
// request's content at revision (the change request's head when it read
// it). When revision is not empty and the head has moved since (another
// edit, or an update from the space), nothing is written and the error is
// Conflict on the field "revision": the caller reads the content again and
// redoes its edit, instead of overwriting what it did not see. The head is
// checked in the edit's transaction, with the change request row locked,
// so of several edits made against one revision at the same time exactly
// one is applied.
// Errors: those of Edit, and Conflict.
func (s *Service) EditAt(ctx context.Context, crID, revision string, ops ...Op) (*EditResult, error) {
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
		res, err = editIn(ctx, tx.Client(), crID, revision, userID, now, ops)
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// editIn is EditAt inside a transaction (c is its client); expect is the
// revision the edits were made against ("": any).
func editIn(ctx context.Context, c *ent.Client, crID, expect, userID string, now time.Time, ops []Op) (*EditResult, error) {
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
	if expect != "" && expect != cr.RevisionID {
		return nil, &apierr.Error{Code: apierr.Conflict, Field: "revision", Message: fmt.Sprintf(
			"Change request #%d has changed since revision %q: its content is now at revision %q; read it again and redo the edit",
			cr.Number, expect, cr.RevisionID)}
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
	case *CreateReusableContent:
		return o == nil
	case *UpdateReusableContent:
		return o == nil
	case *DeleteReusableContent:
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
