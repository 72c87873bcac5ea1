package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"quire/internal/testing/benchkit"
)

// line is one row of a table.
type line struct {
	workload   string
	conns      int
	res        benchkit.Result
	statements float64 // -1: not counted
	rss        int64   // the server's largest RSS during the run, bytes
	bare       *benchkit.Result
}

// counted sends n requests one at a time and returns quire's SQL
// statements per request, from its /metrics before and after; it stops
// early when the target's prepared objects are used up.
func counted(ctx context.Context, e *env, t benchkit.Target, n int) (float64, error) {
	before, err := benchkit.Metric(ctx, e.quire.Base, "quire_db_statements_total")
	if err != nil {
		return 0, err
	}
	sent := 0
	for ; sent < n; sent++ {
		if _, err := send(ctx, t, sent); err != nil {
			if errors.Is(err, benchkit.ErrExhausted) {
				break
			}
			return 0, err
		}
	}
	after, err := benchkit.Metric(ctx, e.quire.Base, "quire_db_statements_total")
	if err != nil {
		return 0, err
	}
	if sent == 0 {
		return -1, nil
	}
	return (after - before) / float64(sent), nil
}

// load runs t at conns connections for d, sampling proc's RSS.
func load(ctx context.Context, proc *benchkit.Proc, t benchkit.Target, conns int, d time.Duration) (benchkit.Result, int64, error) {
	if err := ctx.Err(); err != nil {
		return benchkit.Result{}, 0, err
	}
	logf("%s, %d connection(s), %v", t.Name, conns, d)
	var stop func() int64
	if proc != nil {
		stop = benchkit.WatchRSS(proc.PID())
	}
	res, err := benchkit.Builtin{}.Run(ctx, t, conns, d)
	var rss int64
	if stop != nil {
		rss = stop()
	}
	if err == nil && res.Errors > 0 {
		logf("%s: %d of %d requests failed, the first: %s", t.Name, res.Errors, res.Requests, res.FirstError)
	}
	return res, rss, err
}

// workloads runs every workload against quire and prints the table.
func workloads(ctx context.Context, e *env, o options, w io.Writer) error {
	s := &e.seeded
	wconns := o.writeConns
	list := readWorkloads(s, e.quire.Base, e.bareBase, o.conns, o.count)
	list = append(list, crCreate(s, e.quire.Base, wconns, max(o.count/10, 5)))
	var lines []line
	var notes []string
	about := map[string]string{}
	for i := 0; i < len(list); i++ {
		wl := list[i]
		about[wl.name] = wl.about
		logf("%s: counting statements over %d sequential requests", wl.name, wl.count)
		stmts, err := counted(ctx, e, wl.quire, wl.count)
		if err != nil {
			return fmt.Errorf("%s: %w", wl.name, err)
		}
		if wl.bare != nil {
			// One answer of each for the same object.
			qa, err := send(ctx, wl.quire, 0)
			if err != nil {
				return fmt.Errorf("%s: %w", wl.name, err)
			}
			ba, err := send(ctx, *wl.bare, 0)
			if err != nil {
				return fmt.Errorf("%s, bare handler: %w", wl.name, err)
			}
			if d := sameObjects(qa, ba); d != "" {
				notes = append(notes, fmt.Sprintf("%s: the bare handler's answer differs from quire's: %s", wl.name, d))
			} else {
				notes = append(notes, fmt.Sprintf("%s: quire and the bare handler answer with the same ids and titles (%d bytes vs %d)", wl.name, len(qa), len(ba)))
			}
		}
		conns := wl.conns
		if wl.name == "graphql-site" {
			conns = append(append([]int{}, conns...), 64)
		}
		for _, c := range conns {
			l := line{workload: wl.name, conns: c, statements: stmts}
			if wl.bare != nil && c != 64 {
				r, _, err := load(ctx, nil, *wl.bare, c, o.duration)
				if err != nil {
					return err
				}
				l.bare = &r
			}
			var prof chan error
			if o.cpuprofile != "" && wl.name == "graphql-site" && c == 10 {
				prof = make(chan error, 1)
				go func() { prof <- cpuProfile(ctx, e.pprof, o.cpuprofile, max(time.Second, o.duration-time.Second)) }()
			}
			if l.res, l.rss, err = load(ctx, e.quire, wl.quire, c, o.duration); err != nil {
				return err
			}
			if prof != nil {
				if err := <-prof; err != nil {
					return fmt.Errorf("CPU profile: %w", err)
				}
			}
			lines = append(lines, l)
		}
		if wl.name == "cr-create" {
			m, n, err := crMerge(ctx, e.d.SQL, s, e.quire.Base, wconns, max(o.count/10, 5))
			if err != nil {
				return err
			}
			logf("cr-merge: %d change requests to merge", n)
			list = append(list, m)
		}
	}
	fmt.Fprintln(w, "| workload | conns | req/s | p50 | p99 | SQL statements/req | quire RSS (max) | bare handler req/s | quire ÷ bare | requests (errors) / run |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, l := range lines {
		bareRPS, ratio := "—", "—"
		if l.bare != nil && l.bare.RPS() > 0 {
			bareRPS, ratio = rps(l.bare.RPS()), fmt.Sprintf("%.2f", l.res.RPS()/l.bare.RPS())
		}
		stmts := "—"
		if l.statements >= 0 {
			stmts = fmt.Sprintf("%.1f", l.statements)
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %d (%d) / %.1fs |\n", l.workload, l.conns, rps(l.res.RPS()),
			ms(l.res.P50), ms(l.res.P99), stmts, mib(l.rss), bareRPS, ratio, l.res.Requests, l.res.Errors, l.res.Elapsed.Seconds())
	}
	fmt.Fprintln(w)
	for _, wl := range list {
		fmt.Fprintf(w, "- %s: %s\n", wl.name, about[wl.name])
	}
	fmt.Fprintln(w, "- graphql-site at 64 connections is there for quire's RSS under that many connections.")
	fmt.Fprintln(w, "- SQL statements/req: quire_db_statements_total of quire's /metrics around the counted sequential requests (background jobs' statements included).")
	fmt.Fprintln(w, "- bare handler: one SQL statement building the same JSON in PostgreSQL, served by the benchmark process.")
	for _, n := range notes {
		fmt.Fprintln(w, "- "+n)
	}
	fmt.Fprintln(w)
	if o.cpuprofile != "" {
		top, err := pprofTop(ctx, e.quireBin, o.cpuprofile)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "CPU profile of quire under graphql-site at 10 connections (%s), top 20:\n\n```\n%s```\n\n", o.cpuprofile, top)
	}
	return nil
}

// cpuProfile fetches a CPU profile of d from quire's pprof listener into
// file.
func cpuProfile(ctx context.Context, base, file string, d time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, d+30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", base, int(d.Seconds())), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// pprofTop is go tool pprof's top of a profile: 20 by own time, or as
// the flags given say (-cum, -nodecount=N).
func pprofTop(ctx context.Context, bin, file string, flags ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if len(flags) == 0 {
		flags = []string{"-nodecount=20"}
	}
	args := append(append([]string{"tool", "pprof", "-top"}, flags...), bin, file)
	out, err := execCommand(ctx, "", "go", args...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go tool pprof: %v\n%s", err, out)
	}
	return string(out), nil
}

func rps(v float64) string { return benchkit.FormatRPS(v) }

func ms(d time.Duration) string { return benchkit.FormatMS(d) }

func mib(b int64) string {
	if b <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20))
}

// median returns the run with the median requests per second.
func median(runs []line) line {
	return benchkit.MedianBy(runs, func(l line) float64 { return l.res.RPS() })
}
