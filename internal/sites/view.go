package sites

import (
	"context"
	"sync"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/loaders"
)

// Want names the parts of a site's aggregate that a caller is about to
// read. A door says what it will present (GraphQL from the selection set,
// REST and the reader literally); the engine decides the statements.
type Want struct {
	// Structure is the site's sections, section groups and site spaces.
	Structure bool
	// Spaces are the spaces its site spaces publish.
	Spaces bool
	// Collections are every collection above those spaces, which their
	// permissions and parents read.
	Collections bool
	// Organizations are the organizations of those spaces.
	Organizations bool
	// ShareLinks are the site's share links, which check a share key. They
	// are read only with the structure, in its statement: alone they would
	// cost a statement that a site not shared by link never needs, and
	// checking a key loads them on demand.
	ShareLinks bool
}

// Names of the parts, as the request's loaders remember them per site.
const (
	partStructure     = "view.structure"
	partShareLinks    = "view.shareLinks"
	partSpaces        = "view.spaces"
	partCollections   = "view.collections"
	partOrganizations = "view.organizations"
)

// View returns a site the caller may read, by its id alone (Errors: as
// SiteByID), having read, at the same time as the site, what want names
// of its aggregate into the request's loaders, so that the fields
// presented next read the request's caches: one round trip to the
// database whatever the size of the site (the organizations of the spaces,
// when wanted and not read with the caller, take one more), and none when
// the engine kept the aggregate since the last change (see Kept). What was read
// stays in this request's loaders and is reached only through the site,
// once the caller may see it.
func (s *Service) View(ctx context.Context, siteID string, want Want) (*ent.Site, error) {
	l := loaders.For(ctx)
	gen, keep := s.primeKept(ctx, siteID, want)
	err := together(
		func() error { _, err := l.ViewerMemberships(ctx); return err },
		// Its error shows in SiteByID below.
		func() error { l.Sites.SiteByID.Fetch(ctx, []string{siteID}); return nil },
		func() error { return readParts(ctx, []string{siteID}, want) },
	)
	st, serr := s.SiteByID(ctx, siteID)
	if serr != nil {
		return nil, serr
	}
	if err != nil {
		return nil, err
	}
	if keep {
		s.keepRead(ctx, siteID, want, gen)
	}
	if want.Spaces {
		s.viewSites(ctx, []string{siteID})
	}
	if want.Organizations {
		if err := readOrganizations(ctx, []*ent.Site{st}); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// ViewIn is View for a site of a given organization.
// Errors: NotFound (also for a site of another organization).
func (s *Service) ViewIn(ctx context.Context, orgID, siteID string, want Want) (*ent.Site, error) {
	if _, err := access(ctx, orgID); err != nil {
		return nil, err
	}
	st, err := s.View(ctx, siteID, want)
	if err != nil {
		return nil, err
	}
	if st.OrganizationID != orgID {
		return nil, apierr.NotFoundf("No matching site found for id %q", siteID)
	}
	return st, nil
}

// ViewSites reads what want names of the aggregates of sites the caller
// was given (a page of a list), for all of them at once: a statement per
// part, the parts at the same time.
func (s *Service) ViewSites(ctx context.Context, list []*ent.Site, want Want) error {
	if len(list) == 0 {
		return nil
	}
	l := loaders.For(ctx)
	ids := make([]string, len(list))
	for i, st := range list {
		ids[i] = st.ID
		l.Sites.SiteByID.Prime(ctx, st.ID, st)
	}
	if err := readParts(ctx, ids, want); err != nil {
		return err
	}
	if want.Spaces {
		s.viewSites(ctx, ids)
	}
	if want.Organizations {
		return readOrganizations(ctx, list)
	}
	return nil
}

// readParts reads, at the same time, the parts of the aggregates of the
// sites that want names and that the request has not read yet: a
// statement per part whatever the number of sites. The site spaces'
// spaces and the collections above them are found through the sites' ids,
// so no part waits for another.
func readParts(ctx context.Context, ids []string, want Want) error {
	l := loaders.For(ctx).Sites
	type part struct {
		name string
		read func(ids []string) error
		// also names a part that read reads too.
		also string
	}
	var parts []part
	if want.Structure || want.Spaces || want.Collections {
		links := want.ShareLinks
		p := part{name: partStructure, read: func(ids []string) error { return l.FetchStructures(ctx, ids, links) }}
		if links {
			p.also = partShareLinks
		}
		parts = append(parts, p)
	}
	if want.Spaces || want.Collections {
		parts = append(parts, part{name: partSpaces, read: func(ids []string) error { return loaders.For(ctx).FetchSpacesOfSites(ctx, ids) }})
	}
	if want.Collections {
		parts = append(parts, part{name: partCollections, read: func(ids []string) error {
			return loaders.For(ctx).FetchCollectionsAboveSites(ctx, ids)
		}})
	}
	loads := make([]func() error, 0, len(parts))
	for _, p := range parts {
		if len(ids) == 1 {
			// One site: concurrent callers (sibling resolvers) wait for
			// the one read.
			id := ids[0]
			if p.also != "" && l.Done(id, p.name) && !l.Done(id, p.also) {
				// The structure was read without the share links: they
				// are left to be loaded on demand.
				continue
			}
			loads = append(loads, func() error {
				return l.Once(id, p.name, func() error {
					err := p.read(ids)
					if err == nil && p.also != "" {
						l.Once(id, p.also, func() error { return nil }) //nolint:errcheck // returns nil
					}
					return err
				})
			})
			continue
		}
		var missing []string
		for _, id := range ids {
			if !l.Done(id, p.name) {
				missing = append(missing, id)
			}
		}
		if len(missing) == 0 {
			continue
		}
		loads = append(loads, func() error {
			if err := p.read(missing); err != nil {
				return err
			}
			for _, id := range missing {
				for _, name := range []string{p.name, p.also} {
					if name != "" {
						l.Once(id, name, func() error { return nil }) //nolint:errcheck // returns nil
					}
				}
			}
			return nil
		})
	}
	return together(loads...)
}

// readOrganizations loads the organizations of the sites' spaces (the
// sites' own, which the caller's token usually brought already), once per
// site and request.
func readOrganizations(ctx context.Context, list []*ent.Site) error {
	l := loaders.For(ctx).Sites
	if len(list) == 1 {
		return l.Once(list[0].ID, partOrganizations, func() error { return organizationsOf(ctx, list) })
	}
	var missing []*ent.Site
	for _, st := range list {
		if !l.Done(st.ID, partOrganizations) {
			missing = append(missing, st)
		}
	}
	if err := organizationsOf(ctx, missing); err != nil {
		return err
	}
	for _, st := range missing {
		l.Once(st.ID, partOrganizations, func() error { return nil }) //nolint:errcheck // returns nil
	}
	return nil
}

func organizationsOf(ctx context.Context, list []*ent.Site) error {
	l := loaders.For(ctx)
	var ids []string
	seen := map[string]bool{}
	for _, st := range list {
		sss, err := l.Sites.SiteSpacesBySite.Load(ctx, st.ID)()
		if err != nil {
			return err
		}
		for _, ss := range sss {
			sp, err := l.SpaceByID.Load(ctx, ss.SpaceID)()
			if err == nil && !seen[sp.OrganizationID] {
				seen[sp.OrganizationID] = true
				ids = append(ids, sp.OrganizationID)
			}
		}
	}
	_, errs := l.OrganizationByID.Fetch(ctx, ids)
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// SpaceOfSiteSpace returns the space of a site space, having read, once
// per site and request, what want names of the site's aggregate (at least
// the spaces of all its site spaces): sibling site spaces, resolved
// concurrently, wait for that one read instead of each joining whichever
// batch window it reaches.
func (s *Service) SpaceOfSiteSpace(ctx context.Context, ss *ent.SiteSpace, want Want) (*ent.Space, error) {
	want.Spaces = true
	l := loaders.For(ctx)
	if err := readParts(ctx, []string{ss.SiteID}, want); err != nil {
		return nil, err
	}
	if want.Organizations {
		st, err := l.Sites.SiteByID.Load(ctx, ss.SiteID)()
		if err != nil {
			return nil, err
		}
		if err := readOrganizations(ctx, []*ent.Site{st}); err != nil {
			return nil, err
		}
	}
	return l.SpaceByID.Load(ctx, ss.SpaceID)()
}

// together runs the loads at the same time (the last one in this
// goroutine) and returns the first error, in the order given.
func together(loads ...func() error) error {
	if len(loads) == 0 {
		return nil
	}
	errs := make([]error, len(loads))
	var wg sync.WaitGroup
	for i, load := range loads[:len(loads)-1] {
		wg.Go(func() { errs[i] = load() })
	}
	errs[len(loads)-1] = loads[len(loads)-1]()
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
