package graph_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
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
		// One path per query: two sibling paths reading through the same
		// loaders may share their batches or not, as the timing falls.
		queries := []string{
			`query($s: ID!) { space(id: $s) { commentList(first: 100) { nodes { id body { markdown } postedBy { displayName } resolvedBy { id }
			  reactions { emoji count users { user { displayName } } } repliers { count user { displayName } } permissions { edit delete }
			  replyList(first: 10) { nodes { body { markdown } postedBy { displayName } reactions { count users { user { id } } } permissions { edit } } } } } } }`,
			`query($s: ID!) { space(id: $s) { commenters(first: 10) { nodes { role user { displayName } } } } }`,
			`query($cr: ID!) { changeRequest(id: $cr) { commentList(first: 100) { nodes { id body { document { nodes { __typename } } } postedBy { displayName }
			  changeRequest { number } space { title } replyList(first: 10) { totalCount nodes { comment { id } } } } } } }`,
		}
		gqlRun := func(q, space, cr string) func() {
			vars := map[string]any{"s": space}
			if strings.Contains(q, "$cr") {
				vars = map[string]any{"cr": cr}
			}
			return func() { gqlOK(t, e.GraphQL(team.Reader.Token, q, vars)) }
		}
		restRun := func(space, cr string, n int) func() {
			return func() {
				for _, p := range []string{"/v1/spaces/" + space + "/comments?limit=100", "/v1/spaces/" + space + "/change-requests/" + cr + "/comments?limit=100&format=document"} {
					l := restGet(t, e, team.Reader.Token, p)
					if l["count"] != float64(n) || testenv.Path(l, "items", 0, "reactions", 0, "users", 0, "user", "displayName") == nil ||
						testenv.Path(l, "items", 0, "postedBy", "id") == nil {
						t.Fatalf("REST list %s: %v", p, l)
					}
				}
			}
		}
		s1, c1 := build("Small", 3)
		s2, c2 := build("Large", 12)
		var runs []func()
		for _, q := range queries {
			runs = append(runs, gqlRun(q, s1, c1), gqlRun(q, s2, c2))
		}
		runs = append(runs, restRun(s1, c1, 3), restRun(s2, c2, 12))
		least := leastStatements(e, runs...)
		for i := range queries {
			g1, g2 := least[2*i], least[2*i+1]
			t.Logf("GraphQL query %d: 3 comments → %d statements, 12 → %d", i+1, g1, g2)
			if g1 != g2 {
				t.Errorf("GraphQL statements of query %d grow with comments: %d for 3, %d for 12", i+1, g1, g2)
			}
		}
		r1, r2 := least[len(least)-2], least[len(least)-1]
		t.Logf("REST (two lists): 3 comments → %d statements, 12 → %d", r1, r2)
		if r1 != r2 {
			t.Errorf("REST statements grow with comments: %d for 3, %d for 12", r1, r2)
		}
	})
}

// Discussions, reviews and review requests of the items of lists (the
// change requests of a space, the spaces of an organization) read in a
// number of statements that does not grow with the items.
func TestDiscussionsOfListItemsDoNotGrow(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		u, tok := e.User("rita@acme.test")
		e.Member(team.Org, u, "review")
		rita := testenv.Actor{User: u, Token: tok}
		build := func(org string, n int) string {
			t.Helper()
			o := e.Org(org)
			e.Member(o, team.Admin.User, "admin")
			e.Member(o, team.Editor.User, "edit")
			e.Member(o, team.Reader.User, "read")
			e.Member(o, rita.User, "review")
			for i := 0; i < n; i++ {
				r := e.Do(team.Admin.Token, "POST", "/v1/orgs/"+o.ID+"/spaces", map[string]any{"title": fmt.Sprintf("S%d", i)})
				space := cxStr(r.JSON()["id"])
				e.Do(team.Editor.Token, "POST", "/v1/spaces/"+space+"/comments", map[string]any{"body": map[string]any{"markdown": "On the space"}})
				for j := 0; j < n; j++ {
					cr := cxStr(cxNewCR(t, e, team.Editor.Token, space, fmt.Sprintf("CR %d", j))["id"])
					base := "/v1/spaces/" + space + "/change-requests/" + cr
					c := e.Do(team.Editor.Token, "POST", base+"/comments", map[string]any{"body": map[string]any{"markdown": "On the change"}}).JSON()
					e.Do(team.Admin.Token, "POST", base+"/comments/"+cxStr(c["id"])+"/replies", map[string]any{"body": map[string]any{"markdown": "Reply"}})
					e.Do(rita.Token, "POST", base+"/reviews", map[string]any{"status": "approved"})
					e.Do(team.Editor.Token, "POST", base+"/requested-reviewers", map[string]any{"users": []string{rita.User.ID}})
				}
			}
			return o.ID
		}
		// Space.changeRequestList reads each space's change requests itself:
		// the change requests of every space come from the organization's
		// list, one statement. A query per list: two sibling lists reading
		// through the same loaders may share their batches or not, as the
		// timing falls.
		spaces := `query($o: ID!) { organization(id: $o) {
			spaces(first: 20) { nodes { comments commentList(first: 5) { totalCount nodes { body { markdown } postedBy { id } } }
				commenters(first: 5) { nodes { user { id } } } } } } }`
		changeRequests := `query($o: ID!) { organization(id: $o) {
			changeRequests(first: 20, status: [draft]) { nodes { comments commentList(first: 5) { nodes { replies repliers { user { id } } } }
				commenters(first: 5) { totalCount nodes { user { id } } } reviews(first: 5) { nodes { status reviewer { id } } }
				requestedReviewers(first: 5) { nodes { user { id } requestedBy { id } } } } } } }`
		run := func(q, org string) func() {
			return func() {
				d := gqlOK(t, e.GraphQL(team.Reader.Token, q, map[string]any{"o": org}))
				if q == changeRequests && testenv.Path(d, "organization", "changeRequests", "nodes", 0, "reviews", "nodes", 0, "status") != "approved" ||
					q == spaces && testenv.Path(d, "organization", "spaces", "nodes", 0, "commentList", "totalCount") != float64(1) {
					t.Fatalf("read %v", d)
				}
			}
		}
		small, large := build("Small", 2), build("Large", 4)
		least := leastStatements(e, run(spaces, small), run(spaces, large), run(changeRequests, small), run(changeRequests, large))
		t.Logf("statements: 2 spaces → %d, 4 → %d; 4 change requests → %d, 16 → %d", least[0], least[1], least[2], least[3])
		if least[0] != least[1] || least[2] != least[3] {
			t.Errorf("statements grow with the items of lists: spaces %d for 2, %d for 4; change requests %d for 4, %d for 16",
				least[0], least[1], least[2], least[3])
		}
	})
}

// leastStatements runs each request many times, the requests in turn, and
// returns the fewest statements each sent. GraphQL loaders batch within a
// 1 ms window: a scheduler stall on a busy machine can split a batch (never
// join two) and add a statement to a run, so a request's count is the
// least of its runs; running the requests in turn gives each the same
// chances. A load per item would add statements to every run.
func leastStatements(e *testenv.Env, requests ...func()) []int64 {
	least := make([]int64, len(requests))
	for i := range least {
		least[i] = -1
	}
	for round := 0; round < 30; round++ {
		for i, f := range requests {
			before := e.Statements()
			f()
			if n := e.Statements() - before; least[i] < 0 || n < least[i] {
				least[i] = n
			}
		}
	}
	return least
}
