package e2e_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"quire/ent"
	"quire/internal/db"
	"quire/internal/jobs"
	"quire/internal/testing/testdb"
	"quire/internal/testing/testenv"
)

// childEnv, set to a database URL, makes the test binary a process that
// works "test.import" jobs of that database until it is killed.
const childEnv = "QUIRE_JOBS_TEST_CHILD"

// Short bounds, so that a rescue by heartbeat is seen in a test: still
// twenty heartbeats wide, so that a busy machine does not fake a death.
const (
	testHeartbeat = 50 * time.Millisecond
	testStale     = time.Second
)

func fastConfig() jobs.Config {
	return jobs.Config{PollInterval: testenv.JobPoll, RetryBase: 10 * time.Millisecond,
		HeartbeatInterval: testHeartbeat, StaleAfter: testStale}
}

// workAsChild works "test.import" jobs of url: each reports 70 % and then
// waits for the end of its context, which a killed process never sees.
func workAsChild(url string) int {
	d, err := db.Open(url, db.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: open:", err)
		return 1
	}
	r := jobs.NewRunner(d, fastConfig())
	r.Handle("test.import", func(ctx context.Context, run jobs.Run) error {
		if err := run.Progress(ctx, 0.7, "importing"); err != nil {
			return err
		}
		<-ctx.Done()
		return ctx.Err()
	})
	if err := r.Start(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "child: start:", err)
		return 1
	}
	select {}
}

// A process killed with SIGKILL while it works a job: the next process to
// start gives the job back to the queue with the reason in its errors, and
// works it to the end at its second attempt.
func TestJobOfKilledProcessRecovers(t *testing.T) {
	for _, backend := range testenv.Backends {
		t.Run(backend, func(t *testing.T) {
			url := "sqlite:" + filepath.Join(t.TempDir(), "quire.db")
			if backend == "postgres" {
				url = testdb.NewDatabase(t)
			}
			d, err := db.Open(url, db.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { d.Close() })
			ctx := context.Background()
			if err := d.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			var attempts atomic.Int32
			r := jobs.NewRunner(d, fastConfig())
			r.Handle("test.import", func(ctx context.Context, run jobs.Run) error {
				attempts.Add(1)
				return run.Progress(ctx, 1, "imported")
			})
			var id string
			err = db.WithTx(ctx, d.Client, func(tx *ent.Tx) error {
				id, err = r.Enqueue(ctx, tx, jobs.Request{Kind: "test.import", Subject: "space:S1", MaxAttempts: 3})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}

			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), childEnv+"="+url)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			done, _, err := testdb.StartChild(cmd)
			if err != nil {
				t.Fatal(err)
			}
			killed := false
			t.Cleanup(func() {
				if !killed {
					cmd.Process.Kill()
					<-done
				}
			})
			in := poll(t, r, id, func(in *jobs.Info) bool { return in.State == jobs.StateRunning && in.Progress >= 0.7 },
				func() string { return out.String() })
			if in.Attempt != 1 {
				t.Fatalf("job in the child = %+v, want its first attempt", in)
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			<-done
			killed = true
			if in, err := r.Get(ctx, id); err != nil || in.State != jobs.StateRunning {
				t.Fatalf("job of the killed process = %+v, %v; want it still running", in, err)
			}

			start(t, r)
			in = wait(t, r, id)
			if in.State != jobs.StateCompleted || in.Attempt != 2 || attempts.Load() != 1 {
				t.Fatalf("recovered job = %+v, run %d times here; want completed at attempt 2", in, attempts.Load())
			}
			if len(in.Errors) != 1 || in.Errors[0].Attempt != 1 || !strings.Contains(in.Errors[0].Message, jobs.StoppedMessage) {
				t.Errorf("errors of the recovered job = %+v, want attempt 1's %q", in.Errors, jobs.StoppedMessage)
			}
		})
	}
}

// poll reads job id until ok holds for it, or fails the test after a
// minute, with what diag says.
func poll(t *testing.T, r *jobs.Runner, id string, ok func(*jobs.Info) bool, diag func() string) *jobs.Info {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		in, err := r.Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if ok(in) {
			return in
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s stays %+v\n%s", id, in, diag())
		}
		time.Sleep(testenv.JobPoll)
	}
}

