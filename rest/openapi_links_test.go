package rest_test

import (
	"context"
	"testing"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

// References to OpenAPI specifications (links, and the OpenAPI blocks of
// a document) resolve to the specification of the space's organization:
// ok when it exists and the caller may see it, broken otherwise; the
// api-reference template's spec must name one.
func TestOpenAPISpecReferences(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := newSpecFx(t, e)
		spec := f.do(t, "POST", f.base(), map[string]any{"slug": "petstore", "source": textSource(tinySpec)}, 201)
		// The other organization has a specification of the same slug
		// as the missing one: it does not count.
		if r := e.Do(f.team.Outsider.Token, "POST", "/v1/orgs/"+f.team.Other.ID+"/openapi", map[string]any{"slug": "elsewhere", "source": textSource(tinySpec)}); r.Status != 201 {
			t.Fatalf("other org spec: %d %s", r.Status, r.Body)
		}
		space := f.do(t, "POST", "/v1/orgs/"+f.org+"/spaces", map[string]any{"title": "API docs"}, 201)
		sid := specStr(space, "id")
		doc, err := document.Parse([]byte(`{"object":"document","data":{},"nodes":[
			{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"See ","marks":[]}]},
				{"object":"inline","type":"link","data":{"ref":{"kind":"openapi","spec":"petstore"}},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"the API","marks":[]}]}]},
				{"object":"inline","type":"link","data":{"ref":{"kind":"openapi","spec":"elsewhere"}},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"another","marks":[]}]}]}]},
			{"object":"block","type":"openapi-operation","isVoid":true,"data":{"ref":{"kind":"openapi","spec":"petstore"},"path":"/pets","method":"get"}},
			{"object":"block","type":"openapi-schemas","isVoid":true,"data":{"ref":{"kind":"openapi","spec":"missing"},"schemas":["Pet"]}}]}`))
		if err != nil {
			t.Fatal(err)
		}
		ctx := jobs.NewContext(context.Background(), e.Client(), f.team.Admin.User)
		res, err := e.Server.Resolver().Content.EditSpace(ctx, sid, &content.CreatePage{Title: "Reference", Document: doc})
		if err != nil {
			t.Fatalf("create page: %v", err)
		}
		page := res.IDs[0]

		report := func(tok string) map[string]any {
			t.Helper()
			r := e.Do(tok, "GET", "/v1/spaces/"+sid+"/links", nil)
			if r.Status != 200 {
				t.Fatalf("links: %d %s", r.Status, r.Body)
			}
			return r.JSON()
		}
		byTarget := func(rep map[string]any) map[string]map[string]any {
			out := map[string]map[string]any{}
			for _, it := range rep["items"].([]any) {
				m := it.(map[string]any)
				out[specStr(m, "target", "spec")] = m
			}
			return out
		}
		rep := report(f.team.Reader.Token)
		items := byTarget(rep)
		pet := items["petstore"]
		if pet["status"] != "ok" || pet["relation"] != "dependsOn" || specStr(pet, "targetReference", "kind") != "openapi" ||
			specStr(pet, "targetReference", "openAPISpec", "id") != specStr(spec, "id") || specStr(pet, "targetReference", "openAPISpec", "object") != "openapi-spec" ||
			specStr(pet, "targetReference", "organization", "id") != f.org || specStr(pet, "locationReferences", 0, "page", "id") != page {
			t.Errorf("petstore: %v", pet)
		}
		for _, slug := range []string{"elsewhere", "missing"} {
			if it := items[slug]; it["status"] != "broken" || it["targetReference"] != nil {
				t.Errorf("%s: %v", slug, it)
			}
		}
		if testenv.Path(rep, "stats", "broken", "total") != 2.0 {
			t.Errorf("stats: %v", rep["stats"])
		}

		// The same through GraphQL, with the specification resolved.
		q := `query($id: ID!) { space(id: $id) { content { links { items { status target openAPISpec { id slug } } } } } }`
		g := e.GraphQL(f.team.Reader.Token, q, map[string]any{"id": sid})
		if len(g.Errors) > 0 {
			t.Fatalf("graphql: %s", g.Raw)
		}
		seen := 0
		for _, it := range testenv.Path(g.Data, "space", "content", "links", "items").([]any) {
			m := it.(map[string]any)
			switch specStr(m, "target", "spec") {
			case "petstore":
				seen++
				if m["status"] != "ok" || specStr(m, "openAPISpec", "slug") != "petstore" {
					t.Errorf("graphql petstore: %v", m)
				}
			case "missing", "elsewhere":
				if m["status"] != "broken" || m["openAPISpec"] != nil {
					t.Errorf("graphql broken: %v", m)
				}
			}
		}
		if seen != 2 {
			t.Errorf("%d references to petstore, want the link and the block", seen)
		}

		// The api-reference template needs an existing specification.
		tpl := func(slug string) *testenv.Response {
			return e.Do(f.tok, "POST", "/v1/spaces/"+sid+"/content/template", map[string]any{"id": "api-reference",
				"params": map[string]any{"contentRefs": map[string]any{"spec": map[string]any{"kind": "openapi", "spec": slug}}}})
		}
		wantErr(t, tpl("missing"), 400, `params.contentRefs.spec: no matching OpenAPI specification found for slug "missing"`, "template with a missing spec")
		wantErr(t, tpl("elsewhere"), 400, "params.contentRefs.spec", "template with another organization's spec")
		if r := tpl("petstore"); r.Status != 201 {
			t.Errorf("template with petstore: %d %s", r.Status, r.Body)
		}

		// A deleted specification: its references become broken.
		f.do(t, "DELETE", f.path("petstore"), nil, 205)
		for _, it := range report(f.tok)["items"].([]any) {
			if m := it.(map[string]any); m["status"] != "broken" && specStr(m, "target", "kind") == "openapi" {
				t.Errorf("after delete: %v", m)
			}
		}
	})
}
