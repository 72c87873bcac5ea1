package gqlguard

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"quire/graph/generated"
)

// overlapTestSDL has what the overlapping-fields rule looks at: arguments,
// aliases, abstract types whose members disagree on a field's type, and
// lists.
const overlapTestSDL = `
type Query { dog: Dog  pet: Pet  human: Human }
interface Pet { name: String }
enum DogCommand { SIT HEEL DOWN }
type Dog implements Pet {
  name: String
  nickname: String
  volume: Int
  doesKnowCommand(dogCommand: DogCommand): Boolean
  friend: Dog
  owner(surname: Boolean): Human
  pets: [Pet]
}
type Cat implements Pet {
  name: String
  volume: String
  friend: Cat
  owner(surname: Boolean): Human
}
type Human {
  name(surname: Boolean): String
  iq: Int!
  pets: [Pet]
  relatives: [Human]
}
`

func overlapTestSchema(t testing.TB) *ast.Schema {
	t.Helper()
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "overlap.graphql", Input: overlapTestSDL})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// overlapErrors validates query with rule alone.
func overlapErrors(t testing.TB, schema *ast.Schema, query string, rule core.Rule) []string {
	t.Helper()
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		t.Fatalf("parse %s: %v", query, err)
	}
	var out []string
	for _, e := range validator.ValidateWithRules(schema, doc, rules.NewRules(rule)) {
		out = append(out, describe(e))
	}
	return out
}

func describe(e *gqlerror.Error) string {
	return fmt.Sprintf("%s %v", e.Message, e.Locations)
}

// overlapGenerator writes random documents over overlapTestSDL: fields
// with and without aliases and arguments, inline fragments, fragment
// spreads, and copies of earlier selections.
type overlapGenerator struct {
	r      *rand.Rand
	schema *ast.Schema
}

var overlapValues = map[string][]string{
	"dogCommand": {"SIT", "DOWN"},
	"surname":    {"true", "false"},
}

func (g *overlapGenerator) selections(b *strings.Builder, typ string, depth int) {
	def := g.schema.Types[typ]
	var written []string
	b.WriteString("{ ")
	for range 1 + g.r.IntN(4) {
		var sel strings.Builder
		switch n := g.r.IntN(10); {
		case n < 2 && len(written) > 0:
			sel.WriteString(written[g.r.IntN(len(written))]) // a copy
		case n < 3:
			types := []string{typ}
			if def.Kind == ast.Interface {
				types = append(types, "Dog", "Cat")
			}
			t := types[g.r.IntN(len(types))]
			fmt.Fprintf(&sel, "... on %s ", t)
			if depth < 3 {
				g.selections(&sel, t, depth+1)
			} else {
				sel.WriteString("{ __typename }")
			}
		case n < 4 && (typ == "Dog" || typ == "Human"):
			fmt.Fprintf(&sel, "...%s%d", typ, g.r.IntN(2))
		default:
			f := def.Fields[g.r.IntN(len(def.Fields))]
			if strings.HasPrefix(f.Name, "__") {
				f = def.Fields[0]
			}
			if g.r.IntN(2) == 0 {
				fmt.Fprintf(&sel, "%s: ", []string{"a", "b", "name"}[g.r.IntN(3)])
			}
			sel.WriteString(f.Name)
			for _, a := range f.Arguments {
				if g.r.IntN(2) == 0 {
					vs := overlapValues[a.Name]
					fmt.Fprintf(&sel, "(%s: %s)", a.Name, vs[g.r.IntN(len(vs))])
				}
			}
			if t := g.schema.Types[f.Type.Name()]; t.Kind == ast.Object || t.Kind == ast.Interface {
				sel.WriteByte(' ')
				if depth < 3 {
					g.selections(&sel, t.Name, depth+1)
				} else {
					sel.WriteString("{ __typename }")
				}
			}
		}
		written = append(written, sel.String())
		b.WriteString(sel.String())
		b.WriteByte(' ')
	}
	b.WriteString("}")
}

func (g *overlapGenerator) document() string {
	var b strings.Builder
	b.WriteString("query { dog ")
	g.selections(&b, "Dog", 1)
	b.WriteString(" pet ")
	g.selections(&b, "Pet", 1)
	b.WriteString(" }\n")
	for _, typ := range []string{"Dog", "Human"} {
		// Typ1 may spread Typ0, never the other way round: no cycles.
		fmt.Fprintf(&b, "fragment %s0 on %s ", typ, typ)
		body := strings.Builder{}
		g.selections(&body, typ, 2)
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(body.String(), "..."+typ+"0", "__typename"), "..."+typ+"1", "__typename"))
		fmt.Fprintf(&b, "\nfragment %s1 on %s ", typ, typ)
		body.Reset()
		g.selections(&body, typ, 2)
		b.WriteString(strings.ReplaceAll(body.String(), "..."+typ+"1", "__typename"))
		b.WriteString("\n")
	}
	return b.String()
}

