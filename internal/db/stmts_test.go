package db

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"quire/ent/user"
	"quire/internal/testing/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// Queries outside transactions run through prepared statements on
// PostgreSQL; evicting a statement whose rows are still being read must not
// break them, and every query is still counted once.
func TestPreparedStatementsOnPostgres(t *testing.T) {
	d, err := Open(testdb.NewDatabase(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	ctx := context.Background()
	if err := d.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if d.counter.stmts == nil {
		t.Fatal("no statement cache on PostgreSQL")
	}
	d.counter.stmts.max = 3
	var ids []string
	for i := range 5 {
		u, err := d.Client.User.Create().SetEmail(fmt.Sprintf("u%d@example.com", i)).SetDisplayName("U").Save(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, u.ID)
	}
	before := d.Statements()
	for round := range 3 {
		// A different text for each length of the IN list: more texts
		// than the cache holds.
		for n := 1; n <= len(ids); n++ {
			got, err := d.Client.User.Query().Where(user.IDIn(ids[:n]...)).All(ctx)
			if err != nil {
				t.Fatalf("round %d, %d ids: %v", round, n, err)
			}
			if len(got) != n {
				t.Fatalf("round %d: %d users, want %d", round, len(got), n)
			}
		}
	}
	if got := d.Statements() - before; got != 15 {
		t.Errorf("%d statements counted, want 15", got)
	}
	if n := d.counter.stmts.order.Len(); n > 3 {
		t.Errorf("%d statements cached, want at most 3", n)
	}
	// Statements evicted while other goroutines use them.
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 40 {
				n := 1 + (g+i)%len(ids)
				got, err := d.Client.User.Query().Where(user.IDIn(ids[:n]...)).All(ctx)
				if err == nil && len(got) != n {
					err = fmt.Errorf("%d users, want %d", len(got), n)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
