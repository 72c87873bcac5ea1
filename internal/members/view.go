package members

import (
	"context"
	"fmt"

	"quire/ent"
	"quire/internal/catalog"
	"quire/internal/loaders"
	"quire/internal/pagination"
)

// Want says what a reader shows of each member it reads. What decides
// their levels (their spaces and teams counts) is read once per request
// and organization whatever the number of members, so it needs no word
// here.
type Want struct {
	// Users: each member's user.
	Users bool
}

// Everything is every part of members: what the REST door presents.
var Everything = Want{Users: true}

// ViewMembers reads a page of an organization's members, filtered and
// ordered as Members does, with what w asks of each, a kind at a time for
// the whole page.
// Errors: NotFound, Forbidden, BadRequest (filter, page arguments).
func (s *Service) ViewMembers(ctx context.Context, orgID string, f Filter, args catalog.PageArgs, w Want) (pagination.Page[*ent.Member], error) {
	items, key, err := s.Members(ctx, orgID, f)
	if err != nil {
		return pagination.Page[*ent.Member]{}, err
	}
	p, err := catalog.Paginate(items, key, args)
	if err != nil {
		return p, err
	}
	prepare(ctx, p.Items, w)
	return p, nil
}

// ViewTeamMembers reads a page of a team's members, in the order they
// joined it, with what w asks of each.
// Errors: NotFound, BadRequest (page arguments).
func (s *Service) ViewTeamMembers(ctx context.Context, orgID, teamID string, args catalog.PageArgs, w Want) (pagination.Page[*TeamMembership], error) {
	items, err := s.TeamMembers(ctx, orgID, teamID)
	if err != nil {
		return pagination.Page[*TeamMembership]{}, err
	}
	ptrs := make([]*TeamMembership, len(items))
	at := make(map[*TeamMembership]int, len(items))
	for i := range items {
		ptrs[i] = &items[i]
		at[ptrs[i]] = i
	}
	p, err := catalog.Paginate(ptrs, func(tm *TeamMembership) pagination.Cursor {
		return pagination.Cursor{Key: fmt.Sprintf("%08d", at[tm])}
	}, args)
	if err != nil {
		return p, err
	}
	ms := make([]*ent.Member, len(p.Items))
	for i, tm := range p.Items {
		ms[i] = tm.Member
	}
	prepare(ctx, ms, w)
	return p, nil
}

// prepare reads what w asks of a page of members into the request's
// caches.
func prepare(ctx context.Context, ms []*ent.Member, w Want) {
	l := loaders.For(ctx)
	if l == nil || !w.Users {
		return
	}
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.UserID
	}
	l.UserByID.Ask(ctx, ids)
}
