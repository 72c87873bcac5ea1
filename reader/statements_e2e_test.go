package reader_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"quire/internal/content"
	"quire/internal/ids"
	"quire/internal/testing/testenv"
)

// shapedSite publishes a public site of spaces site spaces, each space
// holding pagesPer pages (a group of pagesPer-1 pages below a first
// page, so that pages nest), and returns the published URL of the site
// and of its last site space.
func shapedSite(t *testing.T, e *testenv.Env, team *testenv.Team, title string, spaces, pagesPer int) (siteURL, lastURL string) {
	t.Helper()
	admin, org := team.Admin.Token, team.Org.ID
	st := rest(t, e, admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": title, "visibility": "public"}, http.StatusCreated)
	id := str(st["id"])
	for i := range spaces {
		sp := space(t, e, team, fmt.Sprintf("%s part %d", title, i+1))
		md := func(s string) *string { return &s }
		group := ids.New(ids.Page)
		ops := []content.Op{&content.CreatePage{Title: "Overview", Markdown: md("The binary starts here.\n\n## Steps\n\n- one\n- two\n")}}
		if pagesPer > 1 {
			ops = append(ops, &content.CreatePage{ID: group, Type: "group", Title: "Guides"})
			parent := ""
			for j := 1; j < pagesPer; j++ {
				id := ids.New(ids.Page)
				p := group
				if parent != "" && j%2 == 0 {
					p = parent // every other page a child of the one before
				}
				ops = append(ops, &content.CreatePage{ID: id, Parent: p, Title: fmt.Sprintf("Topic %d", j),
					Markdown: md(fmt.Sprintf("Topic %d runs the binary.\n\n```sh\nquire serve\n```\n", j))})
				parent = id
			}
		}
		seedPages(t, e, team, sp, ops...)
		ss := rest(t, e, admin, "POST", "/v1/orgs/"+org+"/sites/"+id+"/site-spaces", map[string]any{"spaceId": sp}, http.StatusCreated)
		lastURL = str(ss["path"]) // the published URL is known once the site is
	}
	rest(t, e, admin, "POST", "/v1/orgs/"+org+"/sites/"+id+"/publish", nil, http.StatusOK)
	got := rest(t, e, admin, "GET", "/v1/orgs/"+org+"/sites/"+id, nil, http.StatusOK)
	m, _ := got["urls"].(map[string]any)
	siteURL = str(m["published"])
	return siteURL, siteURL + "/" + lastURL
}

// statements are the SQL statements of two GETs of url: the first
// rendered anew (a write elsewhere in the organization made every kept
// page stale), the second right after it, after a GET that warms
// whatever the server keeps between requests.
func statements(t *testing.T, e *testenv.Env, team *testenv.Team, url string, want int) (rendered, again int64) {
	t.Helper()
	get(t, e, url, "")
	space(t, e, team, "Elsewhere") // a content change: kept pages are stale
	before := e.Statements()
	if p := get(t, e, url, ""); p.Status != want {
		t.Fatalf("GET %s: %d, want %d", url, p.Status, want)
	}
	rendered = e.Statements() - before
	before = e.Statements()
	if p := get(t, e, url, ""); p.Status != want {
		t.Fatalf("GET %s again: %d, want %d", url, p.Status, want)
	}
	return rendered, e.Statements() - before
}

// unkept starts servers that keep no site read, so that statement counts
// measure what a rendered page reads.
var unkept = testenv.Options{KeptSites: -1}

// A page view, the search page and an unknown path cost as many SQL
// statements on a site of 60 pages in 12 site spaces as on one of 3
// pages in 3 site spaces: what a reader's request reads is planned once,
// whatever the size of the site. A page viewed again, until something
// changes, costs none: it is kept; the search page and unknown paths are
// not.
func TestStatementsDoNotGrowWithTheSite(t *testing.T) {
	testenv.ForEachDBWith(t, unkept, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		small, smallLast := shapedSite(t, e, team, "Small docs", 3, 1)
		big, bigLast := shapedSite(t, e, team, "Big docs", 12, 5)
		if strings.HasSuffix(smallLast, "/") || strings.HasSuffix(bigLast, "/") {
			t.Fatalf("site spaces without published URLs: %q %q", smallLast, bigLast)
		}
		cases := []struct {
			name       string
			small, big string
			status     int
			kept       bool
		}{
			{"first page", small, big, http.StatusOK, true},
			{"page of the default site space", small + "/overview", big + "/guides/topic-1/topic-2", http.StatusOK, true},
			{"page of another site space", smallLast + "/overview", bigLast + "/guides/topic-3/topic-4", http.StatusOK, true},
			{"search", small + "/~search?q=binary", big + "/~search?q=binary", http.StatusOK, false},
			{"unknown page", small + "/no/such/page", big + "/no/such/page", http.StatusNotFound, false},
		}
		for _, c := range cases {
			s, sAgain := statements(t, e, team, c.small, c.status)
			b, bAgain := statements(t, e, team, c.big, c.status)
			t.Logf("%s: %d statements on the small site (%d again), %d on the big one (%d again)", c.name, s, sAgain, b, bAgain)
			if s != b {
				t.Errorf("%s: %d statements on a site of 3 pages in 3 site spaces, %d on one of 60 pages in 12", c.name, s, b)
			}
			if s == 0 {
				t.Errorf("%s: rendered after a change with no statement: was a stale page served?", c.name)
			}
			for _, again := range []int64{sAgain, bAgain} {
				if c.kept && again != 0 {
					t.Errorf("%s viewed again: %d statements, want 0 (kept)", c.name, again)
				}
				if !c.kept && again != s {
					t.Errorf("%s viewed again: %d statements, want %d as the first time (not kept)", c.name, again, s)
				}
			}
		}
	})
}
