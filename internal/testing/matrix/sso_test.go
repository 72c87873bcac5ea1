package matrix_test

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"testing"
	"time"

	"quire/ent/apitoken"
	entmember "quire/ent/member"
	"quire/internal/sso/ssotest"
)

// testSSO is the row of the assertion consumer service, which no token
// calls and so no table holds: B's admin, who holds the signing key of an
// identity provider B trusts, has it assert the address of A's admin. The
// answer is 403 in the documented shape with no token, and nothing of A or
// of A's admin changes; a member of B still signs in through the same
// provider, so the refusal is the rule's and not the setup's. It runs last:
// it configures a provider of B.
func (w *world) testSSO(t *testing.T) {
	ctx := context.Background()
	e, a, b := w.e, w.a, w.b
	bAdm := b.admin.Token
	borg := "/v1/orgs/" + b.org.ID
	idp := ssotest.NewIdP(t)
	p := w.do(bAdm, "POST", borg+"/saml", map[string]any{"label": "B's IdP", "defaultRole": "admin"}, 201)
	p = w.do(bAdm, "PATCH", borg+"/saml/"+p["id"].(string), idp.Settings(), 200)
	idp.Register(t, "quire", p["service"].(map[string]any)["entityID"].(string))
	start := p["service"].(map[string]any)["startURL"].(string)

	target := a.admin.User
	// A's admin has verified their address: nothing but the rule stands
	// in the way.
	if err := e.Client().User.UpdateOneID(target.ID).SetEmailVerifiedAt(time.Now().UTC()).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	idp.AddUser(t, "mallory", target.Email, "Mallory")
	idp.AddUser(t, "bmember", b.user["member"].User.Email, "B member")

	tokens := func() int {
		n, err := e.Client().APIToken.Query().Where(apitoken.UserID(target.ID)).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	bMembers := func() string {
		r := e.Do(bAdm, "GET", borg+"/members?limit=1000", nil)
		return string(r.Body)
	}
	beforeA, beforeB, beforeTokens := w.snapshot(), bMembers(), tokens()

	br := ssotest.NewBrowser(t)
	acs, form := br.Assert(start, "mallory")
	resp, body := br.Post(acs, form)
	w.asked++
	var ans struct {
		Token string `json:"token"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &ans); err != nil || resp.StatusCode != 403 || ans.Error == nil ||
		ans.Error.Code != 403 || ans.Error.Message == "" || ans.Token != "" {
		t.Errorf("B's identity provider asserting A's admin: %d %s, want 403 in the documented shape", resp.StatusCode, body)
	}
	for _, who := range w.callers {
		if who.name == "B admin" {
			if leaks := who.leaks([]byte(body), target.Email); len(leaks) > 0 {
				t.Errorf("the refusal shows what B's admin may not see: %v in %s", leaks, body)
			}
		}
	}
	after := w.snapshot()
	for _, k := range slices.Sorted(maps.Keys(beforeA)) {
		if beforeA[k] != after[k] {
			t.Errorf("the refused assertion changed %s:\nbefore %s\n after %s", k, beforeA[k], after[k])
		}
	}
	if m := bMembers(); m != beforeB {
		t.Errorf("the refused assertion changed B's members:\nbefore %s\n after %s", beforeB, m)
	}
	if n, err := e.Client().Member.Query().Where(entmember.UserID(target.ID), entmember.OrganizationID(b.org.ID)).Count(ctx); err != nil || n != 0 {
		t.Errorf("A's admin is a member of B: %d %v", n, err)
	}
	if n := tokens(); n != beforeTokens {
		t.Errorf("A's admin has %d tokens, had %d", n, beforeTokens)
	}
	if r := e.Do(a.admin.Token, "GET", "/v1/orgs/"+a.org.ID+"/members/"+target.ID, nil); r.Status != 200 || r.JSON()["role"] != "admin" {
		t.Errorf("A's admin in A: %d %s", r.Status, r.Body)
	}

	br = ssotest.NewBrowser(t)
	acs, form = br.Assert(start, "bmember")
	resp, body = br.Post(acs, form)
	w.asked++
	if resp.StatusCode != 200 {
		t.Errorf("B's member through B's identity provider: %d %s", resp.StatusCode, body)
	}
}
