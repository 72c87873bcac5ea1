// Package rest serves the documented /v1 JSON API. Each handler decodes the
// request, calls the same resolver methods as the GraphQL door, and presents
// the result in the documented shape.
package rest

import (
	"context"
	"net/http"
	"strings"
)

// Route is one entry of the route table; the table also documents the API.
type Route struct {
	Method string
	// Pattern is the path below /v1, with {name} segments.
	Pattern string
	// Summary says what the operation does.
	Summary string
	Handle  HandlerFunc
}

// HandlerFunc handles a request: it returns the status and the body to send
// (nil for an empty body), or an error for the error presenter.
type HandlerFunc func(ctx context.Context, req *Request) (int, any, error)

// Request is a decoded request.
type Request struct {
	HTTP   *http.Request
	params map[string]string
	// Header lets a handler add response headers (Location).
	Header http.Header
}

// Param returns a path parameter.
func (r *Request) Param(name string) string { return r.params[name] }

// match returns the path parameters when path matches pattern.
func match(pattern, path string) (map[string]string, bool) {
	ps := strings.Split(strings.Trim(pattern, "/"), "/")
	xs := strings.Split(strings.Trim(path, "/"), "/")
	if len(ps) != len(xs) {
		return nil, false
	}
	var params map[string]string
	for i, p := range ps {
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			if xs[i] == "" {
				return nil, false
			}
			if params == nil {
				params = map[string]string{}
			}
			params[p[1:len(p)-1]] = xs[i]
			continue
		}
		if p != xs[i] {
			return nil, false
		}
	}
	return params, true
}
