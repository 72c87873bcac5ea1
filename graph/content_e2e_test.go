package graph_test

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"
	"testing"

	"quire/internal/testing/testenv"
)

// Helpers (prefixed cx: other files of the package have their own)

func cxOK(t *testing.T, r *testenv.GQLResponse) map[string]any {
	t.Helper()
	if r.Status != http.StatusOK || len(r.Errors) > 0 || r.Data == nil {
		t.Fatalf("GraphQL: want data without errors, got HTTP %d %s", r.Status, r.Raw)
	}
	return r.Data
}

func cxCode(t *testing.T, r *testenv.GQLResponse, want string) {
	t.Helper()
	if r.Code() != want {
		t.Fatalf("want error code %s, got HTTP %d %s", want, r.Status, r.Raw)
	}
}

func cxStr(v any) string { s, _ := v.(string); return s }

func cxList(v any) []any { l, _ := v.([]any); return l }

func cxSpace(t *testing.T, e *testenv.Env, team *testenv.Team, title string) string {
	t.Helper()
	r := e.Do(team.Admin.Token, "POST", "/v1/orgs/"+team.Org.ID+"/spaces", map[string]any{"title": title})
	if r.Status != http.StatusCreated {
		t.Fatalf("create space: %d %s", r.Status, r.Body)
	}
	return cxStr(r.JSON()["id"])
}

const cxCreateCR = `mutation($space: ID!, $subject: String) {
  createChangeRequest(input: {space: $space, subject: $subject}) { id number status subject revision revisionInitial outdated createdBy { id } }
}`

func cxNewCR(t *testing.T, e *testenv.Env, token, space, subject string) map[string]any {
	t.Helper()
	return cxOK(t, e.GraphQL(token, cxCreateCR, map[string]any{"space": space, "subject": subject}))["createChangeRequest"].(map[string]any)
}

const cxCreatePage = `mutation($in: CreatePageInput!) {
  createPage(input: $in) { changed revision { id } page { id title slug path markdown } changeRequest { id revision contributors { id } } }
}`

func cxNewPage(t *testing.T, e *testenv.Env, token string, in map[string]any) map[string]any {
	t.Helper()
	return cxOK(t, e.GraphQL(token, cxCreatePage, map[string]any{"in": in}))["createPage"].(map[string]any)
}

func cxMerge(t *testing.T, e *testenv.Env, token, cr string) map[string]any {
	t.Helper()
	return cxOK(t, e.GraphQL(token, `mutation($id: ID!) { mergeChangeRequest(id: $id) { result revision conflicts { kind page message } changeRequest { status revisionMerged } } }`, map[string]any{"id": cr}))["mergeChangeRequest"].(map[string]any)
}

func cxPageTitles(t *testing.T, e *testenv.Env, token, space string) []string {
	t.Helper()
	d := cxOK(t, e.GraphQL(token, `query($id: ID!) { space(id: $id) { content { pages { title pages { title } } } } }`, map[string]any{"id": space}))
	var out []string
	for _, p := range testenv.Path(d, "space", "content", "pages").([]any) {
		out = append(out, cxStr(testenv.Path(p, "title")))
		for _, c := range testenv.Path(p, "pages").([]any) {
			out = append(out, "  "+cxStr(testenv.Path(c, "title")))
		}
	}
	return out
}

