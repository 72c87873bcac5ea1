package sites

import (
	"context"
	"sync"

	"quire/internal/db"
	"quire/internal/loaders"
)

// Kept keeps the aggregates of sites that requests read (the site, its
// structure, its share links, the spaces of its site spaces and the
// collections above them) until anything in the database changes, so that
// the next read of the same site, by any caller, reads none of it again.
// The caller's permissions are checked on every read as before: what is
// kept is the rows, not what anyone may see of them.
//
// Every mutation made through ent is a content change (db.Content) but
// for comments, change requests, jobs and the like, which no aggregate
// holds. A change committed by this process moves the hearing's
// generation on at its commit, before the request that made it answers;
// one committed by another process is heard through LISTEN on PostgreSQL.
// An aggregate is good for the generation it was read in only, and
// nothing is kept while the hearing does not serve.
// DefaultKeptSites is how many sites' aggregates a process keeps by
// default.
const DefaultKeptSites = 256

// maxKeptRows bounds the rows of one kept aggregate (structure, spaces and
// collections): a larger site is read every time, so that what is kept
// stays under a few megabytes a site.
const maxKeptRows = 5000

type Kept struct {
	changes *db.Hearing
	max     int
	mu      sync.RWMutex
	gen     uint64
	m       map[string]loaders.SiteAggregate
}

// NewKept returns a keeper of at most max sites' aggregates that follows
// changes; nil (keeping nothing) when max is not positive or changes is
// nil.
func NewKept(changes *db.Hearing, max int) *Kept {
	if changes == nil || max <= 0 {
		return nil
	}
	return &Kept{changes: changes, max: max, m: map[string]loaders.SiteAggregate{}}
}

// Keep makes the engine keep the aggregates of the sites it reads (nil:
// keep none).
func (s *Service) Keep(k *Kept) { s.kept = k }

// generation is the current generation, and whether aggregates may be
// kept and served in it.
func (k *Kept) generation() (uint64, bool) {
	if k == nil {
		return 0, false
	}
	return k.changes.Generation()
}

// get returns the aggregate of a site kept in generation gen that holds
// what want names.
func (k *Kept) get(siteID string, gen uint64, want Want) (loaders.SiteAggregate, bool) {
	k.mu.RLock()
	a, ok := k.m[siteID]
	current := k.gen == gen
	k.mu.RUnlock()
	if !ok || !current {
		return loaders.SiteAggregate{}, false
	}
	if (want.ShareLinks && !a.HasShareLinks) || (want.Spaces && !a.HasSpaces) || (want.Collections && !a.HasCollections) {
		return loaders.SiteAggregate{}, false
	}
	return a, true
}

// put keeps a site's aggregate, read in generation gen. One read in an
// older generation is dropped; the first of a newer one drops every
// aggregate kept before.
func (k *Kept) put(a loaders.SiteAggregate, gen uint64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	switch {
	case gen < k.gen:
		return
	case gen > k.gen:
		clear(k.m)
		k.gen = gen
	case len(k.m) >= k.max:
		// Bounded: past max sites it starts again empty.
		clear(k.m)
	}
	k.m[a.Site.ID] = a
}

// primeKept gives the request's loaders the kept aggregate of a site, when
// there is one for the current generation holding what want names, and
// marks its parts read. It returns the generation the request reads in,
// and whether what it reads may be kept.
func (s *Service) primeKept(ctx context.Context, siteID string, want Want) (gen uint64, keep bool) {
	gen, serving := s.kept.generation()
	if !serving {
		return 0, false
	}
	a, ok := s.kept.get(siteID, gen, want)
	if !ok {
		return gen, true
	}
	l := loaders.For(ctx)
	l.PrimeSite(ctx, a)
	done := func() error { return nil }
	l.Sites.Once(siteID, partStructure, done) //nolint:errcheck // returns nil
	if a.HasShareLinks {
		l.Sites.Once(siteID, partShareLinks, done) //nolint:errcheck // returns nil
	}
	if a.HasSpaces {
		l.Sites.Once(siteID, partSpaces, done) //nolint:errcheck // returns nil
	}
	if a.HasCollections {
		l.Sites.Once(siteID, partCollections, done) //nolint:errcheck // returns nil
	}
	return gen, false
}

// keepRead keeps what the request read of a site's aggregate in gen.
func (s *Service) keepRead(ctx context.Context, siteID string, want Want, gen uint64) {
	wantsStructure := want.Structure || want.Spaces || want.Collections
	if !wantsStructure {
		return
	}
	l := loaders.For(ctx)
	a, ok := l.TakeSite(ctx, siteID, want.ShareLinks && l.Sites.Done(siteID, partShareLinks), want.Spaces, want.Collections)
	rows := len(a.Sections) + len(a.Groups) + len(a.SiteSpaces) + len(a.ShareLinks) + len(a.Spaces) + len(a.Collections)
	if ok && rows <= maxKeptRows {
		s.kept.put(a, gen)
	}
}
