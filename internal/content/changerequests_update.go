package content

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"quire/ent"
	"quire/ent/space"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/document"
	"quire/internal/events"
	"quire/internal/nonempty"
	"quire/internal/types"
)

// UpdateChangeRequest is the input of UpdateChangeRequest; nil (unset)
// fields are left unchanged.
type UpdateChangeRequest struct {
	Subject *string
	// A set option with a nil value removes the description.
	Description catalog.Opt[*document.Document]
	// Status is draft, open or archived (merging goes through Merge).
	Status *string
	// Cluster sets the issues cluster it addresses; a set option with
	// "" removes it.
	Cluster catalog.Opt[string]
}

// UpdateChangeRequest changes a change request's subject, description or
// status (draft, open, archived; an archived one may be reopened), keeping
// the space's counters exact. The caller needs edit rights on the space.
// Errors: NotFound, BadRequest (invalid input, merged change request),
// Forbidden.
func (s *Service) UpdateChangeRequest(ctx context.Context, id string, in UpdateChangeRequest) (*ent.ChangeRequest, error) {
	current, sp, err := s.ChangeRequestFor(ctx, id, types.RoleEdit)
	if err != nil {
		return nil, err
	}
	if in.Cluster.Set && in.Cluster.Value != "" {
		if err := s.checkCluster(ctx, sp, in.Cluster.Value); err != nil {
			return nil, err
		}
	}
	p, err := prepareUpdate(in)
	if err != nil {
		return nil, err
	}
	if p.empty() {
		// Nothing to change: writing the row anyway would move updatedAt.
		return current, nil
	}
	var out *ent.ChangeRequest
	err = withTx(ctx, s.Client, func(tx *ent.Tx) error {
		out, err = s.applyUpdate(ctx, tx, id, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// UpdateChangeRequestIn is UpdateChangeRequest in the transaction of
// another write (requesting reviewers may change the subject and the
// description at once): the caller has authorized it. It locks the space,
// then the change request.
// Errors: NotFound, BadRequest.
func (s *Service) UpdateChangeRequestIn(ctx context.Context, tx *ent.Tx, id string, in UpdateChangeRequest) (*ent.ChangeRequest, error) {
	p, err := prepareUpdate(in)
	if err != nil {
		return nil, err
	}
	if p.empty() {
		return getChangeRequest(ctx, tx.Client(), id)
	}
	return s.applyUpdate(ctx, tx, id, p)
}

// preparedUpdate is an UpdateChangeRequest checked and encoded.
type preparedUpdate struct {
	in      UpdateChangeRequest
	subject *string
	desc    *string
}

func (p preparedUpdate) empty() bool {
	return p.in.Subject == nil && !p.in.Description.Set && p.in.Status == nil && !p.in.Cluster.Set
}

func prepareUpdate(in UpdateChangeRequest) (preparedUpdate, error) {
	p := preparedUpdate{in: in}
	if in.Subject != nil {
		t := strings.TrimSpace(*in.Subject)
		if n := utf8.RuneCountInString(t); n > MaxSubject {
			return p, apierr.Invalid("subject", "subject must be at most %d characters (got %d)", MaxSubject, n)
		}
		p.subject = &t
	}
	if in.Status != nil {
		switch *in.Status {
		case StatusDraft, StatusOpen, StatusArchived:
		case StatusMerged:
			return p, apierr.Invalid("status", "A change request is merged by merging it, not by setting its status")
		default:
			return p, apierr.Invalid("status", "status must be draft, open or archived")
		}
	}
	if in.Description.Set {
		var err error
		if p.desc, err = encodeDescription(in.Description.Value); err != nil {
			return p, err
		}
	}
	return p, nil
}

// applyUpdate writes a prepared update in the transaction tx,
// locking the space, then the change request.
func (s *Service) applyUpdate(ctx context.Context, tx *ent.Tx, id string, p preparedUpdate) (*ent.ChangeRequest, error) {
	in := p.in
	c := tx.Client()
	now := s.Now()
	cr, err := getChangeRequest(ctx, c, id)
	if err != nil {
		return nil, err
	}
	// Lock order: space, then change request.
	sp, err := lockSpace(ctx, c, cr.SpaceID)
	if err != nil {
		return nil, err
	}
	if cr, err = lockChangeRequest(ctx, c, id); err != nil {
		return nil, err
	}
	if cr.Status == StatusMerged {
		return nil, apierr.Invalid("status", "Change request #%d is merged: it cannot be changed anymore", cr.Number)
	}
	u := c.ChangeRequest.UpdateOneID(id).SetUpdatedAt(now)
	if p.subject != nil {
		u.SetSubject(*p.subject)
	}
	if in.Description.Set {
		if p.desc == nil {
			u.ClearDescription()
		} else {
			u.SetDescription(*p.desc)
		}
	}
	if in.Cluster.Set {
		u.SetNillableConversationsIssuesCluster(nonempty.String(in.Cluster.Value))
		if in.Cluster.Value == "" {
			u.ClearConversationsIssuesCluster()
		}
	}
	if in.Status != nil && *in.Status != cr.Status {
		u.SetStatus(*in.Status)
		draft, open := counterDelta(cr.Status, *in.Status)
		if err := c.Space.Update().Where(space.ID(sp.ID)).AddChangeRequestsDraft(draft).AddChangeRequestsOpen(open).
			SetUpdatedAt(sp.UpdatedAt).Exec(ctx); err != nil {
			return nil, fmt.Errorf("update space counters: %w", err)
		}
	}
	out, err := u.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("update change request: %w", err)
	}
	if in.Status != nil && *in.Status != cr.Status {
		return out, s.publish(ctx, tx, events.ChangeRequestStatus, sp, out, now)
	}
	return out, nil
}
