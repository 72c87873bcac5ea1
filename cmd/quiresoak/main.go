// Command quiresoak soaks a real "quire serve" process (built from this
// tree) over a throwaway PostgreSQL cluster: a steady, open-loop mix of
// REST and GraphQL reads and writes on 127.0.0.1 for a fixed time, two
// subscriptions open, the server's memory, goroutines and connections
// sampled every minute. It prints a table and exits 1 with the reasons
// when anything failed, an acknowledged write is missing, or memory or
// goroutines grew (see soak.Flat).
//
//	SOAK_DURATION=10m SOAK_RATE=100 SOAK_WORKERS=32 go run ./cmd/quiresoak
//
// Environment: SOAK_DURATION (10m), SOAK_RATE (requests/s, 100),
// SOAK_WORKERS (32), SOAK_WARMUP (2m, at most a quarter of the duration),
// SOAK_SAMPLE_EVERY (1m), SOAK_SPACES (4), SOAK_DATABASE_URL (an empty
// database to use instead of a throwaway cluster).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"quire/internal/testing/soak"
	"quire/internal/testing/testdb"
)

func main() { os.Exit(run(os.Stdout, os.Stderr, os.Getenv)) }

func run(stdout, stderr io.Writer, getenv func(string) string) int {
	cfg, err := config(getenv)
	if err != nil {
		fmt.Fprintln(stderr, "quiresoak:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Everything is bounded: the load, plus building, seeding and checking.
	ctx, cancel := context.WithTimeout(ctx, cfg.Duration+15*time.Minute)
	defer cancel()

	dir, err := soak.LogDir()
	if err != nil {
		fmt.Fprintln(stderr, "quiresoak:", err)
		return 1
	}
	cfg.LogDir = dir
	wd, _ := os.Getwd()
	root, err := soak.ModuleRoot(wd)
	if err == nil {
		cfg.Binary, err = soak.Build(ctx, root, dir)
	}
	if err != nil {
		fmt.Fprintln(stderr, "quiresoak:", err)
		return 1
	}
	if cfg.DatabaseURL == "" {
		pg, err := testdb.Start()
		if err != nil {
			fmt.Fprintln(stderr, "quiresoak: throwaway PostgreSQL:", err)
			return 1
		}
		defer pg.Close()
		cfg.DatabaseURL = pg.URL() // the fresh cluster's own database: empty
	}
	host, _ := os.Hostname()
	fmt.Fprintf(stdout, "# Soak: %s at %.0f requests/s, %d workers, %d spaces (%s, %s, %d CPUs, %s)\n\n",
		cfg.Duration, cfg.Rate, cfg.Workers, cfg.Spaces, time.Now().UTC().Format("2006-01-02 15:04Z"), host, runtime.NumCPU(), runtime.Version())
	res, err := soak.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "quiresoak:", err)
		return 1
	}
	report(stdout, res)
	if !res.Passed() {
		fmt.Fprintf(stderr, "quiresoak: FAIL (server log: %s)\n", res.ServerLog)
		for _, f := range res.Failures {
			fmt.Fprintln(stderr, "  -", f)
		}
		return 1
	}
	os.RemoveAll(dir)
	fmt.Fprintln(stdout, "\nPASS")
	return 0
}

func report(w io.Writer, r *soak.Result) {
	soak.Table(w, r.Samples)
	fmt.Fprintf(w, "\n%d requests in %s (%.1f/s); 5xx %d, transport errors %d, other unexpected answers %d; operations started over 1 s late: %d\n",
		r.Requests, r.Elapsed.Round(time.Second), float64(r.Requests)/r.Elapsed.Seconds(), r.Status5xx, r.Transport, r.Other, r.Behind)
	fmt.Fprintf(w, "writes acknowledged: %d change requests merged (a page each; %d of them also deleted one), %d comments posted and %d deleted; subscription events received: %v\n", r.Merged, r.Deleted, r.Comments, r.Uncommented, r.Events)
	for _, e := range r.FirstErrs {
		fmt.Fprintln(w, "  first failures:", e)
	}
}

func config(getenv func(string) string) (soak.Config, error) {
	cfg := soak.Config{Duration: 10 * time.Minute, SampleEvery: time.Minute, Rate: 100, Workers: 32, Spaces: 4, Seed: 1,
		DatabaseURL: getenv("SOAK_DATABASE_URL")}
	warmup := 2 * time.Minute
	for _, d := range []struct {
		name string
		to   *time.Duration
	}{{"SOAK_DURATION", &cfg.Duration}, {"SOAK_WARMUP", &warmup}, {"SOAK_SAMPLE_EVERY", &cfg.SampleEvery}} {
		if v := getenv(d.name); v != "" {
			p, err := time.ParseDuration(v)
			if err != nil {
				return cfg, fmt.Errorf("%s=%q: %v", d.name, v, err)
			}
			*d.to = p
		}
	}
	if getenv("SOAK_WARMUP") == "" {
		warmup = min(warmup, cfg.Duration/4)
	}
	cfg.Warmup = warmup
	if v := getenv("SOAK_RATE"); v != "" {
		r, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return cfg, fmt.Errorf("SOAK_RATE=%q: %v", v, err)
		}
		cfg.Rate = r
	}
	for _, n := range []struct {
		name string
		to   *int
	}{{"SOAK_WORKERS", &cfg.Workers}, {"SOAK_SPACES", &cfg.Spaces}} {
		if v := getenv(n.name); v != "" {
			i, err := strconv.Atoi(v)
			if err != nil {
				return cfg, fmt.Errorf("%s=%q: %v", n.name, v, err)
			}
			*n.to = i
		}
	}
	return cfg, nil
}
