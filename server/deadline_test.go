package server_test

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"modernc.org/sqlite"

	"quire/internal/db"
	"quire/internal/requestid"
	"quire/internal/testing/testdb"
	"quire/internal/testing/testenv"
	"quire/server"
)

func TestMain(m *testing.M) {
	// The slow statement on SQLite tells, through this function called for
	// each of its rows, that it runs.
	sqlite.MustRegisterScalarFunction("quire_test_running", 0, func(*sqlite.FunctionContext, []driver.Value) (driver.Value, error) {
		select {
		case sqliteRunning <- struct{}{}:
		default:
		}
		return int64(1), nil
	})
	os.Exit(testdb.Main(m))
}

var sqliteRunning = make(chan struct{}, 1)

// slowStatement runs until its context ends: far longer than any test.
func slowStatement(dialect string) string {
	if dialect == "postgres" {
		return "SELECT pg_sleep(600)"
	}
	return "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50000000000) SELECT count(*) FROM c WHERE quire_test_running()"
}

// slowdown makes chosen requests slow: the first statement of a request
// whose id is armed (and whose text contains the armed fragment) is
// preceded by slowStatement. It records each slowed request's context,
// and the end of each request through the server.
type slowdown struct {
	dialect string
	mu      sync.Mutex
	armed   map[string]string // request id → fragment of the statement to slow
	slowed  map[string]chan context.Context
	done    map[string]chan struct{}
}

func newSlowdown(dialect string) *slowdown {
	return &slowdown{dialect: dialect, armed: map[string]string{}, slowed: map[string]chan context.Context{}, done: map[string]chan struct{}{}}
}

// arm slows the request with id at the first statement containing
// fragment; it returns the channels that receive the request's context
// when its statement is slowed, and close when the server is done with it.
func (s *slowdown) arm(id, fragment string) (<-chan context.Context, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.armed[id] = fragment
	s.slowed[id] = make(chan context.Context, 1)
	s.done[id] = make(chan struct{})
	return s.slowed[id], s.done[id]
}

var unquote = strings.NewReplacer("`", "", `"`, "")

func (s *slowdown) prelude(ctx context.Context, query string) string {
	id := requestid.From(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	frag, ok := s.armed[id]
	// Identifiers are quoted "so" on PostgreSQL and `so` on SQLite.
	if !ok || !strings.Contains(unquote.Replace(query), frag) {
		return ""
	}
	delete(s.armed, id)
	s.slowed[id] <- ctx
	return slowStatement(s.dialect)
}

// serve wraps the server so that the end of each armed request is seen.
func (s *slowdown) serve(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		s.mu.Lock()
		done := s.done[r.Header.Get("X-Request-Id")]
		s.mu.Unlock()
		if done != nil {
			close(done)
		}
	})
}

// shortDeadline is the request deadline of the tests that pass it: long
// enough for a whole write on a loaded 2-core machine (the requests that
// must succeed), short enough to wait for the ones that must not.
const shortDeadline = time.Second

func newSlowEnv(t *testing.T, backend string, timeout time.Duration) (*testenv.Env, *slowdown) {
	s := newSlowdown(backend)
	e := testenv.NewWith(t, backend, testenv.Options{Prelude: s.prelude, RequestTimeout: timeout})
	e.HTTP.Config.Handler = s.serve(e.Server)
	return e, s
}

// send sends a request with a request id and an optional body.
func send(ctx context.Context, e *testenv.Env, id, token, method, path, body string) (int, []byte, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, e.URL+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("X-Request-Id", id)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := e.HTTP.Client().Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// wait waits for ch, failing the test if the server does not get there.
func wait[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	guard := time.NewTimer(30 * time.Second)
	defer guard.Stop()
	select {
	case v := <-ch:
		return v
	case <-guard.C:
		t.Fatalf("%s: never happened", what)
		panic("unreachable")
	}
}

// restError decodes the documented REST error.
func restError(t *testing.T, body []byte) (int, string) {
	t.Helper()
	var v struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("not the documented error: %s", body)
	}
	return v.Error.Code, v.Error.Message
}

