package sso

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/crewjam/saml"

	"quire/ent"
	"quire/ent/samlprovider"
	"quire/ent/samlrequest"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/db"
	"quire/internal/requestid"
)

// RequestLifetime is how long a sign-in may take at the identity provider.
const RequestLifetime = 10 * time.Minute

// Handler serves Quire's SAML endpoints, which need no token:
// GET /sso/saml/{providerId}/metadata (the service provider's metadata),
// GET /sso/saml/{providerId}/start (redirects to the identity provider) and
// POST /sso/saml/{providerId}/acs (the assertion consumer service).
func (s *Service) Handler(log *slog.Logger) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /sso/saml/{providerId}/metadata", func(w http.ResponseWriter, r *http.Request) {
		s.serve(w, r, log, s.metadata)
	})
	mux.HandleFunc("GET /sso/saml/{providerId}/start", func(w http.ResponseWriter, r *http.Request) {
		s.serve(w, r, log, s.start)
	})
	mux.HandleFunc("POST /sso/saml/{providerId}/acs", func(w http.ResponseWriter, r *http.Request) {
		s.serve(w, r, log, s.acs)
	})
	mux.HandleFunc("/sso/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, log, apierr.NotFoundf("No route matches %s %s", r.Method, r.URL.Path))
	})
	return mux
}

func (s *Service) serve(w http.ResponseWriter, r *http.Request, log *slog.Logger, h func(http.ResponseWriter, *http.Request) error) {
	if err := h(w, r); err != nil {
		writeError(w, r, log, err)
	}
}

// writeError answers {"error":{"code","message"}} as the API does; causes of
// internal errors and of refused responses go to the log only.
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	e, ok := apierr.As(err)
	if !ok {
		log.ErrorContext(r.Context(), "internal error", "request_id", requestid.From(r.Context()), "path", r.URL.Path, "error", err.Error())
		e = apierr.New(apierr.Internal, "Internal error")
	} else if e.Cause != nil {
		log.WarnContext(r.Context(), "single sign-on refused", "request_id", requestid.From(r.Context()), "path", r.URL.Path, "cause", e.Cause.Error())
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(e.Code.Status())
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": e.Code.Status(), "message": e.Message}})
}

// provider reads a provider by id alone (these endpoints have no caller).
func (s *Service) provider(ctx context.Context, id string) (*ent.SAMLProvider, error) {
	p, err := s.Client.SAMLProvider.Query().Where(samlprovider.ID(id)).WithOrganization().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, notFoundProvider(id)
	}
	if err != nil {
		return nil, fmt.Errorf("read SAML provider: %w", err)
	}
	return p, nil
}

// serviceProvider is Quire as the service provider of one identity
// provider, whose metadata it builds from the provider's settings.
func (s *Service) serviceProvider(ctx context.Context, p *ent.SAMLProvider) (*saml.ServiceProvider, error) {
	key, cert, err := s.spKey(ctx)
	if err != nil {
		return nil, err
	}
	ep := s.Endpoints(p.ID)
	acs, _ := url.Parse(ep.ACSURL)
	meta, _ := url.Parse(ep.EntityID)
	sp := &saml.ServiceProvider{
		EntityID: ep.EntityID, Key: key, Certificate: cert,
		MetadataURL: *meta, AcsURL: *acs,
		AuthnNameIDFormat:                saml.EmailAddressNameIDFormat,
		AssertionConsumerServiceBindings: []string{saml.HTTPPostBinding},
		// AuthnRequests go unsigned: identity providers that show a login
		// form post the request back to themselves without the redirect's
		// detached signature, and would then refuse it. A sign-in is bound
		// instead to the request Quire recorded (InResponseTo), consumed by
		// the first response.
		RejectSHA1Signatures: true,
	}
	if Status(p) == StatusActive {
		c, err := ParseCertificate(p.Certificate)
		if err != nil {
			return nil, fmt.Errorf("SAML provider %s: %w", p.ID, err)
		}
		sp.IDPMetadata = &saml.EntityDescriptor{
			EntityID: p.EntityID,
			IDPSSODescriptors: []saml.IDPSSODescriptor{{
				SSODescriptor: saml.SSODescriptor{RoleDescriptor: saml.RoleDescriptor{
					ProtocolSupportEnumeration: "urn:oasis:names:tc:SAML:2.0:protocol",
					KeyDescriptors: []saml.KeyDescriptor{{Use: "signing", KeyInfo: saml.KeyInfo{X509Data: saml.X509Data{
						X509Certificates: []saml.X509Certificate{{Data: base64.StdEncoding.EncodeToString(c.Raw)}}}}}},
				}},
				SingleSignOnServices: []saml.Endpoint{{Binding: saml.HTTPRedirectBinding, Location: p.SSOURL}},
			}},
		}
	}
	return sp, nil
}

