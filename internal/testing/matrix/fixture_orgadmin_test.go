package matrix_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"time"
)

// instructions is the document of the fixture's agent instructions.
var instructions = map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{map[string]any{
	"object": "block", "type": "paragraph", "nodes": []any{map[string]any{"object": "text", "leaves": []any{
		map[string]any{"object": "leaf", "text": "Be brief.", "marks": []any{}}}}}}}}

// orgAdmin gives an organization what the routes of its administration
// name: its email domain, invite links on, a member who is no caller
// (userId, role edit), a team holding them (teamId), the levels of both on
// the space and the collection, an invite link (a secret: admins only), a
// SAML provider (active in A, whose login options are public; pending in
// B, which has none) and agent instructions.
func (w *world) orgAdmin(o *orgFx, domain string, active bool) {
	t := w.t
	t.Helper()
	tok := o.admin.Token
	org := "/v1/orgs/" + o.org.ID
	w.do(tok, "PATCH", org, map[string]any{"emailDomains": []string{domain}, "inviteLinks": true}, 200)
	writer, wtok := w.e.User("writer@" + domain)
	_ = wtok
	w.e.Member(o.org, writer, "edit")
	o.ids["userId"] = writer.ID
	o.own[writer.ID], o.people[writer.ID] = true, true
	team := w.do(tok, "PUT", org+"/teams", map[string]any{"title": "Writers", "members": []string{writer.ID}}, 201)["id"].(string)
	o.ids["teamId"] = team
	o.own[team] = true
	w.grants(tok, o.ids)
	invite := w.create(tok, org+"/link-invites", map[string]any{"role": "read"})
	o.ids["inviteId"] = invite
	o.own[invite], o.secrets[invite] = true, true
	saml := map[string]any{"label": "Test IdP"}
	if active {
		saml["entityID"], saml["ssoURL"], saml["certificate"] = "https://idp."+domain+"/metadata", "https://idp."+domain+"/sso", testCertificate(t)
	}
	o.ids["samlProviderId"] = w.create(tok, org+"/saml", saml)
	w.do(tok, "PUT", org+"/agent-instructions", map[string]any{"instructions": instructions}, 200)
}

// grants gives the member and the team of ids levels on the space and the
// collection of ids.
func (w *world) grants(tok string, ids map[string]string) {
	w.t.Helper()
	body := map[string]any{"role": "read", "users": []string{ids["userId"]}, "teams": []string{ids["teamId"]}}
	w.do(tok, "POST", "/v1/spaces/"+ids["spaceId"]+"/permissions", body, 204)
	w.do(tok, "POST", "/v1/collections/"+ids["collectionId"]+"/permissions", body, 204)
}

// club is an organization anyone may join through its invite link, as a
// guest, for the operation that joins (joining A or B would change what the
// callers may see); guests see none of its people, so nobody's view of A
// or B depends on it.
func (w *world) club() {
	t := w.t
	t.Helper()
	c := w.e.Org("Club")
	// Administered by someone who is no caller; the callers join it as
	// guests, who do not see one another.
	owner, tok := w.e.User("owner@club.test")
	w.e.Member(c, owner, "admin")
	org := "/v1/orgs/" + c.ID
	w.do(tok, "PATCH", org, map[string]any{"inviteLinks": true}, 200)
	w.a.ids["club"] = c.ID
	w.a.ids["clubInvite"] = w.create(tok, org+"/link-invites", map[string]any{"role": nil})
}

// freshAdmin makes anew, for freshOrgAdmin's kinds, what a success would
// spoil; it reports whether params named one.
func (w *world) freshAdmin(ids map[string]string, has map[string]bool, title string) bool {
	o := w.a
	tok := o.admin.Token
	org := "/v1/orgs/" + o.org.ID
	switch {
	case has["teamId"]:
		ids["teamId"] = w.do(tok, "PUT", org+"/teams", map[string]any{"title": title, "members": []string{ids["userId"]}}, 201)["id"].(string)
	case has["inviteId"]:
		ids["inviteId"] = w.create(tok, org+"/link-invites", map[string]any{"role": "read"})
	case has["samlProviderId"]:
		ids["samlProviderId"] = w.create(tok, org+"/saml", map[string]any{"label": "Fresh IdP"})
	case has["userId"]:
		u, _ := w.e.User(fmt.Sprintf("fresh%d@acme.test", w.n))
		w.e.Member(o.org, u, "edit")
		ids["userId"] = u.ID
	default:
		return false
	}
	return true
}

// testCertificate is a self-signed certificate in PEM.
func testCertificate(t interface{ Fatal(...any) }) string {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "matrix IdP"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}
