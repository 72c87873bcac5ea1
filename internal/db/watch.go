package db

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
)

// Watching writes. A process that keeps what it read of some tables (the
// callers of tokens) must forget it when they change. The driver sees
// every statement sent through it: a write to a watched table (INSERT,
// UPDATE or DELETE naming it) calls the watchers once it is committed (at
// once outside a transaction, after COMMIT inside one). On PostgreSQL the
// change is also announced on a notification channel, in the transaction
// that makes it (NOTIFY is delivered when it commits, and not if it rolls
// back), for the other processes serving the database.

// writeTarget matches the table a write statement names first.
var writeTarget = regexp.MustCompile(`(?i)^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?([A-Za-z_][A-Za-z0-9_]*)"?`)

// announced are the tables whose writes every handle opened on PostgreSQL
// announces, and the channel (AnnounceWrites).
var announced struct {
	mu      sync.Mutex
	tables  []string
	channel string
}

// AnnounceWrites makes every handle opened afterwards on PostgreSQL, in
// any command of the process (a server, an administration command),
// announce its committed writes to tables on channel, whether or not the
// process watches them itself.
func AnnounceWrites(tables []string, channel string) {
	announced.mu.Lock()
	defer announced.mu.Unlock()
	announced.tables = append(announced.tables, tables...)
	announced.channel = channel
}

// announcing returns the watch a new PostgreSQL handle starts with.
func announcing() *watch {
	announced.mu.Lock()
	defer announced.mu.Unlock()
	if announced.channel == "" {
		return nil
	}
	w := &watch{tables: map[string]bool{}, channel: announced.channel}
	for _, t := range announced.tables {
		w.tables[strings.ToLower(t)] = true
	}
	return w
}

type watch struct {
	tables  map[string]bool
	channel string
	fns     []func()
}

type watchers struct {
	mu sync.Mutex
	w  atomic.Pointer[watch] // nil: nothing watched
}

// Watch calls fn after every committed write, through this handle, to one
// of tables; on PostgreSQL such writes also notify channel (every Watch of
// one handle must name the same channel). It returns a function that stops
// the calls.
func (d *DB) Watch(tables []string, channel string, fn func()) (stop func()) {
	ws := &d.counter.watchers
	ws.mu.Lock()
	defer ws.mu.Unlock()
	next := &watch{tables: map[string]bool{}, channel: channel}
	if cur := ws.w.Load(); cur != nil {
		for t := range cur.tables {
			next.tables[t] = true
		}
		next.fns = append(next.fns, cur.fns...)
	}
	for _, t := range tables {
		next.tables[strings.ToLower(t)] = true
	}
	id := len(next.fns)
	next.fns = append(next.fns, fn)
	ws.w.Store(next)
	return func() {
		ws.mu.Lock()
		defer ws.mu.Unlock()
		cur := ws.w.Load()
		if cur == nil || id >= len(cur.fns) {
			return
		}
		fns := append([]func(){}, cur.fns...)
		fns[id] = func() {}
		ws.w.Store(&watch{tables: cur.tables, channel: cur.channel, fns: fns})
	}
}

// watched reports whether q writes a watched table, and the watch.
func (ws *watchers) watched(q string) (*watch, bool) {
	w := ws.w.Load()
	if w == nil {
		return nil, false
	}
	// Reads, nearly every statement, are told by their first letter.
	i := 0
	for i < len(q) && (q[i] == ' ' || q[i] == '\n' || q[i] == '\t' || q[i] == '\r') {
		i++
	}
	if i == len(q) {
		return nil, false
	}
	switch q[i] | 0x20 {
	case 'i', 'u', 'd':
	default:
		return nil, false
	}
	m := writeTarget.FindStringSubmatch(q)
	if m == nil || !w.tables[strings.ToLower(m[1])] {
		return nil, false
	}
	return w, true
}

func (w *watch) call() {
	for _, fn := range w.fns {
		fn()
	}
}

// notifyQuery announces a change on a channel (PostgreSQL); the payload is
// the announcing handle's Instance, so that its own listener, whose
// process forgot at once, can pass over it.
const notifyQuery = "SELECT pg_notify($1, $2)"

// changed runs after a watched write outside a transaction.
func (d *countingDriver) changed(ctx context.Context, w *watch) {
	if d.stmts != nil && w.channel != "" { // PostgreSQL
		// Best effort: the write is done; other processes forget what
		// they keep when their caches expire if this is lost.
		_ = d.Driver.Exec(context.WithoutCancel(ctx), notifyQuery, []any{w.channel, d.instance}, nil)
	}
	w.call()
}
