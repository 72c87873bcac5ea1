package soak

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"quire/internal/testing/testdb"
)

// Build compiles ./cmd/quire of the module at root into dir and returns the
// binary's path. The soak drives the binary a deployment runs, not an
// in-process handler, so that its memory, goroutines and connections are
// the process's own.
func Build(ctx context.Context, root, dir string) (string, error) {
	// A cold build on a busy machine takes minutes.
	ctx, cancel := context.WithTimeout(ctx, 15*time.Minute)
	defer cancel()
	bin := filepath.Join(dir, "quire")
	cmd := exec.CommandContext(ctx, goTool(), "build", "-o", bin, "./cmd/quire")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build ./cmd/quire: %v\n%s", err, out)
	}
	return bin, nil
}

func goTool() string {
	// The go command that runs this test, when GOROOT names it; else PATH's.
	if root := os.Getenv("GOROOT"); root != "" {
		if p := filepath.Join(root, "bin", "go"); fileExists(p) {
			return p
		}
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// ModuleRoot finds the directory holding go.mod, from dir upwards.
func ModuleRoot(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if fileExists(filepath.Join(d, "go.mod")) {
			return d, nil
		}
		if d == filepath.Dir(d) {
			return "", errors.New("no go.mod above " + dir)
		}
	}
}

// bootstrap creates the database ("quire migrate"), runs "quire admin
// bootstrap" against it and returns the organization and the admin's API
// token.
func bootstrap(ctx context.Context, bin, dbURL string) (orgID, token string, err error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, bin, "migrate", "--database-url", dbURL).CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("quire migrate: %v\n%s", err, out)
	}
	cmd := exec.CommandContext(ctx, bin, "admin", "bootstrap", "--database-url", dbURL,
		"--org", "Soak Corp", "--email", "soak@soak.test", "--name", "soak")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", "", fmt.Errorf("quire admin bootstrap: %v\n%s", err, stderr.String())
	}
	var v struct {
		Organization struct{ ID string } `json:"organization"`
		Token        string              `json:"token"`
	}
	if err := json.Unmarshal(out, &v); err != nil || v.Organization.ID == "" || v.Token == "" {
		return "", "", fmt.Errorf("quire admin bootstrap printed %q: %v", out, err)
	}
	return v.Organization.ID, v.Token, nil
}

// process is a running "quire serve".
type process struct {
	cmd     *exec.Cmd
	addr    string // host:port it listens on
	logPath string
	done    <-chan struct{} // closed once reaped
	wait    func() error    // cmd.Wait's error, once reaped
}

// startServer runs "quire serve" on a free loopback port with rate limits
// off (one user sends the whole load) and waits for its "listening" line.
// Its log (one JSON line per request) goes to logPath.
func startServer(ctx context.Context, bin, dbURL, logPath string) (*process, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--database-url", dbURL,
		"--rate-limit", "0", "--rate-limit-content", "0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		logFile.Close()
		return nil, err
	}
	cmd.Stdout = logFile
	// The server dies with the soak, whatever ends it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	done, wait, err := testdb.StartChild(cmd)
	if err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start quire serve: %v", err)
	}
	p := &process{cmd: cmd, logPath: logPath, done: done, wait: wait}
	addrc := make(chan string, 1)
	go func() {
		defer logFile.Close()
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		found := false
		for sc.Scan() {
			line := sc.Bytes()
			logFile.Write(append(line, '\n'))
			if found {
				continue
			}
			var v struct{ Msg, Addr string }
			if json.Unmarshal(line, &v) == nil && v.Msg == "listening" && v.Addr != "" {
				found = true
				addrc <- v.Addr
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	select {
	case p.addr = <-addrc:
		return p, nil
	case <-p.done:
		return nil, fmt.Errorf("quire serve exited before listening (%v):\n%s", p.wait(), p.logTail(30))
	case <-time.After(90 * time.Second):
		p.stop()
		return nil, fmt.Errorf("quire serve did not listen within 90s:\n%s", p.logTail(30))
	case <-ctx.Done():
		p.stop()
		return nil, ctx.Err()
	}
}

func (p *process) pid() int { return p.cmd.Process.Pid }

// stop asks the server to shut down (SIGTERM) and kills it if it has not
// within 30 s. It reports whether it exited cleanly.
func (p *process) stop() error {
	select {
	case <-p.done:
		return p.wait()
	default:
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return p.wait()
	case <-time.After(30 * time.Second):
		p.cmd.Process.Kill()
		<-p.done
		return errors.New("quire serve did not stop within 30s of SIGTERM; killed")
	}
}

// logTail returns the server log's last n lines.
func (p *process) logTail(n int) string {
	b, _ := os.ReadFile(p.logPath)
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
