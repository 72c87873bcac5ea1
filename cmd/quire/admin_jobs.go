package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
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

// openRunner opens the database and a runner that works no jobs: it reads
// and changes them.
func (e *env) openRunner(log *slog.Logger, fs *flag.FlagSet, dbf *dbFlags) (*jobs.Runner, func(), error) {
	d, err := e.openExisting(log, fs, dbf)
	if err != nil {
		return nil, nil, err
	}
	return jobs.NewRunner(d, jobs.Config{}), func() { d.Close() }, nil
}

func (e *env) adminJobsShow(ctx context.Context, args []string) int {
	fs := e.newFlagSet("quire admin jobs show")
	dbf := e.databaseFlags(fs)
	watch := fs.Bool("watch", false, "follow the job until it finishes")
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	id, rest := splitID(fs, args)
	if code, done := e.parse(fs, rest); done {
		return code
	}
	if id == "" {
		return e.usageError(fs, "give the id of a job")
	}
	log := e.logger()
	r, done, err := e.openRunner(log, fs, dbf)
	if err != nil {
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
	fs := e.newFlagSet("quire admin jobs " + verb)
	dbf := e.databaseFlags(fs)
	id, rest := splitID(fs, args)
	if code, done := e.parse(fs, rest); done {
		return code
	}
	if id == "" {
		return e.usageError(fs, "give the id of a job")
	}
	log := e.logger()
	r, done, err := e.openRunner(log, fs, dbf)
	if err != nil {
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
func splitID(fs *flag.FlagSet, args []string) (string, []string) {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") && (i == 0 || !needsValue(fs, args[i-1])) {
			return a, append(append([]string{}, args[:i]...), args[i+1:]...)
		}
	}
	return "", args
}

// needsValue tells whether argument a is a flag of fs that takes the next
// argument as its value.
func needsValue(fs *flag.FlagSet, a string) bool {
	name := strings.TrimLeft(a, "-")
	if !strings.HasPrefix(a, "-") || strings.Contains(name, "=") {
		return false
	}
	f := fs.Lookup(name)
	return f != nil && !isBool(f)
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
