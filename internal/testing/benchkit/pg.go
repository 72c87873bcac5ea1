package benchkit

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"quire/internal/testing/testdb"
)

// PGServer is a throwaway PostgreSQL cluster started by testdb, with a
// database for a benchmark. Close stops it and removes its directory.
type PGServer struct {
	*testdb.Server
	DB string // URL of the database bench
}

// ThrowawayPostgres starts a cluster with testdb's launcher (initdb and
// postgres in a temporary directory, on a free loopback port; every wait
// bounded) in the C locale, with every statement in its log when
// logStatements is set, and creates the database bench in it.
func ThrowawayPostgres(ctx context.Context, logStatements bool) (*PGServer, error) {
	srv, err := testdb.StartWith(testdb.Options{LogStatements: logStatements, Locale: "C"})
	if err != nil {
		return nil, err
	}
	u, err := srv.CreateDatabase(ctx, "bench")
	if err != nil {
		srv.Close()
		return nil, err
	}
	return &PGServer{Server: srv, DB: u}, nil
}

// CPUTimes returns the CPU time used so far by the postmaster and each of
// its live children (backends, background workers), by pid, from /proc.
func (p *PGServer) CPUTimes() map[int]time.Duration {
	out := map[int]time.Duration{}
	pm := p.PostmasterPID()
	if pm <= 0 {
		return out
	}
	const tick = 10 * time.Millisecond // USER_HZ is 100 on Linux
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// Fields after the parenthesized command: state ppid ... utime(14) stime(15).
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 13 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		if pid != pm && ppid != pm {
			continue
		}
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		out[pid] = time.Duration(ut+st) * tick
	}
	return out
}

// CPUSince returns the CPU time PostgreSQL used since the snapshot before
// (processes that exited in between are not counted).
func (p *PGServer) CPUSince(before map[int]time.Duration) time.Duration {
	var d time.Duration
	for pid, t := range p.CPUTimes() {
		d += t - before[pid]
	}
	return d
}

// FreePort returns a loopback TCP port free at the time of the call.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
