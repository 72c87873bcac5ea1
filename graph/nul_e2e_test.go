package graph_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// nulTypeRef is an introspected type reference.
type nulTypeRef struct {
	Kind   string      `json:"kind"`
	Name   string      `json:"name"`
	OfType *nulTypeRef `json:"ofType"`
}

func (r *nulTypeRef) String() string {
	switch r.Kind {
	case "NON_NULL":
		return r.OfType.String() + "!"
	case "LIST":
		return "[" + r.OfType.String() + "]"
	}
	return r.Name
}

// base is the named type under NON_NULL and LIST.
func (r *nulTypeRef) base() *nulTypeRef {
	for r.OfType != nil {
		r = r.OfType
	}
	return r
}

type nulInput struct {
	Name string      `json:"name"`
	Type *nulTypeRef `json:"type"`
}

type nulType struct {
	Name        string     `json:"name"`
	Kind        string     `json:"kind"`
	InputFields []nulInput `json:"inputFields"`
	EnumValues  []struct {
		Name string `json:"name"`
	} `json:"enumValues"`
}

const nulIntrospection = `fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }
{ __schema {
  mutationType { fields { name type { ...T } args { name type { ...T } } } }
  types { name kind inputFields { name type { ...T } } enumValues { name } }
} }`

// nulIntroSchema is the answer to nulIntrospection.
type nulIntroSchema struct {
	MutationType struct {
		Fields []struct {
			Name string      `json:"name"`
			Type *nulTypeRef `json:"type"`
			Args []nulInput  `json:"args"`
		} `json:"fields"`
	} `json:"mutationType"`
	Types []nulType `json:"types"`
}

// nulSchema is what the walk needs of the schema.
type nulSchema struct {
	types map[string]nulType
}

// sample returns a value of type r that passes validation, or false when
// there is none to write in JSON variables (an upload).
func (s *nulSchema) sample(r *nulTypeRef) (any, bool) {
	switch r.Kind {
	case "NON_NULL":
		return s.sample(r.OfType)
	case "LIST":
		return []any{}, true
	case "ENUM":
		return s.types[r.Name].EnumValues[0].Name, true
	case "INPUT_OBJECT":
		obj := map[string]any{}
		for _, f := range s.types[r.Name].InputFields {
			if f.Type.Kind != "NON_NULL" {
				continue
			}
			v, ok := s.sample(f.Type)
			if !ok {
				return nil, false
			}
			obj[f.Name] = v
		}
		return obj, true
	}
	switch r.Name {
	case "String", "ID":
		return "X", true
	case "Int", "Float":
		return 0, true
	case "Boolean":
		return false, true
	case "JSON":
		return map[string]any{}, true
	case "DateTime":
		return "2030-01-01T00:00:00Z", true
	}
	return nil, false
}

// nulValue is a value of type r holding NUL, with the path suffix where,
// or false when r holds no text.
func nulValue(r *nulTypeRef) (any, string, bool) {
	switch r.Kind {
	case "NON_NULL":
		return nulValue(r.OfType)
	case "LIST":
		v, p, ok := nulValue(r.OfType)
		return []any{v}, "[0]" + p, ok
	}
	switch r.Name {
	case "String", "ID":
		return "a\x00b", "", true
	case "JSON":
		return map[string]any{"k": "a\x00b"}, ".k", true
	}
	return nil, "", false
}

