// Package auth issues and checks API tokens and carries the caller (the
// viewer) through a request's context.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"

	"quire/ent"
)

const secretAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// NewSecret returns a fresh token secret: "qt_" and 40 random base-62 characters.
func NewSecret() string {
	var b strings.Builder
	b.WriteString("qt_")
	max := big.NewInt(int64(len(secretAlphabet)))
	for i := 0; i < 40; i++ {
		n, err := rand.Int(rand.Reader, max)
		if err != nil {
			panic("auth: system randomness unavailable: " + err.Error())
		}
		b.WriteByte(secretAlphabet[n.Int64()])
	}
	return b.String()
}

// Hash returns the stored form of a secret.
func Hash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// CreateToken stores a new token for the user and returns its secret, which
// is never stored and cannot be shown again.
func CreateToken(ctx context.Context, client *ent.Client, userID, label string) (string, error) {
	_, secret, err := IssueToken(ctx, client, userID, label)
	return secret, err
}

// IssueToken is CreateToken, also returning the token's id, which names the
// token (to revoke it, say) without its secret.
func IssueToken(ctx context.Context, client *ent.Client, userID, label string) (id, secret string, err error) {
	return IssueScopedToken(ctx, client, userID, label, "")
}

// IssueScopedToken is IssueToken for a token limited to one organization
// (none when orgID is empty): requests with it reach nothing of the user's
// other organizations (see Caller.Scope).
func IssueScopedToken(ctx context.Context, client *ent.Client, userID, label, orgID string) (id, secret string, err error) {
	secret = NewSecret()
	c := client.APIToken.Create().SetUserID(userID).SetTokenHash(Hash(secret)).SetLabel(label)
	if orgID != "" {
		c.SetOrganizationID(orgID)
	}
	t, err := c.Save(ctx)
	if err != nil {
		return "", "", fmt.Errorf("create token: %w", err)
	}
	return t.ID, secret, nil
}

// Lookup returns the user owning a secret, or nil when the secret is unknown
// (LookupCaller without what comes with the user).
func Lookup(ctx context.Context, client *ent.Client, secret string) (*ent.User, error) {
	c, err := LookupCaller(ctx, client, secret)
	if c == nil || err != nil {
		return nil, err
	}
	return c.User, nil
}

// SessionCookie is the cookie that holds a signed-in member's API token in
// the members' area of the reader door (/app/): set by its sign-in form
// and by single sign-on started for it.
const SessionCookie = "quire-session"

// BearerToken extracts the token of an "Authorization: Bearer <token>" header.
func BearerToken(header string) string {
	const prefix = "bearer "
	if len(header) > len(prefix) && strings.EqualFold(header[:len(prefix)], prefix) {
		return strings.TrimSpace(header[len(prefix):])
	}
	return ""
}

type viewerKey struct{}

type systemKey struct{}

// WithViewer returns a context carrying the authenticated user.
func WithViewer(ctx context.Context, u *ent.User) context.Context {
	return context.WithValue(ctx, viewerKey{}, u)
}

// Viewer returns the authenticated user, or nil.
func Viewer(ctx context.Context) *ent.User {
	u, _ := ctx.Value(viewerKey{}).(*ent.User)
	return u
}

// WithSystem returns a context whose caller is Quire itself: background
// work that no user asked for (the trash sweep, scheduled jobs). The system
// caller is no user (Viewer is nil) and holds every right in every
// organization; only code that runs outside requests may create it.
func WithSystem(ctx context.Context) context.Context {
	return context.WithValue(context.WithValue(ctx, viewerKey{}, (*ent.User)(nil)), systemKey{}, true)
}

type scopeKey struct{}

// WithScope returns a context whose caller's token is limited to an
// organization (Caller.Scope).
func WithScope(ctx context.Context, orgID string) context.Context {
	if orgID == "" {
		return ctx
	}
	return context.WithValue(ctx, scopeKey{}, orgID)
}

// Scope returns the organization the caller's token is limited to, or "".
func Scope(ctx context.Context) string {
	s, _ := ctx.Value(scopeKey{}).(string)
	return s
}

// IsSystem reports whether the caller is Quire itself (see WithSystem).
func IsSystem(ctx context.Context) bool {
	ok, _ := ctx.Value(systemKey{}).(bool)
	return ok
}

type tokenKey struct{}

// WithToken returns a context carrying the secret the caller authenticated
// with, for work that outlives the request and must check, later, that the
// token is still valid and what its owner may do then (a GraphQL
// subscription checks it for each event).
func WithToken(ctx context.Context, secret string) context.Context {
	return context.WithValue(ctx, tokenKey{}, secret)
}

// Token returns the secret of WithToken, or "".
func Token(ctx context.Context) string {
	s, _ := ctx.Value(tokenKey{}).(string)
	return s
}
