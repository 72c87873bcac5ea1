package rest_test

import (
	"context"
	"net/url"
	"testing"

	"quire/ent/member"
	"quire/internal/testing/testenv"
)

func TestGetUser(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		for _, a := range []testenv.Actor{team.Admin, team.Reader, team.Outsider} {
			u := ctGet(t, e, a.Token, "/v1/user")
			if u["object"] != "user" || u["id"] != a.User.ID || u["email"] != a.User.Email || u["displayName"] != a.User.DisplayName {
				t.Errorf("GET /v1/user as %s: %v", a.User.Email, u)
			}
			if loc := testenv.Path(u, "urls", "location"); loc != e.URL+"/v1/users/"+a.User.ID {
				t.Errorf("urls.location = %v", loc)
			}
		}
		// A user in no organization is still a user.
		lone, tok := e.User("lone@nowhere.test")
		if u := ctGet(t, e, tok, "/v1/user"); u["id"] != lone.ID {
			t.Errorf("lone user: %v", u)
		}

		r := e.Do("", "GET", "/v1/user", nil)
		ctErr(t, r, 401, "", "no token")
		if r.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("401 without WWW-Authenticate")
		}
		ctErr(t, e.Do("not-a-token", "GET", "/v1/user", nil), 401, "", "bad token")
	})
}

func TestListOrgs(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		e.Org("Nobody's") // nobody of the team belongs to it
		// The caller is admin of Org and reader of Other.
		u := team.Admin
		e.Member(team.Other, u.User, "read")

		all := ctGet(t, e, u.Token, "/v1/orgs")
		ctSameSet(t, "orgs", ctIDs(all), []string{team.Org.ID, team.Other.ID})
		if all["count"] != float64(2) {
			t.Errorf("count = %v", all["count"])
		}
		if _, ok := all["next"]; ok {
			t.Errorf("single page has next: %v", all["next"])
		}
		for i := 0; i < 2; i++ {
			if o := testenv.Path(all, "items", i); testenv.Path(o, "object") != "organization" {
				t.Errorf("item %d: %v", i, o)
			}
		}

		// Paging one at a time.
		p1 := ctGet(t, e, u.Token, "/v1/orgs?limit=1")
		next, _ := testenv.Path(p1, "next", "page").(string)
		if len(ctIDs(p1)) != 1 || p1["count"] != float64(2) || next == "" {
			t.Fatalf("first page: %v", p1)
		}
		p2 := ctGet(t, e, u.Token, "/v1/orgs?limit=1&page="+url.QueryEscape(next))
		if len(ctIDs(p2)) != 1 || p2["count"] != float64(2) {
			t.Fatalf("second page: %v", p2)
		}
		if _, ok := p2["next"]; ok {
			t.Errorf("last page has next: %v", p2["next"])
		}
		ctSameSet(t, "paged orgs", append(ctIDs(p1), ctIDs(p2)...), []string{team.Org.ID, team.Other.ID})
		// Oldest first: Org was created before Other.
		ctEq(t, "order", ctIDs(all), []string{team.Org.ID, team.Other.ID})
		ctEq(t, "paged order", append(ctIDs(p1), ctIDs(p2)...), ctIDs(all))

		// Each caller sees only their own organizations.
		ctEq(t, "reader's orgs", ctList(t, e, team.Reader.Token, "/v1/orgs"), []string{team.Org.ID})
		ctEq(t, "outsider's orgs", ctList(t, e, team.Outsider.Token, "/v1/orgs"), []string{team.Other.ID})
		_, lone := e.User("lone@nowhere.test")
		l := ctGet(t, e, lone, "/v1/orgs")
		if items, ok := l["items"].([]any); !ok || len(items) != 0 || l["count"] != float64(0) {
			t.Errorf("lone user's orgs: %v", l)
		}
		if _, ok := l["next"]; ok {
			t.Errorf("empty list has next")
		}

		// A disabled membership does not count.
		if err := e.Client().Member.Update().
			Where(member.UserID(team.Reader.User.ID), member.OrganizationID(team.Org.ID)).
			SetDisabled(true).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		l = ctGet(t, e, team.Reader.Token, "/v1/orgs")
		if len(ctIDs(l)) != 0 || l["count"] != float64(0) {
			t.Errorf("disabled member's orgs: %v", l)
		}
		ctErr(t, e.Do(team.Reader.Token, "GET", "/v1/orgs/"+team.Org.ID, nil), 404, "", "disabled member GET org")
		ctErr(t, e.Do(team.Reader.Token, "GET", "/v1/orgs/"+team.Org.ID+"/collections", nil), 404, "", "disabled member collections")

		for _, tc := range []struct{ query, field string }{
			{"limit=1001", "limit"},
			{"limit=-1", "limit"},
			{"limit=1.5", "limit"},
			{"limit=ten", "limit"},
			{"page=not-a-page", "page"},
		} {
			ctErr(t, e.Do(u.Token, "GET", "/v1/orgs?"+tc.query, nil), 400, tc.field, tc.query)
		}
		ctErr(t, e.Do("", "GET", "/v1/orgs", nil), 401, "", "no token")
	})
}

