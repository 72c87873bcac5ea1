package content

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"quire/ent"
	"quire/internal/ids"
	"quire/internal/merge"
	"quire/internal/types"
)

// Merge results.
const (
	ResultMerge     = "merge"     // the change request was merged into the space
	ResultUpdate    = "update"    // the space was merged into the change request
	ResultConflicts = "conflicts" // nothing changed: see Conflicts
)

// Conflict kinds besides the page kinds of package merge (merge.Kind*).
const (
	KindFile            = "file"             // a file changed differently on both sides
	KindVariable        = "variable"         // a space variable changed differently on both sides
	KindReusableContent = "reusable-content" // a reusable content changed differently on both sides
)

// Conflict is one reason why a merge or an update cannot be applied.
type Conflict struct {
	// Kind is one of merge.Kind* (pages), KindFile, KindVariable or
	// KindReusableContent.
	Kind string
	// Page, File, Variable or ReusableContent names what is in conflict.
	Page            string
	File            string
	Variable        string
	ReusableContent string
	// Message explains the conflict; "ours" is the side merged into (the
	// space for Merge, the change request for UpdateFromSpace).
	Message string
}

// MergeResult is the outcome of Merge and UpdateFromSpace.
type MergeResult struct {
	// Result is ResultMerge, ResultUpdate or ResultConflicts.
	Result    string
	Conflicts []Conflict
	// Revision is the revision written: the space's new current revision
	// (merge) or the change request's new head (update). Empty on
	// conflicts; the unchanged head when an update had nothing to bring.
	Revision      string
	ChangeRequest *ent.ChangeRequest
}

// mergeTree is what package merge sees of a state's pages.
func mergeTree(st *state) merge.Tree {
	t := make(merge.Tree, len(st.pages))
	for id, v := range st.pages {
		t[id] = merge.Page{ID: id, Parent: v.ParentID, Position: v.Position, Title: v.Title,
			Content: v.ContentHash, Meta: v.MetaHash}
	}
	return t
}

func matches(v *ent.PageVersion, p merge.Page) bool {
	return v.ParentID == p.Parent && v.Position == p.Position && v.Title == p.Title &&
		v.ContentHash == p.Content && v.MetaHash == p.Meta
}

// mergeStates merges ours and theirs, two descendants of base. Pages equal
// to one side keep that side's version; pages combining properties of both
// sides get a new version, returned in fresh. On conflicts the merged
// state is nil.
func mergeStates(spaceID string, now time.Time, base, ours, theirs *state) (merged *state, fresh *pending, conflicts []Conflict) {
	res := merge.ThreeWay(mergeTree(base), mergeTree(ours), mergeTree(theirs))
	for _, c := range res.Conflicts {
		conflicts = append(conflicts, Conflict{Kind: c.Kind, Page: c.PageID, Message: c.Message})
	}
	files := map[string]*ent.FileVersion{}
	for _, id := range uniq(append(append(sortedKeys(base.files), sortedKeys(ours.files)...), sortedKeys(theirs.files)...)) {
		b, o, t := fileSig(base.files[id]), fileSig(ours.files[id]), fileSig(theirs.files[id])
		var v *ent.FileVersion
		switch {
		case o == t, t == b:
			v = ours.files[id]
		case o == b:
			v = theirs.files[id]
		default:
			conflicts = append(conflicts, Conflict{Kind: KindFile, File: id, Message: fileConflict(base.files[id], ours.files[id], theirs.files[id])})
			continue
		}
		if v != nil {
			files[id] = v
		}
	}
	vars := map[string]any{}
	keys := append(append(sortedKeys(base.vars), sortedKeys(ours.vars)...), sortedKeys(theirs.vars)...)
	for _, k := range uniq(keys) {
		b, o, t := varSig(base.vars, k), varSig(ours.vars, k), varSig(theirs.vars, k)
		var (
			src map[string]any
		)
		switch {
		case o == t, t == b:
			src = ours.vars
		case o == b:
			src = theirs.vars
		default:
			conflicts = append(conflicts, Conflict{Kind: KindVariable, Variable: k,
				Message: fmt.Sprintf("variable %q changed differently on both sides", k)})
			continue
		}
		if v, ok := src[k]; ok {
			vars[k] = v
		}
	}
	fresh = &pending{inherit: map[string]string{}}
	reusables, clashes := mergeReusables(spaceID, now, base, ours, theirs, fresh)
	conflicts = append(conflicts, clashes...)
	if len(conflicts) > 0 {
		return nil, nil, conflicts
	}
	merged = &state{pages: make(map[string]*ent.PageVersion, len(res.Tree)), files: files, reusables: reusables, vars: vars}
	for _, id := range sortedKeys(res.Tree) {
		p := res.Tree[id]
		o, t := ours.pages[id], theirs.pages[id]
		switch {
		case o != nil && matches(o, p):
			merged.pages[id] = o
		case t != nil && matches(t, p):
			merged.pages[id] = t
		case o != nil && t != nil:
			v, from := combine(spaceID, now, o, t, p)
			merged.pages[id] = v
			fresh.pages = append(fresh.pages, v)
			fresh.inherit[v.ID] = from
		default: // not reachable with valid inputs
			if t != nil {
				merged.pages[id] = t
			} else {
				merged.pages[id] = o
			}
		}
	}
	return merged, fresh, nil
}

