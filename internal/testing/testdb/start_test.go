package testdb

import (
	"context"
	"os"
	"strings"
	"testing"
)

// A server of its own, as the benchmarks start it: a database of their
// own in the C locale, the statements in the log, the postmaster's pid,
// and nothing left after Close.
func TestStartWith(t *testing.T) {
	if _, err := findBinaries(); err != nil {
		if os.Getenv(EnvRequire) == "1" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	srv, err := StartWith(Options{LogStatements: true, Locale: "C"})
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			srv.Close()
		}
	}()
	ctx := context.Background()
	u, err := srv.CreateDatabase(ctx, "bench")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(u, "/bench?") {
		t.Errorf("URL %s does not name the database bench", u)
	}
	var got string
	if err := open(t, u).QueryRowContext(ctx, "SELECT current_database() || ' ' || datcollate || ' quire-start-probe' FROM pg_database WHERE datname = current_database()").Scan(&got); err != nil || got != "bench C quire-start-probe" {
		t.Fatalf("got %q, %v", got, err)
	}
	if _, err := srv.CreateDatabase(ctx, "bench; DROP"); err == nil {
		t.Error("a name that is not an identifier was taken")
	}
	log, err := os.ReadFile(srv.LogPath())
	if err != nil || !strings.Contains(string(log), "quire-start-probe") {
		t.Errorf("the statement is not in the log %s (%v)", srv.LogPath(), err)
	}
	if pid := srv.PostmasterPID(); pid <= 0 {
		t.Errorf("postmaster pid %d", pid)
	}
	if _, err := os.Stat(srv.DataDir()); err != nil {
		t.Errorf("data directory: %v", err)
	}
	srv.Close()
	closed = true
	if srv.PostmasterPID() != 0 {
		t.Error("a closed server has a postmaster pid")
	}
	if _, err := os.Stat(srv.DataDir()); !os.IsNotExist(err) {
		t.Errorf("Close left the data directory %s (%v)", srv.DataDir(), err)
	}
}
