package rest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"quire/ent/member"
	"quire/internal/testing/testenv"
)

// oaVerify marks a user's email address verified, as the admin command
// does.
func oaVerify(t *testing.T, e *testenv.Env, userID string) {
	t.Helper()
	if err := e.Client().User.UpdateOneID(userID).SetEmailVerifiedAt(time.Now().UTC()).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestUpdateOrganization(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		path := "/v1/orgs/" + team.Org.ID
		site := e.Do(team.Admin.Token, "POST", path+"/sites", map[string]any{"title": "Handbook"})
		ctWant(t, site, 201, "create site")
		siteID := site.JSON()["id"].(string)
		otherSite := e.Do(team.Outsider.Token, "POST", "/v1/orgs/"+team.Other.ID+"/sites", map[string]any{"title": "Theirs"})
		ctWant(t, otherSite, 201, "create other site")

		o := e.Do(team.Admin.Token, "PATCH", path, map[string]any{
			"title": "Acme Inc", "emailDomains": []string{"Acme.test", "acme.test", "docs.acme.test"}, "hostname": "acme",
			"defaultRole": "edit", "defaultContent": map[string]any{"type": "site", "site": siteID},
			"logo": "https://acme.test/logo.png", "ai": true, "inviteLinks": true,
			"mergeRules": map[string]any{"type": "rules", "rules": []any{map[string]any{"rule": "require_change_request_subject"}}},
		})
		ctWant(t, o, 200, "patch organization")
		v := o.JSON()
		ctEq(t, "emailDomains (lower case, once each)", anyStrings(v["emailDomains"]), []string{"acme.test", "docs.acme.test"})
		for k, want := range map[string]any{"title": "Acme Inc", "hostname": "acme", "defaultRole": "edit", "ai": true, "inviteLinks": true, "sso": false} {
			if v[k] != want {
				t.Errorf("%s = %v, want %v", k, v[k], want)
			}
		}
		if testenv.Path(v, "defaultContent", "site") != siteID || testenv.Path(v, "defaultContent", "type") != "site" {
			t.Errorf("defaultContent = %v", v["defaultContent"])
		}
		if testenv.Path(v, "urls", "logo") != "https://acme.test/logo.png" {
			t.Errorf("urls.logo = %v", testenv.Path(v, "urls", "logo"))
		}
		if testenv.Path(v, "mergeRules", "type") != "rules" {
			t.Errorf("mergeRules = %v", v["mergeRules"])
		}
		if testenv.Path(v, "billing", "interval") != "monthly" || testenv.Path(v, "billing", "pricing", "members", "pro_2024", "yearly") != float64(0) {
			t.Errorf("billing = %v", v["billing"])
		}
		if v["customHostname"] == nil || testenv.Path(v, "trial", "status") != "notapplicable" || v["plan"] == "" {
			t.Errorf("organization = %s", o.Body)
		}
		// A read answers the same; a member sees it too.
		if got := ctGet(t, e, team.Reader.Token, path); got["hostname"] != "acme" || testenv.Path(got, "defaultContent", "site") != siteID {
			t.Errorf("read by a member: %v", got)
		}

		// null removes what may be removed.
		v = ctGetPatch(t, e, team.Admin.Token, path, map[string]any{"hostname": nil, "defaultRole": nil, "defaultContent": nil, "logo": nil})
		if _, ok := v["hostname"]; ok || v["defaultRole"] != nil || v["defaultContent"] != nil || testenv.Path(v, "urls", "logo") != nil {
			t.Errorf("after removals: %v", v)
		}

		for _, c := range []struct {
			body   map[string]any
			field  string
			status int
		}{
			{map[string]any{"title": "A"}, "title", 400},
			{map[string]any{"hostname": "Bad_Host"}, "hostname", 400},
			{map[string]any{"hostname": "ab"}, "hostname", 400},
			{map[string]any{"logo": "ftp://x.test/a.png"}, "logo", 400},
			{map[string]any{"logo": "https://x.test/" + strings.Repeat("a", 2048)}, "logo", 400},
			{map[string]any{"emailDomains": []string{"not a domain"}}, "emailDomains[0]", 400},
			{map[string]any{"emailDomains": make([]string, 51)}, "emailDomains", 400},
			{map[string]any{"defaultRole": "owner"}, "defaultRole", 400},
			{map[string]any{"defaultContent": map[string]any{"type": "site", "site": otherSite.JSON()["id"]}}, "defaultContent.site", 400},
			{map[string]any{"defaultContent": map[string]any{"type": "space", "site": siteID}}, "defaultContent.type", 400},
			{map[string]any{"mergeRules": map[string]any{"type": "inherit"}}, "mergeRules.type", 400},
			{map[string]any{"sso": true}, "sso", 400},
			{map[string]any{"ai": "yes"}, "ai", 400},
		} {
			ctErr(t, e.Do(team.Admin.Token, "PATCH", path, c.body), c.status, c.field, "patch "+c.field)
		}
		// A hostname is one organization's.
		ctGetPatch(t, e, team.Outsider.Token, "/v1/orgs/"+team.Other.ID, map[string]any{"hostname": "taken"})
		ctErr(t, e.Do(team.Admin.Token, "PATCH", path, map[string]any{"hostname": "taken"}), 409, "", "taken hostname")

		ctErr(t, e.Do(team.Editor.Token, "PATCH", path, map[string]any{"title": "Mine"}), 403, "", "editor")
		ctErr(t, e.Do(team.Outsider.Token, "PATCH", path, map[string]any{"title": "Mine"}), 404, "", "outsider")
		if got := ctGet(t, e, team.Admin.Token, path); got["title"] != "Acme Inc" {
			t.Errorf("refused patches changed the title: %v", got["title"])
		}

		// GraphQL: the same rules, the same messages.
		q := `mutation($id: ID!, $in: UpdateOrganizationInput!) { updateOrganization(id: $id, input: $in) { title hostname defaultRole billing { interval } } }`
		g := e.GraphQL(team.Admin.Token, q, map[string]any{"id": team.Org.ID, "in": map[string]any{"title": "Acme GraphQL", "hostname": "acme-gql"}})
		if len(g.Errors) > 0 || testenv.Path(g.Data, "updateOrganization", "hostname") != "acme-gql" {
			t.Errorf("GraphQL update: %s", g.Raw)
		}
		g = e.GraphQL(team.Admin.Token, q, map[string]any{"id": team.Org.ID, "in": map[string]any{"hostname": "ab"}})
		rest := e.Do(team.Admin.Token, "PATCH", path, map[string]any{"hostname": "ab"})
		if g.Code() != "BAD_REQUEST" || g.Errors[0].Extensions["field"] != "hostname" || g.Errors[0].Message != testenv.Path(rest.JSON(), "error", "message") {
			t.Errorf("GraphQL %s, REST %s", g.Raw, rest.Body)
		}
		g = e.GraphQL(team.Editor.Token, q, map[string]any{"id": team.Org.ID, "in": map[string]any{"title": "No"}})
		if g.Code() != "FORBIDDEN" {
			t.Errorf("GraphQL editor: %s", g.Raw)
		}
	})
}

