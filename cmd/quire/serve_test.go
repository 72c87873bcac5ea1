package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestDatabaseURLFromEnv(t *testing.T) {
	url := newMigratedDBURL(t)
	var stdout, stderr bytes.Buffer
	getenv := func(k string) string {
		if k == "QUIRE_DATABASE_URL" {
			return url
		}
		return ""
	}
	code := run(t.Context(), []string{"admin", "bootstrap", "--org", "Org", "--email", "env@example.com"}, &stdout, &stderr, getenv)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	d := openTestDB(t, url)
	if n := d.Client.User.Query().CountX(t.Context()); n != 1 {
		t.Errorf("database from QUIRE_DATABASE_URL has %d users, want 1", n)
	}
}

func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{nil, 2},
		{[]string{"help"}, 0},
		{[]string{"help", "admin", "jobs"}, 0},
		{[]string{"admin", "jobs", "--help"}, 0},
		{[]string{"admin", "jobs"}, 2},
		{[]string{"frobnicate"}, 2},
		{[]string{"admin"}, 2},
		{[]string{"admin", "user"}, 2},
		{[]string{"admin", "frobnicate"}, 2},
		{[]string{"--help"}, 0},
		{[]string{"serve", "--help"}, 0},
		{[]string{"migrate", "--help"}, 0},
		{[]string{"admin", "bootstrap", "--help"}, 0},
		{[]string{"admin", "user", "create", "--help"}, 0},
		{[]string{"admin", "token", "create", "-h"}, 0},
		{[]string{"serve", "--public-url", "ftp://x"}, 2},
		{[]string{"serve", "--request-timeout", "soon"}, 2},
		{[]string{"serve", "--request-timeout", "0s"}, 2},
		{[]string{"serve", "--upload-timeout", "-1m"}, 2},
	} {
		code, stdout, stderr := quire(t, tc.args...)
		if code != tc.code || stdout != "" || !strings.Contains(stderr, "Usage") {
			t.Errorf("quire %q: exit %d, stdout %q, stderr %q; want exit %d and usage on stderr", tc.args, code, stdout, stderr, tc.code)
		}
	}
}

