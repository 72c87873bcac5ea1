// Package ssotest gives tests a SAML identity provider of their own
// (crewjam's samlidp, on 127.0.0.1) and a browser to sign in through it:
// the identity provider signs whatever email address its users are given,
// as any identity provider an organization's admin configures may.
package ssotest

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"html"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/crewjam/saml/samlidp"
)

// IdP is a SAML identity provider running in the test's process.
type IdP struct {
	srv  *samlidp.Server
	http *httptest.Server
	// CertPEM is its signing certificate, as a provider's settings take it.
	CertPEM string
}

// NewIdP starts an identity provider with a new key, stopped when the test
// ends.
func NewIdP(t testing.TB) *IdP {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "test IdP"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	hs := httptest.NewServer(nil)
	t.Cleanup(hs.Close)
	u, _ := url.Parse(hs.URL)
	srv, err := samlidp.New(samlidp.Options{URL: *u, Key: key, Signer: key, Certificate: cert, Store: &samlidp.MemoryStore{},
		Logger: log.New(io.Discard, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	hs.Config.Handler = srv
	return &IdP{srv: srv, http: hs, CertPEM: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))}
}

// EntityID is the identity provider's entity ID (its metadata URL).
func (i *IdP) EntityID() string { return i.srv.IDP.MetadataURL.String() }

// SSOURL is where the identity provider takes authentication requests.
func (i *IdP) SSOURL() string { return i.srv.IDP.SSOURL.String() }

// Settings are a provider's settings (PATCH body) that make it trust this
// identity provider.
func (i *IdP) Settings() map[string]any {
	return map[string]any{"entityID": i.EntityID(), "ssoURL": i.SSOURL(), "certificate": i.CertPEM}
}

// AddUser adds a user who signs in with the password "secret-" + name; the
// identity provider asserts email for them, whoever owns it.
func (i *IdP) AddUser(t testing.TB, name, email, common string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"name": name, "password": "secret-" + name, "email": email, "common_name": common})
	i.put(t, "/users/"+name, "application/json", body)
}

// Register gives the identity provider a service provider's metadata.
func (i *IdP) Register(t testing.TB, id, metadataURL string) {
	t.Helper()
	r, err := http.Get(metadataURL)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	md, _ := io.ReadAll(r.Body)
	if r.StatusCode != 200 || !strings.Contains(string(md), "SPSSODescriptor") {
		t.Fatalf("service provider metadata: %d %s", r.StatusCode, md)
	}
	i.put(t, "/services/"+id, "application/samlmetadata+xml", md)
}

func (i *IdP) put(t testing.TB, path, ct string, body []byte) {
	t.Helper()
	req, _ := http.NewRequest("PUT", i.http.URL+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	if r.StatusCode/100 != 2 {
		b, _ := io.ReadAll(r.Body)
		t.Fatalf("PUT %s: %d %s", path, r.StatusCode, b)
	}
}

// Browser is a client that keeps cookies and follows redirects, as a
// browser does.
type Browser struct {
	t testing.TB
	c *http.Client
}

// NewBrowser returns a browser with no cookies.
func NewBrowser(t testing.TB) *Browser {
	jar, _ := cookiejar.New(nil)
	return &Browser{t: t, c: &http.Client{Jar: jar, Timeout: 10 * time.Second}}
}

// Get fetches u and returns the response and its body.
func (b *Browser) Get(u string) (*http.Response, string) {
	b.t.Helper()
	r, err := b.c.Get(u)
	if err != nil {
		b.t.Fatal(err)
	}
	defer r.Body.Close()
	body, _ := io.ReadAll(r.Body)
	return r, string(body)
}

// Post posts a form to u and returns the response and its body.
func (b *Browser) Post(u string, form url.Values) (*http.Response, string) {
	b.t.Helper()
	r, err := b.c.PostForm(u, form)
	if err != nil {
		b.t.Fatal(err)
	}
	defer r.Body.Close()
	body, _ := io.ReadAll(r.Body)
	return r, string(body)
}

// Assert starts a sign-in at a provider's start URL and signs in at the
// identity provider as its user name; it returns where the identity
// provider posts its signed response (the ACS URL) and the form it posts,
// not yet posted.
func (b *Browser) Assert(startURL, name string) (string, url.Values) {
	b.t.Helper()
	resp, page := b.Get(startURL)
	if resp.StatusCode != 200 {
		b.t.Fatalf("start: %d at %s: %.300s", resp.StatusCode, resp.Request.URL, page)
	}
	action, fields := Form(b.t, page)
	fields.Set("user", name)
	fields.Set("password", "secret-"+name)
	resp, page = b.Post(action, fields)
	if resp.StatusCode != 200 {
		b.t.Fatalf("sign in at the identity provider: %d %.500s", resp.StatusCode, page)
	}
	return Form(b.t, page)
}

var (
	actionPattern = regexp.MustCompile(`<form[^>]*action="([^"]*)"`)
	inputPattern  = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)"`)
)

// Form reads an HTML form: where it posts, and its hidden fields.
func Form(t testing.TB, page string) (string, url.Values) {
	t.Helper()
	m := actionPattern.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no form in %.500s", page)
	}
	v := url.Values{}
	for _, in := range inputPattern.FindAllStringSubmatch(page, -1) {
		v.Set(in[1], html.UnescapeString(in[2]))
	}
	return html.UnescapeString(m[1]), v
}
