package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"

	"quire/graph/model"
	"quire/internal/types"
)

// Presenter turns what a handler returned into the response: a status (0
// for the route's own) and a body in the documented shape. Its Go types
// document the response.
type Presenter[T any] interface {
	present(ctx context.Context, req *Request, v T) (int, any, error)
	describe() result
}

// result documents a response body.
type result struct {
	typ      reflect.Type // nil: no body
	list     bool         // typ is the item of a list envelope
	deleting bool
}

// Kind presents one type of object T in its documented shape J, alone or
// as a page of a list. Presenting a list first warms the page: one call
// loads, in a few statements, what presenting each item then reads from
// the request's caches, so that the statements a list costs do not grow
// with its items whatever route presents it.
type Kind[T, J any] struct {
	one  func(ctx context.Context, req *Request, v T) (J, error)
	warm func(ctx context.Context, items []T) error
	// warmOne warms single objects too, for kinds that carry lists of
	// their own (a section carries its site spaces).
	warmOne bool
}

// presents makes a Kind of a presenting function.
func presents[T, J any](one func(ctx context.Context, v T) (J, error)) *Kind[T, J] {
	return &Kind[T, J]{one: func(ctx context.Context, _ *Request, v T) (J, error) { return one(ctx, v) }}
}

// presentsKeyed makes a Kind of a presenting function that resolves
// published URLs with the request's share key.
func presentsKeyed[T, J any](one func(key *string) func(ctx context.Context, v T) (J, error)) *Kind[T, J] {
	return &Kind[T, J]{one: func(ctx context.Context, req *Request, v T) (J, error) { return one(req.ShareKey())(ctx, v) }}
}

// warming sets how a page of objects is warmed.
func (k *Kind[T, J]) warming(warm func(ctx context.Context, items []T) error) *Kind[T, J] {
	c := *k
	c.warm = warm
	return &c
}

// alsoOne warms single objects as well as pages.
func (k *Kind[T, J]) alsoOne() *Kind[T, J] {
	c := *k
	c.warmOne = true
	return &c
}

func (k *Kind[T, J]) present(ctx context.Context, req *Request, v T) (int, any, error) {
	if k.warm != nil && k.warmOne {
		if err := k.warm(ctx, []T{v}); err != nil {
			return 0, nil, err
		}
	}
	j, err := k.one(ctx, req, v)
	return 0, j, err
}

func (k *Kind[T, J]) describe() result { return result{typ: reflect.TypeFor[J]()} }

// List presents a page of objects in the list envelope.
func (k *Kind[T, J]) List() Presenter[*ListPage[T]] { return listOf[T, J]{k} }

// ListPage is one page of a list, as a resolver method gave it.
type ListPage[T any] struct {
	Items []T
	Total int
	// Next is the token of the following page; nil on the last one.
	Next *string
}

// pageOf makes a ListPage of a resolver connection's parts.
func pageOf[T any](items []T, total int, info *model.PageInfo) *ListPage[T] {
	p := &ListPage[T]{Items: items, Total: total}
	if info != nil && info.HasNextPage {
		p.Next = info.EndCursor
	}
	return p
}

type listOf[T, J any] struct{ k *Kind[T, J] }

func (l listOf[T, J]) present(ctx context.Context, req *Request, p *ListPage[T]) (int, any, error) {
	if l.k.warm != nil && len(p.Items) > 0 {
		if err := l.k.warm(ctx, p.Items); err != nil {
			return 0, nil, err
		}
	}
	items := make([]J, 0, len(p.Items))
	for _, it := range p.Items {
		j, err := l.k.one(ctx, req, it)
		if err != nil {
			return 0, nil, err
		}
		items = append(items, j)
	}
	return 0, envelope(items, p.Total, p.Next), nil
}

func (l listOf[T, J]) describe() result { return result{typ: reflect.TypeFor[J](), list: true} }

// list is the documented list envelope.
type list[T any] struct {
	Next  *nextPage `json:"next,omitempty"`
	Count int       `json:"count"`
	Items []T       `json:"items"`
}

type nextPage struct {
	Page string `json:"page"`
}

func envelope[T any](items []T, total int, next *string) list[T] {
	l := list[T]{Count: total, Items: items}
	if l.Items == nil {
		l.Items = []T{}
	}
	if next != nil {
		l.Next = &nextPage{Page: *next}
	}
	return l
}

// presentsList is a presenter of lists whose items are presented together
// (they share loads that a Kind cannot see, such as a link report's
// locations).
func presentsList[T, J any](f func(ctx context.Context, req *Request, v T) (list[J], error)) Presenter[T] {
	return listFunc[T, J](f)
}

type listFunc[T, J any] func(ctx context.Context, req *Request, v T) (list[J], error)

func (f listFunc[T, J]) present(ctx context.Context, req *Request, v T) (int, any, error) {
	l, err := f(ctx, req, v)
	return 0, l, err
}

func (f listFunc[T, J]) describe() result { return result{typ: reflect.TypeFor[J](), list: true} }

// deletion answers 205 when the object was deleted, 204 when it did not
// exist.
type deletion struct{}

func (deletion) present(_ context.Context, _ *Request, p *model.DeletePayload) (int, any, error) {
	if p.Deleted {
		return http.StatusResetContent, nil, nil
	}
	return http.StatusNoContent, nil, nil
}

func (deletion) describe() result { return result{deleting: true} }

// deleted is the presenter of deletes.
var deleted Presenter[*model.DeletePayload] = deletion{}

// rawAs presents JSON an engine wrote in the documented shape D.
func rawAs[D any]() Presenter[types.JSON] { return rawPresenter[D]{} }

type rawPresenter[D any] struct{}

func (rawPresenter[D]) present(_ context.Context, _ *Request, v types.JSON) (int, any, error) {
	return 0, json.RawMessage(v), nil
}

func (rawPresenter[D]) describe() result { return result{typ: reflect.TypeFor[D]()} }

// nothing answers without a body.
func nothing[T any]() Presenter[T] { return emptyPresenter[T]{} }

type emptyPresenter[T any] struct{}

func (emptyPresenter[T]) present(context.Context, *Request, T) (int, any, error) { return 0, nil, nil }
func (emptyPresenter[T]) describe() result                                       { return result{} }

// asIs presents values that are in their documented shape already.
func asIs[J any]() *Kind[J, J] {
	return presents(func(_ context.Context, v J) (J, error) { return v, nil })
}
