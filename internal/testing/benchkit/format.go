package benchkit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"quire/internal/testing/testclient"
)

// ErrExhausted is Send's error when the target's Vary has nothing left.
var ErrExhausted = errors.New("no prepared object left")

// Send sends request n of worker 0 of t (its URL and Body, or what Vary
// gives) and returns the body; a status other than 2xx is an error.
func Send(ctx context.Context, t Target, n int) ([]byte, error) {
	u, b := t.URL, t.Body
	if t.Vary != nil {
		var ok bool
		if u, b, ok = t.Vary(0, n); !ok {
			return nil, ErrExhausted
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	req, err := t.request(ctx, u, b)
	if err != nil {
		return nil, err
	}
	resp, err := (&testclient.Client{}).Do(req)
	if err != nil {
		return nil, err
	}
	if resp.Status < 200 || resp.Status > 299 {
		return nil, fmt.Errorf("%s %s: status %d: %s", t.Method, u, resp.Status, Truncate(resp.Body, 300))
	}
	return resp.Body, nil
}

// request builds a request of t to u with body b (none when nil).
func (t Target) request(ctx context.Context, u string, b []byte) (*http.Request, error) {
	var body any // a nil []byte would be an empty body, with a Content-Type
	if b != nil {
		body = b
	}
	req, err := testclient.NewRequest(ctx, t.Method, u, t.Token, body)
	if err != nil {
		return nil, err
	}
	for k, v := range t.Header {
		req.Header[k] = v
	}
	return req, nil
}

// ParseCounts parses a comma-separated list of connection counts in
// [1, 256].
func ParseCounts(s string) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 256 {
			return nil, fmt.Errorf("%q is not a count in [1, 256]", p)
		}
		out = append(out, n)
	}
	return out, nil
}

// MedianBy returns the run with the median requests per second.
func MedianBy[T any](runs []T, rps func(T) float64) T {
	sorted := slices.Clone(runs)
	slices.SortFunc(sorted, func(a, b T) int { return cmp.Compare(rps(a), rps(b)) })
	return sorted[len(sorted)/2]
}

// FormatRPS writes requests per second for a table.
func FormatRPS(v float64) string {
	if v < 10 {
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

// FormatMS writes a duration in milliseconds for a table.
func FormatMS(d time.Duration) string {
	return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000)
}
