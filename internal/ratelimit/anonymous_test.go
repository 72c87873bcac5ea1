package ratelimit_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"quire/internal/ratelimit"
	"quire/internal/testing/testenv"
)

// anonymous is a request sent to a server as if from a client address:
// what it answered.
type anonymous struct {
	status int
	header http.Header
	body   []byte
}

// from serves one request from remoteAddr (host:port) through s, as its
// HTTP server would, with the Authorization header auth ("" for none).
func from(s http.Handler, remoteAddr, auth, method, path, body string) anonymous {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.RemoteAddr = remoteAddr
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return anonymous{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

const viewerQuery = `{"query":"{ viewer { id } }"}`

// Requests without a valid token, through both doors and whatever is wrong
// with the token, spend one budget per address: 401 while it lasts, with
// the anonymous bucket's headers, then 429 in each door's documented shape.
func TestAnonymousBudgetPerAddress(t *testing.T) {
	const limit = 5
	withLimits(t, ratelimit.Config{Limit: 100, AnonymousLimit: limit}, func(t *testing.T, e *testenv.Env, team *testenv.Team, clk *clock) {
		const a = "203.0.113.7:40000"
		sent := []struct {
			name, auth, method, path, body string
		}{
			{"REST, no token", "", "GET", "/v1/user", ""},
			{"REST, unknown token", "Bearer qt_unknownunknownunknownunknownunknownunkno", "GET", "/v1/user", ""},
			{"REST, malformed Authorization", "Basic dXNlcjpwYXNz", "GET", "/v1/orgs/" + team.Org.ID, ""},
			{"GraphQL, no token", "", "POST", "/graphql", viewerQuery},
			{"GraphQL, unknown token", "Bearer nope", "POST", "/graphql", viewerQuery},
		}
		for i, s := range sent {
			r := from(e.Server, a, s.auth, s.method, s.path, s.body)
			got := rateOf(t, r.header)
			want := rate{limit: limit, remaining: limit - 1 - i, used: i + 1, reset: windowEnd.Unix(), resource: "anonymous"}
			if r.status != http.StatusUnauthorized || got != want {
				t.Fatalf("%s: %d %+v %s, want 401 %+v", s.name, r.status, got, r.body, want)
			}
		}
		// The budget is spent: every door refuses the address.
		for i, s := range sent {
			before := e.Statements()
			r := from(e.Server, a, s.auth, s.method, s.path, s.body)
			got := rateOf(t, r.header)
			want := rate{limit: limit, remaining: 0, used: limit, reset: windowEnd.Unix(), resource: "anonymous", retryAfter: "2700"}
			if r.status != http.StatusTooManyRequests || got != want {
				t.Fatalf("%s over the budget: %d %+v %s, want 429 %+v", s.name, r.status, got, r.body, want)
			}
			if s.path == "/graphql" {
				var out struct {
					Errors []struct {
						Message    string         `json:"message"`
						Extensions map[string]any `json:"extensions"`
					} `json:"errors"`
				}
				if err := json.Unmarshal(r.body, &out); err != nil || len(out.Errors) != 1 || out.Errors[0].Extensions["code"] != "RATE_LIMITED" ||
					!strings.Contains(out.Errors[0].Message, "without a valid API token") {
					t.Fatalf("%s: body %s", s.name, r.body)
				}
			} else {
				var out struct {
					Error struct {
						Code    int    `json:"code"`
						Message string `json:"message"`
					} `json:"error"`
				}
				if err := json.Unmarshal(r.body, &out); err != nil || out.Error.Code != 429 ||
					out.Error.Message != "Rate limit exceeded for requests without a valid API token: at most 5 per hour from one address; send Authorization: Bearer <token>, or try again after 2026-03-01T11:00:00Z" {
					t.Fatalf("%s: body %s", s.name, r.body)
				}
			}
			// Once the database refused the address (the first request
			// here), the process knows it: a request without a token is
			// refused without a statement, one with an unknown token costs
			// its lookup only.
			wantStatements := int64(0)
			if i == 0 || strings.HasPrefix(s.auth, "Bearer ") {
				wantStatements = 1
			}
			if n := e.Statements() - before; n != wantStatements {
				t.Errorf("%s over the budget: %d statements, want %d", s.name, n, wantStatements)
			}
		}
		// A valid token from the same address is served, from its user's
		// budget.
		r := from(e.Server, a, "Bearer "+team.Admin.Token, "GET", "/v1/user", "")
		if got := rateOf(t, r.header); r.status != http.StatusOK || got.resource != "core" || got.limit != 100 {
			t.Fatalf("valid token from a refused address: %d %+v %s", r.status, got, r.body)
		}
		r = from(e.Server, a, "Bearer "+team.Admin.Token, "POST", "/graphql", viewerQuery)
		if r.status != http.StatusOK || !bytes.Contains(r.body, []byte(team.Admin.User.ID)) {
			t.Fatalf("valid token from a refused address, GraphQL: %d %s", r.status, r.body)
		}
		// Another address has a budget of its own.
		for _, b := range []string{"198.51.100.2:1234", "[2001:db8::1]:443"} {
			r := from(e.Server, b, "", "GET", "/v1/user", "")
			if got := rateOf(t, r.header); r.status != http.StatusUnauthorized || got.remaining != limit-1 {
				t.Fatalf("%s: %d %+v %s", b, r.status, got, r.body)
			}
		}
		// Another address of the same IPv6 /64 shares its budget.
		r = from(e.Server, "[2001:db8::2:3]:80", "", "GET", "/v1/user", "")
		if got := rateOf(t, r.header); r.status != http.StatusUnauthorized || got.remaining != limit-2 {
			t.Fatalf("same /64: %d %+v", r.status, got)
		}
		// The next window brings the budget back.
		clk.Add(ratelimit.DefaultWindow)
		r = from(e.Server, a, "", "GET", "/v1/user", "")
		if got := rateOf(t, r.header); r.status != http.StatusUnauthorized || got.remaining != limit-1 {
			t.Fatalf("next window: %d %+v %s", r.status, got, r.body)
		}
	})
}

// Requests with a valid token spend nothing of their address's anonymous
// budget.
func TestValidTokensSpendNoAnonymousBudget(t *testing.T) {
	const limit = 3
	withLimits(t, ratelimit.Config{Limit: 100, AnonymousLimit: limit}, func(t *testing.T, e *testenv.Env, team *testenv.Team, clk *clock) {
		const a = "192.0.2.10:5000"
		for i := range 2 * limit {
			r := from(e.Server, a, "Bearer "+team.Admin.Token, "GET", "/v1/user", "")
			if got := rateOf(t, r.header); r.status != http.StatusOK || got.resource != "core" || got.used != 2*i+1 {
				t.Fatalf("request %d: %d %+v %s", i, r.status, got, r.body)
			}
			if r := from(e.Server, a, "Bearer "+team.Admin.Token, "POST", "/graphql", viewerQuery); r.status != http.StatusOK {
				t.Fatalf("GraphQL request %d: %d %s", i, r.status, r.body)
			}
		}
		u, err := ratelimit.New(e.Client(), ratelimit.Config{AnonymousLimit: limit, Now: clk.Now}).Usage(t.Context(), ratelimit.Address(a), ratelimit.Anonymous)
		if err != nil || u.Used != 0 {
			t.Fatalf("anonymous budget after valid tokens: %+v, %v", u, err)
		}
		for i := range limit {
			if r := from(e.Server, a, "", "GET", "/v1/user", ""); r.status != http.StatusUnauthorized {
				t.Fatalf("anonymous request %d: %d %s", i, r.status, r.body)
			}
		}
		if r := from(e.Server, a, "", "GET", "/v1/user", ""); r.status != http.StatusTooManyRequests {
			t.Fatalf("anonymous request over the budget: %d %s", r.status, r.body)
		}
	})
}

// The routes that need no token spend the anonymous budget of their
// address, as do the requests refused for want of one, and replicas share
// it; health checks and the API's own description spend nothing.
func TestTokenlessRoutesSpendTheAnonymousBudget(t *testing.T) {
	const limit = 4
	withLimits(t, ratelimit.Config{AnonymousLimit: limit}, func(t *testing.T, e *testenv.Env, team *testenv.Team, clk *clock) {
		other := e.Replica(testenv.Options{RateLimits: ratelimit.Config{AnonymousLimit: limit, Now: clk.Now}})
		const a = "203.0.113.99:1"
		for _, path := range []string{"/healthz", "/v1/openapi.json"} {
			if r := from(e.Server, a, "", "GET", path, ""); r.status != http.StatusOK || r.header.Get("X-RateLimit-Limit") != "" {
				t.Fatalf("%s: %d %v", path, r.status, r.header)
			}
		}
		loginOptions := "/v1/orgs/" + team.Org.ID + "/sso"
		for i, s := range []http.Handler{e.Server, other.Server, e.Server} {
			r := from(s, a, "", "GET", loginOptions, "")
			if got := rateOf(t, r.header); r.status != http.StatusOK || got.resource != "anonymous" || got.remaining != limit-1-i {
				t.Fatalf("login options %d: %d %+v %s", i, r.status, got, r.body)
			}
		}
		if r := from(other.Server, a, "", "POST", "/graphql", viewerQuery); r.status != http.StatusUnauthorized {
			t.Fatalf("last request of the budget: %d %s", r.status, r.body)
		}
		for _, s := range []http.Handler{e.Server, other.Server} {
			r := from(s, a, "", "GET", loginOptions, "")
			if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") != strconv.Itoa(2700) {
				t.Fatalf("login options over the budget: %d %v %s", r.status, r.header, r.body)
			}
			if r := from(s, a, "", "GET", "/openapi/"+team.Org.ID+"/nope", ""); r.status != http.StatusTooManyRequests {
				t.Fatalf("public specification over the budget: %d %s", r.status, r.body)
			}
		}
	})
}

func TestAddress(t *testing.T) {
	for remote, want := range map[string]string{
		"192.0.2.1:80":           "ip:192.0.2.1",
		"[::ffff:192.0.2.1]:80":  "ip:192.0.2.1",
		"[2001:db8::1]:443":      "ip:2001:db8::/64",
		"[2001:db8::ffff:1]:1":   "ip:2001:db8::/64",
		"[2001:db8:0:1::1]:1":    "ip:2001:db8:0:1::/64",
		"[fe80::1%eth0]:1":       "ip:fe80::/64",
		"192.0.2.1":              "ip:192.0.2.1",
		"@":                      "addr:@",
		"":                       "addr:",
		strings.Repeat("x", 300): "addr:" + strings.Repeat("x", 100),
	} {
		if got := ratelimit.Address(remote); got != want {
			t.Errorf("Address(%q) = %q, want %q", remote, got, want)
		}
	}
}

// A WebSocket whose connection_init carries no valid token is charged to
// its address like a request: 4401 or 4403 while the budget lasts, then
// 4429; a valid token still opens a connection from that address.
func TestWebSocketInitsSpendTheAnonymousBudget(t *testing.T) {
	withLimits(t, ratelimit.Config{Limit: 100, AnonymousLimit: 2}, func(t *testing.T, e *testenv.Env, team *testenv.Team, clk *clock) {
		inits := []struct {
			payload map[string]any
			want    int
		}{
			{map[string]any{}, 4401},
			{map[string]any{"Authorization": "Bearer qt_unknownunknownunknownunknownunknownunkno"}, 4403},
			{map[string]any{}, 4429},
			{map[string]any{"Authorization": "Bearer nope"}, 4429},
		}
		for i, in := range inits {
			ws, _, err := e.DialWS(nil)
			if err != nil {
				t.Fatal(err)
			}
			if code, text := ws.Init(in.payload); code != in.want {
				t.Errorf("connection_init %d: %d %s, want %d", i, code, text, in.want)
			}
		}
		// A valid token is not refused for its address's budget.
		e.OpenWS(team.Reader.Token)
	})
}
