// Package ratelimit counts what each principal (an API user, or the client
// address of requests without a valid token) spends of its budgets per
// window. The counters live in the database, one row per
// principal, bucket and window, and each charge is one atomic
// upsert-increment, so every process serving the database shares the same
// budgets. A process may reserve a few core points ahead of a principal's
// requests (lease.go): the counter then holds them as spent, so replicas
// together still never exceed a budget.
//
// Windows are fixed: they start at multiples of the window length since the
// Unix epoch (on the hour, for an hour), the same for every process, so
// replicas agree on them without talking to each other. A refused request
// spends nothing.
package ratelimit

import (
	"context"
	"fmt"
	"time"

	"quire/ent"
)

// Bucket names a budget.
type Bucket string

// The buckets.
const (
	// Core is every request: a REST request costs 1 point, a GraphQL
	// operation the points of its query.
	Core Bucket = "core"
	// Content is content creation (change requests, pages): 1 per object
	// created, on top of the request's core points.
	Content Bucket = "content"
)

// Defaults of quire serve.
const (
	// DefaultLimit is GitHub's budget for a user: 5,000 points an hour.
	DefaultLimit = 5000
	// DefaultContentLimit is GitHub's hourly limit on content-creating
	// requests: 500 an hour.
	DefaultContentLimit = 500
	// DefaultWindow is the length of a window.
	DefaultWindow = time.Hour
)

