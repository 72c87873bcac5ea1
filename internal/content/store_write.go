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
	"quire/ent/pageversion"
	"quire/internal/ids"
	"quire/internal/types"
)

func hashBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// pending collects what a write adds: new versions and blobs.
type pending struct {
	pages     []*ent.PageVersion
	files     []*ent.FileVersion
	reusables []*ent.ReusableContentVersion
	blobs     map[string][]byte
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
	for part := range slices.Chunk(p.pages, chunk) {
		batch := make([]*ent.PageVersionCreate, len(part))
		for i, v := range part {
			b := c.PageVersion.Create().SetID(v.ID).SetSpaceID(v.SpaceID).SetPageID(v.PageID).
				SetParentID(v.ParentID).SetPosition(v.Position).SetType(v.Type).SetTitle(v.Title).
				SetSlug(v.Slug).SetEmoji(v.Emoji).SetDescription(v.Description).SetHidden(v.Hidden).
				SetNillableDocumentID(v.DocumentID).SetContentHash(v.ContentHash).SetMetaHash(v.MetaHash).
				SetCreatedAt(v.CreatedAt).SetLinkTitle(v.LinkTitle).SetIcon(v.Icon).SetNoIndex(v.NoIndex).
				SetNoRobotsIndex(v.NoRobotsIndex).SetComputedSeed(v.ComputedSeed).SetNillablePageCreatedAt(v.PageCreatedAt)
			// Absent JSON values stay SQL NULL: cheaper to read than "null".
			if v.MetaLinks != nil {
				b.SetMetaLinks(v.MetaLinks)
			}
			if v.Computed != nil {
				b.SetComputed(v.Computed)
			}
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
	for part := range slices.Chunk(p.files, chunk) {
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
	return insertReusables(ctx, c, p.reusables)
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
	for part := range slices.Chunk(uniq(from), chunk) {
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
	for id, v := range next.reusables {
		if b := base.reusables[id]; b == nil || b.ID != v.ID {
			out = append(out, entry{kindReusable, id, &v.ID})
		}
	}
	for id := range base.reusables {
		if next.reusables[id] == nil {
			out = append(out, entry{kindReusable, id, nil})
		}
	}
	return out
}

// snapshotEntries lists an entry for every item of st.
func snapshotEntries(st *state) []entry {
	out := make([]entry, 0, len(st.pages)+len(st.files)+len(st.reusables))
	for id, v := range st.pages {
		out = append(out, entry{kindPage, id, &v.ID})
	}
	for id, v := range st.files {
		out = append(out, entry{kindFile, id, &v.ID})
	}
	for id, v := range st.reusables {
		out = append(out, entry{kindReusable, id, &v.ID})
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
	for part := range slices.Chunk(entries, chunk) {
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
