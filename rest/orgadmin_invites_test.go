package rest_test

import (
	"context"
	"strings"
	"testing"

	"quire/internal/auth"
	"quire/internal/testing/testenv"
)

func TestInviteLinks(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		adm := team.Admin.Token
		org := "/v1/orgs/" + team.Org.ID
		links := org + "/link-invites"
		col := ctCol(t, e, adm, team.Org.ID, "Private", "")
		ctPatch(t, e, adm, col, map[string]any{"defaultLevel": nil})
		secret := ctSpace(t, e, adm, team.Org.ID, "Secret", col)
		other := ctSpace(t, e, adm, team.Org.ID, "Other", col)
		ctGetPatch(t, e, adm, org, map[string]any{"inviteLinks": true})

		create := func(body map[string]any) map[string]any {
			t.Helper()
			r := e.Do(adm, "POST", links, body)
			ctWant(t, r, 201, "create invite link")
			return r.JSON()
		}
		orgLink := create(map[string]any{"role": "read"})
		spaceLink := create(map[string]any{"space": secret, "level": "edit"})
		colLink := create(map[string]any{"collection": col, "level": "comment"})
		guestLink := create(map[string]any{"role": nil})
		again := create(map[string]any{"role": "read"})
		if orgLink["object"] != "invite" || orgLink["role"] != "read" || orgLink["redundant"] != false {
			t.Errorf("organization link: %v", orgLink)
		}
		if spaceLink["level"] != "edit" || testenv.Path(spaceLink, "space", "id") != secret || spaceLink["role"] != nil {
			t.Errorf("space link: %v", spaceLink)
		}
		if colLink["level"] != "comment" || testenv.Path(colLink, "collection", "id") != col {
			t.Errorf("collection link: %v", colLink)
		}
		if _, ok := guestLink["role"]; ok {
			t.Errorf("guest link shows a role: %v", guestLink)
		}
		if again["redundant"] != true {
			t.Errorf("the second read link is not redundant: %v", again)
		}
		l := ctGet(t, e, adm, links)
		ctEq(t, "links, oldest first", ctIDs(l), []string{orgLink["id"].(string), spaceLink["id"].(string), colLink["id"].(string),
			guestLink["id"].(string), again["id"].(string)})
		if g := ctGet(t, e, adm, links+"/"+again["id"].(string)); g["redundant"] != true {
			t.Errorf("get: %v", g)
		}
		p := e.Do(adm, "PATCH", links+"/"+again["id"].(string), map[string]any{"role": "edit"})
		ctWant(t, p, 200, "patch link")
		if p.JSON()["role"] != "edit" || p.JSON()["redundant"] != false {
			t.Errorf("patched link: %s", p.Body)
		}

		for _, c := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"space": secret}, "level"},
			{map[string]any{"space": secret, "level": nil}, "level"},
			{map[string]any{"space": secret, "role": "read"}, "role"},
			{map[string]any{"space": "S0000000000000000000", "level": "read"}, "space"},
			{map[string]any{"collection": "C0000000000000000000", "level": "read"}, "collection"},
			{map[string]any{}, "role"},
			{map[string]any{"role": "owner"}, "role"},
		} {
			ctErr(t, e.Do(adm, "POST", links, c.body), 400, c.field, "create "+c.field)
		}
		ctErr(t, e.Do(adm, "PATCH", links+"/"+spaceLink["id"].(string), map[string]any{"level": nil}), 400, "level", "null level")
		ctErr(t, e.Do(team.Editor.Token, "GET", links, nil), 403, "", "editor lists")
		ctErr(t, e.Do(team.Editor.Token, "POST", links, map[string]any{"role": "admin"}), 403, "", "editor creates")
		ctErr(t, e.Do(team.Outsider.Token, "GET", links+"/"+orgLink["id"].(string), nil), 404, "", "outsider")
		ctErr(t, e.Do(adm, "GET", links+"/I0000000000000000000", nil), 404, "", "unknown link")

		// Joining through links.
		joinVia := func(tok, link string) *testenv.Response {
			return e.Do(tok, "POST", org+"/invites/"+link, nil)
		}
		sam, samTok := e.User("sam@elsewhere.test")
		r := joinVia(samTok, orgLink["id"].(string))
		ctWant(t, r, 200, "join with an organization link")
		if string(r.Body) != "{}" {
			t.Errorf("join body %s", r.Body)
		}
		if m := ctGet(t, e, samTok, org+"/members/"+sam.ID); m["role"] != "read" {
			t.Errorf("joined with %v", m["role"])
		}
		// The private collection's spaces stay out of reach.
		ctErr(t, e.Do(samTok, "GET", "/v1/spaces/"+secret, nil), 404, "", "read member, private space")

		gus, gusTok := e.User("gus@elsewhere.test")
		ctWant(t, joinVia(gusTok, spaceLink["id"].(string)), 200, "join with a space link")
		if m := ctGet(t, e, adm, org+"/members/"+gus.ID); m["role"] != nil {
			t.Errorf("a space link makes a guest: %v", m)
		}
		sp := ctGet(t, e, gusTok, "/v1/spaces/"+secret)
		if testenv.Path(sp, "permissions", "edit") != true || testenv.Path(sp, "permissions", "admin") != false {
			t.Errorf("guest's permissions on the space: %v", sp["permissions"])
		}
		ctErr(t, e.Do(gusTok, "GET", "/v1/spaces/"+other, nil), 404, "", "guest, other space")
		ctEq(t, "guest's spaces", ctList(t, e, gusTok, org+"/spaces"), []string{secret})
		// A member joining through a link to content gets its level there,
		// keeping their role.
		ctWant(t, joinVia(samTok, colLink["id"].(string)), 200, "member joins through a collection link")
		if m := ctGet(t, e, samTok, org+"/members/"+sam.ID); m["role"] != "read" {
			t.Errorf("role after a collection link: %v", m["role"])
		}
		if sp := ctGet(t, e, samTok, "/v1/spaces/"+other); testenv.Path(sp, "permissions", "comment") != true {
			t.Errorf("collection link level: %v", sp["permissions"])
		}

		// Unknown links, links of another organization, and links once
		// invite links are off all get one answer (but for the id), so that
		// nobody learns which ids are links.
		ev, evTok := e.User("ev@elsewhere.test")
		unknown := joinVia(evTok, "I0000000000000000000")
		ctErr(t, unknown, 404, "", "unknown link")
		ctErr(t, e.Do(evTok, "POST", "/v1/orgs/"+team.Other.ID+"/invites/"+orgLink["id"].(string), nil), 404, "", "link of another organization")
		ctGetPatch(t, e, adm, org, map[string]any{"inviteLinks": false})
		off := joinVia(evTok, orgLink["id"].(string))
		ctErr(t, off, 404, "", "links off")
		if a, b := strings.ReplaceAll(string(off.Body), orgLink["id"].(string), "<id>"), strings.ReplaceAll(string(unknown.Body), "I0000000000000000000", "<id>"); a != b {
			t.Errorf("links off answers %s, an unknown link %s", a, b)
		}
		if r := e.Do(adm, "GET", org+"/members/"+ev.ID, nil); r.Status != 404 {
			t.Errorf("joined while links are off: %d %s", r.Status, r.Body)
		}
		// A member of the organization gets the same answer, and so does
		// GraphQL.
		ctErr(t, joinVia(samTok, orgLink["id"].(string)), 404, "", "member, links off")
		g := e.GraphQL(evTok, `mutation($o: ID!, $i: ID!) { joinOrganizationWithInvite(organization: $o, invite: $i) { organization } }`,
			map[string]any{"o": team.Org.ID, "i": orgLink["id"]})
		if g.Code() != "NOT_FOUND" {
			t.Errorf("GraphQL join, links off: %s", g.Raw)
		}
		ctGetPatch(t, e, adm, org, map[string]any{"inviteLinks": true})

		// A token limited to another organization joins nothing.
		_, scoped, err := auth.IssueScopedToken(context.Background(), e.Client(), team.Outsider.User.ID, "sso", team.Other.ID)
		if err != nil {
			t.Fatal(err)
		}
		ctErr(t, joinVia(scoped, orgLink["id"].(string)), 403, "limited", "scoped token")

		ctEmpty(t, e.Do(adm, "DELETE", links+"/"+guestLink["id"].(string), nil), 205, "delete link")
		ctEmpty(t, e.Do(adm, "DELETE", links+"/"+guestLink["id"].(string), nil), 204, "delete again")
		ctErr(t, joinVia(evTok, guestLink["id"].(string)), 404, "", "deleted link")

		// GraphQL.
		g = e.GraphQL(adm, `query($id: ID!) { organization(id: $id) { invites(first: 10) { totalCount nodes { id kind role level redundant space { id } } } } }`,
			map[string]any{"id": team.Org.ID})
		if len(g.Errors) > 0 || testenv.Path(g.Data, "organization", "invites", "totalCount") != float64(4) {
			t.Errorf("GraphQL invites: %s", g.Raw)
		}
		g = e.GraphQL(adm, `query($id: ID!) { node(id: $id) { ... on InviteLink { kind level } } }`, map[string]any{"id": spaceLink["id"]})
		if testenv.Path(g.Data, "node", "kind") != "space" {
			t.Errorf("node: %s", g.Raw)
		}
		g = e.GraphQL(team.Editor.Token, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": spaceLink["id"]})
		if g.Code() != "NOT_FOUND" {
			t.Errorf("editor's node: %s", g.Raw)
		}
		_, hanTok := e.User("han@elsewhere.test")
		g = e.GraphQL(hanTok, `mutation($o: ID!, $i: ID!) { joinOrganizationWithInvite(organization: $o, invite: $i) { organization member { role } } }`,
			map[string]any{"o": team.Org.ID, "i": orgLink["id"]})
		if len(g.Errors) > 0 || testenv.Path(g.Data, "joinOrganizationWithInvite", "member", "role") != "read" {
			t.Errorf("GraphQL join: %s", g.Raw)
		}
	})
}

