package loaders

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"

	"quire/ent"
	"quire/ent/collection"
	"quire/ent/sitespace"
	"quire/ent/space"
)

// The reads below find the spaces of sites' site spaces, and the
// collections above them, through the sites' ids alone: they need neither
// the sites nor their site spaces first, so that a site's read can send
// them at the same time as the statements that read those.

// quoted returns the columns of table, qualified and quoted as both
// databases read them.
func quoted(table string, columns []string) string {
	cols := make([]string, len(columns))
	for i, c := range columns {
		cols[i] = `"` + table + `"."` + c + `"`
	}
	return strings.Join(cols, ", ")
}

// spaceIDsOfSitesQuery selects the ids of the spaces the site spaces of the
// sites named by its parameters (written {{in}}) show.
var spaceIDsOfSitesQuery = `SELECT "` + sitespace.Table + `"."` + sitespace.FieldSpaceID + `" FROM "` + sitespace.Table +
	`" WHERE "` + sitespace.Table + `"."` + sitespace.FieldSiteID + `" IN ({{in}})`

// spacesOfSitesQuery reads those spaces, deleted ones included (a site
// space shows what its space is, and SpaceByID reads them so too).
var spacesOfSitesQuery = `SELECT ` + quoted(space.Table, space.Columns) + ` FROM "` + space.Table + `" WHERE "` + space.Table +
	`"."` + space.FieldID + `" IN (` + spaceIDsOfSitesQuery + `)`

// collectionsAboveSitesQuery reads every collection above those spaces,
// however deep, in one recursive statement (UNION, not UNION ALL: a
// collection reached twice is kept once, which also ends the recursion).
var collectionsAboveSitesQuery = `WITH RECURSIVE "above"("id") AS (SELECT "` + space.Table + `"."` + space.FieldParentID +
	`" FROM "` + space.Table + `" WHERE "` + space.Table + `"."` + space.FieldParentID + `" IS NOT NULL AND "` + space.Table +
	`"."` + space.FieldID + `" IN (` + spaceIDsOfSitesQuery + `) UNION SELECT "` + collection.Table + `"."` + collection.FieldParentID +
	`" FROM "` + collection.Table + `" JOIN "above" ON "` + collection.Table + `"."` + collection.FieldID + `" = "above"."id" WHERE "` +
	collection.Table + `"."` + collection.FieldParentID + `" IS NOT NULL) SELECT ` + quoted(collection.Table, collection.Columns) +
	` FROM "` + collection.Table + `" WHERE "` + collection.Table + `"."` + collection.FieldID + `" IN (SELECT "id" FROM "above")`

// inList fills the {{in}} of a statement with a placeholder per id. Both
// databases take $n (SQLite as named parameters, bound by position).
func inList(query string, ids []string) (string, []any) {
	if len(ids) == 1 {
		// The usual case, a site's read: the same text every time.
		return oneSite(query), []any{ids[0]}
	}
	marks := make([]string, len(ids))
	args := make([]any, len(ids))
	for i, id := range ids {
		marks[i] = fmt.Sprintf("$%d", i+1)
		args[i] = id
	}
	return strings.ReplaceAll(query, "{{in}}", strings.Join(marks, ", ")), args
}

// readBySites sends query for a chunk of site ids at a time and reads its
// rows with scan, a client's ScanRows.
func readBySites[T any](ctx context.Context, client *ent.Client, query string, siteIDs []string, scan func(*sql.Rows) ([]T, error)) ([]T, error) {
	var out []T
	ids := distinct(siteIDs)
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), maxBatch)]
		ids = ids[len(chunk):]
		text, args := inList(query, chunk)
		rows, err := client.QueryContext(ctx, text, args...)
		if err != nil {
			return nil, err
		}
		got, err := scan(rows)
		rows.Close()
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}

var oneSiteTexts sync.Map // query → its text for one site

func oneSite(query string) string {
	if t, ok := oneSiteTexts.Load(query); ok {
		return t.(string)
	}
	t := strings.ReplaceAll(query, "{{in}}", "$1")
	oneSiteTexts.Store(query, t)
	return t
}

func distinct(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// FetchSpacesOfSites loads the spaces of every site space of the sites
// into SpaceByID, in one statement (per maxBatch sites). Spaces cached
// already are kept. On failure nothing is kept and the error is returned.
func (l *Loaders) FetchSpacesOfSites(ctx context.Context, siteIDs []string) error {
	spaces, err := readBySites(ctx, l.client, spacesOfSitesQuery, siteIDs, l.client.Space.ScanRows)
	if err != nil {
		return fmt.Errorf("load the spaces of sites: %w", err)
	}
	for _, s := range spaces {
		if _, ok := l.SpaceByID.cache.Get(ctx, s.ID); !ok {
			l.SpaceByID.cache.Set(ctx, s.ID, func() (*ent.Space, error) { return s, nil })
		}
	}
	return nil
}

// FetchCollectionsAboveSites loads into CollectionByID every collection
// above the spaces of the sites' site spaces, up to the organization, in
// one statement (per maxBatch sites). On failure nothing is kept and the
// error is returned.
func (l *Loaders) FetchCollectionsAboveSites(ctx context.Context, siteIDs []string) error {
	cols, err := readBySites(ctx, l.client, collectionsAboveSitesQuery, siteIDs, l.client.Collection.ScanRows)
	if err != nil {
		return fmt.Errorf("load the collections above sites: %w", err)
	}
	for _, c := range cols {
		if _, ok := l.CollectionByID.cache.Get(ctx, c.ID); !ok {
			l.CollectionByID.cache.Set(ctx, c.ID, func() (*ent.Collection, error) { return c, nil })
		}
	}
	return nil
}
