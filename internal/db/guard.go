package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/lib/pq"
	"modernc.org/sqlite"

	"quire/internal/apierr"
)

// Messages of the database failures callers see.
const (
	msgUnreachable = "The database cannot be reached; try again later"
	msgStarved     = "No database connection was free before the request's deadline; try again later"
)

// Waiter follows, for one request, the statements that may be waiting for
// a pooled connection: those sent outside a transaction and the starts of
// transactions. The HTTP server gives each request one (WithWaiter), so
// that when the request's deadline passes it can tell a database whose
// pool is exhausted (503) from a slow request (504).
type Waiter struct {
	n atomic.Int32
	// starved is set once a statement gave up waiting for a connection
	// of an exhausted pool.
	starved atomic.Bool
}

type waiterKey struct{}

// WithWaiter returns a context whose statements are followed by w.
func WithWaiter(ctx context.Context, w *Waiter) context.Context {
	return context.WithValue(ctx, waiterKey{}, w)
}

func waiterFrom(ctx context.Context) *Waiter {
	w, _ := ctx.Value(waiterKey{}).(*Waiter)
	return w
}

// Starved reports whether the request that w follows is waiting, or gave
// up waiting, for a connection of a pool that has none free.
func (d *DB) Starved(w *Waiter) bool {
	if w == nil {
		return false
	}
	if w.starved.Load() {
		return true
	}
	return w.n.Load() > 0 && poolFull(d.SQL)
}

func poolFull(pool *sql.DB) bool {
	st := pool.Stats()
	return st.MaxOpenConnections > 0 && st.InUse >= st.MaxOpenConnections
}

// acquire marks a statement that may wait for a connection; the returned
// function unmarks it.
func acquire(ctx context.Context) func() {
	w := waiterFrom(ctx)
	if w == nil {
		return func() {}
	}
	w.n.Add(1)
	return func() { w.n.Add(-1) }
}

// classify turns the failures callers should see for what they are into
// domain errors that keep the driver's error as their cause: a statement
// cut short because its request's context ended (Timeout, or Canceled when
// the client went away), a database that cannot be reached or stays locked
// (Unavailable), and, for a statement that waited for a connection
// (pooled), a pool with none free before the deadline (Unavailable).
// Everything else is returned as it is.
func classify(ctx context.Context, pool *sql.DB, pooled bool, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := apierr.As(err); ok {
		return err
	}
	if ctx.Err() != nil {
		if pooled && bareContextError(err) && poolFull(pool) {
			if w := waiterFrom(ctx); w != nil {
				w.starved.Store(true)
			}
			return &apierr.Error{Code: apierr.Unavailable, Message: msgStarved, Cause: err}
		}
		return apierr.Interrupted(ctx, err)
	}
	if Unreachable(err) {
		return &apierr.Error{Code: apierr.Unavailable, Message: msgUnreachable, Cause: err}
	}
	return err
}

// bareContextError reports an error that database/sql returns when the
// context ends before a connection was handed out (the driver's own errors
// for a cancelled statement are *pq.Error or *sqlite.Error).
func bareContextError(err error) bool {
	var pe *pq.Error
	var se *sqlite.Error
	return (errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)) &&
		!errors.As(err, &pe) && !errors.As(err, &se)
}

// Unreachable reports an error that says the database cannot be used at
// the moment, whatever the statement: no connection can be made or kept,
// the server is shutting down, starting up or out of connection slots,
// the pool is closed, or SQLite stayed locked past its busy timeout.
func Unreachable(err error) bool {
	var pe *pq.Error
	if errors.As(err, &pe) {
		switch pe.Code {
		case "57P01", "57P02", "57P03", "53300":
			// admin_shutdown, crash_shutdown, cannot_connect_now,
			// too_many_connections
			return true
		}
		return pe.Code.Class() == "08" // connection_exception
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case 5, 6, 14: // SQLITE_BUSY, SQLITE_LOCKED, SQLITE_CANTOPEN
			return true
		}
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	return errors.Is(err, driver.ErrBadConn) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNRESET) || strings.HasSuffix(err.Error(), "sql: database is closed")
}
