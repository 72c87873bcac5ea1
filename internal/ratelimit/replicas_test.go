package ratelimit_test

import (
	"bytes"
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"quire/internal/ratelimit"
	"quire/internal/testing/testenv"
)

// Two servers over one database (two processes, as far as the rate limits
// can tell: they share nothing but the database) spend one budget.
func TestReplicasShareOneBudget(t *testing.T) {
	withLimits(t, ratelimit.Config{Limit: 4}, func(t *testing.T, e *testenv.Env, team *testenv.Team, clk *clock) {
		other := e.Replica(testenv.Options{RateLimits: ratelimit.Config{Limit: 4, Now: clk.Now}})
		tok := team.Admin.Token
		for i, s := range []*testenv.Env{e, other, e, other} {
			r := s.Do(tok, "GET", "/v1/user", nil)
			if got := rateOf(t, r.Header); r.Status != 200 || got.remaining != 3-i {
				t.Fatalf("request %d: %d %+v", i, r.Status, got)
			}
		}
		for _, s := range []*testenv.Env{e, other} {
			if r := s.Do(tok, "GET", "/v1/user", nil); r.Status != 429 {
				t.Fatalf("REST once the budget is spent: %d", r.Status)
			}
			if g := s.GraphQL(tok, `{ viewer { id } }`, nil); g.Status != 429 || g.Code() != "RATE_LIMITED" {
				t.Fatalf("GraphQL once the budget is spent: %d %s", g.Status, g.Raw)
			}
		}
	})
}

// Requests at once through both servers never spend more than the budget.
func TestReplicasAtOnceStayWithinTheBudget(t *testing.T) {
	const limit, requests = 20, 50
	withLimits(t, ratelimit.Config{Limit: limit}, func(t *testing.T, e *testenv.Env, team *testenv.Team, clk *clock) {
		other := e.Replica(testenv.Options{RateLimits: ratelimit.Config{Limit: limit, Now: clk.Now}})
		var ok, refused atomic.Int32
		var wg sync.WaitGroup
		for i := range requests {
			s := []*testenv.Env{e, other}[i%2]
			body := []byte(`{"query":"{ viewer { id } }"}`)
			path := "/graphql"
			if i%3 == 0 {
				body, path = nil, "/v1/user"
			}
			wg.Go(func() {
				method := "GET"
				if body != nil {
					method = "POST"
				}
				req, _ := http.NewRequest(method, s.URL+path, bytes.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+team.Admin.Token)
				req.Header.Set("Content-Type", "application/json")
				resp, err := s.HTTP.Client().Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				switch resp.StatusCode {
				case 200:
					ok.Add(1)
				case 429:
					refused.Add(1)
				default:
					t.Errorf("%s %s: %d", method, path, resp.StatusCode)
				}
			})
		}
		wg.Wait()
		if ok.Load() != limit || refused.Load() != requests-limit {
			t.Fatalf("%d allowed and %d refused, want %d and %d", ok.Load(), refused.Load(), limit, requests-limit)
		}
	})
}

// Counting costs one statement per request, content creation included.
func TestOneStatementPerRequest(t *testing.T) {
	withLimits(t, ratelimit.Config{Limit: 1000, ContentLimit: 100}, func(t *testing.T, e *testenv.Env, team *testenv.Team, _ *clock) {
		off := e.Replica(testenv.Options{}) // the same server without limits
		tok := team.Admin.Token
		sp := newSpace(t, e, team)
		// Both servers have the token's caller at hand (on PostgreSQL they
		// keep it for a few seconds), so that only the charge differs.
		for _, s := range []*testenv.Env{e, off} {
			s.Do(tok, "GET", "/v1/user", nil)
		}
		for _, tc := range []struct {
			name string
			do   func(s *testenv.Env) int
		}{
			{"REST read", func(s *testenv.Env) int { return s.Do(tok, "GET", "/v1/orgs/"+team.Org.ID, nil).Status }},
			{"GraphQL read", func(s *testenv.Env) int {
				return s.GraphQL(tok, `{ viewer { organizations(first: 70) { nodes { collections(first: 70) { nodes { spaces(first: 1) { totalCount } } } } } } }`, nil).Status
			}},
			{"REST change request", func(s *testenv.Env) int {
				return s.Do(tok, "POST", "/v1/spaces/"+sp+"/change-requests", map[string]any{"subject": "s"}).Status
			}},
			{"GraphQL change request", func(s *testenv.Env) int {
				return s.GraphQL(tok, `mutation($s: ID!) { createChangeRequest(input: {space: $s}) { id } }`, map[string]any{"s": sp}).Status
			}},
		} {
			count := func(s *testenv.Env) int64 {
				before := e.Statements()
				if status := tc.do(s); status != 200 && status != 201 {
					t.Fatalf("%s: %d", tc.name, status)
				}
				return e.Statements() - before
			}
			if with, without := count(e), count(off); with != without+1 {
				t.Errorf("%s: %d statements with rate limits, %d without; want one more", tc.name, with, without)
			}
		}
		if r := off.Do(tok, "GET", "/v1/user", nil); r.Header.Get("X-RateLimit-Limit") != "" {
			t.Errorf("a server without rate limits sent X-RateLimit-Limit")
		}
	})
}

// The counters' table is unlogged on PostgreSQL, so that counting does not
// wait for a WAL flush (a step written into its migration by hand).
func TestCountersUnloggedOnPostgres(t *testing.T) {
	e := testenv.New(t, "postgres")
	var persistence string
	row := e.DB.SQL.QueryRowContext(context.Background(), "SELECT relpersistence FROM pg_class WHERE relname = 'rate_limit_counters'")
	if err := row.Scan(&persistence); err != nil {
		t.Fatal(err)
	}
	if persistence != "u" {
		t.Fatalf("relpersistence = %q, want u (unlogged)", persistence)
	}
}
