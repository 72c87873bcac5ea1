package graph

import (
	"context"

	"quire/ent"
	"quire/graph/leaf"
	"quire/graph/model"
	"quire/internal/content"
)

// What published sites make of spaces and revisions: their published and
// public URLs, and whether readers sign in to see them.

// spaceUrls are a space's URLs, with the published ones when a published
// site serves it.
func (r *Resolver) spaceUrls(ctx context.Context, sp *ent.Space) (*leaf.SpaceUrls, error) {
	pub, err := r.Sites.PublicationOf(ctx, sp)
	if err != nil {
		return nil, err
	}
	return &leaf.SpaceUrls{
		Location:  r.apiURL("spaces", sp.ID),
		App:       r.appURL("o", sp.OrganizationID, "s", sp.ID),
		Published: optString(pub.Published),
		Public:    optString(pub.Public),
		Icon:      sp.Icon,
	}, nil
}

// spaceVisitorAuth is how readers of a space's published content sign in:
// through the site's own backend when a visitor-auth site serves it.
func (r *Resolver) spaceVisitorAuth(ctx context.Context, sp *ent.Space) (*model.VisitorAuth, error) {
	pub, err := r.Sites.PublicationOf(ctx, sp)
	if err != nil || !pub.VisitorAuth {
		return nil, err
	}
	return &model.VisitorAuth{Backend: "custom"}, nil
}

// revisionUrls are a revision's URLs. A published site serves a space's
// current revision only, so only that revision has published URLs: the
// space's.
func (r *Resolver) revisionUrls(ctx context.Context, rev *content.Revision, sp *ent.Space) (*model.RevisionUrls, error) {
	out := &model.RevisionUrls{App: r.appURL("o", sp.OrganizationID, "s", rev.Space, "~", "revisions", rev.ID)}
	if sp.RevisionID != rev.ID {
		return out, nil
	}
	pub, err := r.Sites.PublicationOf(ctx, sp)
	if err != nil {
		return nil, err
	}
	out.Published, out.Public = optString(pub.Published), optString(pub.Public)
	return out, nil
}

// ReadSpacePublications reads, for a page of spaces about to be presented
// one after the other, which published sites serve them: presenting each
// then reads the request's caches.
func (r *Resolver) ReadSpacePublications(ctx context.Context, spaces []*ent.Space) error {
	ids := make([]string, len(spaces))
	for i, sp := range spaces {
		ids[i] = sp.ID
	}
	return r.Sites.ReadPublications(ctx, ids)
}

// ReadPublicationsOf is ReadSpacePublications by the spaces' ids.
func (r *Resolver) ReadPublicationsOf(ctx context.Context, spaceIDs []string) error {
	return r.Sites.ReadPublications(ctx, spaceIDs)
}