// TestContentEditAndMerge builds content through edits in a change request,
// reads it typed and as Markdown, and merges it.
func TestContentEditAndMerge(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := cxSpace(t, e, team, "Handbook")

		cr := cxNewCR(t, e, team.Editor.Token, space, "First pages")
		if cr["number"] != float64(1) || cr["status"] != "draft" || cr["revision"] != cr["revisionInitial"] || testenv.Path(cr, "createdBy", "id") != team.Editor.User.ID {
			t.Fatalf("new change request: %v", cr)
		}
		crID := cxStr(cr["id"])
		intro := cxNewPage(t, e, team.Editor.Token, map[string]any{
			"changeRequest": crID, "title": "Introduction",
			"markdown": "# Welcome\n\nSome **bold** text and a [link](https://example.com).\n",
		})
		introID := cxStr(testenv.Path(intro, "page", "id"))
		if testenv.Path(intro, "page", "slug") != "introduction" || !strings.Contains(cxStr(testenv.Path(intro, "page", "markdown")), "**bold**") {
			t.Fatalf("created page: %v", intro)
		}
		if c := testenv.Path(intro, "changeRequest", "contributors").([]any); len(c) != 1 || testenv.Path(c[0], "id") != team.Editor.User.ID {
			t.Fatalf("contributors: %v", c)
		}
		child := cxNewPage(t, e, team.Editor.Token, map[string]any{
			"changeRequest": crID, "title": "Install", "parent": introID,
			"document": map[string]any{"object": "document", "nodes": []any{
				map[string]any{"object": "block", "type": "paragraph", "nodes": []any{
					map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "See ", "marks": []any{}}}},
					map[string]any{"object": "inline", "type": "link", "data": map[string]any{"ref": map[string]any{"kind": "page", "page": introID}},
						"nodes": []any{map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "intro", "marks": []any{}}}}}},
				}},
			}},
		})
		if testenv.Path(child, "page", "path") != "introduction/install" {
			t.Fatalf("child page: %v", child)
		}

		// The space does not change before the merge.
		if got := cxPageTitles(t, e, team.Reader.Token, space); len(got) != 0 {
			t.Fatalf("space pages before merge: %v", got)
		}

		// The change request's content, typed node by node.
		d := cxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { changeRequest(id: $id) {
		  outdated changes { page kind title }
		  content { pages { id title pages { id title backlinks { page } } document {
		    nodes { __typename ... on DocumentBlock { type nodes { __typename
		      ... on DocumentText { text leaves { text marks { type } } }
		      ... on DocumentInline { type ref nodes { ... on DocumentText { text } } } } } } } }
		    links { stats { total ok broken inApp } items { page status node target } } } } }`, map[string]any{"id": crID}))
		pages := testenv.Path(d, "changeRequest", "content", "pages").([]any)
		if len(pages) != 1 || testenv.Path(pages[0], "title") != "Introduction" {
			t.Fatalf("pages: %v", pages)
		}
		first := testenv.Path(pages[0], "document", "nodes", 0)
		if testenv.Path(first, "__typename") != "DocumentBlock" || testenv.Path(first, "type") != "heading_1" {
			t.Fatalf("first block: %v", first)
		}
		para := testenv.Path(pages[0], "document", "nodes", 1, "nodes")
		var marks []any
		for _, n := range para.([]any) {
			for _, l := range cxList(testenv.Path(n, "leaves")) {
				if testenv.Path(l, "text") == "bold" {
					marks = testenv.Path(l, "marks").([]any)
				}
			}
		}
		if len(marks) != 1 || testenv.Path(marks[0], "type") != "bold" {
			t.Fatalf("bold marks: %v", para)
		}
		if bl := testenv.Path(pages[0], "pages", 0, "backlinks"); bl == nil || len(bl.([]any)) != 0 {
			t.Fatalf("backlinks of the child: %v", bl)
		}
		stats := testenv.Path(d, "changeRequest", "content", "links", "stats")
		if testenv.Path(stats, "total") != float64(2) || testenv.Path(stats, "ok") != float64(2) {
			t.Fatalf("link stats: %v", stats)
		}
		if ch := testenv.Path(d, "changeRequest", "changes").([]any); len(ch) != 2 {
			t.Fatalf("changes: %v", ch)
		}

		// Editors may not merge (merging needs review rights); admins may.
		cxCode(t, e.GraphQL(team.Editor.Token, `mutation($id: ID!) { mergeChangeRequest(id: $id) { result } }`, map[string]any{"id": crID}), "FORBIDDEN")
		m := cxMerge(t, e, team.Admin.Token, crID)
		if m["result"] != "merge" || testenv.Path(m, "changeRequest", "status") != "merged" || testenv.Path(m, "changeRequest", "revisionMerged") != m["revision"] {
			t.Fatalf("merge: %v", m)
		}
		got := cxPageTitles(t, e, team.Reader.Token, space)
		if strings.Join(got, "|") != "Introduction|  Install" {
			t.Fatalf("space pages after merge: %v", got)
		}
		// A page by path, as Markdown, in the space's content.
		d = cxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { space(id: $id) { revision content { id type page(path: "introduction/install") { markdown type layout { width outline } urls { app } } } } }`, map[string]any{"id": space}))
		if testenv.Path(d, "space", "revision") != testenv.Path(d, "space", "content", "id") || testenv.Path(d, "space", "content", "type") != "merge" {
			t.Fatalf("space content: %v", d)
		}
		if md := cxStr(testenv.Path(d, "space", "content", "page", "markdown")); !strings.Contains(md, "[intro](") {
			t.Fatalf("markdown: %q", md)
		}
		// A merged change request takes no more edits.
		r := e.GraphQL(team.Editor.Token, cxCreatePage, map[string]any{"in": map[string]any{"changeRequest": crID, "title": "Late"}})
		cxCode(t, r, "BAD_REQUEST")
	})
}

