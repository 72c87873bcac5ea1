// Package signedurl creates and verifies signed, expiring download links.
//
// A signed link has the form
//
//	/some/path?expires=<unix seconds>&sig=<signature>
//
// where signature is the unpadded base64url encoding of
// HMAC-SHA256(key, message) and message is
//
//	"v1\n" + <decoded path> + "\n" + <other query parameters, canonically encoded> + "\n" + <expires>
//
// The path is signed in its decoded form (what net/http exposes as
// r.URL.Path), so a link keeps verifying when a client re-escapes it, for
// example "/a b" versus "/a%20b". Query parameters other than expires and sig
// that were part of the signed path are covered by the signature as well
// (sorted by key, as url.Values.Encode does), so they cannot be altered or
// added to without invalidating the link.
//
// A server verifies a request with
//
//	if err := signer.Verify(r.URL.RequestURI()); err != nil { ... 403 ... }
//
// Verify also accepts an absolute URL; only its path and query are used.
package signedurl

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Query parameter names used by signed links.
const (
	ParamExpires   = "expires"
	ParamSignature = "sig"
)

// Errors returned by Verify. Use errors.Is to test for them.
var (
	// ErrMissingParams means the link lacks the expires or sig parameter.
	ErrMissingParams = errors.New("signedurl: missing expires or sig parameter")
	// ErrMalformed means the link or one of its parameters cannot be parsed
	// (or a parameter is repeated).
	ErrMalformed = errors.New("signedurl: malformed signed link")
	// ErrBadSignature means the signature does not match the path, query and
	// expiry (tampered link or a different key).
	ErrBadSignature = errors.New("signedurl: bad signature")
	// ErrExpired means the signature is valid but the link has expired.
	ErrExpired = errors.New("signedurl: link expired")
	// ErrNoKey means the signer has an empty key; such a signer never
	// accepts a link.
	ErrNoKey = errors.New("signedurl: empty signing key")
)

// Signer signs and verifies links with an HMAC-SHA256 key. The zero value
// of Now means time.Now. A Signer is safe for concurrent use as long as its
// fields are not modified.
type Signer struct {
	Key []byte
	Now func() time.Time
}

// NewSigner returns a Signer using a copy of key and the system clock. The
// key should be at least 32 random bytes. A Signer with an empty key still
// produces links, but Verify rejects every link with ErrNoKey.
func NewSigner(key []byte) *Signer {
	return &Signer{Key: append([]byte(nil), key...), Now: time.Now}
}

func (s *Signer) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Sign returns path with expires and sig query parameters appended; the link
// is valid until now+ttl (rounded down to whole seconds). path is used as
// given (the caller is responsible for escaping it); if it already contains
// a query string, the new parameters are appended with '&' and the existing
// parameters are covered by the signature. Existing expires or sig
// parameters in path make the link unverifiable (Verify reports
// ErrMalformed).
func (s *Signer) Sign(path string, ttl time.Duration) string {
	expires := strconv.FormatInt(s.now().Add(ttl).Unix(), 10)
	p, rawQuery, hasQuery := strings.Cut(path, "?")
	// Strip a fragment, which a browser would never send anyway.
	if hasQuery {
		rawQuery, _, _ = strings.Cut(rawQuery, "#")
	} else {
		p, _, _ = strings.Cut(p, "#")
	}
	decoded, err := url.PathUnescape(p)
	if err != nil {
		decoded = p // cannot verify later either; see Verify
	}
	q, _ := url.ParseQuery(rawQuery)
	sig := s.mac(decoded, q, expires)

	var b strings.Builder
	b.Grow(len(p) + len(rawQuery) + 80)
	b.WriteString(p)
	if hasQuery && rawQuery != "" {
		b.WriteByte('?')
		b.WriteString(rawQuery)
		b.WriteByte('&')
	} else {
		b.WriteByte('?')
	}
	b.WriteString(ParamExpires + "=")
	b.WriteString(expires)
	b.WriteString("&" + ParamSignature + "=")
	b.WriteString(base64.RawURLEncoding.EncodeToString(sig))
	return b.String()
}

// Verify checks a signed link, given as a request URI ("/path?query") or an
// absolute URL. It returns nil if the signature is valid and the link has
// not expired, and otherwise one of ErrMissingParams, ErrMalformed,
// ErrBadSignature, ErrExpired or ErrNoKey. The signature is checked before
// the expiry, with a constant-time comparison.
func (s *Signer) Verify(pathWithQuery string) error {
	if len(s.Key) == 0 {
		return ErrNoKey
	}
	u, err := url.Parse(pathWithQuery)
	if err != nil {
		return ErrMalformed
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return ErrMalformed
	}
	exps, sigs := q[ParamExpires], q[ParamSignature]
	if len(exps) == 0 || len(sigs) == 0 || exps[0] == "" || sigs[0] == "" {
		return ErrMissingParams
	}
	if len(exps) > 1 || len(sigs) > 1 {
		return ErrMalformed
	}
	expires, err := strconv.ParseInt(exps[0], 10, 64)
	if err != nil || strconv.FormatInt(expires, 10) != exps[0] {
		// Reject non-canonical forms such as "+123" or "0123" so that a
		// signature covers exactly one spelling.
		return ErrMalformed
	}
	got, err := base64.RawURLEncoding.DecodeString(sigs[0])
	if err != nil {
		return ErrBadSignature
	}
	q.Del(ParamExpires)
	q.Del(ParamSignature)
	want := s.mac(u.Path, q, exps[0])
	if !hmac.Equal(got, want) {
		return ErrBadSignature
	}
	if s.now().Unix() > expires {
		return ErrExpired
	}
	return nil
}

// mac computes the HMAC over the canonical message for a decoded path, the
// remaining query parameters and the expiry.
func (s *Signer) mac(path string, q url.Values, expires string) []byte {
	m := hmac.New(sha256.New, s.Key)
	m.Write([]byte("v1\n"))
	m.Write([]byte(path))
	m.Write([]byte("\n"))
	m.Write([]byte(q.Encode()))
	m.Write([]byte("\n"))
	m.Write([]byte(expires))
	return m.Sum(nil)
}
