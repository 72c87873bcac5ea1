package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// target is one endpoint under load.
type target struct {
	Name   string // rest, graphql, baseline
	Method string
	URL    string
	Token  string
	Body   []byte // nil for GET
}

// result is what one load run measured.
type result struct {
	Requests int64
	Errors   int64 // failed or non-2xx requests
	Elapsed  time.Duration
	P50, P99 time.Duration
}

func (r result) RPS() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Elapsed.Seconds()
}

// loadgen drives load against a target with a fixed number of
// connections for a fixed duration.
type loadgen interface {
	Name() string
	Run(ctx context.Context, t target, conns int, d time.Duration) (result, error)
}

// pickLoadgen returns the load generator called name ("auto": wrk, else
// hey, else builtin).
func pickLoadgen(name, tmp string) (loadgen, error) {
	switch name {
	case "auto":
		for _, n := range []string{"wrk", "hey"} {
			if p, err := exec.LookPath(n); err == nil {
				return pickLoadgen(n+":"+p, tmp)
			}
		}
		return builtin{}, nil
	case "builtin":
		return builtin{}, nil
	}
	name, path, _ := strings.Cut(name, ":")
	if path == "" {
		p, err := exec.LookPath(name)
		if err != nil {
			return nil, fmt.Errorf("--loadgen %s: %v", name, err)
		}
		path = p
	}
	switch name {
	case "wrk":
		return &wrk{path: path, dir: tmp}, nil
	case "hey":
		return &hey{path: path, dir: tmp}, nil
	}
	return nil, fmt.Errorf("unknown --loadgen %q (wrk, hey, builtin or auto)", name)
}

// runBounded runs a command, killing it if it outlives its deadline.
func runBounded(ctx context.Context, d time.Duration, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.Bytes(), fmt.Errorf("%s: %v: %s", name, err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), nil
}

// wrk runs github.com/wg/wrk with a generated Lua script that sets the
// method, headers and body and prints the figures as one JSON line.
type wrk struct {
	path, dir string
	n         int
}

func (w *wrk) Name() string { return "wrk" }

const wrkScript = `
local f = assert(io.open(%q, "rb"))
local body = f:read("*a")
f:close()
wrk.method = %q
wrk.headers["Authorization"] = "Bearer " .. %q
if #body > 0 then
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("SITEBENCH {\"requests\":%%d,\"duration_us\":%%d,\"errors\":%%d,\"p50_us\":%%d,\"p99_us\":%%d}\n",
    summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`

func (w *wrk) Run(ctx context.Context, t target, conns int, d time.Duration) (result, error) {
	w.n++
	bodyPath := filepath.Join(w.dir, fmt.Sprintf("wrk-%d.body", w.n))
	if err := os.WriteFile(bodyPath, t.Body, 0o600); err != nil {
		return result{}, err
	}
	script := filepath.Join(w.dir, fmt.Sprintf("wrk-%d.lua", w.n))
	if err := os.WriteFile(script, fmt.Appendf(nil, wrkScript, bodyPath, t.Method, t.Token), 0o600); err != nil {
		return result{}, err
	}
	threads := min(conns, 2)
	out, err := runBounded(ctx, d+90*time.Second, w.path, "-t", strconv.Itoa(threads), "-c", strconv.Itoa(conns),
		"-d", fmt.Sprintf("%ds", max(1, int((d+time.Second-1)/time.Second))), "--timeout", "60s", "-s", script, t.URL)
	if err != nil {
		return result{}, err
	}
	for _, line := range strings.Split(string(out), "\n") {
		js, ok := strings.CutPrefix(line, "SITEBENCH ")
		if !ok {
			continue
		}
		var v struct {
			Requests   int64 `json:"requests"`
			DurationUS int64 `json:"duration_us"`
			Errors     int64 `json:"errors"`
			P50US      int64 `json:"p50_us"`
			P99US      int64 `json:"p99_us"`
		}
		if err := json.Unmarshal([]byte(js), &v); err != nil {
			return result{}, fmt.Errorf("wrk output %q: %v", js, err)
		}
		return result{Requests: v.Requests, Errors: v.Errors, Elapsed: time.Duration(v.DurationUS) * time.Microsecond,
			P50: time.Duration(v.P50US) * time.Microsecond, P99: time.Duration(v.P99US) * time.Microsecond}, nil
	}
	return result{}, fmt.Errorf("wrk printed no figures:\n%s", out)
}

