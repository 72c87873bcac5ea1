package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"entgo.io/ent/dialect"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"quire/ent/job"
	"quire/internal/textcut"
)

// StoppedMessage starts the error recorded on a job whose process stopped
// while working it.
const StoppedMessage = "the process working it stopped"

// rowMeta is what the rescue reads of a queue row's metadata.
type rowMeta struct {
	Heartbeat         string     `json:"quire:heartbeat"`
	CancelAttemptedAt *time.Time `json:"cancel_attempted_at"`
	// RescuedAttempt marks the attempt that a rescue ended: a row available
	// again at that attempt waits to be retried (Info shows it retrying,
	// not pending).
	RescuedAttempt *int `json:"quire:rescued_attempt"`
}

func readMeta(row *rivertype.JobRow) rowMeta {
	var m rowMeta
	_ = json.Unmarshal(row.Metadata, &m) // metadata that is not ours reads empty
	return m
}

// maintain writes this process's heartbeats and rescues the jobs of
// stopped processes, at once and then every HeartbeatInterval, until ctx
// ends; done is closed then.
func (r *Runner) maintain(ctx context.Context, done chan<- struct{}) {
	defer close(done)
	t := time.NewTicker(r.cfg.HeartbeatInterval)
	defer t.Stop()
	for {
		r.beat(ctx)
		if _, err := r.rescue(ctx); err != nil && ctx.Err() == nil {
			r.cfg.Log.Warn("rescue jobs of stopped processes", "error", err.Error())
		}
		r.passes.Add(1)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// rescue looks at every running job and gives back to the queue those
// whose process stopped: retried, as after a failed attempt (with the
// retry policy's wait), or failed when it has no attempts left, or
// cancelled when someone had asked to cancel it. It returns how many it
// rescued.
func (r *Runner) rescue(ctx context.Context) (int, error) {
	c, err := r.client()
	if err != nil {
		return 0, err
	}
	// Running jobs number at most the processes' workers.
	res, err := c.JobList(ctx, river.NewJobListParams().States(rivertype.JobStateRunning).First(1000))
	if err != nil {
		return 0, fmt.Errorf("list running jobs: %w", err)
	}
	n := 0
	for _, row := range res.Jobs {
		why := r.abandoned(row, time.Now().UTC())
		if why == "" {
			continue
		}
		ok, err := r.rescueRow(ctx, row, why)
		if err != nil {
			return n, fmt.Errorf("rescue job %d: %w", row.ID, err)
		}
		if ok {
			n++
		}
	}
	return n, nil
}

// abandoned tells why the running job row belongs to a process that
// stopped, or "" when it may be alive.
func (r *Runner) abandoned(row *rivertype.JobRow, now time.Time) string {
	var owner string
	if len(row.AttemptedBy) > 0 {
		owner = row.AttemptedBy[len(row.AttemptedBy)-1]
	}
	if owner == r.id.String() {
		return "" // this process's own: its leases say whether it works it
	}
	if o, ok := parseIdentity(owner); ok && r.id.goneFrom(o) {
		return fmt.Sprintf("process %d on %s exited", o.pid, o.host)
	}
	last := time.Time{}
	if row.AttemptedAt != nil {
		last = *row.AttemptedAt
	}
	if hb, err := time.Parse(time.RFC3339Nano, readMeta(row).Heartbeat); err == nil && hb.After(last) {
		last = hb
	}
	if silent := now.Sub(last); silent > r.cfg.StaleAfter {
		return fmt.Sprintf("no heartbeat for %s", silent.Round(time.Second))
	}
	return ""
}

// Rescue statements: the row changes only if it is still running the
// attempt, with the heartbeat, that the rescue read, so that a job that
// another process rescued and took again, or whose process spoke up, is
// left alone. As River's own rescue does, they append the error and count
// the rescue in river:rescue_count.
const (
	rescueSQLite = `UPDATE river_job SET state = ?1, scheduled_at = ?2, finalized_at = ?3,
	errors = jsonb(json_insert(json(coalesce(errors, jsonb('[]'))), '$[#]', json(?4))),
	metadata = jsonb_set(metadata,
		'$."river:rescue_count"', coalesce(json_extract(metadata, '$."river:rescue_count"'), 0) + 1,
		'$."quire:rescued_attempt"', ?6)
WHERE id = ?5 AND state = 'running' AND attempt = ?6 AND coalesce(json_extract(metadata, '$."quire:heartbeat"'), '') = ?7`
	rescuePostgres = `UPDATE river_job SET state = $1::river_job_state, scheduled_at = $2, finalized_at = $3,
	errors = array_append(errors, $4::jsonb),
	metadata = metadata || jsonb_build_object(
		'river:rescue_count', coalesce(CASE WHEN jsonb_typeof(metadata -> 'river:rescue_count') = 'number'
			THEN (metadata ->> 'river:rescue_count')::int END, 0) + 1,
		'quire:rescued_attempt', $8::int)
WHERE id = $5 AND state = 'running' AND attempt = $6 AND coalesce(metadata ->> 'quire:heartbeat', '') = $7`
)

// sqliteTime is how River stores times in SQLite; others do not compare.
const sqliteTime = "2006-01-02 15:04:05.000"

// rescueRow gives the job of row back to the queue (see rescue); it
// reports false when the row had changed since it was read.
func (r *Runner) rescueRow(ctx context.Context, row *rivertype.JobRow, why string) (bool, error) {
	now := time.Now().UTC()
	meta := readMeta(row)
	msg := StoppedMessage + " (" + why + ")"
	state, outcome, last := rivertype.JobStateAvailable, "", msg
	scheduled, finalized := r.nextRetry(row), (*time.Time)(nil)
	switch {
	case meta.CancelAttemptedAt != nil:
		state, outcome, scheduled, finalized = rivertype.JobStateCancelled, OutcomeCancelled, row.ScheduledAt, &now
	case row.Attempt >= row.MaxAttempts:
		state, outcome, scheduled, finalized = rivertype.JobStateDiscarded, OutcomeFailed, row.ScheduledAt, &now
		last = msg + ", and the job has no attempts left"
	}
	errJSON, err := json.Marshal(rivertype.AttemptError{At: now, Attempt: row.Attempt, Error: msg})
	if err != nil {
		return false, err
	}
	args := []any{string(state), scheduled.UTC(), nil, string(errJSON), row.ID, row.Attempt, meta.Heartbeat}
	if finalized != nil {
		args[2] = *finalized
	}
	q := rescuePostgres
	if r.d.Dialect != dialect.SQLite {
		args = append(args, row.Attempt) // $8: PostgreSQL types each parameter once
	} else {
		q = rescueSQLite
		args[1] = scheduled.UTC().Format(sqliteTime)
		if finalized != nil {
			args[2] = finalized.Format(sqliteTime)
		}
	}
	res, err := r.d.SQL.ExecContext(ctx, q, args...)
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	r.cfg.Log.Warn("rescued a job whose process stopped", "river_id", row.ID, "kind", row.Kind,
		"attempt", row.Attempt, "state", string(state), "why", why)

	// Quire's record: the error now, the outcome when the job ended here.
	rec, err := r.d.Client.Job.Query().Where(job.RiverID(row.ID)).Only(ctx)
	if err != nil {
		// A job the queue inserted itself has its record made when it runs.
		return true, nil
	}
	upd := r.d.Client.Job.UpdateOne(rec).SetLastError(textcut.Bytes(last, 2000)).SetUpdatedAt(now)
	if outcome != "" {
		upd.SetOutcome(outcome).SetFinishedAt(now)
	}
	if err := upd.Exec(ctx); err != nil {
		return true, fmt.Errorf("record rescued job: %w", err)
	}
	r.publish(ctx, rec)
	return true, nil
}

// nextRetry is when a rescued job runs again: as after a failed attempt.
func (r *Runner) nextRetry(row *rivertype.JobRow) time.Time {
	if p := retryPolicy(r.cfg.RetryBase); p != nil {
		return p.NextRetry(row)
	}
	return (&river.DefaultClientRetryPolicy{}).NextRetry(row)
}