func TestAgentInstructions(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		path := "/v1/orgs/" + team.Org.ID + "/agent-instructions"
		empty := ctGet(t, e, team.Reader.Token, path)
		if empty["object"] != "agent-instructions" || testenv.Path(empty, "instructions", "object") != "document" || empty["updatedBy"] != "" {
			t.Errorf("before any: %v", empty)
		}
		doc := map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{map[string]any{
			"object": "block", "type": "paragraph", "nodes": []any{map[string]any{"object": "text", "leaves": []any{
				map[string]any{"object": "leaf", "text": "Answer in English.", "marks": []any{}}}}}}}}
		r := e.Do(team.Admin.Token, "PUT", path, map[string]any{"instructions": doc})
		ctWant(t, r, 200, "put instructions")
		v := ctGet(t, e, team.Reader.Token, path)
		if v["updatedBy"] != team.Admin.User.ID || testenv.Path(v, "instructions", "nodes", 0, "nodes", 0, "leaves", 0, "text") != "Answer in English." {
			t.Errorf("after put: %v", v)
		}
		if testenv.Path(v, "urls", "location") != e.URL+path {
			t.Errorf("urls: %v", v["urls"])
		}
		ctErr(t, e.Do(team.Editor.Token, "PUT", path, map[string]any{"instructions": doc}), 403, "", "editor")
		ctErr(t, e.Do(team.Admin.Token, "PUT", path, map[string]any{"instructions": map[string]any{"object": "paragraph"}}), 400, "instructions", "not a document")
		ctErr(t, e.Do(team.Admin.Token, "PUT", path, map[string]any{}), 400, "instructions", "missing")
		ctErr(t, e.Do(team.Outsider.Token, "GET", path, nil), 404, "", "outsider")
		guest, guestTok := e.User("guest@acme.test")
		e.Member(team.Org, guest, "")
		ctErr(t, e.Do(guestTok, "GET", path, nil), 403, "", "guest")

		g := e.GraphQL(team.Reader.Token, `query($id: ID!) { organization(id: $id) { agentInstructions { updatedBy instructions { nodes { __typename } } } } }`,
			map[string]any{"id": team.Org.ID})
		if len(g.Errors) > 0 || testenv.Path(g.Data, "organization", "agentInstructions", "updatedBy") != team.Admin.User.ID {
			t.Errorf("GraphQL: %s", g.Raw)
		}
	})
}
