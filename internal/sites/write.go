package sites

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	"quire/ent"
	"quire/ent/site"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/loaders"
)

// The writes of a site itself: create, update, delete, publish.

// CreateInput creates a site.
type CreateInput struct {
	Organization string
	Type         *string
	Title        *string
	Visibility   *string
	Spaces       []string
}

// CreateSite creates a site, adding the given spaces as site spaces.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) CreateSite(ctx context.Context, in CreateInput) (*ent.Site, error) {
	a, err := access(ctx, in.Organization)
	if err != nil {
		return nil, err
	}
	if !a.Write {
		return nil, apierr.Forbiddenf("You need the create or admin role to create sites")
	}
	typ, vis, title := "basic", "public", "Docs site"
	if in.Type != nil {
		if err := oneOf("type", *in.Type, Types); err != nil {
			return nil, err
		}
		typ = *in.Type
	}
	if in.Visibility != nil {
		if err := oneOf("visibility", *in.Visibility, Visibilities); err != nil {
			return nil, err
		}
		vis = *in.Visibility
	}
	if in.Title != nil {
		if err := checkLen("title", *in.Title, TitleMin, TitleMax); err != nil {
			return nil, err
		}
		title = *in.Title
	}
	spaces, err := s.spacesFor(ctx, in.Organization, "spaces", in.Spaces)
	if err != nil {
		return nil, err
	}
	var id string
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		base, err := uniqueBasename(ctx, tx.Client(), in.Organization, slugify(title, "site"), "")
		if err != nil {
			return err
		}
		st, err := tx.Site.Create().SetOrganizationID(in.Organization).SetType(typ).SetTitle(title).
			SetVisibility(vis).SetBasename(base).Save(ctx)
		if err != nil {
			return fmt.Errorf("create site: %w", err)
		}
		id = st.ID
		for _, sp := range spaces {
			if _, err := addSiteSpace(ctx, tx, st, nil, sp, "spaces"); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.reload(ctx, id)
}

