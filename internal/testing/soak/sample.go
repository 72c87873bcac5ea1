package soak

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"quire/internal/testing/testclient"
)

// Sample is the server's state at one moment, and the load of the
// interval that ended then.
type Sample struct {
	At         time.Duration // since the load started
	RSS        int64         // bytes, from /proc/PID/status (VmRSS)
	HeapInuse  int64         // go_memstats_heap_inuse_bytes
	HeapLive   int64         // go_gc_heap_live_bytes: what the last collection found live
	Goroutines int64         // go_goroutines
	// ListWorkers is the goroutines kept to marshal GraphQL lists
	// (quire_graphql_list_workers): a pool that fills up to a bound as
	// the load needs it, so the rule leaves them out.
	ListWorkers int64
	DBOpen      int64 // go_sql_open_connections: the pool's open connections
	Requests    int64 // requests the server has answered (quire_http_request_duration_seconds_count)
	Server5xx   int64 // of those, answered with a 5xx
	// HeapLow and GoroutinesLow are the least live heap and goroutines
	// (besides the list workers) seen in the interval, the server scraped
	// every few seconds: the live heap of the quietest collection (with
	// GOGC=200 the heap in use at any one moment swings up to three times
	// the live heap, and an interval may see no collection at all) and the
	// goroutines with the fewest requests under way. The rule compares
	// these.
	HeapLow       int64
	GoroutinesLow int64
	Interval      int           // requests the load completed in the interval
	P50, P99      time.Duration // their latency, as the load saw it
}

// sample reads the server's /metrics and /proc.
func sample(ctx context.Context, base string, pid int) (Sample, error) {
	var s Sample
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	resp, err := (&testclient.Client{Base: base}).Send(ctx, "GET", "/metrics", nil)
	if err != nil {
		return s, err
	}
	if resp.Status != http.StatusOK {
		return s, fmt.Errorf("GET /metrics: status %d", resp.Status)
	}
	if err := readMetrics(bytes.NewReader(resp.Body), &s); err != nil {
		return s, err
	}
	s.RSS, err = rss(pid)
	return s, err
}

// readMetrics picks the soak's figures out of the Prometheus text format.
func readMetrics(r io.Reader, s *Sample) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	seen := map[string]bool{}
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		name, labels, _ := strings.Cut(line[:i], "{")
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			continue
		}
		switch name {
		case "go_memstats_heap_inuse_bytes":
			s.HeapInuse = int64(v)
		case "go_gc_heap_live_bytes":
			s.HeapLive = int64(v)
		case "go_goroutines":
			s.Goroutines = int64(v)
		case "quire_graphql_list_workers":
			s.ListWorkers = int64(v)
		case "go_sql_open_connections":
			s.DBOpen += int64(v)
		case "quire_http_request_duration_seconds_count":
			s.Requests += int64(v)
			if strings.Contains(labels, `status="5`) {
				s.Server5xx += int64(v)
			}
		default:
			continue
		}
		seen[name] = true
	}
	if err := sc.Err(); err != nil {
		return err
	}
	for _, n := range []string{"go_memstats_heap_inuse_bytes", "go_gc_heap_live_bytes", "go_goroutines", "quire_graphql_list_workers", "go_sql_open_connections"} {
		if !seen[n] {
			return fmt.Errorf("/metrics has no %s", n)
		}
	}
	return nil
}

// rss is the resident set size of a process.
func rss(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest) // "12345 kB"
			if len(f) == 2 && f[1] == "kB" {
				kb, err := strconv.ParseInt(f[0], 10, 64)
				return kb << 10, err
			}
		}
	}
	return 0, fmt.Errorf("/proc/%d/status has no VmRSS", pid)
}

// Table prints the samples as a markdown table.
func Table(w io.Writer, samples []Sample) {
	fmt.Fprintln(w, "| at | RSS MiB | heap in use MiB | live heap MiB (interval low) | goroutines | besides list workers (interval low) | list workers | DB conns open | requests (server) | 5xx (server) | requests in interval | p50 ms | p99 ms |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, s := range samples {
		fmt.Fprintf(w, "| %s | %.1f | %.1f | %.1f (%.1f) | %d | %d | %d | %d | %d | %d | %d | %.1f | %.1f |\n",
			s.At.Round(time.Second), mib(s.RSS), mib(s.HeapInuse), mib(s.HeapLive), mib(s.HeapLow), s.Goroutines, s.GoroutinesLow, s.ListWorkers,
			s.DBOpen, s.Requests, s.Server5xx, s.Interval, ms(s.P50), ms(s.P99))
	}
}

func mib(b int64) float64        { return float64(b) / (1 << 20) }
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
