package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"quire/internal/testing/benchkit"
)

// The contenders of the peer comparison, by the names the report uses.
const (
	nameQuire   = "quire"
	namePeer    = "PostGraphile"
	nameREST    = "quire REST published profile"
	nameCeiling = "PostgreSQL ceiling (pgbench)"
)

// contender is one line group of the peer report: a server under the
// built-in load generator, or pgbench.
type contender struct {
	name string
	run  func(ctx context.Context, conns int, d time.Duration) (benchkit.Result, int64, error)
}

// roundOrder is the order of the contenders in round r (from 1): the two
// servers alternate, quire first in odd rounds and PostGraphile first in
// even ones, so that neither always runs on a machine the other has just
// heated (caches, CPU frequency, PostgreSQL's buffers); the rest follow.
func roundOrder(r int, names []string) []string {
	out := append([]string{}, names...)
	if r%2 == 0 && len(out) >= 2 {
		out[0], out[1] = out[1], out[0]
	}
	return out
}

// peer compares graphql-site with PostGraphile's answer to the same query,
// and both with pgbench sending the one statement that answers it.
func peer(ctx context.Context, e *env, o options, w io.Writer) error {
	if _, err := e.d.SQL.ExecContext(ctx, peerSchema); err != nil {
		return fmt.Errorf("copy the rows into the peer schema: %w", err)
	}
	cache := o.cacheDir
	if cache == "" {
		var err error
		if cache, err = benchkit.CacheDir(); err != nil {
			return err
		}
	}
	inst, err := installPeer(ctx, cache, o.nodeVersion)
	if err != nil {
		return err
	}
	pg, err := startPeer(ctx, e, inst)
	if err != nil {
		return err
	}
	defer pg.Stop()
	if err := checkPeerSchema(ctx, pg.Base); err != nil {
		return err
	}
	if err := graphiQLOff(ctx, pg.Base); err != nil {
		return err
	}
	s := &e.seeded
	qgql, qrest := siteTargets(s, e.quire.Base+"/graphql", e.quire.Base)
	pgql := benchkit.Target{Name: namePeer, Method: "POST", URL: pg.Base + "/graphql", Token: s.token,
		Vary: pick(s.sites, 1, func(id string) (string, []byte) { return pg.Base + "/graphql", graphQLBody(peerQuery, "Site", id) })}
	qgql.Name, qrest.Name = nameQuire, nameREST

	// Both answers name the same objects, for the first sites of the
	// sequence both are sent.
	var notes []string
	for n := range 3 {
		qa, err := send(ctx, qgql, n)
		if err != nil {
			return err
		}
		pa, err := send(ctx, pgql, n)
		if err != nil {
			log, _ := os.ReadFile(pg.LogPath)
			return fmt.Errorf("PostGraphile: %w\nits log:\n%s", err, benchkit.Truncate(log, 3000))
		}
		if d := sameObjects(qa, pa); d != "" {
			return fmt.Errorf("quire and PostGraphile answer about different objects: %s", d)
		}
		if n == 0 {
			notes = append(notes, fmt.Sprintf("quire's and PostGraphile's answers to the same site carry the same ids and titles (%d bytes vs %d)", len(qa), len(pa)))
		}
	}
	first := benchkit.Target{Name: nameQuire, Method: "POST", URL: qgql.URL, Token: s.token, Body: graphQLBody(chosenSiteQuery, "Site", s.sites[0])}
	qa, err := send(ctx, first, 0)
	if err != nil {
		return err
	}
	ceil, note, err := newCeiling(ctx, e, qa)
	if err != nil {
		return err
	}
	notes = append(notes, note)

	server := func(t benchkit.Target, proc *benchkit.Proc) contender {
		return contender{name: t.Name, run: func(ctx context.Context, conns int, d time.Duration) (benchkit.Result, int64, error) {
			return load(ctx, proc, t, conns, d)
		}}
	}
	all := []contender{server(qgql, e.quire), server(pgql, pg)}
	if o.peerREST {
		all = append(all, server(qrest, e.quire))
	}
	all = append(all, contender{name: nameCeiling, run: func(ctx context.Context, conns int, d time.Duration) (benchkit.Result, int64, error) {
		logf("%s, %d connection(s), %v", nameCeiling, conns, d)
		res, err := ceil.bench.Run(ctx, ceil.script, ceil.vars, conns, d)
		return res, 0, err
	}})
	byName := map[string]contender{}
	var names []string
	for _, c := range all {
		byName[c.name] = c
		names = append(names, c.name)
	}

	// The same warm-up for each: o.count requests one at a time, then
	// o.warmup at 10 connections (pgbench only the latter).
	warm := map[string]int64{}
	for _, t := range []benchkit.Target{qgql, pgql} {
		for n := range o.count {
			if _, err := send(ctx, t, n); err != nil {
				return fmt.Errorf("warm-up of %s: %w", t.Name, err)
			}
		}
	}
	for _, name := range names {
		if name == nameREST {
			continue // quire is warmed already
		}
		logf("warm-up: %s", name)
		res, _, err := byName[name].run(ctx, 10, o.warmup)
		if err != nil {
			return fmt.Errorf("warm-up of %s: %w", name, err)
		}
		warm[name] = res.Requests
	}

	loadBefore := loadAverage()
	runs := map[runKey][]line{}
	for r := 1; r <= o.rounds; r++ {
		for _, c := range o.conns {
			for _, name := range roundOrder(r, names) {
				res, rss, err := byName[name].run(ctx, c, o.duration)
				if err != nil {
					return err
				}
				k := runKey{name, c}
				runs[k] = append(runs[k], line{workload: name, conns: c, res: res, rss: rss})
			}
		}
	}
	loadAfter := loadAverage()

	var profile string
	if o.cpuprofile != "" {
		if profile, err = peerProfile(ctx, e, o, qgql); err != nil {
			return err
		}
	}

	rep := peerReport{o: o, inst: inst, pgbench: ceil.bench.Version(ctx), names: names, runs: runs, warm: warm,
		loadBefore: loadBefore, loadAfter: loadAfter, notes: notes, profile: profile, sites: len(s.sites)}
	rep.write(w)
	return nil
}

