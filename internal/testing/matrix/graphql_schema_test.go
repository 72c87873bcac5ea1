package matrix_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// gqlSchema is what the matrix reads of the GraphQL schema by
// introspection.
type gqlSchema struct {
	query, mutation string
	types           map[string]*gqlType
}

type gqlType struct {
	Kind          string     `json:"kind"`
	Name          string     `json:"name"`
	Fields        []gqlField `json:"fields"`
	PossibleTypes []struct {
		Name string `json:"name"`
	} `json:"possibleTypes"`
}

type gqlField struct {
	Name string   `json:"name"`
	Args []gqlArg `json:"args"`
	Type *typeRef `json:"type"`
}

type gqlArg struct {
	Name string   `json:"name"`
	Type *typeRef `json:"type"`
}

type typeRef struct {
	Kind   string   `json:"kind"`
	Name   string   `json:"name"`
	OfType *typeRef `json:"ofType"`
}

// named is the type inside the list and non-null wrappers.
func (r *typeRef) named() string {
	for r.OfType != nil {
		r = r.OfType
	}
	return r.Name
}

// String spells the type as in a variable definition.
func (r *typeRef) String() string {
	switch r.Kind {
	case "NON_NULL":
		return r.OfType.String() + "!"
	case "LIST":
		return "[" + r.OfType.String() + "]"
	}
	return r.Name
}

func (r *typeRef) required() bool { return r.Kind == "NON_NULL" }

const introspection = `{ __schema { queryType { name } mutationType { name }
  types { kind name possibleTypes { name }
    fields(includeDeprecated: true) { name args { name type { ...T } } type { ...T } } } }
}
fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }`

// readSchema introspects the server's schema.
func (w *world) readSchema(t *testing.T) *gqlSchema {
	r := w.e.GraphQL(w.a.admin.Token, introspection, nil)
	if len(r.Errors) > 0 {
		t.Fatalf("introspection: %+v", r.Errors)
	}
	var v struct {
		Schema struct {
			QueryType    struct{ Name string } `json:"queryType"`
			MutationType struct{ Name string } `json:"mutationType"`
			Types        []*gqlType            `json:"types"`
		} `json:"__schema"`
	}
	raw, _ := json.Marshal(r.Data)
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	s := &gqlSchema{query: v.Schema.QueryType.Name, mutation: v.Schema.MutationType.Name, types: map[string]*gqlType{}}
	for _, ty := range v.Schema.Types {
		s.types[ty.Name] = ty
	}
	return s
}

// sel is a selection: a field (with its arguments), an inline fragment, or
// __typename; kids is nil for a leaf.
type sel struct {
	head string
	kids []*sel
	// name and typ are the field's name and type, for fields.
	name, typ string
	// page is the number of items a connection field asks for (first);
	// 0 for other selections.
	page int
}

func (s *sel) render(b *strings.Builder) {
	b.WriteString(s.head)
	if s.kids != nil {
		b.WriteString(" {")
		for _, k := range s.kids {
			b.WriteByte(' ')
			k.render(b)
		}
		b.WriteString(" }")
	}
}

var tokenPattern = regexp.MustCompile(`"[^"]*"|\.\.\.|[A-Za-z_][A-Za-z0-9_]*|[^\sA-Za-z0-9_]`)

// tokens is how many lexical tokens the selection has, as the parser's
// token limit counts them.
func (s *sel) tokens() int {
	n := len(tokenPattern.FindAllString(s.head, -1))
	if s.kids != nil {
		n += 2
		for _, k := range s.kids {
			n += k.tokens()
		}
	}
	return n
}

// cost is the number of nodes a selection may return below connections
// that return m items in all, as the query limits count them: a
// connection counts its page times the pages of the connections above it,
// and other lists count as one item.
func (s *sel) cost(m int) int {
	n := 0
	if s.page > 0 {
		m *= s.page
		n = m
	}
	for _, k := range s.kids {
		n += k.cost(m)
	}
	return n
}

// nestedArgs gives the fields below the roots that take an id the
// arguments that name an object of the fixture (ids of the target
// organization); objects of other revisions do not hold them and answer
// NOT_FOUND there. A field with a required argument not here is left out.
var nestedArgs = map[string]func(ids map[string]string) string{
	"Revision.file": func(ids map[string]string) string { return `(id: "` + ids["fileId"] + `")` },
	"Revision.page": func(ids map[string]string) string { return `(id: "` + ids["pageId"] + `")` },
	// Searches find the fixture's pages, so that their results are checked.
	"Space.search":        func(map[string]string) string { return `(query: "guide", first: 5)` },
	"Organization.search": func(map[string]string) string { return `(query: "guide", first: 5)` },
	"OpenAPISpec.version": func(ids map[string]string) string { return `(id: "` + ids["versionId"] + `")` },
}

