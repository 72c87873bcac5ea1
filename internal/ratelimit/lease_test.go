package ratelimit_test

import (
	"testing"

	"quire/internal/ratelimit"
	"quire/internal/testing/testenv"
)

// A large budget is charged in the database once per reservation, not once
// per request, and the usage each request reports is still its own count.
func TestReservationsSpareStatements(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		clk := newClock()
		l := ratelimit.New(e.Client(), ratelimit.Config{Limit: 1_000_000, Now: clk.Now})
		before := e.Statements()
		const n = 250
		for i := 1; i <= n; i++ {
			d := take(t, l, "U1", ratelimit.Cost{Points: 1})
			if !d.Allowed || d.Core.Used != i || d.Core.Remaining() != 1_000_000-i {
				t.Fatalf("request %d: %+v", i, d)
			}
		}
		// 1 + 100 reserved per statement: 3 statements for 250 requests.
		if got := e.Statements() - before; got != 3 {
			t.Fatalf("%d statements for %d requests, want 3", got, n)
		}
		if used := usage(t, l, "U1", ratelimit.Core); used < n || used > n+100 {
			t.Fatalf("the shared counter holds %d after %d requests", used, n)
		}
		// A new window starts without a reservation.
		clk.Add(ratelimit.DefaultWindow)
		if d := take(t, l, "U1", ratelimit.Cost{Points: 1}); !d.Allowed || d.Core.Used != 1 {
			t.Fatalf("first request of the next window: %+v", d)
		}
	})
}

// Two processes reserving from one budget never spend more than it holds,
// and near the end of it charge exactly, so that little is left unspent.
func TestReservationsStayWithinTheBudget(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		clk := newClock()
		const limit = 3000
		a := ratelimit.New(e.Client(), ratelimit.Config{Limit: limit, Now: clk.Now})
		b := ratelimit.New(e.Client(), ratelimit.Config{Limit: limit, Now: clk.Now})
		allowed, refusedInARow := 0, 0
		for i := 0; refusedInARow < 2; i++ {
			if i > 2*limit {
				t.Fatal("never refused")
			}
			l := []*ratelimit.Limiter{a, b}[i%2]
			d := take(t, l, "U1", ratelimit.Cost{Points: 1})
			if d.Allowed {
				allowed++
				refusedInARow = 0
				continue
			}
			refusedInARow++
		}
		if used := usage(t, a, "U1", ratelimit.Core); used != limit {
			t.Fatalf("the shared counter holds %d, want the limit %d", used, limit)
		}
		// What the two processes reserved and did not spend is the most
		// they can leave unspent.
		if allowed > limit || allowed < limit-2*100 {
			t.Fatalf("%d requests allowed of a budget of %d", allowed, limit)
		}
	})
}