// peerProfile profiles quire under graphql-site at 10 connections, in a
// run of its own after the measured ones (the profiler's cost stays out of
// the figures), and returns pprof's tops by cumulative and by own time.
func peerProfile(ctx context.Context, e *env, o options, t benchkit.Target) (string, error) {
	d := max(o.duration, 10*time.Second)
	if o.quick {
		d = max(o.duration, 3*time.Second)
	}
	prof := make(chan error, 1)
	go func() { prof <- cpuProfile(ctx, e.pprof, o.cpuprofile, d-time.Second) }()
	res, _, err := load(ctx, e.quire, t, 10, d)
	if err != nil {
		return "", err
	}
	if err := <-prof; err != nil {
		return "", fmt.Errorf("CPU profile: %w", err)
	}
	cum, err := pprofTop(ctx, e.quireBin, o.cpuprofile, "-cum", "-nodecount=45")
	if err != nil {
		return "", err
	}
	flat, err := pprofTop(ctx, e.quireBin, o.cpuprofile, "-nodecount=25")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("CPU profile of quire under graphql-site at 10 connections (%s, %.0f req/s during the profile), top by cumulative time:\n\n```\n%s```\n\nTop by own time:\n\n```\n%s```\n",
		o.cpuprofile, res.RPS(), cum, flat), nil
}

// loadAverage is the 1, 5 and 15 minute load averages.
func loadAverage() string {
	l, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(l))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// execCommand is a command bounded by ctx, run in dir.
func execCommand(ctx context.Context, dir, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.WaitDelay = 5 * time.Second
	return cmd
}
