package rest_test

import (
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

const rcFields = `space { id } changeRequest { id } changed revision { id } reusableContent { id title markdown }`

// rcEdit runs a reusable content mutation and returns its payload.
func rcEdit(t *testing.T, e *testenv.Env, token, mutation string, vars map[string]any) map[string]any {
	t.Helper()
	r := e.GraphQL(token, mutation, vars)
	if len(r.Errors) > 0 {
		t.Fatalf("%s: %+v", mutation, r.Errors)
	}
	for _, v := range r.Data {
		return v.(map[string]any)
	}
	t.Fatalf("no payload in %s", r.Raw)
	return nil
}

const (
	createRC = `mutation($in: CreateReusableContentInput!) { createReusableContent(input: $in) { ` + rcFields + ` } }`
	updateRC = `mutation($in: UpdateReusableContentInput!) { updateReusableContent(input: $in) { ` + rcFields + ` } }`
	deleteRC = `mutation($s: ID, $cr: ID, $id: ID!) { deleteReusableContent(space: $s, changeRequest: $cr, reusableContent: $id) { ` + rcFields + ` } }`
)

// newReusable creates a reusable content in a change request through
// GraphQL and returns its id.
func newReusable(t *testing.T, e *testenv.Env, token, cr, title string) string {
	t.Helper()
	out := rcEdit(t, e, token, createRC, map[string]any{"in": map[string]any{"changeRequest": cr, "title": title, "markdown": "A note.\n"}})
	return testenv.Path(out, "reusableContent", "id").(string)
}

func embedBlock(id string) map[string]any {
	return map[string]any{"object": "block", "type": "reusable-content", "isVoid": true,
		"data": map[string]any{"ref": map[string]any{"kind": "reusable-content", "reusableContent": id}}}
}

// Reusable contents through both doors: written with GraphQL in a space's
// content and in change requests, read with REST and GraphQL, embedded and
// dereferenced in pages, merged, deleted into broken references.
func TestReusableContents(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		ed := team.Editor.Token
		space := newSpace(t, e, team, "Docs")
		base := "/v1/spaces/" + space

		// Bad input names its field and writes nothing.
		before := e.Do(ed, "GET", base, nil).JSON()["revision"]
		for _, tc := range []struct {
			in    map[string]any
			field string
		}{
			{map[string]any{"space": space, "title": " "}, "title"},
			{map[string]any{"space": space, "title": strings.Repeat("x", 101)}, "title"},
			{map[string]any{"title": "T"}, "space"},
			{map[string]any{"space": space, "changeRequest": "x", "title": "T"}, "space"},
			{map[string]any{"space": space, "title": "T", "markdown": "a", "document": doc()}, "markdown"},
			{map[string]any{"space": space, "title": "T", "document": map[string]any{"nodes": "no"}}, "document.object"},
		} {
			r := e.GraphQL(ed, createRC, map[string]any{"in": tc.in})
			if r.Code() != "BAD_REQUEST" || testenv.Path(r.Errors[0].Extensions, "field") != tc.field {
				t.Errorf("%v: %s", tc.in, r.Raw)
			}
		}
		if r := e.GraphQL(team.Reader.Token, createRC, map[string]any{"in": map[string]any{"space": space, "title": "T"}}); r.Code() != "FORBIDDEN" {
			t.Errorf("reader creates: %s", r.Raw)
		}
		if after := e.Do(ed, "GET", base, nil).JSON()["revision"]; after != before {
			t.Fatalf("refused edits wrote a revision")
		}

		// Created in the space's content, embedded by a page of a change request.
		out := rcEdit(t, e, ed, createRC, map[string]any{"in": map[string]any{"space": space, "title": "Warning", "markdown": "Mind the **gap**.\n"}})
		rc := testenv.Path(out, "reusableContent", "id").(string)
		if out["changed"] != true || testenv.Path(out, "changeRequest") != nil || testenv.Path(out, "reusableContent", "markdown") != "Mind the **gap**.\n" {
			t.Fatalf("create = %v", out)
		}
		cr := newCR(t, e, ed, space, map[string]any{"subject": "Page"})["id"].(string)
		page := createPage(t, e, ed, cr, map[string]any{"title": "Guide", "document": doc(paragraph(text("Before.")), embedBlock(rc))})
		merge(t, e, team.Admin.Token, space, cr)

		rev := e.Do(team.Reader.Token, "GET", base+"/content", nil).JSON()
		list, _ := rev["reusableContents"].([]any)
		if len(list) != 1 || testenv.Path(list[0], "id") != rc || testenv.Path(list[0], "title") != "Warning" || testenv.Path(list[0], "document") == "" {
			t.Fatalf("reusableContents = %v", rev["reusableContents"])
		}
		got := e.Do(team.Reader.Token, "GET", base+"/content/reusable-contents/"+rc, nil)
		if got.Status != 200 || got.JSON()["title"] != "Warning" || got.JSON()["document"] != testenv.Path(list[0], "document") {
			t.Fatalf("read: %d %s", got.Status, got.Body)
		}
		if r := e.Do(team.Reader.Token, "GET", base+"/content/reusable-contents/r0000000000000000000", nil); r.Status != 404 {
			t.Fatalf("missing: %d %s", r.Status, r.Body)
		}
		revID := rev["id"].(string)
		if r := e.Do(team.Reader.Token, "GET", base+"/revisions/"+revID+"/reusable-contents/"+rc, nil); r.Status != 200 || r.JSON()["id"] != rc {
			t.Fatalf("revision read: %d %s", r.Status, r.Body)
		}
		d := e.Do(team.Reader.Token, "GET", base+"/revisions/"+revID+"/reusable-contents/"+rc+"/document", nil)
		if d.Status != 200 || d.JSON()["object"] != "document" || !strings.Contains(string(d.Body), `"gap"`) {
			t.Fatalf("document: %d %s", d.Status, d.Body)
		}
		other := newSpace(t, e, team, "Other")
		if r := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+other+"/revisions/"+revID+"/reusable-contents/"+rc, nil); r.Status != 404 {
			t.Fatalf("revision of another space: %d %s", r.Status, r.Body)
		}
		if r := e.Do(team.Outsider.Token, "GET", base+"/revisions/"+revID+"/reusable-contents/"+rc, nil); r.Status != 404 && r.Status != 403 {
			t.Fatalf("outsider: %d %s", r.Status, r.Body)
		}

		// Search finds the page by the text of what it embeds, and follows
		// a change of the reusable content alone.
		search := func(q string) any {
			t.Helper()
			return testenv.Path(e.Do(team.Reader.Token, "GET", base+"/search?query="+q, nil).JSON(), "items", 0, "id")
		}
		if got := search("gap"); got != page {
			t.Fatalf("search gap = %v", got)
		}

		// Page reads keep the block, or inline the content when dereferenced.
		pagePath := base + "/content/page/" + page
		if r := e.Do(team.Reader.Token, "GET", pagePath, nil); !strings.Contains(string(r.Body), `"reusable-content"`) || strings.Contains(string(r.Body), "gap") {
			t.Fatalf("page without dereferencing: %s", r.Body)
		}
		for _, q := range []string{"?dereferenced=true", "?dereferenced=reusable-contents"} {
			r := e.Do(team.Reader.Token, "GET", pagePath+q, nil)
			if strings.Contains(string(r.Body), `"reusable-content"`) || !strings.Contains(string(r.Body), "gap") {
				t.Fatalf("page %s: %s", q, r.Body)
			}
		}
		if md := e.Do(team.Reader.Token, "GET", pagePath+"?format=markdown&dereferenced=true", nil).JSON()["markdown"]; md != "Before.\n\nMind the **gap**.\n" {
			t.Fatalf("dereferenced markdown = %q", md)
		}
		g := e.GraphQL(team.Reader.Token, `query($s: ID!, $p: ID!, $rc: ID!) { space(id: $s) { content {
			reusableContents { id title }
			reusableContent(id: $rc) { object title markdown }
			page(id: $p) { plain: markdown deref: markdown(dereferenced: true) } } } }`, map[string]any{"s": space, "p": page, "rc": rc})
		if len(g.Errors) > 0 || testenv.Path(g.Data, "space", "content", "page", "deref") != "Before.\n\nMind the **gap**.\n" ||
			strings.Contains(testenv.Path(g.Data, "space", "content", "page", "plain").(string), "gap") ||
			testenv.Path(g.Data, "space", "content", "reusableContent", "object") != "reusable-content" {
			t.Fatalf("GraphQL reads: %s", g.Raw)
		}

		// A change request changes the title while the space changes the
		// document: the merge keeps both. Then both change the document:
		// a conflict, and the space keeps its own.
		cr2 := newCR(t, e, ed, space, map[string]any{"subject": "Title"})["id"].(string)
		out = rcEdit(t, e, ed, updateRC, map[string]any{"in": map[string]any{"changeRequest": cr2, "reusableContent": rc, "title": "Caution"}})
		if testenv.Path(out, "changeRequest", "id") != cr2 || testenv.Path(out, "reusableContent", "title") != "Caution" {
			t.Fatalf("update in change request = %v", out)
		}
		rcEdit(t, e, ed, updateRC, map[string]any{"in": map[string]any{"space": space, "reusableContent": rc, "markdown": "Mind the step.\n"}})
		if m := merge(t, e, team.Admin.Token, space, cr2); m["result"] != "merge" {
			t.Fatalf("merge = %v", m)
		}
		got = e.Do(team.Reader.Token, "GET", base+"/content/reusable-contents/"+rc, nil)
		g = e.GraphQL(team.Reader.Token, `query($s: ID!, $rc: ID!) { space(id: $s) { content { reusableContent(id: $rc) { title markdown } } } }`, map[string]any{"s": space, "rc": rc})
		if got.JSON()["title"] != "Caution" || testenv.Path(g.Data, "space", "content", "reusableContent", "markdown") != "Mind the step.\n" {
			t.Fatalf("merged: %s %s", got.Body, g.Raw)
		}
		if got := search("step"); got != page {
			t.Fatalf("search step = %v", got)
		}
		cr3 := newCR(t, e, ed, space, map[string]any{"subject": "Clash"})["id"].(string)
		rcEdit(t, e, ed, updateRC, map[string]any{"in": map[string]any{"changeRequest": cr3, "reusableContent": rc, "markdown": "Theirs.\n"}})
		rcEdit(t, e, ed, updateRC, map[string]any{"in": map[string]any{"space": space, "reusableContent": rc, "markdown": "Ours.\n"}})
		m := merge(t, e, team.Admin.Token, space, cr3)
		conflicts, _ := m["conflicts"].([]any)
		if m["result"] != "conflicts" || len(conflicts) != 1 || testenv.Path(conflicts[0], "kind") != "reusable-content" ||
			testenv.Path(conflicts[0], "reusableContent") != rc {
			t.Fatalf("conflicting merge = %v", m)
		}
		if md := e.Do(team.Reader.Token, "GET", pagePath+"?format=markdown&dereferenced=true", nil).JSON()["markdown"]; md != "Before.\n\nOurs.\n" {
			t.Fatalf("after the conflict: %q", md)
		}

		// Deleted while the page embeds it: the block stays, as a broken
		// reference.
		out = rcEdit(t, e, ed, deleteRC, map[string]any{"s": space, "id": rc})
		if testenv.Path(out, "reusableContent") != nil || out["changed"] != true {
			t.Fatalf("delete = %v", out)
		}
		if r := e.Do(team.Reader.Token, "GET", pagePath+"?dereferenced=true", nil); !strings.Contains(string(r.Body), `"reusable-content"`) {
			t.Fatalf("dereferenced after delete: %s", r.Body)
		}
		links := e.Do(team.Reader.Token, "GET", pagePath+"/links", nil).JSON()
		items, _ := links["items"].([]any)
		if len(items) != 1 || testenv.Path(items[0], "status") != "broken" || testenv.Path(items[0], "target", "kind") != "reusable-content" {
			t.Fatalf("links after delete = %v", links)
		}
		if r := e.GraphQL(ed, deleteRC, map[string]any{"s": space, "id": rc}); r.Code() != "NOT_FOUND" {
			t.Fatalf("delete again: %s", r.Raw)
		}
	})
}
