// Package db opens Quire's database (embedded SQLite or PostgreSQL), counts
// every SQL statement sent to it, and migrates the schema.
package db

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	_ "github.com/lib/pq"  // PostgreSQL driver.
	_ "modernc.org/sqlite" // Pure Go SQLite driver.

	"quire/ent"
)

// DB is an open database with its ent client.
type DB struct {
	Client  *ent.Client
	SQL     *sql.DB
	Dialect string
	counter *countingDriver
	// url is the URL the database was opened with.
	url string
}

// URL returns the URL the database was opened with (a secret: it may hold
// a password). Connections of their own, such as PostgreSQL's
// LISTEN/NOTIFY listener, dial it.
func (d *DB) URL() string { return d.url }

// Statements returns how many SQL statements have been sent so far.
func (d *DB) Statements() int64 { return d.counter.n.Load() }

// RoundTrips returns how many times so far a statement was sent while no
// other one was waiting for its answer: over a stretch where only one
// request is served, the round trips of waiting that request made, its
// statements sent at the same time counted once. A statement of a
// concurrent batch that goroutine scheduling sends only after the others
// came back counts as one more, so a figure may exceed the request's
// own; never the other way round.
func (d *DB) RoundTrips() int64 { return d.counter.trips.Load() }

// Instance names this handle in the payload of the announcements of its
// access changes (see AccessChanged): a listener of the same process may
// pass over them, since the handle told its subscribers when they
// committed.
func (d *DB) Instance() string { return d.counter.instance }

func newInstance() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Close closes the database.
func (d *DB) Close() error { return d.Client.Close() }

// Options tune Open.
type Options struct {
	// OnStatement is called once for every SQL statement sent.
	OnStatement func()
	// StatementTimeout, when positive, is PostgreSQL's statement_timeout
	// for every session of the pool (unless the url sets one): a backstop
	// that ends a statement running past it even if its cancellation is
	// lost. Migrations run without it.
	StatementTimeout time.Duration
	// Prelude, when set, is asked before every statement with its context
	// and text; a statement it returns is sent first, on the same
	// connection or transaction and with the same context, and its failure
	// fails the statement. Tests use it to make a request slow at a chosen
	// point (SELECT pg_sleep(…), or a long recursive query on SQLite).
	Prelude func(ctx context.Context, query string) string
	// OnRetry, when set, is told of each run of WithTx over this database
	// that failed and is tried again (tests use it to act between runs).
	OnRetry func(attempt int, err error)
	// MaxConns bounds PostgreSQL's pool: open connections, all of which
	// may stay idle (DefaultMaxConns when zero). SQLite keeps its own
	// small pool, which suits its single writer.
	MaxConns int
	// SQLite says what Open may create when a SQLite file is missing.
	SQLite SQLiteCreate
}

// DefaultMaxConns is PostgreSQL's pool size when Options.MaxConns is zero.
const DefaultMaxConns = 32

// MaxConnsLimit is the largest Options.MaxConns that Open takes.
const MaxConnsLimit = 1000

// SQLiteCreate is what Open may create for a SQLite database.
type SQLiteCreate int

const (
	// CreateFileAndDir creates the file and any missing directories.
	CreateFileAndDir SQLiteCreate = iota
	// CreateFile creates the file, in a directory that must exist.
	CreateFile
	// MustExist creates nothing: the file must exist.
	MustExist
)

// MissingError is Open's error for a SQLite file, or its directory, that
// does not exist when it may not be created.
type MissingError struct {
	// Path is the absolute path of the missing file or directory.
	Path string
	// Dir tells that Path is the directory the file would go in.
	Dir bool
}

func (e *MissingError) Error() string {
	if e.Dir {
		return fmt.Sprintf("directory %s of the SQLite database does not exist", e.Path)
	}
	return fmt.Sprintf("SQLite database %s does not exist", e.Path)
}

