package rest_test

import (
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// discussionRoute reports the routes of discussions and reviews, whose
// permission matrix is TestDiscussionPermissionMatrix.
func discussionRoute(pattern string) bool {
	for _, part := range []string{"/comments", "/commenters", "/reviews", "/requested-reviewers"} {
		if strings.Contains(pattern, part) {
			return true
		}
	}
	return false
}

// TestDiscussionPermissionMatrix runs every discussion and review route as
// each member of the usual cast: reading needs read; posting, replying,
// reacting and resolving comment; deleting what another posted admin;
// reviewing review; asking for reviews edit.
func TestDiscussionPermissionMatrix(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		rita := reviewer(t, e, team, "rita")
		admin := team.Admin.Token
		space := newSpace(t, e, team, "Docs")
		// fixture makes, as the admin, a change request and a comment with a
		// reply in both discussions, a review, and a request for rita.
		fixture := func() map[string]string {
			t.Helper()
			ids := map[string]string{"spaceId": space}
			ids["changeRequestId"] = newCR(t, e, admin, space, map[string]any{"subject": "CR"})["id"].(string)
			for _, d := range []struct{ base, c, r string }{
				{"/v1/spaces/" + space + "/comments", "commentId", "commentReplyId"},
				{"/v1/spaces/" + space + "/change-requests/" + ids["changeRequestId"] + "/comments", "crCommentId", "crReplyId"},
			} {
				ids[d.c] = postComment(t, e, admin, d.base, md("Question"))["id"].(string)
				r := e.Do(admin, "POST", d.base+"/"+ids[d.c]+"/replies", md("Answer"))
				ids[d.r] = r.JSON()["id"].(string)
			}
			cr := "/v1/spaces/" + space + "/change-requests/" + ids["changeRequestId"]
			ids["reviewId"] = e.Do(rita.Token, "POST", cr+"/reviews", map[string]any{"status": "approved"}).JSON()["id"].(string)
			e.Do(admin, "POST", cr+"/requested-reviewers", map[string]any{"users": []string{rita.User.ID}})
			ids["userId"] = rita.User.ID
			return ids
		}
		shared := fixture()
		read := map[string]int{"admin": 200, "editor": 200, "reader": 200, "outsider": 404, "anon": 401}
		comment := map[string]int{"admin": 200, "editor": 200, "reader": 403, "outsider": 404, "anon": 401}
		deletes := map[string]int{"admin": 205, "editor": 403, "reader": 403, "outsider": 204, "anon": 401}
		type route struct {
			method, pattern string
			body            any
			want            map[string]int
			// fresh: each caller acts on a fixture of its own.
			fresh bool
			// cr: the comment and reply ids are the change request's.
			cr bool
		}
		resolved := map[string]any{"resolved": false}
		noReaction := map[string]any{"removedReactions": []string{"👍"}}
		const s, cr = "/spaces/{spaceId}", "/spaces/{spaceId}/change-requests/{changeRequestId}"
		var routes []route
		for _, d := range []struct {
			base string
			cr   bool
		}{{s + "/comments", false}, {cr + "/comments", true}} {
			c, r := d.base+"/{commentId}", d.base+"/{commentId}/replies"
			routes = append(routes,
				route{"GET", d.base, nil, read, false, d.cr},
				route{"POST", d.base, md("Another"), comment, false, d.cr},
				route{"GET", c, nil, read, false, d.cr},
				route{"PUT", c, resolved, comment, false, d.cr},
				route{"DELETE", c, nil, deletes, true, d.cr},
				route{"GET", r, nil, read, false, d.cr},
				route{"POST", r, md("Another"), comment, false, d.cr},
				route{"GET", r + "/{commentReplyId}", nil, read, false, d.cr},
				route{"PUT", r + "/{commentReplyId}", noReaction, comment, false, d.cr},
				route{"DELETE", r + "/{commentReplyId}", nil, deletes, true, d.cr},
			)
		}
		routes = append(routes,
			route{"GET", s + "/commenters", nil, read, false, false},
			route{"GET", cr + "/commenters", nil, read, false, false},
			route{"GET", cr + "/reviews", nil, read, false, false},
			route{"GET", cr + "/reviews/{reviewId}", nil, read, false, false},
			// The admin created the change request: it may request changes.
			route{"POST", cr + "/reviews", map[string]any{"status": "changes-requested"},
				map[string]int{"admin": 201, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}, true, false},
			route{"GET", cr + "/requested-reviewers", nil, read, false, false},
			route{"POST", cr + "/requested-reviewers", map[string]any{"users": []string{rita.User.ID}},
				map[string]int{"admin": 200, "editor": 200, "reader": 403, "outsider": 404, "anon": 401}, false, false},
			route{"DELETE", cr + "/requested-reviewers/{userId}", nil,
				map[string]int{"admin": 205, "editor": 205, "reader": 403, "outsider": 204, "anon": 401}, true, false},
		)
		covered := map[string]bool{}
		for _, r := range routes {
			covered[r.method+" "+r.pattern] = true
		}
		for _, rt := range e.Server.API().Routes() {
			if discussionRoute(rt.Pattern) && !covered[rt.Method+" "+rt.Pattern] {
				t.Errorf("route %s %s is not in the matrix", rt.Method, rt.Pattern)
			}
		}
		actors := []struct {
			name  string
			actor testenv.Actor
		}{{"admin", team.Admin}, {"editor", team.Editor}, {"reader", team.Reader}, {"outsider", team.Outsider}, {"anon", team.Anon}}
		for _, rt := range routes {
			for _, a := range actors {
				ids := shared
				if rt.fresh {
					ids = fixture()
				}
				comment, reply := ids["commentId"], ids["commentReplyId"]
				if rt.cr {
					comment, reply = ids["crCommentId"], ids["crReplyId"]
				}
				path := "/v1" + strings.NewReplacer("{spaceId}", ids["spaceId"], "{changeRequestId}", ids["changeRequestId"],
					"{commentId}", comment, "{commentReplyId}", reply, "{reviewId}", ids["reviewId"], "{userId}", ids["userId"]).Replace(rt.pattern)
				if r := e.Do(a.actor.Token, rt.method, path, rt.body); r.Status != rt.want[a.name] {
					t.Errorf("%s %s as %s: %d, want %d: %.200s", rt.method, rt.pattern, a.name, r.Status, rt.want[a.name], r.Body)
				}
			}
		}
	})
}
