package rest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// newSpace creates a space as the team's admin and returns its id.
func newSpace(t *testing.T, e *testenv.Env, team *testenv.Team, title string) string {
	t.Helper()
	r := e.Do(team.Admin.Token, "POST", "/v1/orgs/"+team.Org.ID+"/spaces", map[string]any{"title": title})
	if r.Status != 201 {
		t.Fatalf("create space: %d %s", r.Status, r.Body)
	}
	return r.JSON()["id"].(string)
}

// newCR creates a change request through REST and returns its JSON.
func newCR(t *testing.T, e *testenv.Env, token, space string, body any) map[string]any {
	t.Helper()
	r := e.Do(token, "POST", "/v1/spaces/"+space+"/change-requests", body)
	if r.Status != 201 {
		t.Fatalf("create change request: %d %s", r.Status, r.Body)
	}
	return r.JSON()
}

// createPage adds a page to a change request through GraphQL and returns
// its id.
func createPage(t *testing.T, e *testenv.Env, token, cr string, in map[string]any) string {
	t.Helper()
	in["changeRequest"] = cr
	r := e.GraphQL(token, `mutation($in: CreatePageInput!) { createPage(input: $in) { page { id } } }`, map[string]any{"in": in})
	if len(r.Errors) > 0 {
		t.Fatalf("createPage %v: %+v", in, r.Errors)
	}
	id, _ := testenv.Path(r.Data, "createPage", "page", "id").(string)
	if id == "" {
		t.Fatalf("createPage: no page id in %s", r.Raw)
	}
	return id
}

// updatePage changes a page of a change request through GraphQL.
func updatePage(t *testing.T, e *testenv.Env, token, cr string, in map[string]any) {
	t.Helper()
	in["changeRequest"] = cr
	r := e.GraphQL(token, `mutation($in: UpdatePageInput!) { updatePage(input: $in) { changed } }`, map[string]any{"in": in})
	if len(r.Errors) > 0 {
		t.Fatalf("updatePage %v: %+v", in, r.Errors)
	}
}

func merge(t *testing.T, e *testenv.Env, token, space, cr string) map[string]any {
	t.Helper()
	r := e.Do(token, "POST", "/v1/spaces/"+space+"/change-requests/"+cr+"/merge", nil)
	if r.Status != 200 {
		t.Fatalf("merge: %d %s", r.Status, r.Body)
	}
	return r.JSON()
}

