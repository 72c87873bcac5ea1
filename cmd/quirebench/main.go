// Command quirebench measures a real quire serve process (built from this
// tree, run as a subprocess whose RSS is reported) over a throwaway
// PostgreSQL cluster, on loopback, every run bounded.
//
//	go run ./cmd/quirebench [--duration 5s] [--connections 1,10,50] [--peer --rounds 3]
//
// It seeds, through the REST API, an organization's 50 published sites of
// 4 sections × 3 site spaces (each site space its own space) and, through
// the content engine's WriteTree, a space of 10,000 pages. It then drives
// each workload with the built-in load generator (keep-alive connections,
// a random object per request, exact percentiles) and prints a markdown
// table: req/s, p50, p99, SQL statements per request (quire's
// quire_db_statements_total over a counted sequential run), quire's
// largest RSS during the run and, for reads, the ratio to a bare
// one-statement handler in this process over the same PostgreSQL.
//
// With --peer it measures instead the graphql-site read against
// PostGraphile 5 (npm postgraphile@5.1.5, amber preset, in production mode
// on a Node 22 the harness downloads into its cache) over a copy of the
// same rows in a schema of its own, and both against pgbench sending the
// one statement that answers the read (the PostgreSQL ceiling): the same
// warm-up for each, rounds in which the servers' order alternates, at
// least 10 s a run and 3 rounds (--quick lifts both, for a smoke run), and
// it prints each one's median, spread, percentiles and RSS, the fraction
// of the ceiling and the ratios.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/lib/pq"

	"quire/internal/db"
	"quire/internal/testing/benchkit"
	"quire/internal/testing/testclient"
)

type options struct {
	duration   time.Duration
	conns      []int
	writeConns []int
	count      int
	sites      int
	pages      int
	rounds     int
	peer       bool
	quireBin   string
	timeout    time.Duration
	cpuprofile string
	// keptSites, when set, is quire serve's --kept-sites.
	keptSites string
	// --peer only
	cacheDir    string
	nodeVersion string
	warmup      time.Duration
	quick       bool
	peerREST    bool
}

var stderr io.Writer = os.Stderr

func logf(format string, args ...any) { fmt.Fprintf(stderr, "quirebench: "+format+"\n", args...) }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout))
}

