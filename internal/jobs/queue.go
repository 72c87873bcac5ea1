package jobs

import (
	"context"
	"errors"

	"quire/ent"
)

// Request asks for a durable background job.
type Request struct {
	// Kind names the handler that does the work (for example
	// "openapi.process"); one handler is registered per kind.
	Kind string
	// Args are the job's arguments, stored as JSON; the handler decodes
	// them with Run.Args.
	Args any
	// Organization owns the job: its members who may see Subject may see
	// the job.
	Organization string
	// Space, when set, is the space the job works on: only callers who
	// may view it see the job.
	Space string
	// Subject names what started the job, as "type:id" (for example
	// "openapi-spec:ID" or "space:ID"); the job is listed under it.
	Subject string
	// CreatedBy is the user who asked for it, empty for the system.
	CreatedBy string
	// MaxAttempts bounds retries of failed attempts; 0 takes the default.
	MaxAttempts int
}

// Enqueuer inserts jobs in the caller's transaction, so that a job exists
// exactly when the write that asked for it commits.
type Enqueuer interface {
	Enqueue(ctx context.Context, tx *ent.Tx, req Request) (jobID string, err error)
}

// Run is a job being worked, as its handler sees it.
type Run interface {
	// ID is the job's id (the id of its Job node).
	ID() string
	// Attempt counts attempts from 1.
	Attempt() int
	// MaxAttempts is how many attempts the job gets: a failed attempt
	// with Attempt() >= MaxAttempts() is its last.
	MaxAttempts() int
	// Args decodes the job's arguments into v.
	Args(v any) error
	// Progress records how far the job has come (fraction in 0..1) and
	// what it is doing now; readers see it at once.
	Progress(ctx context.Context, fraction float64, step string) error
}

// Handler does the work of one kind of job. An error fails the attempt:
// it is retried with backoff unless the error is Permanent or the job's
// attempts are used up.
type Handler func(ctx context.Context, run Run) error

// Permanent marks err as one that retrying cannot fix: the job fails at
// once.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err}
}

// IsPermanent tells whether err was marked Permanent.
func IsPermanent(err error) bool {
	var p *permanentError
	return errors.As(err, &p)
}

type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }
