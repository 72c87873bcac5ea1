package graph_test

import (
	"fmt"
	"net/http"
	"testing"

	"quire/internal/testenv"
)

const postCommentDoc = `mutation($in: PostCommentInput!) { postComment(input: $in) {
  id object status replies postedBy { id } body { markdown document { nodes { __typename } } }
  target { space revision changeRequest page { id } } permissions { view edit reply delete } urls { location } } }`

func gqlPost(t *testing.T, e *testenv.Env, token string, in map[string]any) map[string]any {
	t.Helper()
	return gqlOK(t, e.GraphQL(token, postCommentDoc, map[string]any{"in": in}))["postComment"].(map[string]any)
}

func TestGraphQLComments(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := cxSpace(t, e, team, "Docs")
		cr := cxStr(cxNewCR(t, e, team.Editor.Token, space, "Draft")["id"])

		c := gqlPost(t, e, team.Editor.Token, map[string]any{"space": space, "body": map[string]any{"markdown": "Why?"}})
		id := cxStr(c["id"])
		if c["object"] != "comment" || c["status"] != "open" || testenv.Path(c, "body", "markdown") != "Why?\n" ||
			testenv.Path(c, "target", "space") != space || testenv.Path(c, "permissions", "edit") != true {
			t.Fatalf("posted %v", c)
		}
		// The same comment through REST, with the same id and content.
		rc := restGet(t, e, team.Reader.Token, "/v1/spaces/"+space+"/comments/"+id)
		if rc["id"] != id || testenv.Path(rc, "body", "markdown") != "Why?\n" || testenv.Path(rc, "urls", "location") != testenv.Path(c, "urls", "location") {
			t.Fatalf("REST %v, GraphQL %v", rc, c)
		}

		// Errors, as REST gives them.
		bad := e.GraphQL(team.Editor.Token, postCommentDoc, map[string]any{"in": map[string]any{"space": space,
			"body": map[string]any{"document": map[string]any{"object": "document", "nodes": []any{map[string]any{"object": "block", "type": "nope"}}}}}})
		gqlErr(t, bad, "BAD_REQUEST", "body.document.nodes[0].type")
		gqlErr(t, e.GraphQL(team.Editor.Token, postCommentDoc, map[string]any{"in": map[string]any{"space": space, "body": map[string]any{}}}), "BAD_REQUEST", "body")
		gqlErr(t, e.GraphQL(team.Reader.Token, postCommentDoc, map[string]any{"in": map[string]any{"space": space, "body": map[string]any{"markdown": "x"}}}), "FORBIDDEN", "")
		gqlErr(t, e.GraphQL(team.Outsider.Token, postCommentDoc, map[string]any{"in": map[string]any{"space": space, "body": map[string]any{"markdown": "x"}}}), "NOT_FOUND", "")
		gqlErr(t, e.GraphQL(team.Editor.Token, postCommentDoc, map[string]any{"in": map[string]any{"space": space, "body": map[string]any{"markdown": "x"}, "page": "Pnope"}}), "BAD_REQUEST", "page")

		// A change request's comment; replies, reactions, resolving.
		crc := gqlPost(t, e, team.Admin.Token, map[string]any{"space": space, "changeRequest": cr, "body": map[string]any{"markdown": "Change?"}})
		crcID := cxStr(crc["id"])
		if testenv.Path(crc, "target", "changeRequest") != cr {
			t.Fatalf("change request comment %v", crc)
		}
		rp := gqlOK(t, e.GraphQL(team.Editor.Token, `mutation($c: ID!) { postCommentReply(comment: $c, body: {markdown: "Yes"}) { id object comment { id replies } } }`,
			map[string]any{"c": crcID}))["postCommentReply"].(map[string]any)
		if rp["object"] != "comment-reply" || testenv.Path(rp, "comment", "replies") != float64(1) {
			t.Fatalf("reply %v", rp)
		}
		u := gqlOK(t, e.GraphQL(team.Editor.Token, `mutation($id: ID!) { updateComment(id: $id, input: {resolved: true, addedReactions: ["🎉"]}) {
			status resolvedAt resolvedBy { id } reactions { emoji count users { user { id } reactedAt } } changeRequest { comments } } }`,
			map[string]any{"id": crcID}))["updateComment"].(map[string]any)
		if u["status"] != "resolved" || u["resolvedAt"] == nil || testenv.Path(u, "resolvedBy", "id") != team.Editor.User.ID ||
			testenv.Path(u, "reactions", 0, "emoji") != "🎉" || testenv.Path(u, "changeRequest", "comments") != float64(0) {
			t.Fatalf("updated %v", u)
		}
		gqlErr(t, e.GraphQL(team.Editor.Token, `mutation($id: ID!) { updateComment(id: $id, input: {addedReactions: ["x"]}) { id } }`, map[string]any{"id": crcID}), "BAD_REQUEST", "addedReactions[0]")
		gqlErr(t, e.GraphQL(team.Editor.Token, `mutation($id: ID!) { updateComment(id: $id, input: {body: {markdown: "mine"}}) { id } }`, map[string]any{"id": crcID}), "FORBIDDEN", "")

		// Nested reads.
		d := gqlOK(t, e.GraphQL(team.Reader.Token, `query($s: ID!, $cr: ID!) {
			space(id: $s) { comments commentList { totalCount nodes { id } } commenters { nodes { id role user { id } } } }
			changeRequest(id: $cr) { comments commentList(status: resolved) { totalCount nodes { id replies repliers { count user { id } }
				replyList { nodes { id body { markdown } permissions { edit } } } } } commenters { totalCount } } }`,
			map[string]any{"s": space, "cr": cr}))
		if testenv.Path(d, "space", "comments") != float64(1) || testenv.Path(d, "space", "commentList", "totalCount") != float64(1) ||
			testenv.Path(d, "space", "commenters", "nodes", 0, "id") != team.Editor.User.ID ||
			testenv.Path(d, "changeRequest", "commentList", "nodes", 0, "repliers", 0, "user", "id") != team.Editor.User.ID ||
			testenv.Path(d, "changeRequest", "commentList", "nodes", 0, "replyList", "nodes", 0, "body", "markdown") != "Yes\n" ||
			testenv.Path(d, "changeRequest", "commenters", "totalCount") != float64(2) {
			t.Fatalf("nested reads %v", d)
		}

		// node(id:) reaches comments and replies; deletes.
		n := gqlOK(t, e.GraphQL(team.Reader.Token, `query($a: ID!, $b: ID!) { a: node(id: $a) { __typename id } b: node(id: $b) { __typename } }`,
			map[string]any{"a": id, "b": rp["id"]}))
		if testenv.Path(n, "a", "__typename") != "Comment" || testenv.Path(n, "b", "__typename") != "CommentReply" {
			t.Fatalf("nodes %v", n)
		}
		gqlErr(t, e.GraphQL(team.Outsider.Token, `query($a: ID!) { node(id: $a) { id } }`, map[string]any{"a": id}), "NOT_FOUND", "")
		del := `mutation($id: ID!) { deleteComment(id: $id) { id deleted } }`
		if got := gqlOK(t, e.GraphQL(team.Outsider.Token, del, map[string]any{"id": id})); testenv.Path(got, "deleteComment", "deleted") != false {
			t.Fatalf("outsider deletes: %v", got)
		}
		gqlErr(t, e.GraphQL(team.Reader.Token, del, map[string]any{"id": id}), "FORBIDDEN", "")
		if got := gqlOK(t, e.GraphQL(team.Editor.Token, del, map[string]any{"id": id})); testenv.Path(got, "deleteComment", "deleted") != true {
			t.Fatalf("author deletes: %v", got)
		}
		if got := gqlOK(t, e.GraphQL(team.Admin.Token, `mutation($id: ID!) { deleteCommentReply(id: $id) { deleted } }`, map[string]any{"id": rp["id"]})); testenv.Path(got, "deleteCommentReply", "deleted") != true {
			t.Fatalf("admin deletes a reply: %v", got)
		}
	})
}

func TestGraphQLReviews(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		u, tok := e.User("rita@acme.test")
		e.Member(team.Org, u, "review")
		space := cxSpace(t, e, team, "Docs")
		cr := cxStr(cxNewCR(t, e, team.Editor.Token, space, "Draft")["id"])

		req := `mutation($cr: ID!, $in: RequestReviewersInput!) { requestReviewersForChangeRequest(changeRequest: $cr, input: $in) {
			users { object kind user { id } requestedBy { id } } changeRequest { subject description { nodes { __typename } } } } }`
		gqlErr(t, e.GraphQL(team.Editor.Token, req, map[string]any{"cr": cr, "in": map[string]any{"users": []string{team.Reader.User.ID}}}), "BAD_REQUEST", "users[0]")
		r := gqlOK(t, e.GraphQL(team.Editor.Token, req, map[string]any{"cr": cr, "in": map[string]any{"users": []string{u.ID}, "descriptionMarkdown": "Please look."}}))
		if testenv.Path(r, "requestReviewersForChangeRequest", "users", 0, "user", "id") != u.ID ||
			testenv.Path(r, "requestReviewersForChangeRequest", "changeRequest", "description") == nil {
			t.Fatalf("request %v", r)
		}
		list := `query($s: ID!, $o: ID!, $u: ID!) { space(id: $s) { changeRequestList(status: [draft], requestedReviewer: $u) { totalCount } }
			organization(id: $o) { changeRequests(status: [draft], requestedReviewer: $u) { totalCount } } }`
		l := gqlOK(t, e.GraphQL(team.Reader.Token, list, map[string]any{"s": space, "o": team.Org.ID, "u": u.ID}))
		if testenv.Path(l, "space", "changeRequestList", "totalCount") != float64(1) || testenv.Path(l, "organization", "changeRequests", "totalCount") != float64(1) {
			t.Fatalf("requestedReviewer: %v", l)
		}

		submit := `mutation($cr: ID!, $in: SubmitChangeRequestReviewInput!) { submitChangeRequestReview(changeRequest: $cr, input: $in) {
			id object status outdated reviewer { id } requestedBy { id } comment { body { markdown } target { review } } urls { location } } }`
		gqlErr(t, e.GraphQL(team.Editor.Token, submit, map[string]any{"cr": cr, "in": map[string]any{"status": "approved"}}), "FORBIDDEN", "")
		rv := gqlOK(t, e.GraphQL(tok, submit, map[string]any{"cr": cr, "in": map[string]any{"status": "approved", "comment": map[string]any{"markdown": "LGTM"}}}))["submitChangeRequestReview"].(map[string]any)
		if rv["object"] != "change-request-review" || rv["status"] != "approved" || testenv.Path(rv, "requestedBy", "id") != team.Editor.User.ID ||
			testenv.Path(rv, "comment", "target", "review") != rv["id"] {
			t.Fatalf("review %v", rv)
		}
		// The same review through REST.
		rr := restGet(t, e, team.Reader.Token, "/v1/spaces/"+space+"/change-requests/"+cr+"/reviews/"+cxStr(rv["id"]))
		if rr["status"] != "approved" || testenv.Path(rr, "urls", "location") != testenv.Path(rv, "urls", "location") {
			t.Fatalf("REST %v", rr)
		}
		l = gqlOK(t, e.GraphQL(team.Reader.Token, list, map[string]any{"s": space, "o": team.Org.ID, "u": u.ID}))
		if testenv.Path(l, "space", "changeRequestList", "totalCount") != float64(0) {
			t.Fatalf("still asked after reviewing: %v", l)
		}
		d := gqlOK(t, e.GraphQL(team.Reader.Token, `query($cr: ID!, $rv: ID!) { changeRequest(id: $cr) { comments reviews { totalCount nodes { id } }
			review(id: $rv) { status changeRequest { id } } requestedReviewers { totalCount } } node(id: $rv) { __typename } }`,
			map[string]any{"cr": cr, "rv": rv["id"]}))
		if testenv.Path(d, "changeRequest", "reviews", "totalCount") != float64(1) || testenv.Path(d, "changeRequest", "comments") != float64(1) ||
			testenv.Path(d, "changeRequest", "review", "changeRequest", "id") != cr || testenv.Path(d, "node", "__typename") != "ChangeRequestReview" {
			t.Fatalf("reads %v", d)
		}

		// A merge rule naming a reviewer.
		e.Do(team.Admin.Token, "PATCH", "/v1/spaces/"+space, map[string]any{"mergeRules": map[string]any{"type": "rules",
			"rules": []any{map[string]any{"rule": "require_specific_reviewers", "users": []string{u.ID}}}}})
		other := cxStr(cxNewCR(t, e, team.Editor.Token, space, "Other")["id"])
		merge := `mutation($id: ID!) { mergeChangeRequest(id: $id) { result } }`
		gqlErr(t, e.GraphQL(team.Admin.Token, merge, map[string]any{"id": other}), "PRECONDITION_FAILED", "")
		if got := gqlOK(t, e.GraphQL(team.Admin.Token, merge, map[string]any{"id": cr})); testenv.Path(got, "mergeChangeRequest", "result") != "merge" {
			t.Fatalf("merge of the approved one: %v", got)
		}
		rm := `mutation($cr: ID!, $u: ID!) { removeRequestedReviewerFromChangeRequest(changeRequest: $cr, user: $u) { deleted } }`
		if got := gqlOK(t, e.GraphQL(team.Editor.Token, rm, map[string]any{"cr": other, "u": u.ID})); testenv.Path(got, "removeRequestedReviewerFromChangeRequest", "deleted") != false {
			t.Fatalf("remove a request never made: %v", got)
		}
	})
}

// Lists of comments with their replies, reactions and authors read in a
// number of statements that does not grow with the comments, through both
// doors.
func TestCommentStatementsDoNotGrow(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		others := make([]testenv.Actor, 4)
		for i := range others {
			u, tok := e.User(fmt.Sprintf("member%d@acme.test", i))
			e.Member(team.Org, u, "edit")
			others[i] = testenv.Actor{User: u, Token: tok}
		}
		build := func(title string, n int) (string, string) {
			space := cxSpace(t, e, team, title)
			cr := cxStr(cxNewCR(t, e, team.Editor.Token, space, title)["id"])
			for _, where := range []string{"/v1/spaces/" + space + "/comments", "/v1/spaces/" + space + "/change-requests/" + cr + "/comments"} {
				for i := 0; i < n; i++ {
					who := others[i%len(others)]
					r := e.Do(who.Token, "POST", where, map[string]any{"body": map[string]any{"markdown": fmt.Sprintf("Comment %d", i)}})
					if r.Status != http.StatusOK {
						t.Fatalf("post: %d %s", r.Status, r.Body)
					}
					id := cxStr(r.JSON()["id"])
					for j, rep := range others[:1+i%3] {
						e.Do(rep.Token, "POST", where+"/"+id+"/replies", map[string]any{"body": map[string]any{"markdown": fmt.Sprintf("Reply %d", j)}})
						e.Do(rep.Token, "PUT", where+"/"+id, map[string]any{"addedReactions": []string{"👍", "🎉"}})
					}
					if i%2 == 0 {
						e.Do(team.Admin.Token, "PUT", where+"/"+id, map[string]any{"resolved": true})
					}
				}
			}
			return space, cr
		}
		q := `query($s: ID!, $cr: ID!) {
		  space(id: $s) { commentList(first: 100) { nodes { id body { markdown } postedBy { displayName } resolvedBy { id }
		    reactions { emoji count users { user { displayName } } } repliers { count user { displayName } } permissions { edit delete }
		    replyList(first: 10) { nodes { body { markdown } postedBy { displayName } reactions { count } permissions { edit } } } } }
		    commenters(first: 10) { nodes { role user { displayName } } } }
		  changeRequest(id: $cr) { commentList(first: 100) { nodes { id body { document { nodes { __typename } } } postedBy { displayName }
		    changeRequest { number } space { title } replyList(first: 10) { totalCount nodes { comment { id } } } } } } }`
		lowest := func(f func() int64) int64 {
			best := int64(-1)
			for i := 0; i < 8; i++ {
				if n := f(); best < 0 || n < best {
					best = n
				}
			}
			return best
		}
		gqlCount := func(space, cr string) int64 {
			return lowest(func() int64 {
				before := e.Statements()
				gqlOK(t, e.GraphQL(team.Reader.Token, q, map[string]any{"s": space, "cr": cr}))
				return e.Statements() - before
			})
		}
		restCount := func(space, cr string, n int) int64 {
			return lowest(func() int64 {
				before := e.Statements()
				for _, p := range []string{"/v1/spaces/" + space + "/comments?limit=100", "/v1/spaces/" + space + "/change-requests/" + cr + "/comments?limit=100&format=document"} {
					l := restGet(t, e, team.Reader.Token, p)
					if l["count"] != float64(n) || testenv.Path(l, "items", 0, "reactions", 0, "users", 0, "user", "displayName") == nil ||
						testenv.Path(l, "items", 0, "postedBy", "id") == nil {
						t.Fatalf("REST list %s: %v", p, l)
					}
				}
				return e.Statements() - before
			})
		}
		s1, c1 := build("Small", 3)
		s2, c2 := build("Large", 12)
		g1, g2 := gqlCount(s1, c1), gqlCount(s2, c2)
		r1, r2 := restCount(s1, c1, 3), restCount(s2, c2, 12)
		t.Logf("GraphQL statements: 3 comments → %d, 12 → %d; REST (two lists): 3 → %d, 12 → %d", g1, g2, r1, r2)
		if g1 != g2 {
			t.Errorf("GraphQL statements grow with comments: %d for 3, %d for 12", g1, g2)
		}
		if r1 != r2 {
			t.Errorf("REST statements grow with comments: %d for 3, %d for 12", r1, r2)
		}
	})
}
