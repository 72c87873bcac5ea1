package rest_test

import (
	"fmt"
	"testing"

	"quire/internal/testing/testenv"
)

// The lists of organization administration read a fixed number of
// statements whatever their length: members with their users and counts,
// teams with theirs, a team's members, the permissions of a space, the
// members who reach it, a member's spaces; and a caller's own permissions
// come with their token.
func TestOrgAdminStatementsDoNotGrowWithItems(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		build := func(name string, n int) (org, adm, guestTok, space, team, user string) {
			t.Helper()
			o := e.Org(name)
			a, atok := e.User("admin@" + name + ".test")
			e.Member(o, a, "admin")
			path := "/v1/orgs/" + o.ID
			sp := ctSpace(t, e, atok, o.ID, "Docs", "")
			col := ctCol(t, e, atok, o.ID, "Guides", "")
			var users []string
			for i := 0; i < n; i++ {
				u, _ := e.User(fmt.Sprintf("m%d@%s.test", i, name))
				e.Member(o, u, "")
				users = append(users, u.ID)
				ctSpace(t, e, atok, o.ID, fmt.Sprintf("S%d", i), col)
			}
			tr := e.Do(atok, "PUT", path+"/teams", map[string]any{"title": "All", "members": users})
			ctWant(t, tr, 201, "team")
			tid := tr.JSON()["id"].(string)
			for i := 0; i < n; i++ {
				e.Do(atok, "PUT", path+"/teams", map[string]any{"title": fmt.Sprintf("T%d", i), "members": users[:1]})
			}
			ctEmpty(t, e.Do(atok, "POST", "/v1/spaces/"+sp+"/permissions", map[string]any{"role": "read", "users": users, "teams": []string{tid}}), 204, "invite")
			ctEmpty(t, e.Do(atok, "POST", "/v1/collections/"+col+"/permissions", map[string]any{"role": "comment", "users": users}), 204, "invite")
			g, gtok := e.User("guest@" + name + ".test")
			e.Member(o, g, "")
			ctEmpty(t, e.Do(atok, "POST", "/v1/collections/"+col+"/permissions", map[string]any{"role": "read", "users": []string{g.ID}}), 204, "invite guest")
			return o.ID, atok, gtok, sp, tid, users[0]
		}
		count := func(tok, method, path string, body any) int64 {
			t.Helper()
			before := e.Statements()
			r := e.Do(tok, method, path, body)
			if r.Status != 200 {
				t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
			}
			return e.Statements() - before
		}
		const gql = `query($id: ID!) { organization(id: $id) {
			members(first: 30) { nodes { id spaces teams user { email } spaceAccess(first: 30) { totalCount } teamMemberships(first: 30) { totalCount } } }
			teams(first: 30) { nodes { id members spaces permissions { admin } memberList(first: 30) { nodes { role member { id } } } } } } }`
		// GraphQL batches within a 1 ms window, which a busy machine may
		// split (adding a statement, never removing one): the fewest of a
		// few runs.
		graphQL := func(adm, org string) int64 {
			t.Helper()
			var least int64 = -1
			for i := 0; i < 6; i++ {
				before := e.Statements()
				if g := e.GraphQL(adm, gql, map[string]any{"id": org}); len(g.Errors) > 0 {
					t.Fatalf("GraphQL: %s", g.Raw)
				}
				if n := e.Statements() - before; least < 0 || n < least {
					least = n
				}
			}
			return least
		}
		measure := func(org, adm, guest, space, team, user string) []int64 {
			p := "/v1/orgs/" + org
			out := []int64{
				count(adm, "GET", p+"/members?limit=1000", nil),
				count(adm, "GET", p+"/teams?limit=1000", nil),
				count(adm, "GET", p+"/teams/"+team+"/members?limit=1000", nil),
				count(adm, "GET", "/v1/spaces/"+space+"/permissions/users?limit=1000", nil),
				count(adm, "GET", "/v1/spaces/"+space+"/permissions/teams?limit=1000", nil),
				count(adm, "GET", "/v1/spaces/"+space+"/permissions/aggregate?limit=1000", nil),
				count(adm, "GET", p+"/members/"+user+"/spaces?limit=1000", nil),
				count(adm, "GET", p+"/members/"+user+"/teams?limit=1000", nil),
				count(guest, "GET", p+"/spaces?limit=1000", nil),
			}
			return append(out, graphQL(adm, org))
		}
		smallOrg, smallAdm, smallGuest, smallSpace, smallTeam, smallUser := build("small", 2)
		bigOrg, bigAdm, bigGuest, bigSpace, bigTeam, bigUser := build("big", 15)
		small := measure(smallOrg, smallAdm, smallGuest, smallSpace, smallTeam, smallUser)
		big := measure(bigOrg, bigAdm, bigGuest, bigSpace, bigTeam, bigUser)
		// A busy machine may have split every batch of the runs of one
		// size: measure both again, up to 5 times, keeping the fewest.
		last := len(small) - 1
		for i := 0; i < 5 && small[last] != big[last]; i++ {
			small[last] = min(small[last], graphQL(smallAdm, smallOrg))
			big[last] = min(big[last], graphQL(bigAdm, bigOrg))
		}
		names := []string{"members", "teams", "team members", "space users", "space teams", "aggregate", "member spaces", "member teams", "guest's spaces", "GraphQL"}
		for i := range small {
			if small[i] != big[i] {
				t.Errorf("%s: %d statements for 2 members, %d for 15", names[i], small[i], big[i])
			}
		}
		t.Logf("statements: %v", fmt.Sprint(names, small))
	})
}
