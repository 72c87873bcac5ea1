package content

import (
	"context"

	"quire/ent"
	"quire/internal/types"
)

// Reviews is what the content engine asks of the reviews engine: the merge
// rules about reviews, checked in the merge's transaction, and which
// change requests ask someone for a review (the requestedReviewer filter).
type Reviews interface {
	// CheckReviewRules refuses (PreconditionFailed, naming what is
	// missing) the merge of a change request that the rules about reviews
	// among rules forbid. c is the merge's transaction, in which the change
	// request is locked.
	CheckReviewRules(ctx context.Context, c *ent.Client, cr *ent.ChangeRequest, rules []types.MergeRule) error
	// RequestedFrom returns, of the change requests of the spaces, those
	// that ask userID for a review.
	RequestedFrom(ctx context.Context, userID string, spaceIDs []string) (map[string]bool, error)
}

// HasPage reports whether a revision holds a page, authorizing nothing.
// Errors: NotFound (revision).
func (s *Service) HasPage(ctx context.Context, revisionID, pageID string) (bool, error) {
	return s.hasPage(ctx, revisionID, pageID)
}
