// Package pagination implements opaque cursors and list slicing shared by
// the REST list envelope and GraphQL Relay connections.
//
// Lists are ordered ascending by (Key, ID): Key compared as a string, then
// ID as a tiebreaker. A cursor records the (Key, ID) of an item and paging
// compares cursors by value, so a cursor stays usable after its item has
// been deleted or moved.
package pagination

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Cursor is the position of an item in a list ordered by (Key, ID).
type Cursor struct {
	Key string
	ID  string
}

// Compare returns -1, 0 or +1 as c sorts before, equal to or after d:
// by Key, then by ID.
func (c Cursor) Compare(d Cursor) int {
	if r := strings.Compare(c.Key, d.Key); r != 0 {
		return r
	}
	return strings.Compare(c.ID, d.ID)
}

// ErrInvalidCursor is returned by [Decode] for strings that are not
// cursors produced by [Encode]. [*CursorError] unwraps to it.
var ErrInvalidCursor = errors.New("pagination: invalid cursor")

// cursorVersion is the first byte of an encoded cursor, so the format can
// evolve.
const cursorVersion = 1

// maxEncodedLen bounds the length of strings Decode accepts.
const maxEncodedLen = 4096

var cursorEncoding = base64.RawURLEncoding.Strict()

// Encode returns an opaque, URL-safe string (unpadded base64url, no
// characters needing escaping) for c. [Decode] reverses it exactly.
func Encode(c Cursor) string {
	buf := make([]byte, 0, 1+binary.MaxVarintLen64+len(c.Key)+len(c.ID))
	buf = append(buf, cursorVersion)
	buf = binary.AppendUvarint(buf, uint64(len(c.Key)))
	buf = append(buf, c.Key...)
	buf = append(buf, c.ID...)
	return cursorEncoding.EncodeToString(buf)
}

// Decode parses a string produced by [Encode]. It returns an error wrapping
// [ErrInvalidCursor] for anything else, including the empty string; it
// never panics.
func Decode(s string) (Cursor, error) {
	if s == "" || len(s) > maxEncodedLen {
		return Cursor{}, ErrInvalidCursor
	}
	buf, err := cursorEncoding.DecodeString(s)
	if err != nil || len(buf) < 2 || buf[0] != cursorVersion {
		return Cursor{}, ErrInvalidCursor
	}
	buf = buf[1:]
	n, w := binary.Uvarint(buf)
	if w <= 0 || n > uint64(len(buf)-w) {
		return Cursor{}, ErrInvalidCursor
	}
	buf = buf[w:]
	return Cursor{Key: string(buf[:n]), ID: string(buf[n:])}, nil
}

// Args are the Relay connection arguments. Nil fields are absent. An empty
// After or Before string is treated as absent too.
type Args struct {
	First  *int
	After  *string
	Last   *int
	Before *string
}

// Page is one slice of a list.
type Page[T any] struct {
	// Items are the selected items, in list order. Never nil.
	Items []T
	// Cursors holds the encoded cursor of each item of Items. Never nil.
	Cursors []string
	// HasNextPage reports whether the list has items after Items.
	HasNextPage bool
	// HasPreviousPage reports whether the list has items before Items.
	HasPreviousPage bool
	// StartCursor and EndCursor are the cursors of the first and last
	// items of Items, or nil if Items is empty.
	StartCursor, EndCursor *string
	// TotalCount is the length of the whole list, before slicing.
	TotalCount int
}

// NextPage returns the value of the REST envelope's next.page: EndCursor
// when HasNextPage, else nil. It is also nil when Items is empty (for
// instance with a limit of 0), since there is no item to continue after.
func (p Page[T]) NextPage() *string {
	if !p.HasNextPage {
		return nil
	}
	return p.EndCursor
}

// LimitError reports a page size outside [0, Max].
type LimitError struct {
	Field string // "first", "last" or "limit"
	Max   int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s must be between 0 and %d", e.Field, e.Max)
}