// TestContentPermissions checks who may read and write content.
func TestContentPermissions(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := cxSpace(t, e, team, "Private notes")
		cr := cxStr(cxNewCR(t, e, team.Admin.Token, space, "Draft")["id"])
		cxNewPage(t, e, team.Admin.Token, map[string]any{"changeRequest": cr, "title": "One"})

		read := `query($id: ID!) { changeRequest(id: $id) { content { pages { title } } } }`
		cxOK(t, e.GraphQL(team.Reader.Token, read, map[string]any{"id": cr}))
		cxCode(t, e.GraphQL(team.Outsider.Token, read, map[string]any{"id": cr}), "NOT_FOUND")
		if r := e.GraphQL("", read, map[string]any{"id": cr}); r.Status != http.StatusUnauthorized {
			t.Fatalf("anonymous read: %d %s", r.Status, r.Raw)
		}
		write := map[string]any{"in": map[string]any{"changeRequest": cr, "title": "Two"}}
		cxCode(t, e.GraphQL(team.Reader.Token, cxCreatePage, write), "FORBIDDEN")
		cxCode(t, e.GraphQL(team.Outsider.Token, cxCreatePage, write), "NOT_FOUND")
		cxOK(t, e.GraphQL(team.Editor.Token, cxCreatePage, write))
		cxCode(t, e.GraphQL(team.Reader.Token, cxCreateCR, map[string]any{"space": space}), "FORBIDDEN")
		cxCode(t, e.GraphQL(team.Outsider.Token, cxCreateCR, map[string]any{"space": space}), "NOT_FOUND")
		cxCode(t, e.GraphQL(team.Outsider.Token, `query($id: ID!) { space(id: $id) { content { id } } }`, map[string]any{"id": space}), "NOT_FOUND")
		// Bad input names the field.
		r := e.GraphQL(team.Editor.Token, cxCreatePage, map[string]any{"in": map[string]any{"changeRequest": cr, "title": "Bad", "document": map[string]any{"object": "nope"}}})
		cxCode(t, r, "BAD_REQUEST")
		if f, _ := r.Errors[0].Extensions["field"].(string); !strings.HasPrefix(f, "document") {
			t.Fatalf("field of a bad document: %s", r.Raw)
		}
		r = e.GraphQL(team.Editor.Token, cxCreatePage, map[string]any{"in": map[string]any{"changeRequest": cr, "title": "Both", "markdown": "x", "document": map[string]any{"object": "document", "nodes": []any{}}}})
		cxCode(t, r, "BAD_REQUEST")
	})
}

