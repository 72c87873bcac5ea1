package graph_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"quire/internal/openapispec"
	"quire/internal/testing/testenv"
)

// cpSpec is the specification the computed page tests read: tagged
// operations, references, a schema referring to itself.
func cpSpec(summary string) string {
	return `openapi: 3.0.3
info: {title: Petstore, version: "1.0", description: Pets as a service.}
tags:
  - {name: pets, description: Everything about pets.}
paths:
  /pets:
    get:
      tags: [pets]
      summary: ` + summary + `
      parameters:
        - {name: limit, in: query, description: How many., schema: {type: integer}}
      responses:
        "200":
          description: The pets.
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/Pet"}}
    post:
      tags: [pets]
      summary: Create a pet
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Pet"}
      responses:
        "201": {description: Created.}
components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: {type: string}
        parent: {$ref: "#/components/schemas/Pet"}
`
}

// cpPutSpec sets an organization's specification from text and waits
// for its processing.
func cpPutSpec(t *testing.T, e *testenv.Env, team *testenv.Team, slug, text string) {
	t.Helper()
	r := e.Do(team.Admin.Token, "PUT", "/v1/orgs/"+team.Org.ID+"/openapi/"+slug, map[string]any{"source": map[string]any{"text": text}})
	if r.Status != 200 && r.Status != 201 {
		t.Fatalf("put spec %s: %d %s", slug, r.Status, r.Body)
	}
	in, err := e.Server.Jobs().Latest(context.Background(), openapispec.Subject(cxStr(r.JSON()["id"])))
	if err != nil {
		t.Fatalf("job of %s: %v", slug, err)
	}
	e.WaitJob(in.ID)
}

func cpDef(slug string, props map[string]any) map[string]any {
	return map[string]any{"type": "builtin:openapi", "props": props,
		"dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": slug}}}}
}

const cpRead = `query($id: ID!) { space(id: $id) { content { pages { id title computedSeed markdown
  stored: document(computed: false) { nodes { __typename } }
  document { nodes { __typename
    ... on DocumentBlock { type }
    ... on DocumentOpenAPIOperation { type key spec method path summary deprecated tags
      parameters { name in required description schema { type } }
      requestBody { required content { mediaType schema { name properties { name required schema { name circular } } } } }
      responses { status description content { mediaType schema { type items { name } } } } }
    ... on DocumentOpenAPISchemas { type spec schemas { name schema { type properties { name required schema { name circular type } } } } } } } } } } }`

// cpPages reads a space's computed pages by title.
func cpPages(t *testing.T, e *testenv.Env, token, space string) map[string]map[string]any {
	t.Helper()
	d := cxOK(t, e.GraphQL(token, cpRead, map[string]any{"id": space}))
	out := map[string]map[string]any{}
	for _, p := range cxList(testenv.Path(d, "space", "content", "pages")) {
		out[cxStr(testenv.Path(p, "title"))] = p.(map[string]any)
	}
	return out
}

// cpSpace makes a space of computed pages, one per definition, merged.
func cpSpace(t *testing.T, e *testenv.Env, team *testenv.Team, defs map[string]map[string]any) (string, map[string]string) {
	t.Helper()
	space := cxSpace(t, e, team, "API")
	cr := cxStr(cxNewCR(t, e, team.Editor.Token, space, "Reference")["id"])
	ids := map[string]string{}
	for _, title := range []string{"Operations", "Models", "Info", "Missing", "Foreign"} {
		if def, ok := defs[title]; ok {
			ids[title] = cxStr(testenv.Path(cxNewPage(t, e, team.Editor.Token, map[string]any{
				"changeRequest": cr, "title": title, "computed": def,
			}), "page", "id"))
		}
	}
	if m := cxMerge(t, e, team.Admin.Token, cr); m["result"] != "merge" {
		t.Fatalf("merge: %v", m)
	}
	return space, ids
}

