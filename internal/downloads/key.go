package downloads

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"

	"quire/ent"
	"quire/ent/serversecret"
	"quire/internal/db"
)

// signingKeyName is the name of the generated key in the server secrets.
const signingKeyName = "download-signing-key"

// keySize is the length of a generated signing key, in bytes.
const keySize = 32

// SigningKey returns the key that signs download links. A configured key
// (QUIRE_SIGNING_KEY) is used as given. Otherwise the key is a random one
// generated on first use and stored in the database, so that every process
// sharing the database signs and verifies with the same key: when several
// processes generate one at the same time, the first insert wins and the
// others read it back.
func SigningKey(ctx context.Context, client *ent.Client, configured string) ([]byte, error) {
	if configured != "" {
		return []byte(configured), nil
	}
	if s, err := client.ServerSecret.Get(ctx, signingKeyName); err == nil {
		return s.Value, nil
	} else if !ent.IsNotFound(err) {
		return nil, fmt.Errorf("read signing key: %w", err)
	}
	key := make([]byte, keySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("generate signing key: %w", err)
	}
	var stored []byte
	err := db.WithTx(ctx, client, func(tx *ent.Tx) error {
		ierr := tx.ServerSecret.Create().SetID(signingKeyName).SetValue(key).
			OnConflictColumns(serversecret.FieldID).DoNothing().Exec(ctx)
		// Whether this insert won or another process's did, the stored row
		// is the key. (On a conflict some drivers report "no rows" for DO
		// NOTHING, so the insert's error only matters when nothing is
		// stored.)
		s, err := tx.ServerSecret.Get(ctx, signingKeyName)
		if err != nil {
			return errors.Join(ierr, err)
		}
		stored = s.Value
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store signing key: %w", err)
	}
	return stored, nil
}
