package ratelimit_test

import (
	"strings"
	"testing"

	"quire/internal/ratelimit"
	"quire/internal/testing/testenv"
)

// Posting a comment, a reply or a review spends from the content budget,
// through either door; reacting and resolving do not.
func TestCommentsSpendTheContentLimit(t *testing.T) {
	withLimits(t, ratelimit.Config{Limit: 100, ContentLimit: 3}, func(t *testing.T, e *testenv.Env, team *testenv.Team, _ *clock) {
		tok := team.Admin.Token
		sp := newSpace(t, e, team)
		base := "/v1/spaces/" + sp + "/comments"
		r := e.Do(tok, "POST", base, map[string]any{"body": map[string]any{"markdown": "one"}})
		if r.Status != 200 {
			t.Fatalf("REST comment: %d %s", r.Status, r.Body)
		}
		id := r.JSON()["id"].(string)
		g := e.GraphQL(tok, `mutation($c: ID!) { postCommentReply(comment: $c, body: {markdown: "two"}) { id } }`, map[string]any{"c": id})
		if len(g.Errors) > 0 {
			t.Fatalf("GraphQL reply: %s", g.Raw)
		}
		if r := e.Do(tok, "POST", base+"/"+id+"/replies", map[string]any{"body": map[string]any{"markdown": "three"}}); r.Status != 200 {
			t.Fatalf("REST reply: %d %s", r.Status, r.Body)
		}
		r = e.Do(tok, "POST", base, map[string]any{"body": map[string]any{"markdown": "four"}})
		if r.Status != 429 || !strings.Contains(string(r.Body), "Content creation limit") {
			t.Fatalf("fourth post: %d %s", r.Status, r.Body)
		}
		g = e.GraphQL(tok, `mutation($s: ID!) { postComment(input: {space: $s, body: {markdown: "five"}}) { id } }`, map[string]any{"s": sp})
		if g.Status != 429 || g.Code() != "RATE_LIMITED" {
			t.Fatalf("postComment over the limit: %d %s", g.Status, g.Raw)
		}
		if r := e.Do(tok, "PUT", base+"/"+id, map[string]any{"resolved": true, "addedReactions": []string{"👍"}}); r.Status != 200 {
			t.Fatalf("resolving over the content limit: %d %s", r.Status, r.Body)
		}
		if l := e.Do(tok, "GET", base+"?status=all", nil).JSON(); l["count"] != float64(1) {
			t.Fatalf("comments: %v", l)
		}
	})
}
