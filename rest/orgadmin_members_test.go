package rest_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/base64"
	"math/big"
	"net/url"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"quire/ent/member"
	"quire/internal/testing/testenv"
)

func TestMembers(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		adm := team.Admin.Token
		org := "/v1/orgs/" + team.Org.ID
		guest, guestTok := e.User("zed@elsewhere.test")
		e.Member(team.Org, guest, "")
		seen := time.Now().UTC().Add(-time.Hour)
		if err := e.Client().Member.Update().Where(member.UserID(team.Reader.User.ID)).SetLastSeenAt(seen).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}

		all := ctGet(t, e, adm, org+"/members")
		ids := []string{guest.ID, team.Reader.User.ID, team.Editor.User.ID, team.Admin.User.ID}
		ctEq(t, "members, newest first", ctIDs(all), ids)
		if all["count"] != float64(4) {
			t.Errorf("count %v", all["count"])
		}
		first := testenv.Path(all, "items", 3)
		if testenv.Path(first, "object") != "member" || testenv.Path(first, "role") != "admin" || testenv.Path(first, "user", "email") != "admin@acme.test" ||
			testenv.Path(first, "sso") != false || testenv.Path(first, "disabled") != false || testenv.Path(first, "teams") != float64(0) {
			t.Errorf("admin member: %v", first)
		}
		ctEq(t, "oldest first", ctIDs(ctGet(t, e, adm, org+"/members?order=asc")), []string{team.Admin.User.ID, team.Editor.User.ID, team.Reader.User.ID, guest.ID})
		ctEq(t, "guests", ctIDs(ctGet(t, e, adm, org+"/members?role=guest")), []string{guest.ID})
		ctEq(t, "editors", ctIDs(ctGet(t, e, adm, org+"/members?role=edit")), []string{team.Editor.User.ID})
		ctEq(t, "search", ctIDs(ctGet(t, e, adm, org+"/members?search=READ")), []string{team.Reader.User.ID})
		ctEq(t, "search by email", ctIDs(ctGet(t, e, adm, org+"/members?search=elsewhere")), []string{guest.ID})
		ctEq(t, "search with LIKE wildcards", ctIDs(ctGet(t, e, adm, org+"/members?search="+url.QueryEscape("%"))), []string{})
		ctEq(t, "seen", ctIDs(ctGet(t, e, adm, org+"/members?sort=lastSeenAt")), []string{team.Reader.User.ID})
		p1 := ctGet(t, e, adm, org+"/members?limit=3")
		next, _ := testenv.Path(p1, "next", "page").(string)
		p2 := ctGet(t, e, adm, org+"/members?limit=3&page="+url.QueryEscape(next))
		ctEq(t, "paged", append(ctIDs(p1), ctIDs(p2)...), ids)
		for _, q := range []string{"role=owner", "sort=name", "order=up", "limit=1001"} {
			ctErr(t, e.Do(adm, "GET", org+"/members?"+q, nil), 400, "", q)
		}
		if m := ctGet(t, e, team.Reader.Token, org+"/members/"+team.Editor.User.ID); m["role"] != "edit" {
			t.Errorf("reader reads a member: %v", m)
		}
		ctErr(t, e.Do(guestTok, "GET", org+"/members", nil), 403, "", "guest lists")
		ctErr(t, e.Do(guestTok, "GET", org+"/members/"+team.Editor.User.ID, nil), 403, "", "guest reads another")
		if m := ctGet(t, e, guestTok, org+"/members/"+guest.ID); m["role"] != nil {
			t.Errorf("guest reads themselves: %v", m)
		}
		ctErr(t, e.Do(team.Outsider.Token, "GET", org+"/members", nil), 404, "", "outsider")
		ctErr(t, e.Do(adm, "GET", org+"/members/"+team.Outsider.User.ID, nil), 404, "", "not a member")

		// Roles.
		m := e.Do(adm, "PATCH", org+"/members/"+guest.ID, map[string]any{"role": "review"})
		ctWant(t, m, 200, "promote")
		if m.JSON()["role"] != "review" {
			t.Errorf("promoted: %s", m.Body)
		}
		if m := ctGetPatch(t, e, adm, org+"/members/"+guest.ID, map[string]any{"role": nil}); m["role"] != nil {
			t.Errorf("guest again: %v", m)
		}
		ctErr(t, e.Do(adm, "PATCH", org+"/members/"+team.Admin.User.ID, map[string]any{"role": "edit"}), 400, "last admin", "demote the last admin")
		ctErr(t, e.Do(adm, "DELETE", org+"/members/"+team.Admin.User.ID, nil), 400, "last admin", "remove the last admin")
		ctErr(t, e.Do(team.Editor.Token, "PATCH", org+"/members/"+guest.ID, map[string]any{"role": "admin"}), 403, "", "editor promotes")
		ctErr(t, e.Do(adm, "PATCH", org+"/members/"+guest.ID, map[string]any{"role": "owner"}), 400, "role", "unknown role")
		// With a second admin, the first may step down.
		ctGetPatch(t, e, adm, org+"/members/"+team.Editor.User.ID, map[string]any{"role": "admin"})
		ctGetPatch(t, e, adm, org+"/members/"+team.Admin.User.ID, map[string]any{"role": "create"})
		ctErr(t, e.Do(team.Editor.Token, "PATCH", org+"/members/"+team.Editor.User.ID, map[string]any{"role": "read"}), 400, "last admin", "new last admin")

		// SSO members.
		s := e.Do(team.Editor.Token, "POST", org+"/members/"+guest.ID+"/sso", nil)
		ctWant(t, s, 200, "mark SSO")
		if s.JSON()["sso"] != true {
			t.Errorf("sso: %s", s.Body)
		}
		ctErr(t, e.Do(team.Reader.Token, "POST", org+"/members/"+guest.ID+"/sso", nil), 403, "", "reader marks SSO")

		// Leaving, and removing.
		ctEmpty(t, e.Do(team.Reader.Token, "DELETE", org+"/members/"+team.Reader.User.ID, nil), 205, "leave")
		ctErr(t, e.Do(team.Reader.Token, "GET", org, nil), 404, "", "after leaving")
		ctErr(t, e.Do(guestTok, "DELETE", org+"/members/"+team.Admin.User.ID, nil), 403, "", "guest removes another")
		ctEmpty(t, e.Do(team.Editor.Token, "DELETE", org+"/members/"+guest.ID, nil), 205, "remove")
		ctEmpty(t, e.Do(team.Editor.Token, "DELETE", org+"/members/"+guest.ID, nil), 204, "remove again")
		ctEmpty(t, e.Do(team.Outsider.Token, "DELETE", org+"/members/"+team.Admin.User.ID, nil), 204, "outsider removes: as for what does not exist")

		// GraphQL.
		g := e.GraphQL(team.Editor.Token, `query($id: ID!) { organization(id: $id) { members(role: "admin") { totalCount nodes { id role teams spaces user { email } } } } }`,
			map[string]any{"id": team.Org.ID})
		if len(g.Errors) > 0 || testenv.Path(g.Data, "organization", "members", "totalCount") != float64(1) {
			t.Errorf("GraphQL members: %s", g.Raw)
		}
		g = e.GraphQL(team.Editor.Token, `mutation($o: ID!, $u: ID!) { updateMember(organization: $o, user: $u, input: {role: read}) { role } }`,
			map[string]any{"o": team.Org.ID, "u": team.Editor.User.ID})
		rest := e.Do(team.Editor.Token, "PATCH", org+"/members/"+team.Editor.User.ID, map[string]any{"role": "read"})
		if g.Code() != "BAD_REQUEST" || g.Errors[0].Message != testenv.Path(rest.JSON(), "error", "message") {
			t.Errorf("GraphQL last admin: %s; REST %s", g.Raw, rest.Body)
		}
	})
}

