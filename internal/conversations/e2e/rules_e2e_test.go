package e2e_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"quire/internal/testing/testenv"
)

func conv(id, body string) map[string]any {
	return map[string]any{"id": id, "subject": "Help", "parts": []any{map[string]any{"type": "message", "role": "user", "body": body}}}
}

// TestIngestionRules: idempotent on id, re-analysed when changed, bounded
// and validated, admins only; reads need a role; another organization's
// objects are unknown; muting needs edit, and a muted cluster cannot be
// addressed by a change request.
func TestIngestionRules(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		org, admin := team.Org.ID, team.Admin.Token
		base := "/v1/orgs/" + org
		e.StartJobs()

		one := conv("c-1", "Exporting to PDF fails with a blank page every time.")
		if r := e.Do(admin, "POST", base+"/conversations", one); r.Status != 204 || len(r.Body) != 0 {
			t.Fatalf("ingest one: %d %s", r.Status, r.Body)
		}
		if r := e.Do(admin, "POST", base+"/conversations", []any{one}); r.Status != 204 {
			t.Fatalf("ingest again: %d %s", r.Status, r.Body)
		}
		analysed(t, e, org)
		list := e.Do(team.Reader.Token, "GET", base+"/conversations", nil).JSON()
		if list["count"].(float64) != 1 {
			t.Fatalf("ingesting one id twice gave %v conversations", list["count"])
		}
		c := list["items"].([]any)[0].(map[string]any)
		if c["processedAt"] == nil || c["impact"] != "high" || !strings.HasPrefix(c["source"].(string), "integration:api:") {
			t.Errorf("conversation %v", c)
		}
		full := e.Do(team.Reader.Token, "GET", base+"/conversations/"+c["id"].(string), nil).JSON()
		if testenv.Path(full, "parts", 0, "body") != "Exporting to PDF fails with a blank page every time." ||
			testenv.Path(full, "conversation", "id") != c["id"] || full["metadata"] == nil {
			t.Errorf("conversation read: %v", full)
		}
		issues := e.Do(team.Reader.Token, "GET", base+"/conversations-issues?conversation="+c["id"].(string), nil).JSON()
		is := testenv.Path(issues, "items", 0, "issue").(map[string]any)
		if is["title"] != "Help" || is["impact"] != "high" || is["cluster"] == nil {
			t.Errorf("issue %v", is)
		}
		cluster := is["cluster"].(string)

		// A changed conversation is analysed again: its issues are new.
		changed := conv("c-1", "It would be nice to have a dark mode.")
		e.Do(admin, "POST", base+"/conversations", changed)
		analysed(t, e, org)
		issues = e.Do(team.Reader.Token, "GET", base+"/conversations-issues", nil).JSON()
		if issues["count"].(float64) != 1 || testenv.Path(issues, "items", 0, "issue", "impact") != "low" {
			t.Errorf("after the change: %v", issues)
		}
		if r := e.Do(team.Reader.Token, "GET", base+"/conversations-clusters/"+cluster, nil); r.Status != 404 {
			t.Errorf("a cluster left without issues: %d", r.Status)
		}

		// Limits and shapes.
		many := make([]any, 101)
		for i := range many {
			many[i] = conv("m", "x")
		}
		for _, tc := range []struct {
			body any
			want string
		}{
			{many, "at most 100"},
			{[]any{conv("a", "x"), conv("a", "y")}, "also the id"},
			{map[string]any{"id": "", "parts": []any{}}, "id"},
			{map[string]any{"id": "x", "parts": []any{map[string]any{"type": "message", "role": "bot", "body": "x"}}}, "role"},
			{map[string]any{"id": "x", "parts": []any{map[string]any{"type": "message", "role": "user", "body": strings.Repeat("x", 20001)}}}, "20000"},
			{map[string]any{"id": "x", "parts": []any{}, "metadata": map[string]any{"url": "javascript:alert(1)"}}, "url"},
			{map[string]any{"id": "x", "parts": []any{}, "source": "slack"}, "source"},
			{"42", "conversation"},
		} {
			r := e.Do(admin, "POST", base+"/conversations", tc.body)
			if r.Status != 400 || !strings.Contains(string(r.Body), tc.want) {
				t.Errorf("%.60v: %d %s", tc.body, r.Status, r.Body)
			}
		}
		g := e.GraphQL(admin, `mutation($o: ID!, $c: [ConversationInput!]!) { ingestConversation(organization: $o, conversations: $c) { conversations { id externalId } } }`,
			map[string]any{"o": org, "c": []any{map[string]any{"id": "g-1", "parts": []any{map[string]any{"role": "team_member", "body": "Hello"}},
				"metadata": map[string]any{"attributes": map[string]any{"plan": 3}}}}})
		if g.Code() != "BAD_REQUEST" || g.Errors[0].Extensions["field"] != "conversations[0].metadata.attributes" {
			t.Errorf("GraphQL attributes of numbers: %s", g.Raw)
		}

		// Who may do what.
		if r := e.Do(team.Editor.Token, "POST", base+"/conversations", one); r.Status != 403 {
			t.Errorf("an editor ingested: %d", r.Status)
		}
		if r := e.Do(team.Outsider.Token, "POST", base+"/conversations", one); r.Status != 404 {
			t.Errorf("an outsider ingested: %d", r.Status)
		}
		if r := e.Do(team.Outsider.Token, "GET", base+"/conversations/"+c["id"].(string), nil); r.Status != 404 {
			t.Errorf("an outsider read a conversation: %d", r.Status)
		}
		other := "/v1/orgs/" + team.Other.ID
		if r := e.Do(team.Outsider.Token, "GET", other+"/conversations/"+c["id"].(string), nil); r.Status != 404 {
			t.Errorf("a conversation read through another organization: %d", r.Status)
		}
		clusters := e.Do(team.Reader.Token, "GET", base+"/conversations-clusters", nil).JSON()
		cl := testenv.Path(clusters, "items", 0, "id").(string)
		if r := e.Do(team.Reader.Token, "PATCH", base+"/conversations-clusters/"+cl, map[string]any{"muted": true}); r.Status != 403 {
			t.Errorf("a reader muted: %d", r.Status)
		}

		// Change requests addressing the cluster.
		sp := e.Do(admin, "POST", base+"/spaces", map[string]any{"title": "Docs"}).JSON()["id"].(string)
		cr := e.Do(team.Editor.Token, "POST", "/v1/spaces/"+sp+"/change-requests", map[string]any{"subject": "Dark mode", "conversationsIssuesCluster": cl})
		if cr.Status != 201 || cr.JSON()["conversationsIssuesCluster"] != cl {
			t.Fatalf("change request addressing a cluster: %d %s", cr.Status, cr.Body)
		}
		f := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+sp+"/change-requests?status=draft&conversationsIssuesCluster="+cl, nil).JSON()
		fo := e.Do(team.Reader.Token, "GET", base+"/change-requests?status=draft&conversationsIssuesCluster="+cl, nil).JSON()
		none := e.Do(team.Reader.Token, "GET", base+"/change-requests?status=draft&conversationsIssuesCluster=eNone", nil).JSON()
		if f["count"].(float64) != 1 || fo["count"].(float64) != 1 || none["count"].(float64) != 0 {
			t.Errorf("filtered lists: %v %v %v", f["count"], fo["count"], none["count"])
		}
		d := e.GraphQL(team.Reader.Token, `query($id: ID!) { changeRequest(id: $id) { conversationsIssuesCluster { id muted } } }`,
			map[string]any{"id": cr.JSON()["id"]})
		if testenv.Path(d.Data, "changeRequest", "conversationsIssuesCluster", "id") != cl {
			t.Errorf("GraphQL: %s", d.Raw)
		}
		if r := e.Do(team.Editor.Token, "PATCH", base+"/conversations-clusters/"+cl, map[string]any{"muted": true}); r.Status != 200 || r.JSON()["muted"] != true {
			t.Fatalf("mute: %d %s", r.Status, r.Body)
		}
		if r := e.Do(team.Editor.Token, "POST", "/v1/spaces/"+sp+"/change-requests", map[string]any{"conversationsIssuesCluster": cl}); r.Status != 400 || !strings.Contains(string(r.Body), "muted") {
			t.Errorf("a change request addressed a muted cluster: %d %s", r.Status, r.Body)
		}
		// Another organization's cluster is like none.
		outsiderSpace := e.Do(team.Outsider.Token, "POST", other+"/spaces", map[string]any{"title": "X"}).JSON()["id"].(string)
		r := e.Do(team.Outsider.Token, "POST", "/v1/spaces/"+outsiderSpace+"/change-requests", map[string]any{"conversationsIssuesCluster": cl})
		r2 := e.Do(team.Outsider.Token, "POST", "/v1/spaces/"+outsiderSpace+"/change-requests", map[string]any{"conversationsIssuesCluster": "eAAAAAAAAAAAAAAAAAAA"})
		if r.Status != 400 || r2.Status != 400 || strings.ReplaceAll(string(r.Body), cl, "X") != strings.ReplaceAll(string(r2.Body), "eAAAAAAAAAAAAAAAAAAA", "X") {
			t.Errorf("another organization's cluster: %d %s / %d %s", r.Status, r.Body, r2.Status, r2.Body)
		}
	})
}

