package graph

import (
	"context"
	"quire/graph/connections"

	"github.com/99designs/gqlgen/graphql"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/catalog"
)

// pageArgs gathers Relay arguments.
func pageArgs(first *int, after *string, last *int, before *string) catalog.PageArgs {
	return catalog.PageArgs{First: first, After: after, Last: last, Before: before}
}

func spaceConnection(items []*ent.Space, args catalog.PageArgs) (*model.SpaceConnection, error) {
	return connections.Paginate[model.SpaceConnection](items, catalog.SpaceCursor, args)
}

func collectionConnection(items []*ent.Collection, args catalog.PageArgs) (*model.CollectionConnection, error) {
	return connections.Paginate[model.CollectionConnection](items, catalog.CollectionCursor, args)
}

func organizationConnection(items []*ent.Organization, args catalog.PageArgs) (*model.OrganizationConnection, error) {
	return connections.Paginate[model.OrganizationConnection](items, catalog.OrganizationCursor, args)
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
