// Package rest serves the documented /v1 JSON API. A route decodes the
// request into the documented Go type of its body or query parameters,
// calls the same resolver method as the GraphQL door, and presents the
// result in the documented shape; the route table is also the source of
// Quire's OpenAPI document.
package rest

import (
	"context"
	"net/http"
	"reflect"
)

// Route is one entry of the route table: how it is served and, derived from
// the Go types it was written with, how it is documented.
type Route struct {
	Method string
	// Pattern is the path below /v1, with {name} segments.
	Pattern string
	// Summary says what the operation does.
	Summary string

	// Status is the success status (the deleted one for deletes).
	Status int
	// Result is the type of the success body; nil for an empty body.
	Result reflect.Type
	// IsList tells that Result is the item type of a list envelope.
	IsList bool
	// Deleting: 205 when deleted, 204 when it did not exist.
	Deleting bool
	// Request is the type of the JSON request body; nil when none is read.
	Request reflect.Type
	// BodyOptional: an empty body counts as an empty object.
	BodyOptional bool
	// Params are the query parameters.
	Params []Param
	// Extra are error statuses beyond those every operation has.
	Extra []int
	// Also are further success statuses, with the same body as Status
	// (a PUT that answers 201 when it creates, 200 when it updates).
	Also []int
	// Obsolete marks a deprecated operation.
	Obsolete bool
	// CreatesContent marks an operation that creates content (a change
	// request): it also spends from the content rate limit.
	CreatesContent bool
	// query is the type the query parameters decode into; nil when none
	// are read.
	query reflect.Type

	serve func(ctx context.Context, rt *Route, req *Request) (int, any, error)
}

// Param documents a query parameter.
type Param struct {
	Name        string
	Type        string // "string", "boolean", "number", or "array" (of strings)
	Description string
	Enum        []string
	Minimum     *int
	Maximum     *int
	// MaxLength bounds a string's length in characters.
	MaxLength *int
	// Required: the parameter must be given (and not empty).
	Required bool
}

// Handler is a route's code: it gets the decoded input (the JSON body, the
// query parameters, or NoInput) and calls resolver methods; what it returns
// goes to the route's presenter.
type Handler[In, Out any] func(ctx context.Context, req *Request, in *In) (Out, error)

// NoInput is the input of a route that reads neither a body nor query
// parameters.
type NoInput struct{}

// Op is a route being written: it needs its presenter.
type Op[In, Out any] struct {
	rt Route
	h  Handler[In, Out]
}

// route starts a route. In is NoInput, a struct of query parameters (fields
// tagged `query:"name"`), or the JSON body (fields tagged `json:"name"`);
// it is decoded and checked against its tags before h runs, and it
// documents the operation.
func route[In, Out any](method, pattern, summary string, h Handler[In, Out]) *Op[In, Out] {
	rt := Route{Method: method, Pattern: pattern, Summary: summary, Status: http.StatusOK}
	switch t := reflect.TypeFor[In](); {
	case t == reflect.TypeFor[NoInput]():
	case isQuery(t):
		rt.Params, rt.query = queryParams(t), t
	default:
		mustPlan(t)
		rt.Request = t
	}
	return &Op[In, Out]{rt: rt, h: h}
}

// Present ends the route with the presenter of what the handler returns.
func (o *Op[In, Out]) Present(p Presenter[Out]) Route {
	rt := o.rt
	doc := p.describe()
	if doc.list && !pages(rt.Params) {
		panic("rest: the list " + rt.Method + " " + rt.Pattern + " needs ListParams in its parameters")
	}
	rt.Result, rt.IsList, rt.Deleting = doc.typ, doc.list, doc.deleting
	if doc.deleting {
		rt.Status = http.StatusResetContent
	}
	h := o.h
	rt.serve = func(ctx context.Context, rt *Route, req *Request) (int, any, error) {
		in := new(In)
		if err := decodeInput(req, rt, in); err != nil {
			return 0, nil, err
		}
		out, err := h(ctx, req, in)
		if err != nil {
			return 0, nil, err
		}
		status, body, err := p.present(ctx, req, out)
		if err != nil {
			return 0, nil, err
		}
		if status == 0 {
			status = rt.Status
		}
		if status == http.StatusCreated {
			req.setLocation(body)
		}
		return status, body, nil
	}
	return rt
}

// pages reports whether parameters include page and limit.
func pages(params []Param) bool {
	n := 0
	for _, p := range params {
		if p.Name == "page" || p.Name == "limit" {
			n++
		}
	}
	return n == 2
}

// Created documents and answers 201, with a Location header.
func (r Route) Created() Route { r.Status = http.StatusCreated; return r }

// NoContent documents and answers 204 without a body: the operation was
// started.
func (r Route) NoContent() Route { r.Status = http.StatusNoContent; return r }

// OptionalBody lets the JSON body be left out: it counts as {}.
func (r Route) OptionalBody() Route { r.BodyOptional = true; return r }

// Errors documents further error statuses.
func (r Route) Errors(codes ...int) Route { r.Extra = append(r.Extra, codes...); return r }

// WithQuery documents query parameters that a route with a JSON body reads
// itself (such as format), beside its body.
func (r Route) WithQuery(params ...Param) Route {
	r.Params = append(append([]Param(nil), r.Params...), params...)
	return r
}

// AlsoAnswers documents further success statuses, with the same body.
func (r Route) AlsoAnswers(codes ...int) Route { r.Also = append(r.Also, codes...); return r }

// Deprecated marks the operation deprecated.
func (r Route) Deprecated() Route { r.Obsolete = true; return r }

// Creating marks the operation as one that creates content.
func (r Route) Creating() Route { r.CreatesContent = true; return r }

// Request is a request being served.
type Request struct {
	HTTP *http.Request
	// Header holds the response headers.
	Header   http.Header
	shareKey *string
	location string
}

// Param returns a path parameter.
func (r *Request) Param(name string) string { return r.HTTP.PathValue(name) }

// ShareKey is the share key published URLs are resolved with: the
// shareKey query parameter of routes whose parameters embed
// ShareKeyParams, nil elsewhere.
func (r *Request) ShareKey() *string { return r.shareKey }

// SetLocation gives the Location of a created object whose presented body
// does not carry it.
func (r *Request) SetLocation(url string) { r.location = url }

// located is a presented object that knows its API location.
type located interface{ apiLocation() string }

func (r *Request) setLocation(body any) {
	loc := r.location
	if l, ok := body.(located); ok && loc == "" {
		loc = l.apiLocation()
	}
	if loc != "" {
		r.Header.Set("Location", loc)
	}
}
