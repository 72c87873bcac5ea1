package events

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"entgo.io/ent/dialect"

	"quire/ent"
	"quire/internal/db"
)

// Buffer is how many events a subscription holds for its reader; one more
// ends it with ErrSlow.
const Buffer = 64

// Channel is the PostgreSQL NOTIFY channel events travel on.
const Channel = "quire_events"

// Filter selects the events a subscription receives: those of its most
// specific field that is set (Object, then ChangeRequest, then Space, then
// Organization), of one of Kinds (all when empty).
type Filter struct {
	Organization  string
	Space         string
	ChangeRequest string
	Object        string
	Kinds         []Kind
}

func (f Filter) topic() string {
	switch {
	case f.Object != "":
		return "x:" + f.Object
	case f.ChangeRequest != "":
		return "c:" + f.ChangeRequest
	case f.Space != "":
		return "s:" + f.Space
	case f.Organization != "":
		return "o:" + f.Organization
	}
	return ""
}

func (f Filter) wants(k Kind) bool {
	if len(f.Kinds) == 0 {
		return true
	}
	for _, x := range f.Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// topics are the topics an event is delivered under.
func topics(ev Event) []string {
	var out []string
	if ev.Object != "" {
		out = append(out, "x:"+ev.Object)
	}
	if ev.ChangeRequest != "" {
		out = append(out, "c:"+ev.ChangeRequest)
	}
	if ev.Space != "" {
		out = append(out, "s:"+ev.Space)
	}
	if ev.Organization != "" {
		out = append(out, "o:"+ev.Organization)
	}
	return out
}

// Subscription receives the events of a filter.
type Subscription struct {
	// C delivers the events, in the order their transactions committed;
	// it is closed when the subscription ends (see Err).
	C <-chan Event

	c      chan Event
	bus    *Bus
	filter Filter
	topic  string
	err    error // set, under bus.mu, before c is closed
}

// Err tells why C was closed: ErrSlow, ErrLost, ErrClosed, or nil when
// the subscriber closed it.
func (s *Subscription) Err() error {
	s.bus.mu.Lock()
	defer s.bus.mu.Unlock()
	return s.err
}

// Close ends the subscription. It may be called more than once.
func (s *Subscription) Close() {
	s.bus.mu.Lock()
	defer s.bus.mu.Unlock()
	s.bus.end(s, nil)
}

// Bus publishes events and delivers them to this process's subscribers.
type Bus struct {
	client   *ent.Client
	postgres bool
	log      *slog.Logger
	// listen starts (once) the PostgreSQL listener; nil on SQLite.
	listener *listener

	// pending holds, on SQLite, the events of each open transaction.
	pending sync.Map // *ent.Tx → *queue

	mu     sync.Mutex
	subs   map[string]map[*Subscription]bool // by topic
	closed bool
	// onDeliver, set by tests, sees every event handed to subscribers.
	onDeliver func(Event)
}

// New returns the bus of a database: NOTIFY and LISTEN on PostgreSQL (the
// listener connects on the first subscription), in-process on SQLite.
func New(d *db.DB, log *slog.Logger) *Bus {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	b := &Bus{client: d.Client, postgres: d.Dialect == dialect.Postgres, log: log, subs: map[string]map[*Subscription]bool{}}
	if b.postgres {
		b.listener = &listener{url: d.URL(), bus: b}
	}
	return b
}

// Publish sends ev once tx commits; with a nil tx, at once. ev.At is set
// when zero. On PostgreSQL the event is a NOTIFY in tx, which PostgreSQL
// delivers at commit; on SQLite it is handed to subscribers after the
// commit, never before, and never when the transaction rolls back.
// Publishing does not wait for any subscriber.
func (b *Bus) Publish(ctx context.Context, tx *ent.Tx, ev Event) error {
	if ev.At.IsZero() {
		ev.At = now()
	}
	payload, err := encode(ev)
	if err != nil {
		return err
	}
	if b.postgres {
		q := "SELECT pg_notify($1, $2)"
		if tx != nil {
			_, err = tx.ExecContext(ctx, q, Channel, payload)
		} else {
			_, err = b.client.ExecContext(ctx, q, Channel, payload)
		}
		if err != nil {
			return fmt.Errorf("publish %s event: %w", ev.Kind, err)
		}
		return nil
	}
	if tx == nil {
		b.deliver(ev)
		return nil
	}
	// The events of a transaction wait in its queue, handed over in the
	// order they were published once it commits, dropped if it rolls back.
	q, loaded := b.pending.LoadOrStore(tx, &queue{})
	q.(*queue).add(ev)
	if loaded {
		return nil
	}
	tx.OnCommit(func(next ent.Committer) ent.Committer {
		return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
			err := next.Commit(ctx, tx)
			q, _ := b.pending.LoadAndDelete(tx)
			if err == nil && q != nil {
				for _, ev := range q.(*queue).take() {
					b.deliver(ev)
				}
			}
			return err
		})
	})
	tx.OnRollback(func(next ent.Rollbacker) ent.Rollbacker {
		return ent.RollbackFunc(func(ctx context.Context, tx *ent.Tx) error {
			b.pending.Delete(tx)
			return next.Rollback(ctx, tx)
		})
	})
	return nil
}

// queue holds the events of a transaction (SQLite).
type queue struct {
	mu     sync.Mutex
	events []Event
}

func (q *queue) add(ev Event) {
	q.mu.Lock()
	q.events = append(q.events, ev)
	q.mu.Unlock()
}

func (q *queue) take() []Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.events
}

// Subscribe starts receiving the events of f. On PostgreSQL it returns
// once this process listens (connecting first if need be), so that every
// event committed afterwards is received.
// Errors: the database could not be reached; ErrClosed.
func (b *Bus) Subscribe(ctx context.Context, f Filter) (*Subscription, error) {
	topic := f.topic()
	if topic == "" {
		return nil, fmt.Errorf("subscribe: the filter names nothing")
	}
	if b.listener != nil {
		if err := b.listener.start(ctx); err != nil {
			return nil, err
		}
	}
	c := make(chan Event, Buffer)
	s := &Subscription{C: c, c: c, bus: b, filter: f, topic: topic}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, ErrClosed
	}
	if b.subs[topic] == nil {
		b.subs[topic] = map[*Subscription]bool{}
	}
	b.subs[topic][s] = true
	return s, nil
}

// deliver hands ev to the subscriptions that want it, without waiting: a
// subscription whose buffer is full is ended with ErrSlow.
func (b *Bus) deliver(ev Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.onDeliver != nil {
		b.onDeliver(ev)
	}
	for _, t := range topics(ev) {
		for s := range b.subs[t] {
			if !s.filter.wants(ev.Kind) {
				continue
			}
			select {
			case s.c <- ev:
			default:
				b.end(s, ErrSlow)
			}
		}
	}
}

// end removes s and closes its channel with reason err; b.mu is held.
func (b *Bus) end(s *Subscription, err error) {
	set := b.subs[s.topic]
	if !set[s] {
		return
	}
	delete(set, s)
	if len(set) == 0 {
		delete(b.subs, s.topic)
	}
	s.err = err
	close(s.c)
}

// endAll ends every subscription with err.
func (b *Bus) endAll(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, set := range b.subs {
		for s := range set {
			b.end(s, err)
		}
	}
}

// Subscribers counts this process's subscriptions.
func (b *Bus) Subscribers() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, set := range b.subs {
		n += len(set)
	}
	return n
}

// Close ends every subscription with ErrClosed and stops listening.
func (b *Bus) Close() error {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.endAll(ErrClosed)
	if b.listener != nil {
		b.listener.close()
	}
	return nil
}
