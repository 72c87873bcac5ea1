package ratelimit_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"quire/ent/changerequest"
	"quire/ent/space"
	"quire/internal/ratelimit"
	"quire/internal/testing/testenv"
)

// The rate limits through Quire's two doors, on a server started with them
// (the other suites run without).

// withLimits runs fn on SQLite and on PostgreSQL with a server started with
// limits over a fresh database; its clock stands at 10:15 (UTC), so the
// hour's window ends at 11:00, in 2,700 s.
func withLimits(t *testing.T, cfg ratelimit.Config, fn func(t *testing.T, e *testenv.Env, team *testenv.Team, clk *clock)) {
	t.Helper()
	for _, b := range testenv.Backends {
		t.Run(b, func(t *testing.T) {
			clk := newClock()
			cfg := cfg
			cfg.Now = clk.Now
			e := testenv.NewWith(t, b, testenv.Options{RateLimits: cfg})
			fn(t, e, e.NewTeam(), clk)
		})
	}
}

// windowEnd is the end of the test clock's first hour window.
var windowEnd = time.Date(2026, 3, 1, 11, 0, 0, 0, time.UTC)

// rate reads the rate-limit headers of an answer.
type rate struct {
	limit, remaining, used int
	reset                  int64
	resource, retryAfter   string
}

