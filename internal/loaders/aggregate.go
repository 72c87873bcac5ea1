package loaders

import (
	"context"

	"quire/ent"
)

// SiteAggregate is a site with the parts of its aggregate that a request
// read into its loaders, for the sites engine to keep between requests
// (sites.Kept) and to give to the next request that reads the same site.
// Its values are shared by the requests given them: nobody changes them.
type SiteAggregate struct {
	Site       *ent.Site
	Sections   []*ent.SiteSection
	Groups     []*ent.SiteSectionGroup
	SiteSpaces []*ent.SiteSpace
	// ShareLinks are set when HasShareLinks.
	ShareLinks    []*ent.SiteShareLink
	HasShareLinks bool
	// Spaces are those of the site spaces, set when HasSpaces.
	Spaces    []*ent.Space
	HasSpaces bool
	// Collections are every collection above those spaces, set when
	// HasCollections.
	Collections    []*ent.Collection
	HasCollections bool
}

// resolved returns the value of key in a loader's cache once its load has
// finished, and whether it is there without error.
func resolved[V any](ctx context.Context, l *Loader[V], key string) (V, bool) {
	th, ok := l.cache.Get(ctx, key)
	if !ok {
		var zero V
		return zero, false
	}
	v, err := th()
	return v, err == nil
}

// TakeSite returns what the request's loaders hold of a site's aggregate:
// the site and its structure, with its share links, spaces and the
// collections above them when asked for (ok is false when any of these is
// not held). Call it once the reads of those parts have returned.
func (l *Loaders) TakeSite(ctx context.Context, siteID string, links, spaces, collections bool) (SiteAggregate, bool) {
	var a SiteAggregate
	var ok [4]bool
	a.Site, ok[0] = resolved(ctx, l.Sites.SiteByID, siteID)
	a.Sections, ok[1] = resolved(ctx, l.Sites.SectionsBySite, siteID)
	a.Groups, ok[2] = resolved(ctx, l.Sites.GroupsBySite, siteID)
	a.SiteSpaces, ok[3] = resolved(ctx, l.Sites.SiteSpacesBySite, siteID)
	if !ok[0] || !ok[1] || !ok[2] || !ok[3] {
		return SiteAggregate{}, false
	}
	if links {
		if a.ShareLinks, a.HasShareLinks = resolved(ctx, l.Sites.ShareLinksBySite, siteID); !a.HasShareLinks {
			return SiteAggregate{}, false
		}
	}
	if spaces || collections {
		a.Spaces = make([]*ent.Space, 0, len(a.SiteSpaces))
		seen := make(map[string]bool, len(a.SiteSpaces))
		for _, ss := range a.SiteSpaces {
			if seen[ss.SpaceID] {
				continue
			}
			seen[ss.SpaceID] = true
			sp, ok := resolved(ctx, l.SpaceByID, ss.SpaceID)
			if !ok {
				return SiteAggregate{}, false
			}
			a.Spaces = append(a.Spaces, sp)
		}
		a.HasSpaces = true
	}
	if collections {
		// Every collection above the spaces, as the read found them.
		seen := map[string]bool{}
		for _, sp := range a.Spaces {
			for parent := sp.ParentID; parent != nil && !seen[*parent]; {
				c, ok := resolved(ctx, l.CollectionByID, *parent)
				if !ok {
					return SiteAggregate{}, false
				}
				seen[c.ID] = true
				a.Collections = append(a.Collections, c)
				parent = c.ParentID
			}
		}
		a.HasCollections = true
	}
	return a, true
}

// PrimeSite gives the request's loaders a site's aggregate that an earlier
// request read, as if this request had read it; values the request holds
// already are kept.
func (l *Loaders) PrimeSite(ctx context.Context, a SiteAggregate) {
	id := a.Site.ID
	prime(ctx, l.Sites.SiteByID, id, a.Site)
	prime(ctx, l.Sites.SectionsBySite, id, a.Sections)
	prime(ctx, l.Sites.GroupsBySite, id, a.Groups)
	prime(ctx, l.Sites.SiteSpacesBySite, id, a.SiteSpaces)
	if a.HasShareLinks {
		prime(ctx, l.Sites.ShareLinksBySite, id, a.ShareLinks)
	}
	for _, sp := range a.Spaces {
		prime(ctx, l.SpaceByID, sp.ID, sp)
	}
	for _, c := range a.Collections {
		prime(ctx, l.CollectionByID, c.ID, c)
	}
}

func prime[V any](ctx context.Context, l *Loader[V], key string, v V) {
	if _, ok := l.cache.Get(ctx, key); !ok {
		l.cache.Set(ctx, key, func() (V, error) { return v, nil })
	}
}