// combine makes the version of a page whose merged properties come from
// both sides: ours' version with theirs' location, title, content or other
// properties where the merge took theirs. from is the version whose content
// it keeps.
func combine(spaceID string, now time.Time, o, t *ent.PageVersion, p merge.Page) (_ *ent.PageVersion, from string) {
	v := *o
	v.ID, v.SpaceID, v.CreatedAt = ids.New(ids.PageVersion), spaceID, now
	if o.ParentID != p.Parent || o.Position != p.Position {
		v.ParentID, v.Position = t.ParentID, t.Position
	}
	if o.Title != p.Title {
		v.Title = t.Title
	}
	from = o.ID
	if o.ContentHash != p.Content {
		v.DocumentID, v.Link, v.ContentHash = t.DocumentID, t.Link, t.ContentHash
		v.Computed, v.ComputedSeed = t.Computed, t.ComputedSeed
		from = t.ID
	}
	if o.MetaHash != p.Meta {
		v.Type, v.Slug, v.Emoji, v.Description, v.Hidden = t.Type, t.Slug, t.Emoji, t.Description, t.Hidden
		v.Layout, v.Cover, v.Variables, v.MetaHash = t.Layout, t.Cover, t.Variables, t.MetaHash
		v.LinkTitle, v.Icon, v.NoIndex, v.NoRobotsIndex, v.MetaLinks = t.LinkTitle, t.Icon, t.NoIndex, t.NoRobotsIndex, t.MetaLinks
	}
	if v.PageCreatedAt == nil {
		v.PageCreatedAt = t.PageCreatedAt
	}
	return &v, from
}

func fileSig(v *ent.FileVersion) string {
	if v == nil {
		return ""
	}
	return v.Name + "\x00" + v.ContentType + "\x00" + v.BlobID
}

func fileConflict(b, o, t *ent.FileVersion) string {
	switch {
	case o == nil:
		return "file deleted in ours but changed in theirs"
	case t == nil:
		return "file changed in ours but deleted in theirs"
	case b == nil:
		return "file added on both sides with different content"
	}
	return "file changed differently on both sides"
}

func varSig(m map[string]any, k string) string {
	v, ok := m[k]
	if !ok {
		return ""
	}
	b, _ := json.Marshal(v)
	return "=" + string(b)
}

