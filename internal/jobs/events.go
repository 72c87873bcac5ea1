package jobs

import (
	"context"

	"github.com/riverqueue/river"

	"quire/ent"
	"quire/ent/job"
	"quire/internal/events"
)

// Publisher sends events (package events); Config.Events.
type Publisher interface {
	Publish(ctx context.Context, tx *ent.Tx, ev events.Event) error
}

// publish tells subscribers that a job changed: it started, progressed,
// finished, or was cancelled or retried. Jobs of no organization (the
// system's own) are seen by no user and tell nobody. A failure to publish
// is logged: the job's work matters more than its watchers.
func (r *Runner) publish(ctx context.Context, rec *ent.Job) {
	if r.cfg.Events == nil || rec == nil || rec.OrganizationID == "" {
		return
	}
	ev := events.Event{Kind: events.JobProgress, Organization: rec.OrganizationID, Space: rec.SpaceID, Object: rec.ID}
	if err := r.cfg.Events.Publish(context.WithoutCancel(ctx), nil, ev); err != nil {
		r.cfg.Log.Warn("publish job event", "job", rec.ID, "error", err.Error())
	}
}

// finishedKinds are the queue's events after which a job's state has
// changed for good or for a while: the queue has recorded it by then
// (unlike at the end of a handler, when the job still shows running).
var finishedKinds = []river.EventKind{river.EventKindJobCompleted, river.EventKindJobFailed,
	river.EventKindJobCancelled, river.EventKindJobSnoozed}

// watchQueue publishes an event for each job of ch (the queue's events of
// the jobs this process works) until ch is closed.
func (r *Runner) watchQueue(ctx context.Context, ch <-chan *river.Event) {
	for ev := range ch {
		if ev == nil || ev.Job == nil {
			continue
		}
		rec, err := r.d.Client.Job.Query().Where(job.RiverID(ev.Job.ID)).Only(ctx)
		if err != nil {
			continue // a job inserted by the queue itself, not yet recorded
		}
		r.publish(ctx, rec)
	}
}