func ctGetPatch(t *testing.T, e *testenv.Env, token, path string, body any) map[string]any {
	t.Helper()
	r := e.Do(token, "PATCH", path, body)
	ctWant(t, r, 200, "PATCH "+path)
	return r.JSON()
}

func anyStrings(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, x := range l {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

func TestJoinOrganizationByEmailDomain(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		path := "/v1/orgs/" + team.Org.ID
		ctGetPatch(t, e, team.Admin.Token, path, map[string]any{"emailDomains": []string{"acme.test"}, "defaultRole": "comment"})

		joe, joeTok := e.User("joe@ACME.test")
		// Not verified yet: the domain matches, so the organization
		// explains why.
		ctErr(t, e.Do(joeTok, "POST", path+"/join", nil), 400, "verified", "unverified join")
		ctErr(t, e.Do(joeTok, "GET", path, nil), 404, "", "not a member yet")
		list := ctGet(t, e, joeTok, "/v1/email-domains/acme.test/orgs")
		if l, _ := list["organizations"].([]any); len(l) != 0 {
			t.Errorf("an unverified user sees %v", list)
		}

		oaVerify(t, e, joe.ID)
		list = ctGet(t, e, joeTok, "/v1/email-domains/ACME.test/orgs")
		if testenv.Path(list, "organizations", 0, "id") != team.Org.ID || len(list["organizations"].([]any)) != 1 {
			t.Errorf("a verified user's organizations: %v", list)
		}
		ctEmpty(t, e.Do(joeTok, "POST", path+"/join", nil), 204, "join")
		m := ctGet(t, e, joeTok, path+"/members/"+joe.ID)
		if m["role"] != "comment" || m["id"] != joe.ID {
			t.Errorf("joined member: %v", m)
		}
		// Joining again changes nothing.
		ctEmpty(t, e.Do(joeTok, "POST", path+"/join", nil), 204, "join again")
		// The organization's members see it in their domain's list.
		if l := ctGet(t, e, team.Reader.Token, "/v1/email-domains/acme.test/orgs"); len(l["organizations"].([]any)) != 1 {
			t.Errorf("a member's list: %v", l)
		}

		// Another domain, verified or not, is refused (400, as documented);
		// an organization that does not exist is not found.
		eve, otherTok := e.User("eve@evil.test")
		ctErr(t, e.Do(otherTok, "POST", path+"/join", nil), 400, "email domain", "other domain, unverified")
		oaVerify(t, e, eve.ID)
		ctErr(t, e.Do(otherTok, "POST", path+"/join", nil), 400, "email domain", "other domain")
		ctErr(t, e.Do(otherTok, "POST", "/v1/orgs/O0000000000000000000/join", nil), 404, "", "unknown organization")
		if n, err := e.Client().Member.Query().Where(member.UserID(eve.ID)).Count(context.Background()); err != nil || n != 0 {
			t.Errorf("a refused join made %d members: %v", n, err)
		}
		if l := ctGet(t, e, otherTok, "/v1/email-domains/acme.test/orgs"); len(l["organizations"].([]any)) != 0 {
			t.Errorf("another domain's user sees %v", l)
		}
		ctErr(t, e.Do(otherTok, "GET", "/v1/email-domains/not_a_domain/orgs", nil), 400, "emailDomain", "bad domain")

		// A disabled member stays out.
		if err := e.Client().Member.Update().Where(member.UserID(joe.ID)).SetDisabled(true).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		ctErr(t, e.Do(joeTok, "POST", path+"/join", nil), 403, "disabled", "disabled member")

		// GraphQL.
		ann, annTok := e.User("ann@acme.test")
		oaVerify(t, e, ann.ID)
		g := e.GraphQL(annTok, `mutation($id: ID!) { joinOrganization(id: $id) { organization member { id role } } }`, map[string]any{"id": team.Org.ID})
		if len(g.Errors) > 0 || testenv.Path(g.Data, "joinOrganization", "member", "role") != "comment" || testenv.Path(g.Data, "joinOrganization", "member", "id") != ann.ID {
			t.Errorf("GraphQL join: %s", g.Raw)
		}
		g = e.GraphQL(otherTok, `mutation($id: ID!) { joinOrganization(id: $id) { organization } }`, map[string]any{"id": team.Org.ID})
		if g.Code() != "BAD_REQUEST" {
			t.Errorf("GraphQL join of another domain: %s", g.Raw)
		}
		g = e.GraphQL(otherTok, `{ organizationsForEmailDomain(emailDomain: "acme.test") { id } }`, nil)
		if len(g.Errors) > 0 || len(g.Data["organizationsForEmailDomain"].([]any)) != 0 {
			t.Errorf("GraphQL domain list: %s", g.Raw)
		}
	})
}
