package content

import (
	"context"
	"fmt"
	"slices"

	entsql "entgo.io/ent/dialect/sql"

	"quire/ent"
	"quire/ent/changerequest"
	"quire/ent/contentblob"
	"quire/ent/fileversion"
	"quire/ent/pageversion"
	"quire/ent/reusablecontentversion"
	"quire/ent/revision"
	"quire/ent/revisionentry"
)

// DuplicateContent gives the new space dst a first revision holding the
// current content of src: a snapshot whose entries point at src's page and
// file versions, so nothing but the entries is written.
func (s *Service) DuplicateContent(ctx context.Context, tx *ent.Tx, src, dst *ent.Space) error {
	c := tx.Client()
	// The source's row is locked, so that its content and its search
	// index, copied here, are those of one revision.
	src, err := lockSpace(ctx, c, src.ID)
	if err != nil {
		return err
	}
	st := newState()
	if src.RevisionID != "" {
		_, states, err := loadStates(ctx, c, loadTree, src.RevisionID)
		if err != nil {
			return fmt.Errorf("read content of %s: %w", src.ID, err)
		}
		st = states[src.RevisionID]
	}
	now := s.Now()
	rev, err := writeRevision(ctx, c, revisionWrite{spaceID: dst.ID, typ: RevisionInitial, next: st, now: now})
	if err != nil {
		return err
	}
	return s.setCurrentRevision(ctx, tx, revisionChange{space: dst, rev: rev, next: st, copyFrom: src, actor: actor(ctx), now: now})
}

// PurgeSpace deletes the content of a space before the space row goes:
// change requests, revisions and their entries, then the page, file and
// reusable content versions and the blobs that no other space refers to
// any more.
func (s *Service) PurgeSpace(ctx context.Context, tx *ent.Tx, spaceID string) error {
	c := tx.Client()
	versions := func(kind string) ([]string, error) {
		used, err := c.RevisionEntry.Query().
			Where(revisionentry.SpaceID(spaceID), revisionentry.Kind(kind), revisionentry.VersionIDNotNil()).
			Unique(true).Select(revisionentry.FieldVersionID).Strings(ctx)
		if err != nil {
			return nil, fmt.Errorf("list %s versions: %w", kind, err)
		}
		var own []string
		switch kind {
		case kindPage:
			own, err = c.PageVersion.Query().Where(pageversion.SpaceID(spaceID)).IDs(ctx)
		case kindReusable:
			own, err = c.ReusableContentVersion.Query().Where(reusablecontentversion.SpaceID(spaceID)).IDs(ctx)
		default:
			own, err = c.FileVersion.Query().Where(fileversion.SpaceID(spaceID)).IDs(ctx)
		}
		if err != nil {
			return nil, fmt.Errorf("list %s versions: %w", kind, err)
		}
		return uniq(append(used, own...)), nil
	}
	pages, err := versions(kindPage)
	if err != nil {
		return err
	}
	files, err := versions(kindFile)
	if err != nil {
		return err
	}
	reusables, err := versions(kindReusable)
	if err != nil {
		return err
	}
	if s.Search != nil {
		if err := s.Search.Purge(ctx, tx, spaceID); err != nil {
			return err
		}
	}
	if _, err := c.ChangeRequest.Delete().Where(changerequest.SpaceID(spaceID)).Exec(ctx); err != nil {
		return fmt.Errorf("delete change requests: %w", err)
	}
	if _, err := c.RevisionEntry.Delete().Where(revisionentry.SpaceID(spaceID)).Exec(ctx); err != nil {
		return fmt.Errorf("delete revision entries: %w", err)
	}
	if _, err := c.Revision.Delete().Where(revision.SpaceID(spaceID)).Exec(ctx); err != nil {
		return fmt.Errorf("delete revisions: %w", err)
	}
	var blobs []string
	for part := range slices.Chunk(pages, chunk) {
		docs, err := c.PageVersion.Query().Where(pageversion.IDIn(part...), pageversion.DocumentIDNotNil(), unreferenced(pageversion.FieldID)).
			Select(pageversion.FieldDocumentID).Strings(ctx)
		if err != nil {
			return fmt.Errorf("list documents: %w", err)
		}
		blobs = append(blobs, docs...)
		if _, err := c.PageVersion.Delete().Where(pageversion.IDIn(part...), unreferenced(pageversion.FieldID)).Exec(ctx); err != nil {
			return fmt.Errorf("delete page versions: %w", err)
		}
	}
	for part := range slices.Chunk(files, chunk) {
		data, err := c.FileVersion.Query().Where(fileversion.IDIn(part...), unreferenced(fileversion.FieldID)).
			Select(fileversion.FieldBlobID).Strings(ctx)
		if err != nil {
			return fmt.Errorf("list file blobs: %w", err)
		}
		blobs = append(blobs, data...)
		if _, err := c.FileVersion.Delete().Where(fileversion.IDIn(part...), unreferenced(fileversion.FieldID)).Exec(ctx); err != nil {
			return fmt.Errorf("delete file versions: %w", err)
		}
	}
	for part := range slices.Chunk(reusables, chunk) {
		docs, err := c.ReusableContentVersion.Query().Where(reusablecontentversion.IDIn(part...), unreferenced(reusablecontentversion.FieldID)).
			Select(reusablecontentversion.FieldDocumentID).Strings(ctx)
		if err != nil {
			return fmt.Errorf("list reusable content documents: %w", err)
		}
		blobs = append(blobs, docs...)
		if _, err := c.ReusableContentVersion.Delete().Where(reusablecontentversion.IDIn(part...), unreferenced(reusablecontentversion.FieldID)).Exec(ctx); err != nil {
			return fmt.Errorf("delete reusable content versions: %w", err)
		}
	}
	for part := range slices.Chunk(uniq(blobs), chunk) {
		_, err := c.ContentBlob.Delete().Where(contentblob.IDIn(part...), func(s *entsql.Selector) {
			d := entsql.Dialect(s.Dialect())
			pv, fv, rv := d.Table(pageversion.Table), d.Table(fileversion.Table), d.Table(reusablecontentversion.Table)
			s.Where(entsql.And(
				entsql.Not(entsql.Exists(d.Select(rv.C(reusablecontentversion.FieldID)).From(rv).
					Where(entsql.ColumnsEQ(rv.C(reusablecontentversion.FieldDocumentID), s.C(contentblob.FieldID))))),
				entsql.Not(entsql.Exists(d.Select(pv.C(pageversion.FieldID)).From(pv).
					Where(entsql.ColumnsEQ(pv.C(pageversion.FieldDocumentID), s.C(contentblob.FieldID))))),
				entsql.Not(entsql.Exists(d.Select(fv.C(fileversion.FieldID)).From(fv).
					Where(entsql.ColumnsEQ(fv.C(fileversion.FieldBlobID), s.C(contentblob.FieldID))))),
			))
		}).Exec(ctx)
		if err != nil {
			return fmt.Errorf("delete blobs: %w", err)
		}
	}
	return nil
}

// unreferenced keeps versions (id column idColumn) that no revision entry
// points at.
func unreferenced(idColumn string) func(*entsql.Selector) {
	return func(s *entsql.Selector) {
		d := entsql.Dialect(s.Dialect())
		t := d.Table(revisionentry.Table)
		s.Where(entsql.Not(entsql.Exists(d.Select(t.C(revisionentry.FieldID)).From(t).
			Where(entsql.ColumnsEQ(t.C(revisionentry.FieldVersionID), s.C(idColumn))))))
	}
}
