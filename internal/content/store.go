package content

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"time"

	"quire/ent"
	"quire/ent/contentblob"
	"quire/ent/fileversion"
	"quire/ent/pageversion"
	"quire/ent/revision"
	"quire/ent/revisionentry"
	"quire/internal/apierr"
	"quire/internal/ids"
	"quire/internal/types"
)

// state is the content of a revision: the version of every page and file,
// and the variables. Versions are shared and never modified; a state is
// changed by replacing map values.
type state struct {
	pages map[string]*ent.PageVersion // page id → version
	files map[string]*ent.FileVersion // file id → version
	vars  map[string]any
}

func newState() *state {
	return &state{pages: map[string]*ent.PageVersion{}, files: map[string]*ent.FileVersion{}, vars: map[string]any{}}
}

func (s *state) clone() *state {
	return &state{pages: maps.Clone(s.pages), files: maps.Clone(s.files), vars: maps.Clone(s.vars)}
}

// chainOf lists the revisions whose entries make r, oldest first. Revisions
// without a chain (a new space's empty revision) are snapshots of themselves.
func chainOf(r *ent.Revision) []string {
	if len(r.Chain) == 0 {
		return []string{r.ID}
	}
	return r.Chain
}

// pageColumns are the page version columns trees, edits and merges need;
// refs and anchors are only read for links (and copied by insertPending
// when a new version keeps an old one's content).
var pageColumns = func() []string {
	var out []string
	for _, c := range pageversion.Columns {
		switch c {
		case pageversion.FieldRefs, pageversion.FieldAnchors, pageversion.FieldSpaceID, pageversion.FieldCreatedAt:
		default:
			out = append(out, c)
		}
	}
	return out
}()

// treeColumns are the page version columns a revision's tree shows.
var treeColumns = func() []string {
	var out []string
	for _, c := range pageColumns {
		switch c {
		case pageversion.FieldContentHash, pageversion.FieldMetaHash, pageversion.FieldDocumentID:
		default:
			out = append(out, c)
		}
	}
	return out
}()

// loadRevisions reads revision rows by id; missing ids are NotFound.
func loadRevisions(ctx context.Context, c *ent.Client, revIDs ...string) (map[string]*ent.Revision, error) {
	revs := make(map[string]*ent.Revision, len(revIDs))
	want := uniq(revIDs)
	for _, part := range chunks(want, chunk) {
		rows, err := c.Revision.Query().Where(revision.IDIn(part...)).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("load revisions: %w", err)
		}
		for _, r := range rows {
			revs[r.ID] = r
		}
	}
	for _, id := range want {
		if revs[id] == nil {
			return nil, apierr.NotFoundf("No matching revision found for id %q", id)
		}
	}
	return revs, nil
}

// What loadStates reads.
type loadMode int

const (
	loadTree  loadMode = iota // pages (without refs and anchors) and files, for edits and merges
	loadView                  // pages (only what Revision shows) and files
	loadLinks                 // pages with refs and anchors, and files
	loadFiles                 // files only
)

