package rest_test

import (
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// postComment posts a comment as token and returns it.
func postComment(t *testing.T, e *testenv.Env, token, base string, body map[string]any) map[string]any {
	t.Helper()
	r := e.Do(token, "POST", base, body)
	if r.Status != 200 {
		t.Fatalf("post comment to %s: %d %s", base, r.Status, r.Body)
	}
	return r.JSON()
}

func md(text string) map[string]any { return map[string]any{"body": map[string]any{"markdown": text}} }

// spaceComments reads a space's count of open comments.
func spaceComments(t *testing.T, e *testenv.Env, token, space string) float64 {
	t.Helper()
	return e.Do(token, "GET", "/v1/spaces/"+space, nil).JSON()["comments"].(float64)
}

func wantError(t *testing.T, r *testenv.Response, status int, contains string) {
	t.Helper()
	if r.Status != status || !strings.Contains(string(r.Body), contains) {
		t.Fatalf("got %d %s, want %d with %q", r.Status, r.Body, status, contains)
	}
}

func TestSpaceComments(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := newSpace(t, e, team, "Docs")
		base := "/v1/spaces/" + space + "/comments"

		c := postComment(t, e, team.Editor.Token, base, md("Is this **right**?"))
		id := c["id"].(string)
		if c["object"] != "comment" || !strings.HasPrefix(id, "K") || c["status"] != "open" || c["replies"] != float64(0) ||
			testenv.Path(c, "body", "markdown") != "Is this **right**?\n" || testenv.Path(c, "postedBy", "id") != team.Editor.User.ID ||
			testenv.Path(c, "target", "space") != space || testenv.Path(c, "target", "revision") == nil ||
			testenv.Path(c, "urls", "location") != e.URL+"/v1"+"/spaces/"+space+"/comments/"+id {
			t.Fatalf("posted %v", c)
		}
		if p := c["permissions"].(map[string]any); p["edit"] != true || p["delete"] != true || p["reply"] != true || p["view"] != true {
			t.Fatalf("author's permissions %v", p)
		}
		if n := spaceComments(t, e, team.Reader.Token, space); n != 1 {
			t.Fatalf("space comments = %v, want 1", n)
		}

		// Read back, as a document, by the reader, whose permissions are
		// the reader's.
		r := e.Do(team.Reader.Token, "GET", base+"/"+id+"?format=document", nil)
		if r.Status != 200 || testenv.Path(r.JSON(), "body", "document", "object") != "document" || testenv.Path(r.JSON(), "body", "markdown") != nil {
			t.Fatalf("get as document: %d %s", r.Status, r.Body)
		}
		if p := r.JSON()["permissions"].(map[string]any); p["edit"] != false || p["delete"] != false || p["reply"] != false || p["view"] != true {
			t.Fatalf("reader's permissions %v", p)
		}
		if p := e.Do(team.Admin.Token, "GET", base+"/"+id, nil).JSON()["permissions"].(map[string]any); p["edit"] != false || p["delete"] != true {
			t.Fatalf("admin's permissions %v", p)
		}
		wantError(t, e.Do(team.Reader.Token, "GET", base+"/"+id+"?format=html", nil), 400, "format")
		wantError(t, e.Do(team.Outsider.Token, "GET", base+"/"+id, nil), 404, "space")
		wantError(t, e.Do(team.Reader.Token, "GET", base+"/K0000000000000000000", nil), 404, "comment")

		// Who may post, and what.
		wantError(t, e.Do(team.Reader.Token, "POST", base, md("hi")), 403, "comment rights")
		wantError(t, e.Do(team.Outsider.Token, "POST", base, md("hi")), 404, "space")
		wantError(t, e.Do(team.Editor.Token, "POST", base, map[string]any{"body": map[string]any{}}), 400, `"body must give markdown or document"`)
		wantError(t, e.Do(team.Editor.Token, "POST", base, md("   \n")), 400, "body is empty")
		wantError(t, e.Do(team.Editor.Token, "POST", base, map[string]any{"body": map[string]any{"markdown": "x",
			"document": map[string]any{"object": "document", "nodes": []any{}}}}), 400, "not both")
		wantError(t, e.Do(team.Editor.Token, "POST", base, map[string]any{"body": map[string]any{"document": map[string]any{
			"object": "document", "nodes": []any{map[string]any{"object": "block", "type": "nope"}}}}}), 400, "body.document.nodes[0]")
		wantError(t, e.Do(team.Editor.Token, "POST", base, md(strings.Repeat("a", 65_537))), 400, "body.markdown: larger than 65,536 bytes")
		wantError(t, e.Do(team.Editor.Token, "POST", base, map[string]any{"body": map[string]any{"markdown": "x"}, "page": "Pnotapage"}), 400, `page \"Pnotapage\" is not in the space's content`)
		wantError(t, e.Do(team.Editor.Token, "POST", base, map[string]any{"body": map[string]any{"markdown": "x"},
			"tableCell": map[string]any{"record": "r1", "definition": ""}}), 400, "tableCell")
		if n := spaceComments(t, e, team.Reader.Token, space); n != 1 {
			t.Fatalf("refused posts changed the count: %v", n)
		}

		// A comment about a page of the space, with a node and a cell.
		cr := newCR(t, e, team.Admin.Token, space, map[string]any{"subject": "Pages"})
		page := createPage(t, e, team.Admin.Token, cr["id"].(string), map[string]any{"title": "Guide", "markdown": "Hello"})
		merge(t, e, team.Admin.Token, space, cr["id"].(string))
		onPage := postComment(t, e, team.Admin.Token, base, map[string]any{"body": map[string]any{"document": map[string]any{
			"object": "document", "nodes": []any{map[string]any{"object": "block", "type": "paragraph", "nodes": []any{
				map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "About this"}}}}}}}},
			"page": page, "node": "n1", "tableCell": map[string]any{"record": "r1", "definition": "d1"}})
		if testenv.Path(onPage, "target", "page", "id") != page || testenv.Path(onPage, "target", "node", "id") != "n1" ||
			testenv.Path(onPage, "target", "tableCell", "record") != "r1" || testenv.Path(onPage, "body", "markdown") != "About this\n" {
			t.Fatalf("comment on a page: %v", onPage)
		}

		// Lists: newest first, filters.
		list := e.Do(team.Reader.Token, "GET", base, nil).JSON()
		if list["count"] != float64(2) || testenv.Path(list, "items", 0, "id") != onPage["id"] || testenv.Path(list, "items", 1, "id") != id {
			t.Fatalf("list: %v", list)
		}
		asc := e.Do(team.Reader.Token, "GET", base+"?order=asc&limit=1", nil).JSON()
		if testenv.Path(asc, "items", 0, "id") != id || testenv.Path(asc, "next", "page") == nil {
			t.Fatalf("asc: %v", asc)
		}
		next := e.Do(team.Reader.Token, "GET", base+"?order=asc&limit=1&page="+testenv.Path(asc, "next", "page").(string), nil).JSON()
		if testenv.Path(next, "items", 0, "id") != onPage["id"] || next["next"] != nil {
			t.Fatalf("asc, second page: %v", next)
		}
		if l := e.Do(team.Reader.Token, "GET", base+"?targetPage="+page, nil).JSON(); l["count"] != float64(1) {
			t.Fatalf("targetPage: %v", l)
		}
		if l := e.Do(team.Reader.Token, "GET", base+"?authors="+team.Editor.User.ID+"&authors="+team.Reader.User.ID, nil).JSON(); l["count"] != float64(1) || testenv.Path(l, "items", 0, "id") != id {
			t.Fatalf("authors: %v", l)
		}
		wantError(t, e.Do(team.Reader.Token, "GET", base+"?status=closed", nil), 400, "status")

		// Resolving: any commenter; resolvedAt and resolvedBy set, then
		// cleared; the count follows, once.
		wantError(t, e.Do(team.Reader.Token, "PUT", base+"/"+id, map[string]any{"resolved": true}), 403, "comment rights")
		res := e.Do(team.Admin.Token, "PUT", base+"/"+id, map[string]any{"resolved": true})
		if res.Status != 200 || res.JSON()["status"] != "resolved" || res.JSON()["resolvedAt"] == nil || testenv.Path(res.JSON(), "resolvedBy", "id") != team.Admin.User.ID {
			t.Fatalf("resolve: %d %s", res.Status, res.Body)
		}
		e.Do(team.Admin.Token, "PUT", base+"/"+id, map[string]any{"resolved": true})
		if n := spaceComments(t, e, team.Reader.Token, space); n != 1 {
			t.Fatalf("space comments after resolving one of two (twice) = %v, want 1", n)
		}
		for status, want := range map[string]float64{"open": 1, "resolved": 1, "all": 2} {
			if l := e.Do(team.Reader.Token, "GET", base+"?status="+status, nil).JSON(); l["count"] != want {
				t.Fatalf("status=%s: %v", status, l)
			}
		}
		reopened := e.Do(team.Editor.Token, "PUT", base+"/"+id, map[string]any{"resolved": false}).JSON()
		if reopened["status"] != "open" || reopened["resolvedAt"] != nil || reopened["resolvedBy"] != nil {
			t.Fatalf("reopen: %v", reopened)
		}
		if n := spaceComments(t, e, team.Reader.Token, space); n != 2 {
			t.Fatalf("space comments after reopening = %v, want 2", n)
		}

		// Editing: the author only.
		wantError(t, e.Do(team.Admin.Token, "PUT", base+"/"+id, map[string]any{"body": map[string]any{"markdown": "mine"}}), 403, "author")
		edited := e.Do(team.Editor.Token, "PUT", base+"/"+id, map[string]any{"body": map[string]any{"markdown": "Is this *right*?"}}).JSON()
		if edited["editedAt"] == nil || testenv.Path(edited, "body", "markdown") != "Is this *right*?\n" {
			t.Fatalf("edit: %v", edited)
		}

		// Reactions: one per user and emoji, both spellings alike; taking
		// back one never made changes nothing.
		e.Do(team.Admin.Token, "PUT", base+"/"+id, map[string]any{"addedReactions": []string{"👍", "🎉"}})
		e.Do(team.Admin.Token, "PUT", base+"/"+id, map[string]any{"addedReactions": []string{"1f44d"}})
		rx := e.Do(team.Editor.Token, "PUT", base+"/"+id, map[string]any{"addedReactions": []string{"👍"}, "removedReactions": []string{"❤️"}}).JSON()
		reactions := rx["reactions"].([]any)
		if len(reactions) != 2 || testenv.Path(reactions, 0, "emoji") != "👍" || testenv.Path(reactions, 0, "count") != float64(2) ||
			testenv.Path(reactions, 0, "users", 0, "user", "id") != team.Admin.User.ID || testenv.Path(reactions, 0, "users", 1, "user", "id") != team.Editor.User.ID ||
			testenv.Path(reactions, 1, "emoji") != "🎉" || testenv.Path(reactions, 1, "count") != float64(1) || testenv.Path(reactions, 0, "users", 0, "reactedAt") == nil {
			t.Fatalf("reactions: %v", reactions)
		}
		rx = e.Do(team.Admin.Token, "PUT", base+"/"+id, map[string]any{"removedReactions": []string{"🎉", "1f44d"}}).JSON()
		if r := rx["reactions"].([]any); len(r) != 1 || testenv.Path(r, 0, "count") != float64(1) || testenv.Path(r, 0, "users", 0, "user", "id") != team.Editor.User.ID {
			t.Fatalf("after removal: %v", r)
		}
		wantError(t, e.Do(team.Editor.Token, "PUT", base+"/"+id, map[string]any{"addedReactions": []string{"a"}}), 400, "addedReactions[0]")
		wantError(t, e.Do(team.Reader.Token, "PUT", base+"/"+id, map[string]any{"addedReactions": []string{"👍"}}), 403, "comment rights")
		many := make([]string, 21)
		for i := range many {
			many[i] = string(rune(0x1F600 + i))
		}
		wantError(t, e.Do(team.Editor.Token, "PUT", base+"/"+id, map[string]any{"addedReactions": many}), 400, "addedReactions")
		wantError(t, e.Do(team.Editor.Token, "PUT", base+"/"+id, map[string]any{"addedReactions": many[:20]}), 400, "at most 20 different emoji")

		// Replies.
		rbase := base + "/" + id + "/replies"
		reply := e.Do(team.Admin.Token, "POST", rbase, md("Yes."))
		if reply.Status != 200 || reply.JSON()["object"] != "comment-reply" || !strings.HasPrefix(reply.JSON()["id"].(string), "k") ||
			testenv.Path(reply.JSON(), "body", "markdown") != "Yes.\n" {
			t.Fatalf("reply: %d %s", reply.Status, reply.Body)
		}
		replyID := reply.JSON()["id"].(string)
		e.Do(team.Editor.Token, "POST", rbase, md("Thanks."))
		e.Do(team.Admin.Token, "POST", rbase+"?format=document", md("Welcome."))
		wantError(t, e.Do(team.Reader.Token, "POST", rbase, md("me too")), 403, "comment rights")
		got := e.Do(team.Reader.Token, "GET", base+"/"+id, nil).JSON()
		repliers := got["repliers"].([]any)
		if got["replies"] != float64(3) || len(repliers) != 2 || testenv.Path(repliers, 0, "user", "id") != team.Admin.User.ID ||
			testenv.Path(repliers, 0, "count") != float64(2) || testenv.Path(repliers, 1, "count") != float64(1) {
			t.Fatalf("replies %v, repliers %v", got["replies"], repliers)
		}
		rl := e.Do(team.Reader.Token, "GET", rbase+"?format=document&limit=2", nil).JSON()
		if rl["count"] != float64(3) || testenv.Path(rl, "items", 0, "id") != replyID || testenv.Path(rl, "items", 0, "body", "document") == nil {
			t.Fatalf("replies list: %v", rl)
		}
		wantError(t, e.Do(team.Editor.Token, "PUT", rbase+"/"+replyID, map[string]any{"body": map[string]any{"markdown": "No."}}), 403, "author")
		ur := e.Do(team.Editor.Token, "PUT", rbase+"/"+replyID, map[string]any{"addedReactions": []string{"👀"}}).JSON()
		if testenv.Path(ur, "reactions", 0, "emoji") != "👀" {
			t.Fatalf("reply reaction: %v", ur)
		}
		if g := e.Do(team.Reader.Token, "GET", rbase+"/"+replyID, nil); g.Status != 200 || testenv.Path(g.JSON(), "reactions", 0, "count") != float64(1) {
			t.Fatalf("get reply: %d %s", g.Status, g.Body)
		}
		// A reply read through another comment is not found.
		if g := e.Do(team.Reader.Token, "GET", base+"/"+onPage["id"].(string)+"/replies/"+replyID, nil); g.Status != 404 {
			t.Fatalf("reply through another comment: %d", g.Status)
		}
		if d := e.Do(team.Editor.Token, "DELETE", rbase+"/"+replyID, nil); d.Status != 403 {
			t.Fatalf("delete another's reply: %d", d.Status)
		}
		if d := e.Do(team.Admin.Token, "DELETE", rbase+"/"+replyID, nil); d.Status != 205 {
			t.Fatalf("delete reply: %d", d.Status)
		}
		if d := e.Do(team.Admin.Token, "DELETE", rbase+"/"+replyID, nil); d.Status != 204 {
			t.Fatalf("delete reply again: %d", d.Status)
		}
		if got := e.Do(team.Reader.Token, "GET", base+"/"+id, nil).JSON(); got["replies"] != float64(2) {
			t.Fatalf("replies after a delete: %v", got["replies"])
		}

		// Commenters: members in the order of their first post.
		cm := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+space+"/commenters", nil).JSON()
		if cm["count"] != float64(2) || testenv.Path(cm, "items", 0, "object") != "member" || testenv.Path(cm, "items", 0, "id") != team.Editor.User.ID ||
			testenv.Path(cm, "items", 0, "role") != "edit" || testenv.Path(cm, "items", 1, "user", "id") != team.Admin.User.ID {
			t.Fatalf("commenters: %v", cm)
		}

		// Deleting: the author or an admin; the replies go with it.
		wantError(t, e.Do(team.Reader.Token, "DELETE", base+"/"+id, nil), 403, "author or a space admin")
		if d := e.Do(team.Admin.Token, "DELETE", base+"/"+id, nil); d.Status != 205 {
			t.Fatalf("admin deletes: %d %s", d.Status, d.Body)
		}
		if d := e.Do(team.Admin.Token, "DELETE", base+"/"+id, nil); d.Status != 204 {
			t.Fatalf("delete again: %d", d.Status)
		}
		if g := e.Do(team.Reader.Token, "GET", rbase, nil); g.Status != 404 {
			t.Fatalf("replies of a deleted comment: %d", g.Status)
		}
		if n := spaceComments(t, e, team.Reader.Token, space); n != 1 {
			t.Fatalf("space comments after deleting one = %v, want 1", n)
		}
		if d := e.Do(team.Outsider.Token, "DELETE", base+"/"+onPage["id"].(string), nil); d.Status != 204 {
			t.Fatalf("outsider deletes: %d", d.Status)
		}

		// A space in the trash keeps its discussion readable, not writable.
		e.Do(team.Admin.Token, "DELETE", "/v1/spaces/"+space, nil)
		wantError(t, e.Do(team.Admin.Token, "POST", base, md("late")), 412, "deleted")
		if l := e.Do(team.Reader.Token, "GET", base, nil); l.Status != 200 || l.JSON()["count"] != float64(1) {
			t.Fatalf("list of a deleted space: %d %s", l.Status, l.Body)
		}
	})
}

