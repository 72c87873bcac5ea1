package jobs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"quire/ent"
	"quire/ent/job"
)

// State is where a job stands.
type State string

// The states of a job.
const (
	// StatePending: waiting to be worked (or for its scheduled time).
	StatePending State = "pending"
	// StateRunning: a process is working it.
	StateRunning State = "running"
	// StateRetrying: an attempt failed; it waits to be tried again.
	StateRetrying State = "retrying"
	// StateCompleted: done.
	StateCompleted State = "completed"
	// StateCancelled: stopped on someone's request.
	StateCancelled State = "cancelled"
	// StateFailed: failed for good (a permanent error, or its attempts
	// used up).
	StateFailed State = "failed"
)

// Finished tells whether a job in state s will not run again by itself.
func (s State) Finished() bool {
	return s == StateCompleted || s == StateCancelled || s == StateFailed
}

// AttemptError is the error of one failed attempt.
type AttemptError struct {
	At      time.Time
	Attempt int
	Message string
}

// Info is what can be known of a job.
type Info struct {
	ID           string
	Kind         string
	Organization string
	Space        string
	Subject      string
	CreatedBy    string
	State        State
	Progress     float64
	Step         string
	Attempt      int
	MaxAttempts  int
	Errors       []AttemptError
	CreatedAt    time.Time
	UpdatedAt    time.Time
	StartedAt    *time.Time
	FinishedAt   *time.Time
}

// ErrNotFound is returned for an id that names no job.
var ErrNotFound = errors.New("no such job")

// Get returns the job id.
func (r *Runner) Get(ctx context.Context, id string) (*Info, error) {
	rec, err := r.d.Client.Job.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read job: %w", err)
	}
	infos, err := r.infos(ctx, []*ent.Job{rec})
	if err != nil {
		return nil, err
	}
	return infos[0], nil
}

// ListOptions select jobs; empty fields select all.
type ListOptions struct {
	Subject      string
	Organization string
	// ExcludeKinds leaves out the jobs of these kinds.
	ExcludeKinds []string
	// Limit bounds the list (default 50, at most 500).
	Limit int
}

// List returns jobs, newest first.
func (r *Runner) List(ctx context.Context, o ListOptions) ([]*Info, error) {
	if o.Limit <= 0 {
		o.Limit = 50
	}
	o.Limit = min(o.Limit, 500)
	q := r.d.Client.Job.Query()
	if o.Subject != "" {
		q.Where(job.Subject(o.Subject))
	}
	if o.Organization != "" {
		q.Where(job.OrganizationID(o.Organization))
	}
	if len(o.ExcludeKinds) > 0 {
		q.Where(job.KindNotIn(o.ExcludeKinds...))
	}
	recs, err := q.Order(ent.Desc(job.FieldCreatedAt), ent.Desc(job.FieldID)).Limit(o.Limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list jobs: %w", err)
	}
	return r.infos(ctx, recs)
}

// Latest returns the newest job started by subject, or ErrNotFound.
func (r *Runner) Latest(ctx context.Context, subject string) (*Info, error) {
	infos, err := r.List(ctx, ListOptions{Subject: subject, Limit: 1})
	if err != nil {
		return nil, err
	}
	if len(infos) == 0 {
		return nil, ErrNotFound
	}
	return infos[0], nil
}

// infos joins Quire's records with the queue's rows, read in one list.
func (r *Runner) infos(ctx context.Context, recs []*ent.Job) ([]*Info, error) {
	out := make([]*Info, len(recs))
	if len(recs) == 0 {
		return out, nil
	}
	c, err := r.client()
	if err != nil {
		return nil, err
	}
	riverIDs := make([]int64, len(recs))
	for i, rec := range recs {
		riverIDs[i] = rec.RiverID
	}
	res, err := c.JobList(ctx, river.NewJobListParams().IDs(riverIDs...).First(len(riverIDs)))
	if err != nil {
		return nil, fmt.Errorf("read jobs: %w", err)
	}
	rows := make(map[int64]*rivertype.JobRow, len(res.Jobs))
	for _, row := range res.Jobs {
		rows[row.ID] = row
	}
	for i, rec := range recs {
		out[i] = info(rec, rows[rec.RiverID])
	}
	return out, nil
}

// info describes a job from its record and its queue row (nil once the
// queue has forgotten a finished job).
func info(rec *ent.Job, row *rivertype.JobRow) *Info {
	in := &Info{
		ID: rec.ID, Kind: rec.Kind, Organization: rec.OrganizationID, Space: rec.SpaceID,
		Subject: rec.Subject, CreatedBy: rec.CreatedBy, Progress: rec.Progress, Step: rec.Step,
		CreatedAt: rec.CreatedAt, UpdatedAt: rec.UpdatedAt, FinishedAt: rec.FinishedAt,
	}
	if row == nil {
		in.State = State(rec.Outcome)
		if in.State == "" {
			in.State = StateFailed
		}
		if rec.LastError != "" {
			in.Errors = []AttemptError{{At: rec.UpdatedAt, Message: rec.LastError}}
		}
		return in
	}
	in.Attempt, in.MaxAttempts = row.Attempt, row.MaxAttempts
	in.StartedAt = row.AttemptedAt
	if row.FinalizedAt != nil {
		in.FinishedAt = row.FinalizedAt
	}
	for _, e := range row.Errors {
		in.Errors = append(in.Errors, AttemptError{At: e.At, Attempt: e.Attempt, Message: attemptMessage(e.Error)})
	}
	switch row.State {
	case rivertype.JobStateRunning:
		in.State = StateRunning
	case rivertype.JobStateRetryable:
		in.State = StateRetrying
	case rivertype.JobStateCompleted:
		in.State = StateCompleted
	case rivertype.JobStateDiscarded:
		in.State = StateFailed
	case rivertype.JobStateCancelled:
		// Stopped by a request, or by its own handler's permanent error.
		in.State = StateFailed
		if rec.CancelRequested {
			in.State = StateCancelled
		}
	case rivertype.JobStateAvailable:
		in.State = StatePending
		if m := readMeta(row); m.RescuedAttempt != nil && *m.RescuedAttempt == row.Attempt && row.Attempt > 0 {
			// Its last attempt's process stopped (rescue.go): it waits to
			// be tried again, as after a failed attempt.
			in.State = StateRetrying
		}
	default:
		in.State = StatePending
	}
	return in
}

