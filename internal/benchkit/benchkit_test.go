package benchkit

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
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
