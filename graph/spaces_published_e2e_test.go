package graph_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"quire/internal/orgs"
	"quire/internal/testing/testenv"
)

const publishedQuery = `query($id: ID!, $key: String) { space(id: $id, shareKey: $key) {
  urls { published public } visitorAuth { backend } content { urls { published public } } } }`

// pubSite creates a site serving spaces, publishes it, and returns its
// published URL.
func pubSite(t *testing.T, e *testenv.Env, token, orgID, title, visibility string, spaces ...string) (string, string) {
	t.Helper()
	st := restCreate(t, e, token, "/v1/orgs/"+orgID+"/sites", map[string]any{"title": title, "visibility": visibility, "spaces": spaces})
	id := str(st["id"])
	if r := e.Do(token, "POST", "/v1/orgs/"+orgID+"/sites/"+id+"/publish", nil); r.Status != 200 {
		t.Fatalf("publish: %d %s", r.Status, r.Body)
	}
	return id, e.URL + "/s/" + orgID + "/" + strings.ToLower(title)
}

func TestGraphQLSpacePublished(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		adm := team.Admin.Token
		a := restSpace(t, e, adm, team.Org.ID, "Alpha", nil)
		d := restSpace(t, e, adm, team.Org.ID, "Delta", nil)
		read := func(tok, id string, key any) map[string]any {
			t.Helper()
			return gqlOK(t, e.GraphQL(tok, publishedQuery, map[string]any{"id": id, "key": key}))["space"].(map[string]any)
		}
		if s := read(adm, a, nil); testenv.Path(s, "urls", "published") != nil || s["visitorAuth"] != nil ||
			testenv.Path(s, "content", "urls", "published") != nil {
			t.Errorf("unpublished space: %v", s)
		}

		_, base := pubSite(t, e, adm, team.Org.ID, "Private", "visitor-auth", a)
		s := read(team.Reader.Token, a, nil)
		if testenv.Path(s, "urls", "published") != base || testenv.Path(s, "urls", "public") != nil ||
			testenv.Path(s, "visitorAuth", "backend") != "custom" || testenv.Path(s, "content", "urls", "published") != base {
			t.Errorf("space of a visitor-auth site: %v", s)
		}
		// GraphQL and REST agree.
		r := restGet(t, e, team.Reader.Token, "/v1/spaces/"+a)
		if testenv.Path(r, "urls", "published") != base || testenv.Path(r, "visitorAuth", "backend") != "custom" {
			t.Errorf("REST: urls %v visitorAuth %v", r["urls"], r["visitorAuth"])
		}

		sid, sbase := pubSite(t, e, adm, team.Org.ID, "Secret", "share-link", d)
		link := restCreate(t, e, adm, "/v1/orgs/"+team.Org.ID+"/sites/"+sid+"/share-links", map[string]any{"name": "Partners"})
		_, key, _ := strings.Cut(str(testenv.Path(link, "urls", "published")), "/~share/")
		if s := read(adm, d, nil); testenv.Path(s, "urls", "published") != nil {
			t.Errorf("share-link site without key: %v", s["urls"])
		}
		if s := read(adm, d, key); testenv.Path(s, "urls", "published") != sbase+"/~share/"+key {
			t.Errorf("share-link site with its key: %v", s["urls"])
		}
		if s := read(adm, d, "wrong"); testenv.Path(s, "urls", "published") != nil {
			t.Errorf("share-link site with a wrong key: %v", s["urls"])
		}
		gqlErr(t, e.GraphQL(team.Outsider.Token, publishedQuery, map[string]any{"id": d, "key": key}), "NOT_FOUND", "")
	})
}

