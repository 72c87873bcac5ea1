package e2e_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"quire/internal/conversations"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

// ingest posts conversations of the corpus in batches of 100 as tok.
func ingest(t *testing.T, e *testenv.Env, tok, org string, convs []CorpusConversation) {
	t.Helper()
	for start := 0; start < len(convs); start += 100 {
		var batch []map[string]any
		for i, c := range convs[start:min(start+100, len(convs))] {
			parts := make([]map[string]any, len(c.Parts))
			for i, p := range c.Parts {
				parts[i] = map[string]any{"type": "message", "role": p.Role, "body": p.Body}
			}
			body := map[string]any{"id": c.ID, "parts": parts,
				"metadata": map[string]any{"createdAt": when(start+i, len(convs)).Format(time.RFC3339)}}
			if c.Subject != "" {
				body["subject"] = c.Subject
			}
			batch = append(batch, body)
		}
		if r := e.Do(tok, "POST", "/v1/orgs/"+org+"/conversations", batch); r.Status != 204 {
			t.Fatalf("ingest: %d %s", r.Status, r.Body)
		}
	}
}

// when spreads the corpus over the past 12 weeks, in its order (8 hours
// apart), so that it is analysed in that order.
func when(i, n int) time.Time {
	return time.Now().UTC().Truncate(time.Hour).Add(-time.Duration(n-i) * 8 * time.Hour)
}

// analysed waits for every analysis job of the organization.
func analysed(t *testing.T, e *testenv.Env, org string) {
	t.Helper()
	list, err := e.Server.Jobs().List(context.Background(), jobs.ListOptions{Organization: org, Limit: 500})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range list {
		if j.Kind != conversations.KindAnalyse {
			continue
		}
		if in := e.WaitJob(j.ID); in.State != jobs.StateCompleted {
			t.Fatalf("analysis job %s: %s %v", j.ID, in.State, in.Errors)
		}
	}
}

// TestCorpus ingests the support corpus (252 conversations about twelve
// problems) through REST and checks, once the analysis job ran, that
// issues about one problem share a cluster and issues about different
// problems do not (pairwise precision and recall), and the shape of what
// both doors show.
func TestCorpus(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		org := team.Org.ID
		convs := GenerateCorpus(t)
		ingest(t, e, team.Admin.Token, org, convs)
		// Jobs start once all is ingested: the analysis then reads the
		// conversations in one order, whatever the timing.
		e.StartJobs()
		analysed(t, e, org)

		problems := map[string][]string{}
		for _, c := range convs {
			problems[c.ID] = c.Problems
		}
		r := e.Do(team.Reader.Token, "GET", "/v1/orgs/"+org+"/conversations-issues?limit=1000", nil)
		if r.Status != 200 {
			t.Fatalf("issues: %d %s", r.Status, r.Body)
		}
		items := r.JSON()["items"].([]any)
		byConv := map[string][]map[string]any{}
		external := map[string]string{}
		convList := e.Do(team.Reader.Token, "GET", "/v1/orgs/"+org+"/conversations?limit=1000", nil).JSON()
		if n := int(convList["count"].(float64)); n != len(convs) {
			t.Fatalf("%d conversations listed, want %d", n, len(convs))
		}
		for _, it := range items {
			is := it.(map[string]any)["issue"].(map[string]any)
			byConv[is["conversation"].(string)] = append(byConv[is["conversation"].(string)], is)
		}
		// The sender's ids, read through GraphQL.
		g := e.GraphQL(team.Reader.Token, `query($o: ID!) { organization(id: $o) { conversations(first: 100) { totalCount } } }`, map[string]any{"o": org})
		if g.Code() != "" {
			t.Fatalf("graphql: %s", g.Raw)
		}
		for id := range byConv {
			d := e.GraphQL(team.Reader.Token, `query($id: ID!) { conversation(id: $id) { externalId } }`, map[string]any{"id": id})
			external[id] = testenv.Path(d.Data, "conversation", "externalId").(string)
		}
		var labelled []Labelled
		for id, list := range byConv {
			truth := Truth(problems[external[id]], len(list))
			for i, is := range list {
				// Issues of a conversation are listed newest first, then by
				// their order in it.
				_ = i
				ord := indexOf(list, is)
				labelled = append(labelled, Labelled{Problem: truth[ord], Cluster: is["cluster"].(string)})
			}
		}
		p, rc := PairScores(labelled)
		cl := e.Do(team.Reader.Token, "GET", "/v1/orgs/"+org+"/conversations-clusters?limit=1000&orderBy=issues", nil).JSON()
		t.Logf("%s: %d conversations, %d issues, %v clusters: pairwise precision %.3f, recall %.3f",
			e.Dialect, len(convs), len(labelled), cl["count"], p, rc)
		if p < 0.9 || rc < 0.8 {
			t.Errorf("precision %.3f (want ≥ 0.9), recall %.3f (want ≥ 0.8)", p, rc)
		}
		clusters := cl["items"].([]any)
		if len(clusters) < 12 || len(clusters) > 20 {
			t.Errorf("%d clusters for 12 problems", len(clusters))
		}
		prev := 1 << 30
		for _, c := range clusters {
			c := c.(map[string]any)
			n := int(testenv.Path(c, "stats", "issues").(float64))
			if n > prev {
				t.Errorf("clusters not ordered by issues: %d after %d", n, prev)
			}
			prev = n
			pulse := c["weeklyPulse"].([]any)
			sum := 0
			for _, x := range pulse {
				sum += int(x.(float64))
			}
			if len(pulse) != 13 || sum == 0 || sum > n {
				t.Errorf("weeklyPulse %v of a cluster of %d issues", pulse, n)
			}
			if c["label"] == "" || len(c["icon"].(string)) > 50 || testenv.Path(c, "summary", "object") != "document" ||
				testenv.Path(c, "sources") == nil || c["impact"] == nil {
				t.Errorf("cluster %v", c)
			}
		}
		// The biggest cluster, through GraphQL, with its issues' conversations.
		top := clusters[0].(map[string]any)
		d := e.GraphQL(team.Reader.Token, `query($o: ID!, $c: ID!) { organization(id: $o) {
			conversationsIssues(cluster: $c, first: 100) { totalCount nodes { title impact signals { kind phrase } details { nodes { __typename } }
				conversation { id parts { role body } } cluster { id label keyTerms stats { issues conversations } } } } } }`,
			map[string]any{"o": org, "c": top["id"]})
		if d.Code() != "" {
			t.Fatalf("graphql: %s", d.Raw)
		}
		if n := testenv.Path(d.Data, "organization", "conversationsIssues", "totalCount"); int(n.(float64)) != int(testenv.Path(top, "stats", "issues").(float64)) {
			t.Errorf("cluster lists %v issues, stats say %v", n, testenv.Path(top, "stats", "issues"))
		}
		first := testenv.Path(d.Data, "organization", "conversationsIssues", "nodes", 0)
		if testenv.Path(first, "cluster", "id") != top["id"] || testenv.Path(first, "cluster", "label") != top["label"] ||
			testenv.Path(first, "conversation", "parts", 0, "role") != "user" {
			t.Errorf("issue %v", first)
		}
	})
}

func indexOf(list []map[string]any, is map[string]any) int {
	// Titles repeat; the position among the conversation's issues is the
	// order of their ids' creation, which the list keeps for equal times.
	for i, x := range list {
		if x["id"] == is["id"] {
			return i
		}
	}
	return 0
}

var _ = fmt.Sprint
var _ = strings.Contains
