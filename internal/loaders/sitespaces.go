package loaders

import (
	"context"

	entsql "entgo.io/ent/dialect/sql"

	"quire/ent"
	"quire/ent/collection"
	"quire/ent/predicate"
	"quire/ent/sitespace"
	"quire/ent/space"
)

// FetchSpacesOfSite loads the spaces of every site space of a site into
// SpaceByID, in one statement that finds them through the site's id: it
// needs neither the site nor its site spaces first, so a nested read can
// send it at the same time as the statements that read those. Spaces
// loaded before are read again and replaced by the same rows; a failure
// leaves the loader as it was (the spaces are then loaded by id, where the
// error shows).
func (l *Loaders) FetchSpacesOfSite(ctx context.Context, siteID string) {
	spaces, err := read(ctx, l.client, spacesOfSiteStmt, siteID, l.client.Space.ScanRows)
	if err != nil {
		return
	}
	for _, s := range spaces {
		if _, ok := l.SpaceByID.cache.Get(ctx, s.ID); !ok {
			l.SpaceByID.cache.Set(ctx, s.ID, func() (*ent.Space, error) { return s, nil })
		}
	}
}

// spacesOfSite selects the spaces a site's site spaces show.
func spacesOfSite(siteID string) predicate.Space {
	return func(s *entsql.Selector) {
		t := entsql.Table(sitespace.Table)
		s.Where(entsql.In(s.C(space.FieldID),
			entsql.Select(t.C(sitespace.FieldSpaceID)).From(t).Where(entsql.EQ(t.C(sitespace.FieldSiteID), siteID))))
	}
}

// collectionsAboveSite selects the collections that hold the spaces of a
// site's site spaces, and the collections holding those.
func collectionsAboveSite(siteID string) predicate.Collection {
	return func(s *entsql.Selector) {
		up := entsql.Table(collection.Table).As("up")
		s.Where(entsql.Or(
			entsql.In(s.C(collection.FieldID), parentsOfSiteSpaces(siteID)),
			entsql.In(s.C(collection.FieldID), entsql.Select(up.C(collection.FieldParentID)).From(up).
				Where(entsql.In(up.C(collection.FieldID), parentsOfSiteSpaces(siteID)))),
		))
	}
}

// parentsOfSiteSpaces selects the parent ids of the spaces of a site.
func parentsOfSiteSpaces(siteID string) *entsql.Selector {
	t := entsql.Table(space.Table)
	sel := entsql.Select(t.C(space.FieldParentID)).From(t)
	spacesOfSite(siteID)(sel)
	return sel
}

// FetchCollectionsAboveSite loads into CollectionByID the collections that
// hold the spaces of a site's site spaces, and the collections holding
// those, in one statement that, like FetchSpacesOfSite, needs nothing read
// first. Collections further up are left to be loaded by id.
func (l *Loaders) FetchCollectionsAboveSite(ctx context.Context, siteID string) {
	cols, err := read(ctx, l.client, collectionsAboveSiteStmt, siteID, l.client.Collection.ScanRows)
	if err != nil {
		return
	}
	for _, c := range cols {
		if _, ok := l.CollectionByID.cache.Get(ctx, c.ID); !ok {
			l.CollectionByID.cache.Set(ctx, c.ID, func() (*ent.Collection, error) { return c, nil })
		}
	}
}
