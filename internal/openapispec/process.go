package openapispec

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"quire/ent"
	"quire/ent/openapispec"
	"quire/internal/catalog"
	"quire/internal/jobs"
	"quire/internal/types"
)

// jobArgs are the arguments of a processing job: the specification and
// the generation of its source the job was asked for.
type jobArgs struct {
	Spec       string `json:"spec"`
	Generation int    `json:"generation"`
}

// JobHandler is the handler of processing jobs (Kind).
func (s *Service) JobHandler() jobs.Handler { return s.process }

// process fetches (or takes) a specification's source and the files its
// references reach, reads and validates them, and stores a version when
// the content differs from the last one. The specification's
// processingState goes to progress while it works and to complete when
// it is done, with lastProcessErrorCode and lastProcessedErrors saying
// why it failed, if it did. A transient fetch failure (a time out, a
// connection failure, a 5xx answer) is retried by the job runner, the
// state going back to pending meanwhile; any other failure ends the job.
// A job whose specification was deleted, or whose source changed since
// it was asked for, does nothing: the newer generation has a job of its
// own.
func (s *Service) process(ctx context.Context, run jobs.Run) error {
	var a jobArgs
	if err := run.Args(&a); err != nil {
		return jobs.Permanent(fmt.Errorf("read job arguments: %w", err))
	}
	sp, err := s.Client.OpenAPISpec.Get(ctx, a.Spec)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read OpenAPI specification: %w", err)
	}
	if sp.Generation != a.Generation {
		return nil
	}
	if ok, err := s.mark(ctx, a, StateProgress, nil, nil, false); err != nil || !ok {
		return err
	}
	report := func(done int, step string) error {
		// Fetching is most of the work: up to 60%, as far as the files
		// known so far go.
		return run.Progress(ctx, 0.05+0.55*float64(done)/float64(done+1), step)
	}
	var rootURL *url.URL
	var text []byte
	if sp.SourceURL != nil {
		if rootURL, err = url.Parse(*sp.SourceURL); err != nil {
			return s.fail(ctx, a, run, CodeFetchError, specError(CodeFetchError, "the source URL cannot be read: %v", err), false)
		}
	} else if sp.SourceText != nil {
		text = []byte(*sp.SourceText)
		if err := run.Progress(ctx, 0.05, "reading the text"); err != nil {
			return s.stopped(ctx, a, err)
		}
	}
	c, err := collect(ctx, s.fetch.get, rootURL, text, report)
	if err != nil {
		var fe *fetchError
		if errors.As(err, &fe) && ctx.Err() == nil {
			return s.fail(ctx, a, run, fe.code, types.SpecError{Code: fe.code, Message: fe.Error()}, fe.transient)
		}
		return s.stopped(ctx, a, err)
	}
	if err := run.Progress(ctx, 0.7, "validating"); err != nil {
		return s.stopped(ctx, a, err)
	}
	if len(c.issues) == 0 && c.checkVersion() {
		c.validate(ctx)
	}
	if len(c.issues) > 0 {
		return s.parseFailed(ctx, a, c.errors())
	}
	if err := run.Progress(ctx, 0.9, "storing"); err != nil {
		return s.stopped(ctx, a, err)
	}
	err = s.store(ctx, a, sp, c)
	if errors.Is(err, errStale) {
		return nil
	}
	return err
}

// fail records a failed fetch. A transient one that has attempts left
// puts the specification back to pending and returns an error, so that
// the runner tries again; otherwise the processing is complete, and the
// error ends the job.
func (s *Service) fail(ctx context.Context, a jobArgs, run jobs.Run, code string, e types.SpecError, transient bool) error {
	err := fmt.Errorf("%s", e.Message)
	if transient && run.Attempt() < run.MaxAttempts() {
		if _, merr := s.mark(ctx, a, StatePending, &code, []types.SpecError{e}, false); merr != nil {
			return merr
		}
		return err
	}
	if _, merr := s.mark(ctx, a, StateComplete, &code, []types.SpecError{e}, true); merr != nil {
		return merr
	}
	return jobs.Permanent(err)
}

// parseFailed records a specification that does not parse or validate:
// retrying cannot fix it.
func (s *Service) parseFailed(ctx context.Context, a jobArgs, errs []types.SpecError) error {
	code := CodeParseError
	if _, err := s.mark(ctx, a, StateComplete, &code, errs, true); err != nil {
		return err
	}
	return jobs.Permanent(fmt.Errorf("the specification does not parse or validate: %s", errs[0].Message))
}

// stopped ends an attempt that was cancelled or cut short. A cancelled
// job leaves the specification complete, saying so; a job cut short
// (the process stopping) runs again later, and leaves it as it is.
func (s *Service) stopped(ctx context.Context, a jobArgs, err error) error {
	if errors.Is(err, jobs.ErrCancelled) {
		final := context.WithoutCancel(ctx)
		if _, merr := s.mark(final, a, StateComplete, nil, []types.SpecError{specError(ErrCancelled, "the processing was cancelled")}, true); merr != nil {
			return merr
		}
	}
	return err
}

// mark sets the processing state of a specification (and the error code
// and errors, with processed also lastProcessedAt), provided its source
// is still the generation the job was asked for; it reports whether it
// was.
func (s *Service) mark(ctx context.Context, a jobArgs, state string, code *string, errs []types.SpecError, processed bool) (bool, error) {
	var n int
	err := catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		now := s.Now()
		u := tx.OpenAPISpec.Update().Where(openapispec.ID(a.Spec), openapispec.Generation(a.Generation)).
			SetProcessingState(state).SetUpdatedAt(now)
		if code != nil {
			u.SetLastProcessErrorCode(*code)
		}
		if errs != nil {
			u.SetLastProcessedErrors(errs)
		}
		if processed {
			u.SetLastProcessedAt(now)
		}
		var err error
		n, err = u.Save(ctx)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("record processing state: %w", err)
	}
	return n > 0, nil
}
