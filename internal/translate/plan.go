package translate

import (
	"context"
	"fmt"

	"quire/ent"
	"quire/ent/translationfile"
	"quire/ent/translationpage"
	"quire/internal/apierr"
	"quire/internal/content"
	"quire/internal/ids"
	"quire/internal/types"
)

// plan is what a run reads before it changes anything: the source's
// revision, the result space as it stands, the maps of earlier runs, and
// the result id of every source page and file.
type plan struct {
	t      *ent.Translation
	src    *ent.Space
	rev    *content.Revision
	result *ent.Space

	// The result's pages by id, each page's previous sibling there, and
	// its files by id.
	resPages map[string]*content.Page
	resPrev  map[string]string
	resFiles map[string]*content.File

	// Earlier runs' maps, by source page and source file.
	pageMaps map[string]*ent.TranslationPage
	fileMaps map[string]*ent.TranslationFile

	instrHash string
	// all: the instructions changed since the last run, so every page is
	// translated again.
	all bool

	// works are the source's pages in tree order. pageID and fileID give
	// the result id of each source page and file, known before any op is
	// written, so that ops and documents can name them.
	works  []*work
	pageID map[string]string
	fileID map[string]string
}

// plan marks the translation running and reads what the run works from.
// A translation deleted since the job was queued gives a nil plan.
func (s *Service) plan(ctx context.Context, id string) (*plan, error) {
	t, err := s.Client.Translation.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, nil // deleted since: nothing to do
	}
	if err != nil {
		return nil, fmt.Errorf("read translation: %w", err)
	}
	if s.Provider == nil {
		return nil, ErrNoProvider
	}
	if err := s.Client.Translation.UpdateOne(t).SetStatus(StatusRunning).SetUpdatedAt(s.Now()).Exec(ctx); err != nil {
		return nil, fmt.Errorf("start run: %w", err)
	}
	src, err := s.Content.SpaceFor(ctx, t.SourceSpaceID, types.RoleRead)
	if err != nil {
		return nil, err
	}
	if src.DeletedAt != nil {
		return nil, apierr.Invalid("source", "The source space %q is deleted", src.ID)
	}
	rev, err := s.Content.Revision(ctx, src.RevisionID)
	if err != nil {
		return nil, err
	}
	result, fresh, err := s.resultSpace(ctx, t, src)
	if err != nil {
		return nil, err
	}
	p := &plan{t: t, src: src, rev: rev, result: result}
	if err := s.indexResult(ctx, p); err != nil {
		return nil, err
	}
	p.pageMaps, p.fileMaps = map[string]*ent.TranslationPage{}, map[string]*ent.TranslationFile{}
	if !fresh {
		if err := s.readMaps(ctx, p); err != nil {
			return nil, err
		}
	}
	p.instrHash = hashOf(t.Instructions)
	p.all = t.AppliedInstructions != p.instrHash
	p.assignIDs()
	return p, nil
}

// indexResult reads the result space's revision into the plan's indexes.
func (s *Service) indexResult(ctx context.Context, p *plan) error {
	resRev, err := s.Content.Revision(ctx, p.result.RevisionID)
	if err != nil {
		return err
	}
	p.resPages, p.resPrev, p.resFiles = map[string]*content.Page{}, map[string]string{}, map[string]*content.File{}
	var index func(list []*content.Page)
	index = func(list []*content.Page) {
		for i, pg := range list {
			p.resPages[pg.ID] = pg
			if i > 0 {
				p.resPrev[pg.ID] = list[i-1].ID
			}
			index(pg.Pages)
		}
	}
	index(resRev.Pages)
	for _, f := range resRev.Files {
		p.resFiles[f.ID] = f
	}
	return nil
}

// readMaps reads the page and file maps that earlier runs left.
func (s *Service) readMaps(ctx context.Context, p *plan) error {
	pm, err := s.Client.TranslationPage.Query().Where(translationpage.TranslationID(p.t.ID)).All(ctx)
	if err != nil {
		return fmt.Errorf("read page map: %w", err)
	}
	for _, m := range pm {
		p.pageMaps[m.SourcePageID] = m
	}
	fm, err := s.Client.TranslationFile.Query().Where(translationfile.TranslationID(p.t.ID)).All(ctx)
	if err != nil {
		return fmt.Errorf("read file map: %w", err)
	}
	for _, m := range fm {
		p.fileMaps[m.SourceFileID] = m
	}
	return nil
}

// assignIDs gives each source page and file its result id: the one an
// earlier run mapped it to while that still exists in the result, a new
// one otherwise.
func (p *plan) assignIDs() {
	p.pageID, p.fileID = map[string]string{}, map[string]string{}
	var walk func(list []*content.Page)
	walk = func(list []*content.Page) {
		for _, pg := range list {
			w := &work{src: pg}
			if m := p.pageMaps[pg.ID]; m != nil && p.resPages[m.ResultPageID] != nil {
				w.resultID = m.ResultPageID
			} else {
				w.resultID, w.create = ids.New(ids.Page), true
			}
			w.firstTime = p.pageMaps[pg.ID] == nil
			p.pageID[pg.ID] = w.resultID
			p.works = append(p.works, w)
			walk(pg.Pages)
		}
	}
	walk(p.rev.Pages)
	for _, f := range p.rev.Files {
		if m := p.fileMaps[f.ID]; m != nil && p.resFiles[m.ResultFileID] != nil {
			p.fileID[f.ID] = m.ResultFileID
		} else {
			p.fileID[f.ID] = ids.New(ids.File)
		}
	}
}

// changed tells whether a source page's version moved on since the last
// run (or it is new, or the instructions changed).
func (p *plan) changed(w *work) bool {
	m := p.pageMaps[w.src.ID]
	return w.create || p.all || m == nil || m.SourceVersion != w.src.Version
}
