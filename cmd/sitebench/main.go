// Command sitebench measures the published profile of a docs site through
// Quire's two doors against a one-statement SQL baseline.
//
//	go run ./cmd/sitebench [--database-url URL | --postgres-throwaway] [--duration 5s] [--loadgen auto|wrk|hey|builtin]
//
// It creates a fresh database (a temporary SQLite file by default), seeds an
// organization, an admin and its token, then (through Quire's REST API)
// spaces in collections and two published sites, of 4 sections × 3 site
// spaces and of 20 sections × 5 site spaces. Quire's real handler and the
// baseline handler run in this process on loopback ports; a load generator
// (wrk or hey when installed, else a built-in one) drives, for each site, at
// 1 and 10 connections:
//
//   - rest:     GET /v1/orgs/{org}/sites/{site}/published
//   - graphql:  POST /graphql, the same information through site → sections →
//     siteSpaces → space → organization, plus customizations
//   - baseline: the same JSON from ONE hand-written SQL statement
//
// and prints a markdown table: requests per second, p50/p99 latency, SQL
// statements per request, response size and the ratio of each door's
// requests per second to the baseline's (target: at least 0.7).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"quire/internal/db"
	"quire/internal/metrics"
	"quire/internal/ratelimit"
	"quire/internal/testing/benchkit"
	"quire/internal/testing/testclient"
	"quire/server"
)

// targetRatio is the required ratio of a door's requests per second to the
// baseline's.
const targetRatio = 0.7

type options struct {
	databaseURL string
	throwaway   bool
	duration    time.Duration
	loadgen     string
	sizes       []benchkit.SiteSize
	conns       []int
	count       int
	cpuprofile  string
	timeout     time.Duration
	only        string
	rounds      int
	logSQL      bool
	rateLimit   int
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sitebench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	var sizes, conns string
	fs.StringVar(&o.databaseURL, "database-url", "", "database to seed and measure (sqlite:PATH or postgres://...); default: a fresh SQLite file in a temporary directory")
	fs.BoolVar(&o.throwaway, "postgres-throwaway", false, "start a throwaway PostgreSQL cluster (initdb + postgres) and measure on it")
	fs.DurationVar(&o.duration, "duration", 5*time.Second, "length of each load run")
	fs.StringVar(&o.loadgen, "loadgen", "auto", "load generator: wrk, hey, builtin, or auto (wrk, else hey, else builtin)")
	fs.StringVar(&sizes, "sizes", "4x3,20x5", "site sizes: sections x site spaces per section, comma separated")
	fs.StringVar(&conns, "connections", "1,10", "connection counts, comma separated")
	fs.IntVar(&o.count, "count", 50, "requests sent one at a time per target to count SQL statements (and warm up)")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "directory to write one CPU profile per load run of rest and graphql")
	fs.DurationVar(&o.timeout, "timeout", 20*time.Minute, "give up after this long")
	fs.StringVar(&o.only, "targets", "baseline,rest,graphql", "targets to load, comma separated")
	fs.IntVar(&o.rounds, "rounds", 1, "load runs per target and setting, interleaved across targets; the table shows the median run")
	fs.IntVar(&o.rateLimit, "rate-limit", 1_000_000_000, "the server's rate limits (points and content creations per hour), as quire serve counts them; the default is never reached; 0 turns them off")
	fs.BoolVar(&o.logSQL, "log-sql", false, "with --postgres-throwaway: print the SQL statements of one request of each target (from the server log)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var err error
	if o.sizes, err = parseSizes(sizes); err != nil {
		fmt.Fprintln(stderr, "sitebench:", err)
		return 2
	}
	if o.conns, err = benchkit.ParseCounts(conns); err != nil {
		fmt.Fprintln(stderr, "sitebench: --connections:", err)
		return 2
	}
	if o.logSQL && !o.throwaway {
		fmt.Fprintln(stderr, "sitebench: --log-sql needs --postgres-throwaway")
		return 2
	}
	if o.throwaway && o.databaseURL != "" {
		fmt.Fprintln(stderr, "sitebench: --postgres-throwaway and --database-url exclude each other")
		return 2
	}
	if o.rateLimit < 0 {
		fmt.Fprintln(stderr, "sitebench: --rate-limit must be 0 (off) or positive")
		return 2
	}
	if o.duration <= 0 || o.duration > 5*time.Minute || o.count < 1 || o.count > 10000 || o.rounds < 1 || o.rounds > 20 {
		fmt.Fprintln(stderr, "sitebench: --duration must be in (0, 5m], --count in [1, 10000], --rounds in [1, 20]")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	if err := bench(ctx, o, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "sitebench:", err)
		return 1
	}
	return 0
}

func parseSizes(s string) ([]benchkit.SiteSize, error) {
	var out []benchkit.SiteSize
	for _, p := range strings.Split(s, ",") {
		a, b, ok := strings.Cut(strings.TrimSpace(p), "x")
		x, err1 := strconv.Atoi(a)
		y, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || x < 1 || y < 1 || x > 100 || y > 20 {
			return nil, fmt.Errorf("--sizes: %q is not SECTIONSxSITESPACES (at most 100x20)", p)
		}
		out = append(out, benchkit.SiteSize{Sections: x, SiteSpaces: y})
	}
	return out, nil
}