func TestChangeRequestCreateGetPatch(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := newSpace(t, e, team, "Guide")
		base := "/v1/spaces/" + space + "/change-requests"

		r := e.Do(team.Editor.Token, "POST", base, map[string]any{"subject": "Fix typos", "unknownProperty": true})
		if r.Status != 201 {
			t.Fatalf("editor create: %d %s", r.Status, r.Body)
		}
		cr := r.JSON()
		id := cr["id"].(string)
		if cr["object"] != "change-request" || cr["subject"] != "Fix typos" || cr["number"] != float64(1) ||
			cr["status"] != "draft" || cr["space"] != space || cr["outdated"] != false || cr["comments"] != float64(0) {
			t.Errorf("created = %s", r.Body)
		}
		if testenv.Path(cr, "createdBy", "id") != team.Editor.User.ID || testenv.Path(cr, "createdBy", "object") != "user" {
			t.Errorf("createdBy = %v", cr["createdBy"])
		}
		if loc := r.Header.Get("Location"); loc == "" || loc != testenv.Path(cr, "urls", "location") {
			t.Errorf("Location %q, urls %v", loc, cr["urls"])
		}
		if cr["revision"] != cr["revisionInitial"] {
			t.Errorf("a new change request's revision %v != revisionInitial %v", cr["revision"], cr["revisionInitial"])
		}
		if _, ok := cr["description"]; ok {
			t.Errorf("description on a new change request: %v", cr["description"])
		}

		// An empty body is a change request without a subject; numbers go up.
		second := newCR(t, e, team.Admin.Token, space, nil)
		if second["number"] != float64(2) || second["subject"] != "" {
			t.Errorf("second = %v", second)
		}

		// By id and by number.
		for _, ref := range []string{id, "1"} {
			g := e.Do(team.Reader.Token, "GET", base+"/"+ref, nil)
			if g.Status != 200 || g.JSON()["id"] != id {
				t.Errorf("reader GET %s: %d %s", ref, g.Status, g.Body)
			}
		}
		for _, ref := range []string{"99", "0", "99999999999999999999", "nope"} {
			if g := e.Do(team.Admin.Token, "GET", base+"/"+ref, nil); g.Status != 404 {
				t.Errorf("GET %s: %d %s", ref, g.Status, g.Body)
			}
		}
		// A change request of another space is not found through this one.
		other := newSpace(t, e, team, "Other")
		if g := e.Do(team.Admin.Token, "GET", "/v1/spaces/"+other+"/change-requests/"+id, nil); g.Status != 404 {
			t.Errorf("GET through another space: %d %s", g.Status, g.Body)
		}

		// Permission matrix.
		if g := e.Do(team.Outsider.Token, "GET", base+"/"+id, nil); g.Status != 404 {
			t.Errorf("outsider GET: %d", g.Status)
		}
		if g := e.Do("", "GET", base+"/"+id, nil); g.Status != 401 {
			t.Errorf("anonymous GET: %d", g.Status)
		}
		if g := e.Do(team.Reader.Token, "POST", base, map[string]any{"subject": "x"}); g.Status != 403 {
			t.Errorf("reader create: %d %s", g.Status, g.Body)
		}
		if g := e.Do(team.Outsider.Token, "POST", base, map[string]any{"subject": "x"}); g.Status != 404 {
			t.Errorf("outsider create: %d %s", g.Status, g.Body)
		}
		if g := e.Do("", "POST", base, map[string]any{"subject": "x"}); g.Status != 401 {
			t.Errorf("anonymous create: %d", g.Status)
		}
		if g := e.Do(team.Reader.Token, "PATCH", base+"/"+id, map[string]any{"subject": "x"}); g.Status != 403 {
			t.Errorf("reader patch: %d %s", g.Status, g.Body)
		}
		if g := e.Do(team.Outsider.Token, "PATCH", base+"/"+id, map[string]any{"subject": "x"}); g.Status != 404 {
			t.Errorf("outsider patch: %d %s", g.Status, g.Body)
		}

		// Bad bodies.
		for _, b := range []any{
			map[string]any{"subject": strings.Repeat("s", 101)},
			map[string]any{"subject": 3},
			map[string]any{"template": "getting-started"},
			map[string]any{"template": map[string]any{"params": map[string]any{}}},
			map[string]any{"template": map[string]any{"id": "no-such-template"}},
			"[1]",
		} {
			if g := e.Do(team.Admin.Token, "POST", base, b); g.Status != 400 {
				t.Errorf("create %v: %d %s", b, g.Status, g.Body)
			}
		}

		// PATCH: subject, description (a bare document), status.
		doc := map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{
			map[string]any{"object": "block", "type": "paragraph", "nodes": []any{
				map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "Why", "marks": []any{}}}},
			}},
		}}
		p := e.Do(team.Editor.Token, "PATCH", base+"/1", map[string]any{"subject": "Fix all typos", "description": doc, "status": "open"})
		if p.Status != 200 {
			t.Fatalf("patch: %d %s", p.Status, p.Body)
		}
		got := p.JSON()
		if got["subject"] != "Fix all typos" || got["status"] != "open" || testenv.Path(got, "description", "object") != "document" {
			t.Errorf("patched = %s", p.Body)
		}
		if testenv.Path(got, "description", "nodes", 0, "nodes", 0, "leaves", 0, "text") != "Why" {
			t.Errorf("description = %v", got["description"])
		}
		p = e.Do(team.Editor.Token, "PATCH", base+"/"+id, map[string]any{"description": nil})
		if _, ok := p.JSON()["description"]; p.Status != 200 || ok {
			t.Errorf("remove description: %d %s", p.Status, p.Body)
		}
		if p.JSON()["subject"] != "Fix all typos" {
			t.Errorf("subject changed by a description-only patch: %v", p.JSON()["subject"])
		}
		for _, b := range []any{
			map[string]any{"status": "merged"},
			map[string]any{"status": "closed"},
			map[string]any{"status": nil},
			map[string]any{"subject": nil},
			map[string]any{"subject": strings.Repeat("s", 101)},
			map[string]any{"description": "text"},
			map[string]any{"description": map[string]any{"object": "nope"}},
			"",
		} {
			if g := e.Do(team.Admin.Token, "PATCH", base+"/"+id, b); g.Status != 400 {
				t.Errorf("patch %v: %d %s", b, g.Status, g.Body)
			}
		}
		p = e.Do(team.Editor.Token, "PATCH", base+"/"+id, map[string]any{"subject": strings.Repeat("s", 100), "status": "archived"})
		if p.Status != 200 || p.JSON()["status"] != "archived" {
			t.Errorf("archive: %d %s", p.Status, p.Body)
		}
		// The subject is stored trimmed, and counted so, by both doors.
		padded := "  " + strings.Repeat("t", 100) + "  "
		if p = e.Do(team.Editor.Token, "PATCH", base+"/"+id, map[string]any{"subject": padded}); p.Status != 200 || p.JSON()["subject"] != strings.TrimSpace(padded) {
			t.Errorf("padded subject: %d %s", p.Status, p.Body)
		}
		gr := e.GraphQL(team.Editor.Token, `mutation($id: ID!, $s: String!) { patchChangeRequest(id: $id, input: {subject: $s}) { subject } }`, map[string]any{"id": id, "s": padded})
		if len(gr.Errors) > 0 || testenv.Path(gr.Data, "patchChangeRequest", "subject") != strings.TrimSpace(padded) {
			t.Errorf("padded subject through GraphQL: %s", gr.Raw)
		}
	})
}