// Merge merges a change request into its space: a three-way merge between
// the revision the change request derives from (its last update from the
// space, else the revision it started from), the space's current revision
// (ours) and the change request's head (theirs). With conflicts nothing
// changes and the result lists them. Otherwise a revision of type merge (a
// delta on the space's current revision) becomes the space's current
// revision and the change request is merged, with the counters, in one
// transaction. The space row is locked: concurrent merges into one space
// run one after the other, the second merging onto the first's result.
// The caller needs review rights on the space (its merge permission), and
// the merge rules that apply to the space (its own, or its organization's
// when it inherits them) are checked in the transaction, on the rows it
// has locked, so that nothing changes between the check and the merge.
// Errors: NotFound, BadRequest (already merged or archived), Forbidden
// (no review rights; locked space), PreconditionFailed (a merge rule is
// not met; deleted space).
func (s *Service) Merge(ctx context.Context, crID string) (*MergeResult, error) {
	if _, _, err := s.ChangeRequestFor(ctx, crID, types.RoleReview); err != nil {
		return nil, err
	}
	userID := actor(ctx)
	now := s.Now()
	var res *MergeResult
	err := withTx(ctx, s.Client, func(tx *ent.Tx) error {
		c := tx.Client()
		cr, err := getChangeRequest(ctx, c, crID)
		if err != nil {
			return err
		}
		sp, err := lockSpace(ctx, c, cr.SpaceID)
		if err != nil {
			return err
		}
		if cr, err = lockChangeRequest(ctx, c, crID); err != nil {
			return err
		}
		if err := s.checkMergeRules(ctx, c, cr, sp, userID); err != nil {
			return err
		}
		if err := checkOpen(cr, "be merged"); err != nil {
			return err
		}
		if err := checkEditable(sp, "merging"); err != nil {
			return err
		}
		baseID, oursID, theirsID := baseOf(cr), sp.RevisionID, cr.RevisionID
		revs, states, err := loadStates(ctx, c, loadTree, baseID, oursID, theirsID)
		if err != nil {
			return err
		}
		merged, fresh, conflicts := mergeStates(sp.ID, now, states[baseID], states[oursID], states[theirsID])
		if len(conflicts) > 0 {
			res = &MergeResult{Result: ResultConflicts, Conflicts: conflicts, ChangeRequest: cr}
			return nil
		}
		if err := insertPending(ctx, c, fresh); err != nil {
			return err
		}
		rev, err := writeRevision(ctx, c, revisionWrite{
			spaceID: sp.ID, typ: RevisionMerge, base: revs[oursID], baseState: states[oursID], next: merged,
			parents: []string{oursID, theirsID}, crID: &cr.ID, authorID: author(userID), now: now,
		})
		if err != nil {
			return err
		}
		draft, open := counterDelta(cr.Status, StatusMerged)
		err = s.setCurrentRevision(ctx, tx, revisionChange{space: sp, rev: rev, old: states[oursID], next: merged,
			changeRequest: cr.ID, actor: userID, now: now, update: func(u *ent.SpaceUpdate) *ent.SpaceUpdate {
				return u.AddChangeRequestsDraft(draft).AddChangeRequestsOpen(open)
			}})
		if err != nil {
			return err
		}
		cr, err = c.ChangeRequest.UpdateOneID(cr.ID).SetStatus(StatusMerged).SetRevisionMerged(rev.ID).
			SetMergedAt(now).SetUpdatedAt(now).Save(ctx)
		if err != nil {
			return fmt.Errorf("update change request: %w", err)
		}
		res = &MergeResult{Result: ResultMerge, Revision: rev.ID, ChangeRequest: cr}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// UpdateFromSpace brings the space's current content into a change request:
// the same three-way merge as Merge in the other direction (ours is the
// change request's head, theirs the space's current revision). Without
// conflicts it writes a revision of type update on the change request (when
// anything changes) and records the space's revision as the change
// request's merged ancestor, so that it is no longer outdated. The caller
// needs edit rights on the space.
// Errors: NotFound, BadRequest (merged or archived change request),
// Forbidden.
func (s *Service) UpdateFromSpace(ctx context.Context, crID string) (*MergeResult, error) {
	if _, _, err := s.ChangeRequestFor(ctx, crID, types.RoleEdit); err != nil {
		return nil, err
	}
	userID := actor(ctx)
	now := s.Now()
	var res *MergeResult
	err := withTx(ctx, s.Client, func(tx *ent.Tx) error {
		c := tx.Client()
		cr, err := lockChangeRequest(ctx, c, crID)
		if err != nil {
			return err
		}
		if err := checkOpen(cr, "be updated"); err != nil {
			return err
		}
		sp, err := c.Space.Get(ctx, cr.SpaceID)
		if err != nil {
			return fmt.Errorf("load space: %w", err)
		}
		baseID, oursID, theirsID := baseOf(cr), cr.RevisionID, sp.RevisionID
		if baseID == theirsID {
			res = &MergeResult{Result: ResultUpdate, Revision: cr.RevisionID, ChangeRequest: cr}
			return nil
		}
		revs, states, err := loadStates(ctx, c, loadTree, baseID, oursID, theirsID)
		if err != nil {
			return err
		}
		merged, fresh, conflicts := mergeStates(sp.ID, now, states[baseID], states[oursID], states[theirsID])
		if len(conflicts) > 0 {
			res = &MergeResult{Result: ResultConflicts, Conflicts: conflicts, ChangeRequest: cr}
			return nil
		}
		head := oursID
		if len(diffEntries(states[oursID], merged)) > 0 || !sameJSON(states[oursID].vars, merged.vars) {
			if err := insertPending(ctx, c, fresh); err != nil {
				return err
			}
			rev, err := writeRevision(ctx, c, revisionWrite{
				spaceID: sp.ID, typ: RevisionUpdate, base: revs[oursID], baseState: states[oursID], next: merged,
				parents: []string{oursID, theirsID}, crID: &cr.ID, authorID: author(userID), now: now,
			})
			if err != nil {
				return err
			}
			head = rev.ID
		}
		cr, err = c.ChangeRequest.UpdateOneID(cr.ID).SetRevisionID(head).SetRevisionMergedAncestor(theirsID).
			SetUpdatedAt(now).Save(ctx)
		if err != nil {
			return fmt.Errorf("update change request: %w", err)
		}
		res = &MergeResult{Result: ResultUpdate, Revision: head, ChangeRequest: cr}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}
