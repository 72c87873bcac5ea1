package catalog

import (
	"context"
	"sync"

	"quire/ent"
	"quire/internal/authz"
	"quire/internal/loaders"
	"quire/internal/types"
)

// SpaceWant says what a reader shows of a space besides its own fields.
// The collections above it are read whatever it asks: deciding whether the
// caller may see the space reads them.
type SpaceWant struct {
	// Organization: the space's organization.
	Organization bool
}

// ViewSpace reads a space the caller may see, as Space does, with what w
// asks of it. A read that names one space does not wait for a batch
// window: the space and the caller's memberships, which deciding whether
// the caller may see it needs, are read at the same time.
// Errors: NotFound.
func (s *Service) ViewSpace(ctx context.Context, id string, w SpaceWant) (*ent.Space, types.Role, error) {
	l := loaders.For(ctx)
	if l != nil {
		var wg sync.WaitGroup
		// An error here is the same error that Space meets below.
		wg.Go(func() { _, _ = l.ViewerMemberships(ctx) })
		l.SpaceByID.Fetch(ctx, []string{id})
		wg.Wait()
	}
	sp, level, err := s.Space(ctx, id)
	if err != nil {
		return nil, level, err
	}
	if l != nil && w.Organization {
		l.OrganizationByID.Ask(ctx, []string{sp.OrganizationID})
	}
	return sp, level, nil
}

// ReadSpaces reads the spaces among ids, and the collections above them a
// level at a time, into the request's caches, for a caller that shows
// many spaces with their permissions (a link report's targets): deciding
// each one's level then reads the caches. Unknown ids are left out.
func ReadSpaces(ctx context.Context, ids []string) error {
	l := loaders.For(ctx)
	if l == nil || len(ids) == 0 {
		return nil
	}
	// A space that fails to load keeps its error in the cache, where
	// deciding its level meets it; the others are read on.
	got, _ := l.SpaceByID.Fetch(ctx, ids)
	live := make([]*ent.Space, 0, len(got))
	for _, sp := range got {
		if sp != nil {
			live = append(live, sp)
		}
	}
	return authz.WarmSpaces(ctx, live)
}
