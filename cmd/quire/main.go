// Command quire runs the Quire server and its administration tasks.
//
//	quire serve [--addr HOST:PORT] [--database-url URL] [--public-url URL]
//	quire migrate [--status] [--database-url URL]
//	quire admin bootstrap --org TITLE --email EMAIL [--name NAME] [--database-url URL]
//	quire admin user create --email EMAIL [--name NAME] [--org ORG_ID --role ROLE] [--database-url URL]
//	quire admin token create --user USER_ID [--database-url URL]
//	quire admin token revoke (--token-id ID | --token SECRET) [--database-url URL]
//
// Logs are JSON lines on stderr; admin commands print exactly one JSON object
// on stdout.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"time"

	"quire/internal/db"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// Environment variables and their defaults.
const (
	envAddr        = "QUIRE_ADDR"
	envDatabaseURL = "QUIRE_DATABASE_URL"
	envPublicURL   = "QUIRE_PUBLIC_URL"
	envSigningKey  = "QUIRE_SIGNING_KEY"

	envRequestTimeout = "QUIRE_REQUEST_TIMEOUT"
	envUploadTimeout  = "QUIRE_UPLOAD_TIMEOUT"
	envJobWorkers     = "QUIRE_JOB_WORKERS"
	envGitFileRoots   = "QUIRE_GIT_FILE_ROOTS"
	// The LibreTranslate server translation runs use, and its API key.
	envTranslateURL = "QUIRE_TRANSLATE_URL"
	envTranslateKey = "QUIRE_TRANSLATE_KEY"
	// envOpenAPIFetchPrivate lets specifications be fetched from inside
	// the server's network.
	envOpenAPIFetchPrivate = "QUIRE_OPENAPI_FETCH_PRIVATE"
	// envLogLevel is the lowest level logged: debug, info (default), warn
	// or error.
	envLogLevel = "QUIRE_LOG_LEVEL"

	defaultAddr        = "localhost:8080"
	defaultDatabaseURL = "sqlite:data/quire.db"
)

const usageText = `Usage:
  quire serve [--addr HOST:PORT] [--database-url URL] [--public-url URL]
              [--request-timeout DURATION] [--upload-timeout DURATION]
  quire migrate [--status] [--database-url URL]
  quire admin bootstrap --org TITLE --email EMAIL [--name NAME] [--database-url URL]
  quire admin user create --email EMAIL [--name NAME] [--org ORG_ID --role ROLE] [--database-url URL]
  quire admin token create --user USER_ID [--database-url URL]
  quire admin token revoke (--token-id ID | --token SECRET) [--database-url URL]
  quire help

Environment (flags win):
  QUIRE_ADDR          listen address (default localhost:8080)
  QUIRE_DATABASE_URL  sqlite:PATH or postgres://... (default sqlite:data/quire.db)
  QUIRE_PUBLIC_URL    public base URL (default http:// + the listen address)
  QUIRE_SIGNING_KEY   secret that signs download links (default: one generated
                      once and kept in the database)
  QUIRE_RATE_LIMIT, QUIRE_RATE_LIMIT_CONTENT, QUIRE_RATE_LIMIT_WINDOW
                      points and content creations per user per window
                      (default 5000, 500, 1h; 0 turns a limit off)
  QUIRE_REQUEST_TIMEOUT  deadline of a request (default 10s)
  QUIRE_UPLOAD_TIMEOUT   deadline of a GraphQL file upload (default 1m0s)

Run "quire COMMAND --help" for a command's flags.
`

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}

// env carries what every command needs from its surroundings.
type env struct {
	stdout, stderr io.Writer
	getenv         func(string) string
}

// run executes the command line args (without the program name) and returns
// the process exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	e := &env{stdout: stdout, stderr: stderr, getenv: getenv}
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText)
		return exitUsage
	}
	switch args[0] {
	case "serve":
		return e.serve(ctx, args[1:])
	case "migrate":
		return e.migrate(ctx, args[1:])
	case "admin":
		return e.admin(ctx, args[1:])
	case "version", "-version", "--version":
		return e.printVersion(args[1:])
	case "-h", "-help", "--help":
		fmt.Fprint(stderr, usageText)
		return exitOK
	case "help":
		fmt.Fprint(stderr, usageText)
		return exitUsage
	default:
		fmt.Fprintf(stderr, "quire: unknown command %q\n\n%s", args[0], usageText)
		return exitUsage
	}
}

