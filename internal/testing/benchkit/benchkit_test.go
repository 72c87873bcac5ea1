package benchkit

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestPercentiles(t *testing.T) {
	var lat []time.Duration
	for i := 100; i >= 1; i-- {
		lat = append(lat, time.Duration(i)*time.Millisecond)
	}
	p50, p99 := Percentiles(lat)
	if p50 != 50*time.Millisecond || p99 != 99*time.Millisecond {
		t.Errorf("p50 %v p99 %v, want 50ms 99ms", p50, p99)
	}
	if p50, p99 := Percentiles(nil); p50 != 0 || p99 != 0 {
		t.Errorf("empty: %v %v", p50, p99)
	}
}

// The built-in generator sends what Vary gives, and a worker stops when
// Vary has no more.
func TestBuiltinVary(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Query().Get("n")]++
		mu.Unlock()
		if r.URL.Query().Get("n") == "3" {
			http.Error(w, "no", http.StatusNotFound)
		}
	}))
	defer srv.Close()
	tg := Target{Name: "t", Method: "GET", Token: "x", Vary: func(w, n int) (string, []byte, bool) {
		if n >= 5 {
			return "", nil, false
		}
		return srv.URL + "/?n=" + strconv.Itoa(n), nil, true
	}}
	res, err := Builtin{}.Run(context.Background(), tg, 2, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 10 || res.Errors != 2 || res.FirstError != "status 404" {
		t.Errorf("requests %d errors %d first %q, want 10, 2, status 404", res.Requests, res.Errors, res.FirstError)
	}
	for n := range 5 {
		if seen[strconv.Itoa(n)] != 2 {
			t.Errorf("request n=%d sent %d times, want 2 (once per worker)", n, seen[strconv.Itoa(n)])
		}
	}
	if res.Elapsed >= time.Minute {
		t.Errorf("the run lasted its whole duration although Vary ran out")
	}
}

func TestQuireListening(t *testing.T) {
	log := []byte(`{"time":"x","level":"INFO","msg":"migrated"}
not json
{"time":"x","level":"INFO","msg":"listening","addr":"127.0.0.1:4321","public_url":"http://127.0.0.1:4321"}
`)
	if got := QuireListening(log); got != "http://127.0.0.1:4321" {
		t.Errorf("got %q", got)
	}
	if got := QuireListening(log[:40]); got != "" {
		t.Errorf("before the line: got %q", got)
	}
}

func TestRSS(t *testing.T) {
	v, err := RSS(os.Getpid())
	if err != nil {
		t.Skip("no /proc:", err)
	}
	if v < 1<<20 {
		t.Errorf("RSS %d bytes, less than 1 MiB", v)
	}
	stop := WatchRSS(os.Getpid())
	if most := stop(); most < 1<<20 {
		t.Errorf("WatchRSS %d bytes", most)
	}
}

func TestParsePGBenchSummary(t *testing.T) {
	out := `pgbench (15.18 (Debian 15.18-1.pgdg120+1))
transaction type: /tmp/x/script.sql
scaling factor: 1
query mode: prepared
number of clients: 10
number of threads: 2
maximum number of tries: 1
duration: 10 s
number of transactions actually processed: 41230
number of failed transactions: 3 (0.007%)
latency average = 2.424 ms
initial connection time = 12.107 ms
tps = 4124.593722 (without initial connection time)
`
	res, err := parsePGBenchSummary(out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 41230 || res.Errors != 3 {
		t.Errorf("requests %d errors %d, want 41230 and 3", res.Requests, res.Errors)
	}
	if rps := res.RPS(); rps < 4124 || rps > 4125 {
		t.Errorf("req/s %.2f, want pgbench's tps 4124.59", rps)
	}
	if _, err := parsePGBenchSummary("pgbench: error: connection to server failed\n"); err == nil {
		t.Error("output without figures gave no error")
	}
}

func TestReadPGBenchLog(t *testing.T) {
	log := "0 0 1500 0 1700000000 12\n0 1 2500 0 1700000000 15\n1 0 failed 0 1700000000 20\nshort line\n1 1 500 0 1700000000 21\n"
	lat, err := readPGBenchLog(strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{1500 * time.Microsecond, 2500 * time.Microsecond, 500 * time.Microsecond}
	if !slices.Equal(lat, want) {
		t.Errorf("latencies %v, want %v (the failed one left out)", lat, want)
	}
}

// pgbench runs a prepared statement against a throwaway cluster and the
// figures come back from its summary and its per-transaction logs.
func TestPGBenchRuns(t *testing.T) {
	path, err := FindPGBench()
	if err == nil {
		_, err = exec.LookPath(path)
	}
	if err != nil {
		if os.Getenv("QUIRE_TEST_REQUIRE_POSTGRES") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	ctx := context.Background()
	srv, err := ThrowawayPostgres(ctx, false)
	if err != nil {
		if os.Getenv("QUIRE_TEST_REQUIRE_POSTGRES") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	defer srv.Close()
	p := &PGBench{Path: path, URL: srv.DB, Dir: t.TempDir()}
	res, err := p.Run(ctx, "\\set n random(1, 5)\nSELECT :n::int + length(:word);\n", map[string]string{"word": "quire"}, 2, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests == 0 || res.Errors != 0 || res.P50 <= 0 || res.P99 < res.P50 {
		t.Errorf("got %+v: want transactions, no errors and percentiles from the logs", res)
	}
	if _, err := p.Run(ctx, "SELECT no_such_column FROM pg_class;\n", nil, 1, time.Second); err == nil {
		t.Error("a failing statement gave no error")
	}
	if !strings.HasPrefix(p.Version(ctx), "pgbench (PostgreSQL)") {
		t.Errorf("version %q", p.Version(ctx))
	}
}

func TestCacheDir(t *testing.T) {
	t.Setenv("BENCH_CACHE_DIR", "/somewhere/cache")
	if d, _ := CacheDir(); d != "/somewhere/cache" {
		t.Errorf("BENCH_CACHE_DIR: %q", d)
	}
	t.Setenv("BENCH_CACHE_DIR", "")
	t.Setenv("XDG_CACHE_HOME", "/xdg")
	if d, _ := CacheDir(); d != "/xdg/quire-bench" {
		t.Errorf("XDG_CACHE_HOME: %q", d)
	}
}

// A package whose probe file is there is not installed again (no npm
// runs: the PATH holds none), and its version is read from package.json.
func TestNPMInstallKeepsTheCache(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pkg")
	mod := filepath.Join(dir, "node_modules", "thing")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "package.json"), []byte(`{"name":"thing","version":"1.2.3"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir())
	if err := NPMInstall(context.Background(), dir, "thing@1.2.3", filepath.Join(mod, "package.json")); err != nil {
		t.Fatalf("an installed package was installed again: %v", err)
	}
	if v := PackageVersion(dir, "thing"); v != "1.2.3" {
		t.Errorf("version %q", v)
	}
	if v := PackageVersion(dir, "other"); v != "unknown" {
		t.Errorf("missing package: %q", v)
	}
	// Without the probe, npm is needed: its absence is an error, and no
	// half-filled directory stays behind.
	fresh := filepath.Join(t.TempDir(), "new")
	if err := NPMInstall(context.Background(), fresh, "thing@1.2.3", "/nonexistent"); err == nil {
		t.Error("an install without npm succeeded")
	}
	for _, d := range []string{fresh, fresh + ".partial"} {
		if _, err := os.Stat(d); err == nil {
			t.Errorf("a failed install left %s", d)
		}
	}
}
