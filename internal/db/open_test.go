package db

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"quire/internal/testing/testdb"
)

// PostgreSQL's pool is MaxConns (DefaultMaxConns when zero), bounded.
func TestOpenMaxConns(t *testing.T) {
	url := testdb.NewDatabase(t)
	for _, c := range []struct{ set, want int }{{0, DefaultMaxConns}, {3, 3}, {MaxConnsLimit, MaxConnsLimit}} {
		d, err := Open(url, Options{MaxConns: c.set})
		if err != nil {
			t.Fatal(err)
		}
		if got := d.SQL.Stats().MaxOpenConnections; got != c.want {
			t.Errorf("MaxConns %d: pool of %d, want %d", c.set, got, c.want)
		}
		d.Close()
	}
	for _, n := range []int{-1, MaxConnsLimit + 1} {
		if _, err := Open(url, Options{MaxConns: n}); err == nil {
			t.Errorf("MaxConns %d opened", n)
		}
	}
	// SQLite keeps its own pool whatever MaxConns says.
	d, err := Open("sqlite:"+filepath.Join(t.TempDir(), "q.db"), Options{MaxConns: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got := d.SQL.Stats().MaxOpenConnections; got != 8 {
		t.Errorf("SQLite pool of %d", got)
	}
}

// Open creates of a SQLite database only what Options.SQLite allows.
func TestOpenSQLiteCreate(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.db")
	_, err := Open("sqlite:"+missing, Options{SQLite: MustExist})
	var me *MissingError
	if !errors.As(err, &me) || me.Path != missing || me.Dir {
		t.Errorf("MustExist on a missing file: %v", err)
	}
	nested := filepath.Join(dir, "a", "b", "q.db")
	_, err = Open("sqlite:"+nested, Options{SQLite: CreateFile})
	if !errors.As(err, &me) || me.Path != filepath.Dir(nested) || !me.Dir {
		t.Errorf("CreateFile in a missing directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a")); !os.IsNotExist(err) {
		t.Errorf("a directory was created: %v", err)
	}
	for _, c := range []struct {
		path   string
		create SQLiteCreate
	}{{filepath.Join(dir, "file.db"), CreateFile}, {nested, CreateFileAndDir}} {
		d, err := Open("sqlite:"+c.path, Options{SQLite: c.create})
		if err != nil {
			t.Fatal(err)
		}
		if err := d.SQL.Ping(); err != nil {
			t.Fatal(err)
		}
		d.Close()
		if _, err := os.Stat(c.path); err != nil {
			t.Errorf("%s not created: %v", c.path, err)
		}
	}
	d, err := Open("sqlite:"+nested, Options{SQLite: MustExist})
	if err != nil {
		t.Fatalf("MustExist on an existing file: %v", err)
	}
	d.Close()
}
