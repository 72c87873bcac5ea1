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

// PublishedWant is what a site's published profile reads of its
// aggregate (with the share links when a share key is given).
func PublishedWant(shareKey *string) Want {
	return Want{Structure: true, Spaces: true, Collections: true, ShareLinks: shareKey != nil}
}

// Published reads a site's published profile through View: one round
// trip to the database (site, structure with share links, spaces, and the
// collections above them, at the same time), whatever the size of the
// site, and none when the caller viewed the site with PublishedWant.
// Errors: NotFound (also for a wrong share key on a share-link site).
func (s *Service) Published(ctx context.Context, orgID, siteID string, shareKey *string) (*Profile, error) {
	st, err := s.ViewIn(ctx, orgID, siteID, PublishedWant(shareKey))
	if err != nil {
		return nil, err
	}
	key, err := s.ResolveShareKey(ctx, st, shareKey)
	if err != nil {
		return nil, err
	}
	t, err := LoadTree(ctx, st)
	if err != nil {
		return nil, err
	}
	spaces, err := loadSpaces(ctx, t.SiteSpaces)
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

// loadSpaces returns the spaces of site spaces, in one batch, with the
// collections above them (read already when viewed with Collections).
func loadSpaces(ctx context.Context, sss []*ent.SiteSpace) (map[string]*ent.Space, error) {
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
