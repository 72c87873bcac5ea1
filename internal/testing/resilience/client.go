package resilience

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// Client sends requests with one token to one or several quire processes,
// each request to the next process in turn (round robin), as a load
// balancer in front of replicas would.
type Client struct {
	Token string
	URLs  []string
	// Timeout bounds each request, from sending to the end of its body.
	Timeout time.Duration
	next    *atomic.Uint64
	http    *http.Client
}

// NewClient returns a round-robin client over the processes' URLs.
func NewClient(token string, urls ...string) *Client {
	return &Client{Token: token, URLs: urls, Timeout: 30 * time.Second, next: new(atomic.Uint64),
		http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}}
}

// At returns a client that sends everything to process i.
func (c *Client) At(i int) *Client {
	d := *c
	d.URLs, d.next = []string{c.URLs[i]}, new(atomic.Uint64)
	return &d
}

// WithToken returns a client sending another token, to the same processes
// in the same turn.
func (c *Client) WithToken(token string) *Client {
	d := *c
	d.Token = token
	return &d
}

// Response is an answer with its body read.
type Response struct {
	URL    string // the process that answered
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

// Send sends a request (body: nil, or a value sent as JSON) to the next
// process. An error is a request that got no answer: refused, cut, or
// past the client's timeout.
func (c *Client) Send(method, path string, body any) (*Response, error) {
	base := c.URLs[int(c.next.Add(1)-1)%len(c.URLs)]
	var rd io.Reader
	if body != nil {
		buf, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(buf)
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, base+path, rd)
	if err != nil {
		return nil, err
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s%s: %w", method, base, path, err)
	}
	defer resp.Body.Close()
	buf, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s %s%s: reading the answer: %w", method, base, path, err)
	}
	return &Response{URL: base, Status: resp.StatusCode, Header: resp.Header, Body: buf}, nil
}

// GraphQL is a GraphQL answer.
type GraphQL struct {
	*Response
	Data   map[string]any
	Errors []GQLError
}

// GQLError is one GraphQL error.
type GQLError struct {
	Message    string         `json:"message"`
	Extensions map[string]any `json:"extensions"`
}

// Code is the first error's extensions.code, or "".
func (g *GraphQL) Code() string {
	if len(g.Errors) == 0 {
		return ""
	}
	c, _ := g.Errors[0].Extensions["code"].(string)
	return c
}

// GraphQL posts an operation to the next process.
func (c *Client) GraphQL(query string, vars map[string]any) (*GraphQL, error) {
	r, err := c.Send("POST", "/graphql", map[string]any{"query": query, "variables": vars})
	if err != nil {
		return nil, err
	}
	g := &GraphQL{Response: r}
	var v struct {
		Data   map[string]any `json:"data"`
		Errors []GQLError     `json:"errors"`
	}
	if err := json.Unmarshal(r.Body, &v); err != nil {
		return g, fmt.Errorf("GraphQL answer %d %q: %v", r.Status, r.Body, err)
	}
	g.Data, g.Errors = v.Data, v.Errors
	return g, nil
}
