package translate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"quire/ent"
	"quire/ent/translation"
	"quire/ent/translationfile"
	"quire/ent/translationpage"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/db"
	"quire/internal/document"
	"quire/internal/ids"
	"quire/internal/jobs"
	"quire/internal/types"
)

// RunJob returns the handler of KindRun. It acts for the user who asked
// for the run (their rights apply, and they author the result's
// revision). A failed attempt leaves the translation as it was (completed
// when an earlier run's result stands, pending otherwise); errors that
// retrying cannot fix (no rights, a space deleted, a language the server
// does not know, a refused key) fail the job at once.
func (s *Service) RunJob() jobs.Handler {
	return func(ctx context.Context, run jobs.Run) error {
		var a runArgs
		if err := run.Args(&a); err != nil || a.Translation == "" {
			return jobs.Permanent(fmt.Errorf("arguments of %s: %v", KindRun, err))
		}
		var as *ent.User
		if a.User != "" {
			u, err := s.Client.User.Get(ctx, a.User)
			if err != nil {
				return jobs.Permanent(fmt.Errorf("the user who asked for the run: %w", err))
			}
			as = u
		}
		jctx := jobs.NewContext(ctx, s.Client, as)
		err := s.runOnce(jctx, run, a.Translation)
		if err == nil {
			return nil
		}
		// Back to what the translation was before the run.
		if t, gerr := s.Client.Translation.Get(ctx, a.Translation); gerr == nil {
			st := StatusPending
			if t.Runs > 0 {
				st = StatusCompleted
			}
			_ = s.Client.Translation.UpdateOneID(t.ID).SetStatus(st).SetUpdatedAt(s.Now()).Exec(context.WithoutCancel(ctx))
		}
		var se *ServerError
		switch {
		case errors.Is(err, jobs.ErrCancelled):
			return err
		case errors.Is(err, ErrUnsupported), errors.As(err, &se) && se.Permanent():
			return jobs.Permanent(err)
		}
		switch apierr.CodeOf(err) {
		case apierr.BadRequest, apierr.Forbidden, apierr.NotFound, apierr.PreconditionFailed:
			return jobs.Permanent(err)
		}
		return err
	}
}

