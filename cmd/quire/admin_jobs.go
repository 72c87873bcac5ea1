package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"quire/internal/jobs"
)

// jobJSON is a job as the jobs commands print it with --json.
type jobJSON struct {
	ID           string         `json:"id"`
	Kind         string         `json:"kind"`
	State        jobs.State     `json:"state"`
	Progress     float64        `json:"progress"`
	Step         string         `json:"step"`
	Attempt      int            `json:"attempt"`
	MaxAttempts  int            `json:"maxAttempts"`
	Subject      string         `json:"subject"`
	Organization string         `json:"organization,omitempty"`
	Space        string         `json:"space,omitempty"`
	CreatedBy    string         `json:"createdBy,omitempty"`
	CreatedAt    time.Time      `json:"createdAt"`
	StartedAt    *time.Time     `json:"startedAt,omitempty"`
	FinishedAt   *time.Time     `json:"finishedAt,omitempty"`
	Errors       []jobErrorJSON `json:"errors"`
}

type jobErrorJSON struct {
	At      time.Time `json:"at"`
	Attempt int       `json:"attempt"`
	Message string    `json:"message"`
}

func toJobJSON(in *jobs.Info) jobJSON {
	out := jobJSON{ID: in.ID, Kind: in.Kind, State: in.State, Progress: in.Progress, Step: in.Step,
		Attempt: in.Attempt, MaxAttempts: in.MaxAttempts, Subject: in.Subject, Organization: in.Organization,
		Space: in.Space, CreatedBy: in.CreatedBy, CreatedAt: in.CreatedAt, StartedAt: in.StartedAt,
		FinishedAt: in.FinishedAt, Errors: []jobErrorJSON{}}
	for _, e := range in.Errors {
		out.Errors = append(out.Errors, jobErrorJSON{At: e.At, Attempt: e.Attempt, Message: e.Message})
	}
	return out
}

// adminJobs dispatches "quire admin jobs ...".
func (e *env) adminJobs(ctx context.Context, args []string) int {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, adminUsageText)
		return exitUsage
	}
	switch args[0] {
	case "list":
		return e.adminJobsList(ctx, args[1:])
	case "show":
		return e.adminJobsShow(ctx, args[1:])
	case "cancel", "retry":
		return e.adminJobsAct(ctx, args[0], args[1:])
	}
	fmt.Fprintf(e.stderr, "quire admin jobs: unknown command %q\n\n%s", args[0], adminUsageText)
	return exitUsage
}

// openRunner opens the database and a runner that works no jobs: it reads
// and changes them.
func (e *env) openRunner(databaseURL string) (*jobs.Runner, func(), error) {
	d, err := openDB(databaseURL)
	if err != nil {
		return nil, nil, err
	}
	return jobs.NewRunner(d, jobs.Config{}), func() { d.Close() }, nil
}

