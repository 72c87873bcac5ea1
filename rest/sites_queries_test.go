package rest_test

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// Statement counts of the docs-site reads: a site's published profile, its
// sections and its site spaces must cost the same number of SQL statements
// whatever the number of sections and site spaces.

// sqSite is a docs site built for statement counts.
type sqSite struct {
	ID, Path   string
	Sections   int
	PerSection int
	// ShareKey is set on share-link sites.
	ShareKey string
}

// sqDo sends a request and fails unless it answers want.
func sqDo(t *testing.T, e *testenv.Env, token, method, path string, body any, want int) map[string]any {
	t.Helper()
	r := e.Do(token, method, path, body)
	if r.Status != want {
		t.Fatalf("%s %s: %d %s, want %d", method, path, r.Status, r.Body, want)
	}
	return r.JSON()
}

func sqID(v map[string]any) string {
	s, _ := v["id"].(string)
	return s
}

// sqBuild creates, as the admin, a published site of sections × perSection
// site spaces. Every space lives two collections deep (a top collection,
// then one collection per section), all inheriting, so that a reader's
// permissions walk the whole chain up to the organization.
func sqBuild(t *testing.T, e *testenv.Env, team *testenv.Team, name string, sections, perSection int, visibility string) sqSite {
	t.Helper()
	admin, org := team.Admin.Token, team.Org.ID
	top := sqID(sqDo(t, e, admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": name}, http.StatusCreated))
	st := sqDo(t, e, admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": name + " docs", "visibility": visibility}, http.StatusCreated)
	s := sqSite{ID: sqID(st), Path: "/v1/orgs/" + org + "/sites/" + sqID(st), Sections: sections, PerSection: perSection}
	for i := 0; i < sections; i++ {
		col := sqID(sqDo(t, e, admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": fmt.Sprintf("%s C%d", name, i), "parent": top}, http.StatusCreated))
		var section string
		for j := 0; j < perSection; j++ {
			sp := sqID(sqDo(t, e, admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": fmt.Sprintf("%s S%d.%d", name, i, j), "parent": col}, http.StatusCreated))
			if j == 0 {
				sec := sqDo(t, e, admin, "POST", s.Path+"/sections", map[string]any{"spaceId": sp, "title": fmt.Sprintf("Section %d", i)}, http.StatusCreated)
				section = sqID(sec)
				continue
			}
			sqDo(t, e, admin, "POST", s.Path+"/site-spaces", map[string]any{"spaceId": sp, "sectionId": section}, http.StatusCreated)
		}
	}
	sqDo(t, e, admin, "POST", s.Path+"/publish", nil, http.StatusOK)
	if visibility == "share-link" {
		l := sqDo(t, e, admin, "POST", s.Path+"/share-links", map[string]any{"name": "Reviewers"}, http.StatusCreated)
		u, _ := testenv.Path(l, "urls", "published").(string)
		i := strings.LastIndex(u, "/~share/")
		if i < 0 {
			t.Fatalf("share link without key in its URL: %v", l)
		}
		s.ShareKey = u[i+len("/~share/"):]
	}
	return s
}

// sqCheckSection checks a presented section: its site spaces, each with
// its space as the reader sees it.
func sqCheckSection(t *testing.T, what string, sec any, s sqSite) {
	t.Helper()
	sss, _ := testenv.Path(sec, "siteSpaces").([]any)
	if len(sss) != s.PerSection {
		t.Fatalf("%s: section with %d site spaces, want %d: %v", what, len(sss), s.PerSection, sec)
	}
	for _, ss := range sss {
		sqCheckSiteSpace(t, what, ss)
	}
}

func sqCheckSiteSpace(t *testing.T, what string, ss any) {
	t.Helper()
	if testenv.Path(ss, "space", "id") == nil || testenv.Path(ss, "space", "parent") == nil ||
		testenv.Path(ss, "space", "permissions", "view") != true || testenv.Path(ss, "space", "permissions", "edit") != false ||
		testenv.Path(ss, "title") == nil {
		t.Fatalf("%s: site space as the reader sees it = %v", what, ss)
	}
}

// sqReads are the measured REST reads of a site, each checking its body.
func sqReads(s sqSite) []struct {
	name  string
	path  string
	check func(t *testing.T, body map[string]any)
} {
	key := ""
	if s.ShareKey != "" {
		key = "shareKey=" + s.ShareKey
	}
	q := func(extra string) string {
		parts := []string{}
		for _, p := range []string{key, extra} {
			if p != "" {
				parts = append(parts, p)
			}
		}
		if len(parts) == 0 {
			return ""
		}
		return "?" + strings.Join(parts, "&")
	}
	total := s.Sections * s.PerSection
	return []struct {
		name  string
		path  string
		check func(t *testing.T, body map[string]any)
	}{
		{"published", s.Path + "/published" + q(""), func(t *testing.T, b map[string]any) {
			if b["object"] != "published-content-site" || testenv.Path(b, "structure", "type") != "sections" {
				t.Fatalf("published = %v", b)
			}
			secs, _ := testenv.Path(b, "structure", "structure").([]any)
			if len(secs) != s.Sections {
				t.Fatalf("published structure has %d sections, want %d", len(secs), s.Sections)
			}
			for _, sec := range secs {
				sqCheckSection(t, "published", sec, s)
			}
			if m, _ := testenv.Path(b, "customizations", "siteSpaces").(map[string]any); len(m) != total {
				t.Fatalf("published customizations of %d site spaces, want %d", len(m), total)
			}
			if testenv.Path(b, "site", "urls", "published") == nil {
				t.Fatalf("published site without published URL: %v", b["site"])
			}
		}},
		{"sections", s.Path + "/sections" + q("limit=1000"), func(t *testing.T, b map[string]any) {
			items, _ := b["items"].([]any)
			if b["count"] != float64(s.Sections) || len(items) != s.Sections {
				t.Fatalf("sections: count %v, %d items, want %d", b["count"], len(items), s.Sections)
			}
			for _, sec := range items {
				sqCheckSection(t, "sections", sec, s)
				if testenv.Path(sec, "urls", "published") == nil {
					t.Fatalf("section of a published site without URL: %v", sec)
				}
			}
		}},
		{"site-spaces", s.Path + "/site-spaces" + q("limit=1000"), func(t *testing.T, b map[string]any) {
			items, _ := b["items"].([]any)
			if b["count"] != float64(total) || len(items) != total {
				t.Fatalf("site spaces: count %v, %d items, want %d", b["count"], len(items), total)
			}
			for _, ss := range items {
				sqCheckSiteSpace(t, "site-spaces", ss)
			}
		}},
		{"structure", s.Path + "/structure" + q(""), func(t *testing.T, b map[string]any) {
			secs, _ := b["structure"].([]any)
			if b["type"] != "sections" || len(secs) != s.Sections {
				t.Fatalf("structure = %v", b)
			}
			for _, sec := range secs {
				sqCheckSection(t, "structure", sec, s)
			}
		}},
		{"site", s.Path + q(""), func(t *testing.T, b map[string]any) {
			if b["siteSpaces"] != float64(total) || testenv.Path(b, "urls", "published") == nil {
				t.Fatalf("site = %v", b)
			}
		}},
	}
}

// sqMeasure sends one GET as the caller and returns the statements it cost.
func sqMeasure(t *testing.T, e *testenv.Env, token, path string, check func(*testing.T, map[string]any)) int64 {
	t.Helper()
	before := e.Statements()
	r := e.Do(token, "GET", path, nil)
	n := e.Statements() - before
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
	}
	check(t, r.JSON())
	return n
}

// sqMostStatements and sqMostTrips bound, for each read, its statements
// and its round trips to the database (statements sent at the same time
// count once) on PostgreSQL, once the caller is kept (see sqReads).
var (
	sqMostStatements = map[string]int64{"published": 4, "sections": 4, "site-spaces": 4, "structure": 4, "site": 2}
	// Each of them is one round trip on a quiet machine: the reads of a
	// plan go out at once. The bound leaves one for a scheduler that
	// sends a statement of the batch late on a busy machine.
	sqMostTrips = map[string]int64{"published": 2, "sections": 2, "site-spaces": 2, "structure": 2, "site": 2}
)

// sqTrips sends one GET as the caller and returns the round trips it
// cost.
func sqTrips(t *testing.T, e *testenv.Env, token, path string, check func(*testing.T, map[string]any)) int64 {
	t.Helper()
	before := e.RoundTrips()
	r := e.Do(token, "GET", path, nil)
	n := e.RoundTrips() - before
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
	}
	check(t, r.JSON())
	return n
}

// sqMinTrips is the least of up to 25 measures, stopping at the first
// within most: a statement of a concurrent batch that a busy scheduler
// sends only after the others came back counts one round trip more, never
// less (db.DB.RoundTrips), so one measure within the bound shows that the
// read's statements overlap, while a read that sends them one after the
// other never comes within it.
func sqMinTrips(most int64, measure func() int64) int64 {
	least := measure()
	for i := 1; i < 25 && least > most; i++ {
		least = min(least, measure())
	}
	return least
}

// unkept starts servers that keep no site read, so that statement counts
// measure the reads themselves.
var unkept = testenv.Options{KeptSites: -1}

// sqMinCounts measures the statements of two requests, retrying up to 5
// times until their minimums agree, and returns the minimums. Loaders batch
// the loads that reach them within a 1 ms window: a scheduler stall (the
// tests share the machine) can split a batch and add a statement, never
// remove one. A load per item adds statements on every run, so it still
// shows in the minimum.
func sqMinCounts(a, b func() int64) (int64, int64) {
	minA, minB := a(), b()
	for i := 1; i < 5 && minA != minB; i++ {
		minA, minB = min(minA, a()), min(minB, b())
	}
	return minA, minB
}

func TestSitesQueriesStatementsDoNotGrowWithStructure(t *testing.T) {
	testenv.ForEachDBWith(t, unkept, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		for _, vis := range []string{"public", "share-link"} {
			t.Run(vis, func(t *testing.T) {
				small := sqBuild(t, e, team, "Small "+vis, 3, 2, vis)
				big := sqBuild(t, e, team, "Big "+vis, 20, 5, vis)
				smallReads, bigReads := sqReads(small), sqReads(big)
				for i := range smallReads {
					sr, br := smallReads[i], bigReads[i]
					t.Run(sr.name, func(t *testing.T) {
						// A first run fills the caches; then measure.
						sqMeasure(t, e, team.Reader.Token, sr.path, sr.check)
						n1, n2 := sqMinCounts(
							func() int64 { return sqMeasure(t, e, team.Reader.Token, sr.path, sr.check) },
							func() int64 { return sqMeasure(t, e, team.Reader.Token, br.path, br.check) })
						t.Logf("GET %s: 3×2 → %d statements, 20×5 → %d", sr.name, n1, n2)
						if n1 != n2 {
							t.Errorf("REST GET %s grows with the structure: 3 sections × 2 site spaces → %d statements, 20 × 5 → %d", sr.name, n1, n2)
						}
						most := sqMostStatements[sr.name]
						if e.Dialect != "postgres" {
							// SQLite keeps no caller: the token is looked up.
							most++
						}
						if n2 > most {
							t.Errorf("REST GET %s: %d statements, at most %d", sr.name, n2, most)
						}
						if e.Dialect != "postgres" {
							// In process, SQLite's statements take no round
							// trip and rarely overlap.
							return
						}
						most = sqMostTrips[sr.name]
						trips := sqMinTrips(most, func() int64 { return sqTrips(t, e, team.Reader.Token, br.path, br.check) })
						t.Logf("GET %s: 20×5 → %d round trips", sr.name, trips)
						if trips > most {
							t.Errorf("REST GET %s: %d round trips of waiting for the database, at most %d", sr.name, trips, most)
						}
					})
				}
			})
		}
	})
}

// sqMetric reads quire_db_statements_total from /metrics.
func sqMetric(t *testing.T, e *testenv.Env) float64 {
	t.Helper()
	r := e.Do("", "GET", "/metrics", nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET /metrics: %d %s", r.Status, r.Body)
	}
	sc := bufio.NewScanner(bytes.NewReader(r.Body))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if f := strings.Fields(line); len(f) == 2 && f[0] == "quire_db_statements_total" {
			v, err := strconv.ParseFloat(f[1], 64)
			if err != nil {
				t.Fatalf("metric line %q: %v", line, err)
			}
			return v
		}
	}
	t.Fatalf("no quire_db_statements_total in /metrics:\n%s", r.Body)
	return 0
}

func TestSitesQueriesMetricsCountStatements(t *testing.T) {
	testenv.ForEachDBWith(t, unkept, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		s := sqBuild(t, e, team, "Metered", 3, 2, "public")
		reqs := []struct {
			name string
			do   func() int
		}{
			{"REST published", func() int { return e.Do(team.Reader.Token, "GET", s.Path+"/published", nil).Status }},
			{"REST sections", func() int { return e.Do(team.Reader.Token, "GET", s.Path+"/sections", nil).Status }},
			{"GraphQL site", func() int {
				return e.GraphQL(team.Reader.Token, `query($id: ID!) { site(id: $id) { title sections { nodes { siteSpaces { nodes { space { title } } } } } } }`,
					map[string]any{"id": s.ID}).Status
			}},
			{"REST write", func() int {
				return e.Do(team.Admin.Token, "PATCH", s.Path, map[string]any{"title": "Metered docs 2"}).Status
			}},
		}
		for _, rq := range reqs {
			t.Run(rq.name, func(t *testing.T) {
				m0, s0 := sqMetric(t, e), e.Statements()
				if st := rq.do(); st != http.StatusOK {
					t.Fatalf("status %d", st)
				}
				s1 := e.Statements()
				m1 := sqMetric(t, e)
				// Reading /metrics sends no statement itself.
				if s2 := e.Statements(); s2 != s1 {
					t.Errorf("GET /metrics sent %d statements", s2-s1)
				}
				if s1-s0 <= 0 {
					t.Fatalf("the request sent no statement")
				}
				if got, want := m1-m0, float64(s1-s0); got != want {
					t.Errorf("quire_db_statements_total grew by %v, the database saw %v statements", got, want)
				}
				t.Logf("%s: %d statements", rq.name, s1-s0)
			})
		}
	})
}

// sqOrg is an organization with a reader, for lists of sites.
type sqOrg struct {
	ID, Admin, Reader string
}

func sqNewOrg(t *testing.T, e *testenv.Env, name string) sqOrg {
	t.Helper()
	o := e.Org(name)
	au, at := e.User("admin@" + strings.ToLower(name) + ".test")
	ru, rt := e.User("reader@" + strings.ToLower(name) + ".test")
	e.Member(o, au, "admin")
	e.Member(o, ru, "read")
	return sqOrg{ID: o.ID, Admin: at, Reader: rt}
}

func TestSitesQueriesListStatementsDoNotGrowWithSites(t *testing.T) {
	testenv.ForEachDBWith(t, unkept, func(t *testing.T, e *testenv.Env) {
		build := func(name string, n int) sqOrg {
			o := sqNewOrg(t, e, name)
			col := sqID(sqDo(t, e, o.Admin, "POST", "/v1/orgs/"+o.ID+"/collections", map[string]any{"title": "Docs"}, http.StatusCreated))
			for i := 0; i < n; i++ {
				a := sqID(sqDo(t, e, o.Admin, "POST", "/v1/orgs/"+o.ID+"/spaces", map[string]any{"title": fmt.Sprintf("A%d", i), "parent": col}, http.StatusCreated))
				b := sqID(sqDo(t, e, o.Admin, "POST", "/v1/orgs/"+o.ID+"/spaces", map[string]any{"title": fmt.Sprintf("B%d", i), "parent": col}, http.StatusCreated))
				vis := "public"
				if i%2 == 1 {
					vis = "share-link"
				}
				st := sqID(sqDo(t, e, o.Admin, "POST", "/v1/orgs/"+o.ID+"/sites", map[string]any{"title": fmt.Sprintf("Site %d", i), "visibility": vis, "spaces": []any{a, b}}, http.StatusCreated))
				sqDo(t, e, o.Admin, "POST", "/v1/orgs/"+o.ID+"/sites/"+st+"/publish", nil, http.StatusOK)
				sqDo(t, e, o.Admin, "PUT", "/v1/orgs/"+o.ID+"/sites/"+st+"/customization", map[string]any{"favicon": map[string]any{"emoji": "📘"}}, http.StatusOK)
			}
			return o
		}
		small, big := build("Small", 2), build("Big", 12)
		rest := func(o sqOrg, n int) func() int64 {
			return func() int64 {
				return sqMeasure(t, e, o.Reader, "/v1/orgs/"+o.ID+"/sites?limit=100", func(t *testing.T, b map[string]any) {
					items, _ := b["items"].([]any)
					if len(items) != n || testenv.Path(items[0], "siteSpaces") != float64(2) || testenv.Path(items[0], "icon", "emoji") != "📘" ||
						testenv.Path(items[0], "urls", "published") == nil {
						t.Fatalf("sites = %v", b)
					}
				})
			}
		}
		const q = `query($o: ID!) { organization(id: $o) { sites(first: 50) { nodes { id siteSpaces icon { emoji } urls { published }
			defaultSiteSpace { id space { title } } sections { totalCount } allSiteSpaces { nodes { title } } } } } }`
		gql := func(o sqOrg, n int) func() int64 {
			return func() int64 {
				before := e.Statements()
				r := e.GraphQL(o.Reader, q, map[string]any{"o": o.ID})
				cost := e.Statements() - before
				nodes, _ := testenv.Path(r.Data, "organization", "sites", "nodes").([]any)
				if len(r.Errors) > 0 || len(nodes) != n || testenv.Path(nodes[0], "defaultSiteSpace", "space", "title") != "A0" {
					t.Fatalf("GraphQL sites: %s", r.Raw)
				}
				return cost
			}
		}
		rest(small, 2)()
		gql(small, 2)()
		n1, n2 := sqMinCounts(rest(small, 2), rest(big, 12))
		t.Logf("REST GET sites: 2 sites → %d statements, 12 → %d", n1, n2)
		if n1 != n2 {
			t.Errorf("REST GET sites grows with the sites: 2 → %d statements, 12 → %d", n1, n2)
		}
		g1, g2 := sqMinCounts(gql(small, 2), gql(big, 12))
		t.Logf("GraphQL Organization.sites: 2 sites → %d statements, 12 → %d", g1, g2)
		if g1 != g2 {
			t.Errorf("GraphQL Organization.sites grows with the sites: 2 → %d statements, 12 → %d", g1, g2)
		}
	})
}
