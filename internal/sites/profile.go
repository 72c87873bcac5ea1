package sites

import (
	"context"

	"quire/ent"
	"quire/internal/authz"
	"quire/internal/loaders"
)

// Profile is everything a published site shows: the site, its structure
// with the spaces it publishes, its customizations and its scripts.
type Profile struct {
	Site  *ent.Site
	Tree  *Tree
	Space map[string]*ent.Space
	// URLs are the published URLs by object id.
	URLs map[string]string
	// CustomizationJSON is the JSON of the site's settings; SiteSpacesJSON
	// is a JSON object mapping each site space id to the settings it shows.
	// Both are compact and shared: callers must not change them.
	CustomizationJSON []byte
	SiteSpacesJSON    []byte
}

// Published reads a site's published profile: a fixed number of SQL
// statements (site, sections, groups, site spaces, spaces, and the
// collections above them), whatever the size of the site.
// Errors: NotFound (also for a wrong share key on a share-link site).
func (s *Service) Published(ctx context.Context, orgID, siteID string, shareKey *string) (*Profile, error) {
	st, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	key, err := s.ResolveShareKey(ctx, st, shareKey)
	if err != nil {
		return nil, err
	}
	PrefetchTree(ctx, st.ID)
	t, err := LoadTree(ctx, st)
	if err != nil {
		return nil, err
	}
	spaces, err := LoadSpaces(ctx, t.SiteSpaces)
	if err != nil {
		return nil, err
	}
	p := &Profile{Site: st, Tree: t, Space: spaces, URLs: s.URLs(ctx, t, key)}
	if p.CustomizationJSON, err = siteSettingsJSON(st); err != nil {
		return nil, err
	}
	if p.SiteSpacesJSON, err = siteSpacesSettingsJSON(ctx, st, t.SiteSpaces); err != nil {
		return nil, err
	}
	return p, nil
}

// LoadSpaces loads the spaces of site spaces in one batch, and warms the
// collections above them so that computing permissions waits on nothing.
func LoadSpaces(ctx context.Context, sss []*ent.SiteSpace) (map[string]*ent.Space, error) {
	l := loaders.For(ctx)
	ids := make([]string, 0, len(sss))
	seen := map[string]bool{}
	for _, ss := range sss {
		if !seen[ss.SpaceID] {
			seen[ss.SpaceID] = true
			ids = append(ids, ss.SpaceID)
		}
	}
	out := make(map[string]*ent.Space, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	// Fetched now: every caller has the whole set of keys, so waiting for
	// the batch window would gain nothing.
	rows, errs := l.SpaceByID.Fetch(ctx, ids)
	var list []*ent.Space
	for i, sp := range rows {
		if errs != nil && errs[i] != nil {
			continue
		}
		out[ids[i]] = sp
		list = append(list, sp)
	}
	if err := authz.WarmSpaces(ctx, list); err != nil {
		return nil, err
	}
	return out, nil
}

// PrefetchTree loads the structure of one site (sections, groups and site
// spaces, in one statement) without waiting for the batch window, for
// callers that know this site is the only one they present. A level that
// fails to load is left to LoadTree, which reports it.
func PrefetchTree(ctx context.Context, siteID string) {
	l := loaders.For(ctx)
	if l == nil {
		return
	}
	l.Sites.FetchStructures(ctx, []string{siteID})
}
