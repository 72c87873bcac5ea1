package auth

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lib/pq"

	"quire/ent"
	"quire/ent/apitoken"
	"quire/ent/contentpermission"
	"quire/ent/member"
	"quire/ent/organization"
	"quire/ent/team"
	"quire/ent/teammember"
	"quire/ent/user"
	"quire/internal/db"
)

// The caller cache. Every request looks up its token's caller: on
// PostgreSQL that is a round trip, and the largest statement of a small
// read. A process keeps each caller it looked up for CallerTTL and serves
// the requests of the same token from it, until anything the lookup reads
// changes:
//
//   - a write to one of CallerTables through this process forgets every
//     cached caller once it is committed (the database handle watches its
//     statements, db.DB.Watch);
//   - such a write by another process is announced on CallerChannel in its
//     transaction (NOTIFY, delivered at its commit); each process listens
//     and forgets every cached caller when told;
//   - while the listening connection is down (and until it is first up),
//     nothing is served from the cache, and on reconnection everything
//     cached before is forgotten, since announcements may have been missed.
//
// So a revoked token, a removed member, a changed role or grant is seen by
// every replica at once, as far as they can hear each other, and after at
// most CallerTTL in any case. Unknown tokens are never cached.
const (
	CallerTTL     = 5 * time.Second
	CallerChannel = "quire_callers"
	// maxCachedCallers bounds the cache; past it, it starts again empty.
	maxCachedCallers = 10_000
)

// CallerTables are the tables LookupCaller reads.
var CallerTables = []string{user.Table, apitoken.Table, member.Table, organization.Table,
	contentpermission.Table, teammember.Table, team.Table}

// Every process announces its writes to the callers' tables, the
// administration commands included, so that servers forget what they keep.
func init() { db.AnnounceWrites(CallerTables, CallerChannel) }

// CallerCache keeps recently looked-up callers. A nil *CallerCache looks
// every caller up.
type CallerCache struct {
	now func() time.Time
	ttl time.Duration
	// gen changes whenever cached callers must be forgotten; an entry is
	// good only for the generation it was read in.
	gen    atomic.Uint64
	online atomic.Bool
	mu     sync.RWMutex
	m      map[string]cachedCaller
	stop   func()
	// ready is closed when the notification connection is first up.
	ready     chan struct{}
	readyOnce sync.Once
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
	c := &CallerCache{now: time.Now, ttl: ttl, m: map[string]cachedCaller{}, ready: make(chan struct{})}
	unwatch := d.Watch(CallerTables, CallerChannel, c.Forget)
	l := pq.NewListener(d.URL(), 50*time.Millisecond, 2*time.Second, func(ev pq.ListenerEventType, err error) {
		switch ev {
		case pq.ListenerEventConnected, pq.ListenerEventReconnected:
			c.Forget()
			c.online.Store(true)
			c.readyOnce.Do(func() { close(c.ready) })
		case pq.ListenerEventDisconnected, pq.ListenerEventConnectionAttemptFailed:
			c.online.Store(false)
			c.Forget()
			if log != nil && err != nil && ev == pq.ListenerEventDisconnected {
				log.Warn("caller cache: lost the notification connection; looking every caller up until it is back", "error", err.Error())
			}
		}
	})
	if err := l.Listen(CallerChannel); err != nil && err != pq.ErrChannelAlreadyOpen && log != nil {
		// Listen is retried by the listener on each reconnection.
		log.Warn("caller cache: listen", "error", err.Error())
	}
	self := d.Instance()
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case n := <-l.NotificationChannel():
				// A change elsewhere, or nil after a reconnection. This
				// process's own changes were forgotten when they committed.
				if n != nil && n.Extra == self {
					continue
				}
				c.Forget()
			}
		}
	}()
	c.stop = func() {
		unwatch()
		c.online.Store(false)
		close(done)
		_ = l.Close()
	}
	return c
}

// Ready is closed once the cache serves callers: when its notification
// connection is first up (until then every caller is looked up). A nil
// cache, which never serves, is ready at once.
func (c *CallerCache) Ready() <-chan struct{} {
	if c == nil {
		closed := make(chan struct{})
		close(closed)
		return closed
	}
	return c.ready
}

// Close stops listening and serving from the cache.
func (c *CallerCache) Close() {
	if c != nil && c.stop != nil {
		c.stop()
	}
}

// Forget drops every cached caller.
func (c *CallerCache) Forget() { c.gen.Add(1) }

// Forgets is how many times the cache has dropped every caller.
func (c *CallerCache) Forgets() uint64 { return c.gen.Load() }

// Lookup is LookupCaller, served from the cache when it may be. The caller
// returned is the requester's own copy.
func (c *CallerCache) Lookup(ctx context.Context, client *ent.Client, secret string) (*Caller, error) {
	if c == nil || !c.online.Load() {
		return LookupCaller(ctx, client, secret)
	}
	if secret == "" || len(secret) > 200 {
		return nil, nil
	}
	key := Hash(secret)
	gen := c.gen.Load()
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
