package content

import (
	"context"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/types"
)

// Spaces is what the content engine asks of the catalog, which owns who may
// see a space.
type Spaces interface {
	// Space returns a space the caller may see (deleted ones included)
	// with the caller's level on it.
	// Errors: NotFound when the caller may not see it.
	Space(ctx context.Context, id string) (*ent.Space, types.Role, error)
	// Spaces lists the live spaces of an organization the caller may see.
	// Errors: NotFound (organization).
	Spaces(ctx context.Context, orgID string) ([]*ent.Space, error)
	// SpacesSeen returns the spaces among ids the caller may see (deleted
	// ones included), by id: those it may not see are left out exactly as
	// unknown ids.
	SpacesSeen(ctx context.Context, ids []string) (map[string]*ent.Space, error)
	// CollectionsSeen returns the collections among ids the caller may
	// see, by id, leaving out the others as SpacesSeen does.
	CollectionsSeen(ctx context.Context, ids []string) (map[string]*ent.Collection, error)
}

// OpenAPISpecs is what the content engine asks of the OpenAPI
// specifications engine, which owns who may see a specification.
type OpenAPISpecs interface {
	// SpecsSeen returns, by slug, the specifications among slugs of the
	// organization that the caller may see: those it may not see are
	// left out exactly as unknown slugs.
	SpecsSeen(ctx context.Context, orgID string, slugs []string) (map[string]*ent.OpenAPISpec, error)
}

// The engine's reads and writes that name a space, a change request or a
// revision authorize the caller of ctx (auth.Viewer, or the system caller)
// through Spaces: an object in a space the caller may not see is NotFound,
// one it may see but not change as asked is Forbidden. Reads of what
// belongs to an object already authorized (the pages of a revision, the
// files of a page) do not authorize again.

// SpaceFor returns a space the caller may see and on which it has at least
// need.
// Errors: NotFound (may not see it), Forbidden (may see it but not do).
func (s *Service) SpaceFor(ctx context.Context, id string, need types.Role) (*ent.Space, error) {
	sp, level, err := s.Spaces.Space(ctx, id)
	if err != nil {
		return nil, err
	}
	if !level.AtLeast(need) {
		return nil, apierr.Forbiddenf("You need %s rights on this space", need)
	}
	return sp, nil
}

// ChangeRequestFor returns a change request, and its space, when the caller
// has at least need on the space.
// Errors: NotFound (unknown, or in a space the caller may not see),
// Forbidden.
func (s *Service) ChangeRequestFor(ctx context.Context, id string, need types.Role) (*ent.ChangeRequest, *ent.Space, error) {
	cr, err := s.ChangeRequest(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	sp, err := s.SpaceFor(ctx, cr.SpaceID, need)
	if apierr.CodeOf(err) == apierr.NotFound {
		return nil, nil, apierr.NotFoundf("No matching change request found for id %q", id)
	}
	if err != nil {
		return nil, nil, err
	}
	return cr, sp, nil
}

// SpaceChangeRequest finds a change request of a space the caller may read,
// by id or by number (one of them).
// Errors: NotFound, BadRequest (neither or both given).
func (s *Service) SpaceChangeRequest(ctx context.Context, spaceID string, id *string, number *int) (*ent.ChangeRequest, error) {
	if _, err := s.SpaceFor(ctx, spaceID, types.RoleRead); err != nil {
		return nil, err
	}
	switch {
	case id != nil && number != nil:
		return nil, apierr.Invalid("id", "Give id or number, not both")
	case number != nil:
		return s.ChangeRequestByNumber(ctx, spaceID, *number)
	case id != nil:
		cr, err := s.ChangeRequest(ctx, *id)
		if err != nil {
			return nil, err
		}
		if cr.SpaceID != spaceID {
			return nil, apierr.NotFoundf("No matching change request found for id %q", *id)
		}
		return cr, nil
	}
	return nil, apierr.Invalid("id", "Give the change request's id or number")
}

// RevisionFor reads a revision of a space the caller may read.
// Errors: NotFound.
func (s *Service) RevisionFor(ctx context.Context, id string) (*Revision, error) {
	row, err := s.RevisionRow(ctx, id)
	if err != nil {
		return nil, err
	}
	if _, err := s.SpaceFor(ctx, row.SpaceID, types.RoleRead); err != nil {
		if apierr.CodeOf(err) == apierr.NotFound {
			return nil, apierr.NotFoundf("No matching revision found for id %q", id)
		}
		return nil, err
	}
	return s.Revision(ctx, id)
}

// SpaceContent reads the current content of a space the caller may read.
// Errors: NotFound.
func (s *Service) SpaceContent(ctx context.Context, spaceID string) (*Revision, error) {
	sp, err := s.SpaceFor(ctx, spaceID, types.RoleRead)
	if err != nil {
		return nil, err
	}
	return s.Revision(ctx, sp.RevisionID)
}

// OrganizationChangeRequests lists the change requests of every space of
// an organization the caller may read.
// Errors: NotFound (organization), BadRequest (filter).
func (s *Service) OrganizationChangeRequests(ctx context.Context, orgID string, f ListChangeRequests) ([]*ent.ChangeRequest, error) {
	spaces, err := s.Spaces.Spaces(ctx, orgID)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(spaces))
	for _, sp := range spaces {
		ids = append(ids, sp.ID)
	}
	return s.ChangeRequestsIn(ctx, ids, f)
}

// actor is the id of the user the caller of ctx is, the author of what it
// writes; "" for the system caller.
func actor(ctx context.Context) string {
	if u := auth.Viewer(ctx); u != nil {
		return u.ID
	}
	return ""
}

// author is the author of a revision written by userID: none for the
// system caller.
func author(userID string) *string {
	if userID == "" {
		return nil
	}
	return &userID
}
