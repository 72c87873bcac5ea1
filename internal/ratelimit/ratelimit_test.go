package ratelimit_test

import (
	"context"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"quire/internal/ratelimit"
	"quire/internal/testing/testdb"
	"quire/internal/testing/testenv"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// clock is a settable clock shared by limiters.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock {
	return &clock{t: time.Date(2026, 3, 1, 10, 15, 0, 0, time.UTC)}
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func take(t *testing.T, l *ratelimit.Limiter, who string, c ratelimit.Cost) ratelimit.Decision {
	t.Helper()
	d, err := l.Take(context.Background(), who, c)
	if err != nil {
		t.Fatalf("take %+v: %v", c, err)
	}
	return d
}

func usage(t *testing.T, l *ratelimit.Limiter, who string, b ratelimit.Bucket) int {
	t.Helper()
	u, err := l.Usage(context.Background(), who, b)
	if err != nil {
		t.Fatalf("usage: %v", err)
	}
	return u.Used
}

func TestOffWhenNoLimit(t *testing.T) {
	if l := ratelimit.New(nil, ratelimit.Config{}); l != nil {
		t.Fatalf("a configuration without limits made a limiter")
	}
	for _, c := range []ratelimit.Config{{Limit: -1}, {Window: 1500 * time.Millisecond}, {Window: -time.Hour}} {
		if c.Validate() == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	if err := (ratelimit.Config{Limit: 5000, ContentLimit: 0, Window: time.Minute}).Validate(); err != nil {
		t.Errorf("valid configuration refused: %v", err)
	}
}

func TestTakeCountsUpToTheLimit(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		clk := newClock()
		l := ratelimit.New(e.Client(), ratelimit.Config{Limit: 3, Now: clk.Now})
		wantReset := time.Date(2026, 3, 1, 11, 0, 0, 0, time.UTC)
		for i := 1; i <= 3; i++ {
			d := take(t, l, "U1", ratelimit.Cost{Points: 1})
			if !d.Allowed || d.Core.Used != i || d.Core.Remaining() != 3-i || d.Core.Limit != 3 || !d.Core.Reset.Equal(wantReset) {
				t.Fatalf("request %d: %+v", i, d)
			}
		}
		d := take(t, l, "U1", ratelimit.Cost{Points: 1})
		if d.Allowed || d.Refused == nil || d.Refused.Bucket != ratelimit.Core || d.Refused.Remaining() != 0 || d.Cost != 1 {
			t.Fatalf("fourth request: %+v", d)
		}
		if n := usage(t, l, "U1", ratelimit.Core); n != 3 {
			t.Fatalf("used after a refusal = %d, want 3", n)
		}
		// Another principal has a budget of its own.
		if d := take(t, l, "U2", ratelimit.Cost{}); !d.Allowed || d.Core.Used != 1 {
			t.Fatalf("other principal: %+v", d)
		}
	})
}

func TestRefusedPointsAreNotSpent(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		clk := newClock()
		l := ratelimit.New(e.Client(), ratelimit.Config{Limit: 10, Now: clk.Now})
		if d := take(t, l, "U1", ratelimit.Cost{Points: 7}); !d.Allowed || d.Core.Used != 7 {
			t.Fatalf("7 points: %+v", d)
		}
		d := take(t, l, "U1", ratelimit.Cost{Points: 5})
		if d.Allowed || d.Refused.Used != 7 || d.Refused.Remaining() != 3 || d.Cost != 5 {
			t.Fatalf("5 more points: %+v", d)
		}
		if d := take(t, l, "U1", ratelimit.Cost{Points: 3}); !d.Allowed || d.Core.Remaining() != 0 {
			t.Fatalf("the 3 remaining points: %+v", d)
		}
		// More than the whole budget never fits, and creates no counter.
		d = take(t, l, "U2", ratelimit.Cost{Points: 11})
		if d.Allowed || d.Refused.Used != 0 || d.Refused.Remaining() != 10 {
			t.Fatalf("11 points of 10: %+v", d)
		}
		if n := usage(t, l, "U2", ratelimit.Core); n != 0 {
			t.Fatalf("used = %d after refusing a cost over the limit", n)
		}
	})
}