// TestComputedPages reads the API reference that computed pages generate
// from their organization's specification, typed node by node, as
// Markdown and as stored; a new version of the specification changes the
// document and the seed; a specification of another organization or none
// at all computes to a hint.
func TestComputedPages(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		e.StartJobs()
		team := e.NewTeam()
		other := &testenv.Team{Org: e.Org("Other")}
		u, tok := e.User("admin@other.test")
		e.Member(other.Org, u, "admin")
		other.Admin = testenv.Actor{User: u, Token: tok}
		cpPutSpec(t, e, team, "petstore", cpSpec("List pets"))
		cpPutSpec(t, e, other, "foreign", cpSpec("Not yours"))
		space, _ := cpSpace(t, e, team, map[string]map[string]any{
			"Operations": cpDef("petstore", map[string]any{"doc": "operations"}),
			"Models":     cpDef("petstore", map[string]any{"doc": "models"}),
			"Info":       cpDef("petstore", map[string]any{"doc": "info"}),
			"Missing":    cpDef("nope", nil),
			"Foreign":    cpDef("foreign", nil),
		})
		pages := cpPages(t, e, team.Reader.Token, space)

		ops := pages["Operations"]
		nodes := cxList(testenv.Path(ops, "document", "nodes"))
		if len(nodes) != 4 || testenv.Path(nodes[0], "type") != "heading_1" || testenv.Path(nodes[1], "type") != "paragraph" {
			t.Fatalf("operations document: %v", nodes)
		}
		list, create := nodes[2].(map[string]any), nodes[3].(map[string]any)
		if list["__typename"] != "DocumentOpenAPIOperation" || list["type"] != "openapi_operation" || list["spec"] != "petstore" ||
			list["method"] != "get" || list["path"] != "/pets" || list["summary"] != "List pets" || list["deprecated"] != false ||
			testenv.Path(list, "tags", 0) != "pets" || cxStr(list["key"]) == "" {
			t.Fatalf("list operation: %v", list)
		}
		if testenv.Path(list, "parameters", 0, "name") != "limit" || testenv.Path(list, "parameters", 0, "in") != "query" ||
			testenv.Path(list, "parameters", 0, "required") != false || testenv.Path(list, "parameters", 0, "schema", "type") != "integer" ||
			testenv.Path(list, "requestBody") != nil {
			t.Fatalf("list parameters: %v", list)
		}
		if testenv.Path(list, "responses", 0, "status") != "200" || testenv.Path(list, "responses", 0, "content", 0, "mediaType") != "application/json" ||
			testenv.Path(list, "responses", 0, "content", 0, "schema", "type") != "array" ||
			testenv.Path(list, "responses", 0, "content", 0, "schema", "items", "name") != "Pet" {
			t.Fatalf("list responses: %v", list["responses"])
		}
		body := testenv.Path(create, "requestBody", "content", 0, "schema")
		if testenv.Path(create, "requestBody", "required") != true || testenv.Path(body, "name") != "Pet" ||
			testenv.Path(body, "properties", 0, "required") != true || testenv.Path(body, "properties", 1, "schema", "circular") != true {
			t.Fatalf("create body: %v", body)
		}
		if md := cxStr(ops["markdown"]); !strings.Contains(md, "# pets") || !strings.Contains(md, "## `GET` `/pets`") ||
			!strings.Contains(md, "| `limit` | query | no | integer | How many. |") || !strings.Contains(md, "### Request body") {
			t.Fatalf("operations markdown:\n%s", md)
		}
		if n := cxList(testenv.Path(ops, "stored", "nodes")); len(n) != 0 {
			t.Fatalf("computed: false gives the page as stored, got %v", n)
		}
		models := cxList(testenv.Path(pages["Models"], "document", "nodes"))
		if len(models) != 1 || testenv.Path(models[0], "__typename") != "DocumentOpenAPISchemas" ||
			testenv.Path(models[0], "schemas", 0, "name") != "Pet" || testenv.Path(models[0], "schemas", 0, "schema", "properties", 1, "schema", "circular") != true {
			t.Fatalf("models: %v", models)
		}
		if md := cxStr(pages["Info"]["markdown"]); !strings.Contains(md, "# Petstore") || !strings.Contains(md, "Version 1.0") || !strings.Contains(md, "Pets as a service.") {
			t.Fatalf("info markdown:\n%s", md)
		}
		// The organization's own specifications only: another's of the
		// same organization-less name is as missing as no specification.
		for title, want := range map[string]string{"Missing": `no OpenAPI specification "nope"`, "Foreign": `no OpenAPI specification "foreign"`} {
			n := cxList(testenv.Path(pages[title], "document", "nodes"))
			if len(n) != 1 || testenv.Path(n[0], "type") != "hint" || !strings.Contains(cxStr(pages[title]["markdown"]), want) {
				t.Fatalf("%s: %v\n%s", title, n, pages[title]["markdown"])
			}
		}

		// A new version: the document follows, and so does the seed.
		cpPutSpec(t, e, team, "petstore", cpSpec("List all the pets"))
		after := cpPages(t, e, team.Reader.Token, space)
		if got := testenv.Path(after["Operations"], "document", "nodes", 2, "summary"); got != "List all the pets" {
			t.Fatalf("after a new version: summary %v", got)
		}
		if s := cxStr(after["Operations"]["computedSeed"]); s == "" || s == cxStr(ops["computedSeed"]) {
			t.Fatalf("seed %q did not change with the version (was %q)", s, ops["computedSeed"])
		}
		if after["Missing"]["computedSeed"] != pages["Missing"]["computedSeed"] {
			t.Fatalf("the seed of a page whose input did not change moved")
		}
	})
}

