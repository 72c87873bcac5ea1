package jobs_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"quire/ent/revision"
	"quire/ent/space"
	"quire/internal/jobs"
	"quire/internal/testdb"
	"quire/internal/testenv"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// forEachBackend runs fn on a fresh environment of every database.
func forEachBackend(t *testing.T, fn func(t *testing.T, e *testenv.Env)) {
	t.Helper()
	for _, b := range testenv.Backends {
		t.Run(b, func(t *testing.T) { fn(t, testenv.New(t, b)) })
	}
}

// newSpace creates a space through the API, so that it has its initial
// revision like any other, and returns its id.
func newSpace(t *testing.T, e *testenv.Env, team *testenv.Team, title string) string {
	t.Helper()
	r := e.Do(team.Admin.Token, "POST", "/v1/orgs/"+team.Org.ID+"/spaces", map[string]any{"title": title})
	if r.Status != 201 {
		t.Fatalf("create space: %d %s", r.Status, r.Body)
	}
	return r.JSON()["id"].(string)
}

// trash deletes a space through the API and backdates its deletion.
func trash(t *testing.T, e *testenv.Env, team *testenv.Team, id string, at time.Time) {
	t.Helper()
	if r := e.Do(team.Admin.Token, "DELETE", "/v1/spaces/"+id, nil); r.Status != 205 {
		t.Fatalf("delete space: %d %s", r.Status, r.Body)
	}
	if err := e.Client().Space.UpdateOneID(id).SetDeletedAt(at).Exec(context.Background()); err != nil {
		t.Fatalf("set deleted_at: %v", err)
	}
}

func revisionsOf(t *testing.T, e *testenv.Env, id string) int {
	t.Helper()
	n, err := e.Client().Revision.Query().Where(revision.SpaceID(id)).Count(context.Background())
	if err != nil {
		t.Fatalf("count revisions: %v", err)
	}
	return n
}

func spaceExists(t *testing.T, e *testenv.Env, id string) bool {
	t.Helper()
	ok, err := e.Client().Space.Query().Where(space.ID(id)).Exist(context.Background())
	if err != nil {
		t.Fatalf("query spaces: %v", err)
	}
	return ok
}

// fixture is the usual set of spaces of a purge test.
type fixture struct {
	expired, recent, live string
}

func newFixture(t *testing.T, e *testenv.Env, team *testenv.Team, now time.Time) fixture {
	t.Helper()
	f := fixture{
		expired: newSpace(t, e, team, "Expired"),
		recent:  newSpace(t, e, team, "Recent"),
		live:    newSpace(t, e, team, "Live"),
	}
	// The expired space holds more than its initial revision.
	if _, err := e.Client().Revision.Create().SetSpaceID(f.expired).Save(context.Background()); err != nil {
		t.Fatalf("create revision: %v", err)
	}
	trash(t, e, team, f.expired, now.Add(-8*24*time.Hour))
	trash(t, e, team, f.recent, now.Add(-2*24*time.Hour))
	return f
}

// checkPurged asserts that only the expired space and its revisions are gone.
func checkPurged(t *testing.T, e *testenv.Env, team *testenv.Team, f fixture) {
	t.Helper()
	if spaceExists(t, e, f.expired) {
		t.Errorf("space deleted 8 days ago is still stored")
	}
	if n := revisionsOf(t, e, f.expired); n != 0 {
		t.Errorf("space deleted 8 days ago still has %d revisions", n)
	}
	for name, id := range map[string]string{"deleted 2 days ago": f.recent, "live": f.live} {
		if !spaceExists(t, e, id) {
			t.Errorf("%s space was purged", name)
		}
		if n := revisionsOf(t, e, id); n != 1 {
			t.Errorf("%s space has %d revisions, want 1", name, n)
		}
	}
	// What users see: the purged space is gone for good, the recent one can
	// still be restored, the live one is untouched.
	if r := e.Do(team.Admin.Token, "GET", "/v1/spaces/"+f.expired, nil); r.Status != 404 {
		t.Errorf("GET purged space: %d %s", r.Status, r.Body)
	}
	if r := e.Do(team.Admin.Token, "POST", "/v1/spaces/"+f.expired+"/restore", nil); r.Status != 404 {
		t.Errorf("restore purged space: %d %s", r.Status, r.Body)
	}
	if r := e.Do(team.Admin.Token, "GET", "/v1/spaces/"+f.live, nil); r.Status != 200 || r.JSON()["deletedAt"] != nil {
		t.Errorf("GET live space: %d %s", r.Status, r.Body)
	}
	if r := e.Do(team.Admin.Token, "POST", "/v1/spaces/"+f.recent+"/restore", nil); r.Status != 200 {
		t.Errorf("restore space deleted 2 days ago: %d %s", r.Status, r.Body)
	}
}