// metadata answers the service provider's metadata for a provider, which
// its identity provider is configured with.
func (s *Service) metadata(w http.ResponseWriter, r *http.Request) error {
	p, err := s.provider(r.Context(), r.PathValue("providerId"))
	if err != nil {
		return err
	}
	sp, err := s.serviceProvider(r.Context(), p)
	if err != nil {
		return err
	}
	buf, err := xml.MarshalIndent(sp.Metadata(), "", "  ")
	if err != nil {
		return fmt.Errorf("write SAML metadata: %w", err)
	}
	w.Header().Set("Content-Type", "application/samlmetadata+xml")
	w.Write([]byte(xml.Header))
	w.Write(buf)
	return nil
}

// start records an authentication request and redirects the browser to
// the identity provider with it (the HTTP-Redirect binding, signed); its
// RelayState is the request's id.
func (s *Service) start(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	p, err := s.provider(ctx, r.PathValue("providerId"))
	if err != nil {
		return err
	}
	if Status(p) != StatusActive {
		return apierr.NotFoundf("The SAML provider %q is not fully configured yet", p.ID)
	}
	sp, err := s.serviceProvider(ctx, p)
	if err != nil {
		return err
	}
	req, err := sp.MakeAuthenticationRequest(p.SSOURL, saml.HTTPRedirectBinding, saml.HTTPPostBinding)
	if err != nil {
		return fmt.Errorf("make AuthnRequest: %w", err)
	}
	now := s.Now()
	err = db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		// Requests never answered are dropped as new ones come.
		if _, err := tx.SAMLRequest.Delete().Where(samlrequest.ExpiresAtLT(now)).Exec(ctx); err != nil {
			return fmt.Errorf("drop expired SAML requests: %w", err)
		}
		return tx.SAMLRequest.Create().SetID(req.ID).SetProviderID(p.ID).SetCreatedAt(now).SetExpiresAt(now.Add(RequestLifetime)).Exec(ctx)
	})
	if err != nil {
		return fmt.Errorf("record SAML request: %w", err)
	}
	relay := req.ID
	if r.URL.Query().Get("to") == "app" {
		// Signing in to the members' area: the identity provider returns
		// the relay state as it got it, and the assertion consumer
		// service answers with a session cookie instead of a token.
		relay = appRelay + req.ID
	}
	u, err := req.Redirect(relay, sp)
	if err != nil {
		return fmt.Errorf("redirect to the identity provider: %w", err)
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, u.String(), http.StatusFound)
	return nil
}

// SignIn is the answer of the assertion consumer service.
type SignIn struct {
	// Token is an API token limited to the organization; shown once.
	Token        string       `json:"token"`
	TokenID      string       `json:"tokenId"`
	User         SignedInUser `json:"user"`
	Organization struct {
		ID string `json:"id"`
	} `json:"organization"`
}

// SignedInUser is who signed in.
type SignedInUser struct {
	ID          string `json:"id"`
	Email       string `json:"email"`
	DisplayName string `json:"displayName"`
}

// refused is a 403 whose cause goes to the log only.
func refused(cause error, format string, args ...any) error {
	e := apierr.Forbiddenf(format, args...)
	e.Cause = cause
	return e
}

