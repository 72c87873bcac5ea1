// Package connections builds the Relay connections gqlgen generates for
// every list of the schema, all of one shape, from a page of items.
package connections

import (
	"fmt"

	"quire/graph/model"
	"quire/internal/catalog"
	"quire/internal/pagination"
)

// Relay connections. gqlgen generates a connection type and an edge type
// for every list in the schema, all of one shape; Of builds any of
// them from a page, so that a list's builder is one line.
//
// Go cannot set the fields of a type parameter, but it can build a
// composite literal of one whose constraint has a struct core type. The
// two constraints below spell the generated shape field for field, tags
// included (they are part of a struct type's identity): should gqlgen
// generate another shape, the builders stop compiling rather than present a
// connection with a field left empty.

// edgeShape is the shape of a generated edge of nodes N.
type edgeShape[N any] interface {
	~struct {
		Node   N      `json:"node"`
		Cursor string `json:"cursor"`
	}
}

// connectionShape is the shape of a generated connection of nodes N with
// edges E.
type connectionShape[N, E any] interface {
	~struct {
		Edges      []*E            `json:"edges"`
		Nodes      []N             `json:"nodes"`
		PageInfo   *model.PageInfo `json:"pageInfo"`
		TotalCount int             `json:"totalCount"`
	}
}

// Of presents a page as a connection of type C: its items as
// nodes, each with its cursor as an edge. C names the connection; the edge
// and node types follow from it.
func Of[C connectionShape[N, E], E edgeShape[N], N any](p pagination.Page[N]) *C {
	edges := make([]*E, len(p.Items))
	for i, n := range p.Items {
		edges[i] = &E{Node: n, Cursor: p.Cursors[i]}
	}
	return &C{Edges: edges, Nodes: p.Items, PageInfo: PageInfo(p), TotalCount: p.TotalCount}
}

// Paginate pages items, ordered by key, with the Relay arguments (the
// catalog's limits, and its errors for a page size out of range or a
// cursor that is not one), and presents the page as a connection of type C.
func Paginate[C connectionShape[N, E], E edgeShape[N], N any](items []N, key func(N) pagination.Cursor, args catalog.PageArgs) (*C, error) {
	p, err := catalog.Paginate(items, key, args)
	if err != nil {
		return nil, err
	}
	return Of[C](p), nil
}

// PageInfo is the Relay page information of a page.
func PageInfo[T any](p pagination.Page[T]) *model.PageInfo {
	return &model.PageInfo{HasNextPage: p.HasNextPage, HasPreviousPage: p.HasPreviousPage, StartCursor: p.StartCursor, EndCursor: p.EndCursor}
}

// Pointers points at each element of items, for lists that engines return
// by value while their GraphQL nodes are pointers.
func Pointers[T any](items []T) []*T {
	out := make([]*T, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out
}

// IndexCursor orders items by their place in an already ordered list.
func IndexCursor[T any](items []T) func(T) pagination.Cursor {
	idx := make(map[any]int, len(items))
	for i, it := range items {
		idx[any(it)] = i
	}
	return func(t T) pagination.Cursor {
		return pagination.Cursor{Key: fmt.Sprintf("%08d", idx[any(t)])}
	}
}
