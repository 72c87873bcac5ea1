package main

import (
	"os"
	"regexp"
	"testing"

	"github.com/99designs/gqlgen/codegen"
	"github.com/vektah/gqlparser/v2/ast"
)

func TestInlinePluginMarksOnlyInlineObjects(t *testing.T) {
	inline := &codegen.Object{Definition: &ast.Definition{Name: "SiteSpace", Directives: ast.DirectiveList{{Name: "inline"}}}}
	plain := &codegen.Object{Definition: &ast.Definition{Name: "Organization"}}
	if err := (inlinePlugin{}).GenerateCode(&codegen.Data{Objects: codegen.Objects{inline, plain}}); err != nil {
		t.Fatal(err)
	}
	if !inline.DisableConcurrency {
		t.Error("an @inline object keeps concurrent fields")
	}
	if plain.DisableConcurrency {
		t.Error("an object without @inline lost its concurrent fields")
	}
}

// The committed execution code must be what the plugin generates: an
// @inline object's resolver fields are not dispatched to goroutines.
func TestGeneratedCodeResolvesInlineObjectsInline(t *testing.T) {
	src, err := os.ReadFile("../../graph/generated/generated.go")
	if err != nil {
		t.Fatal(err)
	}
	for obj, inline := range map[string]bool{"SiteSpace": true, "SiteSection": true, "Space": true, "Organization": false, "Site": true} {
		body := regexp.MustCompile(`(?s)\nfunc \(ec \*executionContext\) _` + obj + `\(ctx context\.Context, sel ast\.SelectionSet, obj \*ent\.` + obj + `\) graphql\.Marshaler \{.*?\n}\n`).Find(src)
		if body == nil {
			t.Fatalf("no _%s in the generated code", obj)
		}
		concurrent := regexp.MustCompile(`out\.Concurrently\(`).Match(body)
		if concurrent == inline {
			t.Errorf("_%s: dispatches fields to goroutines = %v, want %v", obj, concurrent, !inline)
		}
	}
}
