package computed

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/document"
	"quire/internal/types"
)

const petstore = `openapi: 3.0.3
info:
  title: Petstore
  version: "1.2"
  description: |-
    A sample API.

    Second paragraph.
servers:
  - url: https://petstore.example.com/v1
tags:
  - name: pets
    description: Everything about pets.
  - name: unused
paths:
  /pets:
    parameters:
      - $ref: '#/components/parameters/Trace'
    get:
      tags: [pets]
      summary: List pets
      operationId: listPets
      parameters:
        - name: limit
          in: query
          description: How many items to return.
          schema: {type: integer, format: int32, maximum: 100}
      responses:
        '200':
          description: A page of pets.
          content:
            application/json:
              schema:
                type: array
                items: {$ref: '#/components/schemas/Pet'}
        default:
          $ref: '#/components/responses/Error'
    post:
      tags: [pets]
      summary: Create a pet
      deprecated: true
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: 'schemas/pet.yaml'}
      responses:
        '201': {description: Created}
  /pets/{petId}:
    get:
      tags: [pets]
      summary: Info for a pet
      parameters:
        - name: petId
          in: path
          schema: {type: string}
      responses:
        '200':
          description: The pet.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
  /health:
    get:
      summary: Health
      responses:
        '204': {description: Up}
components:
  parameters:
    Trace:
      name: X-Trace
      in: header
      schema: {type: string}
  responses:
    Error:
      description: An error.
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
  schemas:
    Pet:
      type: object
      required: [id, name]
      properties:
        id: {type: integer, format: int64}
        name: {type: string}
        tag: {type: [string, "null"]}
        parent: {$ref: '#/components/schemas/Pet'}
        kind: {type: string, enum: [cat, dog]}
    Error:
      type: object
      properties:
        code: {type: integer}
        message: {type: string}
`

const petFile = `type: object
description: A new pet.
properties:
  name: {type: string}
  owner: {$ref: 'openapi.yaml#/components/schemas/Pet'}
required: [name]
`

// fakeSpecs serves versions from memory, counting the files read.
type fakeSpecs struct {
	specs map[string]*ent.OpenAPISpec // org/slug
	files map[string]map[string]string
	reads int
}

func (f *fakeSpecs) LatestOf(_ context.Context, org, slug string) (*ent.OpenAPISpec, *ent.OpenAPISpecVersion, error) {
	sp := f.specs[org+"/"+slug]
	if sp == nil {
		return nil, nil, apierr.NotFoundf("no %s", slug)
	}
	if sp.LastVersionID == nil {
		return sp, nil, nil
	}
	return sp, &ent.OpenAPISpecVersion{ID: *sp.LastVersionID, SpecID: sp.ID, Root: "openapi.yaml"}, nil
}

func (f *fakeSpecs) Files(_ context.Context, v *ent.OpenAPISpecVersion) (map[string]string, error) {
	f.reads++
	return f.files[v.ID], nil
}

func str(s string) *string { return &s }

func fixture() *fakeSpecs {
	return &fakeSpecs{
		specs: map[string]*ent.OpenAPISpec{
			"org1/pets":    {ID: "s1", OrganizationID: "org1", Slug: "pets", LastVersionID: str("v1")},
			"org1/pending": {ID: "s2", OrganizationID: "org1", Slug: "pending", ProcessingState: "pending"},
			"org1/broken":  {ID: "s3", OrganizationID: "org1", Slug: "broken", ProcessingState: "complete", LastProcessErrorCode: str("PARSE_ERROR")},
			"org2/other":   {ID: "s4", OrganizationID: "org2", Slug: "other", LastVersionID: str("v4")},
		},
		files: map[string]map[string]string{
			"v1": {"openapi.yaml": petstore, "schemas/pet.yaml": petFile},
			"v4": {"openapi.yaml": petstore},
		},
	}
}

func def(slug string, props map[string]any) *types.PageComputed {
	return &types.PageComputed{Type: SourceOpenAPI, Props: props,
		Dependencies: map[string]types.ComputedDependency{"spec": {Ref: document.ContentRef{Kind: document.RefOpenAPI, Spec: slug}}}}
}

// compute computes and checks that the document is one the document
// model accepts.
func compute(t *testing.T, s *Service, org string, d *types.PageComputed) *Result {
	t.Helper()
	res, err := s.Compute(context.Background(), org, d, "seed")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res.Document)
	if _, err := document.Parse(raw); err != nil {
		t.Fatalf("the computed document is not valid: %v\n%s", err, raw)
	}
	return res
}

