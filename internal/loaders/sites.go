package loaders

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/graph-gophers/dataloader/v7"

	"quire/ent"
	"quire/ent/site"
	"quire/ent/sitesection"
	"quire/ent/sitesectiongroup"
	"quire/ent/sitesharelink"
	"quire/ent/sitespace"
)

// SiteLoaders load docs sites and their structure, a whole level per
// statement.
type SiteLoaders struct {
	SiteByID *Loader[*ent.Site]
	// The *BySite loaders return every row of a site, in no particular
	// order; callers order and filter.
	SectionsBySite   *Loader[[]*ent.SiteSection]
	GroupsBySite     *Loader[[]*ent.SiteSectionGroup]
	SiteSpacesBySite *Loader[[]*ent.SiteSpace]
	// ShareLinksBySite lets a request check share keys once per site,
	// not once per object whose URL it presents.
	ShareLinksBySite *Loader[[]*ent.SiteShareLink]

	client *ent.Client
	warmed *onceMap
}

type onceMap struct {
	mu sync.Mutex
	m  map[string]map[string]*onceErr // site id, then what
}

type onceErr struct {
	once sync.Once
	done atomic.Bool
	val  any
	err  error
}

// Once runs read the first time it is called for a site and what in a
// request; concurrent callers wait until it has run and get its error. It
// is the sites engine's way to read a part of a site's aggregate once,
// however many resolvers of the site's items ask for it.
func (l SiteLoaders) Once(siteID, what string, read func() error) error {
	o := l.once(siteID, what)
	o.once.Do(func() { o.err = read(); o.done.Store(true) })
	return o.err
}

// Done reports whether Once has run for a site and what, without error.
func (l SiteLoaders) Done(siteID, what string) bool {
	l.warmed.mu.Lock()
	o := l.warmed.m[siteID][what]
	l.warmed.mu.Unlock()
	return o != nil && o.done.Load() && o.err == nil
}

func (l SiteLoaders) once(siteID, what string) *onceErr {
	l.warmed.mu.Lock()
	if l.warmed.m[siteID] == nil {
		l.warmed.m[siteID] = map[string]*onceErr{}
	}
	o := l.warmed.m[siteID][what]
	if o == nil {
		o = &onceErr{}
		l.warmed.m[siteID][what] = o
	}
	l.warmed.mu.Unlock()
	return o
}

// Memo returns what compute returns the first time it is called for a site
// and key in the request; later and concurrent callers share that value
// (which they must not change) until ForgetSite. Without request loaders
// (admin commands, jobs) it computes every time.
func Memo[T any](ctx context.Context, siteID, key string, compute func() (T, error)) (T, error) {
	l := For(ctx)
	if l == nil {
		return compute()
	}
	o := l.Sites.once(siteID, key)
	o.once.Do(func() {
		v, err := compute()
		o.val, o.err = v, err
	})
	if o.err != nil {
		var zero T
		return zero, o.err
	}
	v, _ := o.val.(T)
	return v, nil
}

func newSiteLoaders(client *ent.Client, seq bool) SiteLoaders {
	return SiteLoaders{
		SiteByID: newLoader(func(ctx context.Context, keys []string) ([]*ent.Site, error) {
			return byIDs(ctx, client, siteByID, keys, client.Site.ScanRows, func() ([]*ent.Site, error) {
				return client.Site.Query().Where(site.IDIn(keys...)).All(ctx)
			})
		}, func(s *ent.Site) string { return s.ID }, "site", seq),
		SectionsBySite: newGroupLoader(func(ctx context.Context, keys []string) ([]*ent.SiteSection, error) {
			return client.SiteSection.Query().Where(sitesection.SiteIDIn(keys...)).All(ctx)
		}, func(s *ent.SiteSection) string { return s.SiteID }, "site sections", seq),
		GroupsBySite: newGroupLoader(func(ctx context.Context, keys []string) ([]*ent.SiteSectionGroup, error) {
			return client.SiteSectionGroup.Query().Where(sitesectiongroup.SiteIDIn(keys...)).All(ctx)
		}, func(g *ent.SiteSectionGroup) string { return g.SiteID }, "site section groups", seq),
		SiteSpacesBySite: newGroupLoader(func(ctx context.Context, keys []string) ([]*ent.SiteSpace, error) {
			return client.SiteSpace.Query().Where(sitespace.SiteIDIn(keys...)).All(ctx)
		}, func(s *ent.SiteSpace) string { return s.SiteID }, "site spaces", seq),
		ShareLinksBySite: newGroupLoader(func(ctx context.Context, keys []string) ([]*ent.SiteShareLink, error) {
			return client.SiteShareLink.Query().Where(sitesharelink.SiteIDIn(keys...)).All(ctx)
		}, func(l *ent.SiteShareLink) string { return l.SiteID }, "site share links", seq),
		client: client,
		warmed: &onceMap{m: map[string]map[string]*onceErr{}},
	}
}

// newGroupLoader builds a one-to-many loader: one statement per batch of
// parent keys, each key getting its (possibly empty) list of rows.
func newGroupLoader[T any](fetch func(context.Context, []string) ([]T, error), parent func(T) string, what string, seq bool) *Loader[[]T] {
	batch := func(ctx context.Context, keys []string) []*dataloader.Result[[]T] {
		out := make([]*dataloader.Result[[]T], len(keys))
		rows, err := fetch(ctx, keys)
		if err != nil {
			for i := range out {
				out[i] = &dataloader.Result[[]T]{Error: fmt.Errorf("load %s: %w", what, err)}
			}
			return out
		}
		by := make(map[string][]T, len(keys))
		for _, r := range rows {
			by[parent(r)] = append(by[parent(r)], r)
		}
		for i, k := range keys {
			out[i] = &dataloader.Result[[]T]{Data: by[k]}
		}
		return out
	}
	return newBatchLoader(batch, seq)
}

// LoadAll loads keys in one batch and waits for them: the Loads are queued
// from this goroutine, one after the other, before waiting. (The library's
// LoadMany starts a goroutine per key: under load they reach the loader
// over more than the batch window, and the batch is split.) errs is nil
// when every key loaded.
func LoadAll[K comparable, V any](ctx context.Context, l interface {
	Load(context.Context, K) dataloader.Thunk[V]
}, keys []K) ([]V, []error) {
	thunks := make([]dataloader.Thunk[V], len(keys))
	for i, k := range keys {
		thunks[i] = l.Load(ctx, k)
	}
	out := make([]V, len(keys))
	var errs []error
	for i, th := range thunks {
		v, err := th()
		out[i] = v
		if err != nil {
			if errs == nil {
				errs = make([]error, len(keys))
			}
			errs[i] = err
		}
	}
	return out, errs
}

// ForgetSite drops everything cached about a site after a write.
func (l *Loaders) ForgetSite(ctx context.Context, siteID string) {
	l.Sites.SiteByID.Clear(ctx, siteID)
	l.Sites.SectionsBySite.Clear(ctx, siteID)
	l.Sites.GroupsBySite.Clear(ctx, siteID)
	l.Sites.SiteSpacesBySite.Clear(ctx, siteID)
	l.Sites.ShareLinksBySite.Clear(ctx, siteID)
	l.Sites.warmed.mu.Lock()
	delete(l.Sites.warmed.m, siteID)
	l.Sites.warmed.mu.Unlock()
}
