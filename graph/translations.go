package graph

import (
	"context"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/loaders"
)

// visibleSpace is a space the caller may see, or nil (read through the
// request's loader).
func (r *Resolver) visibleSpace(ctx context.Context, id string) (*ent.Space, error) {
	sp, _, err := r.Catalog.Space(ctx, id)
	if apierr.CodeOf(err) == apierr.NotFound {
		return nil, nil
	}
	return sp, err
}

// seconds rounds a duration in milliseconds up to whole seconds: a run
// that took any time took at least a second.
func seconds(ms int64) int {
	return int((ms + 999) / 1000)
}

// TranslationStats are a translation's figures, as both doors show them.
func TranslationStats(t *ent.Translation) *model.TranslationStats {
	return &model.TranslationStats{
		Runs: t.Runs, TotalWords: t.TotalWords, TotalPages: t.TotalPages,
		TotalDuration: seconds(t.TotalDurationMs), LatestRunDuration: seconds(t.LatestDurationMs),
		LatestPages: t.LatestPages, LatestWords: t.LatestWords,
	}
}

// loadTranslationSpaces loads the source and result spaces of a page of
// translations at once. A space that fails to load keeps its error in the
// request's cache, where the translation's own space field meets it.
func loadTranslationSpaces(ctx context.Context, list []*ent.Translation) {
	var ids []string
	for _, t := range list {
		ids = append(ids, t.SourceSpaceID)
		if t.ResultSpaceID != nil {
			ids = append(ids, *t.ResultSpaceID)
		}
	}
	loaders.For(ctx).SpaceByID.Fetch(ctx, ids)
}
