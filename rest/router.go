// Package rest serves the documented /v1 JSON API. Each handler decodes the
// request, calls the same resolver methods as the GraphQL door, and presents
// the result in the documented shape.
package rest

import (
	"context"
	"net/http"
	"strings"
)

// Route is one entry of the route table. The table also documents the API:
// Quire's OpenAPI document is generated from it and from the types it names.
type Route struct {
	Method string
	// Pattern is the path below /v1, with {name} segments.
	Pattern string
	// Summary says what the operation does.
	Summary string
	Handle  HandlerFunc

	// Documentation of the operation.
	Status   int  // success status
	Result   any  // prototype of the success body; nil for an empty body
	IsList   bool // Result is the item of a list envelope
	Request  any  // prototype of the JSON request body, if any
	Params   []Param
	Extra    []int // error statuses beyond those every operation has
	Deleting bool  // 205 when deleted, 204 when it did not exist
	Obsolete bool  // deprecated
}

// Param documents a query parameter.
type Param struct {
	Name        string
	Type        string // "string", "boolean", "number", or "array" (of strings)
	Description string
	Enum        []string
}

// op starts a route.
func op(method, pattern, summary string, h HandlerFunc) Route {
	return Route{Method: method, Pattern: pattern, Summary: summary, Handle: h, Status: 200}
}

// Returns documents the success status and body.
func (r Route) Returns(status int, v any) Route { r.Status, r.Result = status, v; return r }

// List documents a paginated list of v.
func (r Route) List(v any) Route {
	r.Status, r.Result, r.IsList = 200, v, true
	r.Params = append(r.Params, qPage, qLimit)
	return r
}

// Body documents the JSON request body.
func (r Route) Body(v any) Route { r.Request = v; return r }

// Query documents query parameters.
func (r Route) Query(ps ...Param) Route { r.Params = append(r.Params, ps...); return r }

// Errors documents further error statuses.
func (r Route) Errors(codes ...int) Route { r.Extra = append(r.Extra, codes...); return r }

// Deletes documents a delete: 205 deleted, 204 did not exist.
func (r Route) Deletes() Route { r.Status, r.Deleting = 205, true; return r }

// Deprecated marks the operation deprecated.
func (r Route) Deprecated() Route { r.Obsolete = true; return r }

var (
	qPage          = Param{Name: "page", Type: "string", Description: "Opaque token of the page to fetch, from next.page of the previous one."}
	qLimit         = Param{Name: "limit", Type: "number", Description: "Items per page, 0 to 1000 (default 50)."}
	qNested        = Param{Name: "nested", Type: "boolean", Description: "Include collections inside collections (default true)."}
	qShareKey      = Param{Name: "shareKey", Type: "string", Description: "Secret of a share link, to resolve the published URLs of a share-link site."}
	qDefault       = Param{Name: "default", Type: "boolean", Description: "true: only the default site space; false: only the others."}
	qSiteSpace     = Param{Name: "space", Type: "string", Description: "Only sites publishing this space."}
	qSiteTitle     = Param{Name: "title", Type: "string", Description: "Only sites whose title contains this text (case-insensitive)."}
	qSitePublished = Param{Name: "published", Type: "boolean", Description: "Only published (true) or unpublished (false) sites."}
	qSiteType      = Param{Name: "type", Type: "array", Description: "Only sites of these types.", Enum: []string{"basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"}}
)

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
