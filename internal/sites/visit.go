package sites

import (
	"context"
	"fmt"
	"strings"

	"quire/ent"
	"quire/ent/site"
	"quire/internal/apierr"
	"quire/internal/customization"
	"quire/internal/loaders"
)

// Address is how a reader reaches a published site: by its path under
// Quire's public URL (/s/{organization}/{basename}) or by its custom
// hostname.
type Address struct {
	Organization, Basename string
	Hostname               string
}

// Visit is what a reader may see of a published site: the site, its
// structure, and the live spaces it serves. The reader reaches these
// spaces' published content through the site alone; nothing else of the
// organization.
type Visit struct {
	Site *ent.Site
	Tree *Tree
	// ShareKey is the key the reader came with on a share-link site, nil
	// otherwise. Published URLs are built with it.
	ShareKey *string
	// Spaces are the live spaces of the site's site spaces, by space id.
	Spaces map[string]*ent.Space
	// URLs are the published URLs of the site and its items, by id.
	URLs map[string]string
	// Claims are the claims of the reader's visitor token on a
	// visitor-auth site (see VisitorKey), nil on the others.
	Claims map[string]any
	// Preview: a member's preview (see PreviewSite), not a reader's visit.
	Preview bool
}

// notFound is the answer for every site a reader may not read, whatever
// the reason, so that no reason leaks.
func notFound() error { return apierr.NotFoundf("No published site matches this address") }

// Visit opens a published site for a reader who is not (necessarily) a
// member: a site reached by its address is served when it is published,
// its organization is not blocked, and its visibility admits the reader:
// public and unlisted sites to anyone, share-link sites to a reader with
// the key of an active share link, visitor-auth sites to a reader whose
// visitor token (a JWT signed with the site's visitor key) is valid. It
// reads the site, its
// structure and its spaces in a constant number of statements whatever
// the size of the site.
// Errors: NotFound (unknown, unpublished, blocked, wrong or revoked share
// key), Unauthorized (a visitor-auth site without a verified visitor).
func (s *Service) Visit(ctx context.Context, addr Address, shareKey *string, visitorToken string) (*Visit, error) {
	st, err := s.siteAt(ctx, addr)
	if err != nil {
		return nil, err
	}
	keyed := shareKey != nil && *shareKey != ""
	if !st.Published || (keyed && st.Visibility != "share-link") {
		return nil, notFound()
	}
	l := loaders.For(ctx)
	l.Sites.SiteByID.Prime(ctx, st.ID, st)
	var org *ent.Organization
	err = together(
		func() error {
			var err error
			org, err = l.OrganizationByID.Load(ctx, st.OrganizationID)()
			return err
		},
		func() error {
			return readParts(ctx, []string{st.ID}, Want{Structure: true, Spaces: true, ShareLinks: keyed})
		},
	)
	if err != nil {
		return nil, err
	}
	if org.BlockedReason != nil {
		return nil, notFound()
	}
	v := &Visit{Site: st}
	switch st.Visibility {
	case "public", "unlisted":
	case "share-link":
		if !keyed {
			return nil, notFound()
		}
		if v.ShareKey, err = s.ResolveShareKey(ctx, st, shareKey); err != nil {
			if apierr.CodeOf(err) == apierr.NotFound {
				return nil, notFound()
			}
			return nil, err
		}
	case "visitor-auth":
		if v.Claims, err = s.visitorClaims(ctx, st.ID, visitorToken); err != nil {
			return nil, err
		}
	default:
		return nil, notFound()
	}
	if v.Tree, err = LoadTree(ctx, st); err != nil {
		return nil, err
	}
	if v.Spaces, err = liveSpaces(ctx, st, v.Tree.SiteSpaces); err != nil {
		return nil, err
	}
	v.URLs = s.URLs(ctx, v.Tree, v.ShareKey)
	return v, nil
}

// siteAt finds the site at an address: one statement. A hostname shared
// by several sites (set concurrently before either saw the other) serves
// none of them: which organization it belongs to is not known.
func (s *Service) siteAt(ctx context.Context, addr Address) (*ent.Site, error) {
	q := s.Client.Site.Query()
	switch {
	case addr.Hostname != "":
		q = q.Where(site.Hostname(strings.ToLower(addr.Hostname)))
	case addr.Organization != "" && addr.Basename != "":
		q = q.Where(site.OrganizationID(addr.Organization), site.Basename(addr.Basename))
	default:
		return nil, notFound()
	}
	rows, err := q.Limit(2).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("find site: %w", err)
	}
	if len(rows) != 1 {
		return nil, notFound()
	}
	return rows[0], nil
}

// liveSpaces returns the spaces of the site spaces that are not deleted,
// by space id, from the request's loaders (read with the structure).
func liveSpaces(ctx context.Context, st *ent.Site, sss []*ent.SiteSpace) (map[string]*ent.Space, error) {
	l := loaders.For(ctx)
	out := map[string]*ent.Space{}
	for _, ss := range sss {
		if _, ok := out[ss.SpaceID]; ok {
			continue
		}
		sp, err := l.SpaceByID.Load(ctx, ss.SpaceID)()
		if apierr.CodeOf(err) == apierr.NotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		if sp.DeletedAt != nil || sp.OrganizationID != st.OrganizationID {
			continue
		}
		out[sp.ID] = sp
	}
	return out, nil
}

// Settings returns the customization a site space shows its readers: the
// site's, with the site space's overrides, once per site space and
// request.
func (v *Visit) Settings(ctx context.Context, ss *ent.SiteSpace) (customization.Settings, error) {
	return loaders.Memo(ctx, ss.ID, "visit.settings", func() (customization.Settings, error) { return effective(v.Site, ss) })
}
