// Package events is Quire's event bus: what changed (a space's new current
// revision, a change request's status, a job's progress, a comment), told
// to the subscribers of every quire process that shares the database, for
// GraphQL subscriptions.
//
// An event carries ids only: its kind, its organization and space, the
// change request and the object it is about, who caused it and when.
// Subscribers read the objects again, as the caller they act for, and so
// see them only if they may.
//
// Writers publish in their transaction (Publish with the *ent.Tx of
// db.WithTx): the event goes out once the transaction commits, and never
// if it rolls back (or is run again after a deadlock: each run publishes
// anew, and only the run that commits counts). On PostgreSQL events travel
// through NOTIFY on one channel, which PostgreSQL delivers at commit to
// every process LISTENing, this one included; on SQLite, which only one
// process serves, they are handed to this process's subscribers after
// commit. Publishing never waits for subscribers: each subscription has a
// buffer of Buffer events, and one that falls that far behind is ended
// (ErrSlow) rather than slowing anyone down.
package events

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"quire/ent"
)

// Kind is what an event tells.
type Kind string

// The kinds of events.
const (
	// SpaceRevision: a space has a new current revision (a merge, a direct
	// edit, its first revision). Object is the revision; ChangeRequest the
	// change request merged, if any.
	SpaceRevision Kind = "space.revision"
	// ChangeRequestCreated: a change request was created. Object is the
	// change request.
	ChangeRequestCreated Kind = "change_request.created"
	// ChangeRequestStatus: a change request's status changed (draft, open,
	// archived). Object is the change request.
	ChangeRequestStatus Kind = "change_request.status"
	// ChangeRequestMerged: a change request was merged. Object is the
	// revision it made the space's current one.
	ChangeRequestMerged Kind = "change_request.merged"
	// JobProgress: a background job started, progressed, or finished.
	// Object is the job.
	JobProgress Kind = "job.progress"
	// Comments and their replies (on a space, or on a change request when
	// ChangeRequest is set). Object is the comment or the reply.
	CommentCreated      Kind = "comment.created"
	CommentUpdated      Kind = "comment.updated"
	CommentDeleted      Kind = "comment.deleted"
	CommentReplyCreated Kind = "comment_reply.created"
	CommentReplyUpdated Kind = "comment_reply.updated"
	CommentReplyDeleted Kind = "comment_reply.deleted"
)

// Kinds lists every kind, in the order the schema lists them.
var Kinds = []Kind{SpaceRevision, ChangeRequestCreated, ChangeRequestStatus, ChangeRequestMerged, JobProgress,
	CommentCreated, CommentUpdated, CommentDeleted, CommentReplyCreated, CommentReplyUpdated, CommentReplyDeleted}

// Valid reports whether k is one of Kinds.
func (k Kind) Valid() bool {
	for _, x := range Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// Event is one thing that happened.
type Event struct {
	Kind         Kind
	Organization string
	Space        string
	// ChangeRequest is the change request the event belongs to, if any.
	ChangeRequest string
	// Object is the id of what the event is about (see the kinds).
	Object string
	// Actor is the user who caused it, "" for the system.
	Actor string
	At    time.Time
}

// MaxPayload is the largest encoded event: PostgreSQL refuses NOTIFY
// payloads of 8000 bytes or more. Ids are 20 characters, so an event is
// about 200 bytes.
const MaxPayload = 7999

// wire is an event as it travels.
type wire struct {
	Kind          Kind   `json:"k"`
	Organization  string `json:"o,omitempty"`
	Space         string `json:"s,omitempty"`
	ChangeRequest string `json:"c,omitempty"`
	Object        string `json:"id,omitempty"`
	Actor         string `json:"a,omitempty"`
	At            int64  `json:"t"`
}

func encode(ev Event) (string, error) {
	if !ev.Kind.Valid() {
		return "", fmt.Errorf("event kind %q is not one of events.Kinds", ev.Kind)
	}
	b, err := json.Marshal(wire{ev.Kind, ev.Organization, ev.Space, ev.ChangeRequest, ev.Object, ev.Actor, ev.At.UnixMicro()})
	if err != nil {
		return "", err
	}
	if len(b) > MaxPayload {
		return "", fmt.Errorf("event of %d bytes: ids only, at most %d", len(b), MaxPayload)
	}
	return string(b), nil
}

func decode(s string) (Event, error) {
	var w wire
	if err := json.Unmarshal([]byte(s), &w); err != nil {
		return Event{}, err
	}
	if !w.Kind.Valid() {
		return Event{}, fmt.Errorf("unknown event kind %q", w.Kind)
	}
	return Event{Kind: w.Kind, Organization: w.Organization, Space: w.Space, ChangeRequest: w.ChangeRequest,
		Object: w.Object, Actor: w.Actor, At: time.UnixMicro(w.At).UTC()}, nil
}

// Why a subscription ended.
var (
	// ErrSlow: its buffer was full when an event came: the subscriber did
	// not keep up, and events were lost.
	ErrSlow = errors.New("events came faster than this subscription read them, and were dropped; subscribe again (and read what changed)")
	// ErrLost: the connection to the database that carries events was lost,
	// so events may have been missed.
	ErrLost = errors.New("the event stream was interrupted and events may have been missed; subscribe again (and read what changed)")
	// ErrClosed: the bus was closed (the server is shutting down).
	ErrClosed = errors.New("the server is shutting down")
)

// Update is an event as a subscriber receives it: with its space (and
// change request) read again, as the subscriber, when it came.
type Update struct {
	Event
	Space         *ent.Space
	ChangeRequest *ent.ChangeRequest
}