// TestGraphQLSpacePublishedStatements: the published URLs of a list of
// spaces cost as many statements for 2 spaces in 2 sites as for 6 in 6.
func TestGraphQLSpacePublishedStatements(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		const doc = `query($id: ID!) { organization(id: $id) { spaces(first: 100) { nodes { id urls { published public } visitorAuth { backend } } } } }`
		build := func(name string, n int) (string, string) {
			o := e.Org(name)
			u, tok := e.User("admin@" + strings.ToLower(name) + ".test")
			e.Member(o, u, "admin")
			for i := 0; i < n; i++ {
				sp := restSpace(t, e, tok, o.ID, fmt.Sprintf("S%d", i), nil)
				pubSite(t, e, tok, o.ID, fmt.Sprintf("Site%d", i), []string{"public", "visitor-auth"}[i%2], sp)
			}
			return o.ID, tok
		}
		measure := func(org, tok string, n int) int64 {
			before := e.Statements()
			d := gqlOK(t, e.GraphQL(tok, doc, map[string]any{"id": org}))
			nodes, _ := testenv.Path(d, "organization", "spaces", "nodes").([]any)
			if len(nodes) != n {
				t.Fatalf("%d spaces, want %d", len(nodes), n)
			}
			for _, sp := range nodes {
				if testenv.Path(sp, "urls", "published") == nil {
					t.Errorf("space without a published URL: %v", sp)
				}
			}
			return e.Statements() - before
		}
		so, st := build("Small", 2)
		lo, lt := build("Large", 6)
		measure(so, st, 2)
		s1, l1 := measure(so, st, 2), measure(lo, lt, 6)
		for i := 0; i < 4 && s1 != l1; i++ {
			s1, l1 = min(s1, measure(so, st, 2)), min(l1, measure(lo, lt, 6))
		}
		if s1 != l1 {
			t.Errorf("GraphQL statements grow with published spaces: 2 → %d, 6 → %d", s1, l1)
		}
	})
}

// TestGraphQLOrganizationBlocked: a blocked organization shows its block,
// and refuses what is in it.
func TestGraphQLOrganizationBlocked(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		sp := restSpace(t, e, team.Admin.Token, team.Org.ID, "Docs", nil)
		const org = `query($id: ID!) { organization(id: $id) { id useCase communityType blocked { source reason } billing { maxUsers minUsers } } }`
		d := gqlOK(t, e.GraphQL(team.Reader.Token, org, map[string]any{"id": team.Org.ID}))["organization"].(map[string]any)
		if d["useCase"] != nil || d["communityType"] != nil || d["blocked"] != nil || testenv.Path(d, "billing", "maxUsers") != nil {
			t.Errorf("organization = %v", d)
		}
		ctx := context.Background()
		if _, err := orgs.SetProfile(ctx, e.Client(), team.Org.ID, orgs.Profile{UseCase: pubPtr("docsSite"), CommunityType: pubPtr("openSource")}); err != nil {
			t.Fatal(err)
		}
		if _, err := orgs.Block(ctx, e.Client(), team.Org.ID, "Unpaid hosting"); err != nil {
			t.Fatal(err)
		}
		d = gqlOK(t, e.GraphQL(team.Reader.Token, org, map[string]any{"id": team.Org.ID}))["organization"].(map[string]any)
		if d["useCase"] != "docsSite" || d["communityType"] != "openSource" ||
			testenv.Path(d, "blocked", "source") != "backoffice" || testenv.Path(d, "blocked", "reason") != "Unpaid hosting" {
			t.Errorf("blocked organization = %v", d)
		}
		for _, q := range []string{
			`query($id: ID!) { space(id: $id) { id } }`,
			`query($id: ID!) { node(id: $id) { id } }`,
		} {
			r := e.GraphQL(team.Admin.Token, q, map[string]any{"id": sp})
			gqlErr(t, r, "FORBIDDEN", "")
			if len(r.Errors) > 0 && !strings.Contains(r.Errors[0].Message, "Unpaid hosting") {
				t.Errorf("message %q does not give the reason", r.Errors[0].Message)
			}
		}
		r := e.GraphQL(team.Admin.Token, `mutation($in: CreateSpaceInput!) { createSpace(input: $in) { id } }`,
			map[string]any{"in": map[string]any{"organization": team.Org.ID, "title": "More"}})
		gqlErr(t, r, "FORBIDDEN", "")
		// Callers outside it learn nothing new.
		gqlErr(t, e.GraphQL(team.Outsider.Token, `query($id: ID!) { space(id: $id) { id } }`, map[string]any{"id": sp}), "NOT_FOUND", "")

		if _, err := orgs.Unblock(ctx, e.Client(), team.Org.ID); err != nil {
			t.Fatal(err)
		}
		gqlOK(t, e.GraphQL(team.Admin.Token, `query($id: ID!) { space(id: $id) { id } }`, map[string]any{"id": sp}))
	})
}

func pubPtr(s string) *string { return &s }