func run(args []string, stdout io.Writer) int {
	fs := flag.NewFlagSet("quirebench", flag.ContinueOnError)
	var o options
	var conns, writeConns string
	envDur := 5 * time.Second
	if v := os.Getenv("BENCH_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			fmt.Fprintf(stderr, "quirebench: BENCH_DURATION=%q is not a duration\n", v)
			return 2
		}
		envDur = d
	}
	envRounds := 3
	if v := os.Getenv("BENCH_ROUNDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			fmt.Fprintf(stderr, "quirebench: BENCH_ROUNDS=%q is not a number\n", v)
			return 2
		}
		envRounds = n
	}
	fs.DurationVar(&o.duration, "duration", envDur, "length of each load run (env BENCH_DURATION)")
	fs.StringVar(&conns, "connections", "1,10,50", "connection counts of the read workloads, comma separated")
	fs.StringVar(&writeConns, "write-connections", "1,4", "connection counts of the write workloads")
	fs.IntVar(&o.count, "count", 100, "sequential requests per read workload that count SQL statements (and warm up); a tenth of it for writes")
	fs.IntVar(&o.sites, "sites", 50, "published sites to seed")
	fs.IntVar(&o.pages, "pages", 10000, "pages of the big space (a multiple of 100, at most 10,000)")
	fs.IntVar(&o.rounds, "rounds", envRounds, "with --peer: rounds (at least 3 unless --quick), the servers' order alternating; the median and the spread are shown (env BENCH_ROUNDS)")
	fs.BoolVar(&o.peer, "peer", false, "compare graphql-site with PostGraphile instead of running the workloads")
	fs.StringVar(&o.quireBin, "quire", "", "the quire binary to run (default: built from this tree)")
	fs.StringVar(&o.cacheDir, "cache-dir", "", "with --peer: where Node and PostGraphile are downloaded once (default $BENCH_CACHE_DIR, else ~/.cache/quire-bench)")
	fs.StringVar(&o.nodeVersion, "node-version", peerNodeVersion, "with --peer: the Node release PostGraphile runs on (22 or later)")
	fs.DurationVar(&o.warmup, "warmup", 10*time.Second, "with --peer: each contender's warm-up at 10 connections, after --count requests one at a time")
	fs.BoolVar(&o.quick, "quick", false, "with --peer: allow runs under 10s and fewer than 3 rounds (a smoke run; the report says it is no measurement)")
	fs.BoolVar(&o.peerREST, "peer-rest", false, "with --peer: also run REST's published profile beside the others (a larger answer, not the same query)")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of quire under graphql-site at 10 connections to this file and print its top (builds quire with -tags pprof; with --peer in a run of its own after the measured ones)")
	fs.StringVar(&o.keptSites, "kept-sites", "", "quire serve's --kept-sites (default: quire's own; 0 keeps no site read, measuring every read from the database)")
	fs.DurationVar(&o.timeout, "timeout", 40*time.Minute, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var err error
	if o.conns, err = benchkit.ParseCounts(conns); err == nil {
		o.writeConns, err = benchkit.ParseCounts(writeConns)
	}
	if err != nil {
		fmt.Fprintln(stderr, "quirebench:", err)
		return 2
	}
	if o.duration <= 0 || o.duration > 5*time.Minute || o.count < 10 || o.count > 10000 || o.rounds < 1 || o.rounds > 20 ||
		o.sites < 1 || o.sites > 1000 || o.pages < 100 || o.pages > 10000 || o.pages%100 != 0 {
		fmt.Fprintln(stderr, "quirebench: --duration in (0, 5m], --count in [10, 10000], --rounds in [1, 20], --sites in [1, 1000], --pages a multiple of 100 in [100, 10000]")
		return 2
	}
	if err := checkPeerOptions(o); err != nil {
		fmt.Fprintln(stderr, "quirebench:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	if err := bench(ctx, o, stdout); err != nil {
		fmt.Fprintln(stderr, "quirebench:", err)
		return 1
	}
	return 0
}

// checkPeerOptions holds a peer comparison to the settings that make it
// one: runs of at least 10 s (shorter ones are dominated by what the first
// seconds cost a just-warmed server) and 3 rounds (a median and a spread),
// unless --quick says that the run is a smoke run.
func checkPeerOptions(o options) error {
	if !o.peer {
		return nil
	}
	if o.warmup <= 0 || o.warmup > 5*time.Minute {
		return fmt.Errorf("--warmup must be in (0, 5m]")
	}
	major, _, _ := strings.Cut(o.nodeVersion, ".")
	if n, err := strconv.Atoi(major); err != nil || n < 22 || strings.Count(o.nodeVersion, ".") != 2 {
		return fmt.Errorf("--node-version %q: an exact release, 22.x.y or later (PostGraphile 5 asks for Node 22)", o.nodeVersion)
	}
	if o.quick {
		return nil
	}
	if o.duration < 10*time.Second || o.rounds < 3 || o.warmup < 10*time.Second {
		return fmt.Errorf("--peer needs --duration (BENCH_DURATION) and --warmup of at least 10s and --rounds (BENCH_ROUNDS) of at least 3; --quick runs shorter, as a smoke run (got %v, %v, %d)", o.duration, o.warmup, o.rounds)
	}
	return nil
}

// env is what a run sets up: the cluster, quire serve, the bare handler
// and the seeded data.
type env struct {
	tmp       string
	pg        *benchkit.PGServer
	pgURL     string
	pgVersion string
	quire     *benchkit.Proc
	d         *db.DB
	bare      *bare
	bareBase  string
	seeded    seeded
	quireBin  string
	pprof     string // base URL of quire's /debug/pprof listener, if any
}

func bench(ctx context.Context, o options, stdout io.Writer) error {
	tmp, err := os.MkdirTemp("", "quirebench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	e := &env{tmp: tmp}

	env := benchkit.ProductionEnv()
	if o.cpuprofile != "" {
		// The profiling build serves net/http/pprof on a port of its own.
		port, err := benchkit.FreePort()
		if err != nil {
			return err
		}
		e.pprof = "http://127.0.0.1:" + strconv.Itoa(port)
		env = append(env, "QUIRE_PPROF_ADDR=127.0.0.1:"+strconv.Itoa(port))
		o.quireBin = ""
	}
	if o.quireBin == "" {
		logf("building quire")
		tags := ""
		if o.cpuprofile != "" {
			tags = "pprof"
		}
		if o.quireBin, err = benchkit.BuildQuire(ctx, tmp, tags); err != nil {
			return err
		}
	}
	e.quireBin = o.quireBin
	logf("starting a throwaway PostgreSQL cluster")
	if e.pg, err = benchkit.ThrowawayPostgres(ctx, false); err != nil {
		return fmt.Errorf("throwaway PostgreSQL: %w", err)
	}
	defer e.pg.Close()
	e.pgURL = e.pg.DB

	// quire serve as in production: its own GOGC tuning, GOMAXPROCS of
	// the machine, default job workers; rate limits far above what the
	// runs spend, so that none is reached.
	const never = "1000000000"
	args := []string{o.quireBin, "serve", "--addr", "127.0.0.1:0", "--database-url", e.pgURL, "--rate-limit", never, "--rate-limit-content", never}
	if o.keptSites != "" {
		args = append(args, "--kept-sites", o.keptSites)
	}
	e.quire, err = benchkit.StartProc(ctx, "quire serve", filepath.Join(tmp, "quire.log"), env, "", benchkit.QuireListening, args...)
	if err != nil {
		return err
	}
	defer e.quire.Stop()

	if e.d, err = db.Open(e.pgURL, db.Options{}); err != nil {
		return err
	}
	defer e.d.Close()
	_ = e.d.SQL.QueryRowContext(ctx, "SHOW server_version").Scan(&e.pgVersion)

	s := &e.seeded
	if s.org, s.user, s.token, err = benchkit.SeedAdmin(ctx, e.d); err != nil {
		return err
	}
	api := &testclient.Client{Base: e.quire.Base, Token: s.token, HTTP: &http.Client{Timeout: 60 * time.Second}}
	logf("seeding %d sites through the REST API", o.sites)
	t0 := time.Now()
	if s.sites, err = seedSites(ctx, api, s.org, o.sites); err != nil {
		return fmt.Errorf("seed sites: %w", err)
	}
	logf("seeded in %s", time.Since(t0).Round(time.Second))
	if !o.peer {
		logf("writing a space of %d pages", o.pages)
		if err := seedBigSpace(ctx, api, e.d, s, o.pages); err != nil {
			return err
		}
	}
	var list string
	if err := e.d.SQL.QueryRowContext(ctx, `SELECT string_agg(id, ',' ORDER BY id) FROM spaces WHERE organization_id = $1 AND deleted_at IS NULL`, s.org).Scan(&list); err != nil {
		return err
	}
	s.spaces = strings.Split(list, ",")

	if e.bare, err = newBare(ctx, e.d.SQL, e.quire.Base); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	bareSrv := &http.Server{Handler: e.bare, ReadHeaderTimeout: 10 * time.Second}
	go bareSrv.Serve(ln)
	defer bareSrv.Close()
	e.bareBase = "http://" + ln.Addr().String()

	// The exact site query, or the fallback when Quire's node budget
	// refuses it.
	probe := benchkit.Target{Method: "POST", URL: e.quire.Base + "/graphql", Token: s.token, Body: graphQLBody(siteQuery, "Site", s.sites[0])}
	if _, err := send(ctx, probe, 0); err != nil {
		if !strings.Contains(err.Error(), "COMPLEXITY_LIMIT_EXCEEDED") {
			return err
		}
		chosenSiteQuery = fallbackSiteQuery
		logf("quire refuses the site query with first: 100 on both connections (node budget); measuring siteSpaces(first: 99)")
	}

	header(ctx, stdout, e, o)
	if o.peer {
		return peer(ctx, e, o, stdout)
	}
	return workloads(ctx, e, o, stdout)
}

func header(ctx context.Context, w io.Writer, e *env, o options) {
	fmt.Fprintf(w, "date: %s  \n", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(w, "machine: %s  \n", benchkit.Machine())
	fmt.Fprintf(w, "PostgreSQL: %s (throwaway cluster, fsync off)  \n", e.pgVersion)
	kept := "sites read kept until a change, as by default"
	if o.keptSites != "" {
		kept = "--kept-sites " + o.keptSites
	}
	fmt.Fprintf(w, "quire: git %s, `quire serve` as a subprocess (GOGC as it tunes itself, GOMAXPROCS default, rate limits not reached, %s)  \n", benchkit.Revision(ctx), kept)
	if l, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Fprintf(w, "load average before the runs: %s  \n", strings.Join(strings.Fields(string(l))[:3], " "))
	}
	fmt.Fprintf(w, "data: 1 organization, %d published sites of 4 sections × 3 site spaces, %d spaces", o.sites, len(e.seeded.spaces))
	if e.seeded.big != "" {
		fmt.Fprintf(w, ", one of them of %d pages", o.pages)
	}
	fmt.Fprintf(w, "; load: built-in Go load generator, keep-alive, %v per run\n\n", o.duration)
	if chosenSiteQuery != siteQuery {
		fmt.Fprintf(w, "NOTE: quire refuses the site query with `sections(first: 100) { ... siteSpaces(first: 100) ... }` (COMPLEXITY_LIMIT_EXCEEDED: 100 + 100 × 100 nodes exceed its budget of 10,000); graphql-site sends `siteSpaces(first: 99)` instead (the same answer for these sites).\n\n")
	}
}
