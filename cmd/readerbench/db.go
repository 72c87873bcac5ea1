package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"path/filepath"
	"time"

	"quire/internal/db"
	"quire/internal/metrics"
	"quire/internal/testing/benchkit"
	"quire/internal/testing/testclient"
	"quire/server"
)

// measured is what one database's run measured.
type measured struct {
	name      string // SQLite, PostgreSQL 17.x
	pages     int    // pages the load requested
	bytes     int64  // size of the static copy
	runs      map[runKey][]benchkit.Result
	stmts     []stmtCount
	sizes     [2]int // bytes of the first page from quire and from the static copy (uncompressed)
	seedTimes map[int]time.Duration
}

type runKey struct {
	side  string // quire, static
	enc   string // gzip, identity
	conns int
}

// stmtCount is the statements of the page views of one site size.
type stmtCount struct {
	pages, views int
	// mean, least and most are the statements of a view rendered anew
	// (after a content change), kept those of the view right after it.
	mean        float64
	least, most int64
	kept        float64
	keptMost    int64
	viaMetrics  float64 // mean of both views from /metrics' quire_db_statements_total
}

func benchDB(ctx context.Context, o options, which, tmp string) (measured, error) {
	out := measured{name: "SQLite", runs: map[runKey][]benchkit.Result{}, seedTimes: map[int]time.Duration{}}
	url := "sqlite:" + filepath.Join(tmp, "quire.db")
	if which == "postgres" {
		logf("starting a throwaway PostgreSQL cluster")
		pg, err := benchkit.ThrowawayPostgres(ctx, false)
		if err != nil {
			return out, err
		}
		defer pg.Close()
		url = pg.DB
	}
	m := metrics.New()
	d, err := db.Open(url, db.Options{OnStatement: m.Statements.Inc})
	if err != nil {
		return out, err
	}
	defer d.Close()
	if err := d.Migrate(ctx); err != nil {
		return out, err
	}
	if d.Dialect == "postgres" {
		var v string
		_ = d.SQL.QueryRowContext(ctx, "SHOW server_version").Scan(&v)
		out.name = "PostgreSQL " + v
	}
	org, user, token, err := benchkit.SeedAdmin(ctx, d)
	if err != nil {
		return out, err
	}

	// An in-process server seeds the sites and counts the statements of
	// page views: it works no background jobs, so that its counter holds
	// the page views' statements alone.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return out, err
	}
	base := "http://" + ln.Addr().String()
	srv := server.NewServer(server.Config{DB: d, PublicURL: base, Metrics: m, CacheCallers: true})
	defer srv.Close()
	inproc := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go inproc.Serve(ln)
	defer inproc.Close()
	api := &testclient.Client{Base: base, Token: token, HTTP: &http.Client{Timeout: 5 * time.Minute}}

	seed := func(pages int) (string, error) {
		t0 := time.Now()
		p, err := benchkit.SeedReaderSite(ctx, api, d, org, user, benchkit.ReaderTree(pages, uint64(pages)), fmt.Sprintf("Docs of %d pages", pages))
		out.seedTimes[pages] = time.Since(t0)
		logf("%s: seeded a site of %d pages in %s", out.name, pages, time.Since(t0).Round(time.Second))
		return p, err
	}
	for _, n := range o.sizes {
		if which == "postgres" && n > o.pgMaxPages {
			continue
		}
		sitePath, err := seed(n)
		if err != nil {
			return out, err
		}
		c, err := countStatements(ctx, base, d, srv.ContentChanges(), sitePath, n)
		if err != nil {
			return out, err
		}
		out.stmts = append(out.stmts, c)
	}
	sitePath, err := seed(o.pages)
	if err != nil {
		return out, err
	}
	_ = inproc.Close()

	// quire serve as its users run it: default settings, except the
	// anonymous rate limit (1,000 requests per client address and window
	// by default), which one load generator on loopback would exhaust.
	logf("%s: starting quire serve", out.name)
	q, err := benchkit.StartProc(ctx, "quire serve", filepath.Join(tmp, which+"-quire.log"), benchkit.ProductionEnv(), "", benchkit.QuireListening,
		o.quire, "serve", "--addr", "127.0.0.1:0", "--database-url", url, "--rate-limit-anonymous", "1000000000")
	if err != nil {
		return out, err
	}
	defer q.Stop()
	paths, err := benchkit.SitemapPaths(ctx, q.Base, sitePath)
	if err != nil {
		return out, err
	}
	// The sitemap lists the document pages; groups only redirect to
	// their first page.
	if want := o.pages - o.pages/26 - min(1, o.pages%26); len(paths) != want {
		return out, fmt.Errorf("the sitemap of the site lists %d pages, not %d", len(paths), want)
	}
	out.pages = len(paths)
	dir := filepath.Join(tmp, which+"-static")
	if out.bytes, err = benchkit.Crawl(ctx, q.Base, dir, paths); err != nil {
		return out, err
	}
	st, err := benchkit.NewStaticServer(dir)
	if err != nil {
		return out, err
	}
	defer st.Close()
	logf("%s: crawled %d pages (%d KB) into %s", out.name, len(paths), out.bytes>>10, dir)

	order := rand.New(rand.NewPCG(42, 42)).Perm(len(paths))
	target := func(side, base, enc string) benchkit.Target {
		t := benchkit.Target{Name: side, Method: "GET",
			Vary: func(w, n int) (string, []byte, bool) {
				// Workers start at different places of the one order.
				return base + paths[order[(w*len(paths)/50+n)%len(paths)]], nil, true
			}}
		if enc == "gzip" {
			t.Header = http.Header{"Accept-Encoding": {"gzip"}}
		}
		return t
	}
	bases := map[string]string{"quire": q.Base, "static": st.Base}
	for _, side := range []string{"quire", "static"} {
		for i := range paths {
			if _, err := benchkit.Send(ctx, target(side, bases[side], "gzip"), i); err != nil {
				return out, fmt.Errorf("warm-up of %s: %w", side, err)
			}
		}
	}
	if out.sizes, err = firstPage(ctx, q.Base, st.Base, paths[0]); err != nil {
		return out, err
	}
	lg := benchkit.Builtin{}
	for round := range o.rounds {
		sides := []string{"quire", "static"}
		if round%2 == 1 {
			sides = []string{"static", "quire"}
		}
		for _, enc := range o.encodings {
			for _, c := range o.conns {
				for _, side := range sides {
					logf("%s: %s, %s, %d connection(s), round %d/%d", out.name, side, enc, c, round+1, o.rounds)
					res, err := lg.Run(ctx, target(side, bases[side], enc), c, o.duration)
					if err != nil {
						return out, err
					}
					if res.Errors > 0 {
						return out, fmt.Errorf("%s %s c=%d: %d failed requests, first: %s", side, enc, c, res.Errors, res.FirstError)
					}
					k := runKey{side, enc, c}
					out.runs[k] = append(out.runs[k], res)
				}
			}
		}
	}
	return out, nil
}

