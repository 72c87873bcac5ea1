package ratelimit

import (
	"context"
	"fmt"
	"strings"

	"quire/ent/ratelimitcounter"
)

// item is what a charge asks of one bucket.
type item struct {
	bucket Bucket
	n      int
	limit  int
}

// chargeQuery returns the statement that adds each item's n to its
// counter, creating it, unless that would take the counter over the
// item's limit (its budget); it returns the bucket and new count of each
// counter it changed, and no row for one it refused. It is written by hand
// because ent's upsert neither makes the update conditional nor returns a
// column other than the id; SQLite (3.35+) and PostgreSQL read it alike.
// Its conflict target is the table's unique index, and its names are
// ent's generated constants. Rows are always given in one order (content
// before core), so that two charges lock a principal's counters in the
// same order.
func chargeQuery(items int) string {
	const (
		t     = ratelimitcounter.Table
		start = ratelimitcounter.FieldWindowStart
		who   = ratelimitcounter.FieldPrincipal
		b     = ratelimitcounter.FieldBucket
		used  = ratelimitcounter.FieldUsed
		limit = ratelimitcounter.FieldBudget
	)
	values := make([]string, items)
	for i := range values {
		p := 5*i + 1
		values[i] = fmt.Sprintf("($%d, $%d, $%d, $%d, $%d)", p, p+1, p+2, p+3, p+4)
	}
	return "INSERT INTO " + t + " AS c (" + start + ", " + who + ", " + b + ", " + used + ", " + limit + ")\n" +
		"VALUES " + strings.Join(values, ", ") + "\n" +
		"ON CONFLICT (" + start + ", " + who + ", " + b + ")\n" +
		"DO UPDATE SET " + used + " = c." + used + " + excluded." + used + ", " + limit + " = excluded." + limit + "\n" +
		"WHERE c." + used + " + excluded." + used + " <= excluded." + limit + "\n" +
		"RETURNING " + b + ", " + used
}

// chargeQueries are the statements for one and two items, written once.
var chargeQueries = [...]string{1: chargeQuery(1), 2: chargeQuery(2)}

// charge spends each item's n in the window starting at start, in one
// statement, and returns the new count of each item it could charge (-1
// for one it refused). Every item's n must be within its limit: a first
// charge of the window creates its counter unconditionally.
func (l *Limiter) charge(ctx context.Context, principal string, start int64, items []item) ([]int, error) {
	args := make([]any, 0, 5*len(items))
	for _, it := range items {
		args = append(args, start, principal, string(it.bucket), it.n, it.limit)
	}
	rows, err := l.client.QueryContext(ctx, chargeQueries[len(items)], args...)
	if err != nil {
		return nil, fmt.Errorf("rate limit: %w", err)
	}
	defer rows.Close()
	counts := make([]int, len(items))
	for i := range counts {
		counts[i] = -1
	}
	for rows.Next() {
		var (
			b    string
			used int
		)
		if err := rows.Scan(&b, &used); err != nil {
			return nil, fmt.Errorf("rate limit: %w", err)
		}
		for i, it := range items {
			if string(it.bucket) == b {
				counts[i] = used
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("rate limit: %w", err)
	}
	return counts, nil
}

// used reads a counter; a counter not yet created is 0.
func (l *Limiter) used(ctx context.Context, principal string, b Bucket, start int64) (int, error) {
	rows, err := l.client.RateLimitCounter.Query().
		Where(ratelimitcounter.WindowStart(start), ratelimitcounter.Principal(principal), ratelimitcounter.Bucket(string(b))).
		Select(ratelimitcounter.FieldUsed).Ints(ctx)
	if err != nil {
		return 0, fmt.Errorf("rate limit %s: read counter: %w", b, err)
	}
	if len(rows) == 0 {
		return 0, nil
	}
	return rows[0], nil
}

// giveBack returns n to a bucket, for a request that another bucket
// refused after this one had been charged.
func (l *Limiter) giveBack(ctx context.Context, principal string, b Bucket, start int64, n int) error {
	err := l.client.RateLimitCounter.Update().
		Where(ratelimitcounter.WindowStart(start), ratelimitcounter.Principal(principal), ratelimitcounter.Bucket(string(b))).
		AddUsed(-n).Exec(ctx)
	if err != nil {
		return fmt.Errorf("rate limit %s: give back: %w", b, err)
	}
	return nil
}

// sweep deletes the counters of windows that started before start.
func (l *Limiter) sweep(ctx context.Context, start int64) (int, error) {
	n, err := l.client.RateLimitCounter.Delete().Where(ratelimitcounter.WindowStartLT(start)).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("sweep rate limit counters: %w", err)
	}
	return n, nil
}
