package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"quire/internal/content"
	"quire/internal/jobs"
)

// housekeepingKinds are the periodic jobs every server asks for on its
// own (jobs.Runner.Every): many, alike, and of no interest to whoever
// looks for an import or a translation. "admin jobs list" shows them with
// --all only.
var housekeepingKinds = []string{jobs.KindSweepTrash, content.KindSearchCatchUp}

// adminJobsList implements "quire admin jobs list".
func (e *env) adminJobsList(ctx context.Context, args []string) int {
	fs := e.newFlagSet("quire admin jobs list")
	dbf := e.databaseFlags(fs)
	subject := fs.String("subject", "", "only the jobs started by this object, as `TYPE:ID` (for example space:S...)")
	org := fs.String("org", "", "only the jobs of this organization (`ORG_ID`)")
	limit := fs.Int("limit", 50, "at most `N` jobs (1..500)")
	all := fs.Bool("all", false, "include the periodic housekeeping jobs ("+housekeepingKinds[0]+", "+housekeepingKinds[1]+")")
	asJSON := fs.Bool("json", false, "print a JSON array instead of a table")
	watch := fs.Bool("watch", false, "print the list again every --interval until interrupted (or --count times)")
	interval := fs.Duration("interval", 2*time.Second, "`DURATION` between two lists with --watch")
	count := fs.Int("count", 0, "with --watch, stop after `N` lists; 0: until interrupted")
	if code, done := e.parse(fs, args); done {
		return code
	}
	if *limit < 1 || *limit > 500 {
		return e.usageError(fs, "--limit %d: must be from 1 to 500", *limit)
	}
	if *interval <= 0 {
		return e.usageError(fs, "--interval %s: must be positive", *interval)
	}
	if *count < 0 {
		return e.usageError(fs, "--count %d: must be 0 or more", *count)
	}
	log := e.logger()
	r, done, err := e.openRunner(log, fs, dbf)
	if err != nil {
		return exitFailure
	}
	defer done()
	opts := jobs.ListOptions{Subject: *subject, Organization: *org, Limit: *limit}
	if !*all {
		opts.ExcludeKinds = housekeepingKinds
	}
	if !*watch {
		return e.printJobList(ctx, r, opts, *asJSON)
	}

	// An interrupt ends the watch, which is how it is meant to end.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	tick := time.NewTicker(*interval)
	defer tick.Stop()
	tty := isTerminal(e.stdout)
	for n := 1; ; n++ {
		if tty && !*asJSON {
			fmt.Fprint(e.stdout, "\033[H\033[2J") // redraw in place
		} else if n > 1 && !*asJSON {
			fmt.Fprintln(e.stdout)
		}
		if code := e.printJobList(ctx, r, opts, *asJSON); code != exitOK {
			if ctx.Err() != nil {
				return exitOK
			}
			return code
		}
		if *count > 0 && n >= *count {
			return exitOK
		}
		select {
		case <-ctx.Done():
			return exitOK
		case <-tick.C:
		}
	}
}

// printJobList prints one list of jobs: a JSON array (one line) or a table.
func (e *env) printJobList(ctx context.Context, r *jobs.Runner, opts jobs.ListOptions, asJSON bool) int {
	list, err := r.List(ctx, opts)
	if err != nil {
		if ctx.Err() == nil {
			e.logger().Error("list jobs", "error", err.Error())
		}
		return exitFailure
	}
	if asJSON {
		out := make([]jobJSON, len(list))
		for i, in := range list {
			out[i] = toJobJSON(in)
		}
		if err := e.printJSON(out); err != nil {
			return exitFailure
		}
		return exitOK
	}
	fmt.Fprintf(e.stdout, "%-20s  %-16s  %-9s  %8s  %-20s  %s\n", "ID", "KIND", "STATE", "PROGRESS", "CREATED", "SUBJECT")
	for _, in := range list {
		fmt.Fprintf(e.stdout, "%-20s  %-16s  %-9s  %7.0f%%  %-20s  %s\n", in.ID, in.Kind, in.State, in.Progress*100,
			in.CreatedAt.UTC().Format(time.RFC3339), in.Subject)
	}
	return exitOK
}