// TestContentConflicts merges two change requests that edit the same page.
func TestContentConflicts(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := cxSpace(t, e, team, "Guide")
		base := cxStr(cxNewCR(t, e, team.Admin.Token, space, "Base")["id"])
		page := cxStr(testenv.Path(cxNewPage(t, e, team.Admin.Token, map[string]any{"changeRequest": base, "title": "Page", "markdown": "one\n"}), "page", "id"))
		cxMerge(t, e, team.Admin.Token, base)

		update := `mutation($in: UpdatePageInput!) { updatePage(input: $in) { changed page { title } } }`
		a := cxStr(cxNewCR(t, e, team.Editor.Token, space, "A")["id"])
		b := cxStr(cxNewCR(t, e, team.Editor.Token, space, "B")["id"])
		cxOK(t, e.GraphQL(team.Editor.Token, update, map[string]any{"in": map[string]any{"changeRequest": a, "page": page, "markdown": "two from a\n"}}))
		cxOK(t, e.GraphQL(team.Editor.Token, update, map[string]any{"in": map[string]any{"changeRequest": b, "page": page, "markdown": "two from b\n"}}))
		if m := cxMerge(t, e, team.Admin.Token, a); m["result"] != "merge" {
			t.Fatalf("merge a: %v", m)
		}
		before := cxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { space(id: $id) { revision } }`, map[string]any{"id": space}))
		m := cxMerge(t, e, team.Admin.Token, b)
		if m["result"] != "conflicts" || m["revision"] != nil || len(m["conflicts"].([]any)) != 1 || testenv.Path(m, "conflicts", 0, "page") != page {
			t.Fatalf("merge b: %v", m)
		}
		after := cxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { space(id: $id) { revision content { page(id: "`+page+`") { markdown } } } }`, map[string]any{"id": space}))
		if testenv.Path(after, "space", "revision") != testenv.Path(before, "space", "revision") || !strings.Contains(cxStr(testenv.Path(after, "space", "content", "page", "markdown")), "from a") {
			t.Fatalf("space after a refused merge: %v", after)
		}
		d := cxOK(t, e.GraphQL(team.Editor.Token, `mutation($id: ID!) { updateChangeRequest(id: $id) { result conflicts { page } changeRequest { outdated } } }`, map[string]any{"id": b}))
		if testenv.Path(d, "updateChangeRequest", "result") != "conflicts" || testenv.Path(d, "updateChangeRequest", "changeRequest", "outdated") != true {
			t.Fatalf("update b: %v", d)
		}
		// A change request that edits another page updates cleanly.
		c := cxStr(cxNewCR(t, e, team.Editor.Token, space, "C")["id"])
		cxNewPage(t, e, team.Editor.Token, map[string]any{"changeRequest": c, "title": "Other"})
		cxCode(t, e.GraphQL(team.Admin.Token, `mutation($id: ID!) { mergeChangeRequest(id: $id) { result } }`, map[string]any{"id": "Q0000000000000000000"}), "NOT_FOUND")
		if m := cxMerge(t, e, team.Admin.Token, c); m["result"] != "merge" {
			t.Fatalf("merge c: %v", m)
		}
	})
}

