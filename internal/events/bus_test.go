package events

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"quire/ent"
	"quire/internal/db"
	"quire/internal/testing/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// open opens a database of the backend, empty: the bus needs no table.
func open(t *testing.T, backend string) (*db.DB, string) {
	t.Helper()
	url := "sqlite:" + filepath.Join(t.TempDir(), "events.db")
	if backend == "postgres" {
		url = testdb.NewDatabase(t)
	}
	d, err := db.Open(url, db.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d, url
}

func forEachDB(t *testing.T, fn func(t *testing.T, d *db.DB, url string)) {
	for _, b := range []string{"sqlite", "postgres"} {
		t.Run(b, func(t *testing.T) {
			d, url := open(t, b)
			fn(t, d, url)
		})
	}
}

func newBus(t *testing.T, d *db.DB) *Bus {
	b := New(d, nil)
	t.Cleanup(func() { b.Close() })
	return b
}

func subscribe(t *testing.T, b *Bus, f Filter) *Subscription {
	t.Helper()
	s, err := b.Subscribe(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// receive waits for the next event of s (30 s at most).
func receive(t *testing.T, s *Subscription) Event {
	t.Helper()
	select {
	case ev, ok := <-s.C:
		if !ok {
			t.Fatalf("the subscription ended: %v", s.Err())
		}
		return ev
	case <-time.After(30 * time.Second):
		t.Fatal("no event within 30 s")
	}
	return Event{}
}

func ev(kind Kind, object string) Event {
	return Event{Kind: kind, Organization: "O1", Space: "S1", Object: object}
}

// Events published in a transaction are sent once it commits, in order,
// and never when it rolls back.
func TestPublishInTransaction(t *testing.T) {
	forEachDB(t, func(t *testing.T, d *db.DB, _ string) {
		b := newBus(t, d)
		s := subscribe(t, b, Filter{Space: "S1"})
		ctx := context.Background()
		boom := errors.New("boom")
		err := db.WithTx(ctx, d.Client, func(tx *ent.Tx) error {
			if err := b.Publish(ctx, tx, ev(SpaceRevision, "lost")); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatal(err)
		}
		err = db.WithTx(ctx, d.Client, func(tx *ent.Tx) error {
			for _, id := range []string{"R1", "R2", "R3"} {
				if err := b.Publish(ctx, tx, ev(SpaceRevision, id)); err != nil {
					return err
				}
			}
			// Not before the commit.
			select {
			case e := <-s.C:
				t.Errorf("an event before the commit: %+v", e)
			default:
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"R1", "R2", "R3"} {
			if got := receive(t, s); got.Object != want || got.Kind != SpaceRevision || got.At.IsZero() {
				t.Errorf("got %+v, want %s", got, want)
			}
		}
		select {
		case e := <-s.C:
			t.Errorf("an event of the rolled back transaction: %+v", e)
		default:
		}
	})
}

// A subscription receives the events of its filter: its most specific
// topic, of its kinds.
func TestFilters(t *testing.T) {
	forEachDB(t, func(t *testing.T, d *db.DB, _ string) {
		b := newBus(t, d)
		ctx := context.Background()
		space := subscribe(t, b, Filter{Space: "S1", Kinds: []Kind{ChangeRequestStatus}})
		cr := subscribe(t, b, Filter{ChangeRequest: "Q1"})
		org := subscribe(t, b, Filter{Organization: "O1"})
		job := subscribe(t, b, Filter{Object: "J1"})
		for _, e := range []Event{
			{Kind: SpaceRevision, Organization: "O1", Space: "S1", Object: "R1"},
			{Kind: ChangeRequestStatus, Organization: "O1", Space: "S1", ChangeRequest: "Q1", Object: "Q1"},
			{Kind: ChangeRequestStatus, Organization: "O1", Space: "S2", ChangeRequest: "Q2", Object: "Q2"},
			{Kind: JobProgress, Organization: "O1", Space: "S1", Object: "J1"},
		} {
			if err := b.Publish(ctx, nil, e); err != nil {
				t.Fatal(err)
			}
		}
		got := func(s *Subscription, n int) []string {
			var out []string
			for i := 0; i < n; i++ {
				out = append(out, receive(t, s).Object)
			}
			return out
		}
		check := func(what string, s *Subscription, want ...string) {
			t.Helper()
			if g := got(s, len(want)); strings.Join(g, ",") != strings.Join(want, ",") {
				t.Errorf("%s: %v, want %v", what, g, want)
			}
		}
		check("space, status only", space, "Q1")
		check("change request", cr, "Q1")
		check("organization", org, "R1", "Q1", "Q2", "J1")
		check("job", job, "J1")
		// Nothing more is waiting: a marker event shows the order.
		if err := b.Publish(ctx, nil, Event{Kind: ChangeRequestStatus, Organization: "O1", Space: "S1", ChangeRequest: "Q1", Object: "end"}); err != nil {
			t.Fatal(err)
		}
		check("space, after", space, "end")
		check("change request, after", cr, "end")
	})
}

// A subscriber that does not read does not slow publishers: past Buffer
// waiting events its subscription ends with ErrSlow, and the others go on.
func TestSlowSubscriber(t *testing.T) {
	forEachDB(t, func(t *testing.T, d *db.DB, _ string) {
		b := newBus(t, d)
		ctx := context.Background()
		slow := subscribe(t, b, Filter{Space: "S1"})
		fast := subscribe(t, b, Filter{Space: "S1"})
		// The publisher sends batches of half a buffer, each once the
		// subscriber that reads has read the previous one.
		read := make(chan int, 3*Buffer)
		go func() {
			n := 0
			for range fast.C {
				n++
				read <- n
			}
		}()
		published := make(chan error, 1)
		go func() {
			for i := 0; i < 3*Buffer; i++ {
				if err := b.Publish(ctx, nil, ev(SpaceRevision, "R")); err != nil {
					published <- err
					return
				}
				if (i+1)%(Buffer/2) == 0 {
					for n := 0; n < i+1; n = <-read {
					}
				}
			}
			published <- nil
		}()
		select {
		case err := <-published:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("publishing waits for a subscriber that does not read")
		}
		if err := fast.Err(); err != nil {
			t.Errorf("the subscriber that reads: %v", err)
		}
		n := 0
		for range slow.C {
			n++
		}
		if n != Buffer || !errors.Is(slow.Err(), ErrSlow) {
			t.Errorf("the slow subscriber got %d events and %v, want %d and ErrSlow", n, slow.Err(), Buffer)
		}
	})
}

// On PostgreSQL, events reach the buses of every process sharing the
// database, through NOTIFY; a lost listener connection ends the
// subscriptions that relied on it (events may have been missed), and the
// next subscription connects again.
func TestPostgresAcrossProcesses(t *testing.T) {
	d, url := open(t, "postgres")
	other, err := db.Open(url, db.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	a, b := newBus(t, d), newBus(t, other)
	ctx := context.Background()
	onB := subscribe(t, b, Filter{Space: "S1"})
	onA := subscribe(t, a, Filter{Space: "S1"})
	err = db.WithTx(ctx, d.Client, func(tx *ent.Tx) error { return a.Publish(ctx, tx, ev(SpaceRevision, "R1")) })
	if err != nil {
		t.Fatal(err)
	}
	if got := receive(t, onB); got.Object != "R1" {
		t.Errorf("the other process got %+v", got)
	}
	if got := receive(t, onA); got.Object != "R1" {
		t.Errorf("the publishing process got %+v", got)
	}

	b.listener.drop()
	for range onB.C {
	}
	if !errors.Is(onB.Err(), ErrLost) {
		t.Errorf("after the listener was lost: %v", onB.Err())
	}
	again := subscribe(t, b, Filter{Space: "S1"})
	if err := a.Publish(ctx, nil, ev(SpaceRevision, "R2")); err != nil {
		t.Fatal(err)
	}
	if got := receive(t, again); got.Object != "R2" {
		t.Errorf("after reconnecting: %+v", got)
	}
}

// Events are ids: one that would not fit a NOTIFY payload, or of an
// unknown kind, is refused.
func TestPayload(t *testing.T) {
	if _, err := encode(Event{Kind: "nope"}); err == nil {
		t.Error("an unknown kind was encoded")
	}
	if _, err := encode(Event{Kind: SpaceRevision, Object: strings.Repeat("x", MaxPayload)}); err == nil {
		t.Error("an event over MaxPayload was encoded")
	}
	in := Event{Kind: CommentReplyCreated, Organization: "O", Space: "S", ChangeRequest: "Q", Object: "X", Actor: "U",
		At: time.Date(2026, 11, 27, 10, 0, 0, 123456000, time.UTC)}
	s, err := encode(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := decode(s)
	if err != nil || out != in {
		t.Errorf("decode(encode(%+v)) = %+v, %v", in, out, err)
	}
}

// A closed bus ends its subscriptions and refuses new ones.
func TestClose(t *testing.T) {
	forEachDB(t, func(t *testing.T, d *db.DB, _ string) {
		b := New(d, nil)
		s := subscribe(t, b, Filter{Space: "S1"})
		b.Close()
		for range s.C {
		}
		if !errors.Is(s.Err(), ErrClosed) {
			t.Errorf("after Close: %v", s.Err())
		}
		if _, err := b.Subscribe(context.Background(), Filter{Space: "S1"}); !errors.Is(err, ErrClosed) {
			t.Errorf("subscribe after Close: %v", err)
		}
	})
}

// drop closes the listener's connection as a network failure would.
func (l *listener) drop() {
	l.mu.Lock()
	conn := l.conn
	l.mu.Unlock()
	if conn != nil {
		conn.Close()
	}
}