// graphQLCode decodes the first error's extensions.code.
func graphQLCode(t *testing.T, body []byte) string {
	t.Helper()
	var v struct {
		Errors []struct {
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(body, &v); err != nil || len(v.Errors) == 0 {
		t.Fatalf("not a GraphQL error: %s", body)
	}
	c, _ := v.Errors[0].Extensions["code"].(string)
	return c
}

// checkNoSleeper fails when PostgreSQL still runs a slowed statement.
func checkNoSleeper(t *testing.T, e *testenv.Env) {
	t.Helper()
	if e.Dialect != "postgres" {
		return
	}
	var n int
	err := e.DB.SQL.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'SELECT pg_sleep%' AND pid <> pg_backend_pid()`).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("%d statements still running on PostgreSQL after their request ended", n)
	}
}

// waitForSleeper waits until the database runs the slowed statement.
func waitForSleeper(t *testing.T, e *testenv.Env) {
	t.Helper()
	if e.Dialect != "postgres" {
		wait(t, sqliteRunning, "the slowed statement running")
		return
	}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	guard := time.NewTimer(30 * time.Second)
	defer guard.Stop()
	for {
		var n int
		err := e.DB.SQL.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'SELECT pg_sleep%' AND pid <> pg_backend_pid()`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		select {
		case <-tick.C:
		case <-guard.C:
			t.Fatal("the slowed statement never ran")
		}
	}
}

// A request still working when its deadline passes is answered 504 in its
// door's error shape; its statement is cancelled, and a write it had
// started is rolled back.
func TestDeadlineAnswers504(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e0 *testenv.Env) {
		e, slow := newSlowEnv(t, e0.Dialect, shortDeadline)
		team := e.NewTeam()
		ctx := context.Background()

		slowed, done := slow.arm("slow-rest", "")
		st, body, err := send(ctx, e, "slow-rest", team.Admin.Token, "GET", "/v1/orgs", "")
		if err != nil {
			t.Fatal(err)
		}
		if code, msg := restError(t, body); st != http.StatusGatewayTimeout || code != 504 || !strings.Contains(msg, "deadline") {
			t.Fatalf("REST past the deadline: %d %s", st, body)
		}
		reqCtx := wait(t, slowed, "slowed statement")
		wait(t, done, "end of the request")
		if !errors.Is(reqCtx.Err(), context.DeadlineExceeded) {
			t.Fatalf("request context: %v, want its deadline exceeded", reqCtx.Err())
		}
		checkNoSleeper(t, e)

		_, done = slow.arm("slow-graphql", "")
		st, body, err = send(ctx, e, "slow-graphql", team.Admin.Token, "POST", "/graphql", `{"query":"{ viewer { id } }"}`)
		if err != nil {
			t.Fatal(err)
		}
		if st != http.StatusGatewayTimeout || graphQLCode(t, body) != "TIMEOUT" {
			t.Fatalf("GraphQL past the deadline: %d %s", st, body)
		}
		wait(t, done, "end of the request")
		checkNoSleeper(t, e)

		// A space is created in one transaction: the space row, then its
		// first revision; the revision's insert outlasts the deadline.
		_, done = slow.arm("slow-write", "INSERT INTO revisions")
		st, body, err = send(ctx, e, "slow-write", team.Admin.Token, "POST", "/v1/orgs/"+team.Org.ID+"/spaces", `{"title":"Half written"}`)
		if err != nil {
			t.Fatal(err)
		}
		if code, _ := restError(t, body); st != http.StatusGatewayTimeout || code != 504 {
			t.Fatalf("write past the deadline: %d %s", st, body)
		}
		wait(t, done, "end of the request")
		checkNoSleeper(t, e)
		if n := e.Client().Space.Query().CountX(ctx); n != 0 {
			t.Fatalf("%d spaces after a creation cut short, want none", n)
		}
		// The server goes on serving.
		if st, body, _ := send(ctx, e, "after", team.Admin.Token, "POST", "/v1/orgs/"+team.Org.ID+"/spaces", `{"title":"Whole"}`); st != http.StatusCreated {
			t.Fatalf("create after the deadline: %d %s", st, body)
		}
	})
}

