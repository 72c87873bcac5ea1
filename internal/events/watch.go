package events

import (
	"context"
	"sync/atomic"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/loaders"
)

// Session is the subscriptions of one connection (a GraphQL WebSocket),
// bounded by Max.
type Session struct {
	Max    int
	active atomic.Int32
}

type sessionKey struct{}

// WithSession returns a context whose subscriptions count against s.
func WithSession(ctx context.Context, s *Session) context.Context {
	return context.WithValue(ctx, sessionKey{}, s)
}

// acquire takes a place in the session of ctx (none: no limit); release
// gives it back.
func acquire(ctx context.Context) (release func(), err error) {
	s, _ := ctx.Value(sessionKey{}).(*Session)
	if s == nil {
		return func() {}, nil
	}
	if n := s.active.Add(1); s.Max > 0 && int(n) > s.Max {
		s.active.Add(-1)
		return nil, apierr.New(apierr.RateLimited, "A connection may hold at most %d subscriptions at once; complete one before starting another", s.Max)
	}
	var once atomic.Bool
	return func() {
		if once.CompareAndSwap(false, true) {
			s.active.Add(-1)
		}
	}, nil
}

// Watch subscribes, for the caller of ctx, to the events f selects, and
// turns each into what the subscriber gets with handle. handle runs in a
// context acting for the caller as they are when the event comes (their
// token looked up again, their memberships read again, fresh loaders):
// it checks that they may still see what the event is about and reads it.
// The returned channel is closed when the subscription ends: when ctx
// ends, or after end was called with why: handle's error (a revoked token,
// a caller who may no longer see the subject), or the subscription's
// (ErrSlow, ErrLost, ErrClosed).
//
// Watch never blocks the bus: while the subscriber is slow to take what
// handle made, events wait in the subscription's buffer, and past Buffer
// the subscription ends with ErrSlow.
// Errors: RateLimited (the session's subscriptions are at their limit),
// and the bus's.
func Watch[T any](ctx context.Context, bus *Bus, client *ent.Client, f Filter,
	handle func(ctx context.Context, ev Event) (T, error), end func(error)) (<-chan T, error) {
	release, err := acquire(ctx)
	if err != nil {
		return nil, err
	}
	sub, err := bus.Subscribe(ctx, f)
	if err != nil {
		release()
		return nil, err
	}
	out := make(chan T)
	go func() {
		defer close(out)
		defer release()
		defer sub.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-sub.C:
				if !ok {
					if err := sub.Err(); err != nil {
						end(err)
					}
					return
				}
				ectx, err := Recheck(ctx, client)
				var v T
				if err == nil {
					v, err = handle(ectx, ev)
				}
				if err != nil {
					if ctx.Err() == nil {
						end(err)
					}
					return
				}
				select {
				case out <- v:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out, nil
}

// Recheck returns ctx acting for its caller as they are now: the token
// they authenticated with (auth.WithToken) looked up again, with fresh
// loaders holding their memberships as they are. A context without a
// token (the system caller, or a test's) keeps its caller and gets fresh
// loaders.
// Errors: Unauthorized (the token was revoked).
func Recheck(ctx context.Context, client *ent.Client) (context.Context, error) {
	l := loaders.New(client)
	secret := auth.Token(ctx)
	if secret == "" {
		return loaders.With(ctx, l), nil
	}
	caller, err := auth.LookupCaller(ctx, client, secret)
	if err != nil {
		return nil, err
	}
	if caller == nil {
		return nil, apierr.New(apierr.Unauthorized, "The token of this subscription is no longer valid")
	}
	l.PrimeCaller(caller.Memberships, caller.Organizations)
	return loaders.With(auth.WithViewer(ctx, caller.User), l), nil
}
