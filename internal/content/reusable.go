package content

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"quire/ent"
	"quire/ent/reusablecontentversion"
	"quire/ent/revisionentry"
	"quire/internal/apierr"
	"quire/internal/document"
	"quire/internal/ids"
)

// Reusable contents are titled documents of a space that its pages embed
// with reusable-content blocks. They are stored like files: a version per
// state (ent ReusableContentVersion, its document a content blob), listed
// by revision entries of kind "reusable-content", shared by every revision
// that holds them.

// MaxReusableTitle is the longest reusable content title, in characters.
const MaxReusableTitle = 100

// CreateReusableContent adds a reusable content: a title (1 to
// MaxReusableTitle characters) and its content as Markdown or as a
// document (not both; neither: an empty document), within the document
// limits.
type CreateReusableContent struct {
	// ID, when set, is the new reusable content's id: one
	// ids.New(ids.ReusableContent) minted that the content does not hold,
	// so that documents written in the same edit can embed it. Empty: one
	// is minted.
	ID       string
	Title    string
	Markdown *string
	Document *document.Document
}

// UpdateReusableContent changes the title or the content of a reusable
// content; nil fields are left unchanged.
type UpdateReusableContent struct {
	ReusableContent string
	Title           *string
	Markdown        *string
	Document        *document.Document
}

// DeleteReusableContent removes a reusable content. Pages that embed it
// keep their reusable-content blocks: those become broken references
// (link reports say so, and dereferencing leaves them as they are).
type DeleteReusableContent struct {
	ReusableContent string
}

func reusableTitle(t string) (string, error) {
	t = strings.TrimSpace(t)
	if t == "" {
		return "", apierr.Invalid("title", "title is required")
	}
	if err := checkLen("title", t, MaxReusableTitle); err != nil {
		return "", err
	}
	return t, nil
}

func (c *CreateReusableContent) apply(e *editor) (string, error) {
	title, err := reusableTitle(c.Title)
	if err != nil {
		return "", err
	}
	id := ids.New(ids.ReusableContent)
	if c.ID != "" {
		if k, ok := ids.KindOf(c.ID); !ok || k != ids.ReusableContent || e.st.reusables[c.ID] != nil {
			return "", apierr.Invalid("id", "id %q is not a new reusable content id", c.ID)
		}
		id = c.ID
	}
	h, doc, err := e.documentBlob(c.Markdown, c.Document)
	if err != nil {
		return "", err
	}
	refs, _ := scanDocument(doc)
	e.putReusable(&ent.ReusableContentVersion{
		ID: ids.New(ids.ReusableContentVersion), SpaceID: e.spaceID, ReusableContentID: id,
		Title: title, DocumentID: h, Refs: refs, CreatedAt: e.now,
	})
	return id, nil
}

func (u *UpdateReusableContent) apply(e *editor) (string, error) {
	old, err := e.reusable(u.ReusableContent)
	if err != nil {
		return "", err
	}
	v := *old
	if u.Title != nil {
		if v.Title, err = reusableTitle(*u.Title); err != nil {
			return "", err
		}
	}
	if u.Markdown != nil || u.Document != nil {
		h, doc, err := e.documentBlob(u.Markdown, u.Document)
		if err != nil {
			return "", err
		}
		if h != v.DocumentID {
			// The Git blob it came from no longer holds its content.
			v.Git = nil
		}
		v.DocumentID = h
		v.Refs, _ = scanDocument(doc)
	}
	if v.Title == old.Title && v.DocumentID == old.DocumentID {
		return old.ReusableContentID, nil
	}
	v.ID, v.SpaceID, v.CreatedAt = ids.New(ids.ReusableContentVersion), e.spaceID, e.now
	e.putReusable(&v)
	return v.ReusableContentID, nil
}

func (d *DeleteReusableContent) apply(e *editor) (string, error) {
	if _, err := e.reusable(d.ReusableContent); err != nil {
		return "", err
	}
	delete(e.st.reusables, d.ReusableContent)
	return d.ReusableContent, nil
}

func (e *editor) reusable(id string) (*ent.ReusableContentVersion, error) {
	if id == "" {
		return nil, apierr.Invalid("reusableContent", "reusableContent is required")
	}
	v := e.st.reusables[id]
	if v == nil {
		return nil, apierr.NotFoundf("No matching reusable content found for id %q", id)
	}
	return v, nil
}

func (e *editor) putReusable(v *ent.ReusableContentVersion) {
	e.st.reusables[v.ReusableContentID] = v
	e.reusables[v.ReusableContentID] = v
}

// loadReusableVersions reads reusable content versions by id, with their
// references whatever the mode: they are few and small, and an edit that
// keeps a version's document keeps its references.
func loadReusableVersions(ctx context.Context, c *ent.Client, versionIDs []string, mode loadMode) (map[string]*ent.ReusableContentVersion, error) {
	out := make(map[string]*ent.ReusableContentVersion, len(versionIDs))
	if mode == loadFiles {
		return out, nil
	}
	slices.Sort(versionIDs)
	for part := range slices.Chunk(versionIDs, chunk) {
		rows, err := c.ReusableContentVersion.Query().Where(reusablecontentversion.IDIn(part...)).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("load reusable content versions: %w", err)
		}
		for _, v := range rows {
			out[v.ID] = v
		}
	}
	return out, nil
}