func TestChangeRequestComments(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := newSpace(t, e, team, "Docs")
		cr := newCR(t, e, team.Editor.Token, space, map[string]any{"subject": "Draft"})
		crID := cr["id"].(string)
		page := createPage(t, e, team.Editor.Token, crID, map[string]any{"title": "New", "markdown": "Text"})
		// The change request by number and by id name one discussion.
		byNumber := "/v1/spaces/" + space + "/change-requests/1/comments"
		byID := "/v1/spaces/" + space + "/change-requests/" + crID + "/comments"

		c := postComment(t, e, team.Admin.Token, byNumber, map[string]any{"body": map[string]any{"markdown": "Nice page"}, "page": page})
		id := c["id"].(string)
		if testenv.Path(c, "target", "changeRequest") != crID || testenv.Path(c, "target", "page", "id") != page ||
			testenv.Path(c, "urls", "location") != e.URL+"/v1/spaces/"+space+"/change-requests/"+crID+"/comments/"+id {
			t.Fatalf("posted %v", c)
		}
		// The page is the change request's, not the space's.
		wantError(t, e.Do(team.Admin.Token, "POST", "/v1/spaces/"+space+"/comments", map[string]any{"body": map[string]any{"markdown": "x"}, "page": page}),
			400, "not in the space's content")
		postComment(t, e, team.Editor.Token, byID, md("Second"))

		if got := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+space+"/change-requests/"+crID, nil).JSON(); got["comments"] != float64(2) {
			t.Fatalf("change request comments = %v, want 2", got["comments"])
		}
		if n := spaceComments(t, e, team.Reader.Token, space); n != 0 {
			t.Fatalf("the space counts its change request's comments: %v", n)
		}
		if l := e.Do(team.Reader.Token, "GET", byID, nil).JSON(); l["count"] != float64(2) {
			t.Fatalf("list: %v", l)
		}
		if l := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+space+"/comments", nil).JSON(); l["count"] != float64(0) {
			t.Fatalf("the space lists its change request's comments: %v", l)
		}
		// The comment is not the space's, nor another change request's.
		if g := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+space+"/comments/"+id, nil); g.Status != 404 {
			t.Fatalf("comment through the space: %d", g.Status)
		}
		other := newCR(t, e, team.Editor.Token, space, map[string]any{"subject": "Other"})
		if g := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+space+"/change-requests/"+other["id"].(string)+"/comments/"+id, nil); g.Status != 404 {
			t.Fatalf("comment through another change request: %d", g.Status)
		}

		// A change request's reply may resolve its comment.
		rp := e.Do(team.Editor.Token, "POST", byID+"/"+id+"/replies", md("Done")).JSON()
		ur := e.Do(team.Editor.Token, "PUT", byID+"/"+id+"/replies/"+rp["id"].(string), map[string]any{"resolved": true})
		if ur.Status != 200 {
			t.Fatalf("resolve through a reply: %d %s", ur.Status, ur.Body)
		}
		if got := e.Do(team.Reader.Token, "GET", byID+"/"+id, nil).JSON(); got["status"] != "resolved" || got["replies"] != float64(1) {
			t.Fatalf("after resolving through a reply: %v", got)
		}
		if got := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+space+"/change-requests/"+crID, nil).JSON(); got["comments"] != float64(1) {
			t.Fatalf("change request comments = %v, want 1", got["comments"])
		}

		cm := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+space+"/change-requests/"+crID+"/commenters", nil).JSON()
		if cm["count"] != float64(2) || testenv.Path(cm, "items", 0, "id") != team.Admin.User.ID || testenv.Path(cm, "items", 1, "id") != team.Editor.User.ID {
			t.Fatalf("commenters: %v", cm)
		}
		if sc := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+space+"/commenters", nil).JSON(); sc["count"] != float64(0) {
			t.Fatalf("space commenters: %v", sc)
		}

		// Merged change requests keep their discussion open.
		merge(t, e, team.Admin.Token, space, crID)
		postComment(t, e, team.Editor.Token, byID, md("after merge"))
	})
}

