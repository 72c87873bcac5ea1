// Package claims signs members' claims as JSON Web Tokens and publishes the
// keys that verify them. Each organization has its own key (ECDSA P-256,
// ES256), generated the first time it is needed and kept in the database
// (server_secrets), so that every process sharing the database signs with
// it and publishes it alike. The public keys are served as a JSON Web Key
// Set at /.well-known/jwks/{organizationId}, which needs no token.
package claims

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"quire/ent"
	"quire/ent/serversecret"
	"quire/internal/db"
)

// Lifetime is how long a signed token is valid.
const Lifetime = time.Hour

// Service signs claims and serves the keys.
type Service struct {
	client *ent.Client
	// issuer is Quire's public URL, the tokens' iss.
	issuer string
	// Now returns the current time; tests may replace it.
	Now  func() time.Time
	keys sync.Map // organization id → *ecdsa.PrivateKey
}

// New returns the service.
func New(client *ent.Client, publicURL string) *Service {
	return &Service{client: client, issuer: publicURL, Now: func() time.Time { return time.Now().UTC() }}
}

// Member is what a token says of a member.
type Member struct {
	Organization string
	User         *ent.User
	Role         *string
	SSO          bool
	Teams        []string
}

// Sign returns a token of a member's claims, signed with their
// organization's key: iss (Quire's public URL), sub (the user's id), aud
// and org (the organization's id), iat, nbf and exp (an hour later), email,
// email_verified, name, role (null for a guest), sso and teams.
func (s *Service) Sign(ctx context.Context, m Member) (string, error) {
	key, err := s.key(ctx, m.Organization)
	if err != nil {
		return "", err
	}
	now := s.Now()
	teams := m.Teams
	if teams == nil {
		teams = []string{}
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims{
		"iss": s.issuer, "sub": m.User.ID, "aud": m.Organization, "org": m.Organization,
		"iat": now.Unix(), "nbf": now.Unix(), "exp": now.Add(Lifetime).Unix(),
		"email": m.User.Email, "email_verified": m.User.EmailVerifiedAt != nil, "name": m.User.DisplayName,
		"role": m.Role, "sso": m.SSO, "teams": teams,
	})
	tok.Header["kid"] = keyID(&key.PublicKey)
	signed, err := tok.SignedString(key)
	if err != nil {
		return "", fmt.Errorf("sign member claims: %w", err)
	}
	return signed, nil
}

// JWK is a public key in the JSON Web Key format.
type JWK struct {
	Kty string `json:"kty"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Y   string `json:"y"`
	Kid string `json:"kid"`
	Use string `json:"use"`
	Alg string `json:"alg"`
}

// JWKS is a JSON Web Key Set.
type JWKS struct {
	Keys []JWK `json:"keys"`
}

// KeySet returns the key set of an organization (whose existence the
// caller checked).
func (s *Service) KeySet(ctx context.Context, orgID string) (*JWKS, error) {
	key, err := s.key(ctx, orgID)
	if err != nil {
		return nil, err
	}
	pub := &key.PublicKey
	b64 := base64.RawURLEncoding.EncodeToString
	// The uncompressed point: 0x04, then X and Y, 32 bytes each on P-256.
	raw, err := pub.Bytes()
	if err != nil {
		return nil, err
	}
	x, y := raw[1:33], raw[33:65]
	return &JWKS{Keys: []JWK{{Kty: "EC", Crv: "P-256", X: b64(x), Y: b64(y), Kid: keyID(pub), Use: "sig", Alg: "ES256"}}}, nil
}

// Handler serves GET /.well-known/jwks/{organizationId}: the organization's
// key set, or 404 for an unknown organization.
func (s *Service) Handler(log func(ctx context.Context, err error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		orgID := r.PathValue("organizationId")
		w.Header().Set("Content-Type", "application/json")
		exists, err := s.orgExists(r.Context(), orgID)
		if err != nil {
			log(r.Context(), err)
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"error":{"code":500,"message":"Internal error"}}`))
			return
		}
		if !exists {
			w.WriteHeader(http.StatusNotFound)
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": 404, "message": fmt.Sprintf("No matching organization found for id %q", orgID)}})
			return
		}
		set, err := s.KeySet(r.Context(), orgID)
		if err != nil {
			log(r.Context(), err)
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"error":{"code":500,"message":"Internal error"}}`))
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=3600")
		json.NewEncoder(w).Encode(set)
	})
}

func (s *Service) orgExists(ctx context.Context, id string) (bool, error) {
	_, err := s.client.Organization.Get(ctx, id)
	if ent.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}

// secretName is the name of an organization's key in the server secrets.
func secretName(orgID string) string { return "member-claims-key/" + orgID }

// key returns an organization's signing key, generating and storing it the
// first time: when several processes generate one at once, the first insert
// wins and the others read it back.
func (s *Service) key(ctx context.Context, orgID string) (*ecdsa.PrivateKey, error) {
	if k, ok := s.keys.Load(orgID); ok {
		return k.(*ecdsa.PrivateKey), nil
	}
	name := secretName(orgID)
	var der []byte
	if sec, err := s.client.ServerSecret.Get(ctx, name); err == nil {
		der = sec.Value
	} else if !ent.IsNotFound(err) {
		return nil, fmt.Errorf("read claims key: %w", err)
	} else {
		fresh, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, fmt.Errorf("generate claims key: %w", err)
		}
		raw, err := x509.MarshalPKCS8PrivateKey(fresh)
		if err != nil {
			return nil, fmt.Errorf("encode claims key: %w", err)
		}
		err = db.WithTx(ctx, s.client, func(tx *ent.Tx) error {
			ierr := tx.ServerSecret.Create().SetID(name).SetValue(raw).
				OnConflictColumns(serversecret.FieldID).DoNothing().Exec(ctx)
			sec, err := tx.ServerSecret.Get(ctx, name)
			if err != nil {
				return errors.Join(ierr, err)
			}
			der = sec.Value
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("store claims key: %w", err)
		}
	}
	parsed, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("parse claims key: %w", err)
	}
	k, ok := parsed.(*ecdsa.PrivateKey)
	if !ok {
		return nil, errors.New("claims key: not an ECDSA key")
	}
	s.keys.Store(orgID, k)
	return k, nil
}

// keyID names a public key: its SHA-256, base64url, cut to 16 characters.
func keyID(pub *ecdsa.PublicKey) string {
	der, _ := x509.MarshalPKIXPublicKey(pub)
	sum := sha256.Sum256(der)
	return base64.RawURLEncoding.EncodeToString(sum[:])[:16]
}
