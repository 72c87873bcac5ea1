package e2e_test

import (
	"context"
	"testing"
	"time"

	"github.com/lib/pq"

	"quire/ent/member"
	"quire/internal/auth"
	"quire/internal/db"
	"quire/internal/testing/testenv"
	"quire/internal/types"
)

// On PostgreSQL a token's caller is read once and kept; on SQLite it is read
// with every request.
func TestCallerKept(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		// A new token: its first request cannot find its caller kept.
		tok, err := auth.CreateToken(context.Background(), e.Client(), team.Reader.User.ID, "kept")
		if err != nil {
			t.Fatal(err)
		}
		count := func() int64 {
			before := e.Statements()
			if r := e.Do(tok, "GET", "/v1/user", nil); r.Status != 200 {
				t.Fatalf("GET /v1/user: %d", r.Status)
			}
			return e.Statements() - before
		}
		first, second := count(), count()
		want := first
		if e.Dialect == "postgres" {
			want = first - 1
		}
		if second != want {
			t.Fatalf("%s: %d statements, then %d; want %d the second time", e.Dialect, first, second, want)
		}
	})
}

// What the caller was read from changing through the same process is seen
// by its next request: a token revoked, a role lowered.
func TestKeptCallerForgottenOnChange(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		ctx := context.Background()
		team := e.NewTeam()
		orgPath := "/v1/orgs/" + team.Org.ID + "/spaces"
		if r := e.Do(team.Admin.Token, "POST", orgPath, map[string]any{"title": "Before"}); r.Status != 201 && r.Status != 200 {
			t.Fatalf("an admin creates a space: %d %s", r.Status, r.Body)
		}
		role := types.Role("read")
		if err := e.Client().Member.Update().Where(member.OrganizationID(team.Org.ID), member.UserID(team.Admin.User.ID)).
			SetRole(role).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if r := e.Do(team.Admin.Token, "POST", orgPath, map[string]any{"title": "After"}); r.Status != 403 {
			t.Fatalf("the admin, now a reader, creates a space: %d %s", r.Status, r.Body)
		}
		if r := e.Do(team.Reader.Token, "GET", "/v1/user", nil); r.Status != 200 {
			t.Fatalf("GET /v1/user: %d", r.Status)
		}
		if _, err := auth.RevokeSecret(ctx, e.Client(), team.Reader.Token); err != nil {
			t.Fatal(err)
		}
		if r := e.Do(team.Reader.Token, "GET", "/v1/user", nil); r.Status != 401 {
			t.Fatalf("a revoked token: %d", r.Status)
		}
	})
}

// A change committed by another process (another database handle, as
// `quire admin token revoke` has) reaches this one through the
// announcement on PostgreSQL.
func TestKeptCallerForgottenOnAnotherProcessChange(t *testing.T) {
	e := testenv.New(t, "postgres")
	team := e.NewTeam()
	other := e.SeparateReplica(testenv.Options{})
	if r := e.Do(team.Reader.Token, "GET", "/v1/user", nil); r.Status != 200 {
		t.Fatalf("GET /v1/user: %d", r.Status)
	}
	if _, err := auth.RevokeSecret(context.Background(), other.Client(), team.Reader.Token); err != nil {
		t.Fatal(err)
	}
	// The announcement travels through PostgreSQL: wait for it, bounded.
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := e.Do(team.Reader.Token, "GET", "/v1/user", nil)
		if r.Status == 401 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("a token revoked by another process still answers %d", r.Status)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A process's own announcements carry its handle's instance, and its
// cache passes over them: it forgot when the change committed, and
// forgetting again when the announcement comes back would drop callers
// read since. Another instance's announcement is heard.
func TestOwnAnnouncementsPassedOver(t *testing.T) {
	e := testenv.New(t, "postgres")
	cache := e.Server.Callers()
	probe := pq.NewListener(e.DB.URL(), 50*time.Millisecond, time.Second, nil)
	defer probe.Close()
	if err := probe.Listen(db.AccessChannel); err != nil {
		t.Fatal(err)
	}
	// A write of this process: forgotten once, at commit.
	before := cache.Forgets()
	e.User("someone-new@example.com")
	if cache.Forgets() == before {
		t.Fatal("a write to users did not forget the kept callers")
	}
	select {
	case n := <-probe.NotificationChannel():
		if n == nil || n.Extra == "" || n.Extra != e.DB.Instance() {
			t.Fatalf("announcement %+v, want the payload %q", n, e.DB.Instance())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no announcement of the write in 10s")
	}
	// The process's own announcement, then another's, in one transaction
	// (delivered in order): only the second forgets.
	tx, err := e.DB.SQL.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, payload := range []string{e.DB.Instance(), "another-process"} {
		if _, err := tx.Exec("SELECT pg_notify($1, $2)", db.AccessChannel, payload); err != nil {
			t.Fatal(err)
		}
	}
	before = cache.Forgets()
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for cache.Forgets() == before {
		if time.Now().After(deadline) {
			t.Fatal("another process's announcement was not heard in 10s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	// Both announcements have been read: the own one did not forget.
	for range 2 {
		select {
		case <-probe.NotificationChannel():
		case <-time.After(10 * time.Second):
			t.Fatal("the probe missed an announcement")
		}
	}
	if got := cache.Forgets() - before; got != 1 {
		t.Fatalf("the two announcements forgot %d times, want 1", got)
	}
}