// spacesFor resolves space ids the caller may read in the organization.
func (s *Service) spacesFor(ctx context.Context, orgID, field string, ids []string) ([]*ent.Space, error) {
	out := make([]*ent.Space, 0, len(ids))
	for _, id := range ids {
		sp, _, err := s.Spaces.Space(ctx, id)
		if apierr.CodeOf(err) == apierr.NotFound || (err == nil && (sp.OrganizationID != orgID || sp.DeletedAt != nil)) {
			return nil, apierr.Invalid(field, "%s: no matching space found for id %q", field, id)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	return out, nil
}

func (s *Service) reload(ctx context.Context, id string) (*ent.Site, error) {
	st, err := s.Client.Site.Get(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("reload site: %w", err)
	}
	l := loaders.For(ctx)
	l.ForgetSite(ctx, id)
	l.Sites.SiteByID.Prime(ctx, id, st)
	return st, nil
}

// UpdateInput patches a site; unset fields stay unchanged.
type UpdateInput struct {
	Title              catalog.Opt[string]
	Visibility         catalog.Opt[string]
	Basename           catalog.Opt[string]
	AdaptiveContent    catalog.Opt[bool]
	AgentsContext      catalog.Opt[string]
	DefaultSiteSpace   catalog.Opt[string]
	DefaultSiteSection catalog.Opt[string]
	Proxy              catalog.Opt[*string]
	Hostname           catalog.Opt[*string]
}

// UpdateSite patches a site.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) UpdateSite(ctx context.Context, orgID, siteID string, in UpdateInput) (*ent.Site, error) {
	if in.Title.Set {
		if err := checkLen("title", in.Title.Value, TitleMin, TitleMax); err != nil {
			return nil, err
		}
	}
	if in.Visibility.Set {
		if err := oneOf("visibility", in.Visibility.Value, Visibilities); err != nil {
			return nil, err
		}
	}
	if in.AgentsContext.Set {
		if err := oneOf("agentsContext", in.AgentsContext.Value, AgentsContexts); err != nil {
			return nil, err
		}
	}
	if in.Basename.Set {
		if err := checkLen("basename", in.Basename.Value, 1, BasenameMax); err != nil {
			return nil, err
		}
		if !basenamePattern.MatchString(in.Basename.Value) {
			return nil, apierr.Invalid("basename", "basename may hold only lowercase letters, digits and single dashes")
		}
	}
	if in.Proxy.Set && in.Proxy.Value != nil && !proxyPattern.MatchString(*in.Proxy.Value) {
		return nil, apierr.Invalid("proxy", "proxy must be a domain followed by a path, such as example.com/docs")
	}
	if in.Hostname.Set && in.Hostname.Value != nil && !hostnamePattern.MatchString(*in.Hostname.Value) {
		return nil, apierr.Invalid("hostname", "hostname must be a lowercase domain name such as docs.example.com")
	}
	st, err := s.writable(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		u := tx.Site.UpdateOneID(st.ID)
		if in.Title.Set {
			u.SetTitle(in.Title.Value)
		}
		if in.Visibility.Set {
			u.SetVisibility(in.Visibility.Value)
		}
		if in.Basename.Set {
			if _, err := uniqueBasename(ctx, tx.Client(), st.OrganizationID, in.Basename.Value, st.ID); err != nil {
				return err
			}
			u.SetBasename(in.Basename.Value)
		}
		if in.AdaptiveContent.Set {
			u.SetAdaptiveContent(in.AdaptiveContent.Value)
		}
		if in.AgentsContext.Set {
			u.SetAgentsContext(in.AgentsContext.Value)
		}
		if in.Proxy.Set {
			if in.Proxy.Value == nil {
				u.ClearProxy()
			} else {
				u.SetProxy(*in.Proxy.Value)
			}
		}
		if in.Hostname.Set {
			if in.Hostname.Value == nil {
				u.ClearHostname()
			} else {
				// A hostname selects the site its readers are served: it
				// belongs to one site of one organization.
				taken, err := tx.Site.Query().Where(site.Hostname(*in.Hostname.Value), site.IDNEQ(st.ID)).Exist(ctx)
				if err != nil {
					return fmt.Errorf("check hostname: %w", err)
				}
				if taken {
					return apierr.Invalid("hostname", "hostname %q is already used by another site", *in.Hostname.Value)
				}
				u.SetHostname(*in.Hostname.Value)
			}
		}
		if in.DefaultSiteSection.Set {
			sec, err := tx.SiteSection.Get(ctx, in.DefaultSiteSection.Value)
			if err != nil || sec.SiteID != st.ID {
				return apierr.Invalid("defaultSiteSection", "defaultSiteSection: no matching section in this site")
			}
			u.SetDefaultSectionID(sec.ID)
		}
		if _, err := u.Save(ctx); err != nil {
			return fmt.Errorf("update site: %w", err)
		}
		if in.DefaultSiteSpace.Set {
			ss, err := tx.SiteSpace.Get(ctx, in.DefaultSiteSpace.Value)
			if err != nil || ss.SiteID != st.ID {
				return apierr.Invalid("defaultSiteSpace", "defaultSiteSpace: no matching site space in this site")
			}
			fresh, err := tx.Site.Get(ctx, st.ID)
			if err != nil {
				return err
			}
			return setDefaultSiteSpace(ctx, tx, fresh, ss)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.reload(ctx, st.ID)
}

// setDefaultSiteSpace makes ss the default of where it lives: the site root,
// or its section.
func setDefaultSiteSpace(ctx context.Context, tx *ent.Tx, st *ent.Site, ss *ent.SiteSpace) error {
	if ss.SectionID == nil {
		return tx.Site.UpdateOneID(st.ID).SetDefaultSiteSpaceID(ss.ID).Exec(ctx)
	}
	return tx.SiteSection.UpdateOneID(*ss.SectionID).SetDefaultSiteSpaceID(ss.ID).Exec(ctx)
}

// DeleteSite deletes a site with its sections, groups, site spaces and share
// links (never the spaces). It reports false when the site did not exist.
// Errors: Forbidden.
func (s *Service) DeleteSite(ctx context.Context, orgID, siteID string) (bool, error) {
	st, err := s.writable(ctx, orgID, siteID)
	if apierr.CodeOf(err) == apierr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		return deleteSiteRows(ctx, tx, st.ID)
	})
	if err != nil {
		return false, err
	}
	loaders.For(ctx).ForgetSite(ctx, st.ID)
	return true, nil
}

// SetPublished publishes or unpublishes a site.
// Errors: NotFound, Forbidden.
func (s *Service) SetPublished(ctx context.Context, orgID, siteID string, published bool) (*ent.Site, error) {
	st, err := s.writable(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	if err := catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		return tx.Site.UpdateOneID(st.ID).SetPublished(published).Exec(ctx)
	}); err != nil {
		return nil, fmt.Errorf("publish site: %w", err)
	}
	return s.reload(ctx, st.ID)
}

// slugify turns a title into a path segment.
func slugify(title, fallback string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		default:
			if b.Len() > 0 && !dash {
				b.WriteByte('-')
				dash = true
			}
		}
	}
	out := strings.Trim(b.String(), "-")
	if len(out) > 90 {
		out = strings.Trim(out[:90], "-")
	}
	if out == "" {
		return fallback
	}
	return out
}

// uniqueBasename checks or derives a basename unique within the organization.
func uniqueBasename(ctx context.Context, c *ent.Client, orgID, want, self string) (string, error) {
	taken, err := c.Site.Query().Where(site.OrganizationID(orgID), site.IDNEQ(self)).Select(site.FieldBasename).Strings(ctx)
	if err != nil {
		return "", fmt.Errorf("list basenames: %w", err)
	}
	used := map[string]bool{}
	for _, t := range taken {
		used[t] = true
	}
	if self != "" {
		if used[want] {
			return "", apierr.Invalid("basename", "basename %q is already used by another site", want)
		}
		return want, nil
	}
	return uniqueIn(want, used), nil
}

func uniqueIn(want string, used map[string]bool) string {
	if !used[want] {
		return want
	}
	for i := 2; ; i++ {
		c := fmt.Sprintf("%s-%d", want, i)
		if !used[c] {
			return c
		}
	}
}

func newKey() string {
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		panic("sites: system randomness unavailable: " + err.Error())
	}
	return hex.EncodeToString(b)
}
