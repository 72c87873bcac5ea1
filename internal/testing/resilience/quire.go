// Package resilience tests Quire as it is deployed: real `quire serve`
// processes, several sharing one PostgreSQL, killed with SIGKILL, or left
// without their database for a while. This file runs the processes; the
// tests are in the package's _test files.
package resilience

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"quire/internal/testing/testdb"
)

// Time bounds of the processes.
const (
	buildTimeout = 5 * time.Minute  // go build of cmd/quire, on a busy machine
	startTimeout = 60 * time.Second // from exec to the "listening" log line (migrations included)
	stopTimeout  = 25 * time.Second // after SIGTERM: quire's own shutdown takes up to 20 s
	adminTimeout = 30 * time.Second // one `quire admin` command
)

var build struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// Main runs the package's tests with a PostgreSQL server (testdb.Main) and
// removes the quire binary built for them afterwards.
func Main(m *testing.M) int {
	code := testdb.Main(m)
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
	return code
}

// Binary builds cmd/quire once per test binary and returns its path.
func Binary(t testing.TB) string {
	t.Helper()
	build.once.Do(func() {
		build.dir, build.err = os.MkdirTemp("", "quire-resilience-")
		if build.err != nil {
			return
		}
		build.path = filepath.Join(build.dir, "quire")
		ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
		defer cancel()
		out, err := exec.CommandContext(ctx, "go", "build", "-o", build.path, "quire/cmd/quire").CombinedOutput()
		if err != nil {
			build.err = fmt.Errorf("go build quire/cmd/quire: %v\n%s", err, out)
		}
	})
	if build.err != nil {
		t.Fatal(build.err)
	}
	return build.path
}

// Proc is a running `quire serve`.
type Proc struct {
	t    testing.TB
	URL  string // http://127.0.0.1:PORT
	cmd  *exec.Cmd
	done <-chan struct{} // closed once the process has been reaped

	mu     sync.Mutex
	tail   []string // its last log lines, for failure messages
	errors []string // its first error lines
}

// Serve starts `quire serve` on a free loopback port over databaseURL with
// the extra flags, and returns once it listens. The process is stopped at
// the end of the test (if it still runs), and dies with the test binary.
func Serve(t testing.TB, databaseURL string, flags ...string) *Proc {
	t.Helper()
	bin := Binary(t)
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--database-url", databaseURL}, flags...)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "GOMAXPROCS=2")
	// SIGKILL when the test binary goes away without its cleanups.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	done, _, err := testdb.StartChild(cmd)
	if err != nil {
		t.Fatalf("start quire: %v", err)
	}
	p := &Proc{t: t, cmd: cmd, done: done}
	listening := make(chan string, 1)
	go p.readLog(stderr, listening)
	t.Cleanup(func() {
		p.Stop()
		if t.Failed() {
			t.Logf("last log lines of quire serve %s:\n%s", p.URL, p.Log())
		}
	})
	select {
	case addr := <-listening:
		p.URL = "http://" + addr
	case <-p.done:
		t.Fatalf("quire serve exited before listening:\n%s", p.Log())
	case <-time.After(startTimeout):
		p.Kill()
		t.Fatalf("quire serve did not listen within %v:\n%s", startTimeout, p.Log())
	}
	return p
}

// readLog keeps the process's last log lines and reports the address of
// its "listening" line.
func (p *Proc) readLog(r io.Reader, listening chan<- string) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		p.mu.Lock()
		p.tail = append(p.tail, line)
		if len(p.tail) > 60 {
			p.tail = p.tail[len(p.tail)-40:]
		}
		if strings.Contains(line, `"level":"ERROR"`) && len(p.errors) < 20 {
			p.errors = append(p.errors, line)
		}
		p.mu.Unlock()
		if strings.Contains(line, `"msg":"listening"`) {
			var v struct {
				Addr string `json:"addr"`
			}
			if json.Unmarshal([]byte(line), &v) == nil && v.Addr != "" {
				listening <- v.Addr
			}
		}
	}
	io.Copy(io.Discard, r)
}

// Log returns the process's first error lines and last log lines.
func (p *Proc) Log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return "first errors:\n" + strings.Join(p.errors, "\n") + "\nlast lines:\n" + strings.Join(p.tail, "\n")
}

// Kill ends the process with SIGKILL, as a crash would, and waits until
// it has been reaped.
func (p *Proc) Kill() {
	select {
	case <-p.done:
		return
	default:
	}
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// Stop asks the process to shut down (SIGTERM) and waits for it, killing
// it if it takes longer than its own shutdown bound.
func (p *Proc) Stop() {
	select {
	case <-p.done:
		return
	default:
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(stopTimeout):
		p.t.Errorf("quire serve did not stop within %v of SIGTERM:\n%s", stopTimeout, p.Log())
		p.Kill()
	}
}

// Admin runs `quire admin ARGS --database-url URL` and decodes what it
// prints (a JSON object).
func Admin(t testing.TB, databaseURL string, args ...string) map[string]any {
	t.Helper()
	var v map[string]any
	AdminInto(t, databaseURL, &v, args...)
	return v
}

// AdminInto runs `quire admin ARGS --database-url URL` and decodes what
// it prints (JSON) into out.
func AdminInto(t testing.TB, databaseURL string, out any, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), adminTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, Binary(t), append(append([]string{"admin"}, args...), "--database-url", databaseURL)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	printed, err := cmd.Output()
	if err != nil {
		t.Fatalf("quire admin %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	if err := json.Unmarshal(printed, out); err != nil {
		t.Fatalf("quire admin %s printed %q: %v", strings.Join(args, " "), printed, err)
	}
}
