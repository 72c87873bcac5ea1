package graph

import (
	"context"
	"strings"

	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/authz"
	"quire/internal/ids"
	"quire/internal/loaders"
	"quire/internal/types"
)

// node resolves any id the caller may see; others are NotFound.
func (r *Resolver) node(ctx context.Context, id string) (types.Node, error) {
	kind, ok := ids.KindOf(id)
	if !ok {
		return nil, apierr.NotFoundf("No object found for id %q", id)
	}
	switch kind {
	case ids.Organization:
		return r.Catalog.Organization(ctx, id)
	case ids.Collection:
		c, _, err := r.Catalog.Collection(ctx, id)
		return c, err
	case ids.Space:
		s, _, err := r.Catalog.Space(ctx, id)
		return s, err
	case ids.Revision:
		return r.revisionFor(ctx, id)
	case ids.ChangeRequest:
		cr, _, err := r.changeRequestFor(ctx, id, types.RoleRead)
		return cr, err
	case ids.User:
		// Users are visible to themselves and to members of an
		// organization they share.
		u, err := loaders.For(ctx).UserByID.Load(ctx, id)()
		if err != nil {
			return nil, apierr.NotFoundf("No object found for id %q", id)
		}
		if ok, err := authz.CanSeeUser(ctx, u.ID); err != nil {
			return nil, err
		} else if ok {
			return u, nil
		}
	}
	return nil, apierr.NotFoundf("No object found for id %q", id)
}

// nodes resolves many ids at once; hidden or unknown ids give null.
func (r *Resolver) nodes(ctx context.Context, list []string) ([]types.Node, error) {
	if len(list) > 100 {
		return nil, apierr.Invalid("ids", "ids may hold at most 100 ids")
	}
	l := loaders.For(ctx)
	// Queue every load before waiting, so that they batch.
	for _, id := range list {
		switch kind, _ := ids.KindOf(id); kind {
		case ids.Space:
			l.SpaceByID.Load(ctx, id)
		case ids.Collection:
			l.CollectionByID.Load(ctx, id)
		case ids.Organization:
			l.OrganizationByID.Load(ctx, id)
		}
	}
	out := make([]types.Node, len(list))
	for i, id := range list {
		n, err := r.node(ctx, id)
		if err != nil {
			if apierr.CodeOf(err) == apierr.NotFound {
				continue
			}
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// apiURL is the REST location of an object.
func (r *Resolver) apiURL(parts ...string) string {
	return r.PublicURL + "/v1/" + strings.Join(parts, "/")
}

// appURL is where an object lives in the web application.
func (r *Resolver) appURL(parts ...string) string {
	return r.PublicURL + "/app/" + strings.Join(parts, "/")
}

func mergeRules(in *model.MergeRulesInput) types.MergeRules {
	out := types.MergeRules{Type: in.Type}
	rules, _ := in.Rules.ValueOK()
	for _, r := range rules {
		if r == nil {
			continue
		}
		users, _ := r.Users.ValueOK()
		out.Rules = append(out.Rules, types.MergeRule{Rule: r.Rule, Users: users, Expression: value(r.Expression)})
	}
	return out
}
