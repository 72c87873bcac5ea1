package rest_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"strings"
	"testing"
	"time"

	"quire/internal/testing/testenv"
)

func TestSAMLProviders(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		adm := team.Admin.Token
		org := "/v1/orgs/" + team.Org.ID
		saml := org + "/saml"
		ctGetPatch(t, e, adm, org, map[string]any{"defaultRole": "comment"})
		tr := e.Do(adm, "PUT", org+"/teams", map[string]any{"title": "SSO"})
		ctWant(t, tr, 201, "team")
		tid := tr.JSON()["id"].(string)

		r := e.Do(adm, "POST", saml, map[string]any{"label": "Okta", "defaultTeam": tid})
		ctWant(t, r, 201, "create")
		p := r.JSON()
		pid := p["id"].(string)
		if p["status"] != "pending" || p["defaultRole"] != "comment" || testenv.Path(p, "defaultTeam", "id") != tid || p["ssoURL"] != "about:blank" {
			t.Errorf("created: %v", p)
		}
		cert := selfSigned(t)
		p = ctGetPatch(t, e, adm, saml+"/"+pid, map[string]any{"entityID": "https://idp.acme.test", "ssoURL": "https://idp.acme.test/sso",
			"certificate": cert, "defaultRole": nil, "defaultTeam": nil})
		if p["status"] != "active" || p["defaultRole"] != nil || p["defaultTeam"] != nil || p["certificate"] != strings.TrimSpace(cert) {
			t.Errorf("configured: %v", p)
		}
		// about:blank, as read, clears the URL.
		if p := ctGetPatch(t, e, adm, saml+"/"+pid, map[string]any{"ssoURL": "about:blank"}); p["status"] != "pending" || p["ssoURL"] != "about:blank" {
			t.Errorf("cleared: %v", p)
		}
		ctEq(t, "providers", ctList(t, e, adm, saml), []string{pid})
		for _, c := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{}, "label"},
			{map[string]any{"label": ""}, "label"},
			{map[string]any{"label": strings.Repeat("x", 31)}, "label"},
			{map[string]any{"label": "X", "entityID": strings.Repeat("e", 1025)}, "entityID"},
			{map[string]any{"label": "X", "ssoURL": "ftp://idp.test"}, "ssoURL"},
			{map[string]any{"label": "X", "ssoURL": "https://idp.test/" + strings.Repeat("a", 2048)}, "ssoURL"},
			{map[string]any{"label": "X", "certificate": "-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----"}, "certificate"},
			{map[string]any{"label": "X", "certificate": strings.Repeat("c", 10001)}, "certificate"},
			{map[string]any{"label": "X", "defaultTeam": "D0000000000000000000"}, "defaultTeam"},
			{map[string]any{"label": "X", "defaultRole": "owner"}, "defaultRole"},
		} {
			ctErr(t, e.Do(adm, "POST", saml, c.body), 400, c.field, "create "+c.field)
		}
		ctErr(t, e.Do(team.Editor.Token, "GET", saml, nil), 403, "", "editor lists")
		ctErr(t, e.Do(team.Outsider.Token, "GET", saml+"/"+pid, nil), 404, "", "outsider")
		ctErr(t, e.Do(adm, "GET", saml+"/Z0000000000000000000", nil), 404, "", "unknown")

		// GraphQL: the same rules and messages.
		q := `mutation($o: ID!, $in: SAMLProviderInput!) { createSAMLProvider(organization: $o, input: $in) { id status service { startURL } } }`
		g := e.GraphQL(adm, q, map[string]any{"o": team.Org.ID, "in": map[string]any{"label": "X", "ssoURL": "ftp://idp.test"}})
		rest := e.Do(adm, "POST", saml, map[string]any{"label": "X", "ssoURL": "ftp://idp.test"})
		if g.Code() != "BAD_REQUEST" || g.Errors[0].Extensions["field"] != "ssoURL" || g.Errors[0].Message != testenv.Path(rest.JSON(), "error", "message") {
			t.Errorf("GraphQL %s; REST %s", g.Raw, rest.Body)
		}
		g = e.GraphQL(adm, `query($o: ID!) { organization(id: $o) { samlProviders { totalCount nodes { id status defaultTeam { id } } } } }`, map[string]any{"o": team.Org.ID})
		if len(g.Errors) > 0 || testenv.Path(g.Data, "organization", "samlProviders", "totalCount") != float64(1) {
			t.Errorf("GraphQL list: %s", g.Raw)
		}
		g = e.GraphQL(team.Reader.Token, `query($o: ID!) { ssoLogins(organization: $o) { id } }`, map[string]any{"o": team.Org.ID})
		if len(g.Errors) > 0 || len(g.Data["ssoLogins"].([]any)) != 0 {
			t.Errorf("GraphQL logins of a pending provider: %s", g.Raw)
		}

		ctEmpty(t, e.Do(adm, "DELETE", saml+"/"+pid, nil), 205, "delete")
		ctEmpty(t, e.Do(adm, "DELETE", saml+"/"+pid, nil), 204, "delete again")
	})
}

func selfSigned(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "idp"}, NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})) + "\n"
}
