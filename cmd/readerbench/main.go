// Command readerbench measures page views of a published docs site: a
// real quire serve process against Go's http.FileServer serving a static
// copy of the same pages.
//
//	go run ./cmd/readerbench --quire PATH [--duration 3s] [--rounds 3] [--connections 1,10,50]
//
// On a temporary SQLite file and on a throwaway PostgreSQL cluster, it
// seeds a public site of --pages pages (nested groups, pages of 3 to 8 KB
// of Markdown with headings, lists, tables and code), starts the quire
// binary given (built as released: scripts/bench-reader.sh builds it) with
// its default settings except the anonymous rate limit, crawls every page
// of the site and the assets the pages link into a directory, and serves
// that directory from this process. The built-in load generator requests
// the site's page paths in one fixed pseudo-random order from both servers
// alike, after a warm-up pass over every path, at each connection count,
// in rounds whose order of the servers alternates, with and without
// Accept-Encoding: gzip.
//
// It also counts the SQL statements of page views on sites of --sizes
// pages (an in-process server over the same database, reading its
// /metrics counter), and fails when they are not the same for every size.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"quire/internal/testing/benchkit"
)

type options struct {
	quire      string
	duration   time.Duration
	rounds     int
	conns      []int
	pages      int
	sizes      []int
	pgMaxPages int
	databases  []string
	encodings  []string
	timeout    time.Duration
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("readerbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	var conns, sizes, dbs, encs string
	fs.StringVar(&o.quire, "quire", "", "the quire binary to run (required; build it as released: go build -trimpath -ldflags \"-s -w\")")
	fs.DurationVar(&o.duration, "duration", 3*time.Second, "length of each load run")
	fs.IntVar(&o.rounds, "rounds", 3, "rounds; each runs every setting once per server, the servers' order alternating")
	fs.StringVar(&conns, "connections", "1,10,50", "connection counts, comma separated")
	fs.IntVar(&o.pages, "pages", 500, "pages of the site under load")
	fs.StringVar(&sizes, "sizes", "10,100,1000,10000", "site sizes (pages) whose statements per page view are counted, comma separated")
	fs.IntVar(&o.pgMaxPages, "postgres-max-pages", 1000, "largest of --sizes seeded on PostgreSQL (seeding 10,000 pages there would take the run past its bound on a small machine)")
	fs.StringVar(&dbs, "databases", "sqlite,postgres", "databases: sqlite (a temporary file), postgres (a throwaway cluster)")
	fs.StringVar(&encs, "encodings", "gzip,identity", "Accept-Encoding of the load runs: gzip (sent), identity (no header)")
	fs.DurationVar(&o.timeout, "timeout", 20*time.Minute, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var err error
	if o.conns, err = benchkit.ParseCounts(conns); err != nil {
		fmt.Fprintln(stderr, "readerbench: --connections:", err)
		return 2
	}
	for _, s := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > 20000 {
			fmt.Fprintf(stderr, "readerbench: --sizes: %q is not a page count in [1, 20000]\n", s)
			return 2
		}
		o.sizes = append(o.sizes, n)
	}
	o.databases = strings.Split(dbs, ",")
	for _, d := range o.databases {
		if d != "sqlite" && d != "postgres" {
			fmt.Fprintf(stderr, "readerbench: --databases: %q is neither sqlite nor postgres\n", d)
			return 2
		}
	}
	o.encodings = strings.Split(encs, ",")
	for _, e := range o.encodings {
		if e != "gzip" && e != "identity" {
			fmt.Fprintf(stderr, "readerbench: --encodings: %q is neither gzip nor identity\n", e)
			return 2
		}
	}
	switch {
	case o.quire == "":
		fmt.Fprintln(stderr, "readerbench: --quire is required (scripts/bench-reader.sh builds it)")
		return 2
	case o.duration <= 0 || o.duration > 5*time.Minute || o.rounds < 1 || o.rounds > 20:
		fmt.Fprintln(stderr, "readerbench: --duration must be in (0, 5m], --rounds in [1, 20]")
		return 2
	case o.pages < 1 || o.pages > 20000:
		fmt.Fprintln(stderr, "readerbench: --pages must be in [1, 20000]")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	failed, err := bench(ctx, o, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "readerbench:", err)
		return 1
	}
	if failed {
		return 1
	}
	return 0
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "readerbench: "+format+"\n", args...)
}

func bench(ctx context.Context, o options, w io.Writer) (failed bool, err error) {
	tmp, err := os.MkdirTemp("", "readerbench-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(tmp)
	load := "unknown"
	if l, err := os.ReadFile("/proc/loadavg"); err == nil {
		load = strings.Join(strings.Fields(string(l))[:3], " ")
	}
	var all []measured
	for _, name := range o.databases {
		m, err := benchDB(ctx, o, name, tmp)
		if err != nil {
			return false, fmt.Errorf("%s: %w", name, err)
		}
		all = append(all, m)
	}
	return report(ctx, w, o, load, all), nil
}
