package graph_test

import (
	"net/http"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// dlQuotes is a document of n nested blockquotes around a paragraph, as
// decoded JSON.
func dlQuotes(n int) map[string]any {
	b := map[string]any{"object": "block", "type": "paragraph", "nodes": []any{
		map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "x"}}}}}
	for range n {
		b = map[string]any{"object": "block", "type": "blockquote", "nodes": []any{b}}
	}
	return map[string]any{"object": "document", "nodes": []any{b}}
}

// dlLimit checks a GraphQL error: BAD_REQUEST on field, its message naming
// the limit.
func dlLimit(t *testing.T, r *testenv.GQLResponse, field, limit string) {
	t.Helper()
	cxCode(t, r, "BAD_REQUEST")
	e := r.Errors[0]
	if got, _ := e.Extensions["field"].(string); got != field || !strings.Contains(e.Message, limit) {
		t.Fatalf("want BAD_REQUEST on %q naming %q, got %s", field, limit, r.Raw)
	}
}

// TestDocumentLimits: content beyond the document limits is refused
// through both doors with a BadRequest on the field that carried it.
func TestDocumentLimits(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := cxSpace(t, e, team, "Limits")
		cr := cxStr(cxNewCR(t, e, team.Editor.Token, space, "Limits")["id"])
		deep := "nesting deeper than 32 levels (the limit)"

		r := e.GraphQL(team.Editor.Token, cxCreatePage, map[string]any{"in": map[string]any{
			"changeRequest": cr, "title": "Quotes", "markdown": strings.Repeat(">", 10_000) + " x"}})
		dlLimit(t, r, "markdown", deep)

		r = e.GraphQL(team.Editor.Token, cxCreatePage, map[string]any{"in": map[string]any{
			"changeRequest": cr, "title": "Brackets", "markdown": strings.Repeat("[", 100_000)}})
		dlLimit(t, r, "markdown", "more than 1,000 emphasis, code and link delimiters in one paragraph (the limit)")

		r = e.GraphQL(team.Editor.Token, cxCreatePage, map[string]any{"in": map[string]any{
			"changeRequest": cr, "title": "Deep", "document": dlQuotes(100)}})
		dlLimit(t, r, "document", "JSON nested deeper than 96 levels (the limit")

		r = e.GraphQL(team.Editor.Token, cxCreatePage, map[string]any{"in": map[string]any{
			"changeRequest": cr, "title": "Deep", "document": dlQuotes(31)}})
		dlLimit(t, r, "document"+strings.Repeat(".nodes[0]", 33), deep)

		const create = `mutation($in: CreateChangeRequestInput!) { createChangeRequest(input: $in) { id } }`
		r = e.GraphQL(team.Editor.Token, create, map[string]any{"in": map[string]any{
			"space": space, "subject": "Deep", "description": dlQuotes(31)}})
		dlLimit(t, r, "description"+strings.Repeat(".nodes[0]", 33), deep)

		const patch = `mutation($id: ID!, $in: PatchChangeRequestInput!) { patchChangeRequest(id: $id, input: $in) { id } }`
		r = e.GraphQL(team.Editor.Token, patch, map[string]any{"id": cr, "in": map[string]any{
			"descriptionMarkdown": strings.Repeat("- ", 10_000) + "x"}})
		dlLimit(t, r, "descriptionMarkdown", deep)
		if msg := r.Errors[0].Message; !strings.HasPrefix(msg, "descriptionMarkdown: ") {
			t.Errorf("descriptionMarkdown error %q does not start with its field", msg)
		}

		// REST: 400 with the message.
		resp := e.Do(team.Editor.Token, "PATCH", "/v1/spaces/"+space+"/change-requests/"+cr, map[string]any{"description": dlQuotes(31)})
		if resp.Status != http.StatusBadRequest {
			t.Fatalf("PATCH description: %d %s", resp.Status, resp.Body)
		}
		if msg := cxStr(testenv.Path(resp.JSON(), "error", "message")); !strings.HasPrefix(msg, "description.nodes[0]") || !strings.Contains(msg, deep) ||
			testenv.Path(resp.JSON(), "error", "code") != float64(400) {
			t.Fatalf("PATCH description: %s", resp.Body)
		}
	})
}