// CursorError reports an argument that is not a valid cursor. It unwraps to
// [ErrInvalidCursor].
type CursorError struct {
	Field string // "after", "before" or "page"
}

func (e *CursorError) Error() string {
	return fmt.Sprintf("invalid cursor in %q", e.Field)
}

func (e *CursorError) Unwrap() error { return ErrInvalidCursor }

// Slice selects a page of items following the Relay cursor connection
// algorithm.
//
// items must be sorted ascending by key (see [Cursor.Compare]). Slice keeps
// the items strictly after args.After and strictly before args.Before (the
// cursors need not match an existing item), then the first args.First of
// them, then the last args.Last of those. With neither First nor Last it
// takes the first defaultLimit items (clamped to maxLimit).
//
// First or Last outside [0, maxLimit] yield a [*LimitError]; maxLimit <= 0
// means no upper bound. Undecodable cursors yield a [*CursorError].
func Slice[T any](items []T, key func(T) Cursor, args Args, defaultLimit, maxLimit int) (Page[T], error) {
	return slice(items, key, args, defaultLimit, maxLimit, "first", "after")
}

// REST selects a page for the REST list envelope: it is [Slice] with
// First = limit (defaultLimit if nil) and After = page, where an empty page
// starts at the beginning. Errors name the fields "limit" and "page". The
// envelope's next.page is [Page.NextPage].
func REST[T any](items []T, key func(T) Cursor, page string, limit *int, defaultLimit, maxLimit int) (Page[T], error) {
	return slice(items, key, Args{First: limit, After: &page}, defaultLimit, maxLimit, "limit", "page")
}

func slice[T any](items []T, key func(T) Cursor, args Args, defaultLimit, maxLimit int, firstField, afterField string) (Page[T], error) {
	checkLimit := func(field string, n *int) error {
		if n != nil && (*n < 0 || (maxLimit > 0 && *n > maxLimit)) {
			return &LimitError{Field: field, Max: maxLimit}
		}
		return nil
	}
	if err := checkLimit(firstField, args.First); err != nil {
		return Page[T]{}, err
	}
	if err := checkLimit("last", args.Last); err != nil {
		return Page[T]{}, err
	}
	after, hasAfter, err := decodeArg(afterField, args.After)
	if err != nil {
		return Page[T]{}, err
	}
	before, hasBefore, err := decodeArg("before", args.Before)
	if err != nil {
		return Page[T]{}, err
	}

	// Select items[lo:hi].
	lo, hi := 0, len(items)
	if hasAfter {
		lo = sort.Search(len(items), func(i int) bool { return key(items[i]).Compare(after) > 0 })
	}
	if hasBefore {
		hi = sort.Search(len(items), func(i int) bool { return key(items[i]).Compare(before) >= 0 })
	}
	hi = max(hi, lo)
	first := args.First
	if first == nil && args.Last == nil {
		d := max(defaultLimit, 0)
		if maxLimit > 0 {
			d = min(d, maxLimit)
		}
		first = &d
	}
	if first != nil && *first < hi-lo {
		hi = lo + *first
	}
	if args.Last != nil && *args.Last < hi-lo {
		lo = hi - *args.Last
	}

	p := Page[T]{
		Items:           make([]T, hi-lo),
		Cursors:         make([]string, hi-lo),
		HasNextPage:     hi < len(items),
		HasPreviousPage: lo > 0,
		TotalCount:      len(items),
	}
	copy(p.Items, items[lo:hi])
	for i, it := range p.Items {
		p.Cursors[i] = Encode(key(it))
	}
	if n := len(p.Cursors); n > 0 {
		start, end := p.Cursors[0], p.Cursors[n-1]
		p.StartCursor, p.EndCursor = &start, &end
	}
	return p, nil
}

func decodeArg(field string, s *string) (Cursor, bool, error) {
	if s == nil || *s == "" {
		return Cursor{}, false, nil
	}
	c, err := Decode(*s)
	if err != nil {
		return Cursor{}, false, &CursorError{Field: field}
	}
	return c, true, nil
}
