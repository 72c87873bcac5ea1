package render

import (
	"strings"
	"testing"

	"quire/internal/document"
)

func specRef(slug string) document.ContentRef {
	return document.ContentRef{Kind: document.RefOpenAPI, Spec: slug}
}

func TestOpenAPIOperation(t *testing.T) {
	op := document.OpenAPIOperation{
		Ref: specRef("petstore"), Method: "get", Path: "/pets/{id}", Summary: "Get a pet", Description: "Returns <one> pet.",
		Tags: []string{"pets"},
		Parameters: []document.OpenAPIParameter{{Name: "id", In: "path", Required: true,
			Schema: &document.OpenAPISchema{Type: "string"}, Description: "The pet's id"}},
		RequestBody: &document.OpenAPIRequestBody{Content: []document.OpenAPIMediaType{{MediaType: "application/json",
			Schema: &document.OpenAPISchema{Type: "object", Properties: []document.OpenAPIProperty{{Name: "name", Required: true}}}}}},
		Responses: []document.OpenAPIResponse{{Status: "200", Description: "A pet",
			Content: []document.OpenAPIMediaType{{MediaType: "application/json", Schema: &document.OpenAPISchema{Name: "Pet"}}}}},
	}
	doc := docOf(document.NewBlock(document.BlockOpenAPIOperation, document.DataOf(op)))
	res, root := render(t, doc, Options{})
	sec := one(t, root, "section.openapi-operation")
	if text(one(t, sec, "span.http-method.http-get")) != "GET" || text(one(t, one(t, sec, "p.openapi-endpoint"), "code")) != "/pets/{id}" {
		t.Errorf("endpoint: %s", outer(sec))
	}
	if text(one(t, sec, "p.openapi-summary")) != "Get a pet" || !strings.Contains(text(sec), "Returns <one> pet.") {
		t.Errorf("summary: %s", outer(sec))
	}
	tables := find(sec, "table")
	if len(tables) != 3 {
		t.Fatalf("%d tables, want parameters, request body, responses: %s", len(tables), outer(sec))
	}
	if got := text(find(tables[0], "tr")[1]); got != "idpathyesstringThe pet's id" {
		t.Errorf("parameters %q", got)
	}
	if got := text(find(tables[1], "tr")[1]); got != "application/jsonobjectname*" {
		t.Errorf("request body %q", got)
	}
	if got := text(find(tables[2], "tr")[1]); got != "200A petapplication/json: Pet" {
		t.Errorf("responses %q", got)
	}
	assertSafe(t, string(res.HTML))
}

func TestOpenAPISchemas(t *testing.T) {
	s := document.OpenAPISchemas{Ref: specRef("petstore"), Schemas: []string{"Pet"}, Definitions: []document.OpenAPINamedSchema{
		{Name: "Pet", Schema: &document.OpenAPISchema{Type: "object", Description: "A pet.", Properties: []document.OpenAPIProperty{
			{Name: "tags", Schema: &document.OpenAPISchema{Type: "array", Items: &document.OpenAPISchema{Type: "string"}}}}}},
		{Name: "Id", Schema: &document.OpenAPISchema{Type: "string", Format: "uuid"}},
	}}
	_, root := render(t, docOf(document.NewBlock(document.BlockOpenAPISchemas, document.DataOf(s))), Options{})
	secs := find(root, "section.openapi-schema")
	if len(secs) != 2 {
		t.Fatalf("%d schemas: %s", len(secs), outer(root))
	}
	if text(one(t, secs[0], "h5")) != "Pet" || text(find(secs[0], "tr")[1]) != "tagsarray of stringno" {
		t.Errorf("Pet: %s", outer(secs[0]))
	}
	if !strings.Contains(text(secs[1]), "string (uuid)") {
		t.Errorf("Id: %s", outer(secs[1]))
	}
}

// TestOpenAPIPointers renders stored OpenAPI blocks, which only point into
// a specification: a link when the reader may follow it, text otherwise.
func TestOpenAPIPointers(t *testing.T) {
	ref := func(slug string) map[string]any { return specRef(slug).Map() }
	tests := []struct {
		name     string
		node     document.Node
		link     string
		contains string
	}{
		{"operation", document.NewBlock(document.BlockOpenAPIOperation, map[string]any{"ref": ref("petstore"), "method": "post", "path": "/pets"}),
			"/openapi/petstore.yaml", "POST /pets"},
		{"hidden spec", document.NewBlock(document.BlockOpenAPIOperation, map[string]any{"ref": ref("internal"), "method": "post", "path": "/pets"}),
			"", "internal"},
		{"schemas", document.NewBlock(document.BlockOpenAPISchemas, map[string]any{"ref": ref("petstore"), "schemas": []any{"Pet", "Order"}}),
			"/openapi/petstore.yaml", "Pet, Order"},
		{"webhook", document.NewBlock(document.BlockOpenAPIWebhook, map[string]any{"ref": ref("petstore")}), "/openapi/petstore.yaml", "petstore"},
		{"swagger file", document.NewBlock(document.BlockSwagger, map[string]any{"ref": map[string]any{"kind": "file", "file": "f1"}}),
			"/files/f1/logo.png", "logo.png"},
		{"swagger url", document.NewBlock(document.BlockSwagger, map[string]any{"ref": urlRef("javascript:alert(1)")}), "", "javascript:alert(1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, root := render(t, docOf(tt.node), Options{})
			links := find(root, "a")
			switch {
			case tt.link == "" && len(links) != 0:
				t.Errorf("link to a specification the reader may not see: %s", res.HTML)
			case tt.link != "" && (len(links) != 1 || attr(links[0], "href") != tt.link):
				t.Errorf("want a link to %s: %s", tt.link, res.HTML)
			}
			if got := strings.Join(strings.Fields(text(root)), " "); !strings.Contains(got, tt.contains) {
				t.Errorf("text %q lacks %q", got, tt.contains)
			}
		})
	}
}
