package sso_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"quire/ent/apitoken"
	"quire/ent/member"
	"quire/ent/user"
	"quire/internal/sso/ssotest"
	"quire/internal/testing/testenv"
)

// verify marks a user's email address verified.
func verify(t *testing.T, e *testenv.Env, userID string) {
	t.Helper()
	if err := e.Client().User.UpdateOneID(userID).SetEmailVerifiedAt(time.Now().UTC()).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// rows sums up the rows a sign-in may write: users, memberships, team
// memberships and tokens.
func rows(t *testing.T, e *testenv.Env) string {
	t.Helper()
	ctx := context.Background()
	c := e.Client()
	u, err1 := c.User.Query().Count(ctx)
	m, err2 := c.Member.Query().Count(ctx)
	tm, err3 := c.TeamMember.Query().Count(ctx)
	tok, err4 := c.APIToken.Query().Count(ctx)
	for _, err := range []error{err1, err2, err3, err4} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return fmt.Sprintf("users %d, members %d, team members %d, tokens %d", u, m, tm, tok)
}

// acsAnswer is the ACS's answer: a sign-in or the API's error shape.
type acsAnswer struct {
	status int
	body   string
	Token  string `json:"token"`
	User   struct {
		ID string `json:"id"`
	} `json:"user"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// signIn signs in through the identity provider as its user name, in a
// new browser, and posts the response to the ACS.
func signIn(t *testing.T, startURL, name string) acsAnswer {
	t.Helper()
	b := ssotest.NewBrowser(t)
	acs, form := b.Assert(startURL, name)
	resp, body := b.Post(acs, form)
	a := acsAnswer{status: resp.StatusCode, body: body}
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		t.Fatalf("ACS answer %d %s: %v", resp.StatusCode, body, err)
	}
	return a
}

// refusedWith checks a refusal in the documented error shape, with no
// token, that wrote nothing.
func refusedWith(t *testing.T, e *testenv.Env, a acsAnswer, before, want, what string) {
	t.Helper()
	if a.status != 403 || a.Error == nil || a.Error.Code != 403 || !strings.Contains(a.Error.Message, want) || a.Token != "" {
		t.Errorf("%s: %d %s, want 403 with %q", what, a.status, a.body, want)
	}
	if after := rows(t, e); after != before {
		t.Errorf("%s wrote rows: before %s, after %s", what, before, after)
	}
}

// TestSAMLIdentityRule asks one organization's identity provider to sign in
// addresses of every kind: it signs in its organization's members and the
// addresses of the organization's email domains, and nobody else.
func TestSAMLIdentityRule(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		ctx := context.Background()
		team := e.NewTeam()
		// B is the organization whose admin holds the identity provider;
		// A (team.Org, acme.test) is another organization on the server.
		a, b := team.Org, team.Other
		bAdm := team.Outsider.Token
		borg := "/v1/orgs/" + b.ID
		if r := e.Do(bAdm, "PATCH", borg, map[string]any{"emailDomains": []string{"other.test"}}); r.Status != 200 {
			t.Fatalf("email domains: %d %s", r.Status, r.Body)
		}
		r := e.Do(bAdm, "POST", borg+"/saml", map[string]any{"label": "B's IdP", "defaultRole": "admin"})
		if r.Status != 201 {
			t.Fatalf("create provider: %d %s", r.Status, r.Body)
		}
		pid := r.JSON()["id"].(string)
		idp := ssotest.NewIdP(t)
		r = e.Do(bAdm, "PATCH", borg+"/saml/"+pid, idp.Settings())
		if r.Status != 200 || r.JSON()["status"] != "active" {
			t.Fatalf("configure provider: %d %s", r.Status, r.Body)
		}
		idp.Register(t, "quire", testenv.Path(r.JSON(), "service", "entityID").(string))
		start := e.URL + "/sso/saml/" + pid + "/start"

		// A's admin's address, verified; the identity provider asserts it
		// (and in other letter case).
		aAdmin := team.Admin.User
		verify(t, e, aAdmin.ID)
		idp.AddUser(t, "mallory", aAdmin.Email, "Mallory")
		idp.AddUser(t, "mallory2", strings.ToUpper(aAdmin.Email), "Mallory")
		aTokens := func() int {
			n, err := e.Client().APIToken.Query().Where(apitoken.UserID(aAdmin.ID)).Count(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		tokensBefore := aTokens()
		for _, name := range []string{"mallory", "mallory2"} {
			before := rows(t, e)
			ans := signIn(t, start, name)
			refusedWith(t, e, ans, before, "signs in only members of its organization", "another organization's admin")
			if strings.Contains(ans.body, aAdmin.ID) {
				t.Errorf("the refusal shows the user's id: %s", ans.body)
			}
		}
		if n, err := e.Client().Member.Query().Where(member.OrganizationID(b.ID), member.UserID(aAdmin.ID)).Count(ctx); err != nil || n != 0 {
			t.Errorf("A's admin became a member of B: %d %v", n, err)
		}
		if m, err := e.Client().Member.Query().Where(member.OrganizationID(a.ID), member.UserID(aAdmin.ID)).Only(ctx); err != nil ||
			m.Role == nil || *m.Role != "admin" || m.SSO {
			t.Errorf("A's admin's membership of A: %+v %v", m, err)
		}
		if n := aTokens(); n != tokensBefore {
			t.Errorf("tokens of A's admin: %d, were %d", n, tokensBefore)
		}
		// Listing A's domain among B's own does not open A's accounts to
		// B's provider: a domain is an admin's word, not a proof.
		if r := e.Do(bAdm, "PATCH", borg, map[string]any{"emailDomains": []string{"other.test", "acme.test"}}); r.Status != 200 {
			t.Fatalf("email domains: %d %s", r.Status, r.Body)
		}
		before := rows(t, e)
		refusedWith(t, e, signIn(t, start, "mallory"), before, "is no member of this organization", "another organization's admin, of a domain B lists")
		if r := e.Do(bAdm, "PATCH", borg, map[string]any{"emailDomains": []string{"other.test"}}); r.Status != 200 {
			t.Fatalf("email domains: %d %s", r.Status, r.Body)
		}

		// The admin of A is still A's admin, and B's admin may not see them.
		if r := e.Do(team.Admin.Token, "GET", "/v1/orgs/"+a.ID+"/members/"+aAdmin.ID, nil); r.Status != 200 || r.JSON()["role"] != "admin" {
			t.Errorf("A's admin in A: %d %s", r.Status, r.Body)
		}
		if r := e.Do(bAdm, "GET", borg+"/members/"+aAdmin.ID, nil); r.Status != 404 {
			t.Errorf("A's admin in B: %d %s", r.Status, r.Body)
		}

		// An address no user has, of a domain B does not own: no user is
		// made, and the answer is the one an existing user gets.
		idp.AddUser(t, "stranger", "nobody@elsewhere.test", "Stranger")
		before = rows(t, e)
		refusedWith(t, e, signIn(t, start, "stranger"), before, "signs in only members of its organization", "new address of another domain")
		if n, _ := e.Client().User.Query().Where(user.EmailEqualFold("nobody@elsewhere.test")).Count(ctx); n != 0 {
			t.Errorf("a user was made for an address B does not own")
		}

		// An existing user of B's domain, verified or not, is no member:
		// they are told to join first, and nothing is written.
		unv, _ := e.User("unverified@other.test")
		idp.AddUser(t, "unv", unv.Email, "Unverified")
		before = rows(t, e)
		refusedWith(t, e, signIn(t, start, "unv"), before, "join it first", "unverified address of B's domain")
		col, colTok := e.User("colleague@other.test")
		verify(t, e, col.ID)
		e.Member(a, col, "read")
		idp.AddUser(t, "col", col.Email, "Colleague")
		before = rows(t, e)
		refusedWith(t, e, signIn(t, start, "col"), before, "join it first", "verified user of B's domain, no member")

		// Once they join B by its email domain with their own token, B's
		// provider signs them in as the member they are.
		if r := e.Do(colTok, "POST", borg+"/join", nil); r.Status != 204 {
			t.Fatalf("join by email domain: %d %s", r.Status, r.Body)
		}
		ans := signIn(t, start, "col")
		if ans.status != 200 || ans.Token == "" || ans.User.ID != col.ID {
			t.Fatalf("member of B's domain: %d %s", ans.status, ans.body)
		}
		if m := e.Do(ans.Token, "GET", borg+"/members/"+col.ID, nil); m.Status != 200 || m.JSON()["sso"] != true {
			t.Errorf("member after signing in: %d %s", m.Status, m.Body)
		}
		// Their membership of A is not B's to change.
		if m, err := e.Client().Member.Query().Where(member.OrganizationID(a.ID), member.UserID(col.ID)).Only(ctx); err != nil ||
			m.Role == nil || *m.Role != "read" || m.SSO {
			t.Errorf("the colleague's membership of A: %+v %v", m, err)
		}

		// A member of B, of a domain B does not own, signs in as they are:
		// the provider's default role does not touch theirs.
		con, _ := e.User("contractor@freelance.test")
		e.Member(b, con, "read")
		idp.AddUser(t, "con", con.Email, "Contractor")
		ans = signIn(t, start, "con")
		if ans.status != 200 || ans.User.ID != con.ID {
			t.Fatalf("member of B: %d %s", ans.status, ans.body)
		}
		if m := e.Do(bAdm, "GET", borg+"/members/"+con.ID, nil); m.Status != 200 || m.JSON()["role"] != "read" || m.JSON()["sso"] != true {
			t.Errorf("member after signing in: %d %s", m.Status, m.Body)
		}

		// A new address of B's domain is a new user, its address verified.
		idp.AddUser(t, "fresh", "fresh@other.test", "Fresh Face")
		ans = signIn(t, start, "fresh")
		if ans.status != 200 || ans.Token == "" {
			t.Fatalf("new address of B's domain: %d %s", ans.status, ans.body)
		}
		if u, err := e.Client().User.Get(ctx, ans.User.ID); err != nil || u.Email != "fresh@other.test" || u.EmailVerifiedAt == nil {
			t.Errorf("new user: %+v %v", u, err)
		}

		// Once B gives up its domain, an address of it that is no member
		// is refused again; its members still sign in.
		if r := e.Do(bAdm, "PATCH", borg, map[string]any{"emailDomains": []string{}}); r.Status != 200 {
			t.Fatalf("email domains: %d %s", r.Status, r.Body)
		}
		idp.AddUser(t, "late", "late@other.test", "Late")
		before = rows(t, e)
		refusedWith(t, e, signIn(t, start, "late"), before, "signs in only members", "domain given up")
		if ans := signIn(t, start, "col"); ans.status != 200 {
			t.Errorf("member after the domain is given up: %d %s", ans.status, ans.body)
		}
	})
}
