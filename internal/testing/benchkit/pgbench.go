package benchkit

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"quire/internal/testing/testdb"
)

// PGBench runs PostgreSQL's pgbench against one database: the ceiling of
// a read that a single statement answers, with no HTTP and no server
// between the client and PostgreSQL.
type PGBench struct {
	Path string // the pgbench binary
	URL  string // the database, as a postgres:// URL (libpq reads it as the dbname)
	Dir  string // where scripts and per-transaction logs are written
	n    int
}

// FindPGBench is the pgbench beside the initdb and postgres that
// ThrowawayPostgres runs, so that client and server are one release.
func FindPGBench() (string, error) {
	dir, err := testdb.BinDir()
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, "pgbench")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("no pgbench beside %s: %w", filepath.Join(dir, "initdb"), err)
	}
	return p, nil
}

// Version is pgbench --version's line.
func (p *PGBench) Version(ctx context.Context) string {
	out, err := runBounded(ctx, 10*time.Second, p.Path, "--version")
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

// Run runs script (pgbench's script language) with -M prepared, so that
// each statement is parsed and planned once per connection, on conns
// connections for d; vars are -D variables. Latency percentiles come from
// the per-transaction log (-l), as exact as the built-in generator's.
func (p *PGBench) Run(ctx context.Context, script string, vars map[string]string, conns int, d time.Duration) (Result, error) {
	p.n++
	dir := filepath.Join(p.Dir, fmt.Sprintf("pgbench-%d", p.n))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Result{}, err
	}
	file := filepath.Join(dir, "script.sql")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		return Result{}, err
	}
	secs := max(1, int((d+time.Second-1)/time.Second))
	args := []string{"-n", "-M", "prepared", "-c", strconv.Itoa(conns), "-j", strconv.Itoa(min(conns, 2)),
		"-T", strconv.Itoa(secs), "-f", file, "-l", "--log-prefix", filepath.Join(dir, "log")}
	for k, v := range vars {
		args = append(args, "-D", k+"="+v)
	}
	args = append(args, p.URL)
	ctx, cancel := context.WithTimeout(ctx, d+90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.Path, args...)
	cmd.Dir = dir
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		return Result{}, fmt.Errorf("pgbench: %v\n%s", err, Truncate(out, 2000))
	}
	res, err := parsePGBenchSummary(string(out))
	if err != nil {
		return Result{}, err
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "log.*"))
	var lat []time.Duration
	for _, l := range logs {
		f, err := os.Open(l)
		if err != nil {
			return Result{}, err
		}
		more, err := readPGBenchLog(f)
		f.Close()
		if err != nil {
			return Result{}, fmt.Errorf("%s: %w", l, err)
		}
		lat = append(lat, more...)
	}
	res.P50, res.P99 = Percentiles(lat)
	// The logs can be large; the figures are what is kept.
	os.RemoveAll(dir)
	return res, nil
}

var (
	pgbenchTPS    = regexp.MustCompile(`(?m)^tps = ([0-9.]+) \(without initial connection time\)`)
	pgbenchDone   = regexp.MustCompile(`(?m)^number of transactions actually processed: (\d+)`)
	pgbenchFailed = regexp.MustCompile(`(?m)^number of failed transactions: (\d+)`)
)

// parsePGBenchSummary reads the count of transactions and the rate from
// pgbench's summary; the elapsed time is what the two imply.
func parsePGBenchSummary(out string) (Result, error) {
	tps, done := pgbenchTPS.FindStringSubmatch(out), pgbenchDone.FindStringSubmatch(out)
	if tps == nil || done == nil {
		return Result{}, fmt.Errorf("pgbench printed no figures:\n%s", Truncate([]byte(out), 2000))
	}
	rate, _ := strconv.ParseFloat(tps[1], 64)
	n, _ := strconv.ParseInt(done[1], 10, 64)
	res := Result{Requests: n}
	if m := pgbenchFailed.FindStringSubmatch(out); m != nil {
		res.Errors, _ = strconv.ParseInt(m[1], 10, 64)
	}
	if rate > 0 {
		res.Elapsed = time.Duration(float64(n) / rate * float64(time.Second))
	}
	return res, nil
}

// readPGBenchLog reads the latencies of a pgbench per-transaction log:
// "client_id transaction_no time script_no time_epoch time_us ...", time
// in microseconds.
func readPGBenchLog(r io.Reader) ([]time.Duration, error) {
	var out []time.Duration
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 6 {
			continue
		}
		us, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			// A failed transaction has a word ("failed") there; the
			// summary counts it.
			continue
		}
		out = append(out, time.Duration(us)*time.Microsecond)
	}
	return out, sc.Err()
}
