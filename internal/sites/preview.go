package sites

import (
	"context"

	"quire/ent"
)

// Previews show organization members what readers would see, before it
// is published: a site as it stands (published or not), or a single
// space at one of its revisions (its current content, a change request's
// or an older revision). They are built from objects the caller was
// already allowed to read; the reader door serves them only to signed-in
// members, never cached by others nor indexed.

// PreviewSite opens a site for a member, whatever its visibility and
// whether it is published, with its URLs under base (the preview's own
// address) instead of its published ones.
func (s *Service) PreviewSite(ctx context.Context, st *ent.Site, base string) (*Visit, error) {
	v := &Visit{Site: st, Preview: true}
	var err error
	if v.Tree, err = LoadTree(ctx, st); err != nil {
		return nil, err
	}
	if v.Spaces, err = liveSpaces(ctx, st, v.Tree.SiteSpaces); err != nil {
		return nil, err
	}
	v.URLs = URLsUnder(base, v.Tree)
	return v, nil
}

// PreviewSpace is a visit of one space alone, at one of its revisions,
// framed as a site with that single site space (default settings) at base.
// sp is the space as its member may read it; revisionID is the revision
// shown ("" for the space's current one).
func PreviewSpace(sp *ent.Space, revisionID, base string) *Visit {
	shown := *sp
	if revisionID != "" {
		shown.RevisionID = revisionID
	}
	id := "preview-" + sp.ID
	st := &ent.Site{ID: id, OrganizationID: sp.OrganizationID, Title: sp.Title, Basename: sp.ID,
		Visibility: "members", DefaultSiteSpaceID: &id}
	ss := &ent.SiteSpace{ID: id, SiteID: id, SpaceID: sp.ID, Path: sp.ID}
	t := &Tree{Site: st, SiteSpaces: []*ent.SiteSpace{ss}, Root: []Item{{SiteSpace: ss}}}
	return &Visit{Site: st, Tree: t, Preview: true, Spaces: map[string]*ent.Space{sp.ID: &shown}, URLs: URLsUnder(base, t)}
}
