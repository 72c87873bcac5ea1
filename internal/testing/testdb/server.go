package testdb

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
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/lib/pq" // registers the "postgres" database/sql driver
)

// server is a running throwaway cluster.
type server struct {
	dir     string // temporary directory holding everything below
	dataDir string
	logPath string
	url     string // maintenance database URL
	cmd     *exec.Cmd
	done    <-chan struct{} // closed when cmd has been reaped

	// How it was started, for Restart: the same binaries, user, port and
	// options.
	bin    binaries
	prefix []string
	asRoot bool
	port   int
	opts   Options
}

// Options change how Start runs the server.
type Options struct {
	// LogStatements writes every statement to the server log (see
	// Server.LogPath), for programs that show the SQL a request runs.
	LogStatements bool
	// Locale is initdb's --locale; empty means the environment's, or C
	// when that is not installed. Benchmarks ask for C so that their
	// figures do not depend on the machine's locale.
	Locale string
}

// startServer creates a cluster in a new temporary directory and starts
// postgres on a free port. On error nothing is left behind.
func startServer(bin binaries, opts Options) (_ *server, err error) {
	var prefix []string // command prefix to run as the postgres OS user
	uid, gid := -1, -1
	asRoot := os.Geteuid() == 0
	if asRoot {
		// PostgreSQL refuses to run as root.
		runuser, err := exec.LookPath("runuser")
		if err != nil {
			return nil, fmt.Errorf("running as root needs runuser to switch to the postgres user: %v", err)
		}
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root needs an OS user named postgres: %v", err)
		}
		if uid, err = strconv.Atoi(u.Uid); err == nil {
			gid, err = strconv.Atoi(u.Gid)
		}
		if err != nil {
			return nil, fmt.Errorf("OS user postgres: %v", err)
		}
		prefix = []string{runuser, "-u", "postgres", "--"}
	}

	dir, err := os.MkdirTemp(tempBase(asRoot), "quire-testdb-")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	if asRoot {
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
	}
	s := &server{
		dir:     dir,
		dataDir: filepath.Join(dir, "data"),
		logPath: filepath.Join(dir, "postgres.log"),
		bin:     bin,
		prefix:  prefix,
		asRoot:  asRoot,
		opts:    opts,
	}

	if err := s.initdb(prefix, bin); err != nil {
		return nil, err
	}

	for attempt := 1; ; attempt++ {
		s.port = 0 // a free one
		err = s.start(prefix, bin, asRoot)
		if err == nil {
			return s, nil
		}
		s.stop()
		if attempt == startAttempts || !(errors.Is(err, errExited) || errors.Is(err, errNotOurs)) {
			break
		}
	}
	return nil, fmt.Errorf("%v\n%s", err, s.logTail())
}

// tempBase returns the directory to create the cluster directory in. The
// postgres user must be able to reach it, and the Unix socket path inside
// it must fit in sockaddr_un (about 104 bytes).
func tempBase(asRoot bool) string {
	base := os.TempDir()
	if len(filepath.Join(base, "quire-testdb-0123456789", ".s.PGSQL.65535.lock")) > 100 {
		return "/tmp"
	}
	if asRoot {
		for p := base; ; p = filepath.Dir(p) {
			st, err := os.Stat(p)
			if err != nil || st.Mode().Perm()&0o001 == 0 {
				return "/tmp"
			}
			if p == filepath.Dir(p) {
				break
			}
		}
	}
	return base
}

