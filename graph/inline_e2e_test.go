package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"sort"
	"sync"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"quire/internal/loaders"
	"quire/internal/testing/testenv"
)

// inlineTypes reads the object types marked @inline in the SDL files that
// gqlgen.yml lists.
func inlineTypes(t *testing.T) map[string]bool {
	t.Helper()
	cfg, err := os.ReadFile("../gqlgen.yml")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  - (\S+\.graphql)$`).FindAllSubmatch(cfg, -1) {
		name := "../" + string(m[1])
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := parser.ParseSchema(&ast.Source{Name: name, Input: string(src)})
		if err != nil {
			t.Fatal(err)
		}
		for _, defs := range []ast.DefinitionList{doc.Definitions, doc.Extensions} {
			for _, d := range defs {
				if d.Directives.ForName("inline") != nil {
					out[d.Name] = true
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no type is marked @inline")
	}
	return out
}

// The fields of an @inline object resolve one after the other: a field that
// loads what the object's read did not warm waits a batch window (1 ms)
// after the windows of the fields before it, for every object of a list
// that reaches it first. Representative nested reads must wait on no window
// from a field of an @inline type.
func TestGraphQLInlineTypesWaitOnNoColdLoad(t *testing.T) {
	inline := inlineTypes(t)
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		var mu sync.Mutex
		cold := map[string]int{}
		hook := func(ctx context.Context) {
			fc := graphql.GetFieldContext(ctx)
			if fc == nil || !inline[fc.Object] {
				return
			}
			mu.Lock()
			cold[fc.Object+"."+fc.Field.Name]++
			mu.Unlock()
		}
		hookColdLoads(e, hook)

		team := e.NewTeam()
		site := sxBuild(t, e, team, "Inline", 3, 3, "public")
		queries := []struct {
			name, query string
			vars        map[string]any
			check       func(d map[string]any) bool
		}{
			{"published site",
				`query($id: ID!) { site(id: $id) { id title organization { id title } sections(first: 50) { nodes { id title path siteSpaces(first: 100) { nodes { id path space { id title visibility permissions { edit } urls { app } organization { id } } } } } } } }`,
				map[string]any{"id": site.ID},
				func(d map[string]any) bool {
					return testenv.Path(d, "site", "sections", "nodes", 2, "siteSpaces", "nodes", 2, "space", "organization", "id") == team.Org.ID
				}},
			{"organization collections spaces",
				`query($id: ID!) { organization(id: $id) { id title collections(first: 50) { nodes { id title spaces(first: 100) { nodes { id title visibility permissions { edit } urls { app } organization { id } parent { id } } } } } } }`,
				map[string]any{"id": team.Org.ID},
				func(d map[string]any) bool {
					for _, c := range testenv.Path(d, "organization", "collections", "nodes").([]any) {
						if testenv.Path(c, "spaces", "nodes", 2, "parent", "id") == testenv.Path(c, "id") {
							return true
						}
					}
					return false
				}},
			{"site spaces with the collections of their spaces",
				`query($id: ID!) { site(id: $id) { allSiteSpaces(first: 100) { nodes { id path space { id title parent { id title } } } } } }`,
				map[string]any{"id": site.ID},
				func(d map[string]any) bool {
					return testenv.Path(d, "site", "allSiteSpaces", "nodes", 8, "space", "parent", "title") == "Inline C2"
				}},
		}
		for _, q := range queries {
			for _, who := range []struct {
				name  string
				actor testenv.Actor
			}{{"admin", team.Admin}, {"reader", team.Reader}} {
				t.Run(q.name+"/"+who.name, func(t *testing.T) {
					mu.Lock()
					clear(cold)
					mu.Unlock()
					d := gqlOK(t, e.GraphQL(who.actor.Token, q.query, q.vars))
					if !q.check(d) {
						t.Fatalf("unexpected answer: %v", d)
					}
					mu.Lock()
					defer mu.Unlock()
					var waits []string
					for f, n := range cold {
						waits = append(waits, fmt.Sprintf("%s (%d loads)", f, n))
					}
					sort.Strings(waits)
					for _, w := range waits {
						t.Errorf("%s waits for a batch window its object's read did not warm", w)
					}
				})
			}
		}
	})
}

// hookColdLoads calls hook for every load of e's requests that waits for
// a batch window.
func hookColdLoads(e *testenv.Env, hook func(context.Context)) {
	server := e.HTTP.Config.Handler
	e.HTTP.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		server.ServeHTTP(w, r.WithContext(loaders.WithColdLoadHook(r.Context(), hook)))
	})
}

// A root field that names one space or one site loads it at once: the
// reads it needs wait on no batch window.
func TestGraphQLRootFieldsWaitOnNoWindow(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		var mu sync.Mutex
		var cold []string
		hook := func(ctx context.Context) {
			if fc := graphql.GetFieldContext(ctx); fc != nil && fc.Object == "Query" {
				mu.Lock()
				cold = append(cold, fc.Field.Name)
				mu.Unlock()
			}
		}
		hookColdLoads(e, hook)
		team := e.NewTeam()
		site := sxBuild(t, e, team, "Root", 1, 1, "public")
		sp := sxStr(sxDo(t, e, team.Admin.Token, "POST", "/v1/orgs/"+team.Org.ID+"/spaces", map[string]any{"title": "Root space"}, http.StatusCreated)["id"])
		for _, who := range []struct {
			name  string
			actor testenv.Actor
		}{{"admin", team.Admin}, {"reader", team.Reader}} {
			for _, q := range []struct{ field, id string }{{"space", sp}, {"site", site.ID}} {
				mu.Lock()
				cold = nil
				mu.Unlock()
				query := fmt.Sprintf(`query($id: ID!) { %s(id: $id) { id title } }`, q.field)
				d := gqlOK(t, e.GraphQL(who.actor.Token, query, map[string]any{"id": q.id}))
				if got := testenv.Path(d, q.field, "id"); got != q.id {
					t.Fatalf("%s as %s: id %v, want %s", q.field, who.name, got, q.id)
				}
				mu.Lock()
				if len(cold) > 0 {
					t.Errorf("%s as %s: loads waited for a batch window: %v", q.field, who.name, cold)
				}
				mu.Unlock()
			}
		}
	})
}
