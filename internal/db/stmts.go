package db

import (
	"container/list"
	"context"
	"database/sql"
	"sync"

	entsql "entgo.io/ent/dialect/sql"
)

// stmtCache keeps prepared statements for the queries that ent sends
// outside transactions, by query text, so that PostgreSQL parses and plans
// each query once per connection instead of once per execution, and lib/pq
// sends it in one round trip instead of two (without a prepared statement
// it prepares an unnamed one, waits for the answer, then executes it).
//
// database/sql prepares a Stmt on each pooled connection the first time it
// runs there, and closes it with the connection. The cache is bounded (ent
// writes a different text for each length of an IN list); an evicted
// statement is closed once the rows still reading from it are closed.
type stmtCache struct {
	db  *sql.DB
	max int

	mu    sync.Mutex
	order *list.List // of *stmtEntry, most recently used first
	m     map[string]*list.Element
}

type stmtEntry struct {
	query string
	once  sync.Once
	stmt  *sql.Stmt
	err   error
	// users and evicted are guarded by the cache's mu: an evicted
	// statement is closed by whoever stops using it last.
	users   int
	evicted bool
}

func newStmtCache(db *sql.DB, max int) *stmtCache {
	return &stmtCache{db: db, max: max, order: list.New(), m: map[string]*list.Element{}}
}

// acquire returns the statement for query, preparing it the first time;
// the caller must release it once the query has started (its rows keep
// the statement alive until they are closed).
func (c *stmtCache) acquire(ctx context.Context, query string) (*stmtEntry, error) {
	c.mu.Lock()
	el, ok := c.m[query]
	if ok {
		c.order.MoveToFront(el)
	} else {
		el = c.order.PushFront(&stmtEntry{query: query})
		c.m[query] = el
		for c.order.Len() > c.max {
			old := c.order.Back()
			c.order.Remove(old)
			e := old.Value.(*stmtEntry)
			delete(c.m, e.query)
			c.evictLocked(e)
		}
	}
	e := el.Value.(*stmtEntry)
	e.users++
	c.mu.Unlock()
	// The first caller prepares it with its own context, so that a pool
	// with no free connection does not hold it past its deadline; a
	// failed preparation is forgotten below and the callers take the
	// ordinary path.
	e.once.Do(func() { e.stmt, e.err = c.db.PrepareContext(ctx, query) })
	if e.err != nil {
		c.mu.Lock()
		if el, ok := c.m[query]; ok && el.Value == e {
			// Forget it, so that a later call tries again.
			c.order.Remove(el)
			delete(c.m, query)
		}
		c.mu.Unlock()
		c.release(e)
		return nil, e.err
	}
	return e, nil
}

func (c *stmtCache) release(e *stmtEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.users--
	if e.evicted && e.users == 0 && e.stmt != nil {
		e.stmt.Close()
		e.stmt = nil
	}
}

func (c *stmtCache) evictLocked(e *stmtEntry) {
	e.evicted = true
	if e.users == 0 && e.stmt != nil {
		e.stmt.Close()
		e.stmt = nil
	}
}

// reset closes every statement, after a schema change.
func (c *stmtCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for el := c.order.Front(); el != nil; el = el.Next() {
		c.evictLocked(el.Value.(*stmtEntry))
	}
	c.order.Init()
	clear(c.m)
}

// query runs a query through its prepared statement, filling v (an
// *entsql.Rows) as entsql.Conn.Query does. ok is false when the query must
// take the ordinary path instead.
func (c *stmtCache) query(ctx context.Context, query string, args, v any) (ok bool, err error) {
	vr, isRows := v.(*entsql.Rows)
	argv, isArgs := args.([]any)
	if !isRows || !isArgs {
		return false, nil
	}
	e, err := c.acquire(ctx, query)
	if err != nil {
		// Let the ordinary path run it and report what is wrong.
		return false, nil
	}
	rows, err := e.stmt.QueryContext(ctx, argv...)
	c.release(e)
	if err != nil {
		return true, err
	}
	*vr = entsql.Rows{ColumnScanner: rows}
	return true, nil
}
