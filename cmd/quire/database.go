package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"quire/internal/db"
)

// envDBMaxConns bounds PostgreSQL's connection pool.
const envDBMaxConns = "QUIRE_DB_MAX_CONNS"

// dbFlags are the database flags of a command that opens the database.
type dbFlags struct {
	url      *string
	maxConns connsValue
	// envErr is a QUIRE_DB_MAX_CONNS that does not parse, reported unless
	// --db-max-conns is given.
	envErr error
}

// connsValue is --db-max-conns: a pool size from 1 to db.MaxConnsLimit,
// checked as the flag is parsed so that a bad one is a usage error.
type connsValue int

func (v *connsValue) String() string { return strconv.Itoa(int(*v)) }

func (v *connsValue) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 || n > db.MaxConnsLimit {
		return fmt.Errorf("must be a whole number from 1 to %d", db.MaxConnsLimit)
	}
	*v = connsValue(n)
	return nil
}

// databaseFlags declares --database-url and --db-max-conns with their
// environment fallbacks.
func (e *env) databaseFlags(fs *flag.FlagSet) *dbFlags {
	f := &dbFlags{url: e.databaseURLFlag(fs), maxConns: db.DefaultMaxConns}
	if v := e.envOr(envDBMaxConns, ""); v != "" {
		if err := f.maxConns.Set(v); err != nil {
			f.envErr = fmt.Errorf("%s=%q: %v", envDBMaxConns, v, err)
		}
	}
	fs.Var(&f.maxConns, "db-max-conns",
		fmt.Sprintf("`N`: PostgreSQL connections this process opens at most, 1 to %d; SQLite keeps its own small pool (env %s)", db.MaxConnsLimit, envDBMaxConns))
	return f
}

// options returns the options to open with, once the flags are parsed.
func (f *dbFlags) options(fs *flag.FlagSet, opts db.Options) (db.Options, error) {
	given := false
	fs.Visit(func(fl *flag.Flag) { given = given || fl.Name == "db-max-conns" })
	if f.envErr != nil && !given {
		return opts, f.envErr
	}
	opts.MaxConns = int(f.maxConns)
	return opts, nil
}

// databaseLocation is how logs name the database: the absolute path of a
// SQLite file, or the URL without its password.
func databaseLocation(databaseURL string) string {
	if p, ok := db.SQLitePath(databaseURL); ok {
		return p
	}
	return redactURL(databaseURL)
}

// openDatabase opens the database with opts and announces it in the log.
// A missing SQLite file or directory is reported with what to do about it.
func (e *env) openDatabase(log *slog.Logger, databaseURL string, opts db.Options) (*db.DB, error) {
	d, err := db.Open(databaseURL, opts)
	var missing *db.MissingError
	switch {
	case errors.As(err, &missing) && missing.Dir:
		log.Error("open database: "+err.Error()+"; create it, or pass another --database-url",
			"database", databaseLocation(databaseURL), "error", err.Error())
		return nil, err
	case errors.As(err, &missing):
		log.Error("open database: "+err.Error()+`; run "quire serve" or "quire migrate" first to create it, or pass --database-url`,
			"database", missing.Path, "error", err.Error())
		return nil, err
	case err != nil:
		log.Error("open database", "database", databaseLocation(databaseURL), "error", err.Error())
		return nil, err
	}
	log.Info("database", "database", databaseLocation(databaseURL), "dialect", d.Dialect)
	return d, nil
}

// openExisting opens a database that must already exist, as the admin
// commands and "migrate --status" need: they never create one.
func (e *env) openExisting(log *slog.Logger, fs *flag.FlagSet, f *dbFlags) (*db.DB, error) {
	opts, err := f.options(fs, db.Options{SQLite: db.MustExist})
	if err != nil {
		log.Error("open database", "error", err.Error())
		return nil, err
	}
	return e.openDatabase(log, *f.url, opts)
}

// sqliteCreate is what serve and migrate may create: the file, and only
// for the default database its directory (data/ of a fresh checkout).
func sqliteCreate(databaseURL string) db.SQLiteCreate {
	if databaseURL == defaultDatabaseURL {
		return db.CreateFileAndDir
	}
	return db.CreateFile
}
