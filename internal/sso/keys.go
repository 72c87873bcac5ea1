package sso

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"quire/ent"
	"quire/ent/serversecret"
	"quire/internal/db"
)

// spKeyName is the name of the service provider's key and certificate in
// the server secrets.
const spKeyName = "saml-sp-key"

// spKeys is Quire's key and certificate as a SAML service provider: it
// decrypts encrypted assertions (the metadata offers its certificate to
// encrypt them with). Generated the
// first time they are needed and kept in the database (a PEM key then a PEM
// certificate), so that every process sharing it signs with the same key
// and the identity providers know one certificate.
type spKeys struct {
	mu   sync.Mutex
	key  *rsa.PrivateKey
	cert *x509.Certificate
}

func (s *Service) spKey(ctx context.Context) (*rsa.PrivateKey, *x509.Certificate, error) {
	s.sp.mu.Lock()
	defer s.sp.mu.Unlock()
	if s.sp.key != nil {
		return s.sp.key, s.sp.cert, nil
	}
	var bundle []byte
	if sec, err := s.Client.ServerSecret.Get(ctx, spKeyName); err == nil {
		bundle = sec.Value
	} else if !ent.IsNotFound(err) {
		return nil, nil, fmt.Errorf("read SAML key: %w", err)
	} else {
		fresh, err := newBundle()
		if err != nil {
			return nil, nil, err
		}
		err = db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
			ierr := tx.ServerSecret.Create().SetID(spKeyName).SetValue(fresh).
				OnConflictColumns(serversecret.FieldID).DoNothing().Exec(ctx)
			// Whether this insert won or another process's did, the stored
			// row is the key.
			sec, err := tx.ServerSecret.Get(ctx, spKeyName)
			if err != nil {
				return errors.Join(ierr, err)
			}
			bundle = sec.Value
			return nil
		})
		if err != nil {
			return nil, nil, fmt.Errorf("store SAML key: %w", err)
		}
	}
	kb, rest := pem.Decode(bundle)
	cb, _ := pem.Decode(rest)
	if kb == nil || cb == nil {
		return nil, nil, errors.New("SAML key: the stored bundle is not a PEM key and certificate")
	}
	key, err := x509.ParsePKCS1PrivateKey(kb.Bytes)
	if err != nil {
		return nil, nil, fmt.Errorf("SAML key: %w", err)
	}
	cert, err := x509.ParseCertificate(cb.Bytes)
	if err != nil {
		return nil, nil, fmt.Errorf("SAML certificate: %w", err)
	}
	s.sp.key, s.sp.cert = key, cert
	return key, cert, nil
}

// newBundle generates an RSA key and a self-signed certificate for it,
// valid twenty years (identity providers pin it; it is never rotated
// unless the secret is deleted).
func newBundle() ([]byte, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, fmt.Errorf("generate SAML key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return nil, fmt.Errorf("generate SAML certificate: %w", err)
	}
	now := time.Now().UTC()
	tmpl := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: "Quire SAML service provider"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(20, 0, 0),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, fmt.Errorf("generate SAML certificate: %w", err)
	}
	out := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	return append(out, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})...), nil
}