// loadStates reads the content of revisions. Revisions that share chain
// members (a change request and its space) are read together: one statement
// for the revision rows, one per 500 chain members for the entries, one per
// 500 distinct versions.
func loadStates(ctx context.Context, c *ent.Client, mode loadMode, revIDs ...string) (map[string]*ent.Revision, map[string]*state, error) {
	revs, err := loadRevisions(ctx, c, revIDs...)
	if err != nil {
		return nil, nil, err
	}
	var members []string
	for _, r := range revs {
		members = append(members, chainOf(r)...)
	}
	members = uniq(members)
	byRev := map[string][]*ent.RevisionEntry{}
	for _, part := range chunks(members, chunk) {
		q := c.RevisionEntry.Query().Where(revisionentry.RevisionIDIn(part...))
		if mode == loadFiles {
			q = q.Where(revisionentry.Kind(kindFile))
		}
		rows, err := q.
			Select(revisionentry.FieldRevisionID, revisionentry.FieldKind, revisionentry.FieldItemID, revisionentry.FieldVersionID).
			All(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("load revision entries: %w", err)
		}
		for _, e := range rows {
			byRev[e.RevisionID] = append(byRev[e.RevisionID], e)
		}
	}
	// Replay each chain: item → version id.
	type ids struct{ pages, files map[string]string }
	replayed := map[string]ids{}
	pageIDs, fileIDs := map[string]bool{}, map[string]bool{}
	for id, r := range revs {
		x := ids{pages: map[string]string{}, files: map[string]string{}}
		for _, member := range chainOf(r) {
			for _, e := range byRev[member] {
				m := x.pages
				if e.Kind == kindFile {
					m = x.files
				}
				if e.VersionID == nil {
					delete(m, e.ItemID)
				} else {
					m[e.ItemID] = *e.VersionID
				}
			}
		}
		for _, v := range x.pages {
			pageIDs[v] = true
		}
		for _, v := range x.files {
			fileIDs[v] = true
		}
		replayed[id] = x
	}
	pv, err := loadPageVersions(ctx, c, slices.Collect(maps.Keys(pageIDs)), mode)
	if err != nil {
		return nil, nil, err
	}
	fv, err := loadFileVersions(ctx, c, slices.Collect(maps.Keys(fileIDs)))
	if err != nil {
		return nil, nil, err
	}
	states := make(map[string]*state, len(revs))
	for id, x := range replayed {
		st := &state{pages: make(map[string]*ent.PageVersion, len(x.pages)), files: make(map[string]*ent.FileVersion, len(x.files)), vars: maps.Clone(revs[id].Variables)}
		if st.vars == nil {
			st.vars = map[string]any{}
		}
		for item, v := range x.pages {
			if p := pv[v]; p != nil {
				st.pages[item] = p
			}
		}
		for item, v := range x.files {
			if f := fv[v]; f != nil {
				st.files[item] = f
			}
		}
		states[id] = st
	}
	return revs, states, nil
}

func loadPageVersions(ctx context.Context, c *ent.Client, versionIDs []string, mode loadMode) (map[string]*ent.PageVersion, error) {
	out := make(map[string]*ent.PageVersion, len(versionIDs))
	slices.Sort(versionIDs)
	for _, part := range chunks(versionIDs, chunk) {
		q := c.PageVersion.Query().Where(pageversion.IDIn(part...))
		switch mode {
		case loadTree:
			q = q.Select(pageColumns...).PageVersionQuery
		case loadView:
			q = q.Select(treeColumns...).PageVersionQuery
		}
		rows, err := q.All(ctx)
		if err != nil {
			return nil, fmt.Errorf("load page versions: %w", err)
		}
		for _, p := range rows {
			out[p.ID] = p
		}
	}
	return out, nil
}

func loadFileVersions(ctx context.Context, c *ent.Client, versionIDs []string) (map[string]*ent.FileVersion, error) {
	out := make(map[string]*ent.FileVersion, len(versionIDs))
	slices.Sort(versionIDs)
	for _, part := range chunks(versionIDs, chunk) {
		rows, err := c.FileVersion.Query().Where(fileversion.IDIn(part...)).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("load file versions: %w", err)
		}
		for _, f := range rows {
			out[f.ID] = f
		}
	}
	return out, nil
}

// itemVersion finds the version id of one page or file in a revision with
// one statement (no full read): the newest entry for it along the chain.
// ok is false when the revision does not hold the item.
func itemVersion(ctx context.Context, c *ent.Client, r *ent.Revision, kind, itemID string) (string, bool, error) {
	chain := chainOf(r)
	rows, err := c.RevisionEntry.Query().
		Where(revisionentry.RevisionIDIn(chain...), revisionentry.Kind(kind), revisionentry.ItemID(itemID)).
		Select(revisionentry.FieldRevisionID, revisionentry.FieldVersionID).All(ctx)
	if err != nil {
		return "", false, fmt.Errorf("load entry: %w", err)
	}
	best, at := (*ent.RevisionEntry)(nil), -1
	for _, e := range rows {
		if i := slices.Index(chain, e.RevisionID); i > at {
			best, at = e, i
		}
	}
	if best == nil || best.VersionID == nil {
		return "", false, nil
	}
	return *best.VersionID, true, nil
}

// loadBlobs reads content blobs by hash.
func loadBlobs(ctx context.Context, c *ent.Client, hashes []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(hashes))
	for _, part := range chunks(uniq(hashes), chunk) {
		rows, err := c.ContentBlob.Query().Where(contentblob.IDIn(part...)).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("load blobs: %w", err)
		}
		for _, b := range rows {
			out[b.ID] = b.Data
		}
	}
	return out, nil
}

func hashBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// pending collects what a write adds: new versions and blobs.
type pending struct {
	pages []*ent.PageVersion
	files []*ent.FileVersion
	blobs map[string][]byte
	// inherit maps new page versions that keep the content of an existing
	// version (read without refs and anchors) to that version.
	inherit map[string]string
}

func (p *pending) blob(data []byte) string {
	h := hashBytes(data)
	if p.blobs == nil {
		p.blobs = map[string][]byte{}
	}
	p.blobs[h] = data
	return h
}

// revisionWrite describes a revision to write.
type revisionWrite struct {
	spaceID string
	typ     string
	// base is the revision the new one follows (nil: none, write a
	// snapshot); baseState its content.
	base      *ent.Revision
	baseState *state
	next      *state
	parents   []string
	crID      *string
	authorID  *string
	now       time.Time
	// git is the Git commit the revision comes from, if any.
	git *types.GitCommit
}

// insertPending writes new blobs (skipping those already stored) and
// versions.
func insertPending(ctx context.Context, c *ent.Client, p *pending) error {
	if len(p.blobs) > 0 {
		hashes := slices.Sorted(maps.Keys(p.blobs))
		// Batches of at most chunk rows and about 8 MB.
		for len(hashes) > 0 {
			var batch []*ent.ContentBlobCreate
			size := 0
			for len(hashes) > 0 && len(batch) < chunk && (size < 8<<20 || len(batch) == 0) {
				h := hashes[0]
				hashes = hashes[1:]
				d := p.blobs[h]
				size += len(d)
				batch = append(batch, c.ContentBlob.Create().SetID(h).SetData(d).SetSize(int64(len(d))))
			}
			if err := c.ContentBlob.CreateBulk(batch...).OnConflictColumns(contentblob.FieldID).DoNothing().Exec(ctx); err != nil {
				return fmt.Errorf("store blobs: %w", err)
			}
		}
	}
	if err := inheritRefs(ctx, c, p); err != nil {
		return err
	}
	for _, part := range chunks(p.pages, chunk) {
		batch := make([]*ent.PageVersionCreate, len(part))
		for i, v := range part {
			b := c.PageVersion.Create().SetID(v.ID).SetSpaceID(v.SpaceID).SetPageID(v.PageID).
				SetParentID(v.ParentID).SetPosition(v.Position).SetType(v.Type).SetTitle(v.Title).
				SetSlug(v.Slug).SetEmoji(v.Emoji).SetDescription(v.Description).SetHidden(v.Hidden).
				SetNillableDocumentID(v.DocumentID).SetContentHash(v.ContentHash).SetMetaHash(v.MetaHash).
				SetCreatedAt(v.CreatedAt)
			// Absent JSON values stay SQL NULL: cheaper to read than "null".
			if v.Layout != nil {
				b.SetLayout(v.Layout)
			}
			if v.Cover != nil {
				b.SetCover(v.Cover)
			}
			if v.Variables != nil {
				b.SetVariables(v.Variables)
			}
			if v.Link != nil {
				b.SetLink(v.Link)
			}
			if v.Refs != nil {
				b.SetRefs(v.Refs)
			}
			if v.Anchors != nil {
				b.SetAnchors(v.Anchors)
			}
			if v.Git != nil {
				b.SetGit(v.Git)
			}
			batch[i] = b
		}
		if err := c.PageVersion.CreateBulk(batch...).Exec(ctx); err != nil {
			return fmt.Errorf("store page versions: %w", err)
		}
	}
	for _, part := range chunks(p.files, chunk) {
		batch := make([]*ent.FileVersionCreate, len(part))
		for i, v := range part {
			b := c.FileVersion.Create().SetID(v.ID).SetSpaceID(v.SpaceID).SetFileID(v.FileID).
				SetName(v.Name).SetContentType(v.ContentType).SetSize(v.Size).SetBlobID(v.BlobID).
				SetNillableWidth(v.Width).SetNillableHeight(v.Height).SetCreatedAt(v.CreatedAt)
			if v.Git != nil {
				b.SetGit(v.Git)
			}
			batch[i] = b
		}
		if err := c.FileVersion.CreateBulk(batch...).Exec(ctx); err != nil {
			return fmt.Errorf("store file versions: %w", err)
		}
	}
	return nil
}