func rateOf(t *testing.T, h map[string][]string) rate {
	t.Helper()
	get := func(k string) string {
		if v := h[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	num := func(k string) int64 {
		n, err := strconv.ParseInt(get(k), 10, 64)
		if err != nil {
			t.Fatalf("header %s = %q: %v", k, get(k), err)
		}
		return n
	}
	return rate{
		limit: int(num("X-Ratelimit-Limit")), remaining: int(num("X-Ratelimit-Remaining")), used: int(num("X-Ratelimit-Used")),
		reset: num("X-Ratelimit-Reset"), resource: get("X-Ratelimit-Resource"), retryAfter: get("Retry-After"),
	}
}

// gql posts a GraphQL document and returns the status, headers and body.
func gql(e *testenv.Env, token, query string, vars map[string]any) *testenv.Response {
	e.T.Helper()
	return e.Do(token, "POST", "/graphql", map[string]any{"query": query, "variables": vars})
}

func newSpace(t *testing.T, e *testenv.Env, team *testenv.Team) string {
	t.Helper()
	r := e.Do(team.Admin.Token, "POST", "/v1/orgs/"+team.Org.ID+"/spaces", map[string]any{"title": "Docs"})
	if r.Status != 201 {
		t.Fatalf("create space: %d %s", r.Status, r.Body)
	}
	return r.JSON()["id"].(string)
}

func TestHeadersOnBothDoorsShareOneBudget(t *testing.T) {
	withLimits(t, ratelimit.Config{Limit: 1000}, func(t *testing.T, e *testenv.Env, team *testenv.Team, _ *clock) {
		tok := team.Admin.Token
		want := 1000
		check := func(what string, r *testenv.Response, cost int) {
			t.Helper()
			if r.Status != 200 {
				t.Fatalf("%s: %d %s", what, r.Status, r.Body)
			}
			want -= cost
			got := rateOf(t, r.Header)
			if got.limit != 1000 || got.remaining != want || got.used != 1000-want || got.reset != windowEnd.Unix() || got.resource != "core" || got.retryAfter != "" {
				t.Fatalf("%s: headers %+v, want %d remaining until %d", what, got, want, windowEnd.Unix())
			}
		}
		check("REST", e.Do(tok, "GET", "/v1/user", nil), 1)
		check("GraphQL", gql(e, tok, `{ viewer { id } }`, nil), 1)
		check("REST again", e.Do(tok, "GET", "/v1/orgs", nil), 1)
		// 1 + 70 + 70×70 connection requests: 49.71, 50 points (and
		// 9,870 nodes, within the node budget).
		check("GraphQL with nested connections", gql(e, tok, `query($n: Int) { viewer { organizations(first: $n) { nodes { collections(first: 70) { nodes { spaces(first: 1) { nodes { id } } } } } } } }`,
			map[string]any{"n": 70}), 50)
		check("REST after it", e.Do(tok, "GET", "/v1/user", nil), 1)
		// Another user has a budget of their own.
		if got := rateOf(t, e.Do(team.Reader.Token, "GET", "/v1/user", nil).Header); got.remaining != 999 {
			t.Fatalf("another user: %+v", got)
		}
	})
}

func TestRefusalShapes(t *testing.T) {
	withLimits(t, ratelimit.Config{Limit: 2}, func(t *testing.T, e *testenv.Env, team *testenv.Team, _ *clock) {
		tok := team.Admin.Token
		e.Do(tok, "GET", "/v1/user", nil)
		e.Do(tok, "GET", "/v1/user", nil)

		r := e.Do(tok, "GET", "/v1/orgs/"+team.Org.ID, nil) // checked against the OpenAPI document
		if r.Status != 429 {
			t.Fatalf("REST over the limit: %d %s", r.Status, r.Body)
		}
		var body struct {
			Error struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		r.Decode(t, &body)
		if body.Error.Code != 429 || !strings.Contains(body.Error.Message, "rate limit") || !strings.Contains(body.Error.Message, "2026-03-01T11:00:00Z") {
			t.Fatalf("REST body %s", r.Body)
		}
		got := rateOf(t, r.Header)
		if got.retryAfter != "2700" || got.remaining != 0 || got.used != 2 || got.limit != 2 || got.reset != windowEnd.Unix() {
			t.Fatalf("REST headers %+v", got)
		}

		g := e.GraphQL(tok, `{ viewer { id } }`, nil)
		if g.Status != 429 || g.Code() != "RATE_LIMITED" || g.Data != nil || len(g.Errors) != 1 || !strings.Contains(g.Errors[0].Message, "rate limit") {
			t.Fatalf("GraphQL over the limit: %d %s", g.Status, g.Raw)
		}
		r = gql(e, tok, `{ viewer { id } }`, nil)
		if got := rateOf(t, r.Header); r.Status != 429 || got.retryAfter != "2700" || got.remaining != 0 {
			t.Fatalf("GraphQL headers %d %+v", r.Status, got)
		}
		// Unauthenticated requests are refused before any budget is read.
		if r := e.DoUnchecked("", "GET", "/v1/user", nil); r.Status != 401 || r.Header.Get("X-RateLimit-Limit") != "" {
			t.Fatalf("without a token: %d %v", r.Status, r.Header)
		}
	})
}

func TestWindowReset(t *testing.T) {
	withLimits(t, ratelimit.Config{Limit: 1}, func(t *testing.T, e *testenv.Env, team *testenv.Team, clk *clock) {
		tok := team.Admin.Token
		if r := e.Do(tok, "GET", "/v1/user", nil); r.Status != 200 {
			t.Fatalf("first request: %d", r.Status)
		}
		clk.Add(44*time.Minute + 59*time.Second) // 10:59:59
		r := e.Do(tok, "GET", "/v1/user", nil)
		if got := rateOf(t, r.Header); r.Status != 429 || got.retryAfter != "1" {
			t.Fatalf("a second before the reset: %d %+v", r.Status, got)
		}
		clk.Add(time.Second) // 11:00:00
		for _, r := range []*testenv.Response{e.Do(tok, "GET", "/v1/user", nil), gql(e, tok, `{ viewer { id } }`, nil)} {
			got := rateOf(t, r.Header)
			if got.reset != windowEnd.Add(time.Hour).Unix() {
				t.Fatalf("next window: reset %d, want %d", got.reset, windowEnd.Add(time.Hour).Unix())
			}
			if r.Status == 200 {
				if got.remaining != 0 || got.used != 1 {
					t.Fatalf("next window: %+v", got)
				}
				continue
			}
			// The second request of the new window finds it spent.
			if r.Status != 429 {
				t.Fatalf("next window: %d %s", r.Status, r.Body)
			}
		}
	})
}

func TestContentLimit(t *testing.T) {
	withLimits(t, ratelimit.Config{Limit: 100, ContentLimit: 2}, func(t *testing.T, e *testenv.Env, team *testenv.Team, _ *clock) {
		tok := team.Admin.Token
		sp := newSpace(t, e, team)
		if r := e.Do(tok, "POST", "/v1/spaces/"+sp+"/change-requests", map[string]any{"subject": "one"}); r.Status != 201 {
			t.Fatalf("REST change request: %d %s", r.Status, r.Body)
		}
		g := e.GraphQL(tok, `mutation($s: ID!) { createChangeRequest(input: {space: $s, subject: "two"}) { id } }`, map[string]any{"s": sp})
		if len(g.Errors) > 0 {
			t.Fatalf("GraphQL change request: %s", g.Raw)
		}
		cr := testenv.Path(g.Data, "createChangeRequest", "id").(string)

		r := e.Do(tok, "POST", "/v1/spaces/"+sp+"/change-requests", map[string]any{"subject": "three"})
		got := rateOf(t, r.Header)
		if r.Status != 429 || got.resource != "content" || got.limit != 2 || got.remaining != 0 || got.retryAfter != "2700" ||
			!strings.Contains(r.JSON()["error"].(map[string]any)["message"].(string), "Content creation limit") {
			t.Fatalf("third change request: %d %+v %s", r.Status, got, r.Body)
		}
		g = e.GraphQL(tok, `mutation($c: ID!) { createPage(input: {changeRequest: $c, title: "Page"}) { revision { id } } }`, map[string]any{"c": cr})
		if g.Status != 429 || g.Code() != "RATE_LIMITED" {
			t.Fatalf("createPage over the content limit: %d %s", g.Status, g.Raw)
		}
		// Reads, and writes that create no content, still pass.
		if r := e.Do(tok, "GET", "/v1/spaces/"+sp+"/change-requests", nil); r.Status != 200 || rateOf(t, r.Header).resource != "core" {
			t.Fatalf("read: %d %s", r.Status, r.Body)
		}
		g = e.GraphQL(tok, `mutation($c: ID!) { patchChangeRequest(id: $c, input: {subject: "renamed"}) { subject } }`, map[string]any{"c": cr})
		if len(g.Errors) > 0 {
			t.Fatalf("patch: %s", g.Raw)
		}
		if n := e.Client().ChangeRequest.Query().Where(changerequest.SpaceID(sp)).CountX(context.Background()); n != 2 {
			t.Fatalf("%d change requests, want 2", n)
		}
	})
}

// A refused request changes nothing: no resolver runs, nothing is written,
// and the budget is what it was.
func TestRefusedRequestChangesNothing(t *testing.T) {
	withLimits(t, ratelimit.Config{Limit: 40, ContentLimit: 1}, func(t *testing.T, e *testenv.Env, team *testenv.Team, _ *clock) {
		tok := team.Admin.Token
		spaces := func() int {
			return e.Client().Space.Query().Where(space.OrganizationID(team.Org.ID)).CountX(context.Background())
		}
		sp := newSpace(t, e, team) // 1 point
		// A mutation whose answer costs 1 + 70 + 70×70 connection
		// requests, 50 points, more than the 39 left.
		g := e.GraphQL(tok, `mutation($o: ID!) { createSpace(input: {organization: $o, title: "Costly"}) { organization { collections(first: 70) { nodes { collections(first: 70) { nodes { spaces(first: 1) { totalCount } } } } } } } }`,
			map[string]any{"o": team.Org.ID})
		if g.Status != 429 || g.Code() != "RATE_LIMITED" || !strings.Contains(g.Errors[0].Message, "costs 50 points and 39 of 40") {
			t.Fatalf("costly mutation: %d %s", g.Status, g.Raw)
		}
		if n := spaces(); n != 1 {
			t.Fatalf("%d spaces after a refused createSpace, want 1", n)
		}
		// Two change requests in one operation, with one left: neither.
		g = e.GraphQL(tok, `mutation($s: ID!) { a: createChangeRequest(input: {space: $s}) { id } b: createChangeRequest(input: {space: $s}) { id } }`, map[string]any{"s": sp})
		if g.Status != 429 || g.Code() != "RATE_LIMITED" {
			t.Fatalf("two change requests: %d %s", g.Status, g.Raw)
		}
		if n := e.Client().ChangeRequest.Query().CountX(context.Background()); n != 0 {
			t.Fatalf("%d change requests after a refused operation", n)
		}
		// Neither refusal spent anything.
		r := e.Do(tok, "GET", "/v1/user", nil)
		if got := rateOf(t, r.Header); got.used != 2 || got.remaining != 38 {
			t.Fatalf("after the refusals: %+v", got)
		}
		// The content unit is still there.
		if r := e.Do(tok, "POST", "/v1/spaces/"+sp+"/change-requests", nil); r.Status != 201 {
			t.Fatalf("change request after the refusals: %d %s", r.Status, r.Body)
		}
	})
}
