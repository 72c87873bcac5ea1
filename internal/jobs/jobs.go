// Package jobs runs Quire's background work. Each periodic job is claimed
// through a lease row, so that when several processes share one database
// only one of them runs it at a time.
package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"quire/ent"
	"quire/ent/joblease"
	"quire/ent/space"
	"quire/internal/catalog"
	"quire/internal/metrics"
)

// Claim tries to take the lease of job for holder until now+ttl. It returns
// true when this holder got it. The conditional update is atomic on both
// SQLite and PostgreSQL, so two processes never both win.
func Claim(ctx context.Context, client *ent.Client, job, holder string, now time.Time, ttl time.Duration) (bool, error) {
	var n int
	err := catalog.WithTx(ctx, client, func(tx *ent.Tx) error {
		// Make sure the row exists; losing this race is fine.
		err := tx.JobLease.Create().SetID(job).SetHolder("").SetLockedUntil(time.Unix(0, 0).UTC()).
			OnConflictColumns(joblease.FieldID).DoNothing().Exec(ctx)
		if err != nil && !ent.IsNotFound(err) {
			// DoNothing on an existing row reports "no rows" on some drivers.
			if _, qerr := tx.JobLease.Get(ctx, job); qerr != nil {
				return fmt.Errorf("create lease %s: %w", job, err)
			}
		}
		n, err = tx.JobLease.Update().
			Where(joblease.ID(job), joblease.Or(joblease.LockedUntilLT(now), joblease.Holder(holder))).
			SetHolder(holder).SetLockedUntil(now.Add(ttl)).Save(ctx)
		if err != nil {
			return fmt.Errorf("claim lease %s: %w", job, err)
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	return n == 1, nil
}

// SpacePurger deletes everything an engine stores under a space, in the
// transaction that then deletes the space row (the content engine's
// revisions, pages, files and change requests).
type SpacePurger interface {
	PurgeSpace(ctx context.Context, tx *ent.Tx, spaceID string) error
}

// PurgeDeletedSpaces removes, for good, spaces deleted more than
// catalog.Retention ago, with what purger stores under them, a space per
// transaction. It returns how many it removed.
func PurgeDeletedSpaces(ctx context.Context, client *ent.Client, purger SpacePurger, now time.Time) (int, error) {
	ids, err := client.Space.Query().Where(space.DeletedAtLT(now.Add(-catalog.Retention))).IDs(ctx)
	if err != nil {
		return 0, fmt.Errorf("find expired spaces: %w", err)
	}
	purged := 0
	for _, id := range ids {
		err := catalog.WithTx(ctx, client, func(tx *ent.Tx) error {
			if err := purger.PurgeSpace(ctx, tx, id); err != nil {
				return err
			}
			return tx.Space.DeleteOneID(id).Exec(ctx)
		})
		if err != nil {
			return purged, fmt.Errorf("purge space %s: %w", id, err)
		}
		purged++
	}
	return purged, nil
}

// Sweeper periodically purges expired spaces.
type Sweeper struct {
	Client *ent.Client
	// Purger deletes what is stored under each purged space.
	Purger   SpacePurger
	Holder   string
	Interval time.Duration
	Log      *slog.Logger
	Now      func() time.Time
	// Metrics, when set, receives the queue depth and run counts.
	Metrics *metrics.Metrics
}

// PurgeJob is the name of the purge job's lease.
const PurgeJob = "purge-deleted-spaces"

// RunOnce claims the sweep and, if this process got it, purges.
func (s *Sweeper) RunOnce(ctx context.Context) (ran bool, purged int, err error) {
	now := s.Now()
	defer s.observe(ctx, &ran, &err)
	ok, err := Claim(ctx, s.Client, PurgeJob, s.Holder, now, s.Interval)
	if err != nil || !ok {
		return false, 0, err
	}
	n, err := PurgeDeletedSpaces(NewContext(ctx, s.Client, nil), s.Client, s.Purger, now)
	return true, n, err
}

// observe records the run and the queue depth: spaces in the trash.
func (s *Sweeper) observe(ctx context.Context, ran *bool, err *error) {
	if s.Metrics == nil {
		return
	}
	result := "skipped"
	switch {
	case *err != nil:
		result = "failed"
	case *ran:
		result = "ran"
	}
	s.Metrics.JobRuns.WithLabelValues(PurgeJob, result).Inc()
	if n, qerr := s.Client.Space.Query().Where(space.DeletedAtNotNil()).Count(ctx); qerr == nil {
		s.Metrics.JobsPending.WithLabelValues(PurgeJob).Set(float64(n))
	}
}

// Run sweeps every Interval until ctx ends.
func (s *Sweeper) Run(ctx context.Context) {
	t := time.NewTicker(s.Interval)
	defer t.Stop()
	for {
		ran, n, err := s.RunOnce(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			s.Log.Error("purge deleted spaces", "error", err.Error())
		case ran && n > 0:
			s.Log.Info("purged deleted spaces", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
