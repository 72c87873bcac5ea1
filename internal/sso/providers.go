// Package sso signs an organization's members in through SAML 2.0 identity
// providers, Quire being the service provider: the providers' settings
// (admins), the login options anyone may list, and the flow itself
// (flow.go): the start URL redirects to the identity provider with a
// signed AuthnRequest, and the assertion consumer service verifies the
// signed response, provisions the member and issues a token limited to the
// organization.
package sso

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"quire/ent"
	"quire/ent/samlprovider"
	"quire/ent/team"
	"quire/internal/apierr"
	"quire/internal/authz"
	"quire/internal/catalog"
	"quire/internal/db"
	"quire/internal/types"
)

// Limits of a provider's settings.
const (
	MaxLabel       = 30
	MaxEntityID    = 1024
	MaxCertificate = 10000
	MaxSSOURL      = 2048
)

// Provider statuses: active once its entity ID, single sign-on URL and
// certificate are set.
const (
	StatusActive  = "active"
	StatusPending = "pending"
)

// Service implements the SSO operations.
type Service struct {
	Client *ent.Client
	// PublicURL is the base of Quire's SAML endpoints.
	PublicURL string
	// Now returns the current time; tests may replace it.
	Now func() time.Time
	sp  spKeys
}

// New returns a Service.
func New(client *ent.Client, publicURL string) *Service {
	return &Service{Client: client, PublicURL: publicURL, Now: func() time.Time { return time.Now().UTC() }}
}

func notFoundProvider(id string) error {
	return apierr.NotFoundf("No matching SAML provider found for id %q", id)
}

// requireAdmin checks that the caller administers the organization.
func requireAdmin(ctx context.Context, orgID string) error {
	role, isMember, err := authz.OrgRole(ctx, orgID)
	if err != nil {
		return err
	}
	if !isMember {
		return apierr.NotFoundf("No matching organization found for id %q", orgID)
	}
	if role != types.RoleAdmin {
		return apierr.Forbiddenf("You need admin rights in this organization")
	}
	return nil
}

// Status is a provider's status.
func Status(p *ent.SAMLProvider) string {
	if p.EntityID != "" && p.SSOURL != "" && p.Certificate != "" {
		return StatusActive
	}
	return StatusPending
}

// Endpoints are Quire's endpoints for a provider: where the identity
// provider sends its responses (ACS), where a sign-in starts, and Quire's
// entity ID as the service provider (the URL of its metadata).
type Endpoints struct {
	ACSURL   string `json:"acsURL"`
	StartURL string `json:"startURL"`
	EntityID string `json:"entityID"`
}

// Endpoints returns Quire's endpoints for a provider.
func (s *Service) Endpoints(id string) Endpoints {
	base := s.PublicURL + "/sso/saml/" + id
	return Endpoints{ACSURL: base + "/acs", StartURL: base + "/start", EntityID: base + "/metadata"}
}

