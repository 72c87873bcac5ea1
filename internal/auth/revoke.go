package auth

import (
	"context"
	"errors"
	"fmt"

	"quire/ent"
	"quire/ent/apitoken"
	"quire/ent/predicate"
)

// ErrNoToken is returned when the token to revoke does not exist (or was
// revoked already).
var ErrNoToken = errors.New("no such token")

// Revoked names a token that was revoked.
type Revoked struct {
	ID     string
	UserID string
}

// RevokeToken revokes the token with the given id. The token's row is
// deleted: only its hash was stored, so nothing can bring it back, and
// LookupCaller treats its secret like any unknown one from the next
// request on (the deletion makes every process forget the callers it kept,
// see CallerCache).
// Errors: ErrNoToken.
func RevokeToken(ctx context.Context, client *ent.Client, id string) (*Revoked, error) {
	return revoke(ctx, client, apitoken.ID(id))
}

// RevokeSecret revokes the token whose secret is given, as RevokeToken does;
// the secret is looked up by its hash, the only form stored.
// Errors: ErrNoToken.
func RevokeSecret(ctx context.Context, client *ent.Client, secret string) (*Revoked, error) {
	if secret == "" {
		return nil, ErrNoToken
	}
	return revoke(ctx, client, apitoken.TokenHash(Hash(secret)))
}

// revoke deletes the one token matching where, in a transaction so that
// the token reported is the token deleted.
func revoke(ctx context.Context, client *ent.Client, where predicate.APIToken) (*Revoked, error) {
	tx, err := client.Tx(ctx)
	if err != nil {
		return nil, fmt.Errorf("revoke token: %w", err)
	}
	t, err := tx.APIToken.Query().Where(where).Only(ctx)
	if err == nil {
		err = tx.APIToken.DeleteOneID(t.ID).Exec(ctx)
	}
	if err != nil {
		_ = tx.Rollback()
		if ent.IsNotFound(err) {
			return nil, ErrNoToken
		}
		return nil, fmt.Errorf("revoke token: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("revoke token: %w", err)
	}
	return &Revoked{ID: t.ID, UserID: t.UserID}, nil
}
