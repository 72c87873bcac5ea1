package connections

import (
	"fmt"
	"reflect"
	"testing"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/pagination"
)

// spaces makes n spaces in list order.
func spaces(n int) []*ent.Space {
	out := make([]*ent.Space, n)
	for i := range out {
		out[i] = &ent.Space{ID: fmt.Sprintf("sp%02d", i), Position: fmt.Sprintf("p%02d", i)}
	}
	return out
}

// literalSpaceConnection is how each builder presented a page before
// connectionOf, field by field: connectionOf must present the same.
func literalSpaceConnection(p pagination.Page[*ent.Space]) *model.SpaceConnection {
	c := &model.SpaceConnection{Nodes: p.Items, PageInfo: PageInfo(p), TotalCount: p.TotalCount, Edges: make([]*model.SpaceEdge, len(p.Items))}
	for i, n := range p.Items {
		c.Edges[i] = &model.SpaceEdge{Node: n, Cursor: p.Cursors[i]}
	}
	return c
}

func TestConnectionPages(t *testing.T) {
	items := spaces(5)
	cursor := func(i int) *string {
		s := pagination.Encode(catalog.SpaceCursor(items[i]))
		return &s
	}
	n := func(v int) *int { return &v }
	empty := ""
	tests := []struct {
		name       string
		args       catalog.PageArgs
		want       []string
		prev, next bool
	}{
		{"no arguments", catalog.PageArgs{}, []string{"sp00", "sp01", "sp02", "sp03", "sp04"}, false, false},
		{"first", catalog.PageArgs{First: n(2)}, []string{"sp00", "sp01"}, false, true},
		{"first after", catalog.PageArgs{First: n(2), After: cursor(1)}, []string{"sp02", "sp03"}, true, true},
		{"after the last", catalog.PageArgs{After: cursor(4)}, []string{}, true, false},
		{"empty after is absent", catalog.PageArgs{First: n(1), After: &empty}, []string{"sp00"}, false, true},
		{"last", catalog.PageArgs{Last: n(2)}, []string{"sp03", "sp04"}, true, false},
		{"last before", catalog.PageArgs{Last: n(2), Before: cursor(3)}, []string{"sp01", "sp02"}, true, true},
		{"before the first", catalog.PageArgs{Before: cursor(0)}, []string{}, false, true},
		{"after and before", catalog.PageArgs{After: cursor(0), Before: cursor(4)}, []string{"sp01", "sp02", "sp03"}, true, true},
		{"first zero", catalog.PageArgs{First: n(0)}, []string{}, false, true},
		{"first beyond the end", catalog.PageArgs{First: n(catalog.MaxLimit)}, []string{"sp00", "sp01", "sp02", "sp03", "sp04"}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Paginate[model.SpaceConnection](items, catalog.SpaceCursor, tt.args)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]string, len(c.Nodes))
			for i, sp := range c.Nodes {
				got[i] = sp.ID
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("nodes %v, want %v", got, tt.want)
			}
			if c.TotalCount != len(items) {
				t.Errorf("totalCount %d, want %d", c.TotalCount, len(items))
			}
			if c.PageInfo.HasPreviousPage != tt.prev || c.PageInfo.HasNextPage != tt.next {
				t.Errorf("previous/next %v/%v, want %v/%v", c.PageInfo.HasPreviousPage, c.PageInfo.HasNextPage, tt.prev, tt.next)
			}
			if c.Nodes == nil || c.Edges == nil {
				t.Errorf("nil nodes or edges: %v %v (an empty page lists [])", c.Nodes, c.Edges)
			}
			for i, e := range c.Edges {
				if e.Node != c.Nodes[i] || e.Cursor != pagination.Encode(catalog.SpaceCursor(e.Node)) {
					t.Errorf("edge %d: %s %q does not match its node", i, e.Node.ID, e.Cursor)
				}
			}
			if len(c.Edges) == 0 {
				if c.PageInfo.StartCursor != nil || c.PageInfo.EndCursor != nil {
					t.Errorf("cursors of an empty page: %v %v", c.PageInfo.StartCursor, c.PageInfo.EndCursor)
				}
			} else if *c.PageInfo.StartCursor != c.Edges[0].Cursor || *c.PageInfo.EndCursor != c.Edges[len(c.Edges)-1].Cursor {
				t.Errorf("start/end cursors %q %q are not the first and last edges'", *c.PageInfo.StartCursor, *c.PageInfo.EndCursor)
			}

			p, err := catalog.Paginate(items, catalog.SpaceCursor, tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if want := literalSpaceConnection(p); !reflect.DeepEqual(c, want) {
				t.Errorf("connection %+v, want %+v", c, want)
			}
		})
	}
}

func TestConnectionErrors(t *testing.T) {
	items := spaces(3)
	n := func(v int) *int { return &v }
	bad := "not a cursor"
	tests := []struct {
		name, field, message string
		args                 catalog.PageArgs
	}{
		{"bad after", "after", `invalid cursor in "after"`, catalog.PageArgs{After: &bad}},
		{"bad before", "before", `invalid cursor in "before"`, catalog.PageArgs{Before: &bad}},
		{"negative first", "first", fmt.Sprintf("first must be between 0 and %d", catalog.MaxLimit), catalog.PageArgs{First: n(-1)}},
		{"first too large", "first", fmt.Sprintf("first must be between 0 and %d", catalog.MaxLimit), catalog.PageArgs{First: n(catalog.MaxLimit + 1)}},
		{"last too large", "last", fmt.Sprintf("last must be between 0 and %d", catalog.MaxLimit), catalog.PageArgs{Last: n(catalog.MaxLimit + 1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Paginate[model.SpaceConnection](items, catalog.SpaceCursor, tt.args)
			if c != nil {
				t.Errorf("connection %+v with an error", c)
			}
			e, ok := apierr.As(err)
			if !ok || e.Code != apierr.BadRequest || e.Field != tt.field || e.Message != tt.message {
				t.Fatalf("error %#v, want BadRequest on %s: %s", err, tt.field, tt.message)
			}
		})
	}
}

// The lists that engines return by value page over pointers to their
// elements, which stay the engine's own (no copies).
func TestConnectionOfValues(t *testing.T) {
	items := []catalogReach{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	ptrs := Pointers(items)
	for i := range items {
		if ptrs[i] != &items[i] {
			t.Fatalf("pointer %d is not to the element", i)
		}
	}
	one := 1
	c, err := Paginate[valueConnection](ptrs, IndexCursor(ptrs), catalog.PageArgs{First: &one, After: nil})
	if err != nil {
		t.Fatal(err)
	}
	after := c.PageInfo.EndCursor
	c, err = Paginate[valueConnection](ptrs, IndexCursor(ptrs), catalog.PageArgs{First: &one, After: after})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Nodes) != 1 || c.Nodes[0] != &items[1] || c.Edges[0].Node != &items[1] {
		t.Errorf("second page %+v, want b", c.Nodes)
	}
}

// catalogReach and valueConnection stand for an engine's value type and
// a generated connection of it: connectionOf accepts any type of the
// generated shape.
type catalogReach struct{ ID string }

type valueEdge struct {
	Node   *catalogReach `json:"node"`
	Cursor string        `json:"cursor"`
}

type valueConnection struct {
	Edges      []*valueEdge    `json:"edges"`
	Nodes      []*catalogReach `json:"nodes"`
	PageInfo   *model.PageInfo `json:"pageInfo"`
	TotalCount int             `json:"totalCount"`
}