// acs receives the identity provider's response (HTTP-POST binding): it
// consumes the request the response answers (a response is accepted once,
// within RequestLifetime), verifies the response's signature, audience,
// destination and times, provisions the member, and answers a token.
func (s *Service) acs(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	if err := r.ParseForm(); err != nil {
		return apierr.Invalid("SAMLResponse", "The request is not a form")
	}
	id := r.PathValue("providerId")
	reqID, toApp := strings.CutPrefix(r.PostForm.Get("RelayState"), appRelay)
	if reqID == "" || len(reqID) > 200 {
		return apierr.Invalid("RelayState", "RelayState is missing: start the sign-in again from its start URL")
	}
	n, err := s.Client.SAMLRequest.Delete().Where(samlrequest.ID(reqID), samlrequest.ProviderID(id), samlrequest.ExpiresAtGT(s.Now())).Exec(ctx)
	if err != nil {
		return fmt.Errorf("consume SAML request: %w", err)
	}
	if n == 0 {
		return refused(nil, "This sign-in is unknown, expired or already used: start it again from its start URL")
	}
	p, err := s.provider(ctx, id)
	if err != nil {
		return err
	}
	if Status(p) != StatusActive {
		return apierr.NotFoundf("The SAML provider %q is not fully configured yet", p.ID)
	}
	sp, err := s.serviceProvider(ctx, p)
	if err != nil {
		return err
	}
	a, err := sp.ParseResponse(r, []string{reqID})
	if err != nil {
		var ire *saml.InvalidResponseError
		if errors.As(err, &ire) {
			err = ire.PrivateErr
		}
		return refused(err, "The identity provider's response could not be verified")
	}
	email, name := identity(a)
	if email == "" {
		return refused(nil, "The identity provider's response names no email address (as NameID or an email attribute)")
	}
	out, err := s.provision(ctx, p, email, name)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	if toApp {
		// SameSite=Lax: the cookie is set by this cross-site post's answer
		// and sent with the redirect that follows, a top-level GET.
		http.SetCookie(w, &http.Cookie{Name: auth.SessionCookie, Value: out.Token, Path: "/app", HttpOnly: true,
			SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil || strings.HasPrefix(s.PublicURL, "https://")})
		http.Redirect(w, r, strings.TrimRight(s.PublicURL, "/")+"/app/o/"+url.PathEscape(out.Organization.ID), http.StatusSeeOther)
		return nil
	}
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(out)
}

// appRelay prefixes the relay state of a sign-in to the members' area
// (GET .../start?to=app).
const appRelay = "app."

// Attribute names identity providers give email addresses and names under.
var (
	emailAttributes = []string{"email", "mail", "emailaddress", "urn:oid:0.9.2342.19200300.100.1.3",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"}
	nameAttributes = []string{"displayname", "urn:oid:2.16.840.1.113730.3.1.241", "name",
		"http://schemas.microsoft.com/identity/claims/displayname", "cn", "urn:oid:2.5.4.3"}
	givenAttributes   = []string{"givenname", "urn:oid:2.5.4.42", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname"}
	surnameAttributes = []string{"sn", "surname", "urn:oid:2.5.4.4", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname"}
)

// identity reads the email address and the display name of a verified
// assertion: the email from the NameID when it is one, else from an email
// attribute; the name from a display name or common name attribute, else
// given name and surname, else the email's local part.
func identity(a *saml.Assertion) (email, name string) {
	attr := func(names []string) string {
		for _, st := range a.AttributeStatements {
			for _, at := range st.Attributes {
				for _, n := range names {
					if strings.EqualFold(at.Name, n) || strings.EqualFold(at.FriendlyName, n) {
						for _, v := range at.Values {
							if s := strings.TrimSpace(v.Value); s != "" {
								return s
							}
						}
					}
				}
			}
		}
		return ""
	}
	if a.Subject != nil && a.Subject.NameID != nil && validEmail(a.Subject.NameID.Value) {
		email = strings.TrimSpace(a.Subject.NameID.Value)
	} else if e := attr(emailAttributes); validEmail(e) {
		email = e
	}
	name = attr(nameAttributes)
	if name == "" {
		name = strings.TrimSpace(attr(givenAttributes) + " " + attr(surnameAttributes))
	}
	if name == "" {
		name, _, _ = strings.Cut(email, "@")
	}
	if r := []rune(name); len(r) > 100 {
		name = string(r[:100])
	}
	return email, name
}

func validEmail(s string) bool {
	s = strings.TrimSpace(s)
	at := strings.LastIndexByte(s, '@')
	return at > 0 && at < len(s)-1 && len(s) <= 254 && !strings.ContainsAny(s, " \t\r\n<>")
}
