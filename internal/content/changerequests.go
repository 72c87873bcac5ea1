package content

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"quire/ent"
	"quire/ent/changerequest"
	"quire/ent/space"
	"quire/internal/apierr"
	"quire/internal/document"
	"quire/internal/events"
	"quire/internal/merge"
	"quire/internal/nonempty"
	"quire/internal/types"
)

// CreateChangeRequest is the input of CreateChangeRequest.
type CreateChangeRequest struct {
	// Subject is at most MaxSubject characters.
	Subject     string
	Description *document.Document
	// Status is draft (the default) or open.
	Status string
	// Template, when set, is applied in the new change request, in the
	// same transaction: if it fails, no change request is created.
	Template *TemplateUse
	// Cluster, when set, is the issues cluster it addresses (of the
	// space's organization, visible to the caller, not muted).
	Cluster string
}

// TemplateUse names a built-in template and its params.
type TemplateUse struct {
	ID   string
	Refs map[string]document.ContentRef
}

// ListChangeRequests filters and orders ChangeRequests.
type ListChangeRequests struct {
	// Status keeps change requests with one of these statuses; empty
	// means open only.
	Status []string
	// Creator keeps those created by this user id.
	Creator string
	// Contributor keeps those this user id edited.
	Contributor string
	// RequestedReviewer keeps those that ask this user id for a review.
	RequestedReviewer string
	// OrderBy is updatedAt (the default) or createdAt, newest first.
	OrderBy string
	// Cluster keeps those addressing this issues cluster.
	Cluster string
}

// Outdated reports whether a change request does not include the space's
// current revision: the revision it starts from (or last merged in with an
// update) differs from the space's. Merged and archived change requests
// are never outdated.
func Outdated(cr *ent.ChangeRequest, sp *ent.Space) bool {
	if cr.Status == StatusMerged || cr.Status == StatusArchived {
		return false
	}
	return baseOf(cr) != sp.RevisionID
}

// baseOf is the space revision a change request's content derives from.
func baseOf(cr *ent.ChangeRequest) string {
	if cr.RevisionMergedAncestor != nil {
		return *cr.RevisionMergedAncestor
	}
	return cr.RevisionInitial
}

func encodeDescription(d *document.Document) (*string, error) {
	if d == nil {
		return nil, nil
	}
	if err := d.Validate(); err != nil {
		if ae, ok := apierr.As(err); ok {
			// The document's paths start with "document": name the field.
			field := "description" + strings.TrimPrefix(ae.Field, "document")
			msg := ae.Message
			if rest, ok := strings.CutPrefix(msg, "document"); ok {
				msg = "description" + rest
			}
			return nil, apierr.Invalid(field, "%s", msg)
		}
		return nil, apierr.Invalid("description", "Invalid description: %v", err)
	}
	b, err := json.Marshal(d)
	if err != nil {
		return nil, apierr.Invalid("description", "Invalid description: %v", err)
	}
	s := string(b)
	return &s, nil
}

// Description decodes a change request's description; nil when it has none.
func Description(cr *ent.ChangeRequest) (*document.Document, error) {
	if cr.Description == nil {
		return nil, nil
	}
	d, err := document.ParseStored([]byte(*cr.Description))
	if err != nil {
		return nil, fmt.Errorf("decode description of %s: %w", cr.ID, err)
	}
	return d, nil
}

// counterDelta is the change of the space's draft and open counters when a
// change request goes from status a to b.
func counterDelta(a, b string) (draft, open int) {
	switch a {
	case StatusDraft:
		draft--
	case StatusOpen:
		open--
	}
	switch b {
	case StatusDraft:
		draft++
	case StatusOpen:
		open++
	}
	return draft, open
}

