package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/99designs/gqlgen/codegen"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/lexer"
	"github.com/vektah/gqlparser/v2/parser"
)

// inlineDirective marks, in the SDL files, the object types whose fields are
// resolved one after the other in the goroutine that resolves the object.
// It is a mark for Quire's code generator, not part of the published schema:
// stripInline removes its definition and its uses from the sources before
// gqlgen reads them (the generated code carries the sources, and answers
// introspection from them). Clients never see it, which matters because
// Relay's compiler defines a directive of the same name and refuses a
// schema that redefines it.
const inlineDirective = "inline"

// inlinePlugin turns off gqlgen's concurrent field execution for the object
// types marked @inline. gqlgen starts a goroutine (with its field context and
// a stack that grows as the nested fields run) for every resolver field of
// every object of a list; for types whose resolvers read what the request has
// loaded already, that is most of the CPU of a nested read. Lists of such
// objects are still resolved concurrently, an item per goroutine, so sibling
// items still share the loaders' batches. gqlgen does the same for Mutation,
// whose fields must run in order.
type inlinePlugin struct {
	// types holds the names of the marked object types.
	types map[string]bool
}

func (inlinePlugin) Name() string { return "inline" }

// GenerateCode runs before gqlgen writes the execution code, so the flag it
// sets is what the templates see. A mark on a type gqlgen does not generate
// as an object is an error rather than a silently ignored hint.
func (p inlinePlugin) GenerateCode(data *codegen.Data) error {
	found := map[string]bool{}
	for _, o := range data.Objects {
		if o.Definition != nil && p.types[o.Definition.Name] {
			o.DisableConcurrency = true
			found[o.Definition.Name] = true
		}
	}
	for _, name := range sortedNames(p.types) {
		if !found[name] {
			return fmt.Errorf("@%s on %s, which is not an object type of the schema", inlineDirective, name)
		}
	}
	return nil
}

// stripInline removes the @inline directive's definition and every use of it
// from the sources, in place, and returns the names of the object types that
// were marked. Marks anywhere but on an object type (or an extension of one)
// are errors.
func stripInline(sources []*ast.Source) (map[string]bool, error) {
	marked := map[string]bool{}
	for _, src := range sources {
		doc, err := parser.ParseSchema(src)
		if err != nil {
			return nil, err
		}
		onObjects := 0
		for _, defs := range []ast.DefinitionList{doc.Definitions, doc.Extensions} {
			for _, def := range defs {
				if def.Directives.ForName(inlineDirective) == nil {
					continue
				}
				if def.Kind != ast.Object {
					return nil, fmt.Errorf("%s: @%s on %s %s: it marks object types only", src.Name, inlineDirective, strings.ToLower(string(def.Kind)), def.Name)
				}
				marked[def.Name] = true
				onObjects += len(def.Directives.ForNames(inlineDirective))
			}
		}
		out, uses, err := cutInline(src)
		if err != nil {
			return nil, err
		}
		if uses != onObjects {
			return nil, fmt.Errorf("%s: @%s is used %d times, %d of them on object types: it marks object types only", src.Name, inlineDirective, uses, onObjects)
		}
		src.Input = out
	}
	return marked, nil
}

// cutInline returns the source without the directive's definition (with its
// description) and without its uses (with the blanks before them), and the
// number of uses it removed. It works on the tokens, so that a description
// or a comment that mentions @inline is left alone.
func cutInline(src *ast.Source) (string, int, error) {
	var toks []lexer.Token
	lex := lexer.New(src)
	for {
		tok, err := lex.ReadToken()
		if err != nil {
			return "", 0, err
		}
		if tok.Kind == lexer.EOF {
			break
		}
		if tok.Kind != lexer.Comment {
			toks = append(toks, tok)
		}
	}
	in := []rune(src.Input) // token positions count runes
	type span struct{ start, end int }
	var cuts []span
	uses := 0
	isName := func(i int, v string) bool {
		return i < len(toks) && toks[i].Kind == lexer.Name && toks[i].Value == v
	}
	for i := 0; i < len(toks); i++ {
		switch {
		case isName(i, "directive") && i+2 < len(toks) && toks[i+1].Kind == lexer.At && isName(i+2, inlineDirective):
			start := toks[i].Pos.Start
			if i > 0 && (toks[i-1].Kind == lexer.String || toks[i-1].Kind == lexer.BlockString) {
				start = toks[i-1].Pos.Start
			}
			j := i + 3
			if j < len(toks) && toks[j].Kind == lexer.ParenL {
				for j < len(toks) && toks[j].Kind != lexer.ParenR {
					j++
				}
				j++
			}
			if isName(j, "repeatable") {
				j++
			}
			if !isName(j, "on") {
				return "", 0, fmt.Errorf("%s:%d: cannot read the definition of @%s", src.Name, toks[i].Pos.Line, inlineDirective)
			}
			j++
			if j < len(toks) && toks[j].Kind == lexer.Pipe {
				j++
			}
			for j+2 < len(toks) && toks[j+1].Kind == lexer.Pipe {
				j += 2
			}
			end := toks[j].Pos.End
			// The blank lines that separated it from what follows go too.
			for end < len(in) && (in[end] == '\n' || in[end] == '\r') {
				end++
			}
			cuts = append(cuts, span{start, end})
			i = j
		case toks[i].Kind == lexer.At && isName(i+1, inlineDirective):
			start := toks[i].Pos.Start
			for start > 0 && (in[start-1] == ' ' || in[start-1] == '\t') {
				start--
			}
			cuts = append(cuts, span{start, toks[i+1].Pos.End})
			uses++
			i++
		}
	}
	var b strings.Builder
	last := 0
	for _, c := range cuts {
		b.WriteString(string(in[last:c.start]))
		last = c.end
	}
	b.WriteString(string(in[last:]))
	return b.String(), uses, nil
}

func sortedNames(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
