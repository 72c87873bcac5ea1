// Package soak runs a bounded soak test of a real "quire serve" process:
// a steady, open-loop mix of REST and GraphQL reads and writes on loopback
// for a fixed time, with two subscriptions kept open, sampling the
// server's memory, goroutines and database connections along the way. It
// passes when nothing failed, every acknowledged write is visible at the
// end, and memory and goroutines stayed flat (see Flat).
package soak

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"quire/internal/testing/testclient"
)

// Config bounds a soak.
type Config struct {
	Binary      string        // the quire binary (see Build)
	DatabaseURL string        // an empty database (sqlite:PATH or postgres://...)
	Duration    time.Duration // of the load, warm-up included
	Warmup      time.Duration // load before the first sample, which the rule compares against
	SampleEvery time.Duration
	Rate        float64 // requests per second, on average
	Workers     int     // operations under way at most
	Spaces      int     // spaces the load spreads over (sites: half as many)
	Seed        uint64  // of the mix's random choices
	// KeepPages and KeepComments bound what the load keeps of its own
	// pages and comments per space (0: 20 and 40): beyond, it deletes the
	// oldest, so that the data stays the same size.
	KeepPages, KeepComments int
	LogDir                  string // where the server's log goes
}

// Result is what a soak saw.
type Result struct {
	Samples     []Sample
	Requests    int64 // the load's requests that got an answer
	Elapsed     time.Duration
	Status5xx   int64
	Transport   int64 // requests with no answer
	Other       int64 // unexpected answers: 4xx, GraphQL errors, merge conflicts
	Behind      int64 // operations started more than a second after their slot
	Merged      int   // change requests merged (each added a page)
	Comments    int   // comments posted
	Deleted     int   // pages deleted (by merges), keeping spaces' size steady
	Uncommented int   // comments deleted
	Events      map[string]int
	Failures    []string // why the soak failed; empty when it passed
	FirstErrs   []string // the first failed requests
	ServerLog   string   // path of the server's log
}

// Passed reports whether the soak met every rule.
func (r *Result) Passed() bool { return len(r.Failures) == 0 }

// Flat is the memory rule: the last sample's RSS and low of live heap
// are at most 20% + 16 MiB above the first sample's (taken after the
// warm-up), and its low of goroutines besides the GraphQL list workers (a
// pool bounded by graph/lists.MaxIdle) at most 20 more.
func Flat(first, last Sample) []string {
	var out []string
	bound := func(v int64) int64 { return v + v/5 + 16<<20 }
	if last.RSS > bound(first.RSS) {
		out = append(out, fmt.Sprintf("RSS grew from %.1f MiB to %.1f MiB (bound %.1f MiB)", mib(first.RSS), mib(last.RSS), mib(bound(first.RSS))))
	}
	if last.HeapLow > bound(first.HeapLow) {
		out = append(out, fmt.Sprintf("live heap (low) grew from %.1f MiB to %.1f MiB (bound %.1f MiB)", mib(first.HeapLow), mib(last.HeapLow), mib(bound(first.HeapLow))))
	}
	if last.GoroutinesLow > first.GoroutinesLow+20 {
		out = append(out, fmt.Sprintf("goroutines (low) grew from %d to %d (bound %d)", first.GoroutinesLow, last.GoroutinesLow, first.GoroutinesLow+20))
	}
	return out
}

// lows tracks the least live heap and goroutines between samples.
type lows struct {
	mu               sync.Mutex
	heap, goroutines int64 // 0: nothing seen yet
}

func (l *lows) see(s Sample) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.heap == 0 || s.HeapLive < l.heap {
		l.heap = s.HeapLive
	}
	if g := s.Goroutines - s.ListWorkers; l.goroutines == 0 || g < l.goroutines {
		l.goroutines = g
	}
}

// take returns the lows, s's own figures included, and starts again.
func (l *lows) take(s Sample) (heap, goroutines int64) {
	l.see(s)
	l.mu.Lock()
	defer l.mu.Unlock()
	heap, goroutines = l.heap, l.goroutines
	l.heap, l.goroutines = 0, 0
	return heap, goroutines
}

func (c *Config) check() error {
	switch {
	case c.Binary == "" || c.DatabaseURL == "" || c.LogDir == "":
		return errors.New("soak: Binary, DatabaseURL and LogDir are required")
	case c.Duration <= 0 || c.Duration > 24*time.Hour:
		return errors.New("soak: duration must be in (0, 24h]")
	case c.Warmup < 0 || c.Warmup >= c.Duration:
		return errors.New("soak: warm-up must be shorter than the duration")
	case c.SampleEvery <= 0:
		return errors.New("soak: sample interval must be positive")
	case c.Rate <= 0 || c.Rate > 10000:
		return errors.New("soak: rate must be in (0, 10000] requests per second")
	case c.Workers < 1 || c.Workers > 1000:
		return errors.New("soak: workers must be in [1, 1000]")
	case c.KeepPages < 0 || c.KeepComments < 0:
		return errors.New("soak: KeepPages and KeepComments must not be negative")
	case c.Spaces < 2 || c.Spaces > 100:
		return errors.New("soak: spaces must be in [2, 100]")
	}
	return nil
}

