package sso_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"quire/internal/sso/ssotest"
	"quire/internal/testing/testenv"
)

// TestSAMLSignIn signs a user in through a real identity provider:
// AuthnRequest → identity provider → signed response → ACS → token → an
// API call as that user.
func TestSAMLSignIn(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		adm := team.Admin.Token
		org := "/v1/orgs/" + team.Org.ID
		tr := e.Do(adm, "PUT", org+"/teams", map[string]any{"title": "From SSO"})
		if tr.Status != 201 {
			t.Fatalf("team: %d %s", tr.Status, tr.Body)
		}
		teamID := tr.JSON()["id"].(string)
		space := e.Do(adm, "POST", org+"/spaces", map[string]any{"title": "Handbook"})
		spaceID := space.JSON()["id"].(string)

		idp := ssotest.NewIdP(t)
		idp.AddUser(t, "alice", "alice@acme.test", "Alice Liddell")
		// The organization owns its domain: its identity provider may sign
		// in the addresses of it.
		if r := e.Do(adm, "PATCH", org, map[string]any{"emailDomains": []string{"acme.test"}}); r.Status != 200 {
			t.Fatalf("email domains: %d %s", r.Status, r.Body)
		}

		// The provider is pending until fully configured.
		r := e.Do(adm, "POST", org+"/saml", map[string]any{"label": "Test IdP", "defaultRole": "comment", "defaultTeam": teamID})
		if r.Status != 201 || r.JSON()["status"] != "pending" {
			t.Fatalf("create provider: %d %s", r.Status, r.Body)
		}
		p := r.JSON()
		pid := p["id"].(string)
		if r.Header.Get("Location") != e.URL+org+"/saml/"+pid {
			t.Errorf("Location %q", r.Header.Get("Location"))
		}
		if l := e.Do("", "GET", org+"/sso", nil); l.Status != 200 || len(l.JSON()["items"].([]any)) != 0 {
			t.Errorf("logins of a pending provider: %d %s", l.Status, l.Body)
		}
		r = e.Do(adm, "PATCH", org+"/saml/"+pid, idp.Settings())
		if r.Status != 200 || r.JSON()["status"] != "active" {
			t.Fatalf("configure provider: %d %s", r.Status, r.Body)
		}
		service := r.JSON()["service"].(map[string]any)
		base := e.URL + "/sso/saml/" + pid
		if service["acsURL"] != base+"/acs" || service["startURL"] != base+"/start" || service["entityID"] != base+"/metadata" {
			t.Errorf("service %v", service)
		}
		// Anyone may list the ways in, without a token.
		logins := e.Do("", "GET", org+"/sso", nil)
		if logins.Status != 200 || testenv.Path(logins.JSON(), "items", 0, "startURL") != base+"/start" || testenv.Path(logins.JSON(), "items", 0, "label") != "Test IdP" {
			t.Errorf("logins: %d %s", logins.Status, logins.Body)
		}
		idp.Register(t, "quire", service["entityID"].(string))

		// Alice has no account yet: her address is of the organization's
		// domain, so signing in makes one.
		b := ssotest.NewBrowser(t)
		resp, page := b.Get(service["startURL"].(string))
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Request.URL.String(), idp.SSOURL()) {
			t.Fatalf("start: %d at %s: %.300s", resp.StatusCode, resp.Request.URL, page)
		}
		q := resp.Request.URL.Query()
		if q.Get("SAMLRequest") == "" || q.Get("RelayState") == "" {
			t.Errorf("the redirect carries no AuthnRequest: %s", resp.Request.URL)
		}
		action, fields := ssotest.Form(t, page)
		fields.Set("user", "alice")
		fields.Set("password", "secret-alice")
		resp, page = b.Post(action, fields)
		if resp.StatusCode != 200 {
			t.Fatalf("sign in at the identity provider: %d %.500s", resp.StatusCode, page)
		}
		acs, answer := ssotest.Form(t, page)
		if acs != service["acsURL"] || answer.Get("SAMLResponse") == "" {
			t.Fatalf("the identity provider posts to %s: %v", acs, answer)
		}
		resp, body := b.Post(acs, answer)
		if resp.StatusCode != 200 {
			t.Fatalf("ACS: %d %s", resp.StatusCode, body)
		}
		var in struct {
			Token   string `json:"token"`
			TokenID string `json:"tokenId"`
			User    struct {
				ID, Email, DisplayName string
			} `json:"user"`
			Organization struct{ ID string } `json:"organization"`
		}
		if err := json.Unmarshal([]byte(body), &in); err != nil || in.Token == "" || in.User.Email != "alice@acme.test" || in.Organization.ID != team.Org.ID {
			t.Fatalf("ACS answer %s: %v", body, err)
		}
		alice, err := e.Client().User.Get(context.Background(), in.User.ID)
		if err != nil || alice.EmailVerifiedAt == nil {
			t.Fatalf("provisioned user: %+v %v", alice, err)
		}
		// She is an admin of another organization too, which the token
		// from single sign-on does not reach.
		e.Member(team.Other, alice, "admin")

		// The token works, as Alice, in this organization alone.
		me := e.Do(in.Token, "GET", "/v1/user", nil)
		if me.Status != 200 || me.JSON()["id"] != alice.ID {
			t.Errorf("GET /v1/user: %d %s", me.Status, me.Body)
		}
		m := e.Do(in.Token, "GET", org+"/members/"+alice.ID, nil)
		if m.Status != 200 || m.JSON()["role"] != "comment" || m.JSON()["sso"] != true || m.JSON()["teams"] != float64(1) {
			t.Errorf("provisioned member: %d %s", m.Status, m.Body)
		}
		if sp := e.Do(in.Token, "GET", "/v1/spaces/"+spaceID, nil); sp.Status != 200 || testenv.Path(sp.JSON(), "permissions", "comment") != true {
			t.Errorf("space as Alice: %d %s", sp.Status, sp.Body)
		}
		orgs := e.Do(in.Token, "GET", "/v1/orgs", nil)
		if orgs.Status != 200 || orgs.JSON()["count"] != float64(1) || testenv.Path(orgs.JSON(), "items", 0, "id") != team.Org.ID {
			t.Errorf("a token from single sign-on reaches other organizations: %s", orgs.Body)
		}
		if r := e.Do(in.Token, "GET", "/v1/orgs/"+team.Other.ID, nil); r.Status != 404 {
			t.Errorf("other organization with the SSO token: %d", r.Status)
		}

		// The same response again is refused, and so is a changed one.
		if resp, body := b.Post(acs, answer); resp.StatusCode != 403 || !strings.Contains(body, "already used") {
			t.Errorf("replayed response: %d %s", resp.StatusCode, body)
		}
		resp, page = b.Get(service["startURL"].(string))
		if resp.StatusCode != 200 {
			t.Fatalf("second start: %d", resp.StatusCode)
		}
		// Signed in at the identity provider already: it answers at once.
		acs, answer = ssotest.Form(t, page)
		// The response is signed (its assertion encrypted): change when it
		// was issued by a year.
		raw, _ := base64.StdEncoding.DecodeString(answer.Get("SAMLResponse"))
		at := strings.Index(string(raw), `IssueInstant="`) + len(`IssueInstant="`) + 3
		if at < 20 {
			t.Fatalf("no IssueInstant in %.300s", raw)
		}
		b3 := []byte(raw)
		b3[at] = '0' + (b3[at]-'0'+9)%10
		tampered := string(b3)
		forged := url.Values{"SAMLResponse": {base64.StdEncoding.EncodeToString([]byte(tampered))}, "RelayState": {answer.Get("RelayState")}}
		if resp, body := b.Post(acs, forged); resp.StatusCode != 403 || !strings.Contains(body, "could not be verified") {
			t.Errorf("tampered response: %d %s", resp.StatusCode, body)
		}
		if resp, _ := b.Post(acs, url.Values{"SAMLResponse": {answer.Get("SAMLResponse")}}); resp.StatusCode != 400 {
			t.Errorf("no RelayState: %d", resp.StatusCode)
		}

		// A new user is provisioned just in time, with a verified email.
		idp.AddUser(t, "bob", "bob@acme.test", "Bob Builder")
		b2 := ssotest.NewBrowser(t)
		_, page = b2.Get(service["startURL"].(string))
		action, fields = ssotest.Form(t, page)
		fields.Set("user", "bob")
		fields.Set("password", "secret-bob")
		_, page = b2.Post(action, fields)
		acs, answer = ssotest.Form(t, page)
		resp, body = b2.Post(acs, answer)
		if resp.StatusCode != 200 {
			t.Fatalf("Bob's ACS: %d %s", resp.StatusCode, body)
		}
		var bob struct {
			Token string `json:"token"`
			User  struct {
				ID          string `json:"id"`
				DisplayName string `json:"displayName"`
			} `json:"user"`
		}
		json.Unmarshal([]byte(body), &bob)
		if bob.User.DisplayName != "Bob Builder" {
			t.Errorf("Bob: %s", body)
		}
		u, err := e.Client().User.Get(t.Context(), bob.User.ID)
		if err != nil || u.EmailVerifiedAt == nil || u.Email != "bob@acme.test" {
			t.Errorf("Bob's user: %+v %v", u, err)
		}

		// Started for the members' area (?to=app), the sign-in ends there,
		// with a session cookie instead of a token in the answer.
		resp, page = b2.Get(service["startURL"].(string) + "?to=app")
		if resp.StatusCode != 200 {
			t.Fatalf("start for the members' area: %d", resp.StatusCode)
		}
		acs, answer = ssotest.Form(t, page)
		resp, body = b2.Post(acs, answer)
		if resp.StatusCode != 200 || resp.Request.URL.Path != "/app/o/"+team.Org.ID ||
			!strings.Contains(resp.Header.Get("Content-Type"), "text/html") || !strings.Contains(body, ">Handbook</a>") {
			t.Errorf("members' area after single sign-on: %d at %s: %.300s", resp.StatusCode, resp.Request.URL, body)
		}
		if strings.Contains(body, `"token"`) {
			t.Errorf("the members' area sign-in shows the token: %.300s", body)
		}

		// Once the organization enforces single sign-on, members who did
		// not sign in through it are refused its content (admins are not).
		if r := e.Do(adm, "PATCH", org, map[string]any{"sso": true}); r.Status != 200 {
			t.Fatalf("enforce SSO: %d %s", r.Status, r.Body)
		}
		if r := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+spaceID, nil); r.Status != 403 || !strings.Contains(string(r.Body), "single sign-on") {
			t.Errorf("non-SSO member: %d %s", r.Status, r.Body)
		}
		if r := e.Do(team.Reader.Token, "GET", org, nil); r.Status != 200 {
			t.Errorf("the organization itself: %d", r.Status)
		}
		if r := e.Do(in.Token, "GET", "/v1/spaces/"+spaceID, nil); r.Status != 200 {
			t.Errorf("SSO member: %d %s", r.Status, r.Body)
		}
		if r := e.Do(adm, "GET", "/v1/spaces/"+spaceID, nil); r.Status != 200 {
			t.Errorf("admin: %d", r.Status)
		}
		// The last active provider stays while SSO is enforced.
		if r := e.Do(adm, "DELETE", org+"/saml/"+pid, nil); r.Status != 400 {
			t.Errorf("delete the enforced provider: %d %s", r.Status, r.Body)
		}
	})
}
