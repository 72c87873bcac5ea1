// Command quire runs the Quire server and its administration tasks:
// "quire help" lists every command, flag and environment variable (see
// commands.go, from which that help is made).
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
	envPageCacheMB    = "QUIRE_PAGE_CACHE_MB"
	envKeptSites      = "QUIRE_KEPT_SITES"
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

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}

// env carries what every command needs from its surroundings.
type env struct {
	stdout, stderr io.Writer
	getenv         func(string) string
	// inspect makes a command stop where it would parse its flags,
	// keeping its flag set in inspected (command.flagSet).
	inspect   bool
	inspected *flag.FlagSet
}

// run executes the command line args (without the program name) and returns
// the process exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	e := &env{stdout: stdout, stderr: stderr, getenv: getenv}
	if len(args) == 0 {
		usage(stderr, "")
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 {
			// "quire help admin jobs" is "quire admin jobs --help".
			return run(ctx, append(args[1:], "--help"), stdout, stderr, getenv)
		}
		usage(stderr, "")
		return exitOK
	case "-version", "--version":
		return e.printVersion(args[1:])
	}
	c, rest := findCommand(args)
	if c == nil {
		return e.unknownCommand(args)
	}
	return c.run(e, ctx, rest)
}

// unknownCommand answers args that name no command: the help of the
// group they start (such as "admin jobs"), or of everything.
func (e *env) unknownCommand(args []string) int {
	group := ""
	for i := range args {
		prefix := strings.Join(args[:i+1], " ")
		for _, c := range commands {
			if strings.HasPrefix(c.name, prefix+" ") {
				group = prefix
			}
		}
	}
	if group != "" && len(strings.Fields(group)) == len(args)-1 {
		switch args[len(args)-1] {
		case "-h", "-help", "--help", "help":
			usage(e.stderr, group)
			return exitOK
		}
	}
	if group != "" && len(strings.Fields(group)) == len(args) {
		usage(e.stderr, group)
		return exitUsage
	}
	fmt.Fprintf(e.stderr, "quire: unknown command %q\n\n", strings.Join(args[:min(len(args), len(strings.Fields(group))+1)], " "))
	usage(e.stderr, group)
	return exitUsage
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

// newFlagSet returns the flag set of the command named name ("quire
// admin user create"); its --help is made from the flags declared in it.
func (e *env) newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		synopsis, summary := name, ""
		if c := commandNamed(name); c != nil {
			synopsis, summary = c.synopsis(fs), c.summary
		}
		fmt.Fprintf(e.stderr, "Usage:\n  %s\n", wrap(synopsis, 76, "    "))
		if summary != "" {
			fmt.Fprintf(e.stderr, "\n%s\n", wrap(summary, 78, ""))
		}
		fmt.Fprint(e.stderr, "\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs
}

// databaseURLFlag declares --database-url with its environment fallback.
func (e *env) databaseURLFlag(fs *flag.FlagSet) *string {
	return fs.String("database-url", e.envOr(envDatabaseURL, defaultDatabaseURL),
		"database `URL`: sqlite:PATH or postgres://... (env "+envDatabaseURL+")")
}

// parse parses args into fs. It returns done=true with the exit code when
// the command must stop: after --help (0) or on a usage error (2).
func (e *env) parse(fs *flag.FlagSet, args []string) (code int, done bool) {
	if e.inspect {
		e.inspected = fs
		return exitOK, true
	}
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
	fs := e.newFlagSet("quire migrate")
	dbf := e.databaseFlags(fs)
	status := fs.Bool("status", false, "print the applied and pending migrations as one JSON object, and change nothing")
	if code, done := e.parse(fs, args); done {
		return code
	}
	log := e.logger()
	start := time.Now()
	var d *db.DB
	var err error
	if *status {
		// Reading the status creates nothing, not even an empty file.
		d, err = e.openExisting(log, fs, dbf)
	} else {
		var opts db.Options
		if opts, err = dbf.options(fs, db.Options{SQLite: sqliteCreate(*dbf.url)}); err != nil {
			log.Error("open database", "error", err.Error())
			return exitFailure
		}
		d, err = e.openDatabase(log, *dbf.url, opts)
	}
	if err != nil {
		return exitFailure
	}
	defer d.Close()
	if *status {
		st, err := d.MigrationStatus(ctx)
		if err != nil {
			log.Error("migration status", "database", databaseLocation(*dbf.url), "error", err.Error())
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
		log.Error("migrate", "database", databaseLocation(*dbf.url), "error", err.Error())
		return exitFailure
	}
	log.Info("migrated", append(migratedAttrs(*dbf.url, d.Dialect, res),
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
	attrs := []any{"database", databaseLocation(databaseURL), "dialect", dialect, "version", res.Version, "applied", applied,
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
