// Package testdb gives tests a PostgreSQL server.
//
// A package whose tests need PostgreSQL calls Main from its TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }
//
// and each test asks for its own empty database with NewDatabase:
//
//	url := testdb.NewDatabase(t) // postgres://postgres@127.0.0.1:PORT/quire_test_...?sslmode=disable
//
// If QUIRE_TEST_POSTGRES_URL is set, that server is used. Otherwise Main
// starts a throwaway cluster (initdb + postgres in a temporary directory) for
// the duration of the test binary and removes it afterwards.
//
// If no PostgreSQL binaries can be found, tests that need a database are
// skipped, unless QUIRE_TEST_REQUIRE_POSTGRES=1 (set by CI), in which case
// Main fails.
package testdb

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/lib/pq" // registers the "postgres" database/sql driver
)

const (
	// EnvURL names a server to use instead of starting one. It must allow
	// CREATE DATABASE and DROP DATABASE ... WITH (FORCE) (PostgreSQL 13+).
	EnvURL = "QUIRE_TEST_POSTGRES_URL"
	// EnvRequire, when "1", makes Main fail if no server can be provided.
	EnvRequire = "QUIRE_TEST_REQUIRE_POSTGRES"
)

// Time bounds. Every wait in this package is bounded.
const (
	readyTimeout     = 30 * time.Second // server accepting connections
	initdbTimeout    = 2 * time.Minute
	pollInterval     = 50 * time.Millisecond
	connectTimeout   = 2 * time.Second // one connection attempt / query while polling
	statementTimeout = 30 * time.Second
	stopFastTimeout  = 15 * time.Second // after SIGINT (fast shutdown)
	stopQuitTimeout  = 5 * time.Second  // after SIGQUIT (immediate shutdown)
	stopKillTimeout  = 5 * time.Second  // after SIGKILL
	startAttempts    = 3                // a free port may be taken before postgres binds it
)

// State set up by Main before m.Run and only read afterwards.
var (
	mainCalled        bool
	baseURL           string  // connection URL of the server's maintenance database
	admin             *sql.DB // pool on baseURL used to create and drop databases
	unavailableReason string  // why admin is nil
)

// Main provides a PostgreSQL server for the duration of m.Run and returns
// the exit code for os.Exit. Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }
func Main(m *testing.M) int {
	if mainCalled {
		fmt.Fprintln(os.Stderr, "testdb: Main called more than once")
		return 1
	}
	mainCalled = true
	required := os.Getenv(EnvRequire) == "1"

	if u := os.Getenv(EnvURL); u != "" {
		if err := waitReady(u, "", nil); err != nil {
			fmt.Fprintf(os.Stderr, "testdb: FAIL: PostgreSQL server from %s is not usable: %v\n", EnvURL, err)
			return 1
		}
		if err := openAdmin(u); err != nil {
			fmt.Fprintf(os.Stderr, "testdb: FAIL: %v\n", err)
			return 1
		}
		defer admin.Close()
		return m.Run()
	}

	bin, err := findBinaries()
	if err != nil {
		if required {
			fmt.Fprintf(os.Stderr, "testdb: FAIL: PostgreSQL is required (%s=1) but not available: %v\n", EnvRequire, err)
			return 1
		}
		unavailableReason = fmt.Sprintf("PostgreSQL not available: %v; install PostgreSQL or set %s", err, EnvURL)
		fmt.Fprintf(os.Stderr, "testdb: WARNING: %s; tests that need a database will be skipped\n", unavailableReason)
		return m.Run()
	}

	srv, err := startServer(bin, Options{})
	if err != nil {
		fmt.Fprintf(os.Stderr, "testdb: FAIL: could not start PostgreSQL from %s: %v\n", bin.dir, err)
		return 1
	}
	defer srv.close()
	if err := openAdmin(srv.url); err != nil {
		fmt.Fprintf(os.Stderr, "testdb: FAIL: %v\n", err)
		return 1
	}
	defer admin.Close() // runs before srv.close
	return m.Run()
}

// Available reports whether a PostgreSQL server is available to
// NewDatabase. It is meaningful only after Main has been called.
func Available() bool { return admin != nil }

// NewDatabase creates a new, empty database with a unique name on the
// test server, arranges for it to be dropped when t and its subtests
// finish, and returns its connection URL. Callers should close their
// connections in their own t.Cleanup (registered after NewDatabase); any
// connections still open at the end are terminated by the drop.
//
// If no server is available (only possible when QUIRE_TEST_REQUIRE_POSTGRES
// is not 1), NewDatabase skips the test.
func NewDatabase(t testing.TB) string {
	t.Helper()
	if !mainCalled {
		t.Fatal("testdb: NewDatabase needs testdb.Main; add to the package's tests: func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }")
	}
	if admin == nil {
		t.Skip("testdb: " + unavailableReason)
	}

	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatalf("testdb: random database name: %v", err)
	}
	name := "quire_test_" + hex.EncodeToString(b[:]) // only [a-z0-9_], safe unquoted
	dbURL, err := withDatabase(baseURL, name)
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), statementTimeout)
	defer cancel()
	// template0 cannot have connections, so concurrent creations never fail
	// with "source database is being accessed by other users".
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name+" TEMPLATE template0"); err != nil {
		t.Fatalf("testdb: create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), statementTimeout)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("testdb: drop database %s: %v", name, err)
		}
	})
	return dbURL
}

