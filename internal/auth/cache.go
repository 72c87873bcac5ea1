package auth

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lib/pq"

	"quire/ent"
	"quire/internal/db"
)

// The caller cache. Every request looks up its token's caller: on
// PostgreSQL that is a round trip, and the largest statement of a small
// read. A process keeps each caller it looked up for CallerTTL and serves
// the requests of the same token from it, until anything the lookup reads
// changes. The database handle announces every such change, made by any
// engine or command through ent, deletions that cascade to those rows
// included (see db.AccessChanged):
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
	// syncPrefix starts the payload of Sync's own notifications, which
	// announce no change.
	syncPrefix = "sync:"
)

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
	// pool sends Sync's notifications; syncs are the Syncs waiting for
	// theirs, by payload.
	pool    *sql.DB
	syncMu  sync.Mutex
	syncs   map[string]chan struct{}
	stopped chan struct{}
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
	c := &CallerCache{now: time.Now, ttl: ttl, m: map[string]cachedCaller{}, ready: make(chan struct{}),
		pool: d.SQL, syncs: map[string]chan struct{}{}, stopped: make(chan struct{})}
	unsubscribe := d.AccessChanges().Subscribe(c.Forget)
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
	if err := l.Listen(db.AccessChannel); err != nil && err != pq.ErrChannelAlreadyOpen && log != nil {
		// Listen is retried by the listener on each reconnection.
		log.Warn("caller cache: listen", "error", err.Error())
	}
	self := d.Instance()
	go func() {
		for {
			select {
			case <-c.stopped:
				return
			case n := <-l.NotificationChannel():
				switch {
				case n == nil:
					// A reconnection: announcements may have been missed.
					c.Forget()
					c.synced("")
				case n.Extra == self:
					// This process forgot when its change committed.
				case strings.HasPrefix(n.Extra, syncPrefix):
					c.synced(n.Extra)
				default:
					c.Forget()
				}
			}
		}
	}()
	c.stop = func() {
		unsubscribe()
		c.online.Store(false)
		close(c.stopped)
		_ = l.Close()
	}
	return c
}

// Sync returns once the cache has heard every announcement committed
// before the call, by another process too: it announces nothing on the
// channel and waits to hear it, since PostgreSQL delivers notifications in
// the order their transactions committed. A cache that is not serving
// (nil, or its notification connection down) has nothing to hear. Tests
// use it to ask a second process at the right time.
// Errors: ctx's, and the database's.
func (c *CallerCache) Sync(ctx context.Context) error {
	if c == nil || !c.online.Load() {
		return nil
	}
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	payload := syncPrefix + hex.EncodeToString(b)
	heard := make(chan struct{})
	c.syncMu.Lock()
	c.syncs[payload] = heard
	c.syncMu.Unlock()
	defer func() {
		c.syncMu.Lock()
		delete(c.syncs, payload)
		c.syncMu.Unlock()
	}()
	if _, err := c.pool.ExecContext(ctx, "SELECT pg_notify($1, $2)", db.AccessChannel, payload); err != nil {
		return fmt.Errorf("caller cache: sync: %w", err)
	}
	select {
	case <-heard:
		return nil
	case <-c.stopped:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("caller cache: sync: %w", ctx.Err())
	}
}

// synced ends the Sync waiting for payload; every Sync for "" (after a
// reconnection, which forgot everything cached).
func (c *CallerCache) synced(payload string) {
	c.syncMu.Lock()
	defer c.syncMu.Unlock()
	for p, ch := range c.syncs {
		if payload == "" || p == payload {
			close(ch)
			delete(c.syncs, p)
		}
	}
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

// Forgets is how many times the cache has dropped every caller (0 for a
// nil cache).
func (c *CallerCache) Forgets() uint64 {
	if c == nil {
		return 0
	}
	return c.gen.Load()
}

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
