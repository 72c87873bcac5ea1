package main

import (
	"slices"
	"strings"
	"testing"
	"time"

	"quire/internal/testing/benchkit"
)

func TestSameObjects(t *testing.T) {
	quire := []byte(`{"data":{"site":{"id":"s1","title":"Docs","organization":{"id":"o1","title":"Org"},"sections":{"nodes":[{"id":"a","title":"A","siteSpaces":{"nodes":[{"id":"x","space":{"id":"p","title":"P","visibility":"PUBLIC"}}]}}]}}}}`)
	peer := []byte(`{"data":{"site":{"title":"Docs","id":"s1","organization":{"title":"Org","id":"o1"},"sections":{"nodes":[{"title":"A","id":"a","siteSpaces":{"nodes":[{"space":{"visibility":"public","title":"P","id":"p"},"id":"x"}]}}]}}}}`)
	if d := sameObjects(quire, peer); d != "" {
		t.Errorf("same objects, other order and visibility spelling: %s", d)
	}
	other := []byte(`{"data":{"site":{"id":"s1","title":"Docs","organization":{"id":"o1","title":"Org"},"sections":{"nodes":[]}}}}`)
	if d := sameObjects(quire, other); d == "" {
		t.Error("a missing section went unnoticed")
	}
	if d := sameObjects([]byte(`{"data":null}`), []byte(`{"data":null}`)); d == "" {
		t.Error("answers without ids compare equal")
	}
}

func TestSequenceIsStable(t *testing.T) {
	a, b := sequence(50, 1), sequence(50, 1)
	for i := range a {
		if a[i] != b[i] || a[i] < 0 || a[i] >= 50 {
			t.Fatalf("sequence differs or leaves the range at %d: %d %d", i, a[i], b[i])
		}
	}
}

func TestRoundOrderAlternates(t *testing.T) {
	names := []string{nameQuire, namePeer, nameCeiling}
	for r, want := range map[int][]string{
		1: {nameQuire, namePeer, nameCeiling},
		2: {namePeer, nameQuire, nameCeiling},
		3: {nameQuire, namePeer, nameCeiling},
		4: {namePeer, nameQuire, nameCeiling},
	} {
		if got := roundOrder(r, names); !slices.Equal(got, want) {
			t.Errorf("round %d: %v, want %v", r, got, want)
		}
	}
	if names[0] != nameQuire {
		t.Error("roundOrder changed its argument")
	}
}

func fakeRun(rps float64, p50 time.Duration, rss int64) line {
	return line{res: benchkit.Result{Requests: int64(rps * 10), Elapsed: 10 * time.Second, P50: p50}, rss: rss}
}

func TestSummarize(t *testing.T) {
	runs := []line{fakeRun(900, 3*time.Millisecond, 100), fakeRun(1200, 1*time.Millisecond, 300), fakeRun(1000, 2*time.Millisecond, 200)}
	s := summarize(runs)
	if s.median != 1000 || s.lo != 900 || s.hi != 1200 {
		t.Errorf("median %v, min %v, max %v; want 1000, 900, 1200", s.median, s.lo, s.hi)
	}
	if s.mid.res.P50 != 2*time.Millisecond {
		t.Errorf("p50 %v: want the median run's, 2ms", s.mid.res.P50)
	}
	if s.rss != 300 || !slices.Equal(s.byRound, []float64{900, 1200, 1000}) || s.requests != 31000 {
		t.Errorf("rss %d by round %v requests %d", s.rss, s.byRound, s.requests)
	}
	peer := []line{fakeRun(1000, 0, 0), fakeRun(1000, 0, 0), fakeRun(800, 0, 0)}
	if got := ratios(runs, peer); !slices.Equal(got, []float64{0.9, 1.2, 1.25}) {
		t.Errorf("each round's ratios %v, want 0.9 1.2 1.25", got)
	}
}

func TestPeerNeedsLongRunsAndRounds(t *testing.T) {
	ok := options{peer: true, duration: 10 * time.Second, rounds: 3, warmup: 10 * time.Second, nodeVersion: "22.23.5"}
	if err := checkPeerOptions(ok); err != nil {
		t.Errorf("10s, 3 rounds: %v", err)
	}
	for name, change := range map[string]func(*options){
		"5s runs":      func(o *options) { o.duration = 5 * time.Second },
		"2 rounds":     func(o *options) { o.rounds = 2 },
		"1s warm-up":   func(o *options) { o.warmup = time.Second },
		"Node 20":      func(o *options) { o.nodeVersion = "20.20.2" },
		"Node 22":      func(o *options) { o.nodeVersion = "22" },
		"not a number": func(o *options) { o.nodeVersion = "lts" },
	} {
		o := ok
		change(&o)
		if err := checkPeerOptions(o); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	quick := ok
	quick.quick, quick.duration, quick.rounds, quick.warmup = true, 2*time.Second, 1, time.Second
	if err := checkPeerOptions(quick); err != nil {
		t.Errorf("--quick: %v", err)
	}
	if err := checkPeerOptions(options{duration: time.Second}); err != nil {
		t.Errorf("without --peer: %v", err)
	}
}

// pgbench reads one statement per line: the ceiling script is a random
// site number and one line holding the whole statement, with pgbench's
// variables and no database/sql placeholders left.
func TestCeilingScript(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(ceilingScript(50), "\n"), "\n")
	if len(lines) != 2 || lines[0] != `\set n random(1, 50)` {
		t.Fatalf("script lines %q", lines)
	}
	stmt := lines[1]
	if strings.Contains(stmt, "$") || !strings.Contains(stmt, ":hash") || !strings.Contains(stmt, "WHERE n = :n") || !strings.HasSuffix(stmt, ";") {
		t.Errorf("statement %s", stmt)
	}
	if strings.Count(stmt, ";") != 1 {
		t.Errorf("more than one statement: %s", stmt)
	}
}
