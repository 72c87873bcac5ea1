package search_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"quire/ent"
	"quire/internal/content"
	"quire/internal/jobs"
	"quire/internal/pagination"
	"quire/internal/search"
	"quire/internal/testing/testdb"
	"quire/internal/testing/testenv"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// docs is a space holding the corpus.
type docs struct {
	e     *testenv.Env
	team  *testenv.Team
	space string
	// pages are the corpus's page ids by title, groups included.
	pages map[string]string
}

// as is a context acting for a user, as a request of theirs would.
func as(e *testenv.Env, u *ent.User) context.Context {
	return jobs.NewContext(context.Background(), e.Client(), u)
}

func newSpace(t testing.TB, e *testenv.Env, token, org, title string) string {
	t.Helper()
	r := e.Do(token, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": title})
	if r.Status != 201 {
		t.Fatalf("create space: %d %s", r.Status, r.Body)
	}
	return r.JSON()["id"].(string)
}

// newDocs creates a space and writes the corpus into it, a group at a
// time, through direct edits.
func newDocs(t *testing.T, e *testenv.Env) *docs {
	t.Helper()
	d := &docs{e: e, team: e.NewTeamOnce(), pages: map[string]string{}}
	d.space = newSpace(t, e, d.team.Admin.Token, d.team.Org.ID, "Beacon docs")
	d.write(t, d.space, corpus)
	return d
}

func (d *docs) write(t *testing.T, spaceID string, pages []corpusPage) {
	t.Helper()
	ctx := as(d.e, d.team.Admin.User)
	svc := d.e.Server.Resolver().Content
	var groups []string
	for _, p := range pages {
		if p.group != "" && !contains(groups, p.group) && d.pages[p.group] == "" {
			groups = append(groups, p.group)
		}
	}
	if len(groups) > 0 {
		var ops []content.Op
		for _, g := range groups {
			ops = append(ops, &content.CreatePage{Type: content.TypeGroup, Title: g})
		}
		res, err := svc.EditSpace(ctx, spaceID, ops...)
		if err != nil {
			t.Fatalf("create groups: %v", err)
		}
		for i, g := range groups {
			d.pages[g] = res.IDs[i]
		}
	}
	var ops []content.Op
	for _, p := range pages {
		md := p.markdown
		parent := d.pages[p.group]
		if p.parent != "" {
			parent = d.pages[p.parent]
		}
		ops = append(ops, &content.CreatePage{Title: p.title, Parent: parent, Description: p.description, Markdown: &md})
	}
	res, err := svc.EditSpace(ctx, spaceID, ops...)
	if err != nil {
		t.Fatalf("create pages: %v", err)
	}
	for i, p := range pages {
		d.pages[p.title] = res.IDs[i]
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// find searches a space as a user; it fails the test on errors.
func (d *docs) find(t *testing.T, u *ent.User, spaceID, query string) []*search.PageHit {
	t.Helper()
	first := 100
	p, err := d.e.Server.Resolver().Search.SearchSpace(as(d.e, u), spaceID, query, pagination.Args{First: &first})
	if err != nil {
		t.Fatalf("search %q: %v", query, err)
	}
	return p.Items
}

// titles lists the titles of hits.
func titles(hits []*search.PageHit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Title
	}
	return out
}

func index(hits []*search.PageHit, title string) int {
	for i, h := range hits {
		if h.Title == title {
			return i
		}
	}
	return -1
}

func hit(hits []*search.PageHit, title string) *search.PageHit {
	if i := index(hits, title); i >= 0 {
		return hits[i]
	}
	return nil
}

func sectionTitles(h *search.PageHit) []string {
	var out []string
	for _, s := range h.Sections {
		out = append(out, s.Title)
	}
	return out
}

func lower(s string) string { return strings.ToLower(s) }
