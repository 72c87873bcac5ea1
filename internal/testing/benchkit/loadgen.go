package benchkit

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

// Target is one endpoint under load.
type Target struct {
	Name   string // rest, graphql, baseline, ...
	Method string
	URL    string
	Token  string
	Body   []byte // nil for GET
	// Vary, when set, gives the URL and body of the n-th request (from 0)
	// of worker w instead of URL and Body, so that requests differ (a
	// random site each); ok false stops the worker (a list of prepared
	// objects is used up). Only the built-in load generator supports it.
	Vary func(w, n int) (url string, body []byte, ok bool)
	// Header are extra request headers (Accept-Encoding, ...); only the
	// built-in load generator and Send send them.
	Header http.Header
}

// Result is what one load run measured.
type Result struct {
	Requests int64
	Errors   int64 // failed or non-2xx requests
	Elapsed  time.Duration
	P50, P99 time.Duration
	// FirstError is the first failure the built-in generator saw, if any.
	FirstError string
}

func (r Result) RPS() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Elapsed.Seconds()
}

// Loadgen drives load against a Target with a fixed number of
// connections for a fixed duration.
type Loadgen interface {
	Name() string
	Run(ctx context.Context, t Target, conns int, d time.Duration) (Result, error)
}

// PickLoadgen returns the load generator called name ("auto": wrk, else
// hey, else builtin).
func PickLoadgen(name, tmp string) (Loadgen, error) {
	switch name {
	case "auto":
		for _, n := range []string{"wrk", "hey"} {
			if p, err := exec.LookPath(n); err == nil {
				return PickLoadgen(n+":"+p, tmp)
			}
		}
		return Builtin{}, nil
	case "builtin":
		return Builtin{}, nil
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

func (w *wrk) Run(ctx context.Context, t Target, conns int, d time.Duration) (Result, error) {
	if t.Vary != nil {
		return Result{}, errors.New("wrk: requests that vary need the built-in load generator")
	}
	w.n++
	bodyPath := filepath.Join(w.dir, fmt.Sprintf("wrk-%d.body", w.n))
	if err := os.WriteFile(bodyPath, t.Body, 0o600); err != nil {
		return Result{}, err
	}
	script := filepath.Join(w.dir, fmt.Sprintf("wrk-%d.lua", w.n))
	if err := os.WriteFile(script, fmt.Appendf(nil, wrkScript, bodyPath, t.Method, t.Token), 0o600); err != nil {
		return Result{}, err
	}
	threads := min(conns, 2)
	out, err := runBounded(ctx, d+90*time.Second, w.path, "-t", strconv.Itoa(threads), "-c", strconv.Itoa(conns),
		"-d", fmt.Sprintf("%ds", max(1, int((d+time.Second-1)/time.Second))), "--timeout", "60s", "-s", script, t.URL)
	if err != nil {
		return Result{}, err
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
			return Result{}, fmt.Errorf("wrk output %q: %v", js, err)
		}
		return Result{Requests: v.Requests, Errors: v.Errors, Elapsed: time.Duration(v.DurationUS) * time.Microsecond,
			P50: time.Duration(v.P50US) * time.Microsecond, P99: time.Duration(v.P99US) * time.Microsecond}, nil
	}
	return Result{}, fmt.Errorf("wrk printed no figures:\n%s", out)
}

// hey runs github.com/rakyll/hey and computes the figures from its CSV
// output (one line per request).
type hey struct {
	path, dir string
	n         int
}

func (h *hey) Name() string { return "hey" }

func (h *hey) Run(ctx context.Context, t Target, conns int, d time.Duration) (Result, error) {
	if t.Vary != nil {
		return Result{}, errors.New("hey: requests that vary need the built-in load generator")
	}
	args := []string{"-z", d.String(), "-c", strconv.Itoa(conns), "-m", t.Method,
		"-H", "Authorization: Bearer " + t.Token, "-t", "60", "-o", "csv"}
	if len(t.Body) > 0 {
		h.n++
		p := filepath.Join(h.dir, fmt.Sprintf("hey-%d.body", h.n))
		if err := os.WriteFile(p, t.Body, 0o600); err != nil {
			return Result{}, err
		}
		args = append(args, "-T", "application/json", "-D", p)
	}
	start := time.Now()
	out, err := runBounded(ctx, d+90*time.Second, h.path, append(args, t.URL)...)
	elapsed := time.Since(start)
	if err != nil {
		return Result{}, err
	}
	r := csv.NewReader(bytes.NewReader(out))
	r.FieldsPerRecord = -1
	var lat []time.Duration
	var res Result
	var last float64
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Result{}, fmt.Errorf("hey csv: %v", err)
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
	res.P50, res.P99 = Percentiles(lat)
	return res, nil
}

// Builtin is a Go load generator: conns workers, each with its own
// keep-alive connection, send requests back to back until the duration is
// over.
type Builtin struct{}

func (Builtin) Name() string { return "builtin" }

func (Builtin) Run(ctx context.Context, t Target, conns int, d time.Duration) (Result, error) {
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
	for w := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			var myErrs int64
			for n := 0; ctx.Err() == nil; n++ {
				u, b := t.URL, t.Body
				if t.Vary != nil {
					var ok bool
					if u, b, ok = t.Vary(w, n); !ok {
						break
					}
				}
				// The answer is drained, not kept, as wrk and hey do.
				req, err := t.request(context.Background(), u, b)
				var resp *http.Response
				t0 := time.Now()
				if err == nil {
					resp, err = client.Do(req)
				}
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
	res := Result{Requests: int64(len(lat)), Errors: errs, Elapsed: time.Since(start)}
	if firstE != nil {
		res.FirstError = firstE.Error()
	}
	res.P50, res.P99 = Percentiles(lat)
	return res, nil
}

// Percentiles returns the 50th and 99th percentiles (nearest rank) of
// lat, which it sorts.
func Percentiles(lat []time.Duration) (p50, p99 time.Duration) {
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