// TestComputedPagesREST reads a computed page through REST: its generated
// document by default, as stored with computed=false, and as Markdown.
func TestComputedPagesREST(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		e.StartJobs()
		team := e.NewTeam()
		cpPutSpec(t, e, team, "petstore", cpSpec("List pets"))
		space, ids := cpSpace(t, e, team, map[string]map[string]any{"Operations": cpDef("petstore", nil)})
		path := "/v1/spaces/" + space + "/content/page/" + ids["Operations"]
		get := func(q string) map[string]any {
			t.Helper()
			r := e.Do(team.Reader.Token, "GET", path+q, nil)
			if r.Status != 200 {
				t.Fatalf("GET %s: %d %s", q, r.Status, r.Body)
			}
			return r.JSON()
		}
		p := get("")
		op := testenv.Path(p, "document", "nodes", 2)
		if testenv.Path(op, "type") != "openapi-operation" || testenv.Path(op, "data", "method") != "get" ||
			testenv.Path(op, "data", "path") != "/pets" || testenv.Path(op, "data", "ref", "spec") != "petstore" ||
			testenv.Path(op, "data", "responses", 0, "status") != "200" || cxStr(p["computedSeed"]) == "" {
			t.Fatalf("page: %v", p)
		}
		if n := cxList(testenv.Path(get("?computed=false"), "document", "nodes")); len(n) != 0 {
			t.Fatalf("computed=false: %v", n)
		}
		if md := cxStr(get("?format=markdown")["markdown"]); !strings.Contains(md, "## `POST` `/pets`") {
			t.Fatalf("markdown:\n%s", md)
		}
		r := e.DoUnchecked(team.Reader.Token, "GET", path+"?computed=maybe", nil)
		if r.Status != 400 {
			t.Fatalf("computed=maybe: %d %s", r.Status, r.Body)
		}

		// A source computed without a page (getComputedDocument).
		compute := "/v1/spaces/" + space + "/content/computed/document"
		r = e.Do(team.Reader.Token, "POST", compute, map[string]any{"source": cpDef("petstore", map[string]any{"doc": "models"}), "seed": "abc"})
		if r.Status != 200 || testenv.Path(r.JSON(), "nodes", 0, "type") != "openapi-schemas" ||
			testenv.Path(r.JSON(), "nodes", 0, "data", "definitions", 0, "name") != "Pet" {
			t.Fatalf("computed document: %d %s", r.Status, r.Body)
		}
		again := e.Do(team.Reader.Token, "POST", compute, map[string]any{"source": cpDef("petstore", map[string]any{"doc": "models"}), "seed": "abc"})
		if testenv.Path(again.JSON(), "nodes", 0, "key") != testenv.Path(r.JSON(), "nodes", 0, "key") {
			t.Fatalf("the same seed gives other keys: %s / %s", r.Body, again.Body)
		}
		for _, c := range []struct {
			body         map[string]any
			status       int
			field, token string
			space        string
		}{
			{map[string]any{"seed": "s"}, 400, "source", team.Reader.Token, space},
			{map[string]any{"source": map[string]any{"props": map[string]any{}}, "seed": "s"}, 400, "source.type", team.Reader.Token, space},
			{map[string]any{"source": map[string]any{"type": "builtin:openapi", "dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "page", "spec": "x"}}}}, "seed": "s"}, 400, "source.dependencies.spec.ref.kind", team.Reader.Token, space},
			{map[string]any{"source": cpDef("petstore", nil), "seed": strings.Repeat("s", 257)}, 400, "seed", team.Reader.Token, space},
			{map[string]any{"source": cpDef("petstore", nil), "seed": "s"}, 404, "", team.Reader.Token, "nope"},
		} {
			r := e.DoUnchecked(c.token, "POST", "/v1/spaces/"+c.space+"/content/computed/document", c.body)
			msg, _ := testenv.Path(r.JSON(), "error", "message").(string)
			if r.Status != c.status || (c.field != "" && !strings.Contains(msg, c.field)) {
				t.Errorf("%v: %d %s, want %d on %s", c.body, r.Status, r.Body, c.status, c.field)
			}
		}
	})
}

// TestComputedPagesStatements: the read of many computed pages sends as
// many statements as the read of a few.
func TestComputedPagesStatements(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		e.StartJobs()
		team := e.NewTeam()
		cpPutSpec(t, e, team, "petstore", cpSpec("List pets"))
		cpPutSpec(t, e, team, "second", cpSpec("Second"))
		build := func(n int) string {
			space := cxSpace(t, e, team, fmt.Sprintf("API %d", n))
			cr := cxStr(cxNewCR(t, e, team.Editor.Token, space, "Reference")["id"])
			for i := 0; i < n; i++ {
				slug := []string{"petstore", "second"}[i%2]
				cxNewPage(t, e, team.Editor.Token, map[string]any{"changeRequest": cr, "title": fmt.Sprintf("P%d", i),
					"computed": cpDef(slug, map[string]any{"doc": []string{"operations", "models", "info"}[i%3]})})
			}
			cxMerge(t, e, team.Admin.Token, cr)
			return space
		}
		few, many := build(2), build(8)
		read := func(space string, n int) func() {
			return func() {
				d := cxOK(t, e.GraphQL(team.Reader.Token, cpRead, map[string]any{"id": space}))
				if got := len(cxList(testenv.Path(d, "space", "content", "pages"))); got != n {
					t.Fatalf("%d pages, want %d", got, n)
				}
			}
		}
		least := leastStatements(e, read(few, 2), read(many, 8))
		t.Logf("statements: 2 computed pages → %d, 8 → %d", least[0], least[1])
		if least[0] != least[1] {
			t.Errorf("statements grow with computed pages: 2 → %d, 8 → %d", least[0], least[1])
		}
	})
}

