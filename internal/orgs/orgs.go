// Package orgs holds the rules of an organization's settings and of joining
// it: updating the organization (admins), the organizations a verified
// email domain may join, joining by email domain or through an invite
// link, the invite links themselves, and the instructions given to AI
// agents. Both doors call it through the GraphQL resolvers.
package orgs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	entsql "entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"

	"quire/ent"
	"quire/ent/member"
	"quire/ent/organization"
	"quire/ent/samlprovider"
	"quire/ent/site"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/authz"
	"quire/internal/catalog"
	"quire/internal/db"
	"quire/internal/loaders"
	"quire/internal/types"
)

// Limits of an organization's settings.
const (
	MaxEmailDomains = 50
	MaxLogoURL      = 2048
	// TitleMin and TitleMax bound an organization's title, in characters.
	TitleMin = 2
	TitleMax = 255
	// HostnameMin and HostnameMax bound an organization's hostname.
	HostnameMin = 3
	HostnameMax = 32
)

// Service implements the organization operations.
type Service struct {
	Client *ent.Client
	// Now returns the current time; tests may replace it.
	Now func() time.Time
	// Providers tells whether an organization has an active SAML provider
	// (the SSO engine); without one single sign-on cannot be enforced.
	Providers ActiveProviders
}

// ActiveProviders tells whether an organization has an identity provider
// its members can sign in through.
type ActiveProviders interface {
	HasActiveProvider(ctx context.Context, c *ent.Client, orgID string) (bool, error)
}

// New returns a Service over client.
func New(client *ent.Client, p ActiveProviders) *Service {
	return &Service{Client: client, Now: func() time.Time { return time.Now().UTC() }, Providers: p}
}

func notFoundOrg(id string) error {
	return apierr.NotFoundf("No matching organization found for id %q", id)
}

// requireAdmin checks that the caller administers the organization.
func requireAdmin(ctx context.Context, orgID string) error {
	role, isMember, err := authz.OrgRole(ctx, orgID)
	if err != nil {
		return err
	}
	if !isMember {
		return notFoundOrg(orgID)
	}
	if role != types.RoleAdmin {
		return apierr.Forbiddenf("You need admin rights in this organization")
	}
	return nil
}

// Update patches an organization; unset fields stay unchanged. Nullable
// ones (hostname, defaultRole, defaultContent, logo) are removed by a nil
// value.
type Update struct {
	Title        catalog.Opt[string]
	EmailDomains catalog.Opt[[]string]
	Hostname     catalog.Opt[*string]
	DefaultRole  catalog.Opt[*types.Role]
	// DefaultSite is the site of defaultContent ({type: site, site}).
	DefaultSite catalog.Opt[*string]
	Logo        catalog.Opt[*string]
	SSO         catalog.Opt[bool]
	AI          catalog.Opt[bool]
	InviteLinks catalog.Opt[bool]
	MergeRules  catalog.Opt[types.MergeRules]
}

var (
	domainPattern   = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$`)
	hostnamePattern = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`)
)

// NormalizeDomain returns an email domain in lower case, and whether it is
// a domain name at all.
func NormalizeDomain(d string) (string, bool) {
	d = strings.ToLower(strings.TrimSpace(d))
	return d, len(d) <= 253 && domainPattern.MatchString(d)
}

// CheckTitle reports whether title may be an organization's title: 2 to
// 255 characters. Every door that names an organization calls it (the
// API's updates, the command line's bootstrap).
// Errors: BadRequest (field title).
func CheckTitle(title string) error {
	if n := utf8.RuneCountInString(title); n < TitleMin || n > TitleMax {
		return apierr.Invalid("title", "title must be between %d and %d characters long", TitleMin, TitleMax)
	}
	return nil
}

func (u *Update) validate() error {
	if u.Title.Set {
		if err := CheckTitle(u.Title.Value); err != nil {
			return err
		}
	}
	if u.EmailDomains.Set {
		if len(u.EmailDomains.Value) > MaxEmailDomains {
			return apierr.Invalid("emailDomains", "emailDomains: must have at most %d items", MaxEmailDomains)
		}
		seen := map[string]bool{}
		var out []string
		for i, d := range u.EmailDomains.Value {
			n, ok := NormalizeDomain(d)
			if !ok {
				return apierr.Invalid(fmt.Sprintf("emailDomains[%d]", i), "emailDomains[%d]: %q is not a domain name", i, d)
			}
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
		if out == nil {
			out = []string{}
		}
		u.EmailDomains.Value = out
	}
	if h := u.Hostname.Value; u.Hostname.Set && h != nil {
		if n := utf8.RuneCountInString(*h); n < HostnameMin || n > HostnameMax {
			return apierr.Invalid("hostname", "hostname must be between %d and %d characters long", HostnameMin, HostnameMax)
		}
		if !hostnamePattern.MatchString(*h) {
			return apierr.Invalid("hostname", "hostname must be lower-case letters, digits and inner hyphens")
		}
	}
	if r := u.DefaultRole.Value; u.DefaultRole.Set && r != nil && !r.Valid() {
		return apierr.Invalid("defaultRole", "defaultRole must be one of %s, or null for guests", strings.Join(types.Roles, ", "))
	}
	if l := u.Logo.Value; u.Logo.Set && l != nil {
		if err := checkURL("logo", *l, MaxLogoURL); err != nil {
			return err
		}
	}
	if u.MergeRules.Set {
		if err := catalog.ValidateMergeRules(u.MergeRules.Value, false); err != nil {
			return err
		}
	}
	return nil
}

// checkURL checks an absolute http(s) URL.
func checkURL(field, v string, max int) error {
	if utf8.RuneCountInString(v) > max {
		return apierr.Invalid(field, "%s must be at most %d characters long", field, max)
	}
	p, err := url.Parse(v)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return apierr.Invalid(field, "%s must be an http or https URL", field)
	}
	return nil
}

