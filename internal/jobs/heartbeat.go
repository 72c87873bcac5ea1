package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"entgo.io/ent/dialect"
)

// A process that works jobs says, every HeartbeatInterval, that it still
// works each of them: it writes the time into the job's queue row
// (metadata key "quire:heartbeat"). A running job whose heartbeat (or, before
// the first one, the start of its attempt) is older than StaleAfter
// belongs to a process that stopped, and is rescued (rescue.go). The
// heartbeat lives in the queue's own row so that it needs no table of
// Quire's, and so that it is written only while the job is running there
// with this process's attempt.

// errLost is the cause with which a job's context ends once another
// process rescued the job from this one (this process went silent for too
// long): the work it does from then on is not the job's.
var errLost = errors.New("the job was taken from this process after its heartbeat stopped")

// identity names a process among those sharing the database: the queue
// records it in each job's attempted_by. A process on the same host, in
// the same process namespace, can tell from it whether the process is
// gone (processGone) without waiting for its heartbeat to age.
type identity struct {
	pid   int
	pidns string // empty where process namespaces cannot be read
	host  string
	nonce string
}

// identityPrefix starts every identity; others (older versions, other
// programs) are left to the heartbeat rule.
const identityPrefix = "quire"

func newIdentity() identity {
	host, _ := os.Hostname()
	if len(host) > 60 {
		host = host[:60]
	}
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return identity{pid: os.Getpid(), pidns: pidNamespace(), host: host, nonce: hex.EncodeToString(b)}
}

// String is the queue's client id: under its 100-character limit, with the
// host last because only it may hold any character.
func (id identity) String() string {
	return fmt.Sprintf("%s:%d:%s:%s:%s", identityPrefix, id.pid, id.pidns, id.nonce, id.host)
}

func parseIdentity(s string) (identity, bool) {
	parts := strings.SplitN(s, ":", 5)
	if len(parts) != 5 || parts[0] != identityPrefix {
		return identity{}, false
	}
	pid, err := strconv.Atoi(parts[1])
	if err != nil || pid <= 0 {
		return identity{}, false
	}
	return identity{pid: pid, pidns: parts[2], nonce: parts[3], host: parts[4]}, true
}

// goneFrom tells whether the process other is known to have exited, as
// seen from this one: it ran on this host, in this process namespace, and
// its pid names no process. Anything else is not known (a live pid may
// have been reused), and the heartbeat decides.
func (id identity) goneFrom(other identity) bool {
	return other.host == id.host && id.pidns != "" && other.pidns == id.pidns &&
		other.pid != id.pid && processGone(other.pid)
}

// lease is a job this process works: its heartbeat is written while the
// lease is held, and lost is set, and the work's context ended, when the
// row shows the job is no longer this attempt's.
type lease struct {
	riverID int64
	attempt int
	cancel  context.CancelCauseFunc
	lost    atomic.Bool
}

// leases are the jobs this process works, by queue id.
type leases struct {
	mu sync.Mutex
	m  map[int64]*lease
}

// take registers the job riverID at attempt and returns the context its
// work runs in, ended with errLost if the job is taken from this process.
func (r *Runner) take(ctx context.Context, riverID int64, attempt int) (context.Context, *lease) {
	ctx, cancel := context.WithCancelCause(ctx)
	l := &lease{riverID: riverID, attempt: attempt, cancel: cancel}
	r.leases.mu.Lock()
	if r.leases.m == nil {
		r.leases.m = map[int64]*lease{}
	}
	r.leases.m[riverID] = l
	r.leases.mu.Unlock()
	return ctx, l
}

func (r *Runner) release(l *lease) {
	r.leases.mu.Lock()
	if r.leases.m[l.riverID] == l {
		delete(r.leases.m, l.riverID)
	}
	r.leases.mu.Unlock()
	l.cancel(nil)
}

func (r *Runner) held() []*lease {
	r.leases.mu.Lock()
	defer r.leases.mu.Unlock()
	out := make([]*lease, 0, len(r.leases.m))
	for _, l := range r.leases.m {
		out = append(out, l)
	}
	return out
}

// Heartbeats: the row must still be running with the lease's attempt, so
// that a process that lost a job cannot make it look alive again.
const (
	heartbeatSQLite   = `UPDATE river_job SET metadata = jsonb_set(metadata, '$."quire:heartbeat"', ?1) WHERE id = ?2 AND state = 'running' AND attempt = ?3`
	heartbeatPostgres = `UPDATE river_job SET metadata = metadata || jsonb_build_object('quire:heartbeat', $1::text) WHERE id = $2 AND state = 'running' AND attempt = $3`
)

// beat writes the heartbeat of every job this process works. A job whose
// row no longer matches its lease was rescued while this process was
// silent: its work is stopped.
func (r *Runner) beat(ctx context.Context) {
	q := heartbeatPostgres
	if r.d.Dialect == dialect.SQLite {
		q = heartbeatSQLite
	}
	for _, l := range r.held() {
		now := time.Now().UTC().Format(time.RFC3339Nano)
		res, err := r.d.SQL.ExecContext(ctx, q, now, l.riverID, l.attempt)
		if err != nil {
			// Unknown, not lost: the database may be briefly away, and the
			// bound is several heartbeats long.
			r.cfg.Log.Warn("job heartbeat", "river_id", l.riverID, "error", err.Error())
			continue
		}
		if n, err := res.RowsAffected(); err == nil && n == 0 && !l.lost.Swap(true) {
			r.cfg.Log.Error("a job was rescued from this process, which had gone silent for too long: its work stops",
				"river_id", l.riverID, "attempt", l.attempt)
			l.cancel(errLost)
		}
	}
}

// awaitTakeover holds a worker that lost its job until the job's row is no
// longer running (the queue records a result only on a running row, by
// id), so that this worker's result cannot overwrite the attempt that took
// over. It gives up when the runner stops.
func (r *Runner) awaitTakeover(riverID int64) {
	q := `SELECT state FROM river_job WHERE id = $1`
	if r.d.Dialect == dialect.SQLite {
		q = `SELECT state FROM river_job WHERE id = ?1`
	}
	t := time.NewTicker(r.cfg.HeartbeatInterval)
	defer t.Stop()
	for {
		var state string
		err := r.d.SQL.QueryRowContext(context.Background(), q, riverID).Scan(&state)
		if err != nil || state != "running" {
			return
		}
		select {
		case <-r.stopping:
			return
		case <-t.C:
		}
	}
}
