package jobs

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"quire/ent"
	"quire/ent/job"
	"quire/internal/db"
	"quire/internal/metrics"
	"quire/internal/textcut"
)

// Config tunes a Runner. Zero values take the defaults.
type Config struct {
	// Workers is how many jobs one process works at a time (default 4).
	Workers int
	// PollInterval is how often an idle process looks for new jobs
	// (default 1s).
	PollInterval time.Duration
	// JobTimeout bounds one attempt of a job (default 15 minutes).
	JobTimeout time.Duration
	// RescueAfter is how long a job may stay running before the queue
	// itself takes it to belong to a process that died, and runs it again
	// (default JobTimeout + 5 minutes): a backstop behind the heartbeat.
	RescueAfter time.Duration
	// HeartbeatInterval is how often a process records, on each job it
	// works, that it still works it, and looks for jobs of processes that
	// stopped (default 10s).
	HeartbeatInterval time.Duration
	// StaleAfter is how long a running job may go without a heartbeat
	// before it is taken to belong to a process that stopped, and is
	// retried (or failed, with no attempts left); default 40s, and at
	// least three heartbeat intervals. A job of a process on the same
	// host that has exited is rescued without waiting.
	StaleAfter time.Duration
	// MaxAttempts is how many attempts a job gets by default (default 5).
	MaxAttempts int
	// RetryBase, when set, is the wait before a failed job's second
	// attempt, doubling with each further one (at most an hour), with a
	// tenth of random spread. Zero keeps the queue's default: attempt⁴
	// seconds (1 s, 16 s, 81 s, ...).
	RetryBase time.Duration
	// Log receives the queue's own messages (nil: discarded).
	Log *slog.Logger
	// Metrics, when set, counts job runs.
	Metrics *metrics.Metrics
	// Events, when set, is told of each job's start, progress and end
	// (events.JobProgress), for subscribers.
	Events Publisher
}

func (c *Config) defaults() {
	if c.Workers <= 0 {
		c.Workers = 4
	}
	if c.PollInterval <= 0 {
		c.PollInterval = time.Second
	}
	if c.JobTimeout <= 0 {
		c.JobTimeout = 15 * time.Minute
	}
	if c.RescueAfter <= c.JobTimeout {
		c.RescueAfter = c.JobTimeout + 5*time.Minute
	}
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = 5
	}
	if c.HeartbeatInterval <= 0 {
		c.HeartbeatInterval = 10 * time.Second
	}
	if c.StaleAfter <= 0 {
		c.StaleAfter = 40 * time.Second
	}
	// A live process must have missed several heartbeats, not one late
	// write, before its jobs are taken from it.
	c.StaleAfter = max(c.StaleAfter, 3*c.HeartbeatInterval)
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
}

// Runner is Quire's durable job queue: River, in Quire's own database.
// Jobs are rows inserted in the transaction of the write that asks for
// them; every process that Starts the runner works them, each job claimed
// by one process at a time; a failed attempt is retried with exponential
// backoff; a job whose process stopped is run again once its heartbeat
// is older than StaleAfter (heartbeat.go, rescue.go). Handlers are
// registered before the first Enqueue or Start.
type Runner struct {
	d   *db.DB
	cfg Config
	id  identity

	leases leases
	// passes counts the heartbeat and rescue passes (see Passes).
	passes atomic.Int64
	// stopping is closed when Stop begins.
	stopping chan struct{}
	// maintStop ends the heartbeat and rescue loop; maintDone is closed
	// when it has ended.
	maintStop func()
	maintDone chan struct{}

	mu       sync.Mutex
	handlers map[string]Handler
	periodic []*river.PeriodicJob
	river    *river.Client[*sql.Tx]
	started  bool
	// unwatch stops forwarding the queue's events (see watchQueue).
	unwatch func()
}

// NewRunner returns a runner over d that has no handlers yet.
func NewRunner(d *db.DB, cfg Config) *Runner {
	cfg.defaults()
	return &Runner{d: d, cfg: cfg, id: newIdentity(), handlers: map[string]Handler{}, stopping: make(chan struct{})}
}

