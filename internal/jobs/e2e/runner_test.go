package e2e_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"quire/ent"
	"quire/internal/db"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

// newRunner is a runner over e's database, as another process would have,
// polling fast and retrying after 10 ms.
func newRunner(e *testenv.Env, setup func(r *jobs.Runner)) *jobs.Runner {
	r := jobs.NewRunner(e.DB, jobs.Config{PollInterval: testenv.JobPoll, RetryBase: 10 * time.Millisecond})
	setup(r)
	return r
}

func start(t *testing.T, r *jobs.Runner) {
	t.Helper()
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		r.Stop(ctx)
	})
}

func enqueue(t *testing.T, e *testenv.Env, r *jobs.Runner, req jobs.Request) string {
	t.Helper()
	var id string
	err := db.WithTx(context.Background(), e.Client(), func(tx *ent.Tx) error {
		var err error
		id, err = r.Enqueue(context.Background(), tx, req)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func wait(t *testing.T, r *jobs.Runner, id string) *jobs.Info {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	in, err := r.Wait(ctx, id, testenv.JobPoll, nil)
	if err != nil {
		t.Fatalf("job %s: %v (last seen %+v)", id, err, in)
	}
	return in
}

type echoArgs struct {
	Word string `json:"word"`
}

// A job inserted in a committed transaction runs once with its arguments,
// reports progress, and ends completed; one whose transaction rolled back
// does not exist.
func TestJobRunsWithItsTransaction(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		var mu sync.Mutex
		var got []string
		r := newRunner(e, func(r *jobs.Runner) {
			r.Handle("test.echo", func(ctx context.Context, run jobs.Run) error {
				var a echoArgs
				if err := run.Args(&a); err != nil {
					return err
				}
				if err := run.Progress(ctx, 0.5, "echoing "+a.Word); err != nil {
					return err
				}
				mu.Lock()
				got = append(got, a.Word)
				mu.Unlock()
				return nil
			})
		})
		id := enqueue(t, e, r, jobs.Request{Kind: "test.echo", Args: echoArgs{"hello"}, Organization: "O1", Subject: "thing:1", CreatedBy: "U1"})

		// Rolled back: no job, no record.
		boom := errors.New("boom")
		err := db.WithTx(context.Background(), e.Client(), func(tx *ent.Tx) error {
			if _, err := r.Enqueue(context.Background(), tx, jobs.Request{Kind: "test.echo", Args: echoArgs{"never"}, Subject: "thing:1"}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatal(err)
		}

		in, err := r.Get(context.Background(), id)
		if err != nil || in.State != jobs.StatePending || in.Subject != "thing:1" || in.Organization != "O1" || in.CreatedBy != "U1" {
			t.Fatalf("before start: %+v, %v", in, err)
		}
		start(t, r)
		in = wait(t, r, id)
		if in.State != jobs.StateCompleted || in.Progress != 1 || in.Step != "echoing hello" || in.Attempt != 1 || in.FinishedAt == nil {
			t.Errorf("finished job = %+v", in)
		}
		list, err := r.List(context.Background(), jobs.ListOptions{Subject: "thing:1"})
		if err != nil || len(list) != 1 || list[0].ID != id {
			t.Errorf("jobs of thing:1 = %+v, %v; want only %s", list, err, id)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(got) != 1 || got[0] != "hello" {
			t.Errorf("handler saw %q, want [hello]", got)
		}
	})
}

// A transient failure is retried; a permanent one fails at once; a job
// that keeps failing fails once its attempts are used up; a failed job
// can be retried by hand.
func TestJobFailuresAndRetries(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		var flaky, stubborn atomic.Int32
		var healed atomic.Bool
		r := newRunner(e, func(r *jobs.Runner) {
			r.Handle("test.flaky", func(ctx context.Context, run jobs.Run) error {
				if flaky.Add(1) < 3 {
					return fmt.Errorf("try again (attempt %d)", run.Attempt())
				}
				return nil
			})
			r.Handle("test.permanent", func(ctx context.Context, run jobs.Run) error {
				return jobs.Permanent(errors.New("the document is not valid"))
			})
			r.Handle("test.stubborn", func(ctx context.Context, run jobs.Run) error {
				stubborn.Add(1)
				if healed.Load() {
					return nil
				}
				return errors.New("still broken")
			})
		})
		start(t, r)
		flakyID := enqueue(t, e, r, jobs.Request{Kind: "test.flaky"})
		permID := enqueue(t, e, r, jobs.Request{Kind: "test.permanent"})
		stubID := enqueue(t, e, r, jobs.Request{Kind: "test.stubborn", MaxAttempts: 2})

		if in := wait(t, r, flakyID); in.State != jobs.StateCompleted || in.Attempt != 3 || len(in.Errors) != 2 {
			t.Errorf("flaky job = %+v, want completed at attempt 3 after 2 errors", in)
		}
		in := wait(t, r, permID)
		if in.State != jobs.StateFailed || in.Attempt != 1 || len(in.Errors) != 1 || in.Errors[0].Message != "the document is not valid" {
			t.Errorf("permanent failure = %+v, want failed at attempt 1 with its error as the handler said it", in)
		}
		in = wait(t, r, stubID)
		if in.State != jobs.StateFailed || in.Attempt != 2 || stubborn.Load() != 2 {
			t.Errorf("stubborn job = %+v after %d runs, want failed after 2 attempts", in, stubborn.Load())
		}

		if _, err := r.Retry(context.Background(), flakyID); err != nil {
			// A completed job may be run again too.
			t.Errorf("retry completed job: %v", err)
		}
		healed.Store(true)
		if _, err := r.Retry(context.Background(), stubID); err != nil {
			t.Fatal(err)
		}
		if in := wait(t, r, stubID); in.State != jobs.StateCompleted {
			t.Errorf("retried job = %+v, want completed", in)
		}
		if _, err := r.Retry(context.Background(), "J0000000000000000000"); !errors.Is(err, jobs.ErrNotFound) {
			t.Errorf("retry unknown job: %v, want ErrNotFound", err)
		}
	})
}

// A job cancelled before it runs never runs; a running job stops at its
// next progress report; both end cancelled, and a finished job is left as
// it is.
func TestJobCancel(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		var ran atomic.Int32
		running := make(chan struct{})
		r := newRunner(e, func(r *jobs.Runner) {
			r.Handle("test.never", func(ctx context.Context, run jobs.Run) error {
				ran.Add(1)
				return nil
			})
			r.Handle("test.long", func(ctx context.Context, run jobs.Run) error {
				close(running)
				for i := 0; ; i++ {
					if err := run.Progress(ctx, float64(i%100)/100, "working"); err != nil {
						return err
					}
					select {
					case <-ctx.Done():
						return ctx.Err()
					case <-time.After(5 * time.Millisecond):
					}
				}
			})
		})
		pending := enqueue(t, e, r, jobs.Request{Kind: "test.never"})
		in, err := r.Cancel(context.Background(), pending)
		if err != nil || in.State != jobs.StateCancelled {
			t.Fatalf("cancel pending: %+v, %v", in, err)
		}
		long := enqueue(t, e, r, jobs.Request{Kind: "test.long"})
		start(t, r)
		<-running
		if _, err := r.Cancel(context.Background(), long); err != nil {
			t.Fatal(err)
		}
		if in := wait(t, r, long); in.State != jobs.StateCancelled {
			t.Errorf("cancelled running job = %+v", in)
		}
		if in, err := r.Get(context.Background(), pending); err != nil || in.State != jobs.StateCancelled || ran.Load() != 0 {
			t.Errorf("job cancelled before running = %+v, %v, ran %d times", in, err, ran.Load())
		}
	})
}

