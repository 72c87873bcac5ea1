// Package requestid gives every request an id that appears in its logs and
// in the X-Request-Id response header.
package requestid

import (
	"context"
	"crypto/rand"
	"encoding/hex"
)

type key struct{}

// New returns a fresh random id.
func New() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// With stores id in ctx.
func With(ctx context.Context, id string) context.Context { return context.WithValue(ctx, key{}, id) }

// From returns the request id, or "".
func From(ctx context.Context) string {
	s, _ := ctx.Value(key{}).(string)
	return s
}
