package sites

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"quire/ent"
	"quire/ent/sitesharelink"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/loaders"
)

// ShareLinks lists a site's share links, oldest first.
// Errors: NotFound, Forbidden (share links are secrets: readers may not list them).
func (s *Service) ShareLinks(ctx context.Context, orgID, siteID string) ([]*ent.SiteShareLink, error) {
	st, err := s.writable(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	links, err := s.Client.SiteShareLink.Query().Where(sitesharelink.SiteID(st.ID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list share links: %w", err)
	}
	sort.Slice(links, func(i, j int) bool {
		if !links[i].CreatedAt.Equal(links[j].CreatedAt) {
			return links[i].CreatedAt.Before(links[j].CreatedAt)
		}
		return links[i].ID < links[j].ID
	})
	return links, nil
}

// CreateShareLink creates an active share link with a fresh secret key.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) CreateShareLink(ctx context.Context, orgID, siteID, name string) (*ent.SiteShareLink, error) {
	if err := checkLen("name", name, 0, ShareLinkNameMax); err != nil {
		return nil, err
	}
	st, err := s.writable(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	var l *ent.SiteShareLink
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		var err error
		l, err = tx.SiteShareLink.Create().SetSiteID(st.ID).SetName(name).SetKey(newKey()).Save(ctx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("create share link: %w", err)
	}
	forgetShareLinks(ctx, st.ID)
	return l, nil
}

// ShareLinkUpdate patches a share link.
type ShareLinkUpdate struct {
	Name   catalog.Opt[string]
	Active catalog.Opt[bool]
}

// UpdateShareLink patches a share link.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) UpdateShareLink(ctx context.Context, orgID, siteID, id string, in ShareLinkUpdate) (*ent.SiteShareLink, error) {
	if !in.Name.Set && !in.Active.Set {
		return nil, apierr.Invalid("body", "Provide name and/or active")
	}
	if in.Name.Set {
		if err := checkLen("name", in.Name.Value, 0, ShareLinkNameMax); err != nil {
			return nil, err
		}
	}
	l, err := s.shareLink(ctx, orgID, siteID, id)
	if err != nil {
		return nil, err
	}
	var out *ent.SiteShareLink
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		u := tx.SiteShareLink.UpdateOneID(l.ID)
		if in.Name.Set {
			u.SetName(in.Name.Value)
		}
		if in.Active.Set {
			u.SetActive(in.Active.Value)
		}
		var err error
		out, err = u.Save(ctx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("update share link: %w", err)
	}
	forgetShareLinks(ctx, l.SiteID)
	return out, nil
}

// DeleteShareLink deletes a share link; false when it did not exist.
// Errors: Forbidden.
func (s *Service) DeleteShareLink(ctx context.Context, orgID, siteID, id string) (bool, error) {
	l, err := s.shareLink(ctx, orgID, siteID, id)
	if apierr.CodeOf(err) == apierr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		return tx.SiteShareLink.DeleteOneID(l.ID).Exec(ctx)
	}); err != nil {
		return false, fmt.Errorf("delete share link: %w", err)
	}
	forgetShareLinks(ctx, l.SiteID)
	return true, nil
}

// forgetShareLinks drops the request's cached share links of a site.
func forgetShareLinks(ctx context.Context, siteID string) {
	if l := loaders.For(ctx); l != nil {
		l.Sites.ShareLinksBySite.Clear(ctx, siteID)
	}
}

func (s *Service) shareLink(ctx context.Context, orgID, siteID, id string) (*ent.SiteShareLink, error) {
	st, err := s.writable(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	l, err := s.Client.SiteShareLink.Get(ctx, id)
	if ent.IsNotFound(err) || (err == nil && l.SiteID != st.ID) {
		return nil, apierr.NotFoundf("No matching share link found for id %q", id)
	}
	if err != nil {
		return nil, fmt.Errorf("load share link: %w", err)
	}
	return l, nil
}

// ResolveShareKey checks a shareKey against a site. On a share-link site a
// key that matches no active link is NotFound; the returned key (nil when
// none was given or the site is not shared by link) is the one to build
// published URLs with.
func (s *Service) ResolveShareKey(ctx context.Context, st *ent.Site, key *string) (*string, error) {
	if st.Visibility != "share-link" || key == nil || strings.TrimSpace(*key) == "" {
		return nil, nil
	}
	var ok bool
	if l := loaders.For(ctx); l != nil {
		// Once per site and request, however many URLs are presented.
		links, err := l.Sites.ShareLinksBySite.Load(ctx, st.ID)()
		if err != nil {
			return nil, fmt.Errorf("check share key: %w", err)
		}
		for _, sl := range links {
			ok = ok || (sl.Active && sl.Key == *key)
		}
	} else {
		var err error
		ok, err = s.Client.SiteShareLink.Query().Where(sitesharelink.SiteID(st.ID), sitesharelink.Key(*key), sitesharelink.Active(true)).Exist(ctx)
		if err != nil {
			return nil, fmt.Errorf("check share key: %w", err)
		}
	}
	if !ok {
		return nil, apierr.NotFoundf("No matching site found for id %q", st.ID)
	}
	return key, nil
}
