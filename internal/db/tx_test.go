package db

import (
	"context"
	"errors"
	neturl "net/url"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lib/pq"

	"quire/ent"
	"quire/internal/testing/testdb"
)

// Two transactions that lock two rows in opposite orders deadlock on
// PostgreSQL: the server aborts one of them (40P01), WithTx runs it again,
// and both writes end up committed.
func TestWithTxRetriesADeadlock(t *testing.T) {
	url := testdb.NewDatabase(t)
	// Detect the deadlock in milliseconds rather than the default second,
	// where the role may set it (a superuser, as in the throwaway cluster).
	d, err := Open(withParam(url, "deadlock_timeout", "20"), Options{})
	if err == nil && d.Ping(context.Background()) != nil {
		d.Close()
		err = errors.New("deadlock_timeout not settable")
	}
	if err != nil {
		if d, err = Open(url, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { d.Close() })
	ctx := context.Background()
	if err := d.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	a := d.Client.Organization.Create().SetTitle("A").SaveX(ctx)
	b := d.Client.Organization.Create().SetTitle("B").SaveX(ctx)

	var (
		holding  sync.WaitGroup // both hold their first row
		attempts atomic.Int32
		mu       sync.Mutex
		aborted  []error
	)
	holding.Add(2)
	write := func(first, second *ent.Organization, mark string) error {
		run := 0
		return WithTx(ctx, d.Client, func(tx *ent.Tx) error {
			run++
			attempts.Add(1)
			if err := tx.Organization.UpdateOneID(first.ID).SetTitle(mark).Exec(ctx); err != nil {
				return err
			}
			if run == 1 {
				holding.Done()
				holding.Wait()
			}
			err := tx.Organization.UpdateOneID(second.ID).SetTitle(mark).Exec(ctx)
			if err != nil {
				mu.Lock()
				aborted = append(aborted, err)
				mu.Unlock()
			}
			return err
		})
	}
	errs := make(chan error, 2)
	go func() { errs <- write(a, b, "ab") }()
	go func() { errs <- write(b, a, "ba") }()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("a write failed: %v", err)
		}
	}
	if len(aborted) == 0 {
		t.Fatal("no deadlock")
	}
	for _, err := range aborted {
		var pe *pq.Error
		if !errors.As(err, &pe) || pe.Code != "40P01" || !Retryable(err) {
			t.Fatalf("aborted with %v, want a retryable deadlock_detected (40P01)", err)
		}
	}
	if n := attempts.Load(); int(n) != 2+len(aborted) {
		t.Fatalf("%d runs for %d deadlocks, want each deadlocked run tried again", n, len(aborted))
	}
	// The transaction run again committed last, over both rows.
	ta, tb := d.Client.Organization.GetX(ctx, a.ID).Title, d.Client.Organization.GetX(ctx, b.ID).Title
	if ta != tb || (ta != "ab" && ta != "ba") {
		t.Fatalf("titles %q and %q: a write is missing", ta, tb)
	}
}

// On SQLite a transaction that cannot take the write lock fails with
// SQLITE_BUSY once its busy timeout is spent; WithTx starts it again, and
// the database's OnRetry hears of it.
func TestWithTxRetriesSQLiteBusy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "quire.db")
	d, err := Open("sqlite:"+path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	ctx := context.Background()
	if err := d.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	holder, err := d.SQL.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	var retried []error
	// A second handle on the same file, whose one connection does not
	// wait for the lock.
	impatient, err := Open("sqlite:"+path, Options{OnRetry: func(attempt int, err error) {
		retried = append(retried, err)
		if attempt == 1 {
			// The first run met the lock: let the next one through.
			if _, err := holder.ExecContext(ctx, "COMMIT"); err != nil {
				t.Errorf("release the lock: %v", err)
			}
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { impatient.Close() })
	impatient.SQL.SetMaxOpenConns(1)
	if _, err := impatient.SQL.ExecContext(ctx, "PRAGMA busy_timeout = 0"); err != nil {
		t.Fatal(err)
	}

	if _, err := holder.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	err = WithTx(ctx, impatient.Client, func(tx *ent.Tx) error {
		return tx.Organization.Create().SetTitle("Busy").Exec(ctx)
	})
	if err != nil {
		t.Fatalf("write: %v", err)
	}
	if len(retried) != 1 || !Retryable(retried[0]) {
		t.Fatalf("retried after %v, want one SQLITE_BUSY", retried)
	}
	if n := d.Client.Organization.Query().CountX(ctx); n != 1 {
		t.Fatalf("%d organizations, want 1", n)
	}
}

// withParam adds a connection parameter to a postgres:// url.
func withParam(u, key, value string) string {
	p, err := neturl.Parse(u)
	if err != nil {
		return u
	}
	q := p.Query()
	q.Set(key, value)
	p.RawQuery = q.Encode()
	return p.String()
}
