package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/catalog"
	"quire/internal/pagination"
)

// pageArgs gathers Relay arguments.
func pageArgs(first *int, after *string, last *int, before *string) catalog.PageArgs {
	return catalog.PageArgs{First: first, After: after, Last: last, Before: before}
}

func pageInfo[T any](p pagination.Page[T]) *model.PageInfo {
	return &model.PageInfo{HasNextPage: p.HasNextPage, HasPreviousPage: p.HasPreviousPage, StartCursor: p.StartCursor, EndCursor: p.EndCursor}
}

func spaceConnection(items []*ent.Space, args catalog.PageArgs) (*model.SpaceConnection, error) {
	p, err := catalog.Paginate(items, catalog.SpaceCursor, args)
	if err != nil {
		return nil, err
	}
	c := &model.SpaceConnection{Nodes: p.Items, PageInfo: pageInfo(p), TotalCount: p.TotalCount, Edges: make([]*model.SpaceEdge, len(p.Items))}
	for i, n := range p.Items {
		c.Edges[i] = &model.SpaceEdge{Node: n, Cursor: p.Cursors[i]}
	}
	return c, nil
}

func collectionConnection(items []*ent.Collection, args catalog.PageArgs) (*model.CollectionConnection, error) {
	p, err := catalog.Paginate(items, catalog.CollectionCursor, args)
	if err != nil {
		return nil, err
	}
	c := &model.CollectionConnection{Nodes: p.Items, PageInfo: pageInfo(p), TotalCount: p.TotalCount, Edges: make([]*model.CollectionEdge, len(p.Items))}
	for i, n := range p.Items {
		c.Edges[i] = &model.CollectionEdge{Node: n, Cursor: p.Cursors[i]}
	}
	return c, nil
}

func organizationConnection(items []*ent.Organization, args catalog.PageArgs) (*model.OrganizationConnection, error) {
	p, err := catalog.Paginate(items, catalog.OrganizationCursor, args)
	if err != nil {
		return nil, err
	}
	c := &model.OrganizationConnection{Nodes: p.Items, PageInfo: pageInfo(p), TotalCount: p.TotalCount, Edges: make([]*model.OrganizationEdge, len(p.Items))}
	for i, n := range p.Items {
		c.Edges[i] = &model.OrganizationEdge{Node: n, Cursor: p.Cursors[i]}
	}
	return c, nil
}

func memberConnection(items []*ent.Member, args catalog.PageArgs) (*model.MemberConnection, error) {
	p, err := catalog.Paginate(items, catalog.MemberCursor, args)
	if err != nil {
		return nil, err
	}
	c := &model.MemberConnection{Nodes: p.Items, PageInfo: pageInfo(p), TotalCount: p.TotalCount, Edges: make([]*model.MemberEdge, len(p.Items))}
	for i, n := range p.Items {
		c.Edges[i] = &model.MemberEdge{Node: n, Cursor: p.Cursors[i]}
	}
	return c, nil
}

// opt turns a GraphQL omittable input into a catalog option.
func opt[T any](o graphql.Omittable[T]) catalog.Opt[T] {
	v, set := o.ValueOK()
	if !set {
		return catalog.Opt[T]{}
	}
	return catalog.Some(v)
}

// value returns the value of an omittable nullable input, nil when unset.
func value[T any](o graphql.Omittable[*T]) *T {
	v, _ := o.ValueOK()
	return v
}

// required turns an omittable nullable input whose null is not allowed into
// an option of the plain value; a null counts as a validation error.
func required[T any](o graphql.Omittable[*T], field string) (catalog.Opt[T], error) {
	v, set := o.ValueOK()
	if !set {
		return catalog.Opt[T]{}, nil
	}
	if v == nil {
		return catalog.Opt[T]{}, invalidNull(field)
	}
	return catalog.Some(*v), nil
}

func position(p graphql.Omittable[*model.ContentPositionInput]) (*catalog.Position, error) {
	in := value(p)
	if in == nil {
		return nil, nil
	}
	out := &catalog.Position{}
	conv := func(field string, ptr *model.ContentPointerInput) (*catalog.Pointer, error) {
		if ptr == nil {
			return nil, nil
		}
		id := value(ptr.Space)
		if ptr.Type == model.ContentPointerTypeCollection {
			id = value(ptr.Collection)
		}
		if id == nil || *id == "" {
			return nil, invalidPointer(field, string(ptr.Type))
		}
		return &catalog.Pointer{Type: string(ptr.Type), ID: *id}, nil
	}
	var err error
	if out.Before, err = conv("before", value(in.Before)); err != nil {
		return nil, err
	}
	if out.After, err = conv("after", value(in.After)); err != nil {
		return nil, err
	}
	return out, nil
}

func moveInput(in model.MoveInput) (catalog.MoveInput, error) {
	pos, err := position(in.Position)
	if err != nil {
		return catalog.MoveInput{}, err
	}
	return catalog.MoveInput{Parent: opt(in.Parent), Position: pos}, nil
}

// viewerOnly keeps a field to the viewer's own user object.
func isViewer(ctx context.Context, u *ent.User) bool {
	v := viewerFrom(ctx)
	return v != nil && v.ID == u.ID
}
