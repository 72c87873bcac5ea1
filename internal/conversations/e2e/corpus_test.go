package e2e_test

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"quire/internal/conversations"
	"quire/internal/textcluster"
)

// The support corpus of the tests (testdata/corpus.json): twelve real
// problems of a documentation platform (SSO login, PDF export, search, Git
// sync, billing, custom domains, lost content, invitations, performance,
// API limits, dark mode requests, uploads), each told in ten or more ways,
// with greetings, context, follow-ups and support replies around them.

type corpusFile struct {
	Filler struct {
		Openers   []string `json:"openers"`
		Context   []string `json:"context"`
		Closers   []string `json:"closers"`
		Assistant []string `json:"assistant"`
	} `json:"filler"`
	Problems []struct {
		Key        string   `json:"key"`
		Subjects   []string `json:"subjects"`
		Complaints []string `json:"complaints"`
		Followups  []string `json:"followups"`
	} `json:"problems"`
}

// CorpusConversation is a conversation of the corpus and the problems it
// raises, in order.
type CorpusConversation struct {
	ID       string
	Subject  string
	Parts    []conversations.Part
	Problems []string
}

// GenerateCorpus builds the corpus deterministically: per problem, 19
// conversations of one problem, and 24 conversations raising two problems
// ("Also, ..."): 252 conversations.
func GenerateCorpus(t testing.TB) []CorpusConversation {
	t.Helper()
	raw, err := os.ReadFile("testdata/corpus.json")
	if err != nil {
		t.Fatal(err)
	}
	var c corpusFile
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	f := c.Filler
	pick := func(list []string, i int) string { return list[i%len(list)] }
	join := func(parts ...string) string {
		out := ""
		for _, p := range parts {
			if p == "" {
				continue
			}
			if out != "" {
				out += " "
			}
			out += p
		}
		return out
	}
	var out []CorpusConversation
	for p, pr := range c.Problems {
		for j := 0; j < 19; j++ {
			first := join(pick(f.Openers, p+j), pick(f.Context, p*3+j), pr.Complaints[j%len(pr.Complaints)])
			if j%3 == 0 {
				first = join(first, pr.Complaints[(j+4)%len(pr.Complaints)])
			}
			first = join(first, pick(f.Closers, j+2*p))
			parts := []conversations.Part{{Role: "user", Body: first}, {Role: "assistant", Body: pick(f.Assistant, j+p)}}
			if j%2 == 1 && len(pr.Followups) > 0 {
				parts = append(parts, conversations.Part{Role: "user", Body: pick(pr.Followups, j)})
			}
			out = append(out, CorpusConversation{
				ID: fmt.Sprintf("%s-%02d", pr.Key, j), Subject: pick(pr.Subjects, j), Parts: parts, Problems: []string{pr.Key},
			})
		}
	}
	n := len(c.Problems)
	for j := 0; j < 24; j++ {
		a, b := c.Problems[j%n], c.Problems[(j+5)%n]
		body := join(pick(f.Openers, j), a.Complaints[(j+1)%len(a.Complaints)], "Also, "+lowerFirst(b.Complaints[(j+2)%len(b.Complaints)]))
		out = append(out, CorpusConversation{
			ID: fmt.Sprintf("two-%02d", j), Parts: []conversations.Part{{Role: "user", Body: body}, {Role: "assistant", Body: pick(f.Assistant, j)}},
			Problems: []string{a.Key, b.Key},
		})
	}
	return out
}

func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' || (len(s) > 1 && s[1] >= 'A' && s[1] <= 'Z') {
		return s
	}
	return string(s[0]+32) + s[1:]
}

// Labelled is an issue with the problem it is about and its cluster.
type Labelled struct {
	Problem string
	Cluster string
}

// Truth labels the issues found in a conversation: the issues of a
// conversation of one problem are about it; those of a conversation of
// two, in order, about the first then the second (extra ones about the
// last).
func Truth(problems []string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = problems[min(i, len(problems)-1)]
	}
	return out
}

// PairScores are the pairwise precision and recall of a clustering: of the
// pairs of issues put in one cluster, the share about one problem; of the
// pairs about one problem, the share put in one cluster.
func PairScores(issues []Labelled) (precision, recall float64) {
	var sameBoth, sameCluster, sameProblem int
	for i := range issues {
		for j := i + 1; j < len(issues); j++ {
			c := issues[i].Cluster == issues[j].Cluster
			p := issues[i].Problem == issues[j].Problem
			if c {
				sameCluster++
			}
			if p {
				sameProblem++
			}
			if c && p {
				sameBoth++
			}
		}
	}
	if sameCluster == 0 || sameProblem == 0 {
		return 0, 0
	}
	return float64(sameBoth) / float64(sameCluster), float64(sameBoth) / float64(sameProblem)
}

// TestCorpusClustering runs extraction and the incremental clustering over
// the corpus in memory (the engine's steps without the database), as a
// quick check of the threshold; the end-to-end test runs the engine.
func TestCorpusClustering(t *testing.T) {
	convs := GenerateCorpus(t)
	c := &textcluster.Corpus{DF: map[string]int{}}
	var centroids []textcluster.Centroid
	var issues []Labelled
	twoFound := 0
	for _, conv := range convs {
		found := conversations.Extract(conv.Subject, conv.Parts)
		if len(found) == 0 {
			t.Errorf("%s: no issue found", conv.ID)
			continue
		}
		if len(conv.Problems) == 2 && len(found) >= 2 {
			twoFound++
		}
		truth := Truth(conv.Problems, len(found))
		for i, f := range found {
			c.AddDocument(f.Terms)
			tf := textcluster.TF(f.Terms)
			m := textcluster.Assign(tf, centroids, c, textcluster.Threshold)
			if m.Index < 0 {
				centroids = append(centroids, textcluster.Centroid{Seq: len(centroids) + 1, Sum: textcluster.Vector{}})
				m.Index = len(centroids) - 1
			}
			centroids[m.Index].Sum.Add(tf)
			issues = append(issues, Labelled{Problem: truth[i], Cluster: fmt.Sprint(m.Index)})
		}
	}
	p, r := PairScores(issues)
	t.Logf("%d conversations, %d issues, %d clusters; two-problem conversations split: %d of 24; pairwise precision %.3f, recall %.3f",
		len(convs), len(issues), len(centroids), twoFound, p, r)
	if p < 0.9 || r < 0.8 {
		t.Errorf("precision %.3f (want ≥ 0.9), recall %.3f (want ≥ 0.8)", p, r)
	}
}
