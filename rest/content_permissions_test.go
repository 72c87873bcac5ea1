package rest_test

import (
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// contentRoute reports the space routes whose permission matrix is
// TestContentPermissionMatrix rather than the space matrix.
func contentRoute(pattern string) bool {
	for _, p := range []string{"/spaces/{spaceId}/content", "/spaces/{spaceId}/links", "/spaces/{spaceId}/change-requests", "/spaces/{spaceId}/revisions"} {
		if pattern == p || strings.HasPrefix(pattern, p+"/") {
			return true
		}
	}
	return false
}

func TestContentPermissionMatrix(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := newContentFixture(t, e)
		team := f.team
		type route struct {
			method, pattern string
			body            any
			want            map[string]int
		}
		read := map[string]int{"admin": 200, "editor": 200, "reader": 200, "outsider": 404, "anon": 401}
		edit := func(ok int) map[string]int {
			return map[string]int{"admin": ok, "editor": ok, "reader": 403, "outsider": 404, "anon": 401}
		}
		review := map[string]int{"admin": 200, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}
		const s, cr = "/spaces/{spaceId}", "/spaces/{spaceId}/change-requests/{changeRequestId}"
		routes := []route{
			{"POST", s + "/content/template", map[string]any{"id": "changelog"}, edit(201)},
			{"GET", s + "/links", nil, read},
			{"GET", s + "/change-requests", nil, read},
			{"POST", s + "/change-requests", map[string]any{"subject": "New"}, edit(201)},
			{"GET", cr, nil, read},
			{"PATCH", cr, map[string]any{"subject": "Renamed"}, edit(200)},
			{"POST", cr + "/merge", nil, review},
			{"POST", cr + "/update", nil, edit(200)},
			{"GET", cr + "/pdf", nil, read},
			{"GET", cr + "/links", nil, read},
			{"GET", "/orgs/{organizationId}/change-requests", nil, read},
			{"POST", s + "/content/computed/document", map[string]any{"seed": "s", "source": map[string]any{"type": "builtin:openapi"}}, read},
		}
		for _, tail := range []string{"", "/document"} {
			routes = append(routes, route{"GET", s + "/revisions/{revisionId}/reusable-contents/{reusableContentId}" + tail, nil, read})
		}
		revID := e.Do(team.Admin.Token, "GET", "/v1/spaces/"+f.space, nil).JSON()["revision"].(string)
		for _, base := range []string{s + "/content", cr + "/content"} {
			for _, tail := range []string{"", "/pages", "/files", "/files/{fileId}", "/files/{fileId}/backlinks",
				"/page/{pageId}", "/page/{pageId}/links", "/page/{pageId}/backlinks", "/reusable-contents/{reusableContentId}"} {
				routes = append(routes, route{"GET", base + tail, nil, read})
			}
		}
		covered := map[string]bool{}
		for _, r := range routes {
			covered[r.method+" "+r.pattern] = true
		}
		for _, rt := range e.Server.API().Routes() {
			if (contentRoute(rt.Pattern) || strings.HasSuffix(rt.Pattern, "/change-requests")) && !discussionRoute(rt.Pattern) &&
				!covered[rt.Method+" "+rt.Pattern] {
				t.Errorf("route %s %s is not in the matrix", rt.Method, rt.Pattern)
			}
		}
		actors := []struct {
			name  string
			actor testenv.Actor
		}{{"admin", team.Admin}, {"editor", team.Editor}, {"reader", team.Reader}, {"outsider", team.Outsider}, {"anon", team.Anon}}
		for _, rt := range routes {
			for _, a := range actors {
				t.Run(rt.method+" "+rt.pattern+"/"+a.name, func(t *testing.T) {
					crID := f.cr
					if rt.method != "GET" {
						crID = newCR(t, e, team.Admin.Token, f.space, map[string]any{"subject": "Subject"})["id"].(string)
						createPage(t, e, team.Admin.Token, crID, map[string]any{"title": "P " + crID, "markdown": "x\n"})
					}
					path := "/v1" + strings.NewReplacer("{spaceId}", f.space, "{changeRequestId}", crID, "{organizationId}", team.Org.ID,
						"{pageId}", f.intro, "{fileId}", f.logo, "{reusableContentId}", f.reusable, "{revisionId}", revID).Replace(rt.pattern)
					want := rt.want[a.name]
					if r := e.Do(a.actor.Token, rt.method, path, rt.body); r.Status != want {
						t.Errorf("%s %s as %s: %d, want %d: %s", rt.method, path, a.name, r.Status, want, r.Body)
					}
				})
			}
		}
	})
}