func TestChangeRequestLists(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := newSpace(t, e, team, "Guide")
		base := "/v1/spaces/" + space + "/change-requests"
		a := newCR(t, e, team.Editor.Token, space, map[string]any{"subject": "A"})
		b := newCR(t, e, team.Admin.Token, space, map[string]any{"subject": "B"})
		newCR(t, e, team.Admin.Token, space, map[string]any{"subject": "C"})
		for _, cr := range []map[string]any{a, b} {
			if r := e.Do(team.Admin.Token, "PATCH", base+"/"+cr["id"].(string), map[string]any{"status": "open"}); r.Status != 200 {
				t.Fatalf("open: %d %s", r.Status, r.Body)
			}
		}
		ids := func(r *testenv.Response) []string {
			var out []string
			for _, it := range r.JSON()["items"].([]any) {
				out = append(out, it.(map[string]any)["subject"].(string))
			}
			return out
		}
		check := func(who, query string, want ...string) {
			t.Helper()
			r := e.Do(team.Reader.Token, "GET", base+query, nil)
			if r.Status != 200 {
				t.Errorf("%s %s: %d %s", who, query, r.Status, r.Body)
				return
			}
			if got := strings.Join(ids(r), ","); got != strings.Join(want, ",") {
				t.Errorf("%s %s = %s, want %s", who, query, got, strings.Join(want, ","))
			}
			if r.JSON()["count"] != float64(len(want)) {
				t.Errorf("%s %s count = %v", who, query, r.JSON()["count"])
			}
		}
		// Default: open only, most recently updated first.
		check("default", "", "B", "A")
		check("orderBy createdAt", "?orderBy=createdAt", "B", "A")
		check("draft", "?status=draft", "C")
		check("draft and open", "?status=draft&status=open&orderBy=createdAt", "C", "B", "A")
		check("creator", "?status=draft&status=open&creator="+team.Editor.User.ID, "A")
		check("contributor nobody", "?contributor="+team.Reader.User.ID)
		check("requestedReviewer", "?requestedReviewer="+team.Admin.User.ID)

		// Paging.
		r := e.Do(team.Reader.Token, "GET", base+"?status=draft&status=open&orderBy=createdAt&limit=2", nil)
		next, _ := testenv.Path(r.JSON(), "next", "page").(string)
		if r.Status != 200 || len(ids(r)) != 2 || next == "" || r.JSON()["count"] != float64(3) {
			t.Fatalf("first page: %d %s", r.Status, r.Body)
		}
		r = e.Do(team.Reader.Token, "GET", base+"?status=draft&status=open&orderBy=createdAt&limit=2&page="+next, nil)
		if got := ids(r); len(got) != 1 || got[0] != "A" || r.JSON()["next"] != nil {
			t.Errorf("second page: %s", r.Body)
		}

		for _, q := range []string{"?status=closed", "?orderBy=title", "?limit=1001", "?page=!!"} {
			if r := e.Do(team.Reader.Token, "GET", base+q, nil); r.Status != 400 {
				t.Errorf("GET %s: %d %s", q, r.Status, r.Body)
			}
		}
		if r := e.Do(team.Outsider.Token, "GET", base, nil); r.Status != 404 {
			t.Errorf("outsider list: %d", r.Status)
		}
		if r := e.Do("", "GET", base, nil); r.Status != 401 {
			t.Errorf("anonymous list: %d", r.Status)
		}

		// The organization's list spans its spaces.
		other := newSpace(t, e, team, "Other")
		d := newCR(t, e, team.Admin.Token, other, map[string]any{"subject": "D"})
		if r := e.Do(team.Admin.Token, "PATCH", "/v1/spaces/"+other+"/change-requests/"+d["id"].(string), map[string]any{"status": "open"}); r.Status != 200 {
			t.Fatalf("open D: %d", r.Status)
		}
		org := "/v1/orgs/" + team.Org.ID + "/change-requests"
		r = e.Do(team.Reader.Token, "GET", org+"?orderBy=createdAt", nil)
		if got := strings.Join(ids(r), ","); r.Status != 200 || got != "D,B,A" {
			t.Errorf("org list: %d %s", r.Status, r.Body)
		}
		r = e.Do(team.Reader.Token, "GET", org+"?status=draft", nil)
		if got := strings.Join(ids(r), ","); got != "C" {
			t.Errorf("org drafts: %s", got)
		}
		if r := e.Do(team.Outsider.Token, "GET", org, nil); r.Status != 404 {
			t.Errorf("outsider org list: %d", r.Status)
		}
		if r := e.Do("", "GET", org, nil); r.Status != 401 {
			t.Errorf("anonymous org list: %d", r.Status)
		}
	})
}