func TestPurgeDeletedSpaces(t *testing.T) {
	forEachBackend(t, func(t *testing.T, e *testenv.Env) {
		ctx := context.Background()
		team := e.NewTeam()
		now := time.Now().UTC()
		f := newFixture(t, e, team, now)
		// A space of another organization, deleted long ago, goes too.
		r := e.Do(team.Outsider.Token, "POST", "/v1/orgs/"+team.Other.ID+"/spaces", map[string]any{"title": "Theirs"})
		if r.Status != 201 {
			t.Fatalf("create foreign space: %d %s", r.Status, r.Body)
		}
		foreign := r.JSON()["id"].(string)
		if err := e.Client().Space.UpdateOneID(foreign).SetDeletedAt(now.Add(-30 * 24 * time.Hour)).Exec(ctx); err != nil {
			t.Fatal(err)
		}

		n, err := jobs.PurgeDeletedSpaces(ctx, e.Client(), e.Server.Resolver().Content, now)
		if err != nil {
			t.Fatalf("purge: %v", err)
		}
		if n != 2 {
			t.Errorf("purged %d spaces, want 2", n)
		}
		checkPurged(t, e, team, f)
		if spaceExists(t, e, foreign) {
			t.Errorf("foreign space deleted 30 days ago is still stored")
		}

		// Running again finds nothing more to do.
		if n, err := jobs.PurgeDeletedSpaces(ctx, e.Client(), e.Server.Resolver().Content, now); err != nil || n != 0 {
			t.Errorf("second purge: %d, %v", n, err)
		}
	})
}

func TestPurgeKeepsSpacesWithinRetention(t *testing.T) {
	forEachBackend(t, func(t *testing.T, e *testenv.Env) {
		ctx := context.Background()
		team := e.NewTeam()
		now := time.Now().UTC().Truncate(time.Second)
		id := newSpace(t, e, team, "Almost")
		trash(t, e, team, id, now.Add(-7*24*time.Hour+time.Minute))
		if n, err := jobs.PurgeDeletedSpaces(ctx, e.Client(), e.Server.Resolver().Content, now); err != nil || n != 0 {
			t.Fatalf("purge within retention: %d, %v", n, err)
		}
		if !spaceExists(t, e, id) || revisionsOf(t, e, id) != 1 {
			t.Fatalf("space deleted 7 days minus a minute ago was purged")
		}
		// Two minutes later it has expired.
		if n, err := jobs.PurgeDeletedSpaces(ctx, e.Client(), e.Server.Resolver().Content, now.Add(2*time.Minute)); err != nil || n != 1 {
			t.Fatalf("purge after retention: %d, %v", n, err)
		}
		if spaceExists(t, e, id) || revisionsOf(t, e, id) != 0 {
			t.Errorf("expired space survived")
		}
	})
}

func TestClaim(t *testing.T) {
	forEachBackend(t, func(t *testing.T, e *testenv.Env) {
		ctx := context.Background()
		c := e.Client()
		now := time.Now().UTC().Truncate(time.Second)
		const ttl = time.Minute

		t.Run("two holders at the same time: exactly one wins", func(t *testing.T) {
			for round := 0; round < 10; round++ {
				job := fmt.Sprintf("race-%d", round)
				var (
					wg    sync.WaitGroup
					start = make(chan struct{})
					won   [2]bool
					errs  [2]error
				)
				for i := range 2 {
					wg.Add(1)
					go func(i int) {
						defer wg.Done()
						<-start
						won[i], errs[i] = jobs.Claim(ctx, c, job, fmt.Sprintf("holder-%d", i), now, ttl)
					}(i)
				}
				close(start)
				wg.Wait()
				for i, err := range errs {
					if err != nil {
						t.Fatalf("round %d holder %d: %v", round, i, err)
					}
				}
				if won[0] == won[1] {
					t.Fatalf("round %d: holder-0 won %v, holder-1 won %v; want exactly one", round, won[0], won[1])
				}
				winner, loser := "holder-0", "holder-1"
				if won[1] {
					winner, loser = loser, winner
				}
				lease, err := c.JobLease.Get(ctx, job)
				if err != nil {
					t.Fatal(err)
				}
				if lease.Holder != winner || !lease.LockedUntil.Equal(now.Add(ttl)) {
					t.Errorf("round %d: lease = %s until %v, want %s until %v", round, lease.Holder, lease.LockedUntil, winner, now.Add(ttl))
				}
				// The loser still cannot take it while the lease runs.
				if ok, err := jobs.Claim(ctx, c, job, loser, now.Add(ttl/2), ttl); err != nil || ok {
					t.Errorf("round %d: loser claimed a running lease: %v, %v", round, ok, err)
				}
			}
		})

		t.Run("lease expiry and renewal", func(t *testing.T) {
			const job = "lease"
			claim := func(holder string, at time.Time) bool {
				t.Helper()
				ok, err := jobs.Claim(ctx, c, job, holder, at, ttl)
				if err != nil {
					t.Fatalf("claim %s at %v: %v", holder, at, err)
				}
				return ok
			}
			if !claim("a", now) {
				t.Fatalf("first claim of a fresh job failed")
			}
			if claim("b", now) {
				t.Errorf("b took a's running lease")
			}
			// a renews its own lease before it ends: now until now+90s.
			if !claim("a", now.Add(30*time.Second)) {
				t.Errorf("a could not renew its own lease")
			}
			if claim("b", now.Add(61*time.Second)) {
				t.Errorf("b took the lease that a renewed")
			}
			// After the renewed lease expires, b gets it.
			if !claim("b", now.Add(91*time.Second)) {
				t.Fatalf("b could not claim an expired lease")
			}
			if claim("a", now.Add(92*time.Second)) {
				t.Errorf("a took back b's running lease")
			}
			lease, err := c.JobLease.Get(ctx, job)
			if err != nil {
				t.Fatal(err)
			}
			if lease.Holder != "b" || !lease.LockedUntil.Equal(now.Add(91*time.Second+ttl)) {
				t.Errorf("lease = %s until %v", lease.Holder, lease.LockedUntil)
			}
			// Jobs are independent: a holds another job while b holds this one.
			if ok, err := jobs.Claim(ctx, c, "other-job", "a", now, ttl); err != nil || !ok {
				t.Errorf("claim of another job: %v, %v", ok, err)
			}
		})
	})
}