func TestOperations(t *testing.T) {
	s := New(fixture())
	res := compute(t, s, "org1", def("pets", nil))
	var headings []string
	var ops []*document.OpenAPIOperation
	for i := range res.Document.Nodes {
		n := &res.Document.Nodes[i]
		if n.Type == document.BlockHeading1 {
			headings = append(headings, document.BlocksText([]document.Node{*n}))
		}
		if op, ok := document.OpenAPIOperationOf(n); ok {
			ops = append(ops, op)
		}
	}
	if strings.Join(headings, "|") != "pets|Other operations" {
		t.Errorf("headings %q, want the used tags then the untagged operations", headings)
	}
	if len(ops) != 4 {
		t.Fatalf("%d operations, want 4", len(ops))
	}
	list := ops[0]
	if list.Method != "get" || list.Path != "/pets" || list.Summary != "List pets" || list.OperationID != "listPets" || list.Ref.Spec != "pets" {
		t.Errorf("list: %+v", list)
	}
	if len(list.Parameters) != 2 || list.Parameters[0].Name != "X-Trace" || list.Parameters[1].Name != "limit" ||
		list.Parameters[1].Schema.Type != "integer" || list.Parameters[1].Schema.Format != "int32" {
		t.Errorf("list parameters (path item's first): %+v", list.Parameters)
	}
	if len(list.Responses) != 2 || list.Responses[0].Status != "200" || list.Responses[1].Status != "default" ||
		list.Responses[1].Description != "An error." || list.Responses[1].Content[0].Schema.Name != "Error" {
		t.Errorf("list responses: %+v", list.Responses)
	}
	pet := list.Responses[0].Content[0].Schema.Items
	if pet.Name != "Pet" || len(pet.Properties) != 5 || !pet.Properties[0].Required || pet.Properties[2].Schema.Type != "string" || !pet.Properties[2].Schema.Nullable {
		t.Errorf("Pet: %+v", pet)
	}
	if parent := pet.Properties[3].Schema; parent.Name != "Pet" || !parent.Circular || parent.Properties != nil {
		t.Errorf("the reference of Pet to itself is not cut: %+v", parent)
	}
	create := ops[1]
	if !create.Deprecated || create.RequestBody == nil || !create.RequestBody.Required {
		t.Fatalf("create: %+v", create)
	}
	body := create.RequestBody.Content[0]
	if body.MediaType != "application/json" || body.Schema.Description != "A new pet." || body.Schema.Properties[1].Schema.Name != "Pet" {
		t.Errorf("a body in another file, referring back: %+v", body.Schema)
	}
	if p := ops[2].Parameters[0]; p.Name != "petId" || !p.Required {
		t.Errorf("a path parameter is required: %+v", p)
	}
	md := document.ToMarkdown(res.Document)
	for _, want := range []string{"## `GET` `/pets`", "| `limit` | query | no | integer (int32) | How many items to return. |",
		"| 200 | A page of pets. | `application/json`: array of Pet |", "**Deprecated.**", "# pets\n\nEverything about pets."} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	// A tag by slug keeps only its operations.
	res = compute(t, s, "org1", def("pets", map[string]any{"doc": "operations", "page": "PETS"}))
	if n := countType(res.Document, document.BlockOpenAPIOperation); n != 3 {
		t.Errorf("%d operations tagged pets, want 3", n)
	}
}

func countType(d *document.Document, typ string) int {
	n := 0
	for _, b := range d.Nodes {
		if b.Type == typ {
			n++
		}
	}
	return n
}

func TestModelsAndInfo(t *testing.T) {
	f := fixture()
	s := New(f)
	res := compute(t, s, "org1", def("pets", map[string]any{"doc": "models"}))
	var names []string
	for i := range res.Document.Nodes {
		if sc, ok := document.OpenAPISchemasOf(&res.Document.Nodes[i]); ok {
			names = append(names, sc.Definitions[0].Name)
		}
	}
	if strings.Join(names, ",") != "Pet,Error" {
		t.Errorf("models %v", names)
	}
	if md := document.ToMarkdown(res.Document); !strings.Contains(md, "## Pet") || !strings.Contains(md, "| `parent` | Pet | no |") {
		t.Errorf("models markdown:\n%s", md)
	}
	res = compute(t, s, "org1", def("pets", map[string]any{"doc": "info"}))
	md := document.ToMarkdown(res.Document)
	for _, want := range []string{"# Petstore", "Version 1.2", "A sample API.\n\nSecond paragraph.", "## Servers", "petstore.example.com/v1"} {
		if !strings.Contains(md, want) {
			t.Errorf("info lacks %q:\n%s", want, md)
		}
	}
	if f.reads != 1 {
		t.Errorf("the version's files were read %d times, want once", f.reads)
	}
}