// Two processes sharing the database work 40 jobs: each runs exactly once.
func TestJobsRunOnceAcrossProcesses(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		var mu sync.Mutex
		runs := map[string]int{}
		by := map[string]bool{}
		handler := func(name string) jobs.Handler {
			return func(ctx context.Context, run jobs.Run) error {
				mu.Lock()
				runs[run.ID()]++
				by[name] = true
				mu.Unlock()
				return nil
			}
		}
		a := newRunner(e, func(r *jobs.Runner) { r.Handle("test.count", handler("a")) })
		b := newRunner(e, func(r *jobs.Runner) { r.Handle("test.count", handler("b")) })
		var ids []string
		for range 40 {
			ids = append(ids, enqueue(t, e, a, jobs.Request{Kind: "test.count"}))
		}
		start(t, a)
		start(t, b)
		for _, id := range ids {
			if in := wait(t, a, id); in.State != jobs.StateCompleted {
				t.Errorf("job %s = %+v", id, in)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		for _, id := range ids {
			if runs[id] != 1 {
				t.Errorf("job %s ran %d times, want 1", id, runs[id])
			}
		}
		if len(runs) != len(ids) {
			t.Errorf("%d jobs ran, want %d", len(runs), len(ids))
		}
	})
}

// Jobs outlive their process: one enqueued by a process that stopped
// before working it, and one a process took and then died with, are
// worked by the next process to start.
func TestJobsSurviveRestart(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		var done atomic.Int32
		handler := func(ctx context.Context, run jobs.Run) error {
			done.Add(1)
			return nil
		}
		first := newRunner(e, func(r *jobs.Runner) { r.Handle("test.survive", handler) })
		queued := enqueue(t, e, first, jobs.Request{Kind: "test.survive"})
		taken := enqueue(t, e, first, jobs.Request{Kind: "test.survive"})
		// The first process took the second job and died: the queue's row
		// says running, attempted an hour ago.
		markRunning(t, e, first, taken, time.Now().Add(-time.Hour))

		second := jobs.NewRunner(e.DB, jobs.Config{PollInterval: testenv.JobPoll, RetryBase: 10 * time.Millisecond,
			JobTimeout: time.Minute, RescueAfter: 2 * time.Minute})
		second.Handle("test.survive", handler)
		start(t, second)
		for _, id := range []string{queued, taken} {
			if in := wait(t, second, id); in.State != jobs.StateCompleted {
				t.Errorf("job %s after restart = %+v", id, in)
			}
		}
		if n := done.Load(); n != 2 {
			t.Errorf("%d jobs done, want 2", n)
		}
	})
}

// markRunning makes the queue's row of job id look as a process that took
// it at at, and died, left it.
func markRunning(t *testing.T, e *testenv.Env, r *jobs.Runner, id string, at time.Time) {
	t.Helper()
	rec, err := e.Client().Job.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var q string
	var when any = at.UTC()
	if e.Dialect == "sqlite" {
		q = "UPDATE river_job SET state = 'running', attempt = 1, attempted_at = ? WHERE id = ?"
		when = at.UTC().Format("2006-01-02 15:04:05.000")
	} else {
		q = "UPDATE river_job SET state = 'running', attempt = 1, attempted_at = $1 WHERE id = $2"
	}
	if _, err := e.DB.SQL.Exec(q, when, rec.RiverID); err != nil {
		t.Fatal(err)
	}
	if in, err := r.Get(context.Background(), id); err != nil || in.State != jobs.StateRunning {
		t.Fatalf("job marked running = %+v, %v", in, err)
	}
}
