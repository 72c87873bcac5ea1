package ratelimit

import (
	"context"
	"sync"
	"time"
)

// Leases. Charging the database for every request costs a round trip and,
// when one principal sends many requests at once, a wait on the row lock
// of its counter. A process therefore reserves core points ahead: a charge
// that finds no points reserved here adds a few more than it needs to the
// shared counter, and the next requests of the same principal spend those
// without a statement. The counter in the database always holds at least
// what was spent, so replicas together never exceed a budget; points
// reserved and not yet spent count as spent for the other replicas (and
// are lost at the end of the window, or when the process stops).
//
// Reservations stay small against what remains: at most leaseMax points,
// and at most 1/leaseDivisor of what the counter had left when the process
// last read it; below leaseFloor points left (or a limit under it) every
// charge goes to the database, so a budget nearly spent is shared exactly.
const (
	leaseMax     = 100
	leaseDivisor = 32
	leaseFloor   = 1024
	// maxLeases bounds the principals a process keeps reservations for;
	// past it, charges go to the database until the window changes.
	maxLeases = 100_000
)

// lease is what a process holds of one principal's core budget in one window.
type lease struct {
	window int64
	// left is reserved and not spent yet.
	left int
	// counted is the highest value of the shared counter this process saw.
	counted int
}

type leases struct {
	mu sync.Mutex
	m  map[string]*lease
}

// extra is how many points beyond a charge's own to reserve, when the
// counter had remaining points left (as last seen).
func extra(remaining int) int {
	if remaining < leaseFloor {
		return 0
	}
	return min(leaseMax, remaining/leaseDivisor)
}

// spend takes n points reserved for principal in window, and reports the
// points of the window spent as this process knows them.
func (ls *leases) spend(principal string, window int64, n int) (used int, ok bool) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	le := ls.m[principal]
	if le == nil || le.window != window || le.left < n {
		return 0, false
	}
	le.left -= n
	return le.counted - le.left, true
}

// plan is how many points to reserve beyond n, from what is known of the
// principal's counter in window.
func (ls *leases) plan(principal string, window int64, limit int) int {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if le := ls.m[principal]; le != nil && le.window == window {
		return extra(limit - le.counted)
	}
	if len(ls.m) >= maxLeases {
		for p, le := range ls.m {
			if le.window != window {
				delete(ls.m, p)
			}
		}
		if len(ls.m) >= maxLeases {
			return 0
		}
	}
	return extra(limit)
}

// add records that a charge of n+reserved points left the shared counter
// at counted, and returns the points spent as this process knows them.
func (ls *leases) add(principal string, window int64, reserved, counted int) int {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	le := ls.m[principal]
	if le == nil || le.window != window {
		le = &lease{window: window}
		if ls.m == nil {
			ls.m = map[string]*lease{}
		}
		ls.m[principal] = le
	}
	le.left += reserved
	le.counted = max(le.counted, counted)
	return le.counted - le.left
}

// takeLeased charges a request that spends core points only, from this
// process's reservation when it holds enough, else by reserving more. It
// reports false when the charge must be made exactly (the reservation
// would not fit in what remains, or none is allowed).
func (l *Limiter) takeLeased(ctx context.Context, principal string, start int64, reset time.Time, it item) (Decision, bool, error) {
	if used, ok := l.leases.spend(principal, start, it.n); ok {
		return Decision{Allowed: true, Core: Usage{Bucket: Core, Limit: it.limit, Used: used, Reset: reset}}, true, nil
	}
	more := l.leases.plan(principal, start, it.limit)
	if more == 0 || it.n+more > it.limit {
		return Decision{}, false, nil
	}
	counts, err := l.charge(ctx, principal, start, []item{{bucket: Core, n: it.n + more, limit: it.limit}})
	if err != nil {
		return Decision{}, false, err
	}
	if counts[0] < 0 {
		return Decision{}, false, nil // too close to the limit: charge exactly
	}
	used := l.leases.add(principal, start, more, counts[0])
	return Decision{Allowed: true, Core: Usage{Bucket: Core, Limit: it.limit, Used: used, Reset: reset}}, true, nil
}