// A client that goes away cancels its request's context, and with it the
// statement the request is waiting for.
func TestClientDisconnectCancelsTheRequest(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e0 *testenv.Env) {
		e, slow := newSlowEnv(t, e0.Dialect, time.Hour)
		team := e.NewTeam()
		select {
		case <-sqliteRunning: // left by an earlier test
		default:
		}
		slowed, done := slow.arm("gone", "")
		clientCtx, hangUp := context.WithCancel(context.Background())
		sent := make(chan error, 1)
		go func() {
			_, _, err := send(clientCtx, e, "gone", team.Admin.Token, "GET", "/v1/orgs", "")
			sent <- err
		}()
		reqCtx := wait(t, slowed, "slowed statement")
		// A cancellation that reaches the database before the statement
		// it cancels has started is lost (on PostgreSQL statement_timeout
		// is the backstop for that): hang up once the statement runs.
		waitForSleeper(t, e)
		hangUp()
		wait(t, reqCtx.Done(), "cancellation of the request's context")
		if !errors.Is(reqCtx.Err(), context.Canceled) {
			t.Fatalf("request context: %v, want cancelled", reqCtx.Err())
		}
		wait(t, done, "end of the request")
		checkNoSleeper(t, e)
		if err := <-sent; !errors.Is(err, context.Canceled) {
			t.Fatalf("client: %v", err)
		}
	})
}

// A request that waits past its deadline for a database connection, none
// being free, is answered 503.
func TestExhaustedPoolAnswers503(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e0 *testenv.Env) {
		e, _ := newSlowEnv(t, e0.Dialect, shortDeadline)
		team := e.NewTeam()
		ctx := context.Background()
		e.DB.SQL.SetMaxOpenConns(1)
		held, err := e.DB.SQL.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		st, body, err := send(ctx, e, "starved-rest", team.Admin.Token, "GET", "/v1/orgs", "")
		if err != nil {
			t.Fatal(err)
		}
		if code, _ := restError(t, body); st != http.StatusServiceUnavailable || code != 503 {
			t.Fatalf("REST with no free connection: %d %s", st, body)
		}
		st, body, err = send(ctx, e, "starved-graphql", team.Admin.Token, "POST", "/graphql", `{"query":"{ viewer { id } }"}`)
		if err != nil {
			t.Fatal(err)
		}
		if st != http.StatusServiceUnavailable || graphQLCode(t, body) != "UNAVAILABLE" {
			t.Fatalf("GraphQL with no free connection: %d %s", st, body)
		}
		held.Close()
		if st, body, _ := send(ctx, e, "fed", team.Admin.Token, "GET", "/v1/orgs", ""); st != http.StatusOK {
			t.Fatalf("with the connection back: %d %s", st, body)
		}
	})
}

// A database that cannot be reached gets 503 in each door's shape.
func TestUnreachableDatabaseAnswers503(t *testing.T) {
	check := func(t *testing.T, e *testenv.Env, token string) {
		t.Helper()
		ctx := context.Background()
		st, body, err := send(ctx, e, "down-rest", token, "GET", "/v1/orgs", "")
		if err != nil {
			t.Fatal(err)
		}
		if code, _ := restError(t, body); st != http.StatusServiceUnavailable || code != 503 {
			t.Fatalf("REST: %d %s", st, body)
		}
		st, body, err = send(ctx, e, "down-graphql", token, "POST", "/graphql", `{"query":"{ viewer { id } }"}`)
		if err != nil {
			t.Fatal(err)
		}
		if st != http.StatusServiceUnavailable || graphQLCode(t, body) != "UNAVAILABLE" {
			t.Fatalf("GraphQL: %d %s", st, body)
		}
	}
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		e.DB.SQL.Close()
		check(t, e, team.Admin.Token)
		if e.Dialect != "postgres" {
			return
		}
		// A server with nothing listening at its address.
		d, err := db.Open("postgres://quire@127.0.0.1:1/quire?sslmode=disable&connect_timeout=5", db.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		e.HTTP.Config.Handler = server.New(server.Config{DB: d, PublicURL: e.URL})
		check(t, e, team.Admin.Token)
	})
}