// row is one line of the report.
type row struct {
	Target     string
	Size       benchkit.SiteSize
	Conns      int
	Res        benchkit.Result
	CPU        time.Duration // this process's CPU time per request
	DBCPU      time.Duration // the throwaway PostgreSQL's CPU time per request (-1: unknown)
	Statements float64
	Bytes      int
	Ratio      float64 // vs baseline; 0 for the baseline
	Same       string  // content check against REST
}

func bench(ctx context.Context, o options, stdout, stderr io.Writer) error {
	tmp, err := os.MkdirTemp("", "sitebench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	url, backend := o.databaseURL, ""
	var pgLog string
	var pg *benchkit.PGServer // the throwaway cluster, if any
	switch {
	case o.throwaway:
		fmt.Fprintln(stderr, "sitebench: starting a throwaway PostgreSQL cluster")
		var err error
		if pg, err = benchkit.ThrowawayPostgres(ctx, o.logSQL); err != nil {
			return fmt.Errorf("throwaway PostgreSQL: %w", err)
		}
		defer pg.Close()
		url, backend, pgLog = pg.DB, "PostgreSQL (throwaway cluster)", pg.LogPath()
	case url == "":
		url, backend = "sqlite:"+filepath.Join(tmp, "quire.db"), "SQLite (temporary file)"
	case strings.HasPrefix(url, "sqlite:"):
		backend = "SQLite"
	default:
		backend = "PostgreSQL"
	}

	m := metrics.New()
	d, err := db.Open(url, db.Options{OnStatement: m.Statements.Inc})
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Migrate(ctx); err != nil {
		return err
	}
	var pgVersion string
	if d.Dialect == "postgres" {
		_ = d.SQL.QueryRowContext(ctx, "SHOW server_version").Scan(&pgVersion)
		backend += " " + pgVersion
	}

	// Quire's handler and the baseline, each on its own loopback port.
	qln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	base := "http://" + qln.Addr().String()
	// Quire and the baseline share this process, and its garbage
	// collector's setting: the one quire serve runs with.
	gcPercent := server.TuneGC(os.Getenv)
	limits := ratelimit.Config{Limit: o.rateLimit, ContentLimit: o.rateLimit}
	quire := &http.Server{Handler: server.New(server.Config{DB: d, PublicURL: base, Metrics: m, RateLimits: limits, CacheCallers: true}), ReadHeaderTimeout: 10 * time.Second}
	go quire.Serve(qln)
	defer quire.Close()
	bl, err := benchkit.NewPublishedBaseline(ctx, d.SQL, d.Dialect, base)
	if err != nil {
		return err
	}
	bln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	blURL := "http://" + bln.Addr().String()
	blSrv := &http.Server{Handler: bl, ReadHeaderTimeout: 10 * time.Second}
	go blSrv.Serve(bln)
	defer blSrv.Close()

	orgID, _, token, err := benchkit.SeedAdmin(ctx, d)
	if err != nil {
		return err
	}
	api := &testclient.Client{Base: base, Token: token, HTTP: &http.Client{Timeout: 30 * time.Second}}

	lg, err := benchkit.PickLoadgen(o.loadgen, tmp)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "## Published site profile: %s\n\n", backend)
	fmt.Fprintf(stdout, "load generator: %s; %v per run; CPUs: %d (GOMAXPROCS %d), shared by the load generator, Quire, the baseline and the database; GOGC %s (as quire serve); statements/request counted over %d sequential requests per target\n\n",
		lg.Name(), o.duration, runtime.NumCPU(), runtime.GOMAXPROCS(0), gcLabel(gcPercent), o.count)
	if o.rounds > 1 {
		fmt.Fprintf(stdout, "%d interleaved rounds per setting; each line is the round with the median req/s\n\n", o.rounds)
	}
	if l, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Fprintf(stdout, "load average before the runs: %s\n\n", strings.Join(strings.Fields(string(l))[:3], " "))
	}

	var rows []row
	var notes []string
	for _, size := range o.sizes {
		fmt.Fprintf(stderr, "sitebench: seeding a %s site\n", size)
		siteID, err := benchkit.SeedSite(ctx, api, orgID, size, size.String())
		if err != nil {
			return fmt.Errorf("seed %s: %w", size, err)
		}
		path := "/v1/orgs/" + orgID + "/sites/" + siteID + "/published"
		gqlBody, _ := json.Marshal(map[string]any{"query": publishedQuery, "operationName": "PublishedSite", "variables": map[string]any{"site": siteID}})
		targets := map[string]benchkit.Target{
			"baseline": {Name: "baseline", Method: "GET", URL: blURL + path, Token: token},
			"rest":     {Name: "rest", Method: "GET", URL: base + path, Token: token},
			"graphql":  {Name: "graphql", Method: "POST", URL: base + "/graphql", Token: token, Body: gqlBody},
		}

		// One answer of each, compared with REST's.
		bodies := map[string][]byte{}
		for _, name := range []string{"rest", "graphql", "baseline"} {
			b, err := fetch(ctx, targets[name])
			if err != nil {
				return fmt.Errorf("%s %s: %w", name, size, err)
			}
			bodies[name] = b
		}
		same := checkSame(bodies, size, &notes)

		// Statements per request, over count sequential requests (which
		// also warm caches and connection pools).
		stmts := map[string]float64{}
		latency := map[string]time.Duration{} // mean, one request at a time
		for _, name := range []string{"rest", "graphql", "baseline"} {
			before, blBefore := d.Statements(), bl.Statements.Load()
			t0 := time.Now()
			for range o.count {
				if _, err := fetch(ctx, targets[name]); err != nil {
					return fmt.Errorf("%s %s: %w", name, size, err)
				}
			}
			n := d.Statements() - before
			if name == "baseline" {
				n = bl.Statements.Load() - blBefore
			}
			stmts[name] = float64(n) / float64(o.count)
			latency[name] = time.Since(t0) / time.Duration(o.count)
		}
		if err := crossCheckMetrics(ctx, base, d); err != nil {
			notes = append(notes, "metrics cross-check: "+err.Error())
		}

		if o.logSQL {
			for _, name := range []string{"rest", "graphql", "baseline"} {
				logged, err := logStatements(ctx, d, pgLog, func() error { _, err := fetch(ctx, targets[name]); return err })
				if err != nil {
					return err
				}
				fmt.Fprintf(stdout, "### SQL statements of one %s request, %s site (%d)\n\n```sql\n%s\n```\n\n", name, size, len(logged), strings.Join(logged, "\n"))
			}
		}

		for _, c := range o.conns {
			runs := map[string][]row{}
			for round := range o.rounds {
				for _, name := range []string{"baseline", "rest", "graphql"} {
					if !strings.Contains(","+o.only+",", ","+name+",") {
						continue
					}
					if err := ctx.Err(); err != nil {
						return err
					}
					stopProf := func() {}
					if o.cpuprofile != "" && name != "baseline" {
						if stopProf, err = startProfile(o.cpuprofile, fmt.Sprintf("%s-%s-%s-c%d-r%d.pprof", d.Dialect, name, strings.ReplaceAll(size.String(), "×", "x"), c, round+1)); err != nil {
							return err
						}
					}
					// Long enough for every connection to complete a few
					// requests, whatever one costs.
					dur := min(max(o.duration, 3*time.Duration(c)*latency[name]), max(o.duration, time.Minute))
					fmt.Fprintf(stderr, "sitebench: %s %s, %d connection(s), %v, round %d/%d\n", name, size, c, dur.Round(time.Second), round+1, o.rounds)
					var db0 map[int]time.Duration
					if pg != nil {
						db0 = pg.CPUTimes()
					}
					cpu0 := cpuTime()
					res, err := lg.Run(ctx, targets[name], c, dur)
					cpu := cpuTime() - cpu0
					dbc := time.Duration(-1)
					if pg != nil {
						dbc = pg.CPUSince(db0)
					}
					stopProf()
					if err != nil {
						return fmt.Errorf("load %s %s c=%d: %w", name, size, c, err)
					}
					r := row{Target: name, Size: size, Conns: c, Res: res, Statements: stmts[name], Bytes: len(bodies[name]), Same: same[name]}
					r.DBCPU = -1
					if res.Requests > 0 {
						r.CPU = cpu / time.Duration(res.Requests)
						if dbc >= 0 {
							r.DBCPU = dbc / time.Duration(res.Requests)
						}
					}
					runs[name] = append(runs[name], r)
				}
			}
			var baseRPS float64
			for _, name := range []string{"baseline", "rest", "graphql"} {
				if len(runs[name]) == 0 {
					continue
				}
				r := median(runs[name])
				if name == "baseline" {
					baseRPS = r.Res.RPS()
				} else if baseRPS > 0 {
					r.Ratio = r.Res.RPS() / baseRPS
				}
				rows = append(rows, r)
			}
		}
	}
	printTable(stdout, rows)
	var met, missed []string
	for _, r := range rows {
		if r.Target == "baseline" {
			continue
		}
		k := fmt.Sprintf("%s %s c=%d (%.2f)", r.Target, r.Size, r.Conns, r.Ratio)
		if r.Ratio >= targetRatio {
			met = append(met, k)
		} else {
			missed = append(missed, k)
		}
	}
	fmt.Fprintf(stdout, "Target ratio ≥ %.1f of the baseline's req/s: met by %d of %d", targetRatio, len(met), len(met)+len(missed))
	if len(missed) > 0 {
		fmt.Fprintf(stdout, "; missed by %s", strings.Join(missed, ", "))
	}
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout)
	for _, n := range notes {
		fmt.Fprintln(stdout, "- "+n)
	}
	fmt.Fprintln(stdout)
	return nil
}
