package db

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lib/pq"

	"quire/internal/apierr"
	"quire/internal/testing/testdb"
)

// On PostgreSQL every session of the pool ends a statement that runs
// longer than StatementTimeout, even one whose context never ends; the
// migrations, which may rightly take long, run without it.
func TestStatementTimeoutBackstop(t *testing.T) {
	d, err := Open(testdb.NewDatabase(t), Options{StatementTimeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	ctx := context.Background()
	if err := d.Migrate(ctx); err != nil {
		t.Fatalf("migrate under a 1 ms statement_timeout: %v", err)
	}
	d.SQL.SetMaxOpenConns(1) // the migration's connection, given back
	var setting string
	if err := d.SQL.QueryRowContext(ctx, "SHOW statement_timeout").Scan(&setting); err != nil {
		t.Fatal(err)
	}
	if setting != "1ms" {
		t.Fatalf("statement_timeout after migrating = %q, want 1ms", setting)
	}
	_, err = d.SQL.ExecContext(ctx, "SELECT pg_sleep(5)")
	var pe *pq.Error
	if !errors.As(err, &pe) || pe.Code != "57014" {
		t.Fatalf("a statement past statement_timeout: %v, want query_canceled (57014)", err)
	}
}

// A statement cut short by its context's deadline is a Timeout; a database
// that cannot be reached is Unavailable.
func TestClassify(t *testing.T) {
	d, err := Open("postgres://quire@127.0.0.1:1/quire?sslmode=disable", Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	_, err = d.Client.User.Query().Count(context.Background())
	if apierr.CodeOf(err) != apierr.Unavailable {
		t.Fatalf("nothing listening: %v, want Unavailable", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = d.Client.User.Query().Count(ctx)
	if apierr.CodeOf(err) != apierr.Canceled || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: %v, want Canceled wrapping the context's error", err)
	}
}