func TestEmptyStates(t *testing.T) {
	s := New(fixture())
	for _, c := range []struct {
		name string
		def  *types.PageComputed
		want string
	}{
		{"missing", def("nope", nil), `has no OpenAPI specification "nope"`},
		{"another organization's", def("other", nil), `has no OpenAPI specification "other"`},
		{"not processed yet", def("pending", nil), "has no version yet (its processing is pending)"},
		{"failed", def("broken", nil), "its processing failed (PARSE_ERROR)"},
		{"unknown type", &types.PageComputed{Type: "builtin:translation"}, `cannot compute content of type "builtin:translation"`},
		{"no dependency", &types.PageComputed{Type: SourceOpenAPI}, "names no OpenAPI specification"},
		{"unknown doc", def("pets", map[string]any{"doc": "everything"}), `props.doc "everything"`},
		{"unknown tag", def("pets", map[string]any{"page": "birds"}), `no operation tagged "birds"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := compute(t, s, "org1", c.def)
			if len(res.Document.Nodes) != 1 || res.Document.Nodes[0].Type != document.BlockHint {
				t.Fatalf("want one hint: %+v", res.Document.Nodes)
			}
			if got := document.BlocksText(res.Document.Nodes); !strings.Contains(got, c.want) {
				t.Errorf("hint %q lacks %q", got, c.want)
			}
		})
	}
}

func TestSeedFollowsTheVersion(t *testing.T) {
	f := fixture()
	s := New(f)
	a := compute(t, s, "org1", def("pets", nil))
	b := compute(t, s, "org1", def("pets", nil))
	if a.Seed != b.Seed || a.Seed == "seed" || a.Document.Nodes[0].Key != b.Document.Nodes[0].Key {
		t.Errorf("the same input gives seeds %q and %q", a.Seed, b.Seed)
	}
	f.specs["org1/pets"].LastVersionID = str("v4")
	f.files["v4"] = map[string]string{"openapi.yaml": petstore}
	c := compute(t, s, "org1", def("pets", nil))
	if c.Seed == a.Seed || c.Versions["spec"] != "v4" {
		t.Errorf("a new version keeps the seed %q", c.Seed)
	}
}

// A large specification is cut at the documented limits, and deep or
// cyclic schemas stay bounded.
func TestLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("openapi: 3.1.0\ninfo: {title: Big, version: '1'}\npaths:\n")
	for i := 0; i < MaxOperations+5; i++ {
		fmt.Fprintf(&b, "  /r%d:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/N0'}\n", i)
	}
	b.WriteString("components:\n  schemas:\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "    N%d:\n      type: object\n      properties:\n        next: {$ref: '#/components/schemas/N%d'}\n        back: {$ref: '#/components/schemas/N0'}\n", i, i+1)
	}
	f := fixture()
	f.files["v1"] = map[string]string{"openapi.yaml": b.String()}
	res := compute(t, New(f), "org1", def("pets", nil))
	if n := countType(res.Document, document.BlockOpenAPIOperation); n != MaxOperations {
		t.Errorf("%d operations, want %d", n, MaxOperations)
	}
	last := res.Document.Nodes[len(res.Document.Nodes)-1]
	if last.Type != document.BlockHint || !strings.Contains(document.BlocksText([]document.Node{last}), "more than 200 operations") {
		t.Errorf("no hint of the cut: %+v", last)
	}
	op, _ := document.OpenAPIOperationOf(&res.Document.Nodes[1])
	depth := 0
	for s := op.Responses[0].Content[0].Schema; s != nil; depth++ {
		if s.Truncated {
			break
		}
		if depth > 0 && s.Properties[1].Schema.Circular != true {
			t.Errorf("N%d.back is not cut", depth)
		}
		s = s.Properties[0].Schema
	}
	if depth != MaxSchemaDepth {
		t.Errorf("schemas nest %d deep, want %d", depth, MaxSchemaDepth)
	}
}

// The index reads the generated blocks as headings and paragraphs.
func TestSearchable(t *testing.T) {
	s := New(fixture())
	ops := compute(t, s, "org1", def("pets", nil))
	text := document.BlocksText(Searchable(ops.Document).Nodes)
	for _, want := range []string{"GET /pets", "List pets", "How many items to return.", "A page of pets."} {
		if !strings.Contains(text, want) {
			t.Errorf("searchable operations lack %q: %s", want, text)
		}
	}
	models := compute(t, s, "org1", def("pets", map[string]any{"doc": "models"}))
	if text := document.BlocksText(Searchable(models.Document).Nodes); !strings.Contains(text, "Pet") || !strings.Contains(text, "message") {
		t.Errorf("searchable models: %s", text)
	}
}
