// Package sites holds the business rules of docs sites: their settings,
// publishing, share links, and their structure of sections, section groups
// and site spaces. Both doors reach it through the GraphQL resolvers.
package sites

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"quire/ent"
	"quire/ent/site"
	"quire/ent/sitespace"
	"quire/internal/apierr"
	"quire/internal/authz"
	"quire/internal/loaders"
	"quire/internal/types"
)

// Service implements the site operations.
type Service struct {
	Client *ent.Client
	// Spaces tells which spaces the caller may publish.
	Spaces Spaces
	Now    func() time.Time
	// PublicURL is the base of published URLs.
	PublicURL string

	// kept keeps the aggregates of the sites read (nil: none).
	kept *Kept
}

// Spaces is what the sites engine asks of the catalog, which owns who may
// see a space.
type Spaces interface {
	// Space returns a space the caller may see (deleted ones included)
	// with the caller's level on it.
	// Errors: NotFound when the caller may not see it.
	Space(ctx context.Context, id string) (*ent.Space, types.Role, error)
}

// New returns a Service that asks spaces who may see a space.
func New(client *ent.Client, spaces Spaces, publicURL string) *Service {
	return &Service{Client: client, Spaces: spaces, PublicURL: publicURL, Now: func() time.Time { return time.Now().UTC() }}
}

// Enumerations of the documented API.
var (
	Types          = []string{"basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"}
	Visibilities   = []string{"public", "unlisted", "share-link", "visitor-auth"}
	AgentsContexts = []string{"excluded", "included"}
)

var (
	hostnamePattern = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$`)
	proxyPattern    = regexp.MustCompile(`^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$`)
	basenamePattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)
)

func oneOf(field, v string, allowed []string) error {
	for _, a := range allowed {
		if a == v {
			return nil
		}
	}
	return apierr.Invalid(field, "%s must be one of %s", field, strings.Join(allowed, ", "))
}

func checkLen(field, v string, min, max int) error {
	n := utf8.RuneCountInString(v)
	if n < min || n > max {
		return apierr.Invalid(field, "%s must be between %d and %d characters long", field, min, max)
	}
	return nil
}

// Access is what the caller may do with an organization's sites.
type Access struct {
	Read, Write bool
}

// access checks the caller's organization role: members with a role may
// read sites; creators and admins may change them. Non-members get NotFound.
func access(ctx context.Context, orgID string) (Access, error) {
	role, member, err := authz.OrgRole(ctx, orgID)
	if err != nil {
		return Access{}, err
	}
	if !member || role == authz.None {
		return Access{}, apierr.NotFoundf("No matching organization found for id %q", orgID)
	}
	return Access{Read: true, Write: role.AtLeast(types.RoleCreate)}, nil
}

// Site returns a site of an organization the caller may read.
// Errors: NotFound.
func (s *Service) Site(ctx context.Context, orgID, siteID string) (*ent.Site, error) {
	if _, err := access(ctx, orgID); err != nil {
		return nil, err
	}
	st, err := loaders.For(ctx).Sites.SiteByID.Load(ctx, siteID)()
	if apierr.CodeOf(err) == apierr.NotFound || (err == nil && st.OrganizationID != orgID) {
		return nil, apierr.NotFoundf("No matching site found for id %q", siteID)
	}
	return st, err
}

// SiteByID returns a site by id alone, for node(id:).
func (s *Service) SiteByID(ctx context.Context, siteID string) (*ent.Site, error) {
	st, err := loaders.For(ctx).Sites.SiteByID.Load(ctx, siteID)()
	if err != nil {
		return nil, apierr.NotFoundf("No matching site found for id %q", siteID)
	}
	st, err = s.Site(ctx, st.OrganizationID, siteID)
	if apierr.CodeOf(err) == apierr.NotFound {
		// Not "no matching organization": that would name the site's
		// organization to a caller who may not see it.
		return nil, apierr.NotFoundf("No matching site found for id %q", siteID)
	}
	return st, err
}

// writable returns a site the caller may change.
// Errors: NotFound, Forbidden.
func (s *Service) writable(ctx context.Context, orgID, siteID string) (*ent.Site, error) {
	a, err := access(ctx, orgID)
	if err != nil {
		return nil, err
	}
	st, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	if !a.Write {
		return nil, apierr.Forbiddenf("You need the create or admin role to change sites")
	}
	return st, nil
}

// CanWrite reports whether the caller may change the organization's sites.
func CanWrite(ctx context.Context, orgID string) bool {
	a, err := access(ctx, orgID)
	return err == nil && a.Write
}

// Filter narrows a site list.
type Filter struct {
	Space     *string
	Title     *string
	Published *bool
	Types     []string
}

// Sites lists an organization's sites, oldest first.
// Errors: NotFound, BadRequest (unknown type).
func (s *Service) Sites(ctx context.Context, orgID string, f Filter) ([]*ent.Site, error) {
	if _, err := access(ctx, orgID); err != nil {
		return nil, err
	}
	for _, t := range f.Types {
		if err := oneOf("type", t, Types); err != nil {
			return nil, err
		}
	}
	q := s.Client.Site.Query().Where(site.OrganizationID(orgID))
	if f.Published != nil {
		q = q.Where(site.Published(*f.Published))
	}
	if len(f.Types) > 0 {
		q = q.Where(site.TypeIn(f.Types...))
	}
	if f.Space != nil {
		q = q.Where(site.HasSiteSpacesWith(sitespace.SpaceID(*f.Space)))
	}
	all, err := q.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list sites: %w", err)
	}
	out := all[:0]
	for _, st := range all {
		if f.Title != nil && !strings.Contains(strings.ToLower(st.Title), strings.ToLower(*f.Title)) {
			continue
		}
		out = append(out, st)
	}
	l := loaders.For(ctx)
	for _, st := range out {
		l.Sites.SiteByID.Clear(ctx, st.ID).Prime(ctx, st.ID, st)
	}
	sort.Slice(out, func(i, j int) bool { return SiteCursorLess(out[i], out[j]) })
	return out, nil
}

// SiteCursorLess orders sites by creation time, then id.
func SiteCursorLess(a, b *ent.Site) bool {
	if !a.CreatedAt.Equal(b.CreatedAt) {
		return a.CreatedAt.Before(b.CreatedAt)
	}
	return a.ID < b.ID
}