// Cancel asks for job id to stop: a job not yet running never runs; a
// running one stops at its next progress report (or at once, when it runs
// in this process). A finished job is left as it is. It returns the job.
func (r *Runner) Cancel(ctx context.Context, id string) (*Info, error) {
	rec, err := r.d.Client.Job.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read job: %w", err)
	}
	in, err := r.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if in.State.Finished() {
		return in, nil
	}
	if err := r.d.Client.Job.UpdateOneID(id).SetCancelRequested(true).SetUpdatedAt(time.Now().UTC()).Exec(ctx); err != nil {
		return nil, fmt.Errorf("cancel job: %w", err)
	}
	c, err := r.client()
	if err != nil {
		return nil, err
	}
	if _, err := c.JobCancel(ctx, rec.RiverID); err != nil && !errors.Is(err, rivertype.ErrNotFound) {
		return nil, fmt.Errorf("cancel job: %w", err)
	}
	if !in.State.Finished() && in.State != StateRunning {
		// It never ran again: it ends here.
		now := time.Now().UTC()
		_ = r.d.Client.Job.UpdateOneID(id).SetOutcome(OutcomeCancelled).SetFinishedAt(now).Exec(ctx)
	}
	r.publish(ctx, rec)
	return r.Get(ctx, id)
}

// ErrNotRetryable is returned by Retry for a job that has not finished.
var ErrNotRetryable = errors.New("only a finished job can be retried")

// Retry runs a finished job again, from its first step.
func (r *Runner) Retry(ctx context.Context, id string) (*Info, error) {
	rec, err := r.d.Client.Job.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read job: %w", err)
	}
	in, err := r.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if !in.State.Finished() {
		return nil, ErrNotRetryable
	}
	c, err := r.client()
	if err != nil {
		return nil, err
	}
	if _, err := c.JobRetry(ctx, rec.RiverID); err != nil {
		if errors.Is(err, rivertype.ErrNotFound) {
			return nil, fmt.Errorf("the queue no longer holds job %s: %w", id, ErrNotRetryable)
		}
		return nil, fmt.Errorf("retry job: %w", err)
	}
	err = r.d.Client.Job.UpdateOneID(id).SetCancelRequested(false).SetOutcome("").SetLastError("").
		ClearFinishedAt().SetProgress(0).SetStep("").SetUpdatedAt(time.Now().UTC()).Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("retry job: %w", err)
	}
	r.publish(ctx, rec)
	return r.Get(ctx, id)
}

// Wait returns job id once it has finished, looking every poll, or ctx's
// error if ctx ends first. onProgress, when set, sees each look.
func (r *Runner) Wait(ctx context.Context, id string, poll time.Duration, onProgress func(*Info)) (*Info, error) {
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		in, err := r.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		if onProgress != nil {
			onProgress(in)
		}
		if in.State.Finished() {
			return in, nil
		}
		select {
		case <-ctx.Done():
			return in, ctx.Err()
		case <-t.C:
		}
	}
}

// LatestOf returns the newest job of each subject, by subject; subjects
// that started none are absent. It costs two statements whatever the
// number of subjects (up to 500 a statement), so that a list of objects
// can show each one's latest job.
func (r *Runner) LatestOf(ctx context.Context, subjects []string) (map[string]*Info, error) {
	out := map[string]*Info{}
	for len(subjects) > 0 {
		part := subjects[:min(len(subjects), 500)]
		subjects = subjects[len(part):]
		recs, err := r.d.Client.Job.Query().Where(job.SubjectIn(part...), func(s *sql.Selector) {
			// The newest of its subject: no job of the subject is newer.
			t := sql.Table(job.Table).As("newer")
			s.Where(sql.Not(sql.Exists(sql.Select(t.C(job.FieldID)).From(t).Where(sql.And(
				sql.ColumnsEQ(t.C(job.FieldSubject), s.C(job.FieldSubject)),
				sql.Or(
					sql.ColumnsGT(t.C(job.FieldCreatedAt), s.C(job.FieldCreatedAt)),
					sql.And(sql.ColumnsEQ(t.C(job.FieldCreatedAt), s.C(job.FieldCreatedAt)), sql.ColumnsGT(t.C(job.FieldID), s.C(job.FieldID))),
				),
			)))))
		}).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("list jobs: %w", err)
		}
		infos, err := r.infos(ctx, recs)
		if err != nil {
			return nil, err
		}
		for _, in := range infos {
			out[in.Subject] = in
		}
	}
	return out, nil
}

// attemptMessage is what a failed attempt says, without the prefix the
// queue puts before the error of a job that may not be retried (River's
// JobCancelError names a Go type, which means nothing to a reader).
func attemptMessage(recorded string) string {
	return strings.TrimPrefix(recorded, "JobCancelError: ")
}