// Config sets the budgets. A limit of 0 turns its bucket off.
type Config struct {
	// Limit is the core points a principal may spend per window.
	Limit int
	// ContentLimit is the objects a principal may create per window.
	ContentLimit int
	// AnonymousLimit is the requests without a valid token each client
	// address may send per window (anonymous.go).
	AnonymousLimit int
	// Window is the length of a window, a whole number of seconds;
	// DefaultWindow when zero.
	Window time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

// Enabled reports whether any bucket is limited.
func (c Config) Enabled() bool { return c.Limit > 0 || c.ContentLimit > 0 || c.AnonymousLimit > 0 }

// Validate reports a configuration that cannot be served.
func (c Config) Validate() error {
	switch {
	case c.Limit < 0 || c.ContentLimit < 0 || c.AnonymousLimit < 0:
		return fmt.Errorf("rate limits must be 0 (off) or positive")
	case c.Window < 0 || c.Window%time.Second != 0:
		return fmt.Errorf("rate limit window %s must be a positive whole number of seconds", c.Window)
	}
	return nil
}

// Cost is what one request spends.
type Cost struct {
	// Points are spent from the core bucket; fewer than 1 counts as 1.
	Points int
	// Content is the number of objects it creates, spent from the content
	// bucket.
	Content int
}

// Usage is a bucket's state in the current window.
type Usage struct {
	Bucket Bucket
	Limit  int
	Used   int
	// Reset is when the window ends and the bucket is full again.
	Reset time.Time
}

// Remaining is what is left to spend until Reset.
func (u Usage) Remaining() int { return max(u.Limit-u.Used, 0) }

// Decision is the outcome of a charge.
type Decision struct {
	// Allowed: the cost was spent and the request may run.
	Allowed bool
	// Core is the core bucket after the charge (Limit 0 when it is off);
	// for a request without a valid token (TakeAnonymous), the anonymous
	// bucket.
	Core Usage
	// Refused, when not allowed, is the bucket that refused the request,
	// as it was (nothing was spent), and Cost what the request asked of it.
	Refused *Usage
	Cost    int
}

// Limiter charges requests against the budgets of a Config.
type Limiter struct {
	client *ent.Client
	cfg    Config
	window int64 // seconds
	leases leases
	// refusals are the addresses over their anonymous budget.
	refusals refusals
}

// New returns a limiter over the database of client, or nil when cfg
// limits nothing.
func New(client *ent.Client, cfg Config) *Limiter {
	if !cfg.Enabled() {
		return nil
	}
	if cfg.Window <= 0 {
		cfg.Window = DefaultWindow
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Limiter{client: client, cfg: cfg, window: max(int64(cfg.Window/time.Second), 1)}
}

// Config returns the limiter's configuration, defaults applied.
func (l *Limiter) Config() Config { return l.cfg }

// Now reads the limiter's clock.
func (l *Limiter) Now() time.Time { return l.cfg.Now() }

// windowAt returns the start of the window holding t, in Unix seconds, and
// its end.
func (l *Limiter) windowAt(t time.Time) (int64, time.Time) {
	s := t.Unix()
	start := s - s%l.window
	if s < 0 && s%l.window != 0 {
		start -= l.window
	}
	return start, time.Unix(start+l.window, 0).UTC()
}

// Take charges principal the cost of one request, in the content bucket
// (when the request creates content and that bucket is on) and the core
// bucket, in one statement that adds to each counter only what keeps it
// within its limit. When a bucket refuses, Take answers which (content
// first), and gives back what the statement charged in the other, so that
// a refused request has spent nothing; a refused charge of more than one
// unit reads the bucket once more, to say what remains.
func (l *Limiter) Take(ctx context.Context, principal string, c Cost) (Decision, error) {
	start, reset := l.windowAt(l.cfg.Now())
	items := make([]item, 0, 2)
	if l.cfg.ContentLimit > 0 && c.Content > 0 {
		items = append(items, item{bucket: Content, n: c.Content, limit: l.cfg.ContentLimit})
	}
	if l.cfg.Limit > 0 {
		items = append(items, item{bucket: Core, n: max(c.Points, 1), limit: l.cfg.Limit})
	}
	if len(items) == 0 {
		return Decision{Allowed: true}, nil
	}
	for _, it := range items {
		if it.n > it.limit {
			// It never fits, and a first charge of the window would
			// create the counter beyond the limit.
			return l.refuse(ctx, principal, start, reset, it, nil)
		}
	}
	if len(items) == 1 && items[0].bucket == Core {
		if d, ok, err := l.takeLeased(ctx, principal, start, reset, items[0]); ok || err != nil {
			return d, err
		}
	}
	counts, err := l.charge(ctx, principal, start, items)
	if err != nil {
		return Decision{}, err
	}
	d := Decision{Allowed: true}
	for i, it := range items {
		if counts[i] < 0 {
			var charged []item
			for j, other := range items {
				if counts[j] >= 0 {
					charged = append(charged, other)
				}
			}
			return l.refuse(ctx, principal, start, reset, it, charged)
		}
		if it.bucket == Core {
			d.Core = Usage{Bucket: Core, Limit: it.limit, Used: counts[i], Reset: reset}
		}
	}
	return d, nil
}

// refuse answers a refusal by it.bucket, after giving back what was
// charged in the others.
func (l *Limiter) refuse(ctx context.Context, principal string, start int64, reset time.Time, it item, charged []item) (Decision, error) {
	for _, c := range charged {
		if err := l.giveBack(ctx, principal, c.bucket, start, c.n); err != nil {
			return Decision{}, err
		}
	}
	u := Usage{Bucket: it.bucket, Limit: it.limit, Reset: reset}
	if it.n == 1 {
		// Only a counter already at its limit refuses a single unit.
		u.Used = it.limit
	} else {
		used, err := l.used(ctx, principal, it.bucket, start)
		if err != nil {
			return Decision{}, err
		}
		u.Used = used
	}
	d := Decision{Refused: &u, Cost: it.n}
	if it.bucket == Core {
		d.Core = u
	}
	return d, nil
}

// Usage reads a principal's bucket in the current window, charging nothing.
func (l *Limiter) Usage(ctx context.Context, principal string, b Bucket) (Usage, error) {
	start, reset := l.windowAt(l.cfg.Now())
	used, err := l.used(ctx, principal, b, start)
	if err != nil {
		return Usage{}, err
	}
	return Usage{Bucket: b, Limit: l.limit(b), Used: used, Reset: reset}, nil
}

func (l *Limiter) limit(b Bucket) int {
	switch b {
	case Content:
		return l.cfg.ContentLimit
	case Anonymous:
		return l.cfg.AnonymousLimit
	}
	return l.cfg.Limit
}

// Sweep deletes the counters of windows before the current one, which
// nothing reads again. It returns how many it deleted.
func (l *Limiter) Sweep(ctx context.Context) (int, error) {
	start, _ := l.windowAt(l.cfg.Now())
	return l.sweep(ctx, start)
}

// Run sweeps every interval until ctx ends. Every process may run it: the
// sweep deletes the same rows whoever runs it.
func (l *Limiter) Run(ctx context.Context, interval time.Duration, onError func(error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := l.Sweep(ctx); err != nil && ctx.Err() == nil && onError != nil {
			onError(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