// inheritRefs copies refs and anchors into the new versions that keep an
// existing version's content.
func inheritRefs(ctx context.Context, c *ent.Client, p *pending) error {
	var from []string
	for _, v := range p.pages {
		if src, ok := p.inherit[v.ID]; ok {
			from = append(from, src)
		}
	}
	if len(from) == 0 {
		return nil
	}
	src := map[string]*ent.PageVersion{}
	for _, part := range chunks(uniq(from), chunk) {
		rows, err := c.PageVersion.Query().Where(pageversion.IDIn(part...)).
			Select(pageversion.FieldRefs, pageversion.FieldAnchors).All(ctx)
		if err != nil {
			return fmt.Errorf("load page references: %w", err)
		}
		for _, r := range rows {
			src[r.ID] = r
		}
	}
	for _, v := range p.pages {
		if id, ok := p.inherit[v.ID]; ok && src[id] != nil {
			v.Refs, v.Anchors = src[id].Refs, src[id].Anchors
		}
	}
	return nil
}

type entry struct {
	kind, item string
	version    *string
}

// diffEntries lists the entries that turn base into next.
func diffEntries(base, next *state) []entry {
	var out []entry
	for id, v := range next.pages {
		if b := base.pages[id]; b == nil || b.ID != v.ID {
			out = append(out, entry{kindPage, id, &v.ID})
		}
	}
	for id := range base.pages {
		if next.pages[id] == nil {
			out = append(out, entry{kindPage, id, nil})
		}
	}
	for id, v := range next.files {
		if b := base.files[id]; b == nil || b.ID != v.ID {
			out = append(out, entry{kindFile, id, &v.ID})
		}
	}
	for id := range base.files {
		if next.files[id] == nil {
			out = append(out, entry{kindFile, id, nil})
		}
	}
	return out
}

// snapshotEntries lists an entry for every item of st.
func snapshotEntries(st *state) []entry {
	out := make([]entry, 0, len(st.pages)+len(st.files))
	for id, v := range st.pages {
		out = append(out, entry{kindPage, id, &v.ID})
	}
	for id, v := range st.files {
		out = append(out, entry{kindFile, id, &v.ID})
	}
	return out
}

// writeRevision writes a revision: a delta on w.base, or a snapshot when
// there is no base or the base's chain already holds MaxChain deltas.
func writeRevision(ctx context.Context, c *ent.Client, w revisionWrite) (*ent.Revision, error) {
	id := ids.New(ids.Revision)
	var (
		chain   []string
		baseID  *string
		entries []entry
	)
	if w.base != nil && len(chainOf(w.base))-1 < MaxChain {
		chain = append(slices.Clone(chainOf(w.base)), id)
		baseID = &w.base.ID
		entries = diffEntries(w.baseState, w.next)
	} else {
		chain = []string{id}
		entries = snapshotEntries(w.next)
	}
	parents := w.parents
	if parents == nil {
		parents = []string{}
	}
	vars := w.next.vars
	if vars == nil {
		vars = map[string]any{}
	}
	create := c.Revision.Create().SetID(id).SetSpaceID(w.spaceID).SetType(w.typ).SetParents(parents).
		SetCreatedAt(w.now).SetNillableBaseID(baseID).SetChain(chain).SetNillableChangeRequestID(w.crID).
		SetNillableAuthorID(w.authorID).SetVariables(vars)
	if w.git != nil {
		create.SetGit(w.git)
	}
	rev, err := create.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("create revision: %w", err)
	}
	// A stable order keeps statements and lock order deterministic.
	slices.SortFunc(entries, func(a, b entry) int {
		if a.kind != b.kind {
			if a.kind < b.kind {
				return -1
			}
			return 1
		}
		switch {
		case a.item < b.item:
			return -1
		case a.item > b.item:
			return 1
		}
		return 0
	})
	for _, part := range chunks(entries, chunk) {
		batch := make([]*ent.RevisionEntryCreate, len(part))
		for i, e := range part {
			batch[i] = c.RevisionEntry.Create().SetRevisionID(id).SetSpaceID(w.spaceID).
				SetKind(e.kind).SetItemID(e.item).SetNillableVersionID(e.version)
		}
		if err := c.RevisionEntry.CreateBulk(batch...).Exec(ctx); err != nil {
			return nil, fmt.Errorf("store revision entries: %w", err)
		}
	}
	return rev, nil
}

func uniq(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}