// unselected are fields the walk leaves out: Space.changeRequest needs an
// id or a number of a change request of that very space, and the root
// field changeRequest asks the same.
var unselected = map[string]bool{"Space.changeRequest": true}

func leafKind(k string) bool { return k == "SCALAR" || k == "ENUM" }

// wrapper types add no hop of their own.
func wrapper(name string) bool {
	return strings.HasSuffix(name, "Connection") || strings.HasSuffix(name, "Edge")
}

// selection selects every field of a type, and of the objects it reaches
// within hops steps (connections and edges take no step; of a connection,
// nodes is selected and edges, which hold the same objects, left out).
// Fields that need more than role (nestedRules) are left out, as are, in
// the fragments on the types of a union or an interface, fields of a name
// an earlier fragment selected with another type (GraphQL does not merge
// them).
func (s *gqlSchema) selection(typeName string, hops int, ids map[string]string, role level) []*sel {
	t := s.types[typeName]
	switch t.Kind {
	case "INTERFACE", "UNION":
		out := []*sel{{head: "__typename"}}
		seen := map[string]string{}
		for _, p := range t.PossibleTypes {
			var kids []*sel
			for _, k := range s.selection(p.Name, hops, ids, role) {
				if typ, ok := seen[k.name]; ok && typ != k.typ {
					continue
				}
				seen[k.name] = k.typ
				kids = append(kids, k)
			}
			out = append(out, &sel{head: "... on " + p.Name, kids: kids})
		}
		return out
	}
	var out []*sel
	for _, f := range t.Fields {
		key := typeName + "." + f.Name
		if unselected[key] || (nestedRules[key].min > role) {
			continue
		}
		args := ""
		if a, ok := nestedArgs[key]; ok {
			args = a(ids)
		} else if needsArg(f) {
			continue
		}
		field := &sel{head: f.Name + args, name: f.Name, typ: f.Type.String()}
		if args == "" && hasArg(f, "first") {
			field.head += fmt.Sprintf("(first: %d)", pageSize)
			field.page = pageSize
		} else if strings.Contains(args, fmt.Sprintf("first: %d", pageSize)) {
			field.page = pageSize
		}
		inner := s.types[f.Type.named()]
		if leafKind(inner.Kind) {
			out = append(out, field)
			continue
		}
		if f.Name == "edges" {
			continue
		}
		h := hops
		if !wrapper(inner.Name) {
			h--
		}
		if h < 0 {
			continue
		}
		field.kids = s.selection(inner.Name, h, ids, role)
		out = append(out, field)
	}
	if len(out) == 0 {
		out = []*sel{{head: "__typename", name: "__typename", typ: "String!"}}
	}
	return out
}

// pageSize is the first argument of every connection the walk selects: the
// fixture's lists are shorter, and the query limits count the nodes a
// query may return as the product of first down nested connections.
const pageSize = 5

func hasArg(f gqlField, name string) bool {
	for _, a := range f.Args {
		if a.Name == name {
			return true
		}
	}
	return false
}

func needsArg(f gqlField) bool {
	for _, a := range f.Args {
		if a.Type.required() {
			return true
		}
	}
	return false
}

// split cuts a selection, below connections returning m items in all,
// into selections of at most tokens lexical tokens and cost nodes each,
// which together select everything it does: a field too large keeps its
// head and takes a share of its sub-selections in each part.
func split(s *sel, tokens, cost, m int) []*sel {
	if s.kids == nil || (s.tokens() <= tokens && s.cost(m) <= cost) {
		return []*sel{s}
	}
	own, ownCost, km := len(tokenPattern.FindAllString(s.head, -1))+2, 0, m
	if s.page > 0 {
		km = m * s.page
		ownCost = km
	}
	var pieces []*sel
	for _, k := range s.kids {
		pieces = append(pieces, split(k, tokens-own, cost-ownCost, km)...)
	}
	var out []*sel
	part := func() *sel { return &sel{head: s.head, kids: []*sel{}, name: s.name, typ: s.typ, page: s.page} }
	cur, size, spent := part(), own, ownCost
	for _, p := range pieces {
		n, c := p.tokens(), p.cost(km)
		if len(cur.kids) > 0 && (size+n > tokens || spent+c > cost) {
			out = append(out, cur)
			cur, size, spent = part(), own, ownCost
		}
		cur.kids = append(cur.kids, p)
		size += n
		spent += c
	}
	return append(out, cur)
}