// CreateChangeRequest starts a change request on the space's current
// revision. It copies nothing: the change request points at that revision.
// Its number is the next one in the space, unique even when several are
// created at once (the space row is locked). The space's counters
// changeRequests (every change request, whatever its status),
// changeRequestsDraft and changeRequestsOpen are updated in the same
// transaction. The caller needs edit rights on the space and is the change
// request's creator.
// Errors: NotFound (space), BadRequest, Forbidden.
func (s *Service) CreateChangeRequest(ctx context.Context, spaceID string, in CreateChangeRequest) (*ent.ChangeRequest, error) {
	target, err := s.SpaceFor(ctx, spaceID, types.RoleEdit)
	if err != nil {
		return nil, err
	}
	userID := actor(ctx)
	subject := strings.TrimSpace(in.Subject)
	if n := utf8.RuneCountInString(subject); n > MaxSubject {
		return nil, apierr.Invalid("subject", "subject must be at most %d characters (got %d)", MaxSubject, n)
	}
	status := in.Status
	if status == "" {
		status = StatusDraft
	}
	if status != StatusDraft && status != StatusOpen {
		return nil, apierr.Invalid("status", "A new change request's status must be draft or open")
	}
	desc, err := encodeDescription(in.Description)
	if err != nil {
		return nil, err
	}
	if in.Cluster != "" {
		if err := s.checkCluster(ctx, target, in.Cluster); err != nil {
			return nil, err
		}
	}
	var ops []Op
	if in.Template != nil {
		t, params, err := parseTemplate(in.Template.ID, in.Template.Refs)
		if err != nil {
			return nil, err
		}
		// The change request starts at the space's current revision.
		if ops, err = s.templateOps(ctx, target.RevisionID, t, params); err != nil {
			return nil, err
		}
	}
	now := s.Now()
	var cr *ent.ChangeRequest
	err = withTx(ctx, s.Client, func(tx *ent.Tx) error {
		c := tx.Client()
		sp, err := lockSpace(ctx, c, spaceID)
		if err != nil {
			return err
		}
		if sp.DeletedAt != nil {
			return apierr.New(apierr.PreconditionFailed, "The space is deleted: restore it to create change requests")
		}
		var max []struct {
			Max sql.NullInt64 `json:"max"`
		}
		if err := c.ChangeRequest.Query().Where(changerequest.SpaceID(spaceID)).
			Aggregate(ent.Max(changerequest.FieldNumber)).Scan(ctx, &max); err != nil {
			return fmt.Errorf("next change request number: %w", err)
		}
		number := 1
		if len(max) == 1 && max[0].Max.Valid {
			number = int(max[0].Max.Int64) + 1
		}
		cr, err = c.ChangeRequest.Create().SetSpaceID(spaceID).SetNumber(number).SetSubject(subject).
			SetNillableDescription(desc).SetStatus(status).SetCreatedBy(userID).SetCreatedAt(now).
			SetUpdatedAt(now).SetRevisionInitial(sp.RevisionID).SetRevisionID(sp.RevisionID).
			SetContributors([]string{}).SetNillableConversationsIssuesCluster(nonempty.String(in.Cluster)).Save(ctx)
		if err != nil {
			return fmt.Errorf("create change request: %w", err)
		}
		draft, open := counterDelta("", status)
		if err := c.Space.Update().Where(space.ID(spaceID)).AddChangeRequests(1).AddChangeRequestsDraft(draft).
			AddChangeRequestsOpen(open).SetUpdatedAt(sp.UpdatedAt).Exec(ctx); err != nil {
			return err
		}
		if len(ops) > 0 {
			res, err := editIn(ctx, c, cr.ID, "", userID, now, ops)
			if err != nil {
				return err
			}
			cr = res.ChangeRequest
		}
		return s.publish(ctx, tx, events.ChangeRequestCreated, sp, cr, now)
	})
	if err != nil {
		return nil, err
	}
	return cr, nil
}

// ChangeRequest reads a change request by id.
// Errors: NotFound.
func (s *Service) ChangeRequest(ctx context.Context, id string) (*ent.ChangeRequest, error) {
	return getChangeRequest(ctx, s.Client, id)
}

func getChangeRequest(ctx context.Context, c *ent.Client, id string) (*ent.ChangeRequest, error) {
	cr, err := c.ChangeRequest.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apierr.NotFoundf("No matching change request found for id %q", id)
	}
	if err != nil {
		return nil, fmt.Errorf("load change request: %w", err)
	}
	return cr, nil
}