// Handle registers h for jobs of kind. It panics when called after the
// runner was first used, or twice for one kind: both are wiring mistakes.
func (r *Runner) Handle(kind string, h Handler) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.river != nil {
		panic("jobs: Handle(" + kind + ") after the runner was first used")
	}
	if _, dup := r.handlers[kind]; dup || kind == "" {
		panic("jobs: handler for kind " + fmt.Sprintf("%q", kind) + " registered twice or unnamed")
	}
	r.handlers[kind] = h
}

// Every registers h for jobs of kind and asks for one such job every
// interval, and when the runner starts. Among processes sharing the
// database, only the elected leader asks, so each period gets one job.
func (r *Runner) Every(kind string, interval time.Duration, h Handler) {
	r.Handle(kind, h)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.periodic = append(r.periodic, river.NewPeriodicJob(
		river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) { return payload{kind: kind}, nil },
		&river.PeriodicJobOpts{RunOnStart: true, ID: kind},
	))
}

// client returns the River client, made on first use with the handlers
// registered so far.
func (r *Runner) client() (*river.Client[*sql.Tx], error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.river != nil {
		return r.river, nil
	}
	workers := river.NewWorkers()
	for kind, h := range r.handlers {
		river.AddWorkerArgs(workers, payload{kind: kind}, &worker{r: r, kind: kind, h: h})
	}
	cfg := &river.Config{
		ID:                   r.id.String(),
		PollOnly:             true,
		FetchPollInterval:    r.cfg.PollInterval,
		FetchCooldown:        min(r.cfg.PollInterval, 100*time.Millisecond),
		JobTimeout:           r.cfg.JobTimeout,
		RescueStuckJobsAfter: r.cfg.RescueAfter,
		MaxAttempts:          r.cfg.MaxAttempts,
		Logger:               r.cfg.Log,
		RetryPolicy:          retryPolicy(r.cfg.RetryBase),
	}
	if len(r.handlers) > 0 {
		// Without handlers the runner only reads and changes jobs (the
		// admin commands): it has nothing to work.
		cfg.Queues = map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: r.cfg.Workers}}
		cfg.Workers = workers
		cfg.PeriodicJobs = r.periodic
	}
	c, err := river.NewClient(r.d.JobsDriver(), cfg)
	if err != nil {
		return nil, fmt.Errorf("job queue: %w", err)
	}
	r.river = c
	return c, nil
}

// Start makes this process work jobs until Stop.
func (r *Runner) Start(ctx context.Context) error {
	c, err := r.client()
	if err != nil {
		return err
	}
	var unwatch func()
	if r.cfg.Events != nil && r.hasHandlers() {
		ch, cancel := c.Subscribe(finishedKinds...)
		go r.watchQueue(context.WithoutCancel(ctx), ch)
		unwatch = cancel
	}
	if err := c.Start(ctx); err != nil {
		if unwatch != nil {
			unwatch()
		}
		return fmt.Errorf("start job queue: %w", err)
	}
	r.mu.Lock()
	r.started = true
	r.unwatch = unwatch
	if r.hasHandlersLocked() {
		// Not the caller's context: the loop lives until Stop.
		mctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		r.maintStop, r.maintDone = cancel, make(chan struct{})
		go r.maintain(mctx, r.maintDone)
	}
	r.mu.Unlock()
	return nil
}

func (r *Runner) hasHandlers() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hasHandlersLocked()
}

func (r *Runner) hasHandlersLocked() bool { return len(r.handlers) > 0 }

// Passes is how many heartbeat and rescue passes the runner has made since
// it started: one per heartbeat interval while it runs. Waiting for it to
// grow tells that the maintenance loop is alive, without waiting on time.
func (r *Runner) Passes() int64 { return r.passes.Load() }

