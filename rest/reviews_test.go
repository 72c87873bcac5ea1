package rest_test

import (
	"strings"
	"testing"

	"quire/internal/testing/testenv"
	"quire/internal/types"
)

// reviewer adds a member with the review role to the team's organization.
func reviewer(t *testing.T, e *testenv.Env, team *testenv.Team, name string) testenv.Actor {
	t.Helper()
	u, tok := e.User(name + "@acme.test")
	e.Member(team.Org, u, "review")
	return testenv.Actor{User: u, Token: tok}
}

func TestReviewsAndRequestedReviewers(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		rita := reviewer(t, e, team, "rita")
		space := newSpace(t, e, team, "Docs")
		cr := newCR(t, e, team.Editor.Token, space, map[string]any{"subject": "Draft"})
		crID := cr["id"].(string)
		base := "/v1/spaces/" + space + "/change-requests/" + crID

		// Who may be asked.
		wantError(t, e.Do(team.Reader.Token, "POST", base+"/requested-reviewers", map[string]any{"users": []string{rita.User.ID}}), 403, "edit rights")
		wantError(t, e.Do(team.Admin.Token, "POST", base+"/requested-reviewers", map[string]any{"users": []string{team.Editor.User.ID}}), 400, "created the change request")
		wantError(t, e.Do(team.Admin.Token, "POST", base+"/requested-reviewers", map[string]any{"users": []string{rita.User.ID, team.Reader.User.ID}}), 400, "users[1]")
		unknown := e.Do(team.Admin.Token, "POST", base+"/requested-reviewers", map[string]any{"users": []string{"U0000000000000000000"}})
		foreign := e.Do(team.Admin.Token, "POST", base+"/requested-reviewers", map[string]any{"users": []string{team.Outsider.User.ID}})
		if unknown.Status != 400 || foreign.Status != 400 ||
			strings.ReplaceAll(string(unknown.Body), "U0000000000000000000", "<id>") != strings.ReplaceAll(string(foreign.Body), team.Outsider.User.ID, "<id>") {
			t.Fatalf("unknown user %d %s; user of another organization %d %s", unknown.Status, unknown.Body, foreign.Status, foreign.Body)
		}
		wantError(t, e.Do(team.Admin.Token, "POST", base+"/requested-reviewers", map[string]any{"users": []string{}}), 400, "users")

		// Asking, with the subject changed at once.
		r := e.Do(team.Editor.Token, "POST", base+"/requested-reviewers", map[string]any{"users": []string{rita.User.ID, team.Admin.User.ID, rita.User.ID}, "subject": "Ready"})
		if r.Status != 200 {
			t.Fatalf("request: %d %s", r.Status, r.Body)
		}
		users := r.JSON()["users"].([]any)
		if len(users) != 2 || testenv.Path(users, 0, "object") != "change-request-requested-reviewer" || testenv.Path(users, 0, "kind") != "user" ||
			testenv.Path(users, 0, "user", "id") != rita.User.ID || testenv.Path(users, 0, "requestedBy", "id") != team.Editor.User.ID ||
			testenv.Path(users, 0, "revision") != cr["revision"] {
			t.Fatalf("requested: %v", users)
		}
		if got := e.Do(team.Reader.Token, "GET", base, nil).JSON(); got["subject"] != "Ready" {
			t.Fatalf("subject = %v", got["subject"])
		}
		list := e.Do(team.Reader.Token, "GET", base+"/requested-reviewers", nil).JSON()
		if list["count"] != float64(2) || testenv.Path(list, "items", 0, "user", "id") != rita.User.ID {
			t.Fatalf("requested reviewers: %v", list)
		}

		// The requestedReviewer filter, on both lists.
		filtered := func(user string) float64 {
			t.Helper()
			a := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+space+"/change-requests?status=draft&requestedReviewer="+user, nil).JSON()
			b := e.Do(team.Reader.Token, "GET", "/v1/orgs/"+team.Org.ID+"/change-requests?status=draft&requestedReviewer="+user, nil).JSON()
			if a["count"] != b["count"] {
				t.Fatalf("space list %v, organization list %v", a, b)
			}
			return a["count"].(float64)
		}
		if filtered(rita.User.ID) != 1 || filtered(team.Reader.User.ID) != 0 {
			t.Fatalf("requestedReviewer filter")
		}

		// Reviewing.
		wantError(t, e.Do(team.Editor.Token, "POST", base+"/reviews", map[string]any{"status": "approved"}), 403, "review rights")
		wantError(t, e.Do(rita.Token, "POST", base+"/reviews", map[string]any{"status": "maybe"}), 400, "status")
		rv := e.Do(rita.Token, "POST", base+"/reviews", map[string]any{"status": "changes-requested",
			"comment": map[string]any{"markdown": "Please fix the title."}})
		if rv.Status != 201 || rv.Header.Get("Location") != rv.JSON()["urls"].(map[string]any)["location"] {
			t.Fatalf("review: %d %s (Location %q)", rv.Status, rv.Body, rv.Header.Get("Location"))
		}
		first := rv.JSON()
		if first["object"] != "change-request-review" || !strings.HasPrefix(first["id"].(string), "N") || first["status"] != "changes-requested" ||
			first["outdated"] != false || testenv.Path(first, "reviewer", "id") != rita.User.ID || testenv.Path(first, "requestedBy", "id") != team.Editor.User.ID ||
			testenv.Path(first, "comment", "body", "markdown") != "Please fix the title.\n" || testenv.Path(first, "comment", "target", "review") != first["id"] {
			t.Fatalf("review: %v", first)
		}
		// The review answered the request, and its comment is in the
		// change request's discussion.
		if filtered(rita.User.ID) != 0 {
			t.Fatalf("rita is still asked after reviewing")
		}
		if got := e.Do(team.Reader.Token, "GET", base+"/comments", nil).JSON(); got["count"] != float64(1) {
			t.Fatalf("review comment: %v", got)
		}
		if got := e.Do(team.Reader.Token, "GET", base, nil).JSON(); got["comments"] != float64(1) {
			t.Fatalf("comments = %v", got["comments"])
		}
		second := e.Do(rita.Token, "POST", base+"/reviews", map[string]any{"status": "approved"}).JSON()
		if second["requestedBy"] != nil || second["comment"] != nil {
			t.Fatalf("unasked review: %v", second)
		}
		if got := e.Do(team.Reader.Token, "GET", base+"/reviews/"+first["id"].(string)+"?format=document", nil).JSON(); got["outdated"] != true ||
			testenv.Path(got, "comment", "body", "document") == nil {
			t.Fatalf("first review after the second: %v", got)
		}
		all := e.Do(team.Reader.Token, "GET", base+"/reviews", nil).JSON()
		current := e.Do(team.Reader.Token, "GET", base+"/reviews?outdated=false", nil).JSON()
		if all["count"] != float64(2) || testenv.Path(all, "items", 0, "id") != first["id"] || current["count"] != float64(1) ||
			testenv.Path(current, "items", 0, "id") != second["id"] {
			t.Fatalf("reviews %v, current %v", all, current)
		}
		if g := e.Do(team.Reader.Token, "GET", base+"/reviews/N0000000000000000000", nil); g.Status != 404 {
			t.Fatalf("unknown review: %d", g.Status)
		}
		// Asking again makes the reviewer's reviews outdated.
		e.Do(team.Editor.Token, "POST", base+"/requested-reviewers", map[string]any{"users": []string{rita.User.ID}})
		if got := e.Do(team.Reader.Token, "GET", base+"/reviews?outdated=false", nil).JSON(); got["count"] != float64(0) {
			t.Fatalf("current reviews after asking again: %v", got)
		}

		// The author may not approve.
		mine := newCR(t, e, team.Admin.Token, space, map[string]any{"subject": "Mine"})
		wantError(t, e.Do(team.Admin.Token, "POST", "/v1/spaces/"+space+"/change-requests/"+mine["id"].(string)+"/reviews", map[string]any{"status": "approved"}), 403, "cannot approve it yourself")

		// Withdrawing a request: editors, or the user asked.
		wantError(t, e.Do(team.Reader.Token, "DELETE", base+"/requested-reviewers/"+rita.User.ID, nil), 403, "edit rights")
		if d := e.Do(team.Admin.Token, "DELETE", base+"/requested-reviewers/"+team.Admin.User.ID, nil); d.Status != 205 {
			t.Fatalf("withdraw own request: %d %s", d.Status, d.Body)
		}
		if d := e.Do(team.Editor.Token, "DELETE", base+"/requested-reviewers/"+rita.User.ID, nil); d.Status != 205 {
			t.Fatalf("withdraw: %d %s", d.Status, d.Body)
		}
		if d := e.Do(team.Editor.Token, "DELETE", base+"/requested-reviewers/"+rita.User.ID, nil); d.Status != 204 {
			t.Fatalf("withdraw again: %d", d.Status)
		}
		if d := e.Do(team.Outsider.Token, "DELETE", base+"/requested-reviewers/"+rita.User.ID, nil); d.Status != 204 {
			t.Fatalf("outsider withdraws: %d", d.Status)
		}

		// A merged change request takes no more reviews.
		merge(t, e, team.Admin.Token, space, crID)
		wantError(t, e.Do(rita.Token, "POST", base+"/reviews", map[string]any{"status": "approved"}), 400, "merged")
	})
}