// ChangeRequestByNumber reads a change request by its number in a space.
// Errors: NotFound.
func (s *Service) ChangeRequestByNumber(ctx context.Context, spaceID string, number int) (*ent.ChangeRequest, error) {
	cr, err := s.Client.ChangeRequest.Query().
		Where(changerequest.SpaceID(spaceID), changerequest.Number(number)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apierr.NotFoundf("No change request #%d in space %q", number, spaceID)
	}
	if err != nil {
		return nil, fmt.Errorf("load change request: %w", err)
	}
	return cr, nil
}

// ChangeRequests lists the change requests of a space, filtered, newest
// first (by updatedAt or createdAt, then by number). The caller paginates.
// Errors: BadRequest (unknown status or orderBy).
func (s *Service) ChangeRequests(ctx context.Context, spaceID string, f ListChangeRequests) ([]*ent.ChangeRequest, error) {
	return s.ChangeRequestsIn(ctx, []string{spaceID}, f)
}

// ChangeRequestsIn is ChangeRequests over several spaces at once.
func (s *Service) ChangeRequestsIn(ctx context.Context, spaceIDs []string, f ListChangeRequests) ([]*ent.ChangeRequest, error) {
	statuses := f.Status
	if len(statuses) == 0 {
		statuses = []string{StatusOpen}
	}
	for _, st := range statuses {
		switch st {
		case StatusDraft, StatusOpen, StatusArchived, StatusMerged:
		default:
			return nil, apierr.Invalid("status", "status must be draft, open, archived or merged")
		}
	}
	byCreated := false
	switch f.OrderBy {
	case "", "updatedAt":
	case "createdAt":
		byCreated = true
	default:
		return nil, apierr.Invalid("orderBy", "orderBy must be updatedAt or createdAt")
	}
	if len(spaceIDs) == 0 {
		return []*ent.ChangeRequest{}, nil
	}
	q := s.Client.ChangeRequest.Query().Where(changerequest.SpaceIDIn(spaceIDs...), changerequest.StatusIn(statuses...))
	if f.Creator != "" {
		q = q.Where(changerequest.CreatedBy(f.Creator))
	}
	if f.Cluster != "" {
		q = q.Where(changerequest.ConversationsIssuesCluster(f.Cluster))
	}
	list, err := q.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list change requests: %w", err)
	}
	if f.Contributor != "" {
		list = slices.DeleteFunc(list, func(cr *ent.ChangeRequest) bool {
			return !slices.Contains(cr.Contributors, f.Contributor)
		})
	}
	if f.RequestedReviewer != "" {
		asked := map[string]bool{}
		if s.Reviews != nil {
			if asked, err = s.Reviews.RequestedFrom(ctx, f.RequestedReviewer, spaceIDs); err != nil {
				return nil, err
			}
		}
		list = slices.DeleteFunc(list, func(cr *ent.ChangeRequest) bool { return !asked[cr.ID] })
	}
	slices.SortFunc(list, func(a, b *ent.ChangeRequest) int {
		ta, tb := a.UpdatedAt, b.UpdatedAt
		if byCreated {
			ta, tb = a.CreatedAt, b.CreatedAt
		}
		if c := tb.Compare(ta); c != 0 {
			return c
		}
		return cmp.Compare(b.Number, a.Number)
	})
	return list, nil
}

// Changes lists the pages a change request changes: the difference between
// the revision its content derives from and its head.
// Errors: NotFound.
func (s *Service) Changes(ctx context.Context, crID string) ([]merge.Change, error) {
	cr, err := s.ChangeRequest(ctx, crID)
	if err != nil {
		return nil, err
	}
	base := baseOf(cr)
	_, states, err := loadStates(ctx, s.Client, loadTree, base, cr.RevisionID)
	if err != nil {
		return nil, err
	}
	return merge.Diff(mergeTree(states[base]), mergeTree(states[cr.RevisionID])), nil
}
