package translate

import (
	"context"
	"fmt"
	"slices"
	"time"

	"quire/ent"
	"quire/ent/translation"
	"quire/ent/translationfile"
	"quire/ent/translationpage"
	"quire/internal/content"
	"quire/internal/db"
	"quire/internal/jobs"
)

// apply translates the diff's units, then writes the result's revision
// and the new maps in one edit. start is when the run began (its
// duration is recorded).
func (s *Service) apply(ctx context.Context, run jobs.Run, p *plan, d *diff, start time.Time) error {
	if err := s.translateUnits(ctx, run, p.t, d.units); err != nil {
		return err
	}
	ops := slices.Concat(d.fileOps,
		pageOps(p.works, p.pageMaps, p.pageID, p.fileID, p.resPages, p.resPrev, p.src.ID),
		p.pageDeletes())
	if err := run.Progress(ctx, 0.95, "writing the translated revision"); err != nil {
		return err
	}
	record := func(tx *ent.Tx, res *content.SpaceEditResult) error {
		return s.record(ctx, tx, p, d, res, time.Since(start).Milliseconds())
	}
	if len(ops) == 0 {
		// Nothing to write: the run is recorded against the result as it is.
		return db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
			sp, err := tx.Space.Get(ctx, p.result.ID)
			if err != nil {
				return fmt.Errorf("read result space: %w", err)
			}
			return record(tx, &content.SpaceEditResult{Space: sp, Revision: sp.RevisionID})
		})
	}
	_, err := s.Content.EditSpaceThen(ctx, p.result.ID, record, ops...)
	return err
}

// pageDeletes deletes the result pages whose source page is gone, each
// with its subtree, unless an ancestor in the result goes too.
func (p *plan) pageDeletes() []content.Op {
	var ops []content.Op
	for sid, m := range p.pageMaps {
		if _, ok := p.pageID[sid]; ok || p.resPages[m.ResultPageID] == nil {
			continue
		}
		gone := false
		for a := p.resPages[m.ResultPageID].Parent; a != "" && p.resPages[a] != nil; a = p.resPages[a].Parent {
			if deletedBySource(a, p.pageMaps, p.pageID) {
				gone = true
				break
			}
		}
		if !gone {
			ops = append(ops, &content.DeletePage{Page: m.ResultPageID})
		}
	}
	return ops
}

// record replaces the translation's page and file maps and records the
// run on the translation, in the transaction that wrote the result's
// revision res.
func (s *Service) record(ctx context.Context, tx *ent.Tx, p *plan, d *diff, res *content.SpaceEditResult, ms int64) error {
	t := p.t
	if _, err := tx.TranslationPage.Delete().Where(translationpage.TranslationID(t.ID)).Exec(ctx); err != nil {
		return fmt.Errorf("page map: %w", err)
	}
	var pc []*ent.TranslationPageCreate
	firstTime := 0
	for _, w := range p.works {
		hash := w.textHash
		if hash == "" && p.pageMaps[w.src.ID] != nil {
			hash = p.pageMaps[w.src.ID].TextHash
		}
		pc = append(pc, tx.TranslationPage.Create().SetTranslationID(t.ID).SetSourcePageID(w.src.ID).
			SetResultPageID(w.resultID).SetSourceVersion(w.src.Version).SetTextHash(hash))
		if w.translate && w.firstTime {
			firstTime++
		}
	}
	for b := range slices.Chunk(pc, 200) {
		if err := tx.TranslationPage.CreateBulk(b...).Exec(ctx); err != nil {
			return fmt.Errorf("page map: %w", err)
		}
	}
	if _, err := tx.TranslationFile.Delete().Where(translationfile.TranslationID(t.ID)).Exec(ctx); err != nil {
		return fmt.Errorf("file map: %w", err)
	}
	var fc []*ent.TranslationFileCreate
	for _, f := range p.rev.Files {
		fc = append(fc, tx.TranslationFile.Create().SetTranslationID(t.ID).SetSourceFileID(f.ID).
			SetResultFileID(p.fileID[f.ID]).SetSourceVersion(f.Version))
	}
	for b := range slices.Chunk(fc, 200) {
		if err := tx.TranslationFile.CreateBulk(b...).Exec(ctx); err != nil {
			return fmt.Errorf("file map: %w", err)
		}
	}
	return tx.Translation.UpdateOneID(t.ID).Where(translation.ID(t.ID)).SetStatus(StatusCompleted).
		SetResultSpaceID(p.result.ID).SetResultRevisionID(res.Revision).SetAppliedInstructions(p.instrHash).
		AddRuns(1).AddTotalWords(d.words).AddTotalPages(firstTime).AddTotalDurationMs(ms).
		SetLatestDurationMs(ms).SetLatestPages(d.pages).SetLatestWords(d.words).SetUpdatedAt(s.Now()).Exec(ctx)
}
