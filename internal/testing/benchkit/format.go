package benchkit

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
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
	var body io.Reader
	if b != nil {
		body = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, t.Method, u, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+t.Token)
	if b != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("%s %s: status %d: %s", t.Method, u, resp.StatusCode, Truncate(out, 300))
	}
	return out, nil
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