func openAdmin(u string) error {
	db, err := sql.Open("postgres", u)
	if err != nil {
		return fmt.Errorf("open %s: %v", redact(u), err)
	}
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(2)
	db.SetConnMaxIdleTime(10 * time.Second)
	baseURL, admin = u, db
	return nil
}

// withDatabase returns the connection string base with the database
// replaced by name. base is a postgres:// URL or a key=value string.
func withDatabase(base, name string) (string, error) {
	if strings.HasPrefix(base, "postgres://") || strings.HasPrefix(base, "postgresql://") {
		u, err := url.Parse(base)
		if err != nil {
			return "", fmt.Errorf("parse %s: %v", EnvURL, err)
		}
		u.Path, u.RawPath = "/"+name, ""
		if q := u.Query(); q.Has("dbname") {
			q.Del("dbname")
			u.RawQuery = q.Encode()
		}
		return u.String(), nil
	}
	return base + " dbname=" + name, nil // later keys win in lib/pq
}

// redact hides a password in a URL for messages.
func redact(s string) string {
	if u, err := url.Parse(s); err == nil && u.User != nil {
		return u.Redacted()
	}
	return s
}

// waitReady polls the server at u with SELECT 1 until it answers, the
// process behind done (if not nil) exits, or readyTimeout passes. If
// dataDir is not empty it also checks that the server answering is the one
// using dataDir, not another that happens to listen on the same port.
func waitReady(u, dataDir string, done <-chan struct{}) error {
	db, err := sql.Open("postgres", u)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxIdleConns(0)

	deadline := time.Now().Add(readyTimeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
		var got string
		if dataDir != "" {
			err = db.QueryRowContext(ctx, "SELECT current_setting('data_directory')").Scan(&got)
		} else {
			err = db.QueryRowContext(ctx, "SELECT 1").Scan(&got)
		}
		cancel()
		if err == nil {
			if dataDir != "" && filepath.Clean(got) != filepath.Clean(dataDir) {
				return fmt.Errorf("%w: another server (data directory %s) answers on this port", errNotOurs, got)
			}
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no connection within %v: %v", readyTimeout, err)
		}
		select {
		case <-done:
			return fmt.Errorf("%w (last connection error: %v)", errExited, err)
		case <-time.After(pollInterval):
		}
	}
}

var (
	errExited  = errors.New("postgres exited during startup")
	errNotOurs = errors.New("port taken")
)

type binaries struct {
	dir, initdb, postgres string
}

// BinDir is the directory of the initdb and postgres that Start runs, so
// that a client tool (pgbench, psql) can be taken from the same release.
func BinDir() (string, error) {
	b, err := findBinaries()
	return b.dir, err
}

// findBinaries looks for initdb and postgres in PATH, then in
// /usr/lib/postgresql/*/bin, newest version first.
func findBinaries() (binaries, error) {
	// Symlinks are resolved so that initdb and postgres are taken from
	// the same installation (e.g. /usr/local/bin/initdb -> /usr/lib/...).
	if p, err := exec.LookPath("initdb"); err == nil {
		if p, err = filepath.EvalSymlinks(p); err == nil {
			p, _ = filepath.Abs(p)
			dir := filepath.Dir(p)
			pg := filepath.Join(dir, "postgres")
			if !isExecutable(pg) {
				if q, err := exec.LookPath("postgres"); err == nil {
					pg, _ = filepath.Abs(q)
				}
			}
			if isExecutable(pg) {
				return binaries{dir: dir, initdb: p, postgres: pg}, nil
			}
		}
	}

	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.SliceStable(dirs, func(i, j int) bool {
		return versionLess(filepath.Base(filepath.Dir(dirs[j])), filepath.Base(filepath.Dir(dirs[i])))
	})
	for _, dir := range dirs {
		b := binaries{dir: dir, initdb: filepath.Join(dir, "initdb"), postgres: filepath.Join(dir, "postgres")}
		if isExecutable(b.initdb) && isExecutable(b.postgres) {
			return b, nil
		}
	}
	return binaries{}, errors.New("no initdb and postgres found in PATH or /usr/lib/postgresql/*/bin")
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}

// versionLess compares dotted numeric versions such as "9.6" and "15".
func versionLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, errx := strconv.Atoi(as[i])
		y, erry := strconv.Atoi(bs[i])
		if errx != nil || erry != nil {
			if as[i] != bs[i] {
				return as[i] < bs[i]
			}
			continue
		}
		if x != y {
			return x < y
		}
	}
	return len(as) < len(bs)
}