// SQLitePath returns the file path of a "sqlite:PATH" url, made absolute,
// and false for any other url.
func SQLitePath(url string) (string, bool) {
	if !strings.HasPrefix(url, "sqlite:") {
		return "", false
	}
	path := strings.TrimPrefix(strings.TrimPrefix(url, "sqlite:"), "//")
	if path == "" {
		return "", false
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return path, true
}

// prepareSQLite checks, and as far as create allows makes, what a SQLite
// database at path needs before it is opened.
func prepareSQLite(path string, create SQLiteCreate) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	dir := filepath.Dir(abs)
	switch create {
	case MustExist:
		if _, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
			return &MissingError{Path: abs}
		} else if err != nil {
			return fmt.Errorf("database %s: %w", abs, err)
		}
	case CreateFile:
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			return &MissingError{Path: dir, Dir: true}
		} else if err != nil {
			return fmt.Errorf("database directory %s: %w", dir, err)
		}
	default:
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create database directory: %w", err)
		}
	}
	return nil
}

// Open opens url: "sqlite:PATH" or "postgres://...".
func Open(url string, opts Options) (*DB, error) {
	if opts.MaxConns < 0 || opts.MaxConns > MaxConnsLimit {
		return nil, fmt.Errorf("database pool of %d connections: must be from 1 to %d", opts.MaxConns, MaxConnsLimit)
	}
	var (
		sdb  *sql.DB
		dial string
		err  error
	)
	switch {
	case strings.HasPrefix(url, "sqlite:"):
		path := strings.TrimPrefix(url, "sqlite:")
		path = strings.TrimPrefix(path, "//")
		if path == "" {
			return nil, fmt.Errorf("database url %q has no path", url)
		}
		if err := prepareSQLite(path, opts.SQLite); err != nil {
			return nil, err
		}
		dsn := "file:" + path + "?_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=busy_timeout(15000)&_pragma=synchronous(NORMAL)&_txlock=immediate"
		if opts.SQLite == MustExist {
			// Should the file go between the check and the first
			// connection, SQLite must not make an empty one.
			dsn += "&mode=rw"
		}
		sdb, err = sql.Open("sqlite", dsn)
		dial = dialect.SQLite
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		sdb, err = sql.Open("postgres", withStatementTimeout(sessionUTC(url), opts.StatementTimeout))
		dial = dialect.Postgres
		if err == nil {
			n := opts.MaxConns
			if n == 0 {
				n = DefaultMaxConns
			}
			sdb.SetMaxOpenConns(n)
			// Every open connection may stay idle: a pool that keeps fewer
			// closes sessions under load only to open new ones.
			sdb.SetMaxIdleConns(n)
		}
	default:
		return nil, fmt.Errorf("unsupported database url %q: use sqlite:PATH or postgres://", url)
	}
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if dial == dialect.SQLite {
		// One writer at a time is what SQLite allows; a small pool keeps
		// readers concurrent under WAL. All of them may stay idle: opening
		// one applies the pragmas again (switching to WAL takes a lock),
		// which under concurrent reads costs more than the query.
		sdb.SetMaxOpenConns(8)
		sdb.SetMaxIdleConns(8)
	}
	cd := &countingDriver{Driver: entsql.OpenDB(dial, sdb), hook: opts.OnStatement, pool: sdb, prelude: opts.Prelude,
		onRetry: opts.OnRetry, instance: newInstance()}
	if dial == dialect.Postgres {
		cd.stmts = newStmtCache(sdb, 256)
	}
	client := ent.NewClient(ent.Driver(cd))
	// Every process announces its access and content changes, whether or
	// not it keeps callers or pages itself (an administration command
	// revoking a token, say).
	client.Use(announceHook)
	return &DB{Client: client, SQL: sdb, Dialect: dial, counter: cd, url: url}, nil
}