func TestReviewMergeRules(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		rita := reviewer(t, e, team, "rita")
		rob := reviewer(t, e, team, "rob")
		space := newSpace(t, e, team, "Docs")
		rules := func(rs ...map[string]any) {
			t.Helper()
			r := e.Do(team.Admin.Token, "PATCH", "/v1/spaces/"+space, map[string]any{"mergeRules": map[string]any{"type": "rules", "rules": rs}})
			if r.Status != 200 {
				t.Fatalf("merge rules: %d %s", r.Status, r.Body)
			}
		}
		newOpen := func(subject string) string {
			cr := newCR(t, e, team.Editor.Token, space, map[string]any{"subject": subject})
			e.Do(team.Editor.Token, "PATCH", "/v1/spaces/"+space+"/change-requests/"+cr["id"].(string), map[string]any{"status": "open"})
			return cr["id"].(string)
		}
		mergeAs := func(tok, cr string) *testenv.Response {
			return e.Do(tok, "POST", "/v1/spaces/"+space+"/change-requests/"+cr+"/merge", nil)
		}
		review := func(who testenv.Actor, cr, status string) {
			t.Helper()
			if r := e.Do(who.Token, "POST", "/v1/spaces/"+space+"/change-requests/"+cr+"/reviews", map[string]any{"status": status}); r.Status != 201 {
				t.Fatalf("review: %d %s", r.Status, r.Body)
			}
		}

		// Specific reviewers: each must approve; the message names who is
		// missing.
		rules(map[string]any{"rule": "require_specific_reviewers", "users": []string{rita.User.ID, rob.User.ID}})
		a := newOpen("A")
		wantError(t, mergeAs(team.Admin.Token, a), 412, "rita ("+rita.User.ID+") and rob ("+rob.User.ID+")")
		review(rita, a, "approved")
		wantError(t, mergeAs(team.Admin.Token, a), 412, "rob ("+rob.User.ID+")")
		review(rob, a, "changes-requested")
		wantError(t, mergeAs(team.Admin.Token, a), 412, "rob")
		review(rob, a, "approved")
		if r := mergeAs(team.Admin.Token, a); r.Status != 200 || r.JSON()["result"] != "merge" {
			t.Fatalf("merge once approved: %d %s", r.Status, r.Body)
		}

		// One of: any one approval.
		rules(map[string]any{"rule": "require_one_of_specific_reviewers", "users": []string{rita.User.ID, rob.User.ID}})
		b := newOpen("B")
		wantError(t, mergeAs(team.Admin.Token, b), 412, "one of rita")
		review(rob, b, "approved")
		if r := mergeAs(team.Admin.Token, b); r.Status != 200 {
			t.Fatalf("merge: %d %s", r.Status, r.Body)
		}

		// At least one review, and all reviews approved.
		rules(map[string]any{"rule": "require_at_least_one_review"}, map[string]any{"rule": "require_all_reviews_approved"})
		c := newOpen("C")
		wantError(t, mergeAs(team.Admin.Token, c), 412, "at least one approving review")
		e.Do(team.Editor.Token, "POST", "/v1/spaces/"+space+"/change-requests/"+c+"/requested-reviewers", map[string]any{"users": []string{rita.User.ID}})
		review(rob, c, "approved")
		wantError(t, mergeAs(team.Admin.Token, c), 412, "rita ("+rita.User.ID+") has yet to review")
		review(rita, c, "changes-requested")
		wantError(t, mergeAs(team.Admin.Token, c), 412, "rita ("+rita.User.ID+") requested changes")
		// An outdated review no longer counts: asking rita again outdates
		// hers, and she approves.
		review(rita, c, "approved")
		if r := mergeAs(team.Admin.Token, c); r.Status != 200 {
			t.Fatalf("merge: %d %s", r.Status, r.Body)
		}

		// Who allow_bypass names merges without the rules.
		rules(map[string]any{"rule": "require_at_least_one_review"}, map[string]any{"rule": "allow_bypass", "users": []string{team.Admin.User.ID}})
		d := newOpen("D")
		wantError(t, mergeAs(rita.Token, d), 412, "at least one")
		if r := mergeAs(team.Admin.Token, d); r.Status != 200 {
			t.Fatalf("bypass: %d %s", r.Status, r.Body)
		}

		// The organization's rules apply to a space that inherits them.
		e.Do(team.Admin.Token, "PATCH", "/v1/spaces/"+space, map[string]any{"mergeRules": map[string]any{"type": "inherit"}})
		if _, err := e.Client().Organization.UpdateOneID(team.Org.ID).SetMergeRules(orgRules(rita.User.ID)).Save(t.Context()); err != nil {
			t.Fatal(err)
		}
		f := newOpen("F")
		wantError(t, mergeAs(team.Admin.Token, f), 412, "rita")
		review(rita, f, "approved")
		if r := mergeAs(team.Admin.Token, f); r.Status != 200 {
			t.Fatalf("merge under the organization's rules: %d %s", r.Status, r.Body)
		}
	})
}

func orgRules(user string) types.MergeRules {
	return types.MergeRules{Type: "rules", Rules: []types.MergeRule{{Rule: "require_specific_reviewers", Users: []string{user}}}}
}
