package events

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/lib/pq"
)

// now is the clock of events; tests may replace it.
var now = func() time.Time { return time.Now().UTC() }

// pingEvery is how often the listener checks its connection, so that a
// connection lost without a word (a network cut) ends the subscriptions
// that were relying on it.
const pingEvery = 30 * time.Second

// listener is this process's LISTEN connection on PostgreSQL: one
// connection of its own (lib/pq's ListenerConn), made for the first
// subscription and kept. When it is lost, every subscription ends with
// ErrLost, since events may have been missed; the next subscription
// connects again.
type listener struct {
	url string
	bus *Bus

	mu     sync.Mutex
	conn   *pq.ListenerConn
	closed bool
}

// start connects and listens, unless that is done already.
func (l *listener) start(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	if l.conn != nil {
		return nil
	}
	ch := make(chan *pq.Notification, 256)
	type result struct {
		conn *pq.ListenerConn
		err  error
	}
	done := make(chan result, 1)
	go func() {
		conn, err := pq.NewListenerConn(l.url, ch)
		if err == nil {
			if _, err = conn.Listen(Channel); err != nil {
				conn.Close()
			}
		}
		done <- result{conn, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		// The dial goes on; its connection is closed when it comes.
		go func() {
			if r := <-done; r.err == nil {
				r.conn.Close()
			}
		}()
		return ctx.Err()
	}
	if r.err != nil {
		return fmt.Errorf("listen for events: %w", r.err)
	}
	l.conn = r.conn
	stop := make(chan struct{})
	go l.ping(r.conn, stop)
	go l.run(r.conn, ch, stop)
	return nil
}

// run hands the notifications of conn to the bus until conn is gone.
func (l *listener) run(conn *pq.ListenerConn, ch <-chan *pq.Notification, stop chan struct{}) {
	defer close(stop)
	for n := range ch {
		if n == nil {
			continue
		}
		ev, err := decode(n.Extra)
		if err != nil {
			l.bus.log.Warn("ignored an event that could not be read", "error", err.Error())
			continue
		}
		l.bus.deliver(ev)
	}
	l.mu.Lock()
	if l.conn == conn {
		l.conn = nil
	}
	closed := l.closed
	l.mu.Unlock()
	if !closed {
		l.bus.log.Warn("the event listener lost its database connection; subscriptions end", "error", fmt.Sprint(conn.Err()))
		l.bus.endAll(ErrLost)
	}
}

// ping closes conn when it stops answering.
func (l *listener) ping(conn *pq.ListenerConn, stop <-chan struct{}) {
	t := time.NewTicker(pingEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if err := conn.Ping(); err != nil {
				conn.Close()
				return
			}
		}
	}
}

// close stops listening for good.
func (l *listener) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.conn != nil {
		l.conn.Close()
		l.conn = nil
	}
}