func TestGetOrg(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		path := "/v1/orgs/" + team.Org.ID

		a := ctGet(t, e, team.Admin.Token, path)
		if a["object"] != "organization" || a["id"] != team.Org.ID || a["title"] != "Acme" {
			t.Errorf("admin view: %v", a)
		}
		if loc := testenv.Path(a, "urls", "location"); loc != e.URL+path {
			t.Errorf("urls.location = %v", loc)
		}
		for _, tc := range []struct {
			who   string
			token string
			want  map[string]bool
		}{
			{"admin", team.Admin.Token, map[string]bool{"view": true, "admin": true, "createContent": true, "listMembers": true, "viewBilling": true}},
			{"editor", team.Editor.Token, map[string]bool{"view": true, "admin": false, "createContent": false, "listMembers": true, "viewBilling": false}},
			{"reader", team.Reader.Token, map[string]bool{"view": true, "admin": false, "createContent": false, "listMembers": true, "viewBilling": false}},
		} {
			o := ctGet(t, e, tc.token, path)
			if o["id"] != team.Org.ID {
				t.Errorf("%s: %v", tc.who, o)
			}
			for k, v := range tc.want {
				if got := testenv.Path(o, "permissions", k); got != v {
					t.Errorf("%s: permissions.%s = %v, want %v", tc.who, k, got, v)
				}
			}
		}
		// Same organization through the list and on its own.
		for _, it := range ctGet(t, e, team.Reader.Token, "/v1/orgs")["items"].([]any) {
			if testenv.Path(it, "permissions", "admin") != false {
				t.Errorf("reader's list item permissions: %v", it)
			}
		}

		ctErr(t, e.Do(team.Outsider.Token, "GET", path, nil), 404, "", "outsider")
		ctErr(t, e.Do(team.Admin.Token, "GET", "/v1/orgs/"+team.Other.ID, nil), 404, "", "admin of another org")
		ctErr(t, e.Do(team.Admin.Token, "GET", "/v1/orgs/org_does_not_exist", nil), 404, "", "unknown id")
		r := e.Do("", "GET", path, nil)
		ctErr(t, r, 401, "", "no token")
		if r.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("401 without WWW-Authenticate")
		}
		ctErr(t, e.Do("bogus-token", "GET", path, nil), 401, "", "bad token")
		ctErr(t, e.Do(team.Admin.Token+"x", "GET", path, nil), 401, "", "altered token")
	})
}

func TestRouting(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		tok := team.Admin.Token
		for _, tc := range []struct {
			method, path string
			status       int
			allow        string
		}{
			{"GET", "/v1/nope", 404, ""},
			{"GET", "/v1/orgs/" + team.Org.ID + "/bogus", 404, ""},
			{"GET", "/v1/collections/x/spaces/y", 404, ""},
			{"GET", "/v2/orgs", 404, ""},
			{"PUT", "/v1/orgs", 405, "GET"},
			{"DELETE", "/v1/orgs/" + team.Org.ID, 405, "GET, PATCH"},
			{"POST", "/v1/user", 405, "GET"},
			{"PUT", "/v1/collections/x", 405, ""},
			{"GET", "/v1/collections/x/move", 405, "POST"},
		} {
			r := e.Do(tok, tc.method, tc.path, nil)
			ctErr(t, r, tc.status, "", tc.method+" "+tc.path)
			if tc.allow != "" && r.Header.Get("Allow") != tc.allow {
				t.Errorf("%s %s: Allow = %q, want %q", tc.method, tc.path, r.Header.Get("Allow"), tc.allow)
			}
		}
	})
}
