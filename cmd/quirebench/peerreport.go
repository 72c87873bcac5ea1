package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// runKey names the runs of one contender at one connection count.
type runKey struct {
	name  string
	conns int
}

// summary is what the report shows of a contender's runs at one
// connection count.
type summary struct {
	median, lo, hi float64 // req/s
	byRound        []float64
	mid            line  // the run with the median req/s: its p50 and p99 are shown
	rss            int64 // the largest RSS of any run
	requests       int64
	errors         int64
}

func summarize(runs []line) summary {
	var s summary
	if len(runs) == 0 {
		return s
	}
	for _, l := range runs {
		s.byRound = append(s.byRound, l.res.RPS())
		s.rss = max(s.rss, l.rss)
		s.requests += l.res.Requests
		s.errors += l.res.Errors
	}
	sorted := slices.Clone(s.byRound)
	slices.Sort(sorted)
	s.lo, s.hi = sorted[0], sorted[len(sorted)-1]
	s.mid = median(runs)
	s.median = s.mid.res.RPS()
	return s
}

// ratios is a÷b of each round's pair of runs (same round, same connection
// count, one right after the other), sorted.
func ratios(a, b []line) []float64 {
	var out []float64
	for i := range min(len(a), len(b)) {
		if rb := b[i].res.RPS(); rb > 0 {
			out = append(out, a[i].res.RPS()/rb)
		}
	}
	slices.Sort(out)
	return out
}

// peerReport is everything the peer comparison prints.
type peerReport struct {
	o                     options
	inst                  *peerInstall
	pgbench               string
	names                 []string
	runs                  map[runKey][]line
	warm                  map[string]int64
	loadBefore, loadAfter string
	notes                 []string
	profile               string
	sites                 int
}

func (r *peerReport) write(w io.Writer) {
	o := r.o
	if o.quick {
		fmt.Fprintf(w, "**SHORTENED RUN (--quick): %v per run, %d round(s); it shows that the harness works, it is not a measurement.**\n\n", o.duration, o.rounds)
	}
	fmt.Fprintf(w, "peer: PostGraphile %s (%s) on Node %s, downloaded from the npm registry (node-linux-* and postgraphile) into %s; `%s`: amber preset, GraphiQL, watch mode and explain off, PostgreSQL pool as PostGraphile sets it (pg's default of 10 connections), one Node process; over schema peer (a copy of the rows with primary keys, foreign keys and their indexes)  \n",
		peerVersion, r.inst.versions, r.inst.nodeVersion, filepath.Dir(r.inst.dir), peerCommand())
	fmt.Fprintf(w, "ceiling: %s, `-M prepared -c CONNS -j min(CONNS, 2)`, the one statement below (the token's membership checked and the whole JSON answer built by PostgreSQL) on a random site; no HTTP  \n", r.pgbench)
	fmt.Fprintf(w, "fairness: same rows, same query shape, the same fixed sequence of sites for both servers, one load generator; warm-up for each: %d requests one at a time, then %v at 10 connections (requests sent: %s); %d round(s), each runs every connection count with the servers in turn, quire first in odd rounds and PostGraphile first in even ones; %v per run  \n",
		o.count, o.warmup, r.warmCounts(), o.rounds, o.duration)
	fmt.Fprintf(w, "load average: %s before the rounds, %s after\n\n", r.loadBefore, r.loadAfter)

	fmt.Fprintln(w, "| conns | server | req/s (median) | min–max | req/s by round | p50 | p99 | RSS (max) | of the ceiling | requests (errors) |")
	fmt.Fprintln(w, "|---:|---|---:|---:|---|---:|---:|---:|---:|---:|")
	for _, c := range o.conns {
		ceil := summarize(r.runs[runKey{nameCeiling, c}])
		for _, name := range r.names {
			s := summarize(r.runs[runKey{name, c}])
			of := "—"
			if name != nameCeiling && ceil.median > 0 {
				of = fmt.Sprintf("%.0f %%", 100*s.median/ceil.median)
			}
			var rounds []string
			for _, v := range s.byRound {
				rounds = append(rounds, rps(v))
			}
			fmt.Fprintf(w, "| %d | %s | %s | %s–%s | %s | %s | %s | %s | %s | %d (%d) |\n", c, name, rps(s.median), rps(s.lo), rps(s.hi),
				strings.Join(rounds, ", "), ms(s.mid.res.P50), ms(s.mid.res.P99), mib(s.rss), of, s.requests, s.errors)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| conns | quire ÷ PostGraphile (medians) | quire ÷ PostGraphile, each round's pair (min–max) |")
	fmt.Fprintln(w, "|---:|---:|---:|")
	for _, c := range o.conns {
		q, p := r.runs[runKey{nameQuire, c}], r.runs[runKey{namePeer, c}]
		sq, sp := summarize(q), summarize(p)
		ratio, spread := "—", "—"
		if sp.median > 0 {
			ratio = fmt.Sprintf("%.2f", sq.median/sp.median)
		}
		if rs := ratios(q, p); len(rs) > 0 {
			spread = fmt.Sprintf("%.2f–%.2f", rs[0], rs[len(rs)-1])
		}
		fmt.Fprintf(w, "| %d | %s | %s |\n", c, ratio, spread)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "- quire: `POST /graphql` `%s`\n", chosenSiteQuery)
	fmt.Fprintf(w, "- PostGraphile: `POST /graphql` `%s`\n", peerQuery)
	fmt.Fprintf(w, "- PostgreSQL ceiling: `%s`\n", strings.TrimSpace(strings.ReplaceAll(ceilingScript(r.sites), "\n", " ")))
	if o.peerREST {
		fmt.Fprintln(w, "- quire REST published profile: GET /v1/orgs/{org}/sites/{site}/published (a larger answer: every field, customizations, permissions), not the same query; shown beside the others")
	}
	fmt.Fprintln(w, "- p50 and p99 are those of the run with the median req/s; RSS is the largest VmRSS sampled every 50 ms in any run (PostgreSQL's memory is not counted for anyone)")
	fmt.Fprintln(w, "- quire checks the bearer token and the caller's permission on every object, as the ceiling statement checks the token's membership; PostGraphile serves the peer schema without authentication")
	fmt.Fprintln(w, "- quire runs on every core (GOMAXPROCS as the runtime sets it); PostGraphile runs as one Node process, as its CLI starts it; the load generator, the servers and PostgreSQL share the machine")
	for _, n := range r.notes {
		fmt.Fprintln(w, "- "+n)
	}
	fmt.Fprintln(w)
	if r.profile != "" {
		fmt.Fprintln(w, r.profile)
	}
}

func (r *peerReport) warmCounts() string {
	var out []string
	for _, name := range r.names {
		if n, ok := r.warm[name]; ok {
			out = append(out, name+" "+strconv.FormatInt(n, 10))
		}
	}
	return strings.Join(out, ", ")
}
