package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// served is a "quire serve" running in the test.
type served struct {
	addr, metricsAddr string
	stderr            *lockedBuffer
	done              chan int
	cancel            context.CancelFunc
}

// startServe runs quire serve --addr 127.0.0.1:0 with args and waits for
// its "listening" line.
func startServe(t *testing.T, args []string) *served {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	s := &served{stderr: &lockedBuffer{}, done: make(chan int, 1), cancel: cancel}
	t.Cleanup(cancel)
	go func() {
		s.done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), io.Discard, s.stderr, func(string) string { return "" })
	}()
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case code := <-s.done:
			t.Fatalf("serve exited with %d\nstderr:\n%s", code, s.stderr.String())
		default:
		}
		sc := bufio.NewScanner(strings.NewReader(s.stderr.String()))
		for sc.Scan() {
			var line struct {
				Msg, Addr   string
				MetricsAddr string `json:"metrics_addr"`
			}
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "listening" {
				s.addr, s.metricsAddr = line.Addr, line.MetricsAddr
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no listening line\nstderr:\n%s", s.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop interrupts serve and wants it to end cleanly.
func (s *served) stop(t *testing.T) {
	t.Helper()
	s.cancel()
	select {
	case code := <-s.done:
		if code != 0 {
			t.Errorf("serve exited with %d\nstderr:\n%s", code, s.stderr.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatal("serve did not stop")
	}
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// A taken port stops serve before it touches the database, with an error
// that names the address.
func TestServePortTaken(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	taken := ln.Addr().String()
	path := filepath.Join(t.TempDir(), "q.db")
	for _, args := range [][]string{
		{"serve", "--addr", taken, "--database-url", "sqlite:" + path},
		{"serve", "--addr", "127.0.0.1:0", "--metrics-addr", taken, "--database-url", "sqlite:" + path},
	} {
		code, stdout, stderr := quire(t, args...)
		if code != 1 || stdout != "" {
			t.Errorf("quire %s: exit %d; want 1", strings.Join(args, " "), code)
		}
		if !strings.Contains(stderr, "cannot listen on "+taken) || !strings.Contains(stderr, "address already in use") {
			t.Errorf("quire %s: log does not name the taken address:\n%s", strings.Join(args, " "), stderr)
		}
		if strings.Contains(stderr, `"msg":"migrated"`) {
			t.Errorf("quire %s migrated before binding:\n%s", strings.Join(args, " "), stderr)
		}
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the database was created before the port was bound (%v)", err)
	}
}

// --metrics-addr moves /metrics to its own listener; without it /metrics
// is on the API's port.
func TestServeMetricsAddr(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		s := startServe(t, []string{"--database-url", url, "--metrics-addr", "127.0.0.1:0"})
		if s.metricsAddr == "" || s.metricsAddr == s.addr {
			t.Fatalf("metrics on %q, API on %q", s.metricsAddr, s.addr)
		}
		if code, body := get(t, "http://"+s.metricsAddr+"/metrics"); code != 200 || !strings.Contains(body, "# TYPE") {
			t.Errorf("metrics listener /metrics: %d %.200s", code, body)
		}
		if code, body := get(t, "http://"+s.addr+"/metrics"); code != 404 || !strings.Contains(body, `"code":404`) {
			t.Errorf("API /metrics with --metrics-addr: %d %.200s", code, body)
		}
		if code, _ := get(t, "http://"+s.metricsAddr+"/healthz"); code != 404 {
			t.Errorf("metrics listener serves /healthz: %d", code)
		}
		if code, _ := get(t, "http://"+s.addr+"/readyz"); code != 200 {
			t.Errorf("API /readyz: %d", code)
		}
		s.stop(t)

		s = startServe(t, []string{"--database-url", url})
		if s.metricsAddr != "" {
			t.Errorf("metrics_addr %q without --metrics-addr", s.metricsAddr)
		}
		if code, body := get(t, "http://"+s.addr+"/metrics"); code != 200 || !strings.Contains(body, "# TYPE") {
			t.Errorf("API /metrics: %d %.200s", code, body)
		}
		s.stop(t)
	})
}

// While the database is migrated the port answers: up, not ready.
func TestStartingHandler(t *testing.T) {
	h := startingHandler()
	for _, c := range []struct {
		path string
		code int
		body string
	}{
		{"/healthz", 200, `"status":"ok"`},
		{"/readyz", 503, `"status":"starting"`},
		{"/v1/user", 503, `{"error":{"code":503,"message":`},
		{"/graphql", 503, `"code":503`},
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", c.path, nil))
		if w.Code != c.code || !strings.Contains(w.Body.String(), c.body) || w.Header().Get("Content-Type") != "application/json" {
			t.Errorf("GET %s while starting: %d %s", c.path, w.Code, w.Body.String())
		}
	}
}
