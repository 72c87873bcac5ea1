package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/codegen"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"quire/graph/generated"
)

func TestInlinePluginMarksOnlyInlineObjects(t *testing.T) {
	inline := &codegen.Object{Definition: &ast.Definition{Name: "SiteSpace"}}
	plain := &codegen.Object{Definition: &ast.Definition{Name: "Organization"}}
	p := inlinePlugin{types: map[string]bool{"SiteSpace": true}}
	if err := p.GenerateCode(&codegen.Data{Objects: codegen.Objects{inline, plain}}); err != nil {
		t.Fatal(err)
	}
	if !inline.DisableConcurrency {
		t.Error("an @inline object keeps concurrent fields")
	}
	if plain.DisableConcurrency {
		t.Error("an object without @inline lost its concurrent fields")
	}
	p = inlinePlugin{types: map[string]bool{"Nothing": true}}
	if err := p.GenerateCode(&codegen.Data{Objects: codegen.Objects{plain}}); err == nil {
		t.Error("a mark on a type that is not an object was ignored")
	}
}

func TestStripInlineRemovesTheDirectiveAndReturnsTheMarks(t *testing.T) {
	a := &ast.Source{Name: "a.graphql", Input: `"Mentions @inline in a description: it stays."
type Query { a: A }

"""
A mark, with a description.
"""
directive @inline on OBJECT

# A comment about @inline stays too.
type A implements N @inline {
  id: ID! @deprecated(reason: "no @inline here")
}
interface N { id: ID! }
`}
	b := &ast.Source{Name: "b.graphql", Input: "type B @inline { x: Int }\nextend type A @inline { y: Int }\nextend type Query { b: B }\n"}
	marked, err := stripInline([]*ast.Source{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if len(marked) != 2 || !marked["A"] || !marked["B"] {
		t.Errorf("marked %v, want A and B", marked)
	}
	wantA := `"Mentions @inline in a description: it stays."
type Query { a: A }

# A comment about @inline stays too.
type A implements N {
  id: ID! @deprecated(reason: "no @inline here")
}
interface N { id: ID! }
`
	if a.Input != wantA {
		t.Errorf("a.graphql after:\n%s\nwant:\n%s", a.Input, wantA)
	}
	if want := "type B { x: Int }\nextend type A { y: Int }\nextend type Query { b: B }\n"; b.Input != want {
		t.Errorf("b.graphql after:\n%q\nwant\n%q", b.Input, want)
	}
	s, err := gqlparser.LoadSchema(a, b)
	if err != nil {
		t.Fatalf("the stripped sources are not a schema: %v", err)
	}
	if s.Directives[inlineDirective] != nil {
		t.Error("the stripped schema still defines @inline")
	}

	for _, bad := range []string{
		"directive @inline on OBJECT | FIELD_DEFINITION\ntype Q { f: Int @inline }",
		"directive @inline on OBJECT | INTERFACE\ninterface I @inline { f: Int }",
	} {
		if _, err := stripInline([]*ast.Source{{Name: "bad.graphql", Input: bad}}); err == nil {
			t.Errorf("no error for a mark on something other than an object type:\n%s", bad)
		}
	}
}

// The committed execution code must be what the plugin generates: an
// @inline object's resolver fields are not dispatched to goroutines.
func TestGeneratedCodeResolvesInlineObjectsInline(t *testing.T) {
	files, err := filepath.Glob("../../graph/generated/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no generated code: %v", err)
	}
	var src []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src = append(src, b...)
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

// The schema the generated code serves is the committed published schema,
// and it carries no @inline: the marks are for the code generator only.
func TestGeneratedSchemaIsThePublishedSchema(t *testing.T) {
	s := generated.NewExecutableSchema(generated.Config{}).Schema()
	if s.Directives[inlineDirective] != nil {
		t.Errorf("the served schema defines @%s", inlineDirective)
	}
	got := printPublished(s)
	want, err := os.ReadFile(filepath.Join("../..", publishedFile))
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("the served schema differs from %s (run make generate) at line %d:\n got %q\nwant %q", publishedFile, i+1, g, w)
			}
		}
	}
	if strings.Contains(got, "@"+inlineDirective) {
		t.Errorf("%s mentions @%s", publishedFile, inlineDirective)
	}
}
