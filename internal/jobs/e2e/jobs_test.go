package e2e_test

import (
	"context"
	"os"
	"testing"
	"time"

	"quire/ent/revision"
	"quire/ent/space"
	"quire/internal/jobs"
	"quire/internal/testing/testdb"
	"quire/internal/testing/testenv"
)

func TestMain(m *testing.M) {
	if url := os.Getenv(childEnv); url != "" {
		// Re-executed by a test as a process that works jobs until killed.
		os.Exit(workAsChild(url))
	}
	os.Exit(testdb.Main(m))
}

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

// The trash sweep is a periodic job: with two processes working jobs, the
// one elected leader asks for it when it starts, and it purges the
// expired spaces once.
func TestTrashSweepIsAPeriodicJob(t *testing.T) {
	forEachBackend(t, func(t *testing.T, e *testenv.Env) {
		ctx := context.Background()
		team := e.NewTeam()
		f := newFixture(t, e, team, time.Now().UTC().Truncate(time.Second))
		replica := e.Replica(testenv.Options{})
		r := e.StartJobs()
		replica.StartJobs()

		deadline, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		var sweeps []*jobs.Info
		tick := time.NewTicker(testenv.JobPoll)
		defer tick.Stop()
		for len(sweeps) == 0 {
			select {
			case <-deadline.Done():
				t.Fatal("no trash sweep was asked for within 30 s")
			case <-tick.C:
			}
			all, err := r.List(ctx, jobs.ListOptions{Subject: "system"})
			if err != nil {
				t.Fatal(err)
			}
			sweeps = ofKind(all, jobs.KindSweepTrash)
		}
		in := e.WaitJob(sweeps[0].ID)
		if in.Kind != jobs.KindSweepTrash || in.State != jobs.StateCompleted {
			t.Fatalf("sweep job = %+v", in)
		}
		checkPurged(t, e, team, f)
		if all, err := r.List(ctx, jobs.ListOptions{Subject: "system"}); err != nil || len(ofKind(all, jobs.KindSweepTrash)) != 1 {
			t.Errorf("%d sweep jobs (%v), want 1: only the leader asks", len(ofKind(all, jobs.KindSweepTrash)), err)
		}
	})
}

// ofKind keeps the jobs of a kind (other periodic jobs, such as the
// search index's catch-up, run beside the sweep).
func ofKind(all []*jobs.Info, kind string) []*jobs.Info {
	var out []*jobs.Info
	for _, in := range all {
		if in.Kind == kind {
			out = append(out, in)
		}
	}
	return out
}
