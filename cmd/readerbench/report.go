package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"quire/internal/testing/benchkit"
)

// The goals printed beside the figures (the run does not fail on them).
const (
	goalP50   = 3 * time.Millisecond // at one connection
	goalRatio = 0.5                  // of the static server's req/s, at 10 connections
)

// report prints the tables and goals; it returns true when the statements
// per page view differ between site sizes (the run then fails).
func report(ctx context.Context, w io.Writer, o options, load string, all []measured) (failed bool) {
	fmt.Fprintf(w, "# Page views of a published site: quire serve against a static file server\n\n")
	fmt.Fprintf(w, "date: %s  \n", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(w, "machine: %s (GOMAXPROCS %d), shared by the load generator, both servers and PostgreSQL; load average before the runs: %s  \n", benchkit.Machine(), runtime.GOMAXPROCS(0), load)
	fmt.Fprintf(w, "quire: git %s, built with -trimpath -ldflags \"-s -w\", `quire serve` as a subprocess with its default settings (GOGC as it tunes itself, 4 job workers) except --rate-limit-anonymous 1000000000  \n", benchkit.Revision(ctx))
	fmt.Fprintf(w, "static: Go's http.FileServer in the benchmark process, over a crawl of quire's answers for every page (as <path>/index.html) and the assets they link; it does not compress  \n")
	fmt.Fprintf(w, "load: built-in Go load generator, keep-alive, every page of a %d-page site in one fixed pseudo-random order, the same for both servers; a warm-up pass over every page for each; %d round(s) of %v per server, setting and round, quire first in odd rounds and the static server first in even ones; gzip: `Accept-Encoding: gzip` sent (quire compresses, the file server sends the page as it is), identity: no Accept-Encoding  \n\n", o.pages, o.rounds, o.duration)

	fmt.Fprintln(w, "| database | Accept-Encoding | conns | quire req/s (median) | min–max | p50 | p99 | static req/s (median) | min–max | p50 | p99 | quire ÷ static |")
	fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	var goals []string
	for _, m := range all {
		for _, enc := range o.encodings {
			for _, c := range o.conns {
				q, qlo, qhi := summary(m.runs[runKey{"quire", enc, c}])
				s, slo, shi := summary(m.runs[runKey{"static", enc, c}])
				ratio := 0.0
				if s.RPS() > 0 {
					ratio = q.RPS() / s.RPS()
				}
				fmt.Fprintf(w, "| %s | %s | %d | %s | %s–%s | %s | %s | %s | %s–%s | %s | %s | %.2f |\n", m.name, enc, c,
					benchkit.FormatRPS(q.RPS()), benchkit.FormatRPS(qlo), benchkit.FormatRPS(qhi), benchkit.FormatMS(q.P50), benchkit.FormatMS(q.P99),
					benchkit.FormatRPS(s.RPS()), benchkit.FormatRPS(slo), benchkit.FormatRPS(shi), benchkit.FormatMS(s.P50), benchkit.FormatMS(s.P99), ratio)
				if c == 1 {
					goals = append(goals, fmt.Sprintf("- %s, %s: quire's p50 at 1 connection %s (goal under %v): %s", m.name, enc, benchkit.FormatMS(q.P50), goalP50, metOr(q.P50 < goalP50)))
				}
				if c == 10 {
					goals = append(goals, fmt.Sprintf("- %s, %s: quire at 10 connections %.2f of the static server's req/s (goal at least %.1f): %s", m.name, enc, ratio, goalRatio, metOr(ratio >= goalRatio)))
				}
			}
		}
	}
	fmt.Fprintf(w, "\nGoals (not enforced):\n\n%s\n\n", strings.Join(goals, "\n"))
	for _, m := range all {
		fmt.Fprintf(w, "%s: the first page is %d bytes from quire, %d from the static copy (uncompressed); the static copy of the site is %d KB.  \n", m.name, m.sizes[0], m.sizes[1], m.bytes>>10)
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, "## SQL statements per page view, by site size")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Counted on an in-process server over the same database (no background jobs), for up to 50 pages spread over each site's sitemap, each read once before. Each page is then viewed twice: rendered anew (every kept page made stale first, as a content change does), and again right after (served from the page cache). Per view from the database's counter; the sum of both also from /metrics (quire_db_statements_total).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| database | pages in the site | seeded in | pages | rendered: statements per view (mean) | least–most | kept: statements per view (mean) | most | both, from /metrics |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, m := range all {
		for _, c := range m.stmts {
			fmt.Fprintf(w, "| %s | %d | %s | %d | %.2f | %d–%d | %.2f | %d | %.2f |\n", m.name, c.pages, m.seedTimes[c.pages].Round(100*time.Millisecond), c.views,
				c.mean, c.least, c.most, c.kept, c.keptMost, c.viaMetrics)
		}
	}
	fmt.Fprintln(w)
	for _, m := range all {
		var sizes []string
		same := true
		for _, c := range m.stmts {
			first := m.stmts[0]
			if c.mean != first.mean || c.least != first.least || c.most != first.most || c.kept != first.kept || c.viaMetrics != c.mean+c.kept {
				same = false
			}
			sizes = append(sizes, fmt.Sprint(c.pages))
		}
		if same {
			fmt.Fprintf(w, "%s: the same statements per page view on sites of %s pages.  \n", m.name, strings.Join(sizes, ", "))
		} else {
			failed = true
			fmt.Fprintf(w, "FAIL: %s: statements per page view differ between sites of %s pages (or /metrics disagrees with the database's counter).  \n", m.name, strings.Join(sizes, ", "))
		}
	}
	fmt.Fprintln(w)
	return failed
}

// summary returns the run with the median req/s and the least and most
// req/s of the runs.
func summary(runs []benchkit.Result) (median benchkit.Result, lo, hi float64) {
	if len(runs) == 0 {
		return benchkit.Result{}, 0, 0
	}
	rps := func(r benchkit.Result) float64 { return r.RPS() }
	vals := make([]float64, len(runs))
	for i, r := range runs {
		vals[i] = r.RPS()
	}
	return benchkit.MedianBy(runs, rps), slices.Min(vals), slices.Max(vals)
}

func metOr(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT met"
}
