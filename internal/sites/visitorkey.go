package sites

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"quire/ent"
	"quire/ent/serversecret"
	"quire/internal/apierr"
	"quire/internal/db"
)

// VisitorKey is the secret a visitor-auth site's own backend signs its
// readers' tokens with (HS256): a reader who arrives with a token signed
// with it, not expired, reads the site, and the token's claims are their
// visitor claims.
type VisitorKey struct {
	Key       string
	CreatedAt time.Time
}

// Limits of visitor tokens.
const (
	// MaxVisitorToken is the longest token read, in bytes.
	MaxVisitorToken = 8 << 10
	// MaxVisitorClaims is how many claims of a token are kept.
	MaxVisitorClaims = 100
	// visitorLeeway is how far the clocks of the site's backend and of
	// Quire may disagree.
	visitorLeeway = 30 * time.Second
)

func visitorKeyName(siteID string) string { return "site-visitor-key/" + siteID }

// VisitorKey returns a site's visitor key, made the first time it is
// asked for, to a caller who may change the site.
// Errors: NotFound, Forbidden.
func (s *Service) VisitorKey(ctx context.Context, orgID, siteID string) (*VisitorKey, error) {
	st, err := s.writable(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	return s.visitorKey(ctx, st.ID, false)
}

// RotateVisitorKey replaces a site's visitor key: tokens signed with the
// old one are refused from then on, and so are the sessions they opened.
// Errors: NotFound, Forbidden.
func (s *Service) RotateVisitorKey(ctx context.Context, orgID, siteID string) (*VisitorKey, error) {
	st, err := s.writable(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	return s.visitorKey(ctx, st.ID, true)
}

// visitorKey reads a site's key, making one when there is none (or
// replacing it when fresh): when several processes make one at once, the
// first insert wins and the others read it back.
func (s *Service) visitorKey(ctx context.Context, siteID string, fresh bool) (*VisitorKey, error) {
	name := visitorKeyName(siteID)
	var out *VisitorKey
	err := db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		if fresh {
			if _, err := tx.ServerSecret.Delete().Where(serversecret.ID(name)).Exec(ctx); err != nil {
				return err
			}
		}
		sec, err := tx.ServerSecret.Get(ctx, name)
		if ent.IsNotFound(err) {
			raw := make([]byte, 32)
			rand.Read(raw) //nolint:errcheck // crypto/rand.Read does not fail
			ierr := tx.ServerSecret.Create().SetID(name).SetValue([]byte(base64.RawURLEncoding.EncodeToString(raw))).
				OnConflictColumns(serversecret.FieldID).DoNothing().Exec(ctx)
			if sec, err = tx.ServerSecret.Get(ctx, name); err != nil {
				return errors.Join(ierr, err)
			}
		}
		if err != nil {
			return err
		}
		out = &VisitorKey{Key: string(sec.Value), CreatedAt: sec.CreatedAt.UTC()}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("visitor key: %w", err)
	}
	return out, nil
}

// visitorClaims verifies a reader's token against a site's visitor key
// and returns its claims (without the registered ones: iss, sub, aud,
// exp, nbf, iat, jti). A site that has no key yet admits no one.
// Errors: Unauthorized.
func (s *Service) visitorClaims(ctx context.Context, siteID, token string) (map[string]any, error) {
	denied := apierr.New(apierr.Unauthorized, "Sign in to read this site")
	if token == "" || len(token) > MaxVisitorToken {
		return nil, denied
	}
	sec, err := s.Client.ServerSecret.Get(ctx, visitorKeyName(siteID))
	if ent.IsNotFound(err) {
		return nil, denied
	}
	if err != nil {
		return nil, fmt.Errorf("visitor key: %w", err)
	}
	claims := jwt.MapClaims{}
	_, err = jwt.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return sec.Value, nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithExpirationRequired(), jwt.WithLeeway(visitorLeeway))
	if err != nil {
		return nil, denied
	}
	out := map[string]any{}
	for k, v := range claims {
		switch k {
		case "iss", "sub", "aud", "exp", "nbf", "iat", "jti":
			continue
		}
		if len(out) >= MaxVisitorClaims {
			break
		}
		out[k] = v
	}
	return out, nil
}
