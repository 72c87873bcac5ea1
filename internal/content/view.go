package content

import (
	"context"
	"fmt"

	"quire/ent"
	"quire/internal/catalog"
	"quire/internal/loaders"
	"quire/internal/pagination"
)

// ViewChangeRequests reads a page of change requests that the caller has
// listed, in their order, with what every reader shows of each: their
// spaces, creators and contributors, a kind at a time for the whole page.
// Errors: BadRequest (page arguments).
func ViewChangeRequests(ctx context.Context, items []*ent.ChangeRequest, args catalog.PageArgs) (pagination.Page[*ent.ChangeRequest], error) {
	at := make(map[*ent.ChangeRequest]int, len(items))
	for i, cr := range items {
		at[cr] = i
	}
	p, err := catalog.Paginate(items, func(cr *ent.ChangeRequest) pagination.Cursor {
		return pagination.Cursor{Key: fmt.Sprintf("%08d", at[cr])}
	}, args)
	if err != nil {
		return p, err
	}
	l := loaders.For(ctx)
	if l == nil || len(p.Items) == 0 {
		return p, nil
	}
	var spaces, users []string
	for _, cr := range p.Items {
		spaces = append(spaces, cr.SpaceID)
		users = append(users, cr.CreatedBy)
		users = append(users, cr.Contributors...)
	}
	l.SpaceByID.Ask(ctx, spaces)
	l.UserByID.Ask(ctx, users)
	return p, nil
}
