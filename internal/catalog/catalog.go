// Package catalog holds the business rules of organizations, collections and
// spaces: who may see and change them, how they are ordered, moved,
// transferred, deleted and restored. Both doors call it through the GraphQL
// resolvers.
package catalog

import (
	"context"
	"errors"
	"sort"
	"time"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/db"
	"quire/internal/pagination"
)

// Retention is how long a deleted space can be restored before it is purged.
const Retention = 7 * 24 * time.Hour

// Page sizes for lists.
const (
	DefaultLimit = 50
	MaxLimit     = 1000
)

// Service implements the catalog operations.
type Service struct {
	Client *ent.Client
	// Now returns the current time; tests may replace it.
	Now func() time.Time
	// Content gives new spaces their first revision, and duplicates a copy
	// of their original's content. Without it (tests of the catalog alone)
	// a space starts with an empty revision, and nothing is indexed.
	Content ContentDuplicator
}

// ContentDuplicator gives a new space its first revision, in the
// transaction that creates it (the content engine, through which every
// change of a space's current revision goes).
type ContentDuplicator interface {
	// DuplicateContent gives dst, a duplicate of src, src's current content.
	DuplicateContent(ctx context.Context, tx *ent.Tx, src, dst *ent.Space) error
	// InitialContent gives a new space an empty first revision.
	InitialContent(ctx context.Context, tx *ent.Tx, sp *ent.Space) error
}

// New returns a Service over client.
func New(client *ent.Client) *Service {
	return &Service{Client: client, Now: func() time.Time { return time.Now().UTC() }}
}

// Opt is an optional input field: Set tells whether the caller sent it.
// For nullable fields T is a pointer and a nil Value removes the value.
type Opt[T any] struct {
	Set   bool
	Value T
}

// Some returns a set option.
func Some[T any](v T) Opt[T] { return Opt[T]{Set: true, Value: v} }

// WithTx runs fn in a transaction, committing when it returns nil; a
// transaction aborted by a concurrent one (deadlock, serialization
// failure, SQLite busy) is run again, fn included (db.WithTx).
func WithTx(ctx context.Context, client *ent.Client, fn func(tx *ent.Tx) error) error {
	return db.WithTx(ctx, client, fn)
}

// PageArgs are the paging arguments of a list, shared by both doors.
type PageArgs = pagination.Args

// Paginate slices a sorted list, turning paging errors into bad requests.
func Paginate[T any](items []T, key func(T) pagination.Cursor, args PageArgs) (pagination.Page[T], error) {
	p, err := pagination.Slice(items, key, args, DefaultLimit, MaxLimit)
	if err != nil {
		var le *pagination.LimitError
		var ce *pagination.CursorError
		switch {
		case errors.As(err, &le):
			return p, apierr.Invalid(le.Field, "%s", le.Error())
		case errors.As(err, &ce):
			return p, apierr.Invalid(ce.Field, "%s", ce.Error())
		}
		return p, err
	}
	return p, nil
}

// sortByPosition orders items by (position, id).
func sortByPosition[T any](items []T, key func(T) pagination.Cursor) {
	sort.SliceStable(items, func(i, j int) bool { return key(items[i]).Compare(key(items[j])) < 0 })
}

// SpaceCursor is the ordering key of spaces in lists.
func SpaceCursor(s *ent.Space) pagination.Cursor {
	return pagination.Cursor{Key: s.Position, ID: s.ID}
}

// CollectionCursor is the ordering key of collections in lists.
func CollectionCursor(c *ent.Collection) pagination.Cursor {
	return pagination.Cursor{Key: c.Position, ID: c.ID}
}

// OrganizationCursor is the ordering key of organizations in lists.
func OrganizationCursor(o *ent.Organization) pagination.Cursor {
	return pagination.Cursor{Key: o.CreatedAt.UTC().Format(time.RFC3339Nano), ID: o.ID}
}

// MemberCursor is the ordering key of members in lists.
func MemberCursor(m *ent.Member) pagination.Cursor {
	return pagination.Cursor{Key: m.JoinedAt.UTC().Format(time.RFC3339Nano), ID: m.ID}
}