// countStatements reads a sample of a site's pages (at most 50, spread
// over its sitemap) once to warm the server, then, for each, counts the
// statements of a view rendered anew (every kept page made stale, as a
// content change does) and of the view right after it (kept).
func countStatements(ctx context.Context, base string, d *db.DB, changes *db.Hearing, sitePath string, pages int) (stmtCount, error) {
	c := stmtCount{pages: pages}
	paths, err := benchkit.SitemapPaths(ctx, base, sitePath)
	if err != nil {
		return c, err
	}
	var sample []string
	for i := range min(50, len(paths)) {
		sample = append(sample, paths[i*len(paths)/min(50, len(paths))])
	}
	get := func(p string) (int64, error) {
		n0 := d.Statements()
		_, err := benchkit.Send(ctx, benchkit.Target{Method: "GET", URL: base + p}, 0)
		return d.Statements() - n0, err
	}
	for _, p := range sample {
		if _, err := get(p); err != nil {
			return c, err
		}
	}
	before, err := benchkit.Metric(ctx, base, "quire_db_statements_total")
	if err != nil {
		return c, err
	}
	var sum, keptSum int64
	for i, p := range sample {
		changes.Forget()
		n, err := get(p)
		if err != nil {
			return c, err
		}
		k, err := get(p)
		if err != nil {
			return c, err
		}
		sum += n
		keptSum += k
		if i == 0 || n < c.least {
			c.least = n
		}
		c.most = max(c.most, n)
		c.keptMost = max(c.keptMost, k)
	}
	after, err := benchkit.Metric(ctx, base, "quire_db_statements_total")
	if err != nil {
		return c, err
	}
	c.views = len(sample)
	c.mean = float64(sum) / float64(len(sample))
	c.kept = float64(keptSum) / float64(len(sample))
	c.viaMetrics = (after - before) / float64(len(sample))
	return c, nil
}

// firstPage returns the uncompressed size of a page's answer from quire
// and from the static copy.
func firstPage(ctx context.Context, quire, static, p string) ([2]int, error) {
	a, err := benchkit.Send(ctx, benchkit.Target{Method: "GET", URL: quire + p}, 0)
	if err != nil {
		return [2]int{}, err
	}
	b, err := benchkit.Send(ctx, benchkit.Target{Method: "GET", URL: static + p}, 0)
	return [2]int{len(a), len(b)}, err
}