func TestChangeRequestMergeAndUpdate(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := newSpace(t, e, team, "Guide")
		base := "/v1/spaces/" + space + "/change-requests/"

		first := newCR(t, e, team.Editor.Token, space, map[string]any{"subject": "Intro"})
		fid := first["id"].(string)
		page := createPage(t, e, team.Editor.Token, fid, map[string]any{"title": "Intro", "markdown": "Hello\n"})

		// Merging needs review rights: the editor may see but not merge.
		if r := e.Do(team.Editor.Token, "POST", base+fid+"/merge", nil); r.Status != 403 {
			t.Errorf("editor merge: %d %s", r.Status, r.Body)
		}
		if r := e.Do(team.Outsider.Token, "POST", base+fid+"/merge", nil); r.Status != 404 {
			t.Errorf("outsider merge: %d %s", r.Status, r.Body)
		}
		if r := e.Do("", "POST", base+fid+"/merge", nil); r.Status != 401 {
			t.Errorf("anonymous merge: %d", r.Status)
		}
		m := merge(t, e, team.Admin.Token, space, "1")
		if m["result"] != "merge" || m["revision"] == "" || m["conflicts"] != nil {
			t.Fatalf("merge = %v", m)
		}
		sp := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+space, nil).JSON()
		if sp["revision"] != m["revision"] {
			t.Errorf("space revision %v, merge revision %v", sp["revision"], m["revision"])
		}
		got := e.Do(team.Reader.Token, "GET", base+fid, nil).JSON()
		if got["status"] != "merged" || got["revisionMerged"] != m["revision"] {
			t.Errorf("merged change request = %v", got)
		}
		rev := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+space+"/content", nil)
		if rev.Status != 200 || rev.JSON()["type"] != "merge" || testenv.Path(rev.JSON(), "mergedFrom", "id") != fid {
			t.Errorf("space content after merge: %d %.500s", rev.Status, rev.Body)
		}

		// Two change requests edit the same page: the second conflicts.
		x := newCR(t, e, team.Editor.Token, space, map[string]any{"subject": "X"})["id"].(string)
		y := newCR(t, e, team.Editor.Token, space, map[string]any{"subject": "Y"})["id"].(string)
		updatePage(t, e, team.Editor.Token, x, map[string]any{"page": page, "markdown": "Hello from X\n"})
		updatePage(t, e, team.Editor.Token, y, map[string]any{"page": page, "markdown": "Hello from Y\n"})
		if m := merge(t, e, team.Admin.Token, space, x); m["result"] != "merge" {
			t.Fatalf("merge X = %v", m)
		}
		yBefore := e.Do(team.Admin.Token, "GET", base+y, nil).JSON()
		if yBefore["outdated"] != true {
			t.Errorf("Y outdated = %v", yBefore["outdated"])
		}
		c := merge(t, e, team.Admin.Token, space, y)
		if c["result"] != "conflicts" || c["revision"] != yBefore["revision"] {
			t.Errorf("merge Y = %v (Y's revision %v)", c, yBefore["revision"])
		}
		conflicts, _ := c["conflicts"].([]any)
		if len(conflicts) == 0 || testenv.Path(conflicts[0], "page") != page || testenv.Path(conflicts[0], "message") == "" {
			t.Errorf("conflicts = %v", c["conflicts"])
		}
		if st := e.Do(team.Admin.Token, "GET", base+y, nil).JSON()["status"]; st == "merged" {
			t.Errorf("Y merged despite conflicts")
		}
		u := e.Do(team.Editor.Token, "POST", base+y+"/update", nil)
		if u.Status != 200 || u.JSON()["result"] != "conflicts" {
			t.Errorf("update Y: %d %s", u.Status, u.Body)
		}

		// A change request on another page updates cleanly.
		z := newCR(t, e, team.Editor.Token, space, map[string]any{"subject": "Z"})["id"].(string)
		createPage(t, e, team.Editor.Token, z, map[string]any{"title": "Other page", "markdown": "Z\n"})
		w := newCR(t, e, team.Editor.Token, space, map[string]any{"subject": "W"})["id"].(string)
		createPage(t, e, team.Editor.Token, w, map[string]any{"title": "Third page", "markdown": "W\n"})
		merge(t, e, team.Admin.Token, space, z)
		u = e.Do(team.Editor.Token, "POST", base+w+"/update", nil)
		wNow := e.Do(team.Editor.Token, "GET", base+w, nil).JSON()
		if u.Status != 200 || u.JSON()["result"] != "update" || u.JSON()["revision"] != wNow["revision"] {
			t.Errorf("update W: %d %s (W now %v)", u.Status, u.Body, wNow["revision"])
		}
		if wNow["outdated"] != false || wNow["revisionMergedAncestor"] == nil {
			t.Errorf("W after update: %v", wNow)
		}
		if r := e.Do(team.Reader.Token, "POST", base+w+"/update", nil); r.Status != 403 {
			t.Errorf("reader update: %d %s", r.Status, r.Body)
		}
		// Merging a merged change request is refused.
		if r := e.Do(team.Admin.Token, "POST", base+z+"/merge", nil); r.Status < 400 || r.Status >= 500 {
			t.Errorf("merge again: %d %s", r.Status, r.Body)
		}
	})
}

