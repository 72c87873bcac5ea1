package rest_test

import (
	"testing"

	"quire/internal/testing/testenv"
)

func TestTeams(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		adm := team.Admin.Token
		org := "/v1/orgs/" + team.Org.ID
		creator, creatorTok := e.User("cara@acme.test")
		e.Member(team.Org, creator, "create")

		r := e.Do(creatorTok, "PUT", org+"/teams", map[string]any{"title": "Writers", "members": []string{team.Editor.User.ID, team.Editor.User.ID}})
		ctWant(t, r, 201, "create team")
		writers := r.JSON()
		wid := writers["id"].(string)
		if writers["object"] != "team" || writers["members"] != float64(2) || writers["spaces"] != float64(0) ||
			testenv.Path(writers, "permissions", "admin") != true {
			t.Errorf("created team: %v", writers)
		}
		readers := e.Do(adm, "PUT", org+"/teams", map[string]any{"title": "readers"})
		ctWant(t, readers, 201, "second team")
		rid := readers.JSON()["id"].(string)

		ctEq(t, "teams", ctList(t, e, team.Reader.Token, org+"/teams"), []string{wid, rid})
		ctEq(t, "title filter", ctList(t, e, team.Reader.Token, org+"/teams?title=WRITE"), []string{wid})
		ctEq(t, "owned by the creator", ctList(t, e, adm, org+"/teams?owner="+creator.ID), []string{wid})
		ctEq(t, "an admin manages all", ctList(t, e, adm, org+"/teams?owner="+team.Admin.User.ID), []string{wid, rid})
		ctEq(t, "owned by the editor", ctList(t, e, adm, org+"/teams?owner="+team.Editor.User.ID), []string{})
		if got := ctGet(t, e, team.Reader.Token, org+"/teams/"+wid); testenv.Path(got, "permissions", "admin") != false || got["title"] != "Writers" {
			t.Errorf("reader's view: %v", got)
		}

		// Who may create and change teams.
		ctErr(t, e.Do(team.Editor.Token, "PUT", org+"/teams", map[string]any{"title": "Mine"}), 403, "", "editor creates")
		ctErr(t, e.Do(team.Editor.Token, "PATCH", org+"/teams/"+wid, map[string]any{"title": "Theirs"}), 403, "", "member renames")
		if got := ctGetPatch(t, e, creatorTok, org+"/teams/"+wid, map[string]any{"title": "Authors"}); got["title"] != "Authors" {
			t.Errorf("owner renames: %v", got)
		}
		for _, c := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"title": ""}, "title"},
			{map[string]any{"title": "12345678901234567890123456789012345678901234567890123456789012345"}, "title"},
			{map[string]any{"title": "X", "members": []string{team.Outsider.User.ID}}, "members[0]"},
			{map[string]any{}, "title"},
		} {
			ctErr(t, e.Do(adm, "PUT", org+"/teams", c.body), 400, c.field, "create "+c.field)
		}
		ctErr(t, e.Do(team.Outsider.Token, "GET", org+"/teams/"+wid, nil), 404, "", "outsider")
		ctErr(t, e.Do(adm, "GET", org+"/teams/D0000000000000000000", nil), 404, "", "unknown team")

		// Team members.
		members := org + "/teams/" + wid + "/members"
		ctEmpty(t, e.Do(creatorTok, "PUT", members+"/"+team.Reader.User.ID, nil), 204, "add reader")
		ctEmpty(t, e.Do(creatorTok, "PUT", members+"/"+team.Editor.User.ID, map[string]any{"role": "owner"}), 204, "make the editor owner")
		l := ctGet(t, e, team.Reader.Token, members)
		if l["count"] != float64(3) {
			t.Fatalf("team members: %v", l)
		}
		roles := map[string]any{}
		for _, it := range l["items"].([]any) {
			roles[testenv.Path(it, "organization", "id").(string)] = testenv.Path(it, "team", "role")
			if testenv.Path(it, "permissions", "view") != true || testenv.Path(it, "organization", "object") != "member" {
				t.Errorf("team member item: %v", it)
			}
		}
		if roles[creator.ID] != "owner" || roles[team.Editor.User.ID] != "owner" || roles[team.Reader.User.ID] != "member" {
			t.Errorf("roles: %v", roles)
		}
		ctEmpty(t, e.Do(team.Editor.Token, "PUT", members, map[string]any{"remove": []string{team.Reader.User.ID},
			"memberships": map[string]any{creator.ID: map[string]any{"role": "member"}}}), 204, "bulk change")
		ctErr(t, e.Do(team.Editor.Token, "PUT", members, map[string]any{"add": []string{team.Outsider.User.ID}}), 400, "add[0]", "add a non-member")
		ctErr(t, e.Do(team.Editor.Token, "PUT", members, map[string]any{"memberships": map[string]any{creator.ID: map[string]any{"role": "boss"}}}), 400, "role", "bad role")
		ctErr(t, e.Do(team.Reader.Token, "PUT", members+"/"+team.Reader.User.ID, nil), 403, "", "reader adds themselves")
		mt := ctGet(t, e, team.Editor.Token, org+"/members/"+team.Editor.User.ID+"/teams")
		if mt["count"] != float64(1) || testenv.Path(mt, "items", 0, "team", "id") != wid || testenv.Path(mt, "items", 0, "member", "role") != "owner" {
			t.Errorf("member's teams: %v", mt)
		}
		if got := ctGet(t, e, adm, org+"/members/"+team.Editor.User.ID); got["teams"] != float64(1) {
			t.Errorf("member's team count: %v", got["teams"])
		}
		ctEmpty(t, e.Do(team.Editor.Token, "DELETE", members+"/"+creator.ID, nil), 205, "remove from team")
		ctEmpty(t, e.Do(team.Editor.Token, "DELETE", members+"/"+creator.ID, nil), 204, "remove again")

		// Deleting.
		ctErr(t, e.Do(team.Reader.Token, "DELETE", org+"/teams/"+wid, nil), 403, "", "reader deletes")
		ctEmpty(t, e.Do(team.Editor.Token, "DELETE", org+"/teams/"+wid, nil), 205, "owner deletes")
		ctEmpty(t, e.Do(adm, "DELETE", org+"/teams/"+wid, nil), 204, "delete again")
		ctEmpty(t, e.Do(team.Outsider.Token, "DELETE", org+"/teams/"+rid, nil), 204, "outsider deletes: as for what does not exist")

		// GraphQL.
		g := e.GraphQL(adm, `mutation($o: ID!) { createTeam(organization: $o, input: {title: "Ops"}) { id title members permissions { admin } organization { id } } }`,
			map[string]any{"o": team.Org.ID})
		if len(g.Errors) > 0 || testenv.Path(g.Data, "createTeam", "members") != float64(1) {
			t.Fatalf("GraphQL create: %s", g.Raw)
		}
		ops := testenv.Path(g.Data, "createTeam", "id").(string)
		g = e.GraphQL(team.Reader.Token, `query($id: ID!) { node(id: $id) { ... on Team { title memberList { totalCount nodes { role member { id } } } } } }`, map[string]any{"id": ops})
		if testenv.Path(g.Data, "node", "title") != "Ops" || testenv.Path(g.Data, "node", "memberList", "totalCount") != float64(1) {
			t.Errorf("GraphQL node: %s", g.Raw)
		}
		g = e.GraphQL(team.Outsider.Token, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": ops})
		if g.Code() != "NOT_FOUND" {
			t.Errorf("outsider node: %s", g.Raw)
		}
	})
}
