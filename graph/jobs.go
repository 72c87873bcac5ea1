package graph

import (
	"context"
	"errors"

	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/jobs"
)

// JobByID returns the background job id when the caller may see it: the
// system always; a user when they may view the space it works on, or,
// for a job on no space, when they belong to its organization. Jobs of
// the system's own (the trash sweep) are seen by no user. Others are
// NotFound, like unknown ids.
func (r *Resolver) JobByID(ctx context.Context, id string) (*jobs.Info, error) {
	if r.Jobs == nil {
		return nil, notFoundNode(id)
	}
	in, err := r.Jobs.Get(ctx, id)
	if errors.Is(err, jobs.ErrNotFound) {
		return nil, notFoundNode(id)
	}
	if err != nil {
		return nil, err
	}
	if ok, err := r.canSeeJob(ctx, in); err != nil || !ok {
		if err == nil {
			err = notFoundNode(id)
		}
		return nil, err
	}
	return in, nil
}

// LatestJob returns the newest job that subject ("type:id") started, or
// nil when it started none; the caller must be allowed to see subject.
func (r *Resolver) LatestJob(ctx context.Context, subject string) (*jobs.Info, error) {
	if r.Jobs == nil {
		return nil, nil
	}
	in, err := r.Jobs.Latest(ctx, subject)
	if errors.Is(err, jobs.ErrNotFound) {
		return nil, nil
	}
	return in, err
}

func (r *Resolver) canSeeJob(ctx context.Context, in *jobs.Info) (bool, error) {
	if auth.IsSystem(ctx) {
		return true, nil
	}
	switch {
	case in.Space != "":
		_, _, err := r.Catalog.Space(ctx, in.Space)
		return visible(err)
	case in.Organization != "":
		_, err := r.Catalog.Organization(ctx, in.Organization)
		return visible(err)
	}
	return false, nil
}

// visible turns the answer of a lookup into whether the caller may see
// the object: not found and forbidden mean no; other errors are errors.
func visible(err error) (bool, error) {
	if err == nil {
		return true, nil
	}
	switch apierr.CodeOf(err) {
	case apierr.NotFound, apierr.Forbidden:
		return false, nil
	}
	return false, err
}