// sessionUTC asks PostgreSQL for UTC sessions (unless the url sets a time
// zone), so that timestamps are read back in UTC whatever the server's
// TimeZone: GraphQL writes DateTime values as read, and documents them as UTC.
func sessionUTC(url string) string {
	if strings.Contains(strings.ToLower(url), "timezone=") {
		return url
	}
	if strings.Contains(url, "?") {
		return url + "&timezone=UTC"
	}
	return url + "?timezone=UTC"
}

// withStatementTimeout sets statement_timeout (in milliseconds) as a
// session parameter of every connection, which lib/pq sends to the server
// when it connects, unless d is zero or the url sets one.
func withStatementTimeout(url string, d time.Duration) string {
	if d <= 0 || strings.Contains(strings.ToLower(url), "statement_timeout=") {
		return url
	}
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return url + sep + "statement_timeout=" + strconv.FormatInt(max(d.Milliseconds(), 1), 10)
}

// Ping checks that the database answers.
func (d *DB) Ping(ctx context.Context) error { return d.SQL.PingContext(ctx) }

// countingDriver counts each statement that reaches the database.
type countingDriver struct {
	dialect.Driver
	n atomic.Int64
	// inflight is how many statements wait for their answer; trips counts
	// the round trips (see count).
	inflight, trips atomic.Int64
	hook            func()
	// stmts, on PostgreSQL, runs queries outside transactions through
	// prepared statements.
	stmts *stmtCache
	// pool is the connection pool, whose figures tell an exhausted pool.
	pool    *sql.DB
	prelude func(ctx context.Context, query string) string
	// changes tell this process of the changes of each topic committed
	// through the handle.
	changes [topics]Changes
	// instance names this handle in the announcements it sends.
	instance string
	onRetry  func(attempt int, err error)
	// liveTxs maps each transaction WithTx is running over this handle to
	// its database/sql transaction (SQLTx).
	liveTxs sync.Map // *ent.Tx → *sql.Tx
}

// before runs the prelude of a statement, if any, with exec.
func (d *countingDriver) before(ctx context.Context, q string, exec func(ctx context.Context, q string, args, v any) error) error {
	if d.prelude == nil {
		return nil
	}
	pre := d.prelude(ctx, q)
	if pre == "" {
		return nil
	}
	return exec(ctx, pre, []any{}, nil)
}

// count counts a statement being sent; the function it returns is called
// once its answer came back. A statement sent while no other is waiting
// for its answer starts a round trip: statements sent at the same time
// (the reads of one plan, on as many connections) share one.
func (d *countingDriver) count() (answered func()) {
	d.n.Add(1)
	if d.inflight.Add(1) == 1 {
		d.trips.Add(1)
	}
	if d.hook != nil {
		d.hook()
	}
	return d.answered
}

func (d *countingDriver) answered() { d.inflight.Add(-1) }

func (d *countingDriver) Exec(ctx context.Context, q string, args, v any) error {
	if topic, ok := announcing(ctx); ok {
		d.announce(ctx, topic)
		return nil
	}
	defer d.count()()
	defer acquire(ctx)()
	if err := d.before(ctx, q, d.Driver.Exec); err != nil {
		return classify(ctx, d.pool, true, err)
	}
	return classify(ctx, d.pool, true, d.Driver.Exec(ctx, q, args, v))
}

func (d *countingDriver) Query(ctx context.Context, q string, args, v any) error {
	defer d.count()()
	defer acquire(ctx)()
	if err := d.before(ctx, q, d.Driver.Exec); err != nil {
		return classify(ctx, d.pool, true, err)
	}
	if d.stmts != nil {
		if ok, err := d.stmts.query(ctx, q, args, v); ok {
			return classify(ctx, d.pool, true, err)
		}
	}
	return classify(ctx, d.pool, true, d.Driver.Query(ctx, q, args, v))
}

