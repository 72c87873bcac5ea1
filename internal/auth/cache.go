package auth

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"quire/ent"
	"quire/internal/db"
)

// The caller cache. Every request looks up its token's caller: on
// PostgreSQL that is a round trip, and the largest statement of a small
// read. A process keeps each caller it looked up for CallerTTL and serves
// the requests of the same token from it, until anything the lookup reads
// changes. The database handle announces every such change, made by any
// engine or command through ent, deletions that cascade to those rows
// included (see db.AccessChanged), and the cache follows them with a db.Hearing:
//
//   - a change committed through this process forgets every cached caller
//     once it is committed (db.DB.AccessChanges);
//   - a change by another process is announced on db.AccessChannel in its
//     transaction (NOTIFY, delivered at its commit); each process listens
//     and forgets every cached caller when told;
//   - while the listening connection is down (and until it is first up),
//     nothing is served from the cache, and on reconnection everything
//     cached before is forgotten, since announcements may have been missed.
//
// So a revoked token, a removed member, a changed role or grant, a deleted
// team, space, collection or organization is seen by every replica at
// once, as far as they can hear each other, and after at most CallerTTL in
// any case. Unknown tokens are never cached.
const (
	CallerTTL = 5 * time.Second
	// maxCachedCallers bounds the cache; past it, it starts again empty.
	maxCachedCallers = 10_000
)

// CallerCache keeps recently looked-up callers. A nil *CallerCache looks
// every caller up.
type CallerCache struct {
	now func() time.Time
	ttl time.Duration
	// changes is the generation of access changes; an entry is good only
	// for the generation it was read in.
	changes *db.Hearing
	mu      sync.RWMutex
	m       map[string]cachedCaller
}

type cachedCaller struct {
	c       *Caller
	gen     uint64
	expires time.Time
}

// NewCallerCache returns a cache of the callers of d's tokens, kept for
// ttl (CallerTTL when not positive), or nil when d is not PostgreSQL
// (SQLite answers a lookup in-process, without a round trip, and its
// processes could not hear each other). Close stops it.
func NewCallerCache(d *db.DB, log *slog.Logger, ttl time.Duration) *CallerCache {
	if d == nil || d.Dialect != "postgres" {
		return nil
	}
	if ttl <= 0 {
		ttl = CallerTTL
	}
	return &CallerCache{now: time.Now, ttl: ttl, m: map[string]cachedCaller{}, changes: d.Hear(db.Access, log)}
}

// Sync returns once the cache has heard every access change committed
// before the call, by another process too (see db.Hearing.Sync). Tests
// use it to ask a second process at the right time.
// Errors: ctx's, and the database's.
func (c *CallerCache) Sync(ctx context.Context) error {
	if c == nil {
		return nil
	}
	return c.changes.Sync(ctx)
}

// Ready is closed once the cache serves callers: when its notification
// connection is first up (until then every caller is looked up). A nil
// cache, which never serves, is ready at once.
func (c *CallerCache) Ready() <-chan struct{} {
	if c == nil {
		return (*db.Hearing)(nil).Ready()
	}
	return c.changes.Ready()
}

// Close stops listening and serving from the cache.
func (c *CallerCache) Close() {
	if c != nil {
		c.changes.Close()
	}
}

// Forget drops every cached caller.
func (c *CallerCache) Forget() { c.changes.Forget() }

// Forgets is how many times the cache has dropped every caller (0 for a
// nil cache).
func (c *CallerCache) Forgets() uint64 {
	if c == nil {
		return 0
	}
	return c.changes.Forgets()
}

// Lookup is LookupCaller, served from the cache when it may be. The caller
// returned is the requester's own copy.
func (c *CallerCache) Lookup(ctx context.Context, client *ent.Client, secret string) (*Caller, error) {
	if c == nil {
		return LookupCaller(ctx, client, secret)
	}
	gen, serving := c.changes.Generation()
	if !serving {
		return LookupCaller(ctx, client, secret)
	}
	if secret == "" || len(secret) > 200 {
		return nil, nil
	}
	key := Hash(secret)
	now := c.now()
	c.mu.RLock()
	e, ok := c.m[key]
	c.mu.RUnlock()
	if ok && e.gen == gen && now.Before(e.expires) {
		return e.c.copy(), nil
	}
	caller, err := LookupCaller(ctx, client, secret)
	if err != nil || caller == nil {
		return caller, err
	}
	c.mu.Lock()
	if len(c.m) >= maxCachedCallers {
		clear(c.m)
	}
	// Read in generation gen: a change committed since makes it stale.
	c.m[key] = cachedCaller{c: caller.copy(), gen: gen, expires: now.Add(c.ttl)}
	c.mu.Unlock()
	return caller, nil
}

// copy returns a caller whose user, memberships and organizations are
// copies, so that a request changing what it was given changes nothing of
// another's.
func (c *Caller) copy() *Caller {
	out := *c
	u := *c.User
	out.User = &u
	out.Memberships = make([]*ent.Member, len(c.Memberships))
	for i, m := range c.Memberships {
		cp := *m
		out.Memberships[i] = &cp
	}
	out.Organizations = make([]*ent.Organization, len(c.Organizations))
	for i, o := range c.Organizations {
		cp := *o
		out.Organizations[i] = &cp
	}
	return &out
}
