package benchkit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"quire/internal/testing/testclient"
)

// Proc is a server process the benchmark started (quire serve, a peer).
type Proc struct {
	Name string
	Cmd  *exec.Cmd
	// Base is its http://127.0.0.1:PORT.
	Base string
	// LogPath is the file holding its standard output and error.
	LogPath string
	done    chan struct{}
}

// PID is the process id, whose /proc/PID/status the RSS sampler reads.
func (p *Proc) PID() int { return p.Cmd.Process.Pid }

// Stop asks the process to stop (SIGTERM), then kills it if it has not
// stopped within 15 seconds.
func (p *Proc) Stop() {
	if p == nil || p.Cmd.Process == nil {
		return
	}
	_ = p.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		_ = p.Cmd.Process.Kill()
		<-p.done
	}
}

// StartProc starts a server process with its output in logPath; Pdeathsig
// kills it with the benchmark. ready reports, from the log so far, the
// server's base URL once it listens ("" while it does not); StartProc waits
// up to two minutes for it.
func StartProc(ctx context.Context, name, logPath string, env []string, dir string, ready func(log []byte) string, argv ...string) (*Proc, error) {
	f, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &Proc{Name: name, Cmd: cmd, LogPath: logPath, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	deadline := time.After(2 * time.Minute)
	for {
		b, _ := os.ReadFile(logPath)
		if base := ready(b); base != "" {
			p.Base = base
			return p, nil
		}
		select {
		case <-p.done:
			return nil, fmt.Errorf("%s exited before listening:\n%s", name, Truncate(b, 3000))
		case <-deadline:
			p.Stop()
			return nil, fmt.Errorf("%s did not listen within 2 minutes:\n%s", name, Truncate(b, 3000))
		case <-ctx.Done():
			p.Stop()
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// QuireListening finds the address of quire serve's "listening" log line
// (JSON lines on standard error).
func QuireListening(log []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var l struct {
			Msg  string `json:"msg"`
			Addr string `json:"addr"`
		}
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Msg == "listening" && l.Addr != "" {
			return "http://" + l.Addr
		}
	}
	return ""
}

// BuildQuire builds cmd/quire of the module in the current directory into
// dir, with the build tags given (comma separated), within five minutes.
func BuildQuire(ctx context.Context, dir, tags string) (string, error) {
	out := filepath.Join(dir, "quire")
	if _, err := runBounded(ctx, 5*time.Minute, "go", "build", "-tags", tags, "-o", out, "./cmd/quire"); err != nil {
		return "", err
	}
	return out, nil
}

// ProductionEnv is this process's environment without the variables that
// would change how quire serve tunes itself (GOGC, GOMAXPROCS, GOMEMLIMIT,
// GODEBUG) or where it connects, so that it runs as in production.
func ProductionEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "GOGC", k == "GOMAXPROCS", k == "GOMEMLIMIT", k == "GODEBUG", strings.HasPrefix(k, "QUIRE_"):
			continue
		}
		out = append(out, kv)
	}
	return out
}

// RSS returns the resident set size of a process, from /proc/PID/status.
func RSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				return 0, err
			}
			return kb << 10, nil
		}
	}
	return 0, errors.New("no VmRSS in /proc status")
}

// WatchRSS samples a process's RSS every 50ms until the returned function
// is called, which returns the largest sample (bytes).
func WatchRSS(pid int) func() int64 {
	var (
		mu   sync.Mutex
		most int64
		stop = make(chan struct{})
		done = make(chan struct{})
	)
	sample := func() {
		if v, err := RSS(pid); err == nil {
			mu.Lock()
			most = max(most, v)
			mu.Unlock()
		}
	}
	go func() {
		defer close(done)
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			sample()
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() int64 {
		close(stop)
		<-done
		sample()
		mu.Lock()
		defer mu.Unlock()
		return most
	}
}

// Metric reads one unlabelled counter or gauge from a Prometheus /metrics
// page.
func Metric(ctx context.Context, base, name string) (float64, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	resp, err := (&testclient.Client{Base: base}).Send(ctx, "GET", "/metrics", nil)
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(resp.Body), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			return strconv.ParseFloat(strings.TrimSpace(v), 64)
		}
	}
	return 0, fmt.Errorf("no %s in %s/metrics", name, base)
}

// Machine describes the machine: CPU model, cores and memory.
func Machine() string {
	model, mem := "unknown CPU", "unknown memory"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				mem = fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
			}
		}
	}
	return fmt.Sprintf("%s, %d cores, %s memory", model, runtime.NumCPU(), mem)
}

// Revision is the git revision of the working tree, marked when it has
// uncommitted changes.
func Revision(ctx context.Context) string {
	out, err := runBounded(ctx, 10*time.Second, "git", "rev-parse", "--short", "HEAD")
	if err != nil {
		return "unknown"
	}
	rev := strings.TrimSpace(string(out))
	if st, err := runBounded(ctx, 10*time.Second, "git", "status", "--porcelain", "--untracked-files=no"); err == nil && len(bytes.TrimSpace(st)) > 0 {
		rev += " + uncommitted changes"
	}
	return rev
}