// cpSearch lists the titles of the pages a space search finds.
func cpSearch(t *testing.T, e *testenv.Env, token, space, query string) []string {
	t.Helper()
	r := e.Do(token, "GET", "/v1/spaces/"+space+"/search?query="+query, nil)
	if r.Status != 200 {
		t.Fatalf("search %q: %d %s", query, r.Status, r.Body)
	}
	var out []string
	for _, it := range cxList(r.JSON()["items"]) {
		out = append(out, cxStr(testenv.Path(it, "title")))
	}
	return out
}

// TestComputedPagesSearch: a computed page is found by the text it
// generates; a new version of its specification marks the space's index
// for the catch-up job, which indexes the new text.
func TestComputedPagesSearch(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		e.StartJobs()
		team := e.NewTeam()
		cpPutSpec(t, e, team, "petstore", cpSpec("Enumerate hamsters"))
		space, _ := cpSpace(t, e, team, map[string]map[string]any{"Operations": cpDef("petstore", nil)})
		if got := cpSearch(t, e, team.Reader.Token, space, "hamsters"); len(got) != 1 || got[0] != "Operations" {
			t.Fatalf("search for generated text: %v", got)
		}
		cpPutSpec(t, e, team, "petstore", cpSpec("Enumerate gerbils"))
		stale, err := e.Server.Resolver().Search.Stale(context.Background(), 100)
		if err != nil || len(stale) != 1 || stale[0] != space {
			t.Fatalf("stale after a new version: %v %v", stale, err)
		}
		if err := e.Server.Resolver().Content.SearchCatchUp(context.Background(), cpNoRun{}); err != nil {
			t.Fatal(err)
		}
		if got := cpSearch(t, e, team.Reader.Token, space, "gerbils"); len(got) != 1 || got[0] != "Operations" {
			t.Fatalf("search after the catch-up: %v", got)
		}
		if got := cpSearch(t, e, team.Reader.Token, space, "hamsters"); len(got) != 0 {
			t.Fatalf("the old text is still found: %v", got)
		}
	})
}

type cpNoRun struct{}

func (cpNoRun) ID() string                                      { return "" }
func (cpNoRun) Attempt() int                                    { return 1 }
func (cpNoRun) MaxAttempts() int                                { return 1 }
func (cpNoRun) Args(any) error                                  { return nil }
func (cpNoRun) Progress(context.Context, float64, string) error { return nil }
