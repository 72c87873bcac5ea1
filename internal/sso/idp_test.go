package sso_test

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

// idp is a SAML identity provider running in the test's process (crewjam's
// samlidp), on 127.0.0.1.
type idp struct {
	srv     *samlidp.Server
	http    *httptest.Server
	certPEM string
}

func newIdP(t *testing.T) *idp {
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
	return &idp{srv: srv, http: hs, certPEM: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))}
}

func (i *idp) entityID() string { return i.srv.IDP.MetadataURL.String() }
func (i *idp) ssoURL() string   { return i.srv.IDP.SSOURL.String() }

// addUser adds a user who signs in with a password.
func (i *idp) addUser(t *testing.T, name, email, common string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"name": name, "password": "secret-" + name, "email": email, "common_name": common})
	i.put(t, "/users/"+name, "application/json", body)
}

// register gives the identity provider a service provider's metadata.
func (i *idp) register(t *testing.T, id, metadataURL string) {
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

func (i *idp) put(t *testing.T, path, ct string, body []byte) {
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

// browser is a client that keeps cookies and follows redirects, as a
// browser does.
type browser struct {
	t *testing.T
	c *http.Client
}

func newBrowser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, c: &http.Client{Jar: jar, Timeout: 10 * time.Second}}
}

func (b *browser) get(u string) (*http.Response, string) {
	b.t.Helper()
	r, err := b.c.Get(u)
	if err != nil {
		b.t.Fatal(err)
	}
	defer r.Body.Close()
	body, _ := io.ReadAll(r.Body)
	return r, string(body)
}

func (b *browser) post(u string, form url.Values) (*http.Response, string) {
	b.t.Helper()
	r, err := b.c.PostForm(u, form)
	if err != nil {
		b.t.Fatal(err)
	}
	defer r.Body.Close()
	body, _ := io.ReadAll(r.Body)
	return r, string(body)
}

var (
	actionPattern = regexp.MustCompile(`<form[^>]*action="([^"]*)"`)
	inputPattern  = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)"`)
)

// form reads an HTML form: where it posts, and its hidden fields.
func form(t *testing.T, page string) (string, url.Values) {
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
