package sites

import (
	"context"
	"strings"

	"quire/ent"
	"quire/internal/loaders"
)

// URLs returns the published URLs of a site's objects (see
// [PublishedURLs]), computed once per site, share key and request: every
// item of a site presents its URL, and the map covers them all. The map is
// shared; callers must not change it.
func (s *Service) URLs(ctx context.Context, t *Tree, shareKey *string) map[string]string {
	key := "urls"
	if shareKey != nil {
		key += ":" + *shareKey
	}
	m, _ := loaders.Memo(ctx, t.Site.ID, key, func() (map[string]string, error) {
		return PublishedURLs(s.PublicURL, t, shareKey), nil
	})
	return m
}

// PublishedURLs maps the ids of a site, its sections and its site spaces to
// their published URLs. It is empty while the site is unpublished, and for a
// share-link site unless a valid share key is given.
func PublishedURLs(publicURL string, t *Tree, shareKey *string) map[string]string {
	out := map[string]string{}
	st := t.Site
	if !st.Published || (st.Visibility == "share-link" && shareKey == nil) {
		return out
	}
	base := SiteBaseURL(publicURL, st)
	if shareKey != nil {
		base += "/~share/" + *shareKey
	}
	return URLsUnder(base, t)
}

// URLsUnder maps the ids of a site, its sections and its site spaces to
// their URLs below base, the site's root.
func URLsUnder(base string, t *Tree) map[string]string {
	out := map[string]string{}
	st := t.Site
	out[st.ID] = base
	child := func(parent, path string, isDefault bool) string {
		if isDefault {
			return parent
		}
		return parent + "/" + path
	}
	if !t.HasSections() {
		for _, ss := range SpacesOf(t.SiteSpaces, nil) {
			out[ss.ID] = child(base, ss.Path, isID(st.DefaultSiteSpaceID, ss.ID))
		}
		return out
	}
	for _, sec := range t.Sections {
		secURL := child(base, sec.Path, isID(st.DefaultSectionID, sec.ID))
		out[sec.ID] = secURL
		id := sec.ID
		for _, ss := range SpacesOf(t.SiteSpaces, &id) {
			out[ss.ID] = child(secURL, ss.Path, isID(sec.DefaultSiteSpaceID, ss.ID))
		}
	}
	return out
}

// SiteBaseURL is where a site is published: its custom hostname, else a path
// under Quire's public URL.
func SiteBaseURL(publicURL string, st *ent.Site) string {
	if st.Hostname != nil {
		return "https://" + *st.Hostname
	}
	return strings.TrimRight(publicURL, "/") + "/s/" + st.OrganizationID + "/" + st.Basename
}

func isID(p *string, id string) bool { return p != nil && *p == id }