// hashOf fingerprints values as JSON.
func hashOf(v ...any) string {
	b, _ := json.Marshal(v)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// work is a page of the source and what the run does with it.
type work struct {
	src      *content.Page
	resultID string
	create   bool
	// translate: its text is translated in this run.
	translate bool
	title     string
	desc      string
	doc       *document.Document
	textHash  string
	firstTime bool
}

func (s *Service) runOnce(ctx context.Context, run jobs.Run, id string) error {
	start := time.Now()
	t, err := s.Client.Translation.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil // deleted since: nothing to do
	}
	if err != nil {
		return fmt.Errorf("read translation: %w", err)
	}
	if s.Provider == nil {
		return ErrNoProvider
	}
	if err := s.Client.Translation.UpdateOne(t).SetStatus(StatusRunning).SetUpdatedAt(s.Now()).Exec(ctx); err != nil {
		return fmt.Errorf("start run: %w", err)
	}
	src, err := s.Content.SpaceFor(ctx, t.SourceSpaceID, types.RoleRead)
	if err != nil {
		return err
	}
	if src.DeletedAt != nil {
		return apierr.Invalid("source", "The source space %q is deleted", src.ID)
	}
	rev, err := s.Content.Revision(ctx, src.RevisionID)
	if err != nil {
		return err
	}
	result, fresh, err := s.resultSpace(ctx, t, src)
	if err != nil {
		return err
	}
	resRev, err := s.Content.Revision(ctx, result.RevisionID)
	if err != nil {
		return err
	}
	resPages := map[string]*content.Page{}
	resPrev := map[string]string{} // page → previous sibling in the result
	var index func(list []*content.Page)
	index = func(list []*content.Page) {
		for i, p := range list {
			resPages[p.ID] = p
			if i > 0 {
				resPrev[p.ID] = list[i-1].ID
			}
			index(p.Pages)
		}
	}
	index(resRev.Pages)
	resFiles := map[string]*content.File{}
	for _, f := range resRev.Files {
		resFiles[f.ID] = f
	}

	pageMaps, fileMaps := map[string]*ent.TranslationPage{}, map[string]*ent.TranslationFile{}
	if !fresh {
		pm, err := s.Client.TranslationPage.Query().Where(translationpage.TranslationID(t.ID)).All(ctx)
		if err != nil {
			return fmt.Errorf("read page map: %w", err)
		}
		for _, m := range pm {
			pageMaps[m.SourcePageID] = m
		}
		fm, err := s.Client.TranslationFile.Query().Where(translationfile.TranslationID(t.ID)).All(ctx)
		if err != nil {
			return fmt.Errorf("read file map: %w", err)
		}
		for _, m := range fm {
			fileMaps[m.SourceFileID] = m
		}
	}
	instrHash := hashOf(t.Instructions)
	all := t.AppliedInstructions != instrHash

	// Result ids of every source page and file, known before any op is
	// written, so that ops and documents can name them.
	var works []*work
	pageID := map[string]string{}
	var walk func(list []*content.Page)
	walk = func(list []*content.Page) {
		for _, p := range list {
			w := &work{src: p}
			if m := pageMaps[p.ID]; m != nil && resPages[m.ResultPageID] != nil {
				w.resultID = m.ResultPageID
			} else {
				w.resultID, w.create = ids.New(ids.Page), true
			}
			w.firstTime = pageMaps[p.ID] == nil
			pageID[p.ID] = w.resultID
			works = append(works, w)
			walk(p.Pages)
		}
	}
	walk(rev.Pages)
	fileID := map[string]string{}
	var ops []content.Op
	for _, f := range rev.Files {
		m := fileMaps[f.ID]
		switch {
		case m != nil && resFiles[m.ResultFileID] != nil:
			fileID[f.ID] = m.ResultFileID
			if m.SourceVersion == f.Version {
				continue
			}
			_, data, err := s.Content.FileContent(ctx, rev.ID, f.ID)
			if err != nil {
				return err
			}
			ops = append(ops, &content.UploadFile{File: m.ResultFileID, Name: f.Name, ContentType: f.ContentType, Data: data})
		default:
			fileID[f.ID] = ids.New(ids.File)
			_, data, err := s.Content.FileContent(ctx, rev.ID, f.ID)
			if err != nil {
				return err
			}
			ops = append(ops, &content.UploadFile{NewID: fileID[f.ID], Name: f.Name, ContentType: f.ContentType, Data: data})
		}
	}
	srcFiles := map[string]bool{}
	for _, f := range rev.Files {
		srcFiles[f.ID] = true
	}
	for sid, m := range fileMaps {
		if !srcFiles[sid] && resFiles[m.ResultFileID] != nil {
			ops = append(ops, &content.DeleteFile{File: m.ResultFileID})
		}
	}

	// Which pages change: their version moved on (or they are new, or
	// the instructions changed); their documents are read at once.
	var need []string
	for _, w := range works {
		m := pageMaps[w.src.ID]
		if w.create || all || m == nil || m.SourceVersion != w.src.Version {
			if w.src.Type == content.TypeDocument {
				need = append(need, w.src.Version)
			}
		}
	}
	docs, err := s.Content.Documents(ctx, need)
	if err != nil {
		return err
	}
	rules := Rules(t)
	var units []*unit
	pages, words := 0, 0
	for _, w := range works {
		m := pageMaps[w.src.ID]
		changed := w.create || all || m == nil || m.SourceVersion != w.src.Version
		if !changed {
			continue
		}
		var doc *document.Document
		if d := docs[w.src.Version]; d != nil {
			// A copy: the run changes it.
			raw, err := json.Marshal(d)
			if err != nil {
				return fmt.Errorf("copy document: %w", err)
			}
			if doc, err = document.Parse(raw); err != nil {
				return fmt.Errorf("copy document: %w", err)
			}
		}
		w.textHash = hashOf(w.src.Title, w.src.Description, doc)
		w.title, w.desc, w.doc = w.src.Title, w.src.Description, doc
		if !w.create && !all && m != nil && m.TextHash == w.textHash {
			continue // moved or changed otherwise: its text stays
		}
		w.translate = true
		pages++
		if doc != nil {
			remapDocument(doc, src.ID, pageID, fileID)
		}
		sg := newSegmenter(rules)
		sg.text(w.title, func(x string) {
			if x != "" {
				w.title = truncate(x, content.MaxTitle)
			}
		})
		sg.text(w.desc, func(x string) { w.desc = truncate(x, content.MaxDescription) })
		if doc != nil {
			sg.document(doc)
		}
		for _, u := range sg.units {
			words += u.words
		}
		units = append(units, sg.units...)
	}
	if err := s.translateUnits(ctx, run, t, units); err != nil {
		return err
	}

	ops = append(ops, pageOps(works, pageMaps, pageID, fileID, resPages, resPrev, src.ID)...)
	for sid, m := range pageMaps {
		if _, ok := pageID[sid]; ok || resPages[m.ResultPageID] == nil {
			continue
		}
		// A page gone from the source: deleted with its subtree, unless
		// an ancestor in the result goes too.
		gone := false
		for a := resPages[m.ResultPageID].Parent; a != "" && resPages[a] != nil; a = resPages[a].Parent {
			if deletedBySource(a, pageMaps, pageID) {
				gone = true
				break
			}
		}
		if !gone {
			ops = append(ops, &content.DeletePage{Page: m.ResultPageID})
		}
	}
	if err := run.Progress(ctx, 0.95, "writing the translated revision"); err != nil {
		return err
	}
	firstTime := 0
	for _, w := range works {
		if w.translate && w.firstTime {
			firstTime++
		}
	}
	record := func(tx *ent.Tx, res *content.SpaceEditResult) error {
		if _, err := tx.TranslationPage.Delete().Where(translationpage.TranslationID(t.ID)).Exec(ctx); err != nil {
			return fmt.Errorf("page map: %w", err)
		}
		var pc []*ent.TranslationPageCreate
		for _, w := range works {
			hash := w.textHash
			if hash == "" && pageMaps[w.src.ID] != nil {
				hash = pageMaps[w.src.ID].TextHash
			}
			pc = append(pc, tx.TranslationPage.Create().SetTranslationID(t.ID).SetSourcePageID(w.src.ID).
				SetResultPageID(w.resultID).SetSourceVersion(w.src.Version).SetTextHash(hash))
		}
		for _, b := range chunks(pc, 200) {
			if err := tx.TranslationPage.CreateBulk(b...).Exec(ctx); err != nil {
				return fmt.Errorf("page map: %w", err)
			}
		}
		if _, err := tx.TranslationFile.Delete().Where(translationfile.TranslationID(t.ID)).Exec(ctx); err != nil {
			return fmt.Errorf("file map: %w", err)
		}
		var fc []*ent.TranslationFileCreate
		for _, f := range rev.Files {
			fc = append(fc, tx.TranslationFile.Create().SetTranslationID(t.ID).SetSourceFileID(f.ID).
				SetResultFileID(fileID[f.ID]).SetSourceVersion(f.Version))
		}
		for _, b := range chunks(fc, 200) {
			if err := tx.TranslationFile.CreateBulk(b...).Exec(ctx); err != nil {
				return fmt.Errorf("file map: %w", err)
			}
		}
		ms := time.Since(start).Milliseconds()
		return tx.Translation.UpdateOneID(t.ID).Where(translation.ID(t.ID)).SetStatus(StatusCompleted).
			SetResultSpaceID(result.ID).SetResultRevisionID(res.Revision).SetAppliedInstructions(instrHash).
			AddRuns(1).AddTotalWords(words).AddTotalPages(firstTime).AddTotalDurationMs(ms).
			SetLatestDurationMs(ms).SetLatestPages(pages).SetLatestWords(words).SetUpdatedAt(s.Now()).Exec(ctx)
	}
	if len(ops) == 0 {
		// Nothing to write: the run is recorded against the result as it is.
		return db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
			sp, err := tx.Space.Get(ctx, result.ID)
			if err != nil {
				return fmt.Errorf("read result space: %w", err)
			}
			return record(tx, &content.SpaceEditResult{Space: sp, Revision: sp.RevisionID})
		})
	}
	_, err = s.Content.EditSpaceThen(ctx, result.ID, record, ops...)
	return err
}