// QueryContext runs a query written by hand (ent's Client.QueryContext),
// counted, and on PostgreSQL prepared, like ent's own.
func (d *countingDriver) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	var rows entsql.Rows
	if err := d.Query(ctx, q, args, &rows); err != nil {
		return nil, err
	}
	r, ok := rows.ColumnScanner.(*sql.Rows)
	if !ok {
		rows.Close()
		return nil, fmt.Errorf("query: rows of type %T", rows.ColumnScanner)
	}
	return r, nil
}

// ExecContext runs a statement written by hand (ent's Client.ExecContext),
// counted like ent's own.
func (d *countingDriver) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	var res sql.Result
	if err := d.Exec(ctx, q, args, &res); err != nil {
		return nil, err
	}
	return res, nil
}

func (d *countingDriver) Tx(ctx context.Context) (dialect.Tx, error) {
	noteDriver(ctx, d)
	defer acquire(ctx)()
	tx, err := d.Driver.Tx(ctx)
	if err != nil {
		return nil, classify(ctx, d.pool, true, err)
	}
	noteSQLTx(ctx, d, tx)
	return &countingTx{Tx: tx, d: d}, nil
}

// BeginTx is used by ent when transaction options are given.
func (d *countingDriver) BeginTx(ctx context.Context, opts *sql.TxOptions) (dialect.Tx, error) {
	type beginner interface {
		BeginTx(context.Context, *sql.TxOptions) (dialect.Tx, error)
	}
	b, ok := d.Driver.(beginner)
	if !ok {
		return d.Tx(ctx)
	}
	noteDriver(ctx, d)
	defer acquire(ctx)()
	tx, err := b.BeginTx(ctx, opts)
	if err != nil {
		return nil, classify(ctx, d.pool, true, err)
	}
	noteSQLTx(ctx, d, tx)
	return &countingTx{Tx: tx, d: d}, nil
}

type countingTx struct {
	dialect.Tx
	d *countingDriver
	// announced is set, by topic, once the transaction announced a change.
	announced [topics]atomic.Bool
}

// Commit commits, and tells this process's subscribers of the changes
// the transaction announced, if any.
func (t *countingTx) Commit() error {
	if err := t.Tx.Commit(); err != nil {
		// A COMMIT cut by the server going away is the outage it is.
		return classify(context.Background(), t.d.pool, false, err)
	}
	for topic := range topics {
		if t.announced[topic].Load() {
			t.d.changes[topic].changed()
		}
	}
	return nil
}

func (t *countingTx) Exec(ctx context.Context, q string, args, v any) error {
	if topic, ok := announcing(ctx); ok {
		return t.announce(ctx, topic)
	}
	defer t.d.count()()
	if err := t.d.before(ctx, q, t.Tx.Exec); err != nil {
		return classify(ctx, t.d.pool, false, err)
	}
	return classify(ctx, t.d.pool, false, t.Tx.Exec(ctx, q, args, v))
}

func (t *countingTx) Query(ctx context.Context, q string, args, v any) error {
	defer t.d.count()()
	if err := t.d.before(ctx, q, t.Tx.Exec); err != nil {
		return classify(ctx, t.d.pool, false, err)
	}
	return classify(ctx, t.d.pool, false, t.Tx.Query(ctx, q, args, v))
}

// ExecContext runs a statement written by hand in the transaction (ent's
// Tx.ExecContext: the search index, event notifications), counted.
func (t *countingTx) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	var res sql.Result
	if err := t.Exec(ctx, q, args, &res); err != nil {
		return nil, err
	}
	return res, nil
}

// QueryContext runs a query written by hand in the transaction (ent's
// Tx.QueryContext), counted.
func (t *countingTx) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	var rows entsql.Rows
	if err := t.Query(ctx, q, args, &rows); err != nil {
		return nil, err
	}
	r, ok := rows.ColumnScanner.(*sql.Rows)
	if !ok {
		rows.Close()
		return nil, fmt.Errorf("query: rows of type %T", rows.ColumnScanner)
	}
	return r, nil
}
