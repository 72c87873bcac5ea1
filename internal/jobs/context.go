package jobs

import (
	"context"

	"quire/ent"
	"quire/internal/auth"
	"quire/internal/loaders"
)

// NewContext returns the context a background job does its work in: it
// carries what a request's context carries for the engines, loaders of its
// own over client and a caller. as is the user the job acts for (their
// rights apply, and they are the author of what it writes); nil makes the
// caller the system, which may do anything (auth.WithSystem).
//
// The loaders cache what they read for the life of the context, like a
// request's: a job that runs for long, or reads what it writes, should make
// a new context per unit of work.
func NewContext(parent context.Context, client *ent.Client, as *ent.User) context.Context {
	ctx := parent
	if as == nil {
		ctx = auth.WithSystem(ctx)
	} else {
		ctx = auth.WithViewer(ctx, as)
	}
	return loaders.With(ctx, loaders.NewSequential(client))
}
