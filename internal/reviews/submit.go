package reviews

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"quire/ent"
	"quire/ent/changerequestreview"
	"quire/ent/changerequestreviewer"
	"quire/ent/user"
	"quire/internal/apierr"
	"quire/internal/comments"
	"quire/internal/ids"
	"quire/internal/loaders"
	"quire/internal/types"
)

// Submit is the input of Submit.
type Submit struct {
	// Status is approved or changes-requested.
	Status string
	// Comment, when not empty, is posted with the review in the change
	// request's discussion.
	Comment comments.Body
}

// Reviews lists the reviews of a change request the caller may read, in
// the order they were submitted; outdated, when set, keeps those that are
// (true) or are not (false) outdated.
// Errors: NotFound.
func (s *Service) Reviews(ctx context.Context, cr *ent.ChangeRequest, outdated *bool) ([]*ent.ChangeRequestReview, error) {
	if err := s.readable(ctx, cr); err != nil {
		return nil, err
	}
	// The reviews of sibling change requests (a list's) are read in one
	// batch.
	all, err := loaders.For(ctx).Comments.ReviewsByChangeRequest.Load(ctx, cr.ID)()
	if err != nil {
		return nil, err
	}
	list := make([]*ent.ChangeRequestReview, 0, len(all))
	for _, r := range all {
		if outdated == nil || r.Outdated == *outdated {
			list = append(list, r)
		}
	}
	return list, nil
}

// Review reads a review of a change request the caller may read; a review
// of another change request is NotFound.
// Errors: NotFound.
func (s *Service) Review(ctx context.Context, cr *ent.ChangeRequest, id string) (*ent.ChangeRequestReview, error) {
	r, err := s.ReviewByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if r.ChangeRequestID != cr.ID {
		return nil, apierr.NotFoundf("No matching review found for id %q", id)
	}
	return r, nil
}

// ReviewByID reads a review of a change request the caller may read.
// Errors: NotFound.
func (s *Service) ReviewByID(ctx context.Context, id string) (*ent.ChangeRequestReview, error) {
	r, err := s.Client.ChangeRequestReview.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apierr.NotFoundf("No matching review found for id %q", id)
	}
	if err != nil {
		return nil, fmt.Errorf("load review: %w", err)
	}
	if _, _, _, err := s.changeRequest(ctx, r.ChangeRequestID); err != nil {
		return nil, apierr.NotFoundf("No matching review found for id %q", id)
	}
	return r, nil
}

