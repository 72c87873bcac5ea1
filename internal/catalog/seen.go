package catalog

import (
	"context"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/authz"
	"quire/internal/loaders"
)

// SpacesSeen returns the spaces among ids that the caller may see (those
// in the trash included), by id, read in one batch: ids of spaces the
// caller may not see are left out exactly as unknown ones, so that what
// the caller makes of the answer (a link's status, a reference accepted)
// tells nothing about spaces it may not see.
func (s *Service) SpacesSeen(ctx context.Context, ids []string) (map[string]*ent.Space, error) {
	out := map[string]*ent.Space{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, errs := loaders.For(ctx).SpaceByID.Fetch(ctx, ids)
	var found []*ent.Space
	for i, sp := range rows {
		if errs != nil && errs[i] != nil {
			if apierr.CodeOf(errs[i]) == apierr.NotFound {
				continue
			}
			return nil, errs[i]
		}
		found = append(found, sp)
	}
	if err := authz.WarmSpaces(ctx, found); err != nil {
		return nil, err
	}
	for _, sp := range found {
		level, err := authz.SpaceLevel(ctx, sp)
		if err != nil {
			return nil, err
		}
		if level != authz.None {
			out[sp.ID] = sp
		}
	}
	return out, nil
}

// CollectionsSeen returns the collections among ids that the caller may
// see, by id, as SpacesSeen does for spaces.
func (s *Service) CollectionsSeen(ctx context.Context, ids []string) (map[string]*ent.Collection, error) {
	out := map[string]*ent.Collection{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, errs := loaders.For(ctx).CollectionByID.Fetch(ctx, ids)
	for i, c := range rows {
		if errs != nil && errs[i] != nil {
			if apierr.CodeOf(errs[i]) == apierr.NotFound {
				continue
			}
			return nil, errs[i]
		}
		level, err := authz.CollectionLevel(ctx, c)
		if err != nil {
			return nil, err
		}
		if level != authz.None {
			out[c.ID] = c
		}
	}
	return out, nil
}