// translateUnits sends the units to the provider in steps, reporting
// progress, and puts each translation back.
func (s *Service) translateUnits(ctx context.Context, run jobs.Run, t *ent.Translation, units []*unit) error {
	const step = 100
	for start := 0; start < len(units); start += step {
		end := min(start+step, len(units))
		texts := make([]string, end-start)
		for i, u := range units[start:end] {
			texts[i] = u.html
		}
		got, err := s.Provider.Translate(ctx, t.SourceLanguage, t.Language, texts)
		if err != nil {
			return err
		}
		if len(got) != len(texts) {
			return fmt.Errorf("the translation server answered %d texts for %d", len(got), len(texts))
		}
		for i, u := range units[start:end] {
			u.apply(u, got[i])
		}
		if err := run.Progress(ctx, 0.9*float64(end)/float64(len(units)), fmt.Sprintf("translated %d of %d texts", end, len(units))); err != nil {
			return err
		}
	}
	return nil
}

// resultSpace returns the result space, creating it (right after the
// source, with the target language) when there is none yet or it was
// purged; fresh tells that it was made now (its maps start empty).
func (s *Service) resultSpace(ctx context.Context, t *ent.Translation, src *ent.Space) (*ent.Space, bool, error) {
	if t.ResultSpaceID != nil {
		sp, _, err := s.Catalog.Space(ctx, *t.ResultSpaceID)
		switch {
		case err == nil && sp.DeletedAt != nil:
			return nil, false, apierr.Invalid("result", "The result space %q is deleted: restore it, or delete the translation and create it again", sp.ID)
		case err == nil:
			return sp, false, nil
		case apierr.CodeOf(err) != apierr.NotFound:
			return nil, false, err
		}
		// Purged: start again in a new space.
		if err := s.forgetMaps(ctx, t.ID); err != nil {
			return nil, false, err
		}
	}
	title := truncate(src.Title+" ("+t.Language+")", 50)
	lang := types.Language(t.Language)
	emoji := src.Emoji
	sp, err := s.Catalog.CreateSpace(ctx, catalog.CreateSpaceInput{
		Organization: t.OrganizationID, Title: &title, Emoji: &emoji, Parent: src.ParentID, Language: &lang,
		AfterCreate: func(tx *ent.Tx, sp *ent.Space) error {
			return tx.Translation.UpdateOneID(t.ID).SetResultSpaceID(sp.ID).Exec(ctx)
		},
	})
	if err != nil {
		return nil, false, err
	}
	return sp, true, nil
}

func (s *Service) forgetMaps(ctx context.Context, id string) error {
	if _, err := s.Client.TranslationPage.Delete().Where(translationpage.TranslationID(id)).Exec(ctx); err != nil {
		return fmt.Errorf("page map: %w", err)
	}
	if _, err := s.Client.TranslationFile.Delete().Where(translationfile.TranslationID(id)).Exec(ctx); err != nil {
		return fmt.Errorf("file map: %w", err)
	}
	return nil
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

func chunks[T any](items []T, n int) [][]T {
	var out [][]T
	for len(items) > n {
		out = append(out, items[:n])
		items = items[n:]
	}
	if len(items) > 0 {
		out = append(out, items)
	}
	return out
}