// hey runs github.com/rakyll/hey and computes the figures from its CSV
// output (one line per request).
type hey struct {
	path, dir string
	n         int
}

func (h *hey) Name() string { return "hey" }

func (h *hey) Run(ctx context.Context, t target, conns int, d time.Duration) (result, error) {
	args := []string{"-z", d.String(), "-c", strconv.Itoa(conns), "-m", t.Method,
		"-H", "Authorization: Bearer " + t.Token, "-t", "60", "-o", "csv"}
	if len(t.Body) > 0 {
		h.n++
		p := filepath.Join(h.dir, fmt.Sprintf("hey-%d.body", h.n))
		if err := os.WriteFile(p, t.Body, 0o600); err != nil {
			return result{}, err
		}
		args = append(args, "-T", "application/json", "-D", p)
	}
	start := time.Now()
	out, err := runBounded(ctx, d+90*time.Second, h.path, append(args, t.URL)...)
	elapsed := time.Since(start)
	if err != nil {
		return result{}, err
	}
	r := csv.NewReader(bytes.NewReader(out))
	r.FieldsPerRecord = -1
	var lat []time.Duration
	var res result
	var last float64
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return result{}, fmt.Errorf("hey csv: %v", err)
		}
		if len(rec) < 8 || rec[0] == "response-time" {
			continue
		}
		rt, err1 := strconv.ParseFloat(rec[0], 64)
		status, err2 := strconv.Atoi(rec[6])
		offset, err3 := strconv.ParseFloat(rec[7], 64)
		if err1 != nil || err2 != nil || err3 != nil {
			continue
		}
		res.Requests++
		if status < 200 || status > 299 {
			res.Errors++
		}
		lat = append(lat, time.Duration(rt*float64(time.Second)))
		last = max(last, offset+rt)
	}
	res.Elapsed = elapsed
	if last > 0 {
		res.Elapsed = time.Duration(last * float64(time.Second))
	}
	res.P50, res.P99 = percentiles(lat)
	return res, nil
}

// builtin is a Go load generator: conns workers, each with its own
// keep-alive connection, send requests back to back until the duration is
// over.
type builtin struct{}

func (builtin) Name() string { return "builtin" }

func (builtin) Run(ctx context.Context, t target, conns int, d time.Duration) (result, error) {
	tr := &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 60 * time.Second}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var (
		mu     sync.Mutex
		lat    []time.Duration
		errs   int64
		wg     sync.WaitGroup
		start  = time.Now()
		firstE error
	)
	for range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			var myErrs int64
			for ctx.Err() == nil {
				var body io.Reader
				if t.Body != nil {
					body = bytes.NewReader(t.Body)
				}
				req, _ := http.NewRequest(t.Method, t.URL, body)
				req.Header.Set("Authorization", "Bearer "+t.Token)
				if t.Body != nil {
					req.Header.Set("Content-Type", "application/json")
				}
				t0 := time.Now()
				resp, err := client.Do(req)
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err == nil && (resp.StatusCode < 200 || resp.StatusCode > 299) {
						err = fmt.Errorf("status %d", resp.StatusCode)
					}
				}
				if err != nil {
					myErrs++
					mu.Lock()
					if firstE == nil {
						firstE = err
					}
					mu.Unlock()
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			errs += myErrs
			mu.Unlock()
		}()
	}
	wg.Wait()
	res := result{Requests: int64(len(lat)), Errors: errs, Elapsed: time.Since(start)}
	res.P50, res.P99 = percentiles(lat)
	return res, nil
}

// percentiles returns the 50th and 99th percentiles (nearest rank).
func percentiles(lat []time.Duration) (p50, p99 time.Duration) {
	if len(lat) == 0 {
		return 0, 0
	}
	slices.Sort(lat)
	at := func(p float64) time.Duration {
		i := int(p/100*float64(len(lat))+0.5) - 1
		return lat[max(0, min(i, len(lat)-1))]
	}
	return at(50), at(99)
}
