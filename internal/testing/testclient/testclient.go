// Package testclient is the one HTTP client of Quire's tests, benchmarks
// and soak: it sends a request with a bearer token and a JSON body to a
// Quire server and returns the status, headers and body, read in full, with
// helpers to decode JSON and GraphQL answers.
//
// It returns errors rather than failing a test, so that load generators
// and long-running programs can count failures; testenv wraps it with the
// test's Fatalf.
package testclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Client sends requests to one server with one token.
type Client struct {
	Base  string // the server's URL, without a trailing slash
	Token string // sent as "Authorization: Bearer ..." when not empty
	// HTTP sends the requests; nil means http.DefaultClient.
	HTTP *http.Client
	// Timeout, when not zero, bounds each request of Send, Expect and
	// GraphQL, from sending to the end of its body.
	Timeout time.Duration
}

// Response is an answer with its body read.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body as an object (nil when it is not one).
func (r *Response) JSON() map[string]any {
	var v map[string]any
	_ = json.Unmarshal(r.Body, &v)
	return v
}

// DecodeJSON decodes the body into out.
func (r *Response) DecodeJSON(out any) error {
	if err := json.Unmarshal(r.Body, out); err != nil {
		return fmt.Errorf("decode %s: %w", clip(r.Body), err)
	}
	return nil
}

// NewRequest builds a request to url. body is nil (no body), a string or
// []byte sent as it is, or any other value sent as its JSON encoding; a
// request with a body says Content-Type: application/json. token, when not
// empty, is sent as a bearer token.
func NewRequest(ctx context.Context, method, url, token string, body any) (*http.Request, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			return nil, fmt.Errorf("encode body of %s %s: %w", method, url, err)
		}
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, err
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req, nil
}

// Request builds a request to the client's server with its token (see
// NewRequest for body).
func (c *Client) Request(ctx context.Context, method, path string, body any) (*http.Request, error) {
	return NewRequest(ctx, method, c.Base+path, c.Token, body)
}

// Do sends req with the client's HTTP client and reads the whole answer.
// An error is a request that got no complete answer: refused, cut, or past
// a deadline.
func (c *Client) Do(req *http.Request) (*Response, error) {
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	buf, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: reading the answer: %w", req.Method, req.URL, err)
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: buf}, nil
}

// Send sends a request to path (see NewRequest for body) and reads the
// answer, whatever its status.
func (c *Client) Send(ctx context.Context, method, path string, body any) (*Response, error) {
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	req, err := c.Request(ctx, method, path, body)
	if err != nil {
		return nil, err
	}
	return c.Do(req)
}

// Expect sends a request and decodes a JSON answer into out (if not nil).
// It fails unless the status is want.
func (c *Client) Expect(ctx context.Context, method, path string, body any, want int, out any) error {
	r, err := c.Send(ctx, method, path, body)
	if err != nil {
		return err
	}
	if r.Status != want {
		return fmt.Errorf("%s %s: status %d, want %d: %s", method, path, r.Status, want, clip(r.Body))
	}
	if out != nil {
		if err := r.DecodeJSON(out); err != nil {
			return fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return nil
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}
