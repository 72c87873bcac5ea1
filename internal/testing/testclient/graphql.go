package testclient

import (
	"context"
	"encoding/json"
	"fmt"
)

// GraphQL is a GraphQL answer.
type GraphQL struct {
	*Response
	Data   map[string]any
	Errors []GQLError
}

// GQLError is one GraphQL error.
type GQLError struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
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

// ParseGraphQL decodes a GraphQL answer. An answer that is not a GraphQL
// response object is an error; the returned value still holds r.
func ParseGraphQL(r *Response) (*GraphQL, error) {
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

// GraphQLBody is the body of a POST /graphql request.
func GraphQLBody(query string, vars map[string]any) map[string]any {
	return map[string]any{"query": query, "variables": vars}
}

// GraphQL posts an operation to /graphql and decodes the answer.
func (c *Client) GraphQL(ctx context.Context, query string, vars map[string]any) (*GraphQL, error) {
	r, err := c.Send(ctx, "POST", "/graphql", GraphQLBody(query, vars))
	if err != nil {
		return nil, err
	}
	return ParseGraphQL(r)
}