// TestContentUploadAndPDF uploads a file with a multipart request, downloads
// it through its signed link, and fetches a change request's PDF.
func TestContentUploadAndPDF(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := cxSpace(t, e, team, "Files")
		cr := cxStr(cxNewCR(t, e, team.Editor.Token, space, "Upload")["id"])
		cxNewPage(t, e, team.Editor.Token, map[string]any{"changeRequest": cr, "title": "Notes", "markdown": "Hello PDF\n"})

		payload := []byte("name,value\nalpha,1\n")
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		ops, _ := json.Marshal(map[string]any{
			"query":     `mutation($in: UploadFileInput!) { uploadFile(input: $in) { file { id name contentType size downloadURL } } }`,
			"variables": map[string]any{"in": map[string]any{"changeRequest": cr, "file": nil}},
		})
		w.WriteField("operations", string(ops))
		w.WriteField("map", `{"0": ["variables.in.file"]}`)
		fw, _ := w.CreateFormFile("0", "data.csv")
		fw.Write(payload)
		w.Close()
		req, _ := http.NewRequest("POST", e.URL+"/graphql", &body)
		req.Header.Set("Content-Type", w.FormDataContentType())
		req.Header.Set("Authorization", "Bearer "+team.Editor.Token)
		resp, err := e.HTTP.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var out struct {
			Data   map[string]any
			Errors []any
		}
		if err := json.Unmarshal(raw, &out); err != nil || len(out.Errors) > 0 {
			t.Fatalf("upload: %d %s", resp.StatusCode, raw)
		}
		file := testenv.Path(out.Data, "uploadFile", "file")
		if testenv.Path(file, "name") != "data.csv" || testenv.Path(file, "size") != float64(len(payload)) {
			t.Fatalf("uploaded file: %v", file)
		}
		get := func(u string) (int, http.Header, []byte) {
			resp, err := e.HTTP.Client().Get(u)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, resp.Header, b
		}
		st, _, got := get(cxStr(testenv.Path(file, "downloadURL")))
		if st != http.StatusOK || !bytes.Equal(got, payload) {
			t.Fatalf("download: %d %q", st, got)
		}
		if st, _, _ := get(cxStr(testenv.Path(file, "downloadURL")) + "x"); st != http.StatusForbidden {
			t.Fatalf("tampered link: %d", st)
		}

		d := cxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { changeRequest(id: $id) { pdf } }`, map[string]any{"id": cr}))
		st, h, pdf := get(cxStr(testenv.Path(d, "changeRequest", "pdf")))
		if st != http.StatusOK || h.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
			t.Fatalf("pdf: %d %s %q", st, h.Get("Content-Type"), pdf[:min(len(pdf), 20)])
		}
		cxCode(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { changeRequest(id: $id) { pdf(page: "P0000000000000000000") } }`, map[string]any{"id": cr}), "NOT_FOUND")

		// Deleting the file answers the content without it, and no file.
		d = cxOK(t, e.GraphQL(team.Editor.Token, `mutation($cr: ID!, $f: ID!) { deleteFile(changeRequest: $cr, file: $f) { changed file { id } revision { files { id } } } }`,
			map[string]any{"cr": cr, "f": cxStr(testenv.Path(file, "id"))}))
		if del := testenv.Path(d, "deleteFile"); testenv.Path(del, "changed") != true || testenv.Path(del, "file") != nil ||
			len(cxList(testenv.Path(del, "revision", "files"))) != 0 {
			t.Errorf("deleteFile = %v", del)
		}
	})
}

