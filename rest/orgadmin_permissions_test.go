package rest_test

import (
	"fmt"
	"testing"

	"quire/internal/testing/testenv"
)

func TestContentPermissions(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		adm := team.Admin.Token
		org := "/v1/orgs/" + team.Org.ID
		col := ctCol(t, e, adm, team.Org.ID, "Private", "")
		ctPatch(t, e, adm, col, map[string]any{"defaultLevel": nil})
		inside := ctSpace(t, e, adm, team.Org.ID, "Inside", col)
		open := ctSpace(t, e, adm, team.Org.ID, "Open", "")
		guest, guestTok := e.User("gail@elsewhere.test")
		e.Member(team.Org, guest, "")
		ctErr(t, e.Do(guestTok, "GET", "/v1/spaces/"+open, nil), 404, "", "guest before")
		ctErr(t, e.Do(team.Reader.Token, "GET", "/v1/spaces/"+inside, nil), 404, "", "reader in a private collection")

		// A user given a level on a space.
		sp := "/v1/spaces/" + open + "/permissions"
		ctEmpty(t, e.Do(adm, "POST", sp, map[string]any{"role": "comment", "users": []string{guest.ID}}), 204, "invite guest")
		got := ctGet(t, e, guestTok, "/v1/spaces/"+open)
		if testenv.Path(got, "permissions", "comment") != true || testenv.Path(got, "permissions", "edit") != false {
			t.Errorf("guest's permissions: %v", got["permissions"])
		}
		ctEq(t, "guest's spaces", ctList(t, e, guestTok, org+"/spaces"), []string{open})
		users := ctGet(t, e, team.Reader.Token, sp+"/users")
		if users["count"] != float64(1) || testenv.Path(users, "items", 0, "permission") != "comment" || testenv.Path(users, "items", 0, "user", "id") != guest.ID {
			t.Errorf("space users: %v", users)
		}
		// A higher level raises what the role gives; a lower one does not
		// lower it.
		ctEmpty(t, e.Do(adm, "POST", sp, map[string]any{"role": "admin", "users": []string{team.Reader.User.ID}}), 204, "reader made space admin")
		if got := ctGet(t, e, team.Reader.Token, "/v1/spaces/"+open); testenv.Path(got, "permissions", "admin") != true {
			t.Errorf("reader raised: %v", got["permissions"])
		}
		ctEmpty(t, e.Do(adm, "POST", sp, map[string]any{"role": "read", "users": []string{team.Editor.User.ID}}), 204, "editor given read")
		if got := ctGet(t, e, team.Editor.Token, "/v1/spaces/"+open); testenv.Path(got, "permissions", "edit") != true {
			t.Errorf("editor lowered: %v", got["permissions"])
		}
		// The reader, now admin of the space, changes its permissions.
		ctEmpty(t, e.Do(team.Reader.Token, "PATCH", sp+"/users/"+guest.ID, map[string]any{"role": "edit"}), 204, "raise guest")
		if got := ctGet(t, e, guestTok, "/v1/spaces/"+open); testenv.Path(got, "permissions", "edit") != true {
			t.Errorf("guest raised: %v", got["permissions"])
		}
		ctEmpty(t, e.Do(adm, "PATCH", sp+"/users/"+guest.ID, map[string]any{}), 204, "no change")
		ctErr(t, e.Do(adm, "PATCH", sp+"/users/"+team.Outsider.User.ID, map[string]any{"role": "read"}), 404, "", "user without a permission")

		// A team given a level on a collection reaches what is inside.
		tr := e.Do(adm, "PUT", org+"/teams", map[string]any{"title": "Guests", "members": []string{guest.ID}})
		ctWant(t, tr, 201, "team")
		tid := tr.JSON()["id"].(string)
		cp := "/v1/collections/" + col + "/permissions"
		ctEmpty(t, e.Do(adm, "POST", cp, map[string]any{"role": "review", "teams": []string{tid}}), 204, "invite team to collection")
		if got := ctGet(t, e, guestTok, "/v1/spaces/"+inside); testenv.Path(got, "permissions", "merge") != true {
			t.Errorf("guest through the team: %v", got["permissions"])
		}
		if got := ctGet(t, e, guestTok, "/v1/collections/"+col); testenv.Path(got, "permissions", "view") != true {
			t.Errorf("guest sees the collection: %v", got)
		}
		teams := ctGet(t, e, adm, cp+"/teams")
		if teams["count"] != float64(1) || testenv.Path(teams, "items", 0, "team", "id") != tid || testenv.Path(teams, "items", 0, "team", "spaces") != float64(1) {
			t.Errorf("collection teams: %v", teams)
		}
		agg := ctGet(t, e, adm, "/v1/spaces/"+inside+"/permissions/aggregate")
		levels := map[string]string{}
		for _, it := range agg["items"].([]any) {
			levels[testenv.Path(it, "user", "id").(string)] = testenv.Path(it, "permission").(string)
		}
		want := map[string]string{team.Admin.User.ID: "admin", guest.ID: "review"}
		if fmt.Sprint(levels) != fmt.Sprint(want) {
			t.Errorf("aggregate %v, want %v", levels, want)
		}
		ctEq(t, "aggregate by role", ctIDs(userItems(ctGet(t, e, adm, "/v1/spaces/"+inside+"/permissions/aggregate?role=review"))), []string{guest.ID})
		if got := ctGet(t, e, adm, org+"/members/"+guest.ID); got["spaces"] != float64(2) || got["teams"] != float64(1) {
			t.Errorf("guest's counts: %v", got)
		}
		ms := ctGet(t, e, adm, org+"/members/"+guest.ID+"/spaces?order=asc")
		if ms["count"] != float64(2) || testenv.Path(ms, "items", 0, "space", "id") != inside || testenv.Path(ms, "items", 0, "permission") != "review" ||
			testenv.Path(ms, "items", 1, "permission") != "edit" {
			t.Errorf("guest's spaces: %v", ms)
		}
		// A member who may not see a space does not learn of it through
		// another's list.
		if l := ctGet(t, e, team.Editor.Token, org+"/members/"+guest.ID+"/spaces"); l["count"] != float64(1) {
			t.Errorf("editor's view of the guest's spaces: %v", l)
		}

		// Removing the team from the collection, and the team itself.
		ctEmpty(t, e.Do(adm, "DELETE", cp+"/teams/"+tid, nil), 205, "remove team")
		ctEmpty(t, e.Do(adm, "DELETE", cp+"/teams/"+tid, nil), 204, "remove team again")
		ctErr(t, e.Do(guestTok, "GET", "/v1/spaces/"+inside, nil), 404, "", "guest after the team's removal")
		ctEmpty(t, e.Do(adm, "PATCH", sp+"/users/"+guest.ID, map[string]any{"role": nil}), 204, "null removes")
		ctErr(t, e.Do(guestTok, "GET", "/v1/spaces/"+open, nil), 404, "", "guest after null")
		ctEmpty(t, e.Do(adm, "DELETE", sp+"/users/"+team.Reader.User.ID, nil), 205, "remove reader")

		// Refusals.
		for _, c := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"role": "read"}, "users"},
			{map[string]any{"role": nil, "users": []string{guest.ID}}, "role"},
			{map[string]any{"users": []string{guest.ID}}, "role"},
			{map[string]any{"role": "read", "users": []string{team.Outsider.User.ID}}, "users[0]"},
			{map[string]any{"role": "read", "teams": []string{"D0000000000000000000"}}, "teams[0]"},
		} {
			ctErr(t, e.Do(adm, "POST", sp, c.body), 400, c.field, "invite "+c.field)
		}
		ctErr(t, e.Do(team.Editor.Token, "POST", sp, map[string]any{"role": "admin", "users": []string{team.Editor.User.ID}}), 403, "", "editor invites")
		ctErr(t, e.Do(team.Outsider.Token, "GET", sp+"/users", nil), 404, "", "outsider lists")
		ctErr(t, e.Do(team.Outsider.Token, "DELETE", sp+"/users/"+guest.ID, nil), 404, "", "outsider removes")

		// GraphQL.
		g := e.GraphQL(adm, `mutation($s: ID!, $u: ID!) { inviteToSpace(space: $s, input: {role: edit, users: [$u]}) { id userPermissions { totalCount nodes { permission user { id } } } permissionsAggregate(role: edit) { totalCount } } }`,
			map[string]any{"s": open, "u": guest.ID})
		if len(g.Errors) > 0 || testenv.Path(g.Data, "inviteToSpace", "userPermissions", "totalCount") != float64(2) {
			t.Errorf("GraphQL invite: %s", g.Raw)
		}
		g = e.GraphQL(team.Editor.Token, `mutation($s: ID!, $u: ID!) { removeUserFromSpace(space: $s, user: $u) { deleted } }`, map[string]any{"s": open, "u": guest.ID})
		if g.Code() != "FORBIDDEN" {
			t.Errorf("GraphQL editor removes: %s", g.Raw)
		}
	})
}

func userItems(v map[string]any) map[string]any {
	items, _ := v["items"].([]any)
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = map[string]any{"id": testenv.Path(it, "user", "id")}
	}
	return map[string]any{"items": out}
}