// UpdateOrganization patches an organization. Enforcing single sign-on
// needs an active SAML provider; the default content must be a site of the
// organization; a hostname is the organization's alone.
// Errors: NotFound, Forbidden, BadRequest, Conflict (hostname).
func (s *Service) UpdateOrganization(ctx context.Context, id string, in Update) (*ent.Organization, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	if err := requireAdmin(ctx, id); err != nil {
		return nil, err
	}
	var out *ent.Organization
	err := db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		c := tx.Client()
		if st := in.DefaultSite.Value; in.DefaultSite.Set && st != nil {
			n, err := c.Site.Query().Where(site.ID(*st), site.OrganizationID(id)).Count(ctx)
			if err != nil {
				return fmt.Errorf("read site: %w", err)
			}
			if n == 0 {
				return apierr.Invalid("defaultContent.site", "defaultContent.site: no matching site found for id %q in this organization", *st)
			}
		}
		if h := in.Hostname.Value; in.Hostname.Set && h != nil {
			n, err := c.Organization.Query().Where(organization.Hostname(*h), organization.IDNEQ(id)).Count(ctx)
			if err != nil {
				return fmt.Errorf("read hostnames: %w", err)
			}
			if n > 0 {
				return apierr.New(apierr.Conflict, "The hostname %q is used by another organization", *h)
			}
		}
		if in.SSO.Set && in.SSO.Value {
			ok, err := s.Providers.HasActiveProvider(ctx, c, id)
			if err != nil {
				return err
			}
			if !ok {
				return apierr.Invalid("sso", "sso: single sign-on cannot be enforced before a SAML provider of the organization is fully configured (status active)")
			}
		}
		u := c.Organization.UpdateOneID(id)
		if in.Title.Set {
			u.SetTitle(in.Title.Value)
		}
		if in.EmailDomains.Set {
			u.SetEmailDomains(in.EmailDomains.Value)
		}
		if in.Hostname.Set {
			u.SetNillableHostname(in.Hostname.Value)
			if in.Hostname.Value == nil {
				u.ClearHostname()
			}
		}
		if in.DefaultRole.Set {
			u.SetNillableDefaultRole(in.DefaultRole.Value)
			if in.DefaultRole.Value == nil {
				u.ClearDefaultRole()
			}
		}
		if in.DefaultSite.Set {
			u.SetNillableDefaultContentSiteID(in.DefaultSite.Value)
			if in.DefaultSite.Value == nil {
				u.ClearDefaultContentSiteID()
			}
		}
		if in.Logo.Set {
			u.SetNillableLogoURL(in.Logo.Value)
			if in.Logo.Value == nil {
				u.ClearLogoURL()
			}
		}
		if in.SSO.Set {
			u.SetSSO(in.SSO.Value)
		}
		if in.AI.Set {
			u.SetAi(in.AI.Value)
		}
		if in.InviteLinks.Set {
			u.SetInviteLinks(in.InviteLinks.Value)
		}
		if in.MergeRules.Set {
			u.SetMergeRules(in.MergeRules.Value)
		}
		var err error
		out, err = u.Save(ctx)
		if err != nil {
			return fmt.Errorf("update organization: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	loaders.For(ctx).PrimeOrganization(ctx, out)
	return out, nil
}

// DefaultSite returns the site of an organization's default content, or
// nil when it has none or the site is gone.
func DefaultSite(ctx context.Context, o *ent.Organization) (*string, error) {
	if o.DefaultContentSiteID == nil {
		return nil, nil
	}
	st, err := loaders.For(ctx).Sites.SiteByID.Load(ctx, *o.DefaultContentSiteID)()
	if apierr.CodeOf(err) == apierr.NotFound || (err == nil && st.OrganizationID != o.ID) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &st.ID, nil
}

// HasActiveProvider is the SSO engine's question, answered from the
// database directly for engines that hold no SSO engine (tests).
func HasActiveProvider(ctx context.Context, c *ent.Client, orgID string) (bool, error) {
	n, err := c.SAMLProvider.Query().Where(samlprovider.OrganizationID(orgID), samlprovider.EntityIDNEQ(""),
		samlprovider.SSOURLNEQ(""), samlprovider.CertificateNEQ("")).Count(ctx)
	if err != nil {
		return false, fmt.Errorf("read SAML providers: %w", err)
	}
	return n > 0, nil
}

// checkScope refuses to join another organization with a token limited to
// one (issued by that one's single sign-on).
func checkScope(ctx context.Context, orgID string) error {
	if s := auth.Scope(ctx); s != "" && s != orgID {
		return apierr.Forbiddenf("This token is limited to the organization %q, which signed you in: it cannot join others", s)
	}
	return nil
}

// emailDomain returns the domain of an email address, in lower case.
func emailDomain(email string) string {
	i := strings.LastIndexByte(email, '@')
	if i < 0 {
		return ""
	}
	return strings.ToLower(email[i+1:])
}

// discoverable reports whether an organization admits users of a domain.
func discoverable(o *ent.Organization, domain string) bool {
	for _, d := range o.EmailDomains {
		if d == domain {
			return true
		}
	}
	return false
}

// ForEmailDomain lists the organizations of an email domain that the caller
// may see: those they belong to, and those their verified email address
// lets them join. Others are left out, so that the answer tells nothing of
// organizations the caller may not join.
// Errors: BadRequest (not a domain name).
func (s *Service) ForEmailDomain(ctx context.Context, domain string) ([]*ent.Organization, error) {
	d, ok := NormalizeDomain(domain)
	if !ok {
		return nil, apierr.Invalid("emailDomain", "emailDomain %q is not a domain name", domain)
	}
	v := auth.Viewer(ctx)
	if v == nil {
		return []*ent.Organization{}, nil
	}
	ms, err := loaders.For(ctx).ViewerMemberships(ctx)
	if err != nil {
		return nil, err
	}
	mine := v.EmailVerifiedAt != nil && emailDomain(v.Email) == d
	all, err := s.Client.Organization.Query().Where(func(sel *entsql.Selector) {
		sel.Where(sqljson.ValueContains(sel.C(organization.FieldEmailDomains), d))
	}).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list organizations: %w", err)
	}
	out := []*ent.Organization{}
	for _, o := range all {
		if !discoverable(o, d) {
			continue
		}
		if m, ok := ms[o.ID]; (ok && !m.Disabled) || (!ok && mine) {
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return catalog.OrganizationCursor(out[i]).Compare(catalog.OrganizationCursor(out[j])) < 0
	})
	return out, nil
}

// Join makes the caller a member of an organization that admits their
// verified email address's domain, with its default role (nil: a guest).
// An active member is left as they are.
// Errors: NotFound (the organization does not exist), BadRequest (the
// organization does not admit the caller's email domain, or the caller's
// email address is not verified), Forbidden (a disabled member).
func (s *Service) Join(ctx context.Context, orgID string) error {
	v := auth.Viewer(ctx)
	if v == nil {
		return apierr.New(apierr.Unauthorized, "Authentication required")
	}
	if err := checkScope(ctx, orgID); err != nil {
		return err
	}
	ms, err := loaders.For(ctx).ViewerMemberships(ctx)
	if err != nil {
		return err
	}
	if m, ok := ms[orgID]; ok {
		if m.Disabled {
			return apierr.Forbiddenf("Your membership of this organization is disabled; ask one of its admins")
		}
		return nil
	}
	o, err := s.Client.Organization.Get(ctx, orgID)
	if ent.IsNotFound(err) {
		return notFoundOrg(orgID)
	}
	if err != nil {
		return fmt.Errorf("read organization: %w", err)
	}
	// The documented answer for an organization the caller's domain may not
	// join is 400, apart from 404 for none: this tells whoever holds an
	// organization's id that it exists, and nothing more (not its domains).
	if d := emailDomain(v.Email); !discoverable(o, d) {
		return apierr.Invalid("email", "This organization does not admit addresses of your email domain %s: ask one of its admins for an invite", d)
	}
	if v.EmailVerifiedAt == nil {
		return apierr.Invalid("email", "Your email address %s is not verified: the organization admits only verified addresses of its domains", v.Email)
	}
	err = db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		c := tx.Member.Create().SetOrganizationID(orgID).SetUserID(v.ID).SetJoinedAt(s.Now())
		if o.DefaultRole != nil {
			c.SetRole(*o.DefaultRole)
		}
		return c.OnConflictColumns(member.FieldOrganizationID, member.FieldUserID).DoNothing().Exec(ctx)
	})
	// On a conflict some drivers report "no rows" for DO NOTHING: a
	// concurrent join made the member.
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("join organization: %w", err)
	}
	l := loaders.For(ctx)
	l.ForgetViewerMemberships()
	l.PrimeOrganization(ctx, o)
	return nil
}