// TestChangeRequestNumbersUnderConcurrency creates change requests at once.
func TestChangeRequestNumbersUnderConcurrency(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := cxSpace(t, e, team, "Busy")
		const n = 20
		var wg sync.WaitGroup
		numbers := make(chan float64, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := e.GraphQL(team.Editor.Token, cxCreateCR, map[string]any{"space": space})
				if len(r.Errors) == 0 && r.Data != nil {
					numbers <- testenv.Path(r.Data, "createChangeRequest", "number").(float64)
				}
			}()
		}
		wg.Wait()
		close(numbers)
		seen := map[float64]bool{}
		for v := range numbers {
			seen[v] = true
		}
		for i := 1; i <= n; i++ {
			if !seen[float64(i)] {
				t.Fatalf("numbers %v: %d missing", seen, i)
			}
		}
		d := cxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { space(id: $id) { changeRequests changeRequestsDraft changeRequestList(status: [draft], first: 5) { totalCount nodes { number } } } }`, map[string]any{"id": space}))
		if testenv.Path(d, "space", "changeRequests") != float64(n) || testenv.Path(d, "space", "changeRequestsDraft") != float64(n) || testenv.Path(d, "space", "changeRequestList", "totalCount") != float64(n) {
			t.Fatalf("counters: %v", d)
		}
	})
}

// TestContentNodes resolves revisions and change requests by global id.
func TestContentNodes(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := cxSpace(t, e, team, "Nodes")
		cr := cxNewCR(t, e, team.Editor.Token, space, "Node me")
		q := `query($a: ID!, $b: ID!) { a: node(id: $a) { __typename id } b: node(id: $b) { __typename ... on Revision { space { id } } } }`
		vars := map[string]any{"a": cr["id"], "b": cr["revision"]}
		d := cxOK(t, e.GraphQL(team.Reader.Token, q, vars))
		if testenv.Path(d, "a", "__typename") != "ChangeRequest" || testenv.Path(d, "b", "space", "id") != space {
			t.Fatalf("nodes: %v", d)
		}
		cxCode(t, e.GraphQL(team.Outsider.Token, q, vars), "NOT_FOUND")
	})
}

// TestContentStatementsDoNotGrow reads a page tree with every page's
// Markdown, and a change request list with creators and contributors: the
// number of SQL statements does not depend on how many there are.
func TestContentStatementsDoNotGrow(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		build := func(title string, pages int) string {
			space := cxSpace(t, e, team, title)
			for i := 0; i < pages; i++ {
				cr := cxStr(cxNewCR(t, e, team.Editor.Token, space, title)["id"])
				cxNewPage(t, e, team.Editor.Token, map[string]any{"changeRequest": cr, "title": title + " page", "markdown": "Text of a page.\n"})
				if i%2 == 0 {
					cxMerge(t, e, team.Admin.Token, cr)
				}
			}
			return space
		}
		q := `query($id: ID!) { space(id: $id) {
		  content { pages { title markdown document { nodes { __typename } } links { stats { total } } backlinks { page } pages { title backlinks { page } } } }
		  changeRequestList(status: [open, draft, merged]) { nodes { number createdBy { id } contributors { id } outdated } } } }`
		count := func(space string) int64 {
			best := int64(-1)
			for i := 0; i < 8; i++ {
				before := e.Statements()
				cxOK(t, e.GraphQL(team.Reader.Token, q, map[string]any{"id": space}))
				n := e.Statements() - before
				if best < 0 || n < best {
					best = n
				}
			}
			return best
		}
		small, large := count(build("Small", 2)), count(build("Large", 8))
		if small != large {
			t.Fatalf("statements: %d for 2 change requests and pages, %d for 8", small, large)
		}
	})
}

// TestMergeRules refuses merges that the space's rules forbid.
func TestMergeRules(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := cxSpace(t, e, team, "Ruled")
		r := e.Do(team.Admin.Token, "PATCH", "/v1/spaces/"+space, map[string]any{"mergeRules": map[string]any{"type": "rules", "rules": []any{
			map[string]any{"rule": "require_change_request_description"},
		}}})
		if r.Status != http.StatusOK {
			t.Fatalf("set merge rules: %d %s", r.Status, r.Body)
		}
		cr := cxStr(cxNewCR(t, e, team.Editor.Token, space, "No description")["id"])
		merge := `mutation($id: ID!) { mergeChangeRequest(id: $id) { result } }`
		cxCode(t, e.GraphQL(team.Admin.Token, merge, map[string]any{"id": cr}), "PRECONDITION_FAILED")
		cxOK(t, e.GraphQL(team.Editor.Token, `mutation($id: ID!) { patchChangeRequest(id: $id, input: {descriptionMarkdown: "Why: because."}) { description { nodes { __typename } } } }`, map[string]any{"id": cr}))
		d := cxOK(t, e.GraphQL(team.Admin.Token, merge, map[string]any{"id": cr}))
		if testenv.Path(d, "mergeChangeRequest", "result") != "merge" {
			t.Fatalf("merge with a description: %v", d)
		}
	})
}

// TestCreateChangeRequestWithTemplate starts a change request from a
// built-in template; a bad template creates nothing and names its field.
func TestCreateChangeRequestWithTemplate(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := cxSpace(t, e, team, "Templated")
		q := `mutation($in: CreateChangeRequestInput!) { createChangeRequest(input: $in) { number content { pages { title } } } }`
		d := cxOK(t, e.GraphQL(team.Editor.Token, q, map[string]any{"in": map[string]any{"space": space, "template": map[string]any{"id": "changelog"}}}))
		if len(cxList(testenv.Path(d, "createChangeRequest", "content", "pages"))) == 0 {
			t.Fatalf("no pages from the template: %v", d)
		}
		r := e.GraphQL(team.Editor.Token, q, map[string]any{"in": map[string]any{"space": space, "template": map[string]any{"id": "nope"}}})
		cxCode(t, r, "BAD_REQUEST")
		if f, _ := r.Errors[0].Extensions["field"].(string); f != "template.id" {
			t.Fatalf("field: %s", r.Raw)
		}
		d = cxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { space(id: $id) { changeRequests } }`, map[string]any{"id": space}))
		if testenv.Path(d, "space", "changeRequests") != float64(1) {
			t.Fatalf("change requests after a refused template: %v", d)
		}
	})
}
