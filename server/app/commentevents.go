package app

import (
	"context"
	"fmt"
	"time"

	"quire/ent"
	"quire/internal/comments"
	"quire/internal/events"
)

// commentEvents publishes the discussions' changes on the event bus, in
// the transaction that makes them (so subscribers hear of them only once
// it commits): comments.Notifier over events.Bus.
type commentEvents struct{ bus *events.Bus }

// kinds maps the discussions' kinds to the bus's: resolving and reopening
// a comment are updates of it.
var commentKinds = map[string]events.Kind{
	comments.CommentPosted:   events.CommentCreated,
	comments.CommentUpdated:  events.CommentUpdated,
	comments.CommentResolved: events.CommentUpdated,
	comments.CommentReopened: events.CommentUpdated,
	comments.CommentDeleted:  events.CommentDeleted,
	comments.ReplyPosted:     events.CommentReplyCreated,
	comments.ReplyUpdated:    events.CommentReplyUpdated,
	comments.ReplyDeleted:    events.CommentReplyDeleted,
}

func (c commentEvents) CommentChanged(ctx context.Context, tx *ent.Tx, ev comments.Event) error {
	kind, ok := commentKinds[ev.Kind]
	if !ok {
		return fmt.Errorf("comment event kind %q has no bus kind", ev.Kind)
	}
	sp, err := tx.Client().Space.Get(ctx, ev.SpaceID)
	if err != nil {
		return fmt.Errorf("comment event: read space: %w", err)
	}
	object := ev.CommentID
	if ev.ReplyID != "" {
		object = ev.ReplyID
	}
	return c.bus.Publish(ctx, tx, events.Event{Kind: kind, Organization: sp.OrganizationID, Space: ev.SpaceID,
		ChangeRequest: ev.ChangeRequestID, Object: object, Actor: ev.UserID, At: time.Now().UTC()})
}
