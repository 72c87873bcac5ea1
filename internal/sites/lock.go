package sites

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"quire/ent"
	"quire/ent/site"
)

// lockSite serializes structure writes to one site on PostgreSQL, so that
// concurrent transactions do not read the same siblings and choose the same
// position or path. SQLite transactions already hold the write lock.
func lockSite(ctx context.Context, tx *ent.Tx, siteID string) error {
	_, err := tx.Site.Query().Unique(false).Where(site.ID(siteID), func(s *entsql.Selector) {
		if s.Dialect() == dialect.Postgres {
			s.ForUpdate()
		}
	}).IDs(ctx)
	if err != nil {
		return fmt.Errorf("lock site: %w", err)
	}
	return nil
}