func TestBucketsRefuseAlone(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		clk := newClock()
		l := ratelimit.New(e.Client(), ratelimit.Config{Limit: 4, ContentLimit: 2, Now: clk.Now})
		create := ratelimit.Cost{Points: 1, Content: 1}
		for i := 0; i < 2; i++ {
			if d := take(t, l, "U1", create); !d.Allowed {
				t.Fatalf("creation %d refused: %+v", i, d)
			}
		}
		d := take(t, l, "U1", create)
		if d.Allowed || d.Refused.Bucket != ratelimit.Content || d.Refused.Remaining() != 0 {
			t.Fatalf("third creation: %+v", d)
		}
		if n := usage(t, l, "U1", ratelimit.Core); n != 2 {
			t.Fatalf("core used = %d after a content refusal, want 2", n)
		}
		// Reads still pass, until the core bucket is spent too.
		for i := 0; i < 2; i++ {
			if d := take(t, l, "U1", ratelimit.Cost{Points: 1}); !d.Allowed {
				t.Fatalf("read %d refused: %+v", i, d)
			}
		}
		// A creation refused by the core bucket gives back its content unit.
		other := "U2"
		take(t, l, other, ratelimit.Cost{Points: 4})
		d = take(t, l, other, create)
		if d.Allowed || d.Refused.Bucket != ratelimit.Core {
			t.Fatalf("creation over the core budget: %+v", d)
		}
		if n := usage(t, l, other, ratelimit.Content); n != 0 {
			t.Fatalf("content used = %d after a core refusal, want 0", n)
		}
	})
}

func TestWindowResetsAndSweep(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		clk := newClock()
		l := ratelimit.New(e.Client(), ratelimit.Config{Limit: 2, Window: 10 * time.Minute, Now: clk.Now})
		take(t, l, "U1", ratelimit.Cost{Points: 2})
		d := take(t, l, "U1", ratelimit.Cost{Points: 1})
		if d.Allowed || !d.Refused.Reset.Equal(time.Date(2026, 3, 1, 10, 20, 0, 0, time.UTC)) {
			t.Fatalf("over the limit: %+v", d)
		}
		clk.Add(5*time.Minute - time.Second) // 10:19:59, still the same window
		if d := take(t, l, "U1", ratelimit.Cost{Points: 1}); d.Allowed {
			t.Fatalf("allowed before the window ended: %+v", d)
		}
		clk.Add(time.Second) // 10:20:00
		d = take(t, l, "U1", ratelimit.Cost{Points: 1})
		if !d.Allowed || d.Core.Used != 1 || !d.Core.Reset.Equal(time.Date(2026, 3, 1, 10, 30, 0, 0, time.UTC)) {
			t.Fatalf("new window: %+v", d)
		}
		n, err := l.Sweep(context.Background())
		if err != nil || n != 1 {
			t.Fatalf("sweep = %d, %v; want the past window's counter", n, err)
		}
		if c := e.Client().RateLimitCounter.Query().CountX(context.Background()); c != 1 {
			t.Fatalf("%d counters left, want the current one", c)
		}
	})
}

// Charges are atomic: requests at once never spend more than the limit.
func TestConcurrentChargesStayWithinTheLimit(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		clk := newClock()
		const limit, requests = 15, 40
		l := ratelimit.New(e.Client(), ratelimit.Config{Limit: limit, Now: clk.Now})
		var allowed atomic.Int32
		var wg sync.WaitGroup
		for range requests {
			wg.Go(func() {
				d, err := l.Take(context.Background(), "U1", ratelimit.Cost{Points: 1})
				if err != nil {
					t.Error(err)
					return
				}
				if d.Allowed {
					allowed.Add(1)
				}
			})
		}
		wg.Wait()
		if n := allowed.Load(); n != limit {
			t.Fatalf("%d of %d concurrent requests allowed, want %d", n, requests, limit)
		}
		if n := usage(t, l, "U1", ratelimit.Core); n != limit {
			t.Fatalf("used = %d, want %d", n, limit)
		}
	})
}
