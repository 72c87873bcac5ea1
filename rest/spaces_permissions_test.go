package rest_test

import (
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// TestSpacePermissionMatrix runs every space route as each member of the
// usual cast and checks the status each one gets.
func TestSpacePermissionMatrix(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		// The admin is admin of the outsider's organization too, so that a
		// transfer can succeed.
		e.Member(team.Other, team.Admin.User, "admin")
		col := spcCreateCollection(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "Col"})

		type setup struct {
			space string // a fresh live space at the root
		}
		type route struct {
			name   string
			method string
			path   func(s setup) string
			body   any
			// deleted: the space is in the trash before the call.
			deleted bool
			want    map[string]int // actor name → status
		}
		orgPath := func(setup) string { return spcOrgPath(team.Org.ID) }
		sp := func(tail ...string) func(s setup) string {
			return func(s setup) string { return spcPath(s.space, tail...) }
		}
		routes := []route{
			{"create", "POST", orgPath, map[string]any{"title": "New"}, false,
				map[string]int{"admin": 201, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}},
			{"list", "GET", orgPath, nil, false,
				map[string]int{"admin": 200, "editor": 200, "reader": 200, "outsider": 404, "anon": 401}},
			{"get", "GET", sp(), nil, false,
				map[string]int{"admin": 200, "editor": 200, "reader": 200, "outsider": 404, "anon": 401}},
			{"get deleted", "GET", sp(), nil, true,
				map[string]int{"admin": 200, "editor": 200, "reader": 200, "outsider": 404, "anon": 401}},
			{"patch title", "PATCH", sp(), map[string]any{"title": "T"}, false,
				map[string]int{"admin": 200, "editor": 200, "reader": 403, "outsider": 404, "anon": 401}},
			{"patch emoji", "PATCH", sp(), map[string]any{"emoji": "🙂"}, false,
				map[string]int{"admin": 200, "editor": 200, "reader": 403, "outsider": 404, "anon": 401}},
			{"patch editMode", "PATCH", sp(), map[string]any{"editMode": "locked"}, false,
				map[string]int{"admin": 200, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}},
			{"patch defaultLevel", "PATCH", sp(), map[string]any{"defaultLevel": "read"}, false,
				map[string]int{"admin": 200, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}},
			{"patch mergeRules", "PATCH", sp(), map[string]any{"mergeRules": map[string]any{"type": "none"}}, false,
				map[string]int{"admin": 200, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}},
			{"delete", "DELETE", sp(), nil, false,
				map[string]int{"admin": 205, "editor": 403, "reader": 403, "outsider": 204, "anon": 401}},
			{"restore", "POST", sp("restore"), nil, true,
				map[string]int{"admin": 200, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}},
			{"duplicate", "POST", sp("duplicate"), nil, false,
				map[string]int{"admin": 201, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}},
			{"move", "POST", sp("move"), map[string]any{"parent": col}, false,
				map[string]int{"admin": 200, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}},
			{"transfer", "POST", sp("transfer"), map[string]any{"organization": team.Other.ID}, false,
				map[string]int{"admin": 200, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}},
			{"git import", "POST", sp("git", "import"), map[string]any{"url": "https://git.example.com/docs.git", "ref": "refs/heads/main"}, false,
				map[string]int{"admin": 204, "editor": 204, "reader": 403, "outsider": 404, "anon": 401}},
			{"git export", "POST", sp("git", "export"), map[string]any{"url": "https://git.example.com/docs.git", "ref": "refs/heads/main", "commitMessage": "Docs"}, false,
				map[string]int{"admin": 204, "editor": 204, "reader": 403, "outsider": 404, "anon": 401}},
			// A space that never synced has no Git provider to show or remove.
			{"git info", "GET", sp("git", "info"), nil, false,
				map[string]int{"admin": 404, "editor": 404, "reader": 404, "outsider": 404, "anon": 401}},
			{"git legacy installation", "DELETE", sp("git", "legacy-installation"), nil, false,
				map[string]int{"admin": 204, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}},
		}
		// Search reads the space's content: every role may, even in the
		// trash (where it finds nothing).
		routes = append(routes,
			route{"search", "GET", func(s setup) string { return spcPath(s.space, "search") + "?query=guide" }, nil, false,
				map[string]int{"admin": 200, "editor": 200, "reader": 200, "outsider": 404, "anon": 401}},
			route{"search deleted", "GET", func(s setup) string { return spcPath(s.space, "search") + "?query=guide" }, nil, true,
				map[string]int{"admin": 200, "editor": 200, "reader": 200, "outsider": 404, "anon": 401}})
		actors := []struct {
			name  string
			actor testenv.Actor
		}{
			{"admin", team.Admin}, {"editor", team.Editor}, {"reader", team.Reader},
			{"outsider", team.Outsider}, {"anon", team.Anon},
		}
		// Every space route of the table is covered.
		covered := map[string]bool{}
		for _, r := range routes {
			path, _, _ := strings.Cut(r.path(setup{space: "{spaceId}"}), "?")
			covered[r.method+" "+path] = true
		}
		for _, rt := range e.Server.API().Routes() {
			p := strings.NewReplacer("{organizationId}", team.Org.ID).Replace("/v1" + rt.Pattern)
			isSpaceRoute := rt.Pattern == "/spaces/{spaceId}" || strings.HasPrefix(rt.Pattern, "/spaces/{spaceId}/") ||
				rt.Pattern == "/orgs/{organizationId}/spaces"
			// The permissions of spaces have tests of their own
			// (orgadmin_permissions_test.go) and rows in internal/testing/matrix.
			isSpaceRoute = isSpaceRoute && !contentRoute(rt.Pattern) && !discussionRoute(rt.Pattern) && !strings.HasPrefix(rt.Pattern, "/spaces/{spaceId}/permissions")
			if isSpaceRoute && !covered[rt.Method+" "+p] {
				t.Errorf("route %s %s is not in the matrix", rt.Method, rt.Pattern)
			}
		}

		for _, rt := range routes {
			for _, a := range actors {
				t.Run(rt.name+"/"+a.name, func(t *testing.T) {
					s := setup{space: spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "Subject"}).ID}
					if rt.deleted {
						spcStatus(t, e.Do(team.Admin.Token, "DELETE", spcPath(s.space), nil), 205, "delete subject")
					}
					want := rt.want[a.name]
					r := e.Do(a.actor.Token, rt.method, rt.path(s), rt.body)
					if r.Status != want {
						t.Fatalf("%s %s as %s: status %d, want %d; body %s", rt.method, rt.path(s), a.name, r.Status, want, r.Body)
					}
					switch {
					case want >= 400:
						spcWantError(t, r, want, "", "error shape")
					case want == 204 || want == 205:
						if len(r.Body) != 0 {
							t.Errorf("%d with a body: %s", want, r.Body)
						}
					default:
						if len(r.JSON()) == 0 {
							t.Errorf("%d without a JSON body: %s", want, r.Body)
						}
					}
				})
			}
		}
	})
}