// Stop stops taking jobs and waits for the running ones to finish, until
// ctx ends; then their contexts are cancelled (a job stopped that way runs
// again later, in this process or another).
func (r *Runner) Stop(ctx context.Context) error {
	r.mu.Lock()
	started, c := r.started, r.river
	r.started = false
	unwatch := r.unwatch
	r.unwatch = nil
	maintStop, maintDone := r.maintStop, r.maintDone
	r.maintStop, r.maintDone = nil, nil
	r.mu.Unlock()
	if !started {
		return nil
	}
	if unwatch != nil {
		defer unwatch()
	}
	select {
	case <-r.stopping:
	default:
		close(r.stopping)
	}
	if maintStop != nil {
		// Heartbeats go on until the running jobs have finished: a job
		// that a graceful stop waits for is not another process's to take.
		defer func() { maintStop(); <-maintDone }()
	}
	if err := c.Stop(ctx); err != nil {
		return c.StopAndCancel(context.WithoutCancel(ctx))
	}
	return nil
}

// Enqueue inserts a job in tx (a transaction db.WithTx runs), with Quire's
// record of it; it returns the job's id.
func (r *Runner) Enqueue(ctx context.Context, tx *ent.Tx, req Request) (string, error) {
	if _, ok := r.handlerFor(req.Kind); !ok {
		return "", fmt.Errorf("job kind %q has no handler", req.Kind)
	}
	raw, err := json.Marshal(req.Args)
	if err != nil {
		return "", fmt.Errorf("job arguments: %w", err)
	}
	if req.Args == nil {
		raw = []byte("{}")
	}
	c, err := r.client()
	if err != nil {
		return "", err
	}
	stx, err := r.d.SQLTx(tx)
	if err != nil {
		return "", err
	}
	opts := &river.InsertOpts{}
	if req.MaxAttempts > 0 {
		opts.MaxAttempts = req.MaxAttempts
	}
	res, err := c.InsertTx(ctx, stx, payload{kind: req.Kind, raw: raw}, opts)
	if err != nil {
		return "", fmt.Errorf("insert job: %w", err)
	}
	rec, err := tx.Job.Create().SetRiverID(res.Job.ID).SetKind(req.Kind).
		SetOrganizationID(req.Organization).SetSpaceID(req.Space).
		SetSubject(req.Subject).SetCreatedBy(req.CreatedBy).Save(ctx)
	if err != nil {
		return "", fmt.Errorf("record job: %w", err)
	}
	return rec.ID, nil
}

func (r *Runner) handlerFor(kind string) (Handler, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	h, ok := r.handlers[kind]
	return h, ok
}

// payload carries a job's kind and its arguments as JSON, so that one
// worker type serves every kind.
type payload struct {
	kind string
	raw  json.RawMessage
}

func (p payload) Kind() string { return p.kind }

func (p payload) MarshalJSON() ([]byte, error) {
	if len(p.raw) == 0 {
		return []byte("{}"), nil
	}
	return p.raw, nil
}

func (p *payload) UnmarshalJSON(b []byte) error {
	p.raw = append(json.RawMessage(nil), b...)
	return nil
}

// ErrCancelled is what Run.Progress returns once someone asked to cancel
// the job: the handler should stop and return it.
var ErrCancelled = errors.New("the job was cancelled")

// worker runs a handler for River.
type worker struct {
	river.WorkerDefaults[payload]
	r    *Runner
	kind string
	h    Handler
}

func (w *worker) Timeout(*river.Job[payload]) time.Duration { return w.r.cfg.JobTimeout }