// Providers lists an organization's SAML providers, oldest first.
// Errors: NotFound, Forbidden (not an admin).
func (s *Service) Providers(ctx context.Context, orgID string) ([]*ent.SAMLProvider, error) {
	if err := requireAdmin(ctx, orgID); err != nil {
		return nil, err
	}
	ps, err := s.Client.SAMLProvider.Query().Where(samlprovider.OrganizationID(orgID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list SAML providers: %w", err)
	}
	sortProviders(ps)
	return ps, nil
}

func sortProviders(ps []*ent.SAMLProvider) {
	sort.Slice(ps, func(i, j int) bool {
		if !ps[i].CreatedAt.Equal(ps[j].CreatedAt) {
			return ps[i].CreatedAt.Before(ps[j].CreatedAt)
		}
		return ps[i].ID < ps[j].ID
	})
}

// Provider returns a SAML provider of the organization.
// Errors: NotFound, Forbidden (not an admin).
func (s *Service) Provider(ctx context.Context, orgID, id string) (*ent.SAMLProvider, error) {
	if err := requireAdmin(ctx, orgID); err != nil {
		return nil, err
	}
	p, err := s.Client.SAMLProvider.Query().Where(samlprovider.ID(id), samlprovider.OrganizationID(orgID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, notFoundProvider(id)
	}
	if err != nil {
		return nil, fmt.Errorf("read SAML provider: %w", err)
	}
	return p, nil
}

// Settings are a provider's settings; unset fields stay unchanged (on
// creation: empty, and the organization's default role).
type Settings struct {
	Label       catalog.Opt[string]
	EntityID    catalog.Opt[string]
	Certificate catalog.Opt[string]
	SSOURL      catalog.Opt[string]
	DefaultTeam catalog.Opt[*string]
	DefaultRole catalog.Opt[*types.Role]
}

func (in *Settings) validate() error {
	if in.Label.Set {
		if n := utf8.RuneCountInString(in.Label.Value); n < 1 || n > MaxLabel || strings.TrimSpace(in.Label.Value) == "" {
			return apierr.Invalid("label", "label must be between 1 and %d characters long", MaxLabel)
		}
	}
	if in.EntityID.Set && utf8.RuneCountInString(in.EntityID.Value) > MaxEntityID {
		return apierr.Invalid("entityID", "entityID must be at most %d characters long", MaxEntityID)
	}
	if in.SSOURL.Set && in.SSOURL.Value != "" {
		if utf8.RuneCountInString(in.SSOURL.Value) > MaxSSOURL {
			return apierr.Invalid("ssoURL", "ssoURL must be at most %d characters long", MaxSSOURL)
		}
		u, err := url.Parse(in.SSOURL.Value)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return apierr.Invalid("ssoURL", "ssoURL must be an http or https URL")
		}
	}
	if in.Certificate.Set && in.Certificate.Value != "" {
		if utf8.RuneCountInString(in.Certificate.Value) > MaxCertificate {
			return apierr.Invalid("certificate", "certificate must be at most %d characters long", MaxCertificate)
		}
		if _, err := ParseCertificate(in.Certificate.Value); err != nil {
			return apierr.Invalid("certificate", "certificate must be an X.509 certificate in PEM (-----BEGIN CERTIFICATE-----): %v", err)
		}
	}
	if r := in.DefaultRole.Value; in.DefaultRole.Set && r != nil && !r.Valid() {
		return apierr.Invalid("defaultRole", "defaultRole must be one of %s, or null for guests", strings.Join(types.Roles, ", "))
	}
	return nil
}

// ParseCertificate reads one X.509 certificate in PEM.
func ParseCertificate(s string) (*x509.Certificate, error) {
	block, rest := pem.Decode([]byte(strings.TrimSpace(s)))
	if block == nil || block.Type != "CERTIFICATE" {
		return nil, fmt.Errorf("no PEM CERTIFICATE block")
	}
	if len(strings.TrimSpace(string(rest))) > 0 {
		return nil, fmt.Errorf("text after the certificate")
	}
	return x509.ParseCertificate(block.Bytes)
}

// checkTeam checks that a default team is one of the organization's.
func checkTeam(ctx context.Context, c *ent.Client, orgID string, id *string) error {
	if id == nil {
		return nil
	}
	n, err := c.Team.Query().Where(team.ID(*id), team.OrganizationID(orgID)).Count(ctx)
	if err != nil {
		return fmt.Errorf("read team: %w", err)
	}
	if n == 0 {
		return apierr.Invalid("defaultTeam", "defaultTeam: no matching team found for id %q in this organization", *id)
	}
	return nil
}

// CreateProvider adds a SAML provider to an organization.
// Errors: NotFound, Forbidden (not an admin), BadRequest.
func (s *Service) CreateProvider(ctx context.Context, orgID string, in Settings) (*ent.SAMLProvider, error) {
	if !in.Label.Set {
		return nil, apierr.Invalid("label", "label is required")
	}
	if err := in.validate(); err != nil {
		return nil, err
	}
	if err := requireAdmin(ctx, orgID); err != nil {
		return nil, err
	}
	var out *ent.SAMLProvider
	err := db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		if err := checkTeam(ctx, tx.Client(), orgID, in.DefaultTeam.Value); err != nil {
			return err
		}
		role := in.DefaultRole.Value
		if !in.DefaultRole.Set {
			o, err := tx.Organization.Get(ctx, orgID)
			if err != nil {
				return fmt.Errorf("read organization: %w", err)
			}
			role = o.DefaultRole
		}
		var err error
		out, err = tx.SAMLProvider.Create().SetOrganizationID(orgID).SetLabel(in.Label.Value).
			SetEntityID(in.EntityID.Value).SetCertificate(strings.TrimSpace(in.Certificate.Value)).SetSSOURL(in.SSOURL.Value).
			SetNillableDefaultTeamID(in.DefaultTeam.Value).SetNillableDefaultRole(role).SetCreatedAt(s.Now()).Save(ctx)
		if err != nil {
			return fmt.Errorf("create SAML provider: %w", err)
		}
		return nil
	})
	return out, err
}