// TestListStatements: the lists of conversations, issues (with their
// conversations) and clusters cost the same statements for 2 items as
// for 20, through REST and GraphQL (nested issues, clusters,
// conversations).
func TestListStatements(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		// Both organizations are analysed first, then the runner stops: a
		// running queue's own statements (polling, completing jobs) would
		// count in the measurements.
		runner := e.StartJobs()
		seed := func(n int) func() []int64 {
			org := e.Org(fmt.Sprint("Org ", n))
			au, atok := e.User(fmt.Sprintf("admin%d@acme.test", n))
			ru, rtok := e.User(fmt.Sprintf("reader%d@acme.test", n))
			e.Member(org, au, "admin")
			e.Member(org, ru, "read")
			tm := struct {
				Org           struct{ ID string }
				Admin, Reader struct{ Token string }
			}{}
			tm.Org.ID, tm.Admin.Token, tm.Reader.Token = org.ID, atok, rtok
			var batch []any
			for i := 0; i < n; i++ {
				batch = append(batch, conv(strings.Repeat("x", i+1), []string{
					"Exporting to PDF fails with a blank page.", "Search returns no results at all.",
					"SSO login loops forever.", "The invoice has the wrong VAT."}[i%4]))
			}
			e.Do(tm.Admin.Token, "POST", "/v1/orgs/"+tm.Org.ID+"/conversations", batch)
			analysedOnce(t, e, tm.Org.ID)
			return func() []int64 {
				var out []int64
				for _, path := range []string{"/conversations", "/conversations-issues", "/conversations-clusters"} {
					before := e.Statements()
					r := e.Do(tm.Reader.Token, "GET", "/v1/orgs/"+tm.Org.ID+path, nil)
					if r.Status != 200 {
						t.Fatalf("%s: %d %s", path, r.Status, r.Body)
					}
					out = append(out, e.Statements()-before)
				}
				for _, q := range []string{
					`query($o: ID!) { organization(id: $o) { conversations { nodes { id issues { id cluster { id label } conversation { id } } } } } }`,
					`query($o: ID!) { organization(id: $o) { conversationsIssues { nodes { id conversation { id } cluster { id } } } } }`,
					`query($o: ID!) { organization(id: $o) { conversationsIssuesClusters { nodes { id label stats { issues } } } } }`,
				} {
					before := e.Statements()
					g := e.GraphQL(tm.Reader.Token, q, map[string]any{"o": tm.Org.ID})
					if g.Code() != "" {
						t.Fatalf("graphql: %s", g.Raw)
					}
					out = append(out, e.Statements()-before)
				}
				return out
			}
		}
		measureSmall, measureBig := seed(2), seed(20)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := runner.Stop(ctx); err != nil {
			t.Fatalf("stop jobs: %v", err)
		}
		// The least of interleaved runs: the count is of the whole
		// process, where a statement of other work (a sweep) may land
		// inside one measurement.
		small, big := measureSmall(), measureBig()
		for range 2 {
			s2, b2 := measureSmall(), measureBig()
			for i := range small {
				small[i], big[i] = min(small[i], s2[i]), min(big[i], b2[i])
			}
		}
		for i := range small {
			if small[i] != big[i] {
				t.Errorf("statements of list %d: %d for 2 items, %d for 20", i, small[i], big[i])
			}
		}
	})
}

// analysedOnce waits for the analysis of an organization's conversations.
func analysedOnce(t *testing.T, e *testenv.Env, org string) { analysed(t, e, org) }
