package graph

import (
	"context"
	"errors"
	"strings"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/events"
	"quire/internal/jobs"
)

// The codes that end a subscription besides the engines' errors (see
// internal/apierr): the subscriber fell behind, events may have been
// missed, or the server is going away. In each case the client subscribes
// again and reads what changed.
const (
	CodeSlowSubscriber = "SLOW_SUBSCRIBER"
	CodeEventsLost     = "EVENTS_LOST"
	CodeShuttingDown   = "SHUTTING_DOWN"
)

// subscriptionError is the error a subscription ends with, in the shape
// of every GraphQL error: a message and extensions.code.
func subscriptionError(err error) *gqlerror.Error {
	code := ""
	switch {
	case errors.Is(err, events.ErrSlow):
		code = CodeSlowSubscriber
	case errors.Is(err, events.ErrLost):
		code = CodeEventsLost
	case errors.Is(err, events.ErrClosed):
		code = CodeShuttingDown
	}
	if code != "" {
		return &gqlerror.Error{Message: err.Error(), Extensions: map[string]any{"code": code}}
	}
	if e, ok := apierr.As(err); ok {
		return &gqlerror.Error{Message: e.Message, Extensions: map[string]any{"code": string(e.Code)}}
	}
	return &gqlerror.Error{Message: "Internal error", Extensions: map[string]any{"code": string(apierr.Internal)}}
}

// watch runs a subscription for the caller of ctx: handle turns each event
// into what the subscriber gets, acting for the caller as they are then
// (events.Watch); an error ends the subscription with that error.
func watch[T any](r *Resolver, ctx context.Context, f events.Filter, handle func(ctx context.Context, ev events.Event) (T, error)) (<-chan T, error) {
	if r.Events == nil {
		return nil, apierr.New(apierr.Unavailable, "Live updates are not available on this server")
	}
	return events.Watch(ctx, r.Events, r.Catalog.Client, f, handle, func(err error) {
		transport.AddSubscriptionError(ctx, subscriptionError(err))
	})
}

// eventKinds converts the kinds a subscription asks for.
func eventKinds(kinds []model.EventKind) []events.Kind {
	byName := make(map[model.EventKind]events.Kind, len(events.Kinds))
	for _, k := range events.Kinds {
		byName[eventKind(k)] = k
	}
	out := make([]events.Kind, 0, len(kinds))
	for _, k := range kinds {
		if ek, ok := byName[k]; ok {
			out = append(out, ek)
		}
	}
	return out
}

// eventKind is the GraphQL spelling of a kind.
func eventKind(k events.Kind) model.EventKind {
	return model.EventKind(strings.ReplaceAll(string(k), ".", "_"))
}

// spaceUpdate reads an event's space (which the caller must still see) and
// change request for the caller of ctx.
func (r *Resolver) spaceUpdate(ctx context.Context, ev events.Event) (*events.Update, error) {
	sp, _, err := r.Catalog.Space(ctx, ev.Space)
	if err != nil {
		return nil, err
	}
	u := &events.Update{Event: ev, Space: sp}
	if ev.ChangeRequest != "" {
		cr, err := r.Content.ChangeRequest(ctx, ev.ChangeRequest)
		switch {
		case err == nil:
			u.ChangeRequest = cr
		case apierr.CodeOf(err) != apierr.NotFound:
			return nil, err
		}
	}
	return u, nil
}

// jobUpdates sends the caller the job id now, then after each change,
// until it has finished.
func (r *Resolver) jobUpdates(ctx context.Context, id string) (<-chan *jobs.Info, error) {
	if _, err := r.JobByID(ctx, id); err != nil {
		return nil, err
	}
	wctx, cancel := context.WithCancel(ctx)
	// Subscribed first, read second: no change falls between the two.
	changes, err := watch(r, wctx, events.Filter{Object: id, Kinds: []events.Kind{events.JobProgress}},
		func(ctx context.Context, ev events.Event) (*jobs.Info, error) { return r.JobByID(ctx, id) })
	if err != nil {
		cancel()
		return nil, err
	}
	now, err := r.JobByID(ctx, id)
	if err != nil {
		cancel()
		return nil, err
	}
	out := make(chan *jobs.Info)
	go func() {
		defer close(out)
		defer cancel()
		send := func(in *jobs.Info) bool {
			select {
			case out <- in:
				return !in.State.Finished()
			case <-ctx.Done():
				return false
			}
		}
		if !send(now) {
			return
		}
		for in := range changes {
			if !send(in) {
				return
			}
		}
	}()
	return out, nil
}
