package main

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"quire/ent"
	"quire/internal/db"
	"quire/internal/jobs"
)

// The jobs commands list, show, cancel and retry the jobs of a database
// that processes share.
func TestAdminJobs(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		ctx := context.Background()
		d := openTestDB(t, url)
		if err := d.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		r := jobs.NewRunner(d, jobs.Config{PollInterval: 10 * time.Millisecond, RetryBase: 10 * time.Millisecond})
		r.Handle("test.fail", func(ctx context.Context, run jobs.Run) error {
			if err := run.Progress(ctx, 0.25, "reading"); err != nil {
				return err
			}
			return jobs.Permanent(errors.New("the source is not valid"))
		})
		var pending, failing string
		err := db.WithTx(ctx, d.Client, func(tx *ent.Tx) error {
			var err error
			if pending, err = r.Enqueue(ctx, tx, jobs.Request{Kind: "test.fail", Subject: "space:S1"}); err != nil {
				return err
			}
			failing, err = r.Enqueue(ctx, tx, jobs.Request{Kind: "test.fail", Subject: "space:S2"})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}

		var list []jobJSON
		quireJSON(t, &list, "admin", "jobs", "list", "--json", "--database-url", url)
		if len(list) != 2 || list[0].State != jobs.StatePending {
			t.Fatalf("jobs list = %+v", list)
		}
		code, stdout, _ := quire(t, "admin", "jobs", "list", "--subject", "space:S1", "--database-url", url)
		if code != 0 || !strings.Contains(stdout, pending) || strings.Contains(stdout, failing) || !strings.Contains(stdout, "pending") {
			t.Errorf("jobs list --subject: exit %d\n%s", code, stdout)
		}

		var cancelled jobJSON
		quireJSON(t, &cancelled, "admin", "jobs", "cancel", pending, "--database-url", url)
		if cancelled.ID != pending || cancelled.State != jobs.StateCancelled {
			t.Errorf("cancel = %+v", cancelled)
		}

		// A process works the other job: it fails for good.
		if err := r.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer r.Stop(ctx)
		code, stdout, _ = quire(t, "admin", "jobs", "show", failing, "--watch", "--database-url", url)
		if code != 1 || !strings.Contains(stdout, "failed") || !strings.Contains(stdout, "the source is not valid") ||
			!strings.Contains(stdout, "[#######") || !strings.Contains(stdout, "reading") {
			t.Errorf("show --watch of a failing job: exit %d\n%s", code, stdout)
		}

		var retried jobJSON
		quireJSON(t, &retried, "admin", "jobs", "retry", pending, "--database-url", url)
		if retried.State != jobs.StatePending && retried.State != jobs.StateRunning && retried.State != jobs.StateFailed {
			t.Errorf("retry = %+v", retried)
		}
		var shown jobJSON
		quireJSON(t, &shown, "admin", "jobs", "show", pending, "--watch", "--json", "--database-url", url)
		if shown.State != jobs.StateFailed || shown.Attempt != 1 || len(shown.Errors) == 0 {
			t.Errorf("the retried job = %+v, want it run again and failed", shown)
		}

		for _, args := range [][]string{{"show", "J0000000000000000000"}, {"cancel", "J0000000000000000000"}, {"retry", "J0000000000000000000"}} {
			code, stdout, stderr := quire(t, append([]string{"admin", "jobs"}, append(args, "--database-url", url)...)...)
			if code != 1 || stdout != "" || !strings.Contains(stderr, "no such job") {
				t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
			}
		}
		if code, _, _ := quire(t, "admin", "jobs", "show", "--database-url", url); code != 2 {
			t.Errorf("show without an id: exit %d, want 2", code)
		}
	})
}