// Run soaks a server over cfg.DatabaseURL. An error means the soak could
// not run (the server did not start, seeding failed); a soak that ran
// returns its Result, which says whether it passed.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	org, token, err := bootstrap(ctx, cfg.Binary, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	res := &Result{ServerLog: filepath.Join(cfg.LogDir, "quire-serve.log")}
	p, err := startServer(ctx, cfg.Binary, cfg.DatabaseURL, res.ServerLog)
	if err != nil {
		return nil, err
	}
	stopped := false
	defer func() {
		if !stopped {
			p.stop()
		}
	}()
	base := "http://" + p.addr
	st := &stats{}
	c := &client{st: st, api: &testclient.Client{Base: base, Token: token, HTTP: &http.Client{
		Timeout:   30 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: cfg.Workers, MaxConnsPerHost: cfg.Workers},
	}}}
	defer c.api.HTTP.CloseIdleConnections()
	sctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	w, err := seed(sctx, c, org, cfg.Spaces, cfg.Spaces/2)
	cancel()
	if err != nil {
		return nil, fmt.Errorf("%v\nserver log tail:\n%s", err, p.logTail(20))
	}
	w.keepPages, w.keepComments = cmp.Or(cfg.KeepPages, defaultKeepPages), cmp.Or(cfg.KeepComments, defaultKeepComments)
	before, err := sample(ctx, base, p.pid())
	if err != nil {
		return nil, err
	}
	var watchers []*watcher
	defer func() {
		for _, wt := range watchers {
			wt.close()
		}
	}()
	for _, s := range w.spaces[:2] {
		wt, err := watch(ctx, base, token, s.id)
		if err != nil {
			return nil, err
		}
		watchers = append(watchers, wt)
	}
	st.takeWindow() // seeding is not part of the first interval

	start := time.Now()
	loadCtx, stopLoad := context.WithDeadline(ctx, start.Add(cfg.Duration))
	defer stopLoad()
	loadDone := make(chan struct{})
	go func() {
		defer close(loadDone)
		drive(loadCtx, c, w, cfg.Rate, cfg.Workers, cfg.Seed)
	}()
	low := &lows{}
	scraped := make(chan struct{})
	go func() {
		defer close(scraped)
		t := time.NewTicker(max(time.Second, cfg.SampleEvery/12))
		defer t.Stop()
		for {
			select {
			case <-loadCtx.Done():
				return
			case <-t.C:
				if sm, err := sample(loadCtx, base, p.pid()); err == nil {
					low.see(sm)
				}
			}
		}
	}()
	defer func() { <-scraped }()
	take := func() {
		sm, err := sample(context.Background(), base, p.pid())
		if err != nil {
			res.Failures = append(res.Failures, "sample: "+err.Error())
			return
		}
		sm.At = time.Since(start).Round(time.Second)
		sm.HeapLow, sm.GoroutinesLow = low.take(sm)
		sm.Interval, sm.P50, sm.P99 = st.takeWindow()
		res.Samples = append(res.Samples, sm)
	}
	// Samples at the warm-up's end, every SampleEvery after, and when the
	// load ends (before it drains, so the last sample is under load too).
	next := start.Add(cfg.Warmup)
	for loadCtx.Err() == nil {
		if !next.Before(start.Add(cfg.Duration - cfg.SampleEvery/2)) {
			<-loadCtx.Done()
			break
		}
		select {
		case <-loadCtx.Done():
		case <-time.After(time.Until(next)):
			take()
			next = next.Add(cfg.SampleEvery)
		}
	}
	if ctx.Err() != nil {
		<-loadDone
		return nil, ctx.Err()
	}
	take()
	<-loadDone
	res.Elapsed = time.Since(start)

	res.Failures = append(res.Failures, verify(ctx, c, w, watchers, res)...)
	after, err := sample(ctx, base, p.pid())
	if err != nil {
		res.Failures = append(res.Failures, "sample: "+err.Error())
	} else if d := after.Server5xx - before.Server5xx; d > 0 {
		res.Failures = append(res.Failures, fmt.Sprintf("the server answered %d requests with a 5xx (its metrics)", d))
	}
	for _, wt := range watchers {
		wt.close()
	}
	watchers = nil
	stopped = true
	if err := p.stop(); err != nil {
		res.Failures = append(res.Failures, fmt.Sprintf("quire serve did not exit cleanly on SIGTERM: %v", err))
	}

	st.mu.Lock()
	res.Requests, res.Status5xx, res.Transport, res.Other, res.Behind = st.requests, st.status5xx, st.transport, st.unexpect, st.behind
	res.FirstErrs = st.firstErrs
	st.mu.Unlock()
	if res.Status5xx > 0 {
		res.Failures = append(res.Failures, fmt.Sprintf("%d answers were a 5xx", res.Status5xx))
	}
	if res.Transport > 0 {
		res.Failures = append(res.Failures, fmt.Sprintf("%d requests got no answer (transport errors)", res.Transport))
	}
	if res.Other > 0 {
		res.Failures = append(res.Failures, fmt.Sprintf("%d answers were not the expected one (4xx, GraphQL errors or merge conflicts)", res.Other))
	}
	if len(res.Samples) >= 2 {
		res.Failures = append(res.Failures, Flat(res.Samples[0], res.Samples[len(res.Samples)-1])...)
	} else {
		res.Failures = append(res.Failures, "fewer than two samples: the memory rule could not be checked")
	}
	return res, nil
}

// LogDir returns a new temporary directory for a soak's logs.
func LogDir() (string, error) { return os.MkdirTemp("", "quire-soak-") }
