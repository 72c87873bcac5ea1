package graph

import (
	"context"

	"quire/graph/model"
	"quire/internal/content"
	"quire/internal/loaders"
)

// linkReportOf is linkReport for the links of a revision; when the
// revision is a change request's work (its edits, or an update of it),
// its stats also count the links the change request broke: broken there,
// not in the space's current content.
func (r *Resolver) linkReportOf(ctx context.Context, spaceID, revisionID string, links []content.Link, status *model.ContentReferenceStatus) (*model.ContentLinkReport, error) {
	out := linkReport(links, status)
	sp, err := loaders.For(ctx).SpaceByID.Load(ctx, spaceID)()
	if err != nil {
		return nil, err
	}
	if sp.RevisionID == revisionID {
		// The space's current content: no change request's work.
		return out, nil
	}
	row, err := r.revisionRow(ctx, revisionID)
	if err != nil {
		return nil, err
	}
	if row.ChangeRequestID == nil || row.Type == "merge" {
		return out, nil
	}
	base, err := r.revisionLinks(ctx, sp.RevisionID)
	if err != nil {
		return nil, err
	}
	n := content.BrokenBy(links, base)
	out.Stats.BrokenChangeRequest = &n
	return out, nil
}