func (w *worker) Work(ctx context.Context, j *river.Job[payload]) error {
	rec, err := w.r.record(ctx, j.ID, w.kind)
	if err != nil {
		return err
	}
	ctx, l := w.r.take(ctx, j.ID, j.Attempt)
	defer w.r.release(l)
	run := &run{r: w.r, rec: rec, id: rec.ID, attempt: j.Attempt, maxAttempts: j.MaxAttempts, raw: j.Args.raw, lease: l}
	w.r.publish(ctx, rec)
	err = w.h(ctx, run)
	w.r.observe(w.kind, err)
	if l.lost.Load() {
		// Another process rescued the job while this one was silent: the
		// record and the queue's row are the new attempt's now.
		w.r.awaitTakeover(j.ID)
		return errLost
	}
	final := context.WithoutCancel(ctx)
	now := time.Now().UTC()
	upd := w.r.d.Client.Job.UpdateOneID(rec.ID).SetUpdatedAt(now)
	switch {
	case err == nil:
		upd.SetProgress(1).SetOutcome(OutcomeCompleted).SetFinishedAt(now)
	case errors.Is(err, ErrCancelled) || IsPermanent(err) || j.Attempt >= j.MaxAttempts:
		outcome := OutcomeFailed
		if errors.Is(err, ErrCancelled) {
			outcome = OutcomeCancelled
		}
		upd.SetOutcome(outcome).SetLastError(textcut.Bytes(err.Error(), 2000)).SetFinishedAt(now)
	default:
		upd.SetLastError(textcut.Bytes(err.Error(), 2000))
	}
	if uerr := upd.Exec(final); uerr != nil {
		w.r.cfg.Log.Error("record job outcome", "job", rec.ID, "error", uerr.Error())
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrCancelled), IsPermanent(err):
		return river.JobCancel(err)
	default:
		return err
	}
}

// Outcomes of finished jobs, as Quire records them.
const (
	OutcomeCompleted = "completed"
	OutcomeCancelled = "cancelled"
	OutcomeFailed    = "failed"
)

// record returns Quire's record of the queue's job riverID, making it for
// jobs the queue inserted itself (periodic ones).
func (r *Runner) record(ctx context.Context, riverID int64, kind string) (*ent.Job, error) {
	rec, err := r.d.Client.Job.Query().Where(job.RiverID(riverID)).Only(ctx)
	if err == nil || !ent.IsNotFound(err) {
		return rec, err
	}
	id, err := r.d.Client.Job.Create().SetRiverID(riverID).SetKind(kind).SetSubject("system").
		OnConflictColumns(job.FieldRiverID).Ignore().ID(ctx)
	if err != nil {
		return nil, fmt.Errorf("record job: %w", err)
	}
	return r.d.Client.Job.Get(ctx, id)
}

func (r *Runner) observe(kind string, err error) {
	if r.cfg.Metrics == nil {
		return
	}
	result := "ran"
	if err != nil {
		result = "failed"
	}
	r.cfg.Metrics.JobRuns.WithLabelValues(kind, result).Inc()
}

// run is a job being worked.
type run struct {
	r           *Runner
	rec         *ent.Job
	id          string
	attempt     int
	maxAttempts int
	raw         json.RawMessage
	lease       *lease
}

func (x *run) ID() string       { return x.id }
func (x *run) Attempt() int     { return x.attempt }
func (x *run) MaxAttempts() int { return x.maxAttempts }
func (x *run) Args(v any) error { return json.Unmarshal(x.raw, v) }

func (x *run) Progress(ctx context.Context, fraction float64, step string) error {
	if x.lease != nil && x.lease.lost.Load() {
		return errLost
	}
	fraction = min(max(fraction, 0), 1)
	step = textcut.Bytes(step, 200)
	c := x.r.d.Client
	if err := c.Job.UpdateOneID(x.id).SetProgress(fraction).SetStep(step).SetUpdatedAt(time.Now().UTC()).Exec(ctx); err != nil {
		return fmt.Errorf("record progress: %w", err)
	}
	x.r.publish(ctx, x.rec)
	cancelled, err := c.Job.Query().Where(job.ID(x.id), job.CancelRequested(true)).Exist(ctx)
	if err != nil {
		return fmt.Errorf("read job: %w", err)
	}
	if cancelled {
		return ErrCancelled
	}
	return ctx.Err()
}

// retryPolicy is exponential from base; nil (the queue's default) when
// base is zero.
func retryPolicy(base time.Duration) river.ClientRetryPolicy {
	if base <= 0 {
		return nil
	}
	return doubling{base: base}
}

type doubling struct{ base time.Duration }

func (d doubling) NextRetry(j *rivertype.JobRow) time.Time {
	wait := d.base
	for i := 1; i < j.Attempt && wait < time.Hour; i++ {
		wait *= 2
	}
	wait = min(wait, time.Hour)
	wait += time.Duration(rand.Int64N(int64(wait)/10 + 1))
	return time.Now().Add(wait)
}
