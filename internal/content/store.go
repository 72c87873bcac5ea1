package content

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"quire/ent"
	"quire/ent/contentblob"
	"quire/ent/fileversion"
	"quire/ent/pageversion"
	"quire/ent/revision"
	"quire/ent/revisionentry"
	"quire/internal/apierr"
)

// state is the content of a revision: the version of every page, file and
// reusable content, and the variables. Versions are shared and never
// modified; a state is changed by replacing map values.
type state struct {
	pages     map[string]*ent.PageVersion            // page id → version
	files     map[string]*ent.FileVersion            // file id → version
	reusables map[string]*ent.ReusableContentVersion // reusable content id → version
	vars      map[string]any
}

func newState() *state {
	return &state{pages: map[string]*ent.PageVersion{}, files: map[string]*ent.FileVersion{},
		reusables: map[string]*ent.ReusableContentVersion{}, vars: map[string]any{}}
}

func (s *state) clone() *state {
	return &state{pages: maps.Clone(s.pages), files: maps.Clone(s.files), reusables: maps.Clone(s.reusables), vars: maps.Clone(s.vars)}
}

// chainOf lists the revisions whose entries make r, oldest first. Revisions
// without a chain (a new space's empty revision) are snapshots of themselves.
func chainOf(r *ent.Revision) []string {
	if len(r.Chain) == 0 {
		return []string{r.ID}
	}
	return r.Chain
}

// pageColumns are the page version columns trees, edits and merges need
// (created_at is a page's updatedAt); refs and anchors are only read for
// links (and copied by insertPending when a new version keeps an old
// one's content).
var pageColumns = func() []string {
	var out []string
	for _, c := range pageversion.Columns {
		switch c {
		case pageversion.FieldRefs, pageversion.FieldAnchors, pageversion.FieldSpaceID:
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
	for part := range slices.Chunk(want, chunk) {
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
	loadTree  loadMode = iota // pages (without refs and anchors), files and reusable contents (without refs), for edits and merges
	loadView                  // pages (only what Revision shows), files and reusable contents
	loadLinks                 // pages and reusable contents with refs and anchors, and files
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
	for part := range slices.Chunk(members, chunk) {
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
	type ids struct{ pages, files, reusables map[string]string }
	replayed := map[string]ids{}
	pageIDs, fileIDs, reusableIDs := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for id, r := range revs {
		x := ids{pages: map[string]string{}, files: map[string]string{}, reusables: map[string]string{}}
		for _, member := range chainOf(r) {
			for _, e := range byRev[member] {
				m := x.pages
				switch e.Kind {
				case kindFile:
					m = x.files
				case kindReusable:
					m = x.reusables
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
		for _, v := range x.reusables {
			reusableIDs[v] = true
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
	rv, err := loadReusableVersions(ctx, c, slices.Collect(maps.Keys(reusableIDs)), mode)
	if err != nil {
		return nil, nil, err
	}
	states := make(map[string]*state, len(revs))
	for id, x := range replayed {
		st := &state{pages: make(map[string]*ent.PageVersion, len(x.pages)), files: make(map[string]*ent.FileVersion, len(x.files)),
			reusables: make(map[string]*ent.ReusableContentVersion, len(x.reusables)), vars: maps.Clone(revs[id].Variables)}
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
		for item, v := range x.reusables {
			if r := rv[v]; r != nil {
				st.reusables[item] = r
			}
		}
		states[id] = st
	}
	return revs, states, nil
}

func loadPageVersions(ctx context.Context, c *ent.Client, versionIDs []string, mode loadMode) (map[string]*ent.PageVersion, error) {
	out := make(map[string]*ent.PageVersion, len(versionIDs))
	slices.Sort(versionIDs)
	for part := range slices.Chunk(versionIDs, chunk) {
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
	for part := range slices.Chunk(versionIDs, chunk) {
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
	for part := range slices.Chunk(uniq(hashes), chunk) {
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

func uniq(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}
