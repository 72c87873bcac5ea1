package graph_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"quire/internal/testing/testenv"
)

const rcUpdatePage = `mutation($in: UpdatePageInput!) {
  updatePage(input: $in) { changed changeRequest { revision } page { markdown } }
}`

// rcHead reads a change request's current revision.
func rcHead(t *testing.T, e *testenv.Env, token, cr string) string {
	t.Helper()
	d := cxOK(t, e.GraphQL(token, `query($id: ID!) { changeRequest(id: $id) { revision } }`, map[string]any{"id": cr}))
	return cxStr(testenv.Path(d, "changeRequest", "revision"))
}

// rcConflict checks a refusal of an edit made against an old revision.
func rcConflict(t *testing.T, r *testenv.GQLResponse, what string) {
	t.Helper()
	if r.Status != http.StatusOK || r.Code() != "CONFLICT" || r.Errors[0].Extensions["field"] != "revision" {
		t.Fatalf("%s against an old revision: want CONFLICT on revision, got HTTP %d %s", what, r.Status, r.Raw)
	}
}

// Twenty saves of one page from the same revision at once: one is applied,
// the others get CONFLICT and change nothing.
func TestConcurrentPageSaves(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := cxSpace(t, e, team, "Race")
		cr := cxStr(cxNewCR(t, e, team.Editor.Token, space, "Twenty hands")["id"])
		page := cxStr(testenv.Path(cxNewPage(t, e, team.Editor.Token, map[string]any{"changeRequest": cr, "title": "Notes"}), "page", "id"))
		base := rcHead(t, e, team.Editor.Token, cr)
		const n = 20
		out := make([]*testenv.GQLResponse, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				out[i] = e.GraphQL(team.Editor.Token, rcUpdatePage, map[string]any{"in": map[string]any{
					"changeRequest": cr, "revision": base, "page": page, "markdown": fmt.Sprintf("Version %d.\n", i),
				}})
			})
		}
		wg.Wait()
		winner := -1
		for i, r := range out {
			if len(r.Errors) == 0 {
				if winner >= 0 {
					t.Fatalf("saves %d and %d both applied over %s", winner, i, base)
				}
				winner = i
				continue
			}
			rcConflict(t, r, fmt.Sprintf("save %d", i))
		}
		if winner < 0 {
			t.Fatal("no save applied")
		}
		head := rcHead(t, e, team.Editor.Token, cr)
		if head != cxStr(testenv.Path(out[winner].Data, "updatePage", "changeRequest", "revision")) {
			t.Fatalf("head %s is not the winner's revision", head)
		}
		d := cxOK(t, e.GraphQL(team.Editor.Token, `query($id: ID!, $p: ID!) { changeRequest(id: $id) { content { page(id: $p) { markdown } } } }`,
			map[string]any{"id": cr, "p": page}))
		if got := testenv.Path(d, "changeRequest", "content", "page", "markdown"); got != fmt.Sprintf("Version %d.\n", winner) {
			t.Fatalf("page after the race: %q, want the winner's (%d)", got, winner)
		}
	})
}

// Every edit mutation takes the revision it was made against: an old one
// is refused with CONFLICT and writes nothing, the current one applies.
func TestEditMutationsCheckTheirRevision(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		tok := team.Editor.Token
		space := cxSpace(t, e, team, "Checked")
		cr := cxStr(cxNewCR(t, e, tok, space, "Checked edits")["id"])
		stale := rcHead(t, e, tok, cr)
		page := cxStr(testenv.Path(cxNewPage(t, e, tok, map[string]any{"changeRequest": cr, "title": "One"}), "page", "id"))
		up := e.GraphQLUpload(tok, `mutation($in: UploadFileInput!) { uploadFile(input: $in) { file { id } } }`,
			map[string]any{"in": map[string]any{"changeRequest": cr, "file": nil}}, "variables.in.file", "a.txt", []byte("a"))
		file := cxStr(testenv.Path(up.Data, "uploadFile", "file", "id"))
		if file == "" {
			t.Fatalf("upload: %s", up.Raw)
		}

		var two string
		edits := []struct {
			name, query string
			vars        func(rev string) map[string]any
		}{
			{"createPage", `mutation($in: CreatePageInput!) { createPage(input: $in) { changed page { id } } }`,
				func(rev string) map[string]any {
					return map[string]any{"in": map[string]any{"changeRequest": cr, "revision": rev, "title": "Two"}}
				}},
			{"updatePage", rcUpdatePage, func(rev string) map[string]any {
				return map[string]any{"in": map[string]any{"changeRequest": cr, "revision": rev, "page": page, "title": "Uno"}}
			}},
			{"movePage", `mutation($in: MovePageInput!) { movePage(input: $in) { changed } }`, func(rev string) map[string]any {
				return map[string]any{"in": map[string]any{"changeRequest": cr, "revision": rev, "page": page, "position": map[string]any{"after": two}}}
			}},
			{"setVariables", `mutation($cr: ID!, $rev: ID) { setVariables(changeRequest: $cr, variables: {a: 1}, revision: $rev) { changed } }`,
				func(rev string) map[string]any { return map[string]any{"cr": cr, "rev": rev} }},
			{"deleteFile", `mutation($cr: ID!, $f: ID!, $rev: ID) { deleteFile(changeRequest: $cr, file: $f, revision: $rev) { changed } }`,
				func(rev string) map[string]any { return map[string]any{"cr": cr, "f": file, "rev": rev} }},
			{"deletePage", `mutation($cr: ID!, $p: ID!, $rev: ID) { deletePage(changeRequest: $cr, page: $p, revision: $rev) { changed } }`,
				func(rev string) map[string]any { return map[string]any{"cr": cr, "p": page, "rev": rev} }},
		}
		for _, ed := range edits {
			head := rcHead(t, e, tok, cr)
			rcConflict(t, e.GraphQL(tok, ed.query, ed.vars(stale)), ed.name)
			if got := rcHead(t, e, tok, cr); got != head {
				t.Fatalf("%s refused but the change request moved from %s to %s", ed.name, head, got)
			}
			d := cxOK(t, e.GraphQL(tok, ed.query, ed.vars(head)))
			if testenv.Path(d, ed.name, "changed") != true {
				t.Fatalf("%s at the head changed nothing: %v", ed.name, d)
			}
			if ed.name == "createPage" {
				two = cxStr(testenv.Path(d, "createPage", "page", "id"))
			}
			stale = head
		}
		upload := `mutation($in: UploadFileInput!) { uploadFile(input: $in) { file { id } } }`
		in := func(rev string) map[string]any {
			return map[string]any{"in": map[string]any{"changeRequest": cr, "revision": rev, "file": nil}}
		}
		rcConflict(t, e.GraphQLUpload(tok, upload, in(stale), "variables.in.file", "b.txt", []byte("b")), "uploadFile")
		if r := e.GraphQLUpload(tok, upload, in(rcHead(t, e, tok, cr)), "variables.in.file", "b.txt", []byte("b")); len(r.Errors) > 0 {
			t.Fatalf("uploadFile at the head: %s", r.Raw)
		}
	})
}
