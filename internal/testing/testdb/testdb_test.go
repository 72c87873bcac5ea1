package testdb

import (
	"context"
	"database/sql"
	"os"
	"sync"
	"testing"
	"time"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

func open(t *testing.T, url string) *sql.DB {
	t.Helper()
	db, err := sql.Open("postgres", url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestNewDatabase(t *testing.T) {
	url1 := NewDatabase(t)
	url2 := NewDatabase(t)
	if url1 == url2 {
		t.Fatalf("NewDatabase returned the same URL twice: %s", url1)
	}
	db1, db2 := open(t, url1), open(t, url2)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	var name1, name2 string
	if err := db1.QueryRowContext(ctx, "SELECT current_database()").Scan(&name1); err != nil {
		t.Fatal(err)
	}
	if err := db2.QueryRowContext(ctx, "SELECT current_database()").Scan(&name2); err != nil {
		t.Fatal(err)
	}
	if name1 == name2 {
		t.Fatalf("both URLs lead to database %s", name1)
	}

	for i, db := range []*sql.DB{db1, db2} {
		if _, err := db.ExecContext(ctx, "CREATE TABLE items (id int PRIMARY KEY, title text NOT NULL)"); err != nil {
			t.Fatalf("db%d: create table: %v", i+1, err)
		}
	}
	if _, err := db1.ExecContext(ctx, "INSERT INTO items VALUES (1, 'one'), (2, 'zwei ✓')"); err != nil {
		t.Fatal(err)
	}
	if _, err := db2.ExecContext(ctx, "INSERT INTO items VALUES (3, 'three')"); err != nil {
		t.Fatal(err)
	}

	var title string
	if err := db1.QueryRowContext(ctx, "SELECT title FROM items WHERE id = 2").Scan(&title); err != nil {
		t.Fatal(err)
	}
	if title != "zwei ✓" {
		t.Errorf("db1: title = %q, want %q", title, "zwei ✓")
	}
	var n1, n2 int
	if err := db1.QueryRowContext(ctx, "SELECT count(*) FROM items").Scan(&n1); err != nil {
		t.Fatal(err)
	}
	if err := db2.QueryRowContext(ctx, "SELECT count(*) FROM items").Scan(&n2); err != nil {
		t.Fatal(err)
	}
	if n1 != 2 || n2 != 1 {
		t.Errorf("row counts = %d, %d; want 2, 1 (databases not independent?)", n1, n2)
	}
}

// The database is dropped when the test that created it ends, even while a
// connection to it is still open.
func TestNewDatabaseDropped(t *testing.T) {
	if !Available() {
		t.Skip("PostgreSQL not available")
	}
	var name string
	t.Run("create", func(t *testing.T) {
		// Registered before NewDatabase, so it runs after the drop: the
		// drop has to cope with an open connection.
		var db *sql.DB
		t.Cleanup(func() {
			if db != nil {
				db.Close()
			}
		})
		var err error
		if db, err = sql.Open("postgres", NewDatabase(t)); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow("SELECT current_database()").Scan(&name); err != nil {
			t.Fatal(err)
		}
	})
	if name == "" {
		t.Fatal("no database name")
	}
	var exists bool
	if err := admin.QueryRow("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		t.Fatal(err)
	}
	if exists {
		t.Errorf("database %s still exists after its test ended", name)
	}
}

func TestNewDatabaseParallel(t *testing.T) {
	if !Available() {
		t.Skip("PostgreSQL not available")
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	for range 8 {
		t.Run("db", func(t *testing.T) {
			t.Parallel()
			db := open(t, NewDatabase(t))
			var name string
			if err := db.QueryRow("SELECT current_database()").Scan(&name); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if seen[name] {
				t.Errorf("database %s handed out twice", name)
			}
			seen[name] = true
		})
	}
}

func TestVersionLess(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"9.6", "15", true},
		{"15", "9.6", false},
		{"14", "15", true},
		{"16", "16", false},
		{"10", "9.6", false},
	} {
		if got := versionLess(c.a, c.b); got != c.want {
			t.Errorf("versionLess(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