func TestChangeRequestTemplateAndPDF(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := newSpace(t, e, team, "Guide")
		base := "/v1/spaces/" + space + "/change-requests/"

		cr := newCR(t, e, team.Editor.Token, space, map[string]any{
			"subject":  "Start",
			"template": map[string]any{"id": "getting-started", "params": map[string]any{"contentRefs": map[string]any{"homepage": map[string]any{"kind": "url", "url": "https://example.com"}}}},
		})
		if cr["revision"] == cr["revisionInitial"] {
			t.Errorf("the template did not write a revision: %v", cr)
		}
		id := cr["id"].(string)
		pages := e.Do(team.Reader.Token, "GET", base+id+"/content/pages", nil)
		list, _ := pages.JSON()["pages"].([]any)
		if pages.Status != 200 || len(list) == 0 {
			t.Fatalf("pages of the templated change request: %d %s", pages.Status, pages.Body)
		}
		// The space itself is untouched until merge.
		if sp := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+space+"/content/pages", nil).JSON()["pages"].([]any); len(sp) != 0 {
			t.Errorf("space pages before merge: %v", sp)
		}
		// A bad parameter fails the create and leaves no open change request.
		bad := e.Do(team.Editor.Token, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{
			"template": map[string]any{"id": "getting-started", "params": map[string]any{"contentRefs": map[string]any{"homepage": map[string]any{"kind": "page", "page": "x"}}}},
		})
		if bad.Status != 400 {
			t.Errorf("bad template params: %d %s", bad.Status, bad.Body)
		}
		if l := e.Do(team.Editor.Token, "GET", "/v1/spaces/"+space+"/change-requests?status=draft&status=open", nil).JSON(); l["count"] != float64(1) {
			t.Errorf("change requests after a failed template: %v", l["count"])
		}

		// PDF of the whole content and of one page.
		first := testenv.Path(list[0], "id").(string)
		for _, q := range []string{"", "?page=" + first, "?page=" + first + "&only=true", "?only=false&page=" + first} {
			r := e.Do(team.Reader.Token, "GET", base+id+"/pdf"+q, nil)
			url, _ := r.JSON()["url"].(string)
			if r.Status != 200 || url == "" {
				t.Errorf("pdf%s: %d %s", q, r.Status, r.Body)
				continue
			}
			resp, err := http.Get(url)
			if err != nil {
				t.Fatalf("fetch pdf: %v", err)
			}
			head := make([]byte, 5)
			_, _ = io.ReadFull(resp.Body, head)
			resp.Body.Close()
			if resp.StatusCode != 200 || string(head) != "%PDF-" {
				t.Errorf("pdf%s: GET %s: %d %q", q, url, resp.StatusCode, head)
			}
		}
		for q, want := range map[string]int{"?only=true": 400, "?only=maybe": 400, "?page=nope": 404} {
			if r := e.Do(team.Reader.Token, "GET", base+id+"/pdf"+q, nil); r.Status != want {
				t.Errorf("pdf%s: %d, want %d: %s", q, r.Status, want, r.Body)
			}
		}
		if r := e.Do(team.Outsider.Token, "GET", base+id+"/pdf", nil); r.Status != 404 {
			t.Errorf("outsider pdf: %d", r.Status)
		}
		if r := e.Do("", "GET", base+id+"/pdf", nil); r.Status != 401 {
			t.Errorf("anonymous pdf: %d", r.Status)
		}
	})
}