func (e *env) adminJobsList(ctx context.Context, args []string) int {
	fs := e.newFlagSet("quire admin jobs list", "quire admin jobs list [--subject TYPE:ID] [--org ORG_ID] [--limit N] [--json] [--database-url URL]")
	databaseURL := e.databaseURLFlag(fs)
	subject := fs.String("subject", "", "only the jobs started by this object, as type:id (for example space:S...)")
	org := fs.String("org", "", "only the jobs of this organization")
	limit := fs.Int("limit", 50, "at most this many jobs (1..500)")
	asJSON := fs.Bool("json", false, "print a JSON array instead of a table")
	if code, done := e.parse(fs, args); done {
		return code
	}
	if *limit < 1 || *limit > 500 {
		return e.usageError(fs, "--limit %d: must be from 1 to 500", *limit)
	}
	log := e.logger()
	r, done, err := e.openRunner(*databaseURL)
	if err != nil {
		log.Error("open database", "error", err.Error())
		return exitFailure
	}
	defer done()
	list, err := r.List(ctx, jobs.ListOptions{Subject: *subject, Organization: *org, Limit: *limit})
	if err != nil {
		log.Error("list jobs", "error", err.Error())
		return exitFailure
	}
	if *asJSON {
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

func (e *env) adminJobsShow(ctx context.Context, args []string) int {
	fs := e.newFlagSet("quire admin jobs show", "quire admin jobs show JOB_ID [--watch] [--json] [--database-url URL]")
	databaseURL := e.databaseURLFlag(fs)
	watch := fs.Bool("watch", false, "follow the job until it finishes")
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	id, rest := splitID(args)
	if code, done := e.parse(fs, rest); done {
		return code
	}
	if id == "" {
		return e.usageError(fs, "give the id of a job")
	}
	log := e.logger()
	r, done, err := e.openRunner(*databaseURL)
	if err != nil {
		log.Error("open database", "error", err.Error())
		return exitFailure
	}
	defer done()
	in, err := r.Get(ctx, id)
	if err == nil && *watch && !in.State.Finished() {
		tty := isTerminal(e.stdout)
		in, err = r.Wait(ctx, id, 250*time.Millisecond, func(in *jobs.Info) {
			if tty && !*asJSON {
				// One line, redrawn in place.
				fmt.Fprintf(e.stdout, "\r\033[K%s %s", progressBar(in.Progress, 30), in.Step)
			}
		})
		if tty && !*asJSON {
			fmt.Fprint(e.stdout, "\r\033[K")
		}
	}
	if errors.Is(err, jobs.ErrNotFound) {
		log.Error("no such job", "job", id)
		return exitFailure
	}
	if err != nil {
		log.Error("read job", "error", err.Error())
		return exitFailure
	}
	if *asJSON {
		if err := e.printJSON(toJobJSON(in)); err != nil {
			return exitFailure
		}
		return exitOK
	}
	printJob(e.stdout, in)
	if in.State == jobs.StateFailed {
		return exitFailure
	}
	return exitOK
}

func (e *env) adminJobsAct(ctx context.Context, verb string, args []string) int {
	fs := e.newFlagSet("quire admin jobs "+verb, "quire admin jobs "+verb+" JOB_ID [--database-url URL]")
	databaseURL := e.databaseURLFlag(fs)
	id, rest := splitID(args)
	if code, done := e.parse(fs, rest); done {
		return code
	}
	if id == "" {
		return e.usageError(fs, "give the id of a job")
	}
	log := e.logger()
	r, done, err := e.openRunner(*databaseURL)
	if err != nil {
		log.Error("open database", "error", err.Error())
		return exitFailure
	}
	defer done()
	var in *jobs.Info
	if verb == "cancel" {
		in, err = r.Cancel(ctx, id)
	} else {
		in, err = r.Retry(ctx, id)
	}
	switch {
	case errors.Is(err, jobs.ErrNotFound):
		log.Error("no such job", "job", id)
		return exitFailure
	case errors.Is(err, jobs.ErrNotRetryable):
		log.Error("retry job: "+err.Error(), "job", id)
		return exitFailure
	case err != nil:
		log.Error(verb+" job", "error", err.Error())
		return exitFailure
	}
	if err := e.printJSON(toJobJSON(in)); err != nil {
		return exitFailure
	}
	return exitOK
}

// splitID takes the job id from the front of args (before or after flags).
func splitID(args []string) (string, []string) {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") && (i == 0 || !needsValue(args[i-1])) {
			return a, append(append([]string{}, args[:i]...), args[i+1:]...)
		}
	}
	return "", args
}

// needsValue tells whether flag a takes the next argument as its value.
func needsValue(a string) bool {
	return (a == "--database-url" || a == "-database-url") && !strings.Contains(a, "=")
}

// printJob writes a job for a person to read.
func printJob(w io.Writer, in *jobs.Info) {
	fmt.Fprintf(w, "job       %s\nkind      %s\nstate     %s\nprogress  %s\n", in.ID, in.Kind, in.State, progressBar(in.Progress, 30))
	if in.Step != "" {
		fmt.Fprintf(w, "step      %s\n", in.Step)
	}
	fmt.Fprintf(w, "attempts  %d of %d\nsubject   %s\ncreated   %s\n", in.Attempt, in.MaxAttempts, in.Subject, in.CreatedAt.UTC().Format(time.RFC3339))
	if in.FinishedAt != nil {
		fmt.Fprintf(w, "finished  %s\n", in.FinishedAt.UTC().Format(time.RFC3339))
	}
	for _, e := range in.Errors {
		fmt.Fprintf(w, "error     attempt %d at %s: %s\n", e.Attempt, e.At.UTC().Format(time.RFC3339), e.Message)
	}
}

// progressBar draws fraction (0..1) as a bar of width cells and a percentage.
func progressBar(fraction float64, width int) string {
	fraction = min(max(fraction, 0), 1)
	full := int(fraction * float64(width))
	return "[" + strings.Repeat("#", full) + strings.Repeat(".", width-full) + fmt.Sprintf("] %3.0f%%", fraction*100)
}

// isTerminal tells whether w is a terminal, where a bar can be redrawn.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
