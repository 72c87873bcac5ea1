package soak

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"quire/internal/testing/testclient"
)

// stats counts what the load saw. Latencies are kept per sampling
// interval, so that each row of the table has that interval's p50/p99.
type stats struct {
	mu        sync.Mutex
	requests  int64
	status5xx int64
	transport int64 // no answer: connection refused or reset, timeout
	unexpect  int64 // an answer other than the one the operation expects (4xx, GraphQL errors, merge conflicts)
	behind    int64 // operations that started more than a second after their slot
	window    []time.Duration
	firstErrs []string // the first few failures, for the report
}

func (s *stats) record(d time.Duration) {
	s.mu.Lock()
	s.requests++
	s.window = append(s.window, d)
	s.mu.Unlock()
}

func (s *stats) fail(kind *int64, msg string) {
	s.mu.Lock()
	*kind++
	if len(s.firstErrs) < 10 {
		s.firstErrs = append(s.firstErrs, msg)
	}
	s.mu.Unlock()
}

// takeWindow returns the p50 and p99 of the latencies recorded since the
// last call, and their count, and starts a new window.
func (s *stats) takeWindow() (n int, p50, p99 time.Duration) {
	s.mu.Lock()
	w := s.window
	s.window = nil
	s.mu.Unlock()
	if len(w) == 0 {
		return 0, 0, 0
	}
	slices.Sort(w)
	at := func(q float64) time.Duration { return w[min(len(w)-1, int(q*float64(len(w))))] }
	return len(w), at(0.50), at(0.99)
}

// client sends the soak's requests with one token, through a
// testclient.Client with a connection pool sized for the workers, and
// records each.
type client struct {
	api *testclient.Client
	st  *stats
}

// errUnexpected marks a failure already counted as an unexpected answer.
var errUnexpected = errors.New("unexpected answer")

// rest sends a REST request and decodes the answer into out (if not nil);
// any status but want is a failure, counted by kind.
func (c *client) rest(ctx context.Context, method, path string, body any, want int, out any) error {
	buf, status, err := c.send(ctx, method, "/v1"+path, body)
	if err != nil {
		return err
	}
	if status != want {
		return c.unexpected(status, "%s %s: status %d, want %d: %s", method, path, status, want, clip(buf))
	}
	if out != nil {
		if err := json.Unmarshal(buf, out); err != nil {
			return c.unexpected(status, "%s %s: decode: %v: %s", method, path, err, clip(buf))
		}
	}
	return nil
}

// gql runs a GraphQL operation; an answer with errors is a failure.
func (c *client) gql(ctx context.Context, query string, vars map[string]any, out any) error {
	buf, status, err := c.send(ctx, "POST", "/graphql", map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	var v struct {
		Data   json.RawMessage   `json:"data"`
		Errors []json.RawMessage `json:"errors"`
	}
	if status != http.StatusOK || json.Unmarshal(buf, &v) != nil || len(v.Errors) > 0 {
		return c.unexpected(status, "graphql %.40q: status %d: %s", query, status, clip(buf))
	}
	if out != nil {
		if err := json.Unmarshal(v.Data, out); err != nil {
			return c.unexpected(status, "graphql %.40q: decode: %v", query, err)
		}
	}
	return nil
}

// unexpected counts a failure: a 5xx as such, anything else as unexpected.
func (c *client) unexpected(status int, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if status >= 500 {
		c.st.fail(&c.st.status5xx, msg)
	} else {
		c.st.fail(&c.st.unexpect, msg)
	}
	return fmt.Errorf("%w: %s", errUnexpected, msg)
}

func (c *client) send(ctx context.Context, method, path string, body any) ([]byte, int, error) {
	req, err := c.api.Request(ctx, method, path, body)
	if err != nil {
		return nil, 0, err
	}
	start := time.Now()
	resp, err := c.api.Do(req)
	if err == nil {
		c.st.record(time.Since(start))
		return resp.Body, resp.Status, nil
	}
	if ctx.Err() != nil {
		return nil, 0, ctx.Err() // the soak is ending, not the server failing
	}
	msg := err.Error() // names the method and URL
	c.st.fail(&c.st.transport, msg)
	return nil, 0, fmt.Errorf("%w: %s", errUnexpected, msg)
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}