// logger returns the JSON logger every command logs to, at the level
// QUIRE_LOG_LEVEL names (debug, info, warn or error; info when unset or
// not one of those).
func (e *env) logger() *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(strings.TrimSpace(e.getenv(envLogLevel)))); err != nil {
		level = slog.LevelInfo
	}
	return slog.New(slog.NewJSONHandler(e.stderr, &slog.HandlerOptions{Level: level}))
}

// envOr returns the environment variable name, or def when it is unset or empty.
func (e *env) envOr(name, def string) string {
	if v := strings.TrimSpace(e.getenv(name)); v != "" {
		return v
	}
	return def
}

// newFlagSet returns a flag set for a command, printing usage (the synopsis
// then the flags) on stderr.
func (e *env) newFlagSet(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "Usage:\n  %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// databaseURLFlag declares --database-url with its environment fallback.
func (e *env) databaseURLFlag(fs *flag.FlagSet) *string {
	return fs.String("database-url", e.envOr(envDatabaseURL, defaultDatabaseURL),
		"database: sqlite:PATH or postgres://... (env "+envDatabaseURL+")")
}

// parse parses args into fs. It returns done=true with the exit code when
// the command must stop: after --help (0) or on a usage error (2).
func (e *env) parse(fs *flag.FlagSet, args []string) (code int, done bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, true
		}
		return exitUsage, true // the flag package has printed the error and usage
	}
	if fs.NArg() > 0 {
		return e.usageError(fs, "unexpected argument %q", fs.Arg(0)), true
	}
	return 0, false
}

// usageError reports a usage error with the command's usage and returns 2.
func (e *env) usageError(fs *flag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(e.stderr, "%s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.Usage()
	return exitUsage
}

// openDB opens the database without metrics.
func openDB(databaseURL string) (*db.DB, error) {
	return db.Open(databaseURL, db.Options{})
}

// redactURL hides any password in a database URL so it can be logged.
func redactURL(raw string) string {
	if !strings.Contains(raw, "://") {
		return raw // sqlite:PATH
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable database url)"
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./_-", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// migrate implements "quire migrate".
func (e *env) migrate(ctx context.Context, args []string) int {
	fs := e.newFlagSet("quire migrate", "quire migrate [--status] [--database-url URL]")
	databaseURL := e.databaseURLFlag(fs)
	status := fs.Bool("status", false, "print the applied and pending migrations as one JSON object, and change nothing")
	if code, done := e.parse(fs, args); done {
		return code
	}
	log := e.logger()
	start := time.Now()
	d, err := openDB(*databaseURL)
	if err != nil {
		log.Error("open database", "error", err.Error())
		return exitFailure
	}
	defer d.Close()
	if *status {
		st, err := d.MigrationStatus(ctx)
		if err != nil {
			log.Error("migration status", "database", redactURL(*databaseURL), "error", err.Error())
			return exitFailure
		}
		if err := e.printJSON(st); err != nil {
			log.Error("write output", "error", err.Error())
			return exitFailure
		}
		return exitOK
	}
	res, err := d.MigrateReport(ctx)
	if err != nil {
		log.Error("migrate", "database", redactURL(*databaseURL), "error", err.Error())
		return exitFailure
	}
	log.Info("migrated", append(migratedAttrs(*databaseURL, d.Dialect, res),
		"duration_ms", time.Since(start).Milliseconds())...)
	return exitOK
}

// migratedAttrs are the fields of the "migrated" log line: the schema
// version, what ran, and whether a database from before versioned
// migrations had its baseline recorded.
func migratedAttrs(databaseURL, dialect string, res db.Migrated) []any {
	applied := res.Applied
	if applied == nil {
		applied = []string{}
	}
	attrs := []any{"database", redactURL(databaseURL), "dialect", dialect, "version", res.Version, "applied", applied,
		"jobs_version", res.JobsVersion}
	if res.Baseline != "" {
		attrs = append(attrs, "baseline_recorded", res.Baseline)
	}
	return attrs
}

// printJSON writes v as one JSON line on stdout.
func (e *env) printJSON(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(append(b, '\n'))
	return err
}
