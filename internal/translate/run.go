package translate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"quire/ent"
	"quire/ent/translationfile"
	"quire/ent/translationpage"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/jobs"
	"quire/internal/textcut"
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
	linkTitle string
	doc       *document.Document
	textHash  string
	firstTime bool
}

// runOnce runs the translation id once: plan reads what the run works
// from, diff finds what changed in the source since the last run, apply
// translates it and writes the result's revision with the new maps.
func (s *Service) runOnce(ctx context.Context, run jobs.Run, id string) error {
	start := time.Now()
	p, err := s.plan(ctx, id)
	if err != nil || p == nil {
		return err
	}
	d, err := s.diff(ctx, p)
	if err != nil {
		return err
	}
	return s.apply(ctx, run, p, d, start)
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
	title := textcut.Runes(src.Title+" ("+t.Language+")", 50)
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
