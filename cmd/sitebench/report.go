package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"quire/internal/db"
	"quire/internal/testing/benchkit"
)

// fetch sends one request and returns the body; anything but 200 is an error.
func fetch(ctx context.Context, t benchkit.Target) ([]byte, error) {
	b, err := benchkit.Send(ctx, t, 0)
	if err != nil {
		return nil, err
	}
	if t.Name == "graphql" && bytes.Contains(b, []byte(`"errors"`)) {
		return nil, fmt.Errorf("GraphQL errors: %s", benchkit.Truncate(b, 500))
	}
	return b, nil
}

// checkSame compares the GraphQL and baseline answers with REST's, as
// decoded JSON (null members dropped), and returns "yes" or "NO" per target.
func checkSame(bodies map[string][]byte, size benchkit.SiteSize, notes *[]string) map[string]string {
	out := map[string]string{"rest": "—"}
	rest, err := decode(bodies["rest"])
	if err != nil {
		*notes = append(*notes, fmt.Sprintf("%s: REST answer is not JSON: %v", size, err))
		return out
	}
	bl, err := decode(bodies["baseline"])
	if err != nil {
		*notes = append(*notes, fmt.Sprintf("%s: baseline answer is not JSON: %v", size, err))
		out["baseline"] = "NO"
	} else if ds := diff(rest, bl, "$", 5); len(ds) > 0 {
		out["baseline"] = "NO"
		*notes = append(*notes, fmt.Sprintf("%s: baseline differs from REST (left REST, right baseline): %s", size, strings.Join(ds, "; ")))
	} else {
		out["baseline"] = "yes"
	}
	gq, err := graphQLAsREST(bodies["graphql"])
	if err != nil {
		*notes = append(*notes, fmt.Sprintf("%s: GraphQL answer: %v", size, err))
		out["graphql"] = "NO"
	} else if ds := diff(rest, gq, "$", 5); len(ds) > 0 {
		out["graphql"] = "NO"
		*notes = append(*notes, fmt.Sprintf("%s: GraphQL differs from REST (left REST, right GraphQL rebuilt in the REST shape): %s", size, strings.Join(ds, "; ")))
	} else {
		out["graphql"] = "yes"
	}
	return out
}

// crossCheckMetrics checks that /metrics reports the statement counter the
// benchmark reads in process.
func crossCheckMetrics(ctx context.Context, base string, d *db.DB) error {
	got, err := benchkit.Metric(ctx, base, "quire_db_statements_total")
	if err != nil {
		return err
	}
	if want := d.Statements(); int64(got) != want {
		return fmt.Errorf("/metrics says %v statements, the in-process counter %d", got, want)
	}
	return nil
}

func startProfile(dir, name string) (func(), error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

func printTable(w io.Writer, rows []row) {
	fmt.Fprintln(w, "| target | site | conns | req/s | p50 | p99 | CPU/req: Go process | CPU/req: PostgreSQL | statements/req | bytes | same as REST | ratio vs baseline | requests (errors) / run |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|")
	for _, r := range rows {
		ratio := "—"
		if r.Target != "baseline" {
			mark := "✅"
			if r.Ratio < targetRatio {
				mark = "❌"
			}
			ratio = fmt.Sprintf("%.2f %s", r.Ratio, mark)
		}
		p50, p99, cpu, dbc := ms(r.Res.P50), ms(r.Res.P99), ms(r.CPU), ms(r.DBCPU)
		if r.DBCPU < 0 {
			dbc = "(in process)"
		}
		if r.Res.Requests == 0 {
			p50, p99, cpu, dbc = "—", "—", "—", "—"
		}
		fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s | %s | %s | %.1f | %d | %s | %s | %d (%d) / %.0fs |\n",
			r.Target, r.Size, r.Conns, rps(r.Res.RPS()), p50, p99, cpu, dbc, r.Statements, r.Bytes, r.Same, ratio, r.Res.Requests, r.Res.Errors, r.Res.Elapsed.Seconds())
	}
	fmt.Fprintln(w)
}

func rps(v float64) string { return benchkit.FormatRPS(v) }

func ms(d time.Duration) string { return benchkit.FormatMS(d) }

// median returns the run with the median requests per second.
func median(runs []row) row {
	return benchkit.MedianBy(runs, func(r row) float64 { return r.Res.RPS() })
}

// cpuTime returns the CPU time (user + system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// logStatements runs fn between two marker statements and returns the
// statements PostgreSQL logged in between (log_statement=all).
func logStatements(ctx context.Context, d *db.DB, logPath string, fn func() error) ([]string, error) {
	mark := func(s string) error { _, err := d.SQL.ExecContext(ctx, "SELECT '"+s+"'"); return err }
	if err := mark("sitebench-begin"); err != nil {
		return nil, err
	}
	if err := fn(); err != nil {
		return nil, err
	}
	if err := mark("sitebench-end"); err != nil {
		return nil, err
	}
	var b []byte
	for range 50 { // the server writes its log asynchronously
		var err error
		if b, err = os.ReadFile(logPath); err != nil {
			return nil, err
		}
		if bytes.Contains(b, []byte("'sitebench-end'")) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	text := string(b)
	i := strings.LastIndex(text, "'sitebench-begin'")
	j := strings.LastIndex(text, "'sitebench-end'")
	if i < 0 || j < i {
		return nil, errors.New("markers not found in the PostgreSQL log")
	}
	j = strings.LastIndex(text[:j], "\n") // the start of the end marker's line
	if k := strings.Index(text[i:], "\n"); k >= 0 && i+k < j {
		i += k + 1
	} else {
		return nil, nil
	}
	// Log lines start with a timestamp; other lines continue a statement.
	var out []string
	for _, line := range strings.Split(text[i:j], "\n") {
		if line == "" {
			continue
		}
		if line[0] < '0' || line[0] > '9' {
			if n := len(out); n > 0 {
				out[n-1] += " " + strings.Join(strings.Fields(line), " ")
			}
			continue
		}
		k := strings.Index(line, "statement: ")
		if k < 0 {
			k = strings.Index(line, "execute ")
		}
		if k >= 0 {
			out = append(out, strings.Join(strings.Fields(line[k:]), " "))
		}
	}
	for n := range out {
		if len(out[n]) > 200 {
			out[n] = out[n][:200] + "..."
		}
	}
	return out, nil
}

// gcLabel writes a GOGC percentage as the variable is written.
func gcLabel(p int) string {
	if p < 0 {
		return "off"
	}
	return strconv.Itoa(p)
}