// reusablesIn reads the versions of some reusable contents of a revision
// without reading the whole revision: one statement for their entries
// along the chain, one for the versions. Absent ones are left out.
func reusablesIn(ctx context.Context, c *ent.Client, r *ent.Revision, itemIDs []string) (map[string]*ent.ReusableContentVersion, error) {
	out := map[string]*ent.ReusableContentVersion{}
	if len(itemIDs) == 0 {
		return out, nil
	}
	chain := chainOf(r)
	at := map[string]int{}
	latest := map[string]*string{}
	for part := range slices.Chunk(uniq(itemIDs), chunk) {
		rows, err := c.RevisionEntry.Query().
			Where(revisionentry.RevisionIDIn(chain...), revisionentry.Kind(kindReusable), revisionentry.ItemIDIn(part...)).
			Select(revisionentry.FieldRevisionID, revisionentry.FieldItemID, revisionentry.FieldVersionID).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("load reusable content entries: %w", err)
		}
		for _, e := range rows {
			i := slices.Index(chain, e.RevisionID)
			if prev, seen := at[e.ItemID]; !seen || i > prev {
				at[e.ItemID], latest[e.ItemID] = i, e.VersionID
			}
		}
	}
	var vids []string
	for _, v := range latest {
		if v != nil {
			vids = append(vids, *v)
		}
	}
	versions, err := loadReusableVersions(ctx, c, vids, loadTree)
	if err != nil {
		return nil, err
	}
	for item, v := range latest {
		if v != nil && versions[*v] != nil {
			out[item] = versions[*v]
		}
	}
	return out, nil
}

func insertReusables(ctx context.Context, c *ent.Client, list []*ent.ReusableContentVersion) error {
	for part := range slices.Chunk(list, chunk) {
		batch := make([]*ent.ReusableContentVersionCreate, len(part))
		for i, v := range part {
			b := c.ReusableContentVersion.Create().SetID(v.ID).SetSpaceID(v.SpaceID).
				SetReusableContentID(v.ReusableContentID).SetTitle(v.Title).SetDocumentID(v.DocumentID).
				SetCreatedAt(v.CreatedAt)
			if v.Refs != nil {
				b.SetRefs(v.Refs)
			}
			if v.Git != nil {
				b.SetGit(v.Git)
			}
			batch[i] = b
		}
		if err := c.ReusableContentVersion.CreateBulk(batch...).Exec(ctx); err != nil {
			return fmt.Errorf("store reusable content versions: %w", err)
		}
	}
	return nil
}

// mergeReusables merges the reusable contents of ours and theirs, two
// descendants of base, as pages are merged: the title and the document are
// merged apart, a side's change wins over an unchanged side, and the same
// property changed differently on both sides (or changed on one side and
// the reusable content deleted on the other) is a conflict. Versions that
// combine both sides are new, and added to fresh.
func mergeReusables(spaceID string, now time.Time, base, ours, theirs *state, fresh *pending) (map[string]*ent.ReusableContentVersion, []Conflict) {
	out := map[string]*ent.ReusableContentVersion{}
	var conflicts []Conflict
	all := uniq(append(append(sortedKeys(base.reusables), sortedKeys(ours.reusables)...), sortedKeys(theirs.reusables)...))
	for _, id := range all {
		b, o, t := base.reusables[id], ours.reusables[id], theirs.reusables[id]
		conflict := func(msg string) {
			conflicts = append(conflicts, Conflict{Kind: KindReusableContent, ReusableContent: id, Message: msg})
		}
		switch {
		case o == nil && t == nil:
			continue
		case o == nil || t == nil:
			kept, keptSide, deletedSide := o, "ours", "theirs"
			if o == nil {
				kept, keptSide, deletedSide = t, "theirs", "ours"
			}
			switch {
			case b == nil: // added on one side only
				out[id] = kept
			case reusableSig(b) == reusableSig(kept): // unchanged where kept: the deletion wins
			default:
				conflict(fmt.Sprintf("reusable content deleted in %s but changed in %s", deletedSide, keptSide))
			}
			continue
		case b == nil:
			if reusableSig(o) != reusableSig(t) {
				conflict("reusable content added on both sides with different content")
				continue
			}
			out[id] = o
			continue
		}
		title, okTitle := pick3(b.Title, o.Title, t.Title)
		doc, okDoc := pick3(b.DocumentID, o.DocumentID, t.DocumentID)
		switch {
		case !okTitle:
			conflict("reusable content title changed differently on both sides")
			continue
		case !okDoc:
			conflict("reusable content changed differently on both sides")
			continue
		}
		switch {
		case o.Title == title && o.DocumentID == doc:
			out[id] = o
		case t.Title == title && t.DocumentID == doc:
			out[id] = t
		default:
			// Ours' title with theirs' document, or the other way round.
			v := *o
			if o.DocumentID != doc {
				v = *t
			}
			v.ID, v.SpaceID, v.CreatedAt, v.Title = ids.New(ids.ReusableContentVersion), spaceID, now, title
			out[id] = &v
			fresh.reusables = append(fresh.reusables, &v)
		}
	}
	return out, conflicts
}

// pick3 merges one property: the side that changed it wins; ok is false
// when both changed it differently.
func pick3(b, o, t string) (string, bool) {
	switch {
	case o == t, t == b:
		return o, true
	case o == b:
		return t, true
	}
	return "", false
}

func reusableSig(v *ent.ReusableContentVersion) string {
	return v.Title + "\x00" + v.DocumentID
}