// A deadline from the environment is checked like the flag's.
func TestRequestTimeoutFromEnv(t *testing.T) {
	var stdout, stderr bytes.Buffer
	getenv := func(k string) string {
		if k == "QUIRE_REQUEST_TIMEOUT" {
			return "ten seconds"
		}
		return ""
	}
	if code := run(t.Context(), []string{"serve"}, &stdout, &stderr, getenv); code != 2 || !strings.Contains(stderr.String(), "--request-timeout") {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
}

// --git-file-roots (or its environment variable) names existing
// directories by absolute paths; anything else is a usage error.
func TestGitFileRoots(t *testing.T) {
	dir := t.TempDir()
	got, err := fileRoots(" " + dir + " ,, " + dir + "/ ")
	if err != nil || len(got) != 2 || got[0] != dir || got[1] != dir {
		t.Errorf("fileRoots: %q, %v", got, err)
	}
	if got, err := fileRoots(""); err != nil || got != nil {
		t.Errorf("no roots: %q, %v", got, err)
	}
	for _, bad := range []string{"relative/dir", dir + "/missing"} {
		var stdout, stderr bytes.Buffer
		getenv := func(k string) string {
			if k == "QUIRE_GIT_FILE_ROOTS" {
				return bad
			}
			return ""
		}
		if code := run(t.Context(), []string{"serve"}, &stdout, &stderr, getenv); code != 2 || !strings.Contains(stderr.String(), "--git-file-roots") {
			t.Errorf("%q: exit %d: %s", bad, code, stderr.String())
		}
	}
}

// QUIRE_OPENAPI_FETCH_PRIVATE takes true or false; anything else is a
// usage error naming it, and serve --help lists the flag.
func TestOpenAPIFetchPrivateFromEnv(t *testing.T) {
	var stdout, stderr bytes.Buffer
	getenv := func(k string) string {
		if k == "QUIRE_OPENAPI_FETCH_PRIVATE" {
			return "perhaps"
		}
		return ""
	}
	if code := run(t.Context(), []string{"serve"}, &stdout, &stderr, getenv); code != 2 || !strings.Contains(stderr.String(), `QUIRE_OPENAPI_FETCH_PRIVATE "perhaps"`) {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if _, _, help := quire(t, "serve", "--help"); !strings.Contains(help, "--openapi-fetch-private") {
		t.Errorf("serve --help: %s", help)
	}
}

// QUIRE_GIT_FETCH_PRIVATE takes true or false; anything else is a usage
// error naming it, and serve --help lists the flag.
func TestGitFetchPrivateFromEnv(t *testing.T) {
	var stdout, stderr bytes.Buffer
	getenv := func(k string) string {
		if k == "QUIRE_GIT_FETCH_PRIVATE" {
			return "perhaps"
		}
		return ""
	}
	if code := run(t.Context(), []string{"serve"}, &stdout, &stderr, getenv); code != 2 || !strings.Contains(stderr.String(), `QUIRE_GIT_FETCH_PRIVATE "perhaps"`) {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if _, _, help := quire(t, "serve", "--help"); !strings.Contains(help, "--git-fetch-private") || !strings.Contains(help, "QUIRE_GIT_FETCH_PRIVATE=true") {
		t.Errorf("serve --help: %s", help)
	}
}

// The connection's write timeout stays beyond every deadline, so that the
// answer to a request past its deadline can be written.
func TestWriteTimeoutFor(t *testing.T) {
	if got := writeTimeoutFor(10*time.Second, time.Minute); got != writeTimeout {
		t.Errorf("default deadlines: %s, want %s", got, writeTimeout)
	}
	if got := writeTimeoutFor(10*time.Second, 5*time.Minute); got != 5*time.Minute+10*time.Second {
		t.Errorf("a 5m upload deadline: %s", got)
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"sqlite:data/quire.db":                          "sqlite:data/quire.db",
		"postgres://quire:secret@db:5432/quire":         "postgres://quire:xxxxx@db:5432/quire",
		"postgres://db/quire?password=secret&sslmode=x": "postgres://db/quire?password=xxxxx&sslmode=x",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// lockedBuffer is a bytes.Buffer safe for a writer and a reader at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestServe(t *testing.T) {
	url := newMigratedDBURL(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--database-url", url}, &stdout, &stderr, func(string) string { return "" })
	}()

	// Wait for the "listening" line and take the real address from it.
	var addr, publicURL string
	deadline := time.Now().Add(30 * time.Second)
	for addr == "" {
		select {
		case code := <-done:
			t.Fatalf("serve exited with %d\nstderr:\n%s", code, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no listening line\nstderr:\n%s", stderr.String())
		}
		sc := bufio.NewScanner(strings.NewReader(stderr.String()))
		for sc.Scan() {
			var line struct {
				Msg       string `json:"msg"`
				Addr      string `json:"addr"`
				PublicURL string `json:"public_url"`
			}
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "listening" {
				addr, publicURL = line.Addr, line.PublicURL
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if strings.HasSuffix(addr, ":0") {
		t.Fatalf("listening on %s, want the real port", addr)
	}
	if publicURL != "http://"+addr {
		t.Errorf("public url = %q, want http://%s", publicURL, addr)
	}
	if !strings.Contains(stderr.String(), `quire admin bootstrap --database-url `+shellQuote(url)+` --org \"My org\" --email you@example.com`) {
		t.Errorf("no bootstrap hint in:\n%s", stderr.String())
	}

	resp, err := http.Get(fmt.Sprintf("http://%s/", addr))
	if err != nil {
		t.Fatalf("GET /: %v", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()

	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exited with %d\nstderr:\n%s", code, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
	if stdout.String() != "" {
		t.Errorf("serve wrote on stdout: %q", stdout.String())
	}
}
