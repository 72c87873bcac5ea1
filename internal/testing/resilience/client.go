package resilience

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"quire/internal/testing/testclient"
)

// Client sends requests with one token to one or several quire processes,
// each request to the next process in turn (round robin), as a load
// balancer in front of replicas would. Each request goes through a
// testclient.Client; the round robin is all this type adds.
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

// Response is an answer with its body read, and the process that gave it.
type Response struct {
	*testclient.Response
	URL string // the process that answered
}

// GraphQL is a GraphQL answer, and the process that gave it.
type GraphQL struct {
	*Response
	Data   map[string]any
	Errors []testclient.GQLError
}

// Code is the first error's extensions.code, or "".
func (g *GraphQL) Code() string { return (&testclient.GraphQL{Errors: g.Errors}).Code() }

// pick returns the client for the next process.
func (c *Client) pick() *testclient.Client {
	base := c.URLs[int(c.next.Add(1)-1)%len(c.URLs)]
	return &testclient.Client{Base: base, Token: c.Token, HTTP: c.http, Timeout: c.Timeout}
}

// Send sends a request (body: nil, or a value sent as JSON) to the next
// process. An error is a request that got no answer: refused, cut, or
// past the client's timeout.
func (c *Client) Send(method, path string, body any) (*Response, error) {
	tc := c.pick()
	r, err := tc.Send(context.Background(), method, path, body)
	if err != nil {
		return nil, err
	}
	return &Response{Response: r, URL: tc.Base}, nil
}

// GraphQL posts an operation to the next process.
func (c *Client) GraphQL(query string, vars map[string]any) (*GraphQL, error) {
	r, err := c.Send("POST", "/graphql", testclient.GraphQLBody(query, vars))
	if err != nil {
		return nil, err
	}
	g, err := testclient.ParseGraphQL(r.Response)
	return &GraphQL{Response: r, Data: g.Data, Errors: g.Errors}, err
}
