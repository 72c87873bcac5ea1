package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/lib/pq"
	"modernc.org/sqlite"

	"quire/ent"
)

// Transaction retries: how many times a transaction is run at most, and
// the bounds of the random wait before each new run (doubling from
// retryBase, never above retryMax).
const (
	MaxTxAttempts = 5
	retryBase     = 5 * time.Millisecond
	retryMax      = 200 * time.Millisecond
)

// WithTx runs fn in a transaction of client and commits it when fn
// returns nil; any error, or a panic, rolls it back. Every write of Quire
// goes through it.
//
// A transaction that the database aborts only because of another one
// running at the same time (a PostgreSQL serialization failure or
// deadlock, SQLSTATE 40001 or 40P01; SQLite busy or locked) is run again
// from the start, fn included, up to MaxTxAttempts times in all, after a
// random wait that grows with each attempt and ends early with ctx. fn
// must therefore start from scratch on each call: it may not keep what an
// earlier, rolled back run computed. Over a database opened by Open, its
// Options.OnRetry is told of each run tried again.
func WithTx(ctx context.Context, client *ent.Client, fn func(tx *ent.Tx) error) error {
	for attempt := 1; ; attempt++ {
		var begun sqlTxHolder
		err := runTx(ctx, client, &begun, fn)
		if err == nil || attempt >= MaxTxAttempts || !Retryable(err) || ctx.Err() != nil {
			return err
		}
		if begun.d != nil && begun.d.onRetry != nil {
			begun.d.onRetry(attempt, err)
		}
		if werr := backoff(ctx, attempt); werr != nil {
			return err
		}
	}
}

// runTx is one run of WithTx; begun learns, from the driver of a database
// opened by Open, the driver and the database/sql transaction.
func runTx(ctx context.Context, client *ent.Client, begun *sqlTxHolder, fn func(tx *ent.Tx) error) error {
	tx, err := client.Tx(context.WithValue(ctx, sqlTxKey{}, begun))
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	if begun.tx != nil && begun.d != nil {
		begun.d.liveTxs.Store(tx, begun.tx)
		defer begun.d.liveTxs.Delete(tx)
	}
	defer func() {
		if v := recover(); v != nil {
			_ = tx.Rollback()
			panic(v)
		}
	}()
	if err := fn(tx); err != nil {
		// A transaction whose context ended was rolled back already.
		if rerr := tx.Rollback(); rerr != nil && !errors.Is(rerr, sql.ErrTxDone) {
			return errors.Join(err, fmt.Errorf("rollback: %w", rerr))
		}
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// backoff waits before attempt+1: a random time up to retryBase·2^(attempt-1),
// capped at retryMax, so that the transactions that collided do not
// collide again in step. It returns ctx's error if ctx ends first.
func backoff(ctx context.Context, attempt int) error {
	ceiling := min(retryBase<<(attempt-1), retryMax)
	t := time.NewTimer(time.Duration(rand.Int64N(int64(ceiling)) + 1))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Retryable reports an error after which running the same transaction
// again may succeed: PostgreSQL's serialization_failure (40001) and
// deadlock_detected (40P01), and SQLite's SQLITE_BUSY and SQLITE_LOCKED
// (with their extended codes).
func Retryable(err error) bool {
	var pe *pq.Error
	if errors.As(err, &pe) {
		return pe.Code == "40001" || pe.Code == "40P01"
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case 5, 6:
			return true
		}
	}
	return false
}

// sqlTxKey carries, into the driver's Tx, where to leave the driver and
// the database/sql transaction it begins.
type sqlTxKey struct{}

type sqlTxHolder struct {
	d  *countingDriver
	tx *sql.Tx
}

// SQLTx returns the database/sql transaction under tx, for libraries that
// write in the same transaction as ent (the job queue). tx must be one
// that WithTx is running over d.
func (d *DB) SQLTx(tx *ent.Tx) (*sql.Tx, error) {
	if v, ok := d.counter.liveTxs.Load(tx); ok {
		return v.(*sql.Tx), nil
	}
	return nil, errors.New("not a transaction of db.WithTx over this database")
}

// noteDriver leaves, for WithTx, the driver beginning a transaction when
// ctx asks for it (before it begins: a run that could not begin is retried
// too).
func noteDriver(ctx context.Context, d *countingDriver) {
	if h, ok := ctx.Value(sqlTxKey{}).(*sqlTxHolder); ok {
		h.d = d
	}
}

// noteSQLTx leaves, for SQLTx, the database/sql transaction under tx when
// ctx asks for it.
func noteSQLTx(ctx context.Context, d *countingDriver, tx dialect.Tx) {
	h, ok := ctx.Value(sqlTxKey{}).(*sqlTxHolder)
	if !ok {
		return
	}
	h.d = d
	if et, ok := tx.(*entsql.Tx); ok {
		if st, ok := et.Tx.(*sql.Tx); ok {
			h.tx = st
		}
	}
}

// IsNoRows reports the "no rows" some drivers answer an insert whose
// ON CONFLICT DO NOTHING did nothing.
func IsNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