// A running job whose process fell silent (its attempt started ten
// minutes ago, no heartbeat since: long before the queue's own rescue
// would see it) is retried; one with no attempts left fails
// with the reason; one whose heartbeat is fresh is left running.
func TestSilentJobsAreRescued(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		r := jobs.NewRunner(e.DB, fastConfig())
		r.Handle("test.silent", func(ctx context.Context, run jobs.Run) error { return nil })
		retried := enqueue(t, e, r, jobs.Request{Kind: "test.silent"})
		spent := enqueue(t, e, r, jobs.Request{Kind: "test.silent", MaxAttempts: 1})
		alive := enqueue(t, e, r, jobs.Request{Kind: "test.silent"})
		tenMinutesAgo := time.Now().Add(-10 * time.Minute)
		for _, id := range []string{retried, spent, alive} {
			markRunning(t, e, r, id, tenMinutesAgo)
		}
		heartbeat(t, e, alive, time.Now().Add(time.Hour))

		start(t, r)
		if in := wait(t, r, retried); in.State != jobs.StateCompleted || in.Attempt != 2 || len(in.Errors) != 1 ||
			!strings.Contains(in.Errors[0].Message, jobs.StoppedMessage+" (no heartbeat for ") {
			t.Errorf("silent job = %+v, want completed at attempt 2 after the rescue's error", in)
		}
		in := wait(t, r, spent)
		if in.State != jobs.StateFailed || in.Attempt != 1 || len(in.Errors) != 1 || !strings.Contains(in.Errors[0].Message, jobs.StoppedMessage) {
			t.Errorf("silent job without attempts left = %+v, want failed with the rescue's error", in)
		}
		passes := r.Passes()
		for r.Passes() < passes+3 {
			time.Sleep(testHeartbeat)
		}
		if in, err := r.Get(context.Background(), alive); err != nil || in.State != jobs.StateRunning || len(in.Errors) != 0 {
			t.Errorf("job with a fresh heartbeat = %+v, %v; want it left running", in, err)
		}
	})
}

// A job that runs for longer than the silence bound, in a live process,
// is never taken from it by another process looking for stopped ones.
func TestLiveLongJobIsNotRescued(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		// Passes of the watcher spanning three silence bounds.
		span := int64(3 * testStale / testHeartbeat)
		var runs atomic.Int32
		var watcher *jobs.Runner
		long := func(ctx context.Context, run jobs.Run) error {
			runs.Add(1)
			until := watcher.Passes() + span
			for watcher.Passes() < until {
				if err := run.Progress(ctx, 0.5, "working"); err != nil {
					return err
				}
				time.Sleep(testHeartbeat)
			}
			return nil
		}
		// Both work the kind, as replicas do; the watcher starts once the
		// worker has taken the job, so it could run it only by rescuing it.
		watcher = jobs.NewRunner(e.DB, fastConfig())
		watcher.Handle("test.long", long)
		worker := jobs.NewRunner(e.DB, fastConfig())
		worker.Handle("test.long", long)
		id := enqueue(t, e, worker, jobs.Request{Kind: "test.long"})
		start(t, worker)
		poll(t, worker, id, func(in *jobs.Info) bool { return in.State == jobs.StateRunning }, func() string { return "" })
		start(t, watcher)
		in := wait(t, worker, id)
		if in.State != jobs.StateCompleted || in.Attempt != 1 || len(in.Errors) != 0 || runs.Load() != 1 {
			t.Errorf("long job = %+v, ran %d times; want completed at its only attempt", in, runs.Load())
		}
	})
}

// heartbeat writes a heartbeat at at on the queue's row of job id, as the
// process working it would.
func heartbeat(t *testing.T, e *testenv.Env, id string, at time.Time) {
	t.Helper()
	rec, err := e.Client().Job.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	q := `UPDATE river_job SET metadata = metadata || jsonb_build_object('quire:heartbeat', $1::text) WHERE id = $2`
	if e.Dialect == "sqlite" {
		q = `UPDATE river_job SET metadata = jsonb_set(metadata, '$."quire:heartbeat"', ?) WHERE id = ?`
	}
	if _, err := e.DB.SQL.Exec(q, at.UTC().Format(time.RFC3339Nano), rec.RiverID); err != nil {
		t.Fatal(err)
	}
}
