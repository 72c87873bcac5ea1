package soak

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/internal/testing/testdb"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
	binDir    string
)

// quireBinary builds cmd/quire once for the package's tests.
func quireBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		var root string
		if binDir, buildErr = os.MkdirTemp("", "quire-soak-test-"); buildErr != nil {
			return
		}
		wd, _ := os.Getwd()
		if root, buildErr = ModuleRoot(wd); buildErr == nil {
			binary, buildErr = Build(context.Background(), root, binDir)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binary
}

// TestShortSoak runs the whole harness briefly on both databases against a
// real quire serve: it must pass, having sampled, written and received
// events, so that the soak itself keeps working.
func TestShortSoak(t *testing.T) {
	bin := quireBinary(t)
	t.Cleanup(func() { os.RemoveAll(binDir) })
	for _, dbName := range []string{"sqlite", "postgres"} {
		t.Run(dbName, func(t *testing.T) {
			dbURL := "sqlite:" + filepath.Join(t.TempDir(), "quire.db")
			if dbName == "postgres" {
				dbURL = testdb.NewDatabase(t)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			res, err := Run(ctx, Config{
				Binary: bin, DatabaseURL: dbURL, LogDir: t.TempDir(),
				Duration: 20 * time.Second, Warmup: 8 * time.Second, SampleEvery: 4 * time.Second,
				Rate: 15, Workers: 8, Spaces: 4, Seed: 7,
				// Small, so that the short run deletes pages and comments too.
				KeepPages: 1, KeepComments: 2,
			})
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			Table(&b, res.Samples)
			t.Logf("\n%s%d requests, %d merged, %d comments, events %v", b.String(), res.Requests, res.Merged, res.Comments, res.Events)
			if !res.Passed() {
				log, _ := os.ReadFile(res.ServerLog)
				t.Fatalf("soak failed: %q\nfirst failed requests: %q\nserver log tail:\n%s", res.Failures, res.FirstErrs, tail(string(log), 20))
			}
			if len(res.Samples) < 3 || res.Merged == 0 || res.Deleted == 0 || res.Comments == 0 || res.Uncommented == 0 || res.Events["change_request_merged"] == 0 || res.Events["comment_created"] == 0 {
				t.Fatalf("the soak passed without exercising everything: %d samples, %d merged, %d deleted, %d comments, %d deleted, events %v", len(res.Samples), res.Merged, res.Deleted, res.Comments, res.Uncommented, res.Events)
			}
			for _, s := range res.Samples {
				if s.RSS == 0 || s.HeapInuse == 0 || s.HeapLive == 0 || s.HeapLow == 0 || s.Goroutines == 0 || s.GoroutinesLow == 0 || s.DBOpen == 0 || s.Interval == 0 {
					t.Fatalf("sample with a zero figure: %+v", s)
				}
			}
		})
	}
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

func TestFlat(t *testing.T) {
	const mb = 1 << 20
	first := Sample{RSS: 100 * mb, HeapLow: 20 * mb, GoroutinesLow: 50}
	for _, tc := range []struct {
		name string
		last Sample
		want []string // words each failure holds, in order
	}{
		{"same", first, nil},
		{"within the bound", Sample{RSS: 136 * mb, HeapLow: 40 * mb, GoroutinesLow: 70}, nil},
		{"only the swings beyond", Sample{RSS: 100 * mb, HeapInuse: 90 * mb, HeapLow: 20 * mb, Goroutines: 200, GoroutinesLow: 50}, nil},
		{"RSS beyond", Sample{RSS: 137 * mb, HeapLow: 20 * mb, GoroutinesLow: 50}, []string{"RSS"}},
		{"heap beyond", Sample{RSS: 100 * mb, HeapLow: 41 * mb, GoroutinesLow: 50}, []string{"heap"}},
		{"goroutines beyond", Sample{RSS: 100 * mb, HeapLow: 20 * mb, GoroutinesLow: 71}, []string{"goroutines"}},
		{"all beyond", Sample{RSS: 300 * mb, HeapLow: 300 * mb, GoroutinesLow: 500}, []string{"RSS", "heap", "goroutines"}},
	} {
		got := Flat(first, tc.last)
		if len(got) != len(tc.want) {
			t.Errorf("%s: Flat = %q, want failures about %q", tc.name, got, tc.want)
			continue
		}
		for i, w := range tc.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: failure %q does not name %s", tc.name, got[i], w)
			}
		}
	}
}

func TestReadMetrics(t *testing.T) {
	const text = `# HELP go_goroutines Number of goroutines that currently exist.
# TYPE go_goroutines gauge
go_goroutines 42
quire_graphql_list_workers 7
go_memstats_heap_inuse_bytes 1.2345e+07
go_gc_heap_live_bytes 4.5e+06
go_sql_open_connections{db_name="quire"} 3
quire_http_request_duration_seconds_count{method="GET",route="/v1/spaces/{spaceId}",status="200"} 10
quire_http_request_duration_seconds_count{method="POST",route="/graphql",status="503"} 2
quire_http_request_duration_seconds_count{method="GET",route="/v1/unmatched",status="404"} 1
quire_http_request_duration_seconds_sum{method="GET",route="/v1/spaces/{spaceId}",status="200"} 0.5
`
	var s Sample
	if err := readMetrics(strings.NewReader(text), &s); err != nil {
		t.Fatal(err)
	}
	want := Sample{Goroutines: 42, ListWorkers: 7, HeapInuse: 12345000, HeapLive: 4500000, DBOpen: 3, Requests: 13, Server5xx: 2}
	if s != want {
		t.Fatalf("readMetrics = %+v, want %+v", s, want)
	}
	if err := readMetrics(strings.NewReader("go_goroutines 1\n"), &s); err == nil {
		t.Fatal("readMetrics accepted metrics without the heap and the pool")
	}
}

// The interval's low of goroutines leaves out the GraphQL list workers,
// whose pool fills as the load needs it, and its low of heap is of the
// live heap, not the heap in use.
func TestLowsLeaveOutListWorkers(t *testing.T) {
	var l lows
	l.see(Sample{Goroutines: 60, HeapInuse: 90, HeapLive: 30})
	l.see(Sample{Goroutines: 90, ListWorkers: 40, HeapInuse: 80, HeapLive: 20})
	heap, g := l.take(Sample{Goroutines: 120, ListWorkers: 30, HeapInuse: 10, HeapLive: 25})
	if heap != 20 || g != 50 {
		t.Fatalf("lows = heap %d, goroutines %d; want 20, 50", heap, g)
	}
	if heap, g := l.take(Sample{Goroutines: 70, ListWorkers: 5, HeapInuse: 40, HeapLive: 9}); heap != 9 || g != 65 {
		t.Fatalf("after take, lows = heap %d, goroutines %d; want 9, 65", heap, g)
	}
}

func TestWordOf(t *testing.T) {
	seen := map[string]bool{}
	for n := 1; n < 2000; n++ {
		w := wordOf(n)
		if strings.ContainsAny(w, "0123456789") || !strings.HasSuffix(w, "q") || seen[w] || numberOf(w) != n {
			t.Fatalf("wordOf(%d) = %q (numberOf %d, seen %v)", n, w, numberOf(w), seen[w])
		}
		seen[w] = true
	}
}
