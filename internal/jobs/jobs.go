// Package jobs runs Quire's background work as durable jobs in the
// database (Runner), claimed so that each runs once when several processes
// share it, and holds the jobs of its own: the trash sweep.
package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"quire/ent"
	"quire/ent/space"
	"quire/internal/catalog"
	"quire/internal/metrics"
)

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

// KindSweepTrash is the periodic job that purges spaces deleted more than
// catalog.Retention ago.
const KindSweepTrash = "trash.sweep"

// SweepTrash returns the handler of KindSweepTrash: it purges the expired
// spaces (as the system) and records how many spaces are left in the
// trash in m, when set.
func SweepTrash(client *ent.Client, purger SpacePurger, m *metrics.Metrics, log *slog.Logger) Handler {
	return func(ctx context.Context, run Run) error {
		n, err := PurgeDeletedSpaces(NewContext(ctx, client, nil), client, purger, time.Now().UTC())
		if n > 0 {
			log.Info("purged deleted spaces", "count", n)
		}
		if m != nil {
			if left, qerr := client.Space.Query().Where(space.DeletedAtNotNil()).Count(ctx); qerr == nil {
				m.JobsPending.WithLabelValues(KindSweepTrash).Set(float64(left))
			}
		}
		return err
	}
}