func TestSweeperRunOnce(t *testing.T) {
	forEachBackend(t, func(t *testing.T, e *testenv.Env) {
		ctx := context.Background()
		team := e.NewTeam()
		now := time.Now().UTC().Truncate(time.Second)
		f := newFixture(t, e, team, now)
		clock := now
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		mk := func(holder string) *jobs.Sweeper {
			return &jobs.Sweeper{Client: e.Client(), Purger: e.Server.Resolver().Content, Holder: holder, Interval: time.Hour, Log: log,
				Now: func() time.Time { return clock }}
		}
		first, second := mk("replica-1"), mk("replica-2")

		ran, purged, err := first.RunOnce(ctx)
		if err != nil || !ran || purged != 1 {
			t.Fatalf("first sweeper: ran=%v purged=%d err=%v; want ran, 1 purged", ran, purged, err)
		}
		ran, purged, err = second.RunOnce(ctx)
		if err != nil || ran || purged != 0 {
			t.Fatalf("second sweeper: ran=%v purged=%d err=%v; want not ran", ran, purged, err)
		}
		checkPurged(t, e, team, f)

		// The first one keeps its turn on its next run.
		clock = now.Add(30 * time.Minute)
		if ran, _, err := first.RunOnce(ctx); err != nil || !ran {
			t.Errorf("first sweeper renewing: ran=%v err=%v", ran, err)
		}
		if ran, _, err := second.RunOnce(ctx); err != nil || ran {
			t.Errorf("second sweeper during first's renewed lease: ran=%v err=%v", ran, err)
		}
		// When the first stops running, the second takes over after the lease.
		clock = now.Add(30*time.Minute + time.Hour + time.Second)
		if ran, _, err := second.RunOnce(ctx); err != nil || !ran {
			t.Errorf("second sweeper after the lease expired: ran=%v err=%v", ran, err)
		}
		if ran, _, err := first.RunOnce(ctx); err != nil || ran {
			t.Errorf("first sweeper after the second took over: ran=%v err=%v", ran, err)
		}
	})
}

func TestSweepersConcurrently(t *testing.T) {
	forEachBackend(t, func(t *testing.T, e *testenv.Env) {
		ctx := context.Background()
		team := e.NewTeam()
		now := time.Now().UTC().Truncate(time.Second)
		f := newFixture(t, e, team, now)
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		const n = 4
		var (
			wg     sync.WaitGroup
			start  = make(chan struct{})
			ran    [n]bool
			purged [n]int
			errs   [n]error
		)
		for i := range n {
			s := &jobs.Sweeper{Client: e.Client(), Purger: e.Server.Resolver().Content, Holder: fmt.Sprintf("replica-%d", i), Interval: time.Hour, Log: log,
				Now: func() time.Time { return now }}
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				<-start
				ran[i], purged[i], errs[i] = s.RunOnce(ctx)
			}(i)
		}
		close(start)
		wg.Wait()
		runs, total := 0, 0
		for i := range n {
			if errs[i] != nil {
				t.Fatalf("sweeper %d: %v", i, errs[i])
			}
			if ran[i] {
				runs++
			}
			total += purged[i]
		}
		if runs != 1 || total != 1 {
			t.Errorf("%d sweepers ran, %d spaces purged; want 1 and 1", runs, total)
		}
		checkPurged(t, e, team, f)
	})
}