// Submit submits the caller's review of a change request: the caller needs
// review rights on the space, and may not approve a change request they
// created. The review answers the request for it, if any (its requestedBy
// is who asked), and makes the caller's earlier reviews outdated; its
// comment, if any, is posted in the change request's discussion, all in
// one transaction.
// Errors: NotFound, Forbidden, BadRequest (status, comment, merged or
// archived change request), PreconditionFailed (space in the trash).
func (s *Service) Submit(ctx context.Context, crID string, in Submit) (*ent.ChangeRequestReview, error) {
	cr, sp, level, err := s.changeRequest(ctx, crID)
	if err != nil {
		return nil, err
	}
	if !mayReview(level) {
		return nil, apierr.Forbiddenf("You need review rights on this space to review its change requests")
	}
	switch in.Status {
	case StatusApproved, StatusChangesRequested:
	default:
		return nil, apierr.Invalid("status", "status must be approved or changes-requested")
	}
	userID := actor(ctx)
	if in.Status == StatusApproved && userID != "" && userID == cr.CreatedBy {
		return nil, apierr.Forbiddenf("You created change request #%d: you cannot approve it yourself", cr.Number)
	}
	withComment := !in.Comment.IsEmpty()
	if withComment {
		if err := comments.CheckBody("comment", in.Comment); err != nil {
			return nil, err
		}
	}
	if err := open(cr, sp, "be reviewed"); err != nil {
		return nil, err
	}
	now := s.Now()
	var out *ent.ChangeRequestReview
	err = withTx(ctx, s.Client, func(tx *ent.Tx) error {
		c := tx.Client()
		cr, err := lockChangeRequest(ctx, c, crID)
		if err != nil {
			return err
		}
		if err := open(cr, nil, "be reviewed"); err != nil {
			return err
		}
		if _, err := c.ChangeRequestReview.Update().Where(changerequestreview.ChangeRequestID(cr.ID),
			changerequestreview.Reviewer(userID), changerequestreview.Outdated(false)).
			SetOutdated(true).SetUpdatedAt(now).Save(ctx); err != nil {
			return fmt.Errorf("outdate earlier reviews: %w", err)
		}
		asked, err := c.ChangeRequestReviewer.Query().Where(changerequestreviewer.ChangeRequestID(cr.ID),
			changerequestreviewer.UserID(userID)).Only(ctx)
		if err != nil && !ent.IsNotFound(err) {
			return fmt.Errorf("read review request: %w", err)
		}
		id := ids.New(ids.Review)
		create := c.ChangeRequestReview.Create().SetID(id).SetChangeRequestID(cr.ID).SetSpaceID(cr.SpaceID).
			SetReviewer(userID).SetStatus(in.Status).SetRevisionID(cr.RevisionID).SetCreatedAt(now).SetUpdatedAt(now)
		if asked != nil {
			create.SetRequestedBy(asked.RequestedBy)
			if err := c.ChangeRequestReviewer.DeleteOne(asked).Exec(ctx); err != nil {
				return fmt.Errorf("answer review request: %w", err)
			}
		}
		if withComment {
			cm, err := s.Comments.PostReviewComment(ctx, tx, cr, id, in.Comment, now)
			if err != nil {
				return err
			}
			create.SetCommentID(cm.ID)
		}
		if out, err = create.Save(ctx); err != nil {
			return fmt.Errorf("submit review: %w", err)
		}
		return nil
	})
	forget(ctx, crID)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CheckReviewRules refuses the merge of a change request whose reviews do
// not meet the rules about them, in the merge's transaction (c), on the
// change request's current reviews (those not outdated):
//
//   - require_specific_reviewers: each user it names has approved;
//   - require_one_of_specific_reviewers: one of them has;
//   - require_at_least_one_review: someone has approved;
//   - require_all_reviews_approved: no current review requests changes and
//     no one asked for a review has yet to give it.
//
// The change request's author, who may not approve it, is not counted
// among the users a rule names.
// Errors: PreconditionFailed, naming what is missing.
func (s *Service) CheckReviewRules(ctx context.Context, c *ent.Client, cr *ent.ChangeRequest, rules []types.MergeRule) error {
	needed := false
	for _, r := range rules {
		switch r.Rule {
		case "require_specific_reviewers", "require_one_of_specific_reviewers", "require_at_least_one_review",
			"require_all_reviews_approved":
			needed = true
		}
	}
	if !needed {
		return nil
	}
	current, err := c.ChangeRequestReview.Query().Where(changerequestreview.ChangeRequestID(cr.ID),
		changerequestreview.Outdated(false)).Order(changerequestreview.ByCreatedAt()).All(ctx)
	if err != nil {
		return fmt.Errorf("read reviews: %w", err)
	}
	approved := map[string]bool{}
	var changes []string
	for _, r := range current {
		if r.Status == StatusApproved {
			approved[r.Reviewer] = true
		} else {
			changes = append(changes, r.Reviewer)
		}
	}
	names := userNames(ctx, c)
	for _, rule := range rules {
		users := slices.DeleteFunc(slices.Clone(rule.Users), func(u string) bool { return u == cr.CreatedBy })
		switch rule.Rule {
		case "require_specific_reviewers":
			var missing []string
			for _, u := range users {
				if !approved[u] {
					missing = append(missing, u)
				}
			}
			if len(missing) > 0 {
				return refused("an approving review from %s", names(missing, " and "))
			}
		case "require_one_of_specific_reviewers":
			if len(users) > 0 && !slices.ContainsFunc(users, func(u string) bool { return approved[u] }) {
				return refused("an approving review from one of %s", names(users, ", "))
			}
		case "require_at_least_one_review":
			if len(approved) == 0 {
				return refused("at least one approving review")
			}
		case "require_all_reviews_approved":
			if len(changes) > 0 {
				return refused("every review to approve: %s requested changes", names(changes, " and "))
			}
			pending, err := c.ChangeRequestReviewer.Query().Where(changerequestreviewer.ChangeRequestID(cr.ID)).
				Order(changerequestreviewer.ByCreatedAt()).Select(changerequestreviewer.FieldUserID).Strings(ctx)
			if err != nil {
				return fmt.Errorf("read review requests: %w", err)
			}
			if len(pending) > 0 {
				return refused("every review to approve: %s has yet to review", names(pending, " and "))
			}
		}
	}
	return nil
}

func refused(format string, args ...any) error {
	return apierr.New(apierr.PreconditionFailed, "The merge rules require "+format, args...)
}

// userNames names users by display name and id, reading them through c.
func userNames(ctx context.Context, c *ent.Client) func(ids []string, sep string) string {
	return func(list []string, sep string) string {
		byID := map[string]string{}
		if users, err := c.User.Query().Where(user.IDIn(list...)).All(ctx); err == nil {
			for _, u := range users {
				byID[u.ID] = u.DisplayName
			}
		}
		parts := make([]string, len(list))
		for i, id := range list {
			if n := byID[id]; n != "" {
				parts[i] = fmt.Sprintf("%s (%s)", n, id)
			} else {
				parts[i] = id
			}
		}
		return strings.Join(parts, sep)
	}
}

// RequestedFrom returns the change requests that ask userID for a review
// (those of other spaces are filtered out by the caller).
func (s *Service) RequestedFrom(ctx context.Context, userID string, _ []string) (map[string]bool, error) {
	ids, err := s.Client.ChangeRequestReviewer.Query().Where(changerequestreviewer.UserID(userID)).
		Select(changerequestreviewer.FieldChangeRequestID).Strings(ctx)
	if err != nil {
		return nil, fmt.Errorf("list review requests: %w", err)
	}
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}
