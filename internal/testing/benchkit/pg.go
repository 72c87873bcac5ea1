package benchkit

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/lib/pq"
)

// ThrowawayPostgres starts a PostgreSQL cluster in a temporary directory
// (initdb + postgres on a free loopback port, as internal/testing/testdb does for
// tests), creates a database and returns its URL and a function that stops
// the server and removes the directory. Every wait is bounded.
// PGServer is a running throwaway cluster.
type PGServer struct {
	Stop func()
	Log  string // server log file
	Data string // data directory
}

// CPUTimes returns the CPU time used so far by the postmaster and each of
// its live children (backends, background workers), by pid, from /proc.
func (p PGServer) CPUTimes() map[int]time.Duration {
	out := map[int]time.Duration{}
	pm := postmasterPID(p.Data)
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
func (p PGServer) CPUSince(before map[int]time.Duration) time.Duration {
	var d time.Duration
	for pid, t := range p.CPUTimes() {
		d += t - before[pid]
	}
	return d
}

// ThrowawayPostgres starts a PostgreSQL cluster in a temporary directory
// (initdb + postgres on a free loopback port, as internal/testing/testdb does for
// tests), creates a database and returns its URL and the server, whose Stop
// stops it and removes the directory. Every wait is bounded.
func ThrowawayPostgres(ctx context.Context, logStatements bool) (url string, srv PGServer, err error) {
	bin, err := pgBinaries()
	if err != nil {
		return "", PGServer{}, err
	}
	var prefix []string
	uid, gid := -1, -1
	asRoot := os.Geteuid() == 0
	if asRoot { // PostgreSQL refuses to run as root.
		runuser, err := exec.LookPath("runuser")
		if err != nil {
			return "", PGServer{}, fmt.Errorf("running as root needs runuser: %v", err)
		}
		u, err := user.Lookup("postgres")
		if err != nil {
			return "", PGServer{}, fmt.Errorf("running as root needs an OS user named postgres: %v", err)
		}
		uid, _ = strconv.Atoi(u.Uid)
		gid, _ = strconv.Atoi(u.Gid)
		prefix = []string{runuser, "-u", "postgres", "--"}
	}
	dir, err := os.MkdirTemp("/tmp", "bench-pg-")
	if err != nil {
		return "", PGServer{}, err
	}
	cleanupDir := func() { os.RemoveAll(dir) }
	if asRoot {
		if err := os.Chown(dir, uid, gid); err != nil {
			cleanupDir()
			return "", PGServer{}, err
		}
	}
	data := filepath.Join(dir, "data")
	initArgs := append(append([]string{}, prefix...), bin[0], "-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C")
	ictx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	out, err := exec.CommandContext(ictx, initArgs[0], initArgs[1:]...).CombinedOutput()
	cancel()
	if err != nil {
		cleanupDir()
		return "", PGServer{}, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	port, err := FreePort()
	if err != nil {
		cleanupDir()
		return "", PGServer{}, err
	}
	logFile, err := os.Create(filepath.Join(dir, "postgres.log"))
	if err != nil {
		cleanupDir()
		return "", PGServer{}, err
	}
	defer logFile.Close()
	if asRoot {
		logFile.Chown(uid, gid)
	}
	args := append(append([]string{}, prefix...), bin[1], "-D", data, "-p", strconv.Itoa(port), "-k", dir,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
		"-c", "full_page_writes=off", "-c", "max_connections=200")
	if logStatements {
		args = append(args, "-c", "log_statement=all", "-c", "log_min_duration_statement=-1")
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	sig := syscall.SIGINT // fast shutdown
	if asRoot {
		sig = syscall.SIGTERM // runuser forwards it
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: sig}
	if err := cmd.Start(); err != nil {
		cleanupDir()
		return "", PGServer{}, err
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	stop := func() {
		pid := postmasterPID(data)
		for _, step := range []struct {
			sig syscall.Signal
			d   time.Duration
		}{{syscall.SIGINT, 15 * time.Second}, {syscall.SIGQUIT, 5 * time.Second}, {syscall.SIGKILL, 5 * time.Second}} {
			if pid > 0 && step.sig != syscall.SIGKILL {
				syscall.Kill(pid, step.sig)
			} else {
				syscall.Kill(-cmd.Process.Pid, step.sig)
			}
			select {
			case <-done:
				cleanupDir()
				return
			case <-time.After(step.d):
			}
		}
		fmt.Fprintf(os.Stderr, "benchkit: postgres did not stop; leaving %s\n", dir)
	}
	base := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	if err := waitPostgres(ctx, base, done); err != nil {
		stop()
		b, _ := os.ReadFile(filepath.Join(dir, "postgres.log"))
		return "", PGServer{}, fmt.Errorf("%v\n%s", err, b)
	}
	adm, err := sql.Open("postgres", base)
	if err != nil {
		stop()
		return "", PGServer{}, err
	}
	defer adm.Close()
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := adm.ExecContext(cctx, "CREATE DATABASE bench TEMPLATE template0"); err != nil {
		stop()
		return "", PGServer{}, fmt.Errorf("create database: %v", err)
	}
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/bench?sslmode=disable", port), PGServer{Stop: stop, Log: filepath.Join(dir, "postgres.log"), Data: data}, nil
}

// pgBinaries finds initdb and postgres: in PATH, else the newest
// /usr/lib/postgresql/*/bin.
func pgBinaries() ([2]string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if p, err = filepath.EvalSymlinks(p); err == nil {
			pg := filepath.Join(filepath.Dir(p), "postgres")
			if _, err := os.Stat(pg); err == nil {
				return [2]string{p, pg}, nil
			}
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		a, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		b, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return a > b
	})
	for _, d := range dirs {
		i, p := filepath.Join(d, "initdb"), filepath.Join(d, "postgres")
		if _, err := os.Stat(i); err == nil {
			if _, err := os.Stat(p); err == nil {
				return [2]string{i, p}, nil
			}
		}
	}
	return [2]string{}, errors.New("no initdb and postgres in PATH or /usr/lib/postgresql/*/bin")
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

func postmasterPID(data string) int {
	b, err := os.ReadFile(filepath.Join(data, "postmaster.pid"))
	if err != nil {
		return 0
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	pid, _ := strconv.Atoi(strings.TrimSpace(string(line)))
	return pid
}

func waitPostgres(ctx context.Context, u string, done <-chan struct{}) error {
	db, err := sql.Open("postgres", u)
	if err != nil {
		return err
	}
	defer db.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, cancel := context.WithTimeout(ctx, 2*time.Second)
		err = db.PingContext(c)
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres not ready within 30s: %v", err)
		}
		select {
		case <-done:
			return fmt.Errorf("postgres exited during startup: %v", err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
