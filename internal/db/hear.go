package db

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lib/pq"
)

// Hearing follows the changes of one topic committed by any process that
// shares the database, for a process that keeps what it read (callers,
// rendered pages) and must forget it when they change. It is a
// generation: a number that moves on with every change heard, so that
// what was read in one generation is good for that generation only.
//
//   - A change committed through this handle moves it once committed
//     (DB.Changes).
//   - On PostgreSQL, a change by another process is heard on the topic's
//     channel (NOTIFY, delivered at its commit). While the listening
//     connection is down, and until it is first up, the hearing is not
//     serving (Generation's ok is false: keep nothing), and every
//     (re)connection moves the generation, since changes may have been
//     missed in between.
//   - On SQLite, which one process serves, it serves at once.
type Hearing struct {
	gen    atomic.Uint64
	online atomic.Bool
	// ready is closed when the hearing first serves.
	ready     chan struct{}
	readyOnce sync.Once
	channel   string
	// notify sends Sync's notifications; syncs are the Syncs waiting for
	// theirs, by payload.
	notify  func(ctx context.Context, channel, payload string) error
	syncMu  sync.Mutex
	syncs   map[string]chan struct{}
	stopped chan struct{}
	stop    func()
}

// syncPrefix starts the payload of Sync's own notifications, which
// announce no change.
const syncPrefix = "sync:"

// Hear starts following the changes of topic. Close stops it.
func (d *DB) Hear(topic Topic, log *slog.Logger) *Hearing {
	h := &Hearing{ready: make(chan struct{}), channel: topic.Channel(), syncs: map[string]chan struct{}{},
		stopped: make(chan struct{})}
	unsubscribe := d.Changes(topic).Subscribe(h.Forget)
	if d.Dialect != "postgres" {
		h.serving()
		h.stop = func() {
			unsubscribe()
			h.online.Store(false)
			close(h.stopped)
		}
		return h
	}
	h.notify = func(ctx context.Context, channel, payload string) error {
		_, err := d.SQL.ExecContext(ctx, notifyQuery, channel, payload)
		return err
	}
	// The hearing serves once its channel is listened to on a live
	// connection: after Listen returned (it waits for the first
	// connection, which a database that is down delays), and again after
	// each reconnection (pq listens again before telling it).
	var listening atomic.Bool
	l := pq.NewListener(d.URL(), 50*time.Millisecond, 2*time.Second, func(ev pq.ListenerEventType, err error) {
		switch ev {
		case pq.ListenerEventConnected, pq.ListenerEventReconnected:
			h.Forget()
			if listening.Load() {
				h.serving()
			}
		case pq.ListenerEventDisconnected, pq.ListenerEventConnectionAttemptFailed:
			h.online.Store(false)
			h.Forget()
			if log != nil && err != nil && ev == pq.ListenerEventDisconnected {
				log.Warn("lost the notification connection; keeping nothing until it is back", "topic", topic.String(), "error", err.Error())
			}
		}
	})
	go func() {
		if err := l.Listen(h.channel); err != nil {
			if log != nil && !errors.Is(err, net.ErrClosed) {
				log.Warn("listen", "topic", topic.String(), "error", err.Error())
			}
			return
		}
		listening.Store(true)
		if l.Ping() == nil {
			h.Forget()
			h.serving()
		}
	}()
	self := d.Instance()
	go func() {
		for {
			select {
			case <-h.stopped:
				return
			case n := <-l.NotificationChannel():
				switch {
				case n == nil:
					// A reconnection: announcements may have been missed.
					h.Forget()
					h.synced("")
				case n.Extra == self:
					// This process forgot when its change committed.
				case strings.HasPrefix(n.Extra, syncPrefix):
					h.synced(n.Extra)
				default:
					h.Forget()
				}
			}
		}
	}()
	h.stop = func() {
		unsubscribe()
		h.online.Store(false)
		close(h.stopped)
		_ = l.Close()
	}
	return h
}

func (h *Hearing) serving() {
	h.online.Store(true)
	h.readyOnce.Do(func() { close(h.ready) })
}

// Generation is the current generation, and whether the hearing serves
// (when it does not, changes may go unheard: keep nothing). A nil
// hearing never serves.
func (h *Hearing) Generation() (gen uint64, ok bool) {
	if h == nil {
		return 0, false
	}
	// online is read first: a reconnection moves gen after setting it.
	ok = h.online.Load()
	return h.gen.Load(), ok
}

// Forget moves the generation on: everything kept is stale.
func (h *Hearing) Forget() { h.gen.Add(1) }

// Forgets is how many times the generation moved on (0 for a nil
// hearing).
func (h *Hearing) Forgets() uint64 {
	if h == nil {
		return 0
	}
	return h.gen.Load()
}

// Ready is closed once the hearing serves: at once on SQLite, when its
// notification connection is first up on PostgreSQL. A nil hearing, which
// never serves, is ready at once.
func (h *Hearing) Ready() <-chan struct{} {
	if h == nil {
		closed := make(chan struct{})
		close(closed)
		return closed
	}
	return h.ready
}

// Sync returns once the hearing has heard every change committed before
// the call, by another process too: it sends a notification announcing
// nothing on the topic's channel and waits to hear it, since PostgreSQL
// delivers notifications in the order their transactions committed. A
// hearing that is not serving, or that has no other process to hear
// (SQLite), returns at once. Tests use it to ask a second process at the
// right time.
// Errors: ctx's, and the database's.
func (h *Hearing) Sync(ctx context.Context) error {
	if h == nil || h.notify == nil || !h.online.Load() {
		return nil
	}
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	payload := syncPrefix + hex.EncodeToString(b)
	heard := make(chan struct{})
	h.syncMu.Lock()
	h.syncs[payload] = heard
	h.syncMu.Unlock()
	defer func() {
		h.syncMu.Lock()
		delete(h.syncs, payload)
		h.syncMu.Unlock()
	}()
	if err := h.notify(ctx, h.channel, payload); err != nil {
		return fmt.Errorf("sync %s: %w", h.channel, err)
	}
	select {
	case <-heard:
		return nil
	case <-h.stopped:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("sync %s: %w", h.channel, ctx.Err())
	}
}

// synced ends the Sync waiting for payload; every Sync for "" (after a
// reconnection, which forgot everything).
func (h *Hearing) synced(payload string) {
	h.syncMu.Lock()
	defer h.syncMu.Unlock()
	for p, ch := range h.syncs {
		if payload == "" || p == payload {
			close(ch)
			delete(h.syncs, p)
		}
	}
}

// Close stops following changes; the hearing no longer serves.
func (h *Hearing) Close() {
	if h != nil && h.stop != nil {
		h.stop()
	}
}