func TestCommentIDsOfOtherOrganizations(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := newSpace(t, e, team, "Docs")
		id := postComment(t, e, team.Admin.Token, "/v1/spaces/"+space+"/comments", md("Mine"))["id"].(string)
		u, tok := e.User("other@elsewhere.test")
		e.Member(team.Other, u, "admin")
		r := e.Do(tok, "POST", "/v1/orgs/"+team.Other.ID+"/spaces", map[string]any{"title": "Theirs"})
		theirs := r.JSON()["id"].(string)
		// Their space with our comment's id: as unknown as an id that names
		// nothing.
		a := e.Do(tok, "GET", "/v1/spaces/"+theirs+"/comments/"+id, nil)
		b := e.Do(tok, "GET", "/v1/spaces/"+theirs+"/comments/K0000000000000000000", nil)
		if a.Status != 404 || b.Status != 404 || strings.ReplaceAll(string(a.Body), id, "<id>") != strings.ReplaceAll(string(b.Body), "K0000000000000000000", "<id>") {
			t.Fatalf("another organization's comment: %d %s; unknown: %d %s", a.Status, a.Body, b.Status, b.Body)
		}
		for _, m := range []string{"PUT", "DELETE"} {
			if r := e.Do(tok, m, "/v1/spaces/"+space+"/comments/"+id, map[string]any{"resolved": true}); r.Status != 404 && !(m == "DELETE" && r.Status == 204) {
				t.Fatalf("%s from another organization: %d %s", m, r.Status, r.Body)
			}
		}
		if n := spaceComments(t, e, team.Admin.Token, space); n != 1 {
			t.Fatalf("count changed: %v", n)
		}
	})
}