// Every mutation refuses NUL (U+0000) in each of its text inputs, before it
// runs: BAD_REQUEST naming the variable path, HTTP 422, on both databases.
func TestNoMutationTakesNUL(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		intro := e.GraphQL(team.Admin.Token, nulIntrospection, nil)
		var schema struct {
			Data struct {
				Schema nulIntroSchema `json:"__schema"`
			} `json:"data"`
		}
		if err := json.Unmarshal(intro.Raw, &schema); err != nil {
			t.Fatalf("introspection: %v %s", err, intro.Raw)
		}
		s := &nulSchema{types: map[string]nulType{}}
		for _, ty := range schema.Data.Schema.Types {
			s.types[ty.Name] = ty
		}
		checked := 0
		for _, m := range schema.Data.Schema.MutationType.Fields {
			var decls, args []string
			base := map[string]any{}
			ok := true
			for _, a := range m.Args {
				decls = append(decls, "$"+a.Name+": "+a.Type.String())
				args = append(args, a.Name+": $"+a.Name)
				if a.Type.Kind == "NON_NULL" {
					v, has := s.sample(a.Type)
					ok = ok && has
					base[a.Name] = v
				}
			}
			if !ok {
				continue // needs an upload: see TestNULInGraphQL
			}
			sel := ""
			if k := m.Type.base().Kind; k == "OBJECT" || k == "UNION" || k == "INTERFACE" {
				sel = " { __typename }"
			}
			doc := "mutation"
			if len(decls) > 0 {
				doc += "(" + strings.Join(decls, ", ") + ")"
			}
			doc += " { " + m.Name
			if len(args) > 0 {
				doc += "(" + strings.Join(args, ", ") + ")"
			}
			doc += sel + " }"

			// One request per text input: an argument, or a field of an
			// input object argument.
			type place struct {
				path  string
				value func() map[string]any
			}
			var places []place
			for _, a := range m.Args {
				if v, suffix, has := nulValue(a.Type); has {
					places = append(places, place{a.Name + suffix, func() map[string]any {
						vars := clone(base)
						vars[a.Name] = v
						return vars
					}})
				}
				in := s.types[a.Type.base().Name]
				if in.Kind != "INPUT_OBJECT" || strings.HasPrefix(a.Type.String(), "[") {
					continue
				}
				for _, f := range in.InputFields {
					v, suffix, has := nulValue(f.Type)
					if !has {
						continue
					}
					places = append(places, place{a.Name + "." + f.Name + suffix, func() map[string]any {
						vars := clone(base)
						obj, _ := s.sample(a.Type)
						objMap, _ := obj.(map[string]any)
						if objMap == nil {
							objMap = map[string]any{}
						}
						objMap[f.Name] = v
						vars[a.Name] = objMap
						return vars
					}})
				}
			}
			sort.Slice(places, func(i, j int) bool { return places[i].path < places[j].path })
			for _, p := range places {
				r := e.GraphQL(team.Admin.Token, doc, p.value())
				checked++
				if r.Status != http.StatusUnprocessableEntity || r.Code() != "BAD_REQUEST" || r.Errors[0].Extensions["field"] != p.path {
					t.Errorf("%s with NUL in %s: HTTP %d %s", m.Name, p.path, r.Status, r.Raw)
				}
			}
		}
		if checked < 100 {
			t.Fatalf("only %d mutations checked", checked)
		}
		t.Logf("%d mutations with NUL, all BAD_REQUEST", checked)
	})
}

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// NUL in every kind of GraphQL input is BAD_REQUEST naming where, and
// writes nothing: variables, values inside JSON variables, string literals
// (plain or inside an object), the GET transport and uploaded file names.
func TestNULInGraphQL(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		tok := team.Admin.Token
		org := team.Org.ID
		space := cxSpace(t, e, team, "Docs")
		cr := cxStr(cxNewCR(t, e, tok, space, "Edits")["id"])
		refused := func(r *testenv.GQLResponse, field, what string) {
			t.Helper()
			if r.Code() != "BAD_REQUEST" || r.Errors[0].Extensions["field"] != field || !strings.Contains(r.Errors[0].Message, "NUL character") {
				t.Errorf("%s: want BAD_REQUEST on %s, got HTTP %d %s", what, field, r.Status, r.Raw)
			}
		}
		refused(e.GraphQL(tok, `mutation($in: CreateSpaceInput!) { createSpace(input: $in) { id } }`,
			map[string]any{"in": map[string]any{"organization": org, "title": "a\x00b"}}), "in.title", "variable")
		refused(e.GraphQL(tok, `mutation { createSpace(input: {organization: "`+org+`", title: "a\u0000b"}) { id } }`, nil),
			"input.title", "string literal")
		refused(e.GraphQL(tok, `mutation { setVariables(changeRequest: "`+cr+`", variables: {a: {b: ["\u0000"]}}) { changed } }`, nil),
			"variables.a.b[0]", "literal inside a JSON object")
		refused(e.GraphQL(tok, `mutation($in: CreatePageInput!) { createPage(input: $in) { changed } }`, map[string]any{"in": map[string]any{
			"changeRequest": cr, "title": "Page", "document": map[string]any{"nodes": []any{map[string]any{"object": "block", "type": "paragraph",
				"nodes": []any{map[string]any{"object": "text", "leaves": []any{map[string]any{"text": "\x00"}}}}}}},
		}}), "in.document.nodes[0].nodes[0].leaves[0].text", "a document variable")
		refused(e.GraphQL(tok, `mutation($cr: ID!, $v: JSON!) { setVariables(changeRequest: $cr, variables: $v) { changed } }`,
			map[string]any{"cr": cr, "v": map[string]any{"a\x00": 1}}), "v", "a key of a JSON variable")

		// The GET transport.
		q := url.Values{"query": {`query($id: ID!) { space(id: $id) { id } }`}, "variables": {`{"id":"S\u0000"}`}}
		r := e.Do(tok, "GET", "/graphql?"+q.Encode(), nil)
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), `"field":"id"`) {
			t.Errorf("GET with NUL: %d %s", r.Status, r.Body)
		}
		// An uploaded file's name.
		up := e.GraphQLUpload(tok, `mutation($in: UploadFileInput!) { uploadFile(input: $in) { file { id } } }`,
			map[string]any{"in": map[string]any{"changeRequest": cr, "file": nil}}, "variables.in.file", "a\x00.txt", []byte("data"))
		refused(up, "in.file", "upload named with NUL")
		up = e.GraphQLUpload(tok, `mutation($in: UploadFileInput!) { uploadFile(input: $in) { file { id } } }`,
			map[string]any{"in": map[string]any{"changeRequest": cr, "file": nil, "name": "n\x00"}}, "variables.in.file", "a.txt", []byte("data"))
		refused(up, "in.name", "upload renamed with NUL")

		d := cxOK(t, e.GraphQL(tok, `query($id: ID!) { changeRequest(id: $id) { revision revisionInitial } }`, map[string]any{"id": cr}))
		if testenv.Path(d, "changeRequest", "revision") != testenv.Path(d, "changeRequest", "revisionInitial") {
			t.Errorf("the change request was edited: %v", d)
		}
		if n := e.Client().Space.Query().CountX(t.Context()); n != 1 {
			t.Errorf("%d spaces, want 1", n)
		}
	})
}
