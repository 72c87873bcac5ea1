package graph_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// ---------------------------------------------------------------------------
// Statement counts

// sxSite is a published docs site built for statement counts.
type sxSite struct {
	ID, Path             string
	Sections, PerSection int
	ShareKey             string
}

// sxBuild creates, as the admin, a published site of sections × perSection
// site spaces; every space lives two collections deep (a top collection,
// then one per section), all inheriting, so that the reader's permissions
// walk the whole chain.
func sxBuild(t *testing.T, e *testenv.Env, team *testenv.Team, name string, sections, perSection int, visibility string) sxSite {
	t.Helper()
	admin, org := team.Admin.Token, team.Org.ID
	top := sxStr(sxDo(t, e, admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": name}, http.StatusCreated)["id"])
	st := sxDo(t, e, admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": name + " docs", "visibility": visibility}, http.StatusCreated)
	s := sxSite{ID: sxStr(st["id"]), Sections: sections, PerSection: perSection}
	s.Path = "/v1/orgs/" + org + "/sites/" + s.ID
	for i := 0; i < sections; i++ {
		col := sxStr(sxDo(t, e, admin, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": fmt.Sprintf("%s C%d", name, i), "parent": top}, http.StatusCreated)["id"])
		var section string
		for j := 0; j < perSection; j++ {
			sp := sxStr(sxDo(t, e, admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": fmt.Sprintf("%s S%d.%d", name, i, j), "parent": col}, http.StatusCreated)["id"])
			if j == 0 {
				section = sxStr(sxDo(t, e, admin, "POST", s.Path+"/sections", map[string]any{"spaceId": sp, "title": fmt.Sprintf("Section %d", i)}, http.StatusCreated)["id"])
				continue
			}
			sxDo(t, e, admin, "POST", s.Path+"/site-spaces", map[string]any{"spaceId": sp, "sectionId": section}, http.StatusCreated)
		}
	}
	sxDo(t, e, admin, "POST", s.Path+"/publish", nil, http.StatusOK)
	if visibility == "share-link" {
		d := sxOK(t, e.GraphQL(admin, `mutation($s: ID!) { createSiteShareLink(site: $s, name: "Reviewers") { urls { published } } }`, map[string]any{"s": s.ID}))
		u := sxStr(testenv.Path(d, "createSiteShareLink", "urls", "published"))
		i := strings.LastIndex(u, "/~share/")
		if i < 0 {
			t.Fatalf("share link URL without key: %q", u)
		}
		s.ShareKey = u[i+len("/~share/"):]
	}
	return s
}

// The nested site queries whose statements are counted: sections with their
// site spaces and spaces, as a docs site reads them.
const (
	sxSectionsQuery = `query($id: ID!){ site(id:$id){ title sections(first:50){ nodes{ id title siteSpaces(first:100){ nodes{ id path default space{ id title permissions{ edit } organization{ id title } } } } } } } }`
	// The same with published URLs, which need the share key on share-link sites.
	sxSectionsURLsQuery = `query($id: ID!, $key: String){ site(id:$id){ title urls(shareKey:$key){ published } sections(first:50){ nodes{ id title urls(shareKey:$key){ published } siteSpaces(first:100){ nodes{ id path default urls(shareKey:$key){ published } space{ id title permissions{ edit } organization{ id title } } } } } } } }`
	sxPublishedQuery    = `query($id: ID!, $key: String){ site(id:$id){ publishedContent(shareKey:$key) { structure { structure { ... on SiteSection { siteSpaces { nodes { space { title } } } } } } customizations { site } } } }`
	// Spaces without permissions, and the structure with them.
	sxAllSiteSpacesQuery = `query($id: ID!){ site(id:$id){ allSiteSpaces(first:100){ totalCount nodes{ id title default section { title } space{ title organization { title } } } } } }`
	sxStructureQuery     = `query($id: ID!, $key: String){ site(id:$id){ structure(shareKey:$key){ type structure { ... on SiteSection { id default siteSpaces { nodes { id space { permissions { edit view } } } } } } } } }`
)

// sxCheckSections checks the answer of the sections queries.
func sxCheckSections(t *testing.T, d map[string]any, s sxSite, urls bool) {
	t.Helper()
	secs := sxList(testenv.Path(d, "site", "sections", "nodes"))
	if len(secs) != s.Sections {
		t.Fatalf("%d sections, want %d", len(secs), s.Sections)
	}
	for _, sec := range secs {
		sss := sxList(testenv.Path(sec, "siteSpaces", "nodes"))
		if len(sss) != s.PerSection {
			t.Fatalf("section with %d site spaces, want %d", len(sss), s.PerSection)
		}
		if urls && testenv.Path(sec, "urls", "published") == nil {
			t.Fatalf("section without published URL: %v", sec)
		}
		for i, ss := range sss {
			if testenv.Path(ss, "space", "permissions", "edit") != false || testenv.Path(ss, "space", "organization", "title") != "Acme" ||
				testenv.Path(ss, "default") != (i == 0) || sxStr(testenv.Path(ss, "path")) == "" {
				t.Fatalf("site space = %v", ss)
			}
			if urls && testenv.Path(ss, "urls", "published") == nil {
				t.Fatalf("site space without published URL: %v", ss)
			}
		}
	}
}

func sxCheckPublished(t *testing.T, d map[string]any, s sxSite) {
	t.Helper()
	secs := sxList(testenv.Path(d, "site", "publishedContent", "structure", "structure"))
	if len(secs) != s.Sections {
		t.Fatalf("published structure of %d sections, want %d", len(secs), s.Sections)
	}
	for _, sec := range secs {
		sss := sxList(testenv.Path(sec, "siteSpaces", "nodes"))
		if len(sss) != s.PerSection || testenv.Path(sss[0], "space", "title") == nil {
			t.Fatalf("published section = %v", sec)
		}
	}
	if testenv.Path(d, "site", "publishedContent", "customizations", "site", "styling") == nil {
		t.Fatalf("published customizations = %v", testenv.Path(d, "site", "publishedContent", "customizations"))
	}
}

// sxMinCounts measures the statements of two requests, retrying up to 5
// times until their minimums agree, and returns the minimums. Loaders batch
// the loads that reach them within a 1 ms window: a scheduler stall (the
// tests share the machine) can split a batch and add a statement, never
// remove one. A load per item adds statements on every run, so it still
// shows in the minimum.
func sxMinCounts(a, b func() int64) (int64, int64) {
	minA, minB := a(), b()
	for i := 1; i < 5 && minA != minB; i++ {
		minA, minB = min(minA, a()), min(minB, b())
	}
	return minA, minB
}

// sxMostStatements bounds each read's statements on PostgreSQL once the
// caller is kept; sxMostTrips its round trips to the database, statements
// sent at the same time counted once (the least of five runs: a statement
// of a batch that the scheduler sends only after the others came back
// counts one more, never less). Each read is one round trip on a quiet
// machine; the bound leaves one for a busy one.
var sxMostStatements = map[string]int64{"sections": 4, "sections with urls": 4, "publishedContent": 4, "allSiteSpaces": 3, "structure": 4}

// unkept starts servers that keep no site read, so that statement counts
// measure the reads themselves (TestSitesE2EKeptUntilChanged measures the
// kept ones).
var unkept = testenv.Options{KeptSites: -1}

const sxMostTrips = 2

func TestSitesE2EStatementsDoNotGrowWithStructure(t *testing.T) {
	testenv.ForEachDBWith(t, unkept, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		for _, vis := range []string{"public", "share-link"} {
			t.Run(vis, func(t *testing.T) {
				small := sxBuild(t, e, team, "Small "+vis, 3, 2, vis)
				big := sxBuild(t, e, team, "Big "+vis, 20, 5, vis)
				vars := func(s sxSite) map[string]any {
					v := map[string]any{"id": s.ID}
					if s.ShareKey != "" {
						v["key"] = s.ShareKey
					}
					return v
				}
				queries := []struct {
					name  string
					doc   string
					check func(t *testing.T, d map[string]any, s sxSite)
				}{
					{"sections", sxSectionsQuery, func(t *testing.T, d map[string]any, s sxSite) { sxCheckSections(t, d, s, false) }},
					{"sections with urls", sxSectionsURLsQuery, func(t *testing.T, d map[string]any, s sxSite) { sxCheckSections(t, d, s, true) }},
					{"publishedContent", sxPublishedQuery, sxCheckPublished},
					{"allSiteSpaces", sxAllSiteSpacesQuery, func(t *testing.T, d map[string]any, s sxSite) {
						nodes := sxList(testenv.Path(d, "site", "allSiteSpaces", "nodes"))
						if len(nodes) != s.Sections*s.PerSection || testenv.Path(nodes[0], "title") != testenv.Path(nodes[0], "space", "title") ||
							testenv.Path(nodes[0], "space", "organization", "title") != "Acme" || testenv.Path(nodes[0], "section", "title") != "Section 0" {
							t.Fatalf("allSiteSpaces = %v", d)
						}
					}},
					{"structure", sxStructureQuery, func(t *testing.T, d map[string]any, s sxSite) {
						secs := sxList(testenv.Path(d, "site", "structure", "structure"))
						if len(secs) != s.Sections {
							t.Fatalf("structure of %d sections, want %d", len(secs), s.Sections)
						}
						for _, sec := range secs {
							for _, ss := range sxList(testenv.Path(sec, "siteSpaces", "nodes")) {
								if testenv.Path(ss, "space", "permissions", "edit") != false || testenv.Path(ss, "space", "permissions", "view") != true {
									t.Fatalf("site space = %v", ss)
								}
							}
						}
					}},
				}
				for _, q := range queries {
					t.Run(q.name, func(t *testing.T) {
						measure := func(s sxSite) int64 {
							t.Helper()
							v := vars(s)
							if q.doc == sxSectionsQuery || q.doc == sxAllSiteSpacesQuery {
								delete(v, "key")
							}
							before := e.Statements()
							d := sxOK(t, e.GraphQL(team.Reader.Token, q.doc, v))
							n := e.Statements() - before
							q.check(t, d, s)
							return n
						}
						measure(small) // warm the query cache
						n1, n2 := sxMinCounts(func() int64 { return measure(small) }, func() int64 { return measure(big) })
						t.Logf("GraphQL %s: 3×2 → %d statements, 20×5 → %d", q.name, n1, n2)
						if n1 != n2 {
							t.Errorf("GraphQL %s grows with the structure: 3 sections × 2 site spaces → %d statements, 20 × 5 → %d", q.name, n1, n2)
						}
						most := sxMostStatements[q.name]
						if e.Dialect != "postgres" {
							// SQLite keeps no caller: the token is looked up.
							most++
						}
						if n2 > most {
							t.Errorf("GraphQL %s: %d statements, at most %d", q.name, n2, most)
						}
						if e.Dialect != "postgres" {
							// In process, SQLite's statements take no round
							// trip and rarely overlap.
							return
						}
						// The least of up to 25 measures, stopping at the
						// first within the bound (see sqMinTrips in rest).
						trips := int64(-1)
						for i := 0; i < 25 && (trips < 0 || trips > sxMostTrips); i++ {
							v := vars(big)
							if q.doc == sxSectionsQuery || q.doc == sxAllSiteSpacesQuery {
								delete(v, "key")
							}
							before := e.RoundTrips()
							d := sxOK(t, e.GraphQL(team.Reader.Token, q.doc, v))
							n := e.RoundTrips() - before
							q.check(t, d, big)
							if trips < 0 || n < trips {
								trips = n
							}
						}
						t.Logf("GraphQL %s: 20×5 → %d round trips", q.name, trips)
						if trips > sxMostTrips {
							t.Errorf("GraphQL %s: %d round trips of waiting for the database, at most %d", q.name, trips, sxMostTrips)
						}
					})
				}
			})
		}
	})
}
