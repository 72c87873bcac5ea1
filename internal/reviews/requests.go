package reviews

import (
	"context"
	"fmt"
	"slices"

	"quire/ent"
	"quire/ent/changerequestreview"
	"quire/ent/changerequestreviewer"
	"quire/internal/access"
	"quire/internal/apierr"
	"quire/internal/authz"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/loaders"
	"quire/internal/types"
)

// Request is the input of Request.
type Request struct {
	// Users are the ids of the users asked for a review.
	Users []string
	// Subject and Description, when set, change the change request's in
	// the same transaction.
	Subject     *string
	Description catalog.Opt[*document.Document]
}

// Requested lists who a change request the caller may read asks for a
// review, first asked first.
// Errors: NotFound.
func (s *Service) Requested(ctx context.Context, cr *ent.ChangeRequest) ([]*ent.ChangeRequestReviewer, error) {
	if err := s.readable(ctx, cr); err != nil {
		return nil, err
	}
	// Those of sibling change requests (a list's) are read in one batch.
	return loaders.For(ctx).Comments.RequestsByChangeRequest.Load(ctx, cr.ID)()
}

// Request asks users for a review of a change request, and may change its
// subject and description at once: the caller needs edit rights on the
// space, and each user review rights on it without being the change
// request's author. A user asked already stays asked as before; one asked
// again after reviewing has their reviews made outdated. It returns the
// requests of the users given, in their order.
// Errors: NotFound, Forbidden, BadRequest (users, subject, description,
// merged or archived change request), PreconditionFailed (space in the
// trash).
func (s *Service) Request(ctx context.Context, crID string, in Request) ([]*ent.ChangeRequestReviewer, error) {
	cr, sp, level, err := s.changeRequest(ctx, crID)
	if err != nil {
		return nil, err
	}
	if !level.AtLeast(types.RoleEdit) {
		return nil, apierr.Forbiddenf("You need edit rights on this space to ask for reviews")
	}
	if len(in.Users) == 0 {
		return nil, apierr.Invalid("users", "users must name at least one user")
	}
	if len(in.Users) > MaxUsers {
		return nil, apierr.Invalid("users", "users: must have at most %d items", MaxUsers)
	}
	// Who is asked is decided as for the caller, from what the
	// organization gives them (role, permissions of users and teams).
	reach, err := access.For(ctx, s.Client, sp.OrganizationID)
	if err != nil {
		return nil, err
	}
	var users []string
	for i, u := range in.Users {
		field := fmt.Sprintf("users[%d]", i)
		if u == cr.CreatedBy {
			return nil, apierr.Invalid(field, "%s: %q created the change request, and cannot review it", field, u)
		}
		ul, err := reach.SpaceLevel(reach.Member(u), sp)
		if err != nil {
			return nil, err
		}
		if ul == authz.None {
			// Unknown users, and users of other organizations, alike.
			return nil, apierr.Invalid(field, "%s: no member of the space's organization has the id %q", field, u)
		}
		if !mayReview(ul) {
			return nil, apierr.Invalid(field, "%s: %q may not review this space (review rights are needed)", field, u)
		}
		if !slices.Contains(users, u) {
			users = append(users, u)
		}
	}
	if err := open(cr, sp, "ask for reviews"); err != nil {
		return nil, err
	}
	userID := actor(ctx)
	now := s.Now()
	var out []*ent.ChangeRequestReviewer
	err = withTx(ctx, s.Client, func(tx *ent.Tx) error {
		out = nil
		c := tx.Client()
		if in.Subject != nil || in.Description.Set {
			// Locks the space, then the change request.
			if _, err := s.Content.UpdateChangeRequestIn(ctx, tx, crID, content.UpdateChangeRequest{
				Subject: in.Subject, Description: in.Description}); err != nil {
				return err
			}
		}
		cr, err := lockChangeRequest(ctx, c, crID)
		if err != nil {
			return err
		}
		if err := open(cr, nil, "ask for reviews"); err != nil {
			return err
		}
		have, err := c.ChangeRequestReviewer.Query().Where(changerequestreviewer.ChangeRequestID(cr.ID),
			changerequestreviewer.UserIDIn(users...)).All(ctx)
		if err != nil {
			return fmt.Errorf("read review requests: %w", err)
		}
		byUser := map[string]*ent.ChangeRequestReviewer{}
		for _, r := range have {
			byUser[r.UserID] = r
		}
		for _, u := range users {
			if r, ok := byUser[u]; ok {
				out = append(out, r)
				continue
			}
			if _, err := c.ChangeRequestReview.Update().Where(changerequestreview.ChangeRequestID(cr.ID),
				changerequestreview.Reviewer(u), changerequestreview.Outdated(false)).
				SetOutdated(true).SetUpdatedAt(now).Save(ctx); err != nil {
				return fmt.Errorf("outdate reviews: %w", err)
			}
			r, err := c.ChangeRequestReviewer.Create().SetChangeRequestID(cr.ID).SetUserID(u).SetRequestedBy(userID).
				SetRevisionID(cr.RevisionID).SetCreatedAt(now).Save(ctx)
			if err != nil {
				return fmt.Errorf("ask for review: %w", err)
			}
			out = append(out, r)
		}
		return nil
	})
	forget(ctx, crID)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// RemoveRequest withdraws the request that a user review a change request:
// the caller needs edit rights on the space, or to be that user. It
// answers false when there was no such request the caller may see.
// Errors: Forbidden.
func (s *Service) RemoveRequest(ctx context.Context, crID, userID string) (bool, error) {
	cr, _, level, err := s.changeRequest(ctx, crID)
	if apierr.CodeOf(err) == apierr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !level.AtLeast(types.RoleEdit) && (actor(ctx) != userID || !level.AtLeast(types.RoleRead)) {
		return false, apierr.Forbiddenf("You need edit rights on this space to withdraw a review request")
	}
	removed := false
	err = withTx(ctx, s.Client, func(tx *ent.Tx) error {
		c := tx.Client()
		if _, err := lockChangeRequest(ctx, c, cr.ID); err != nil {
			return err
		}
		n, err := c.ChangeRequestReviewer.Delete().Where(changerequestreviewer.ChangeRequestID(cr.ID),
			changerequestreviewer.UserID(userID)).Exec(ctx)
		if err != nil {
			return fmt.Errorf("withdraw review request: %w", err)
		}
		removed = n > 0
		return nil
	})
	forget(ctx, cr.ID)
	return removed, err
}