// UpdateProvider patches a SAML provider. While the organization enforces
// single sign-on, it keeps an active provider.
// Errors: NotFound, Forbidden (not an admin), BadRequest.
func (s *Service) UpdateProvider(ctx context.Context, orgID, id string, in Settings) (*ent.SAMLProvider, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	if _, err := s.Provider(ctx, orgID, id); err != nil {
		return nil, err
	}
	var out *ent.SAMLProvider
	err := db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		if err := checkTeam(ctx, tx.Client(), orgID, in.DefaultTeam.Value); err != nil {
			return err
		}
		u := tx.SAMLProvider.UpdateOneID(id)
		if in.Label.Set {
			u.SetLabel(in.Label.Value)
		}
		if in.EntityID.Set {
			u.SetEntityID(in.EntityID.Value)
		}
		if in.Certificate.Set {
			u.SetCertificate(strings.TrimSpace(in.Certificate.Value))
		}
		if in.SSOURL.Set {
			u.SetSSOURL(in.SSOURL.Value)
		}
		if in.DefaultTeam.Set {
			u.SetNillableDefaultTeamID(in.DefaultTeam.Value)
			if in.DefaultTeam.Value == nil {
				u.ClearDefaultTeamID()
			}
		}
		if in.DefaultRole.Set {
			u.SetNillableDefaultRole(in.DefaultRole.Value)
			if in.DefaultRole.Value == nil {
				u.ClearDefaultRole()
			}
		}
		var err error
		if out, err = u.Save(ctx); err != nil {
			return fmt.Errorf("update SAML provider: %w", err)
		}
		return keepEnforceable(ctx, tx, orgID)
	})
	return out, err
}

// DeleteProvider deletes a SAML provider; it reports whether there was
// one (none: the caller may not see the organization). While the
// organization enforces single sign-on, it keeps an active provider.
// Errors: Forbidden (not an admin), BadRequest.
func (s *Service) DeleteProvider(ctx context.Context, orgID, id string) (bool, error) {
	if err := requireAdmin(ctx, orgID); apierr.CodeOf(err) == apierr.NotFound {
		return false, nil
	} else if err != nil {
		return false, err
	}
	deleted := false
	err := db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		n, err := tx.SAMLProvider.Delete().Where(samlprovider.ID(id), samlprovider.OrganizationID(orgID)).Exec(ctx)
		if err != nil {
			return fmt.Errorf("delete SAML provider: %w", err)
		}
		deleted = n > 0
		return keepEnforceable(ctx, tx, orgID)
	})
	return deleted, err
}

// keepEnforceable refuses, in the transaction of a change of providers, to
// leave an organization that enforces single sign-on without an active
// provider: its members could no longer reach its content.
func keepEnforceable(ctx context.Context, tx *ent.Tx, orgID string) error {
	o, err := tx.Organization.Get(ctx, orgID)
	if err != nil {
		return fmt.Errorf("read organization: %w", err)
	}
	if !o.SSO {
		return nil
	}
	ok, err := hasActive(ctx, tx.Client(), orgID)
	if err != nil {
		return err
	}
	if !ok {
		return apierr.Invalid("samlProviderId", "The organization enforces single sign-on and needs an active SAML provider: turn sso off first")
	}
	return nil
}

// HasActiveProvider reports whether an organization has an active SAML
// provider.
func (s *Service) HasActiveProvider(ctx context.Context, c *ent.Client, orgID string) (bool, error) {
	return hasActive(ctx, c, orgID)
}

func hasActive(ctx context.Context, c *ent.Client, orgID string) (bool, error) {
	n, err := c.SAMLProvider.Query().Where(samlprovider.OrganizationID(orgID), samlprovider.EntityIDNEQ(""),
		samlprovider.SSOURLNEQ(""), samlprovider.CertificateNEQ("")).Count(ctx)
	if err != nil {
		return false, fmt.Errorf("read SAML providers: %w", err)
	}
	return n > 0, nil
}

// Login is a way to sign in to an organization.
type Login struct {
	ID       string `json:"id"`
	Label    string `json:"label"`
	StartURL string `json:"startURL"`
}

// Logins lists the ways to sign in to an organization: its active SAML
// providers. Anyone may list them (a sign-in page needs them before there
// is a token); an unknown organization has none.
func (s *Service) Logins(ctx context.Context, orgID string) ([]Login, error) {
	ps, err := s.Client.SAMLProvider.Query().Where(samlprovider.OrganizationID(orgID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list SAML providers: %w", err)
	}
	sortProviders(ps)
	out := []Login{}
	for _, p := range ps {
		if Status(p) == StatusActive {
			out = append(out, Login{ID: p.ID, Label: p.Label, StartURL: s.Endpoints(p.ID).StartURL})
		}
	}
	return out, nil
}