func (s *server) initdb(prefix []string, bin binaries) error {
	run := func(extra ...string) ([]byte, error) {
		args := slices.Concat(prefix, []string{bin.initdb, "-D", s.dataDir,
			"-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"}, extra)
		ctx, cancel := context.WithTimeout(context.Background(), initdbTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Dir = s.dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		cmd.WaitDelay = 5 * time.Second
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.Bytes(), err
	}
	if s.opts.Locale != "" {
		if out, err := run("--locale=" + s.opts.Locale); err != nil {
			return fmt.Errorf("initdb --locale=%s: %v\n%s", s.opts.Locale, err, out)
		}
		return nil
	}
	out, err := run()
	if err != nil {
		// Most likely the environment's locale (LANG, LC_*) is not
		// installed; retry with the C locale.
		os.RemoveAll(s.dataDir)
		var out2 []byte
		if out2, err = run("--locale=C"); err != nil {
			return fmt.Errorf("initdb: %v\n%s\n(retry with --locale=C:)\n%s", err, out, out2)
		}
	}
	return nil
}

// start launches postgres on s.port, or on a free port when it is 0, and
// waits until it accepts connections.
func (s *server) start(prefix []string, bin binaries, asRoot bool) error {
	port := s.port
	if port == 0 {
		var err error
		if port, err = freePort(); err != nil {
			return err
		}
		s.port = port
	}
	s.url = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)

	logFile, err := os.OpenFile(s.logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close() // the child has its own copy
	fmt.Fprintf(logFile, "--- testdb: starting postgres on port %d\n", port)

	args := slices.Concat(prefix, []string{bin.postgres,
		"-D", s.dataDir,
		"-p", strconv.Itoa(port),
		"-k", s.dir,
		"-c", "listen_addresses=127.0.0.1",
		"-c", "fsync=off",
		"-c", "synchronous_commit=off",
		"-c", "full_page_writes=off",
		"-c", "max_connections=200",
	})
	if s.opts.LogStatements {
		args = append(args, "-c", "log_statement=all", "-c", "log_min_duration_statement=-1")
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = s.dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// If the test binary dies without running its cleanup (panic, timeout,
	// kill), have the kernel stop the server: postgres takes SIGINT as fast
	// shutdown; runuser forwards SIGTERM and kills postgres two seconds later.
	if asRoot {
		setPdeathsig(cmd.SysProcAttr, syscall.SIGTERM)
	} else {
		setPdeathsig(cmd.SysProcAttr, syscall.SIGINT)
	}

	s.cmd = cmd
	done, _, err := StartChild(cmd)
	if err != nil {
		s.cmd = nil
		return fmt.Errorf("start postgres: %v", err)
	}
	s.done = done
	return waitReady(s.url, s.dataDir, s.done)
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// setPdeathsig sets SysProcAttr.Pdeathsig where the platform has it
// (Linux, FreeBSD) without breaking the build elsewhere.
func setPdeathsig(a *syscall.SysProcAttr, sig syscall.Signal) {
	f := reflect.ValueOf(a).Elem().FieldByName("Pdeathsig")
	if f.IsValid() && f.CanSet() && reflect.TypeOf(sig).ConvertibleTo(f.Type()) {
		f.Set(reflect.ValueOf(sig).Convert(f.Type()))
	}
}

// stop shuts the server down, escalating from fast shutdown to immediate
// shutdown to SIGKILL. It reports whether the server is gone.
func (s *server) stop() bool {
	if s.cmd == nil {
		return true
	}
	for _, step := range []struct {
		sig     syscall.Signal
		timeout time.Duration
	}{
		{syscall.SIGINT, stopFastTimeout},
		{syscall.SIGQUIT, stopQuitTimeout},
		{syscall.SIGKILL, stopKillTimeout},
	} {
		s.signal(step.sig)
		select {
		case <-s.done:
			if step.sig != syscall.SIGINT {
				// Backends left behind by an abrupt end share the group.
				syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			}
			s.cmd = nil
			return true
		case <-time.After(step.timeout):
			fmt.Fprintf(os.Stderr, "testdb: postgres did not stop within %v of %v\n", step.timeout, step.sig)
		}
	}
	return false
}

// signal sends sig to the postmaster, found through postmaster.pid (when
// running as root the child process is runuser, not postgres). Before the
// pid file exists, or for SIGKILL, it signals the whole process group.
func (s *server) signal(sig syscall.Signal) {
	select {
	case <-s.done:
		return // reaped: its pid may belong to someone else now
	default:
	}
	if pid := s.postmasterPID(); pid > 0 {
		syscall.Kill(pid, sig)
	}
	if sig == syscall.SIGKILL || s.postmasterPID() <= 0 {
		syscall.Kill(-s.cmd.Process.Pid, sig)
	}
}

func (s *server) postmasterPID() int {
	b, err := os.ReadFile(filepath.Join(s.dataDir, "postmaster.pid"))
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		return 0
	}
	return pid
}

// close stops the server and removes its directory.
func (s *server) close() {
	if !s.stop() {
		fmt.Fprintf(os.Stderr, "testdb: WARNING: could not stop postgres; leaving %s\n", s.dir)
		return
	}
	if err := os.RemoveAll(s.dir); err != nil {
		fmt.Fprintf(os.Stderr, "testdb: WARNING: %v\n", err)
	}
}

// logTail returns the end of the server log for error messages.
func (s *server) logTail() string {
	b, err := os.ReadFile(s.logPath)
	if err != nil {
		return fmt.Sprintf("(no postgres log: %v)", err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > 40 {
		lines = lines[len(lines)-40:]
	}
	return "postgres log (" + s.logPath + ", tail):\n" + strings.Join(lines, "\n")
}

// Server is a throwaway PostgreSQL cluster started by Start.
type Server struct{ s *server }

// Start starts a throwaway cluster the way Main does for tests (initdb and
// postgres in a new temporary directory, on a free loopback port, as the
// postgres OS user when run as root), for programs that need an empty
// server of their own, such as the migration generator and the
// benchmarks. Close stops it and removes the directory.
func Start() (*Server, error) { return StartWith(Options{}) }

// StartWith is Start with options.
func StartWith(opts Options) (*Server, error) {
	bin, err := findBinaries()
	if err != nil {
		return nil, err
	}
	s, err := startServer(bin, opts)
	if err != nil {
		return nil, fmt.Errorf("start PostgreSQL from %s: %w", bin.dir, err)
	}
	return &Server{s: s}, nil
}

// URL is the connection URL of the server's maintenance database, postgres.
func (s *Server) URL() string { return s.s.url }

// CreateDatabase creates an empty database named name (letters, digits
// and underscores) and returns its connection URL.
func (s *Server) CreateDatabase(ctx context.Context, name string) (string, error) {
	if name == "" || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
		return "", fmt.Errorf("testdb: database name %q: want lower-case letters, digits and underscores", name)
	}
	u, err := withDatabase(s.s.url, name)
	if err != nil {
		return "", err
	}
	db, err := sql.Open("postgres", s.s.url)
	if err != nil {
		return "", err
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(ctx, statementTimeout)
	defer cancel()
	// template0, as NewDatabase: it never has connections.
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name+" TEMPLATE template0"); err != nil {
		return "", fmt.Errorf("testdb: create database %s: %w", name, err)
	}
	return u, nil
}

// DataDir is the server's data directory.
func (s *Server) DataDir() string { return s.s.dataDir }

// LogPath is the server's log file (with Options.LogStatements, every
// statement is in it).
func (s *Server) LogPath() string { return s.s.logPath }

// PostmasterPID is the process id of the running postmaster (the parent of
// the server's backends), or 0 when it is not running. When run as root
// the child process this package started is runuser, not postgres: the pid
// is read from the data directory.
func (s *Server) PostmasterPID() int {
	if s.s.cmd == nil {
		return 0
	}
	return s.s.postmasterPID()
}

// Close stops the server and removes its directory.
func (s *Server) Close() { s.s.close() }

// Stop stops the server as an operator would (fast shutdown: sessions are
// ended, escalating to immediate shutdown and SIGKILL if it lingers) and
// keeps its data directory, for Restart.
func (s *Server) Stop() error {
	if !s.s.stop() {
		return errors.New("testdb: postgres did not stop")
	}
	return nil
}

// Restart starts a stopped server again on the same data directory and
// port, so that clients keep their connection URL, and waits until it
// accepts connections.
func (s *Server) Restart() error {
	if s.s.cmd != nil {
		return errors.New("testdb: Restart of a server that is running")
	}
	if err := s.s.start(s.s.prefix, s.s.bin, s.s.asRoot); err != nil {
		s.s.stop()
		return fmt.Errorf("restart postgres: %v\n%s", err, s.s.logTail())
	}
	return nil
}

// StartChild starts cmd from a goroutine kept on its OS thread until the
// child has been reaped: a parent-death signal (Pdeathsig) is sent when the
// thread that started the child exits, so the thread must outlive the
// child. done is closed once the child was reaped; wait then returns what
// cmd.Wait returned.
func StartChild(cmd *exec.Cmd) (done <-chan struct{}, wait func() error, err error) {
	ch := make(chan struct{})
	var waitErr error
	started := make(chan error, 1)
	go func() {
		// Exiting while locked discards the thread.
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		waitErr = cmd.Wait()
		close(ch)
	}()
	if err := <-started; err != nil {
		return nil, nil, err
	}
	return ch, func() error { <-ch; return waitErr }, nil
}