// The copy of the rule is gqlparser's: keeping copies, it gives the same
// errors, in the same order, at the same places.
func TestOverlapRuleIsGqlparsers(t *testing.T) {
	schema := overlapTestSchema(t)
	g := &overlapGenerator{r: rand.New(rand.NewPCG(1, 2)), schema: schema}
	conflicting := 0
	for range 3000 {
		q := g.document()
		want := overlapErrors(t, schema, q, rules.OverlappingFieldsCanBeMergedRule)
		got := overlapErrors(t, schema, q, newOverlappingFieldsRule(true))
		if !slices.Equal(got, want) {
			t.Fatalf("%s\ngot  %q\nwant %q", q, got, want)
		}
		if len(want) > 0 {
			conflicting++
		}
	}
	if conflicting < 300 {
		t.Errorf("only %d of 3000 documents conflict: the generator tests too little", conflicting)
	}
}

// Leaving copies out refuses exactly the documents gqlparser refuses, with
// messages gqlparser gives; documents without copies get the same errors.
func TestOverlapRuleRefusesWhatGqlparserRefuses(t *testing.T) {
	schema := overlapTestSchema(t)
	g := &overlapGenerator{r: rand.New(rand.NewPCG(3, 4)), schema: schema}
	for range 3000 {
		q := g.document()
		want := overlapErrors(t, schema, q, rules.OverlappingFieldsCanBeMergedRule)
		got := overlapErrors(t, schema, q, overlappingFieldsRule)
		if (len(got) == 0) != (len(want) == 0) {
			t.Fatalf("%s\ngot  %q\nwant %q", q, got, want)
		}
		for _, e := range got {
			if !slices.ContainsFunc(want, func(w string) bool { return sameConflict(e, w) }) {
				t.Fatalf("%s\nerror %q is not one of gqlparser's %q", q, e, want)
			}
		}
	}

	for name, q := range map[string]string{
		"different fields":        `{ dog { a: name a: nickname } }`,
		"differing arguments":     `{ dog { doesKnowCommand(dogCommand: SIT) doesKnowCommand(dogCommand: DOWN) } }`,
		"argument and none":       `{ dog { doesKnowCommand doesKnowCommand(dogCommand: SIT) } }`,
		"conflicting types":       `{ pet { ... on Dog { volume } ... on Cat { volume } } }`,
		"deep conflict":           `{ dog { friend { a: name } friend { a: nickname } } }`,
		"through fragments":       `{ dog { ...A ...B } } fragment A on Dog { x: name } fragment B on Dog { x: nickname }`,
		"fields and a fragment":   `{ dog { x: name ...B } } fragment B on Dog { x: nickname }`,
		"exclusive parents agree": `{ pet { ... on Dog { name: nickname } ... on Cat { name } } }`,
		"identical":               `{ dog { name name friend { name } friend { name } } }`,
		"list and not list":       `{ dog { pets { name } } human { x: pets { name } x: relatives { name } } }`,
	} {
		want := overlapErrors(t, schema, q, rules.OverlappingFieldsCanBeMergedRule)
		if got := overlapErrors(t, schema, q, overlappingFieldsRule); !slices.Equal(got, want) {
			t.Errorf("%s: %s\ngot  %q\nwant %q", name, q, got, want)
		}
	}
}

// sameConflict reports whether error got says what want says, but for
// repetitions: a message lists the conflicts below a field ("subfields "x"
// conflict because ... and subfields "x" conflict because ..."), and a
// conflict that only copies found is listed once fewer. The two must begin
// alike, be at the same place, and got may only hold parts want holds.
func sameConflict(got, want string) bool {
	if got == want {
		return true
	}
	// "<conflicts>. Use different aliases ... [location]"
	split := func(s string) ([]string, string) {
		i := strings.LastIndex(s, ". Use different aliases")
		if i < 0 {
			return []string{s}, ""
		}
		return strings.Split(s[:i], " and "), s[i:]
	}
	g, gTail := split(got)
	w, wTail := split(want)
	if gTail != wTail || g[0] != w[0] {
		return false
	}
	for _, part := range g {
		if !slices.Contains(w, part) {
			return false
		}
	}
	return true
}

// A field repeated many times validates in time linear in the repetitions:
// the ns/field figure stays flat from 100 to 2,000 copies with Quire's
// rules, and grows with the copies with gqlparser's.
//
//	go test -run '^$' -bench ValidateRepeatedField ./graph/
func BenchmarkValidateRepeatedField(b *testing.B) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	for _, shape := range []struct{ name, field, wrap string }{
		{"scalar", "id ", "{ viewer { %s} }"},
		{"object", "viewer { id } ", "{ %s}"},
	} {
		for _, n := range []int{100, 500, 1000, 2000} {
			q := fmt.Sprintf(shape.wrap, strings.Repeat(shape.field, n))
			for _, rs := range []struct {
				name  string
				rules func() *rules.Rules
			}{{"gqlparser", rules.NewDefaultRules}, {"quire", ValidationRules}} {
				if rs.name == "gqlparser" && shape.name == "object" && n > 500 {
					continue // seconds and gigabytes per document
				}
				b.Run(fmt.Sprintf("%s/%s/%d", shape.name, rs.name, n), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						doc, err := parser.ParseQuery(&ast.Source{Input: q})
						if err != nil {
							b.Fatal(err)
						}
						if errs := validator.ValidateWithRules(schema, doc, rs.rules()); len(errs) > 0 {
							b.Fatal(errs)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/field")
				})
			}
		}
	}
}