func TestPing(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		org := "/v1/orgs/" + team.Org.ID
		before := time.Now().UTC().Add(-time.Second)
		r := e.Do(team.Editor.Token, "POST", org+"/ping", nil)
		ctWant(t, r, 200, "ping")
		tok, _ := r.JSON()["serviceVisitorClaims"].(string)
		m := ctGet(t, e, team.Admin.Token, org+"/members/"+team.Editor.User.ID)
		if at, err := time.Parse(time.RFC3339, m["lastSeenAt"].(string)); err != nil || at.Before(before) {
			t.Errorf("lastSeenAt %v", m["lastSeenAt"])
		}

		// The token verifies with the organization's published key, and
		// with no other.
		keys := e.Do("", "GET", "/.well-known/jwks/"+team.Org.ID, nil)
		ctWant(t, keys, 200, "JWKS")
		key := testenv.Path(keys.JSON(), "keys", 0).(map[string]any)
		pub := jwkKey(t, key)
		claims := jwt.MapClaims{}
		parsed, err := jwt.ParseWithClaims(tok, claims, func(tk *jwt.Token) (any, error) {
			if tk.Header["kid"] != key["kid"] {
				t.Errorf("kid %v, want %v", tk.Header["kid"], key["kid"])
			}
			return pub, nil
		}, jwt.WithValidMethods([]string{"ES256"}), jwt.WithAudience(team.Org.ID), jwt.WithIssuer(e.URL))
		if err != nil || !parsed.Valid {
			t.Fatalf("verify %q: %v", tok, err)
		}
		if claims["sub"] != team.Editor.User.ID || claims["org"] != team.Org.ID || claims["role"] != "edit" || claims["email"] != team.Editor.User.Email {
			t.Errorf("claims %v", claims)
		}
		otherKeys := e.Do("", "GET", "/.well-known/jwks/"+team.Other.ID, nil)
		ctWant(t, otherKeys, 200, "other JWKS")
		if _, err := jwt.Parse(tok, func(*jwt.Token) (any, error) {
			return jwkKey(t, testenv.Path(otherKeys.JSON(), "keys", 0).(map[string]any)), nil
		}); err == nil {
			t.Errorf("the token verifies with another organization's key")
		}
		// The key stays the same (it is kept in the database).
		if again := e.Do("", "GET", "/.well-known/jwks/"+team.Org.ID, nil); string(again.Body) != string(keys.Body) {
			t.Errorf("key changed: %s then %s", keys.Body, again.Body)
		}
		if r := e.Do("", "GET", "/.well-known/jwks/O0000000000000000000", nil); r.Status != 404 {
			t.Errorf("unknown organization's JWKS: %d", r.Status)
		}
		ctErr(t, e.Do(team.Outsider.Token, "POST", org+"/ping", nil), 404, "", "outsider pings")

		g := e.GraphQL(team.Reader.Token, `mutation($id: ID!) { pingOrganization(id: $id) { serviceVisitorClaims member { id lastSeenAt } } }`, map[string]any{"id": team.Org.ID})
		if len(g.Errors) > 0 || testenv.Path(g.Data, "pingOrganization", "member", "lastSeenAt") == nil {
			t.Errorf("GraphQL ping: %s", g.Raw)
		}
	})
}

// jwkKey reads an EC P-256 public key of a JWKS.
func jwkKey(t *testing.T, k map[string]any) *ecdsa.PublicKey {
	t.Helper()
	if k["kty"] != "EC" || k["crv"] != "P-256" || k["alg"] != "ES256" {
		t.Fatalf("key %v", k)
	}
	x, err1 := base64.RawURLEncoding.DecodeString(k["x"].(string))
	y, err2 := base64.RawURLEncoding.DecodeString(k["y"].(string))
	if err1 != nil || err2 != nil {
		t.Fatalf("key %v", k)
	}
	return &ecdsa.PublicKey{Curve: elliptic.P256(), X: new(big.Int).SetBytes(x), Y: new(big.Int).SetBytes(y)}
}