// A job whose process stopped while working it is rescued by a process
// that works jobs, and the jobs commands show why: the retried one's
// errors, and the reason the one with no attempts left failed.
func TestAdminJobsShowRescue(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		ctx := context.Background()
		d := openTestDB(t, url)
		if err := d.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		r := jobs.NewRunner(d, jobs.Config{PollInterval: 10 * time.Millisecond, RetryBase: 10 * time.Millisecond,
			HeartbeatInterval: 20 * time.Millisecond, StaleAfter: time.Second})
		r.Handle("test.import", func(ctx context.Context, run jobs.Run) error { return nil })
		var retried, spent string
		err := db.WithTx(ctx, d.Client, func(tx *ent.Tx) error {
			var err error
			if retried, err = r.Enqueue(ctx, tx, jobs.Request{Kind: "test.import", Subject: "space:S1"}); err != nil {
				return err
			}
			spent, err = r.Enqueue(ctx, tx, jobs.Request{Kind: "test.import", Subject: "space:S2", MaxAttempts: 1})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		// A process took both two minutes ago and has not been heard of
		// since.
		for _, id := range []string{retried, spent} {
			rec := d.Client.Job.GetX(ctx, id)
			q, at := "UPDATE river_job SET state = 'running', attempt = 1, attempted_at = $1 WHERE id = $2", any(time.Now().Add(-2*time.Minute).UTC())
			if d.Dialect == "sqlite" {
				q, at = "UPDATE river_job SET state = 'running', attempt = 1, attempted_at = ? WHERE id = ?", time.Now().Add(-2*time.Minute).UTC().Format("2006-01-02 15:04:05.000")
			}
			if _, err := d.SQL.Exec(q, at, rec.RiverID); err != nil {
				t.Fatal(err)
			}
		}
		code, stdout, _ := quire(t, "admin", "jobs", "list", "--database-url", url)
		if code != 0 || strings.Count(stdout, "running") != 2 {
			t.Fatalf("jobs list before the rescue: exit %d\n%s", code, stdout)
		}

		if err := r.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer r.Stop(ctx)
		code, stdout, _ = quire(t, "admin", "jobs", "show", spent, "--watch", "--database-url", url)
		if code != 1 || !strings.Contains(stdout, "failed") || !strings.Contains(stdout, "error     attempt 1") ||
			!strings.Contains(stdout, jobs.StoppedMessage+" (no heartbeat for 2m") {
			t.Errorf("show of the rescued job with no attempts left: exit %d\n%s", code, stdout)
		}
		var shown jobJSON
		quireJSON(t, &shown, "admin", "jobs", "show", retried, "--watch", "--json", "--database-url", url)
		if shown.State != jobs.StateCompleted || shown.Attempt != 2 || len(shown.Errors) != 1 ||
			shown.Errors[0].Attempt != 1 || !strings.Contains(shown.Errors[0].Message, jobs.StoppedMessage) {
			t.Errorf("the rescued job = %+v, want completed at attempt 2 with the rescue's error", shown)
		}
	})
}

// jobs list leaves the periodic housekeeping jobs out unless --all, and
// --watch prints the list again until --count or an interrupt.
func TestAdminJobsListHousekeeping(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		ctx := context.Background()
		d := openTestDB(t, url)
		if err := d.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		r := jobs.NewRunner(d, jobs.Config{})
		kinds := append([]string{"git.import"}, housekeepingKinds...)
		for _, kind := range kinds {
			r.Handle(kind, func(context.Context, jobs.Run) error { return nil }) // never run: no worker starts
		}
		ids := map[string]string{}
		err := db.WithTx(ctx, d.Client, func(tx *ent.Tx) error {
			for _, kind := range kinds {
				id, err := r.Enqueue(ctx, tx, jobs.Request{Kind: kind, Subject: "space:S1"})
				if err != nil {
					return err
				}
				ids[kind] = id
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		var list []jobJSON
		quireJSON(t, &list, "admin", "jobs", "list", "--json", "--database-url", url)
		if len(list) != 1 || list[0].ID != ids["git.import"] {
			t.Errorf("jobs list = %+v; want the import alone", list)
		}
		quireJSON(t, &list, "admin", "jobs", "list", "--all", "--json", "--database-url", url)
		if len(list) != 3 {
			t.Errorf("jobs list --all = %+v; want 3 jobs", list)
		}

		code, stdout, stderr := quire(t, "admin", "jobs", "list", "--watch", "--count", "3", "--interval", "1ms", "--database-url", url)
		if code != 0 || strings.Count(stdout, "ID  ") != 3 || strings.Count(stdout, ids["git.import"]) != 3 || strings.Contains(stdout, ids[housekeepingKinds[0]]) {
			t.Errorf("jobs list --watch --count 3: exit %d\n%s\n%s", code, stdout, stderr)
		}

		// Without --count the watch ends when interrupted.
		wctx, cancel := context.WithCancel(t.Context())
		out := &lockedBuffer{}
		done := make(chan int, 1)
		go func() {
			done <- run(wctx, []string{"admin", "jobs", "list", "--watch", "--json", "--interval", "1ms", "--database-url", url}, out, io.Discard, func(string) string { return "" })
		}()
		for strings.Count(out.String(), "\n") < 2 {
			select {
			case code := <-done:
				t.Fatalf("watch ended by itself with %d", code)
			default:
				time.Sleep(time.Millisecond)
			}
		}
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("interrupted watch exited with %d", code)
		}

		for _, args := range [][]string{{"--interval", "0s"}, {"--count", "-1"}} {
			if code, _, _ := quire(t, append([]string{"admin", "jobs", "list", "--database-url", url}, args...)...); code != 2 {
				t.Errorf("jobs list %v: exit %d, want 2", args, code)
			}
		}
	})
}
