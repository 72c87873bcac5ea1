package matrix_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// Hops and budgets of the documents the matrix sends: a query selects
// three steps deep, split into documents within the query limits (the
// parser's tokens, and the nodes a document may return: see sel.cost); a
// mutation, which cannot be sent twice, one step. A document the server
// still finds too large is split further.
const (
	queryHops    = 3
	mutationHops = 1
	tokenBudget  = 1500
	costBudget   = 5000
	// idsPerCall is how many ids one nodes(ids:) document names.
	idsPerCall = 8
)

// gqlCase is one root field with its row.
type gqlCase struct {
	key      string // "Query.field"
	op       string // query or mutation
	field    gqlField
	rule     rule
	deleting bool
}

// gqlCases pairs every root field and mutation with its row; a field
// without a row, or a row without a field, fails the test.
func (w *world) gqlCases(t *testing.T, s *gqlSchema) []gqlCase {
	var out []gqlCase
	seen := map[string]bool{}
	for _, root := range []struct{ op, typ string }{{"query", s.query}, {"mutation", s.mutation}} {
		for _, f := range s.types[root.typ].Fields {
			key := root.typ + "." + f.Name
			seen[key] = true
			r, ok := gqlRules[key]
			if !ok {
				t.Errorf("%s has no row in the authorization matrix (gqlRules)", key)
				continue
			}
			out = append(out, gqlCase{key: key, op: root.op, field: f, rule: r,
				deleting: f.Type.named() == "DeletePayload"})
		}
	}
	for _, key := range slices.Sorted(maps.Keys(gqlRules)) {
		if !seen[key] {
			t.Errorf("the matrix has a row for %s, which is no field", key)
		}
	}
	return out
}

// testQueries asks every root query field as every caller, before any
// write adds to the fixture.
func (w *world) testQueries(t *testing.T) {
	s := w.readSchema(t)
	for _, c := range w.gqlCases(t, s) {
		if c.op != "query" {
			continue
		}
		for _, who := range w.callers {
			w.gqlCall(t, s, c, who, w.a.ids, c.rule.expect(who, c.deleting))
		}
	}
}

// testMutations runs every mutation as testREST does the routes: first
// every caller the row refuses, on the fixture, which must come out
// unchanged; then every caller it allows.
func (w *world) testMutations(t *testing.T) {
	s := w.readSchema(t)
	var cases []gqlCase
	for _, c := range w.gqlCases(t, s) {
		if c.op == "mutation" {
			cases = append(cases, c)
		}
	}
	before := w.snapshot()
	for _, c := range cases {
		for _, who := range w.callers {
			if want := c.rule.expect(who, c.deleting); want >= 300 || want == 204 {
				w.gqlCall(t, s, c, who, w.a.ids, want)
			}
		}
	}
	after := w.snapshot()
	for _, p := range slices.Sorted(maps.Keys(before)) {
		if before[p] != after[p] {
			t.Errorf("refused mutations changed %s:\nbefore %s\n after %s", p, before[p], after[p])
		}
	}
	for _, c := range cases {
		for _, who := range w.callers {
			want := c.rule.expect(who, c.deleting)
			if want >= 300 || want == 204 {
				continue
			}
			ids := w.a.ids
			if c.rule.fresh {
				ids = w.fresh(c.rule.renew)
			}
			w.gqlCall(t, s, c, who, ids, want)
		}
	}
}

// gqlCall asks one root field as a caller, every field below it that the
// hops reach, in as many documents as the token budget needs, and checks
// each answer.
func (w *world) gqlCall(t *testing.T, s *gqlSchema, c gqlCase, who *caller, ids map[string]string, want int) {
	t.Helper()
	vars := map[string]any{}
	if c.rule.input != nil {
		vars = c.rule.input(ids).(map[string]any)
	}
	if _, ok := vars["first"]; !ok && hasArg(c.field, "first") {
		vars["first"] = pageSize
	}
	if list, ok := vars["ids"].([]string); ok && len(list) > idsPerCall {
		// nodes(ids:) counts each id's nested pages against the query's
		// node budget: a few ids at a time stay within it at any depth
		// the walk reaches.
		for i := 0; i < len(list); i += idsPerCall {
			part := map[string]any{}
			for k, v := range vars {
				part[k] = v
			}
			part["ids"] = list[i:min(i+idsPerCall, len(list))]
			w.gqlAsk(t, s, c, who, ids, want, part)
		}
		return
	}
	w.gqlAsk(t, s, c, who, ids, want, vars)
}

// gqlAsk is gqlCall with its variables.
func (w *world) gqlAsk(t *testing.T, s *gqlSchema, c gqlCase, who *caller, ids map[string]string, want int, vars map[string]any) {
	t.Helper()
	var defs, uses []string
	for _, a := range c.field.Args {
		if _, ok := vars[a.Name]; !ok {
			if a.Type.required() {
				t.Errorf("%s: the row gives no %s", c.key, a.Name)
			}
			continue
		}
		defs = append(defs, "$"+a.Name+": "+a.Type.String())
		uses = append(uses, a.Name+": $"+a.Name)
	}
	head := c.field.Name
	if len(uses) > 0 {
		head += "(" + strings.Join(uses, ", ") + ")"
	}
	root := &sel{head: head}
	if n, ok := vars["first"].(int); ok {
		root.page = n
	} else if list, ok := vars["ids"].([]string); ok {
		root.page = len(list)
	}
	ret := s.types[c.field.Type.named()]
	hops := queryHops
	switch {
	case c.op == "mutation":
		hops = mutationHops
	case who.level < c.rule.min:
		// Refused: nothing below the root may answer.
		hops = 0
	}
	if !leafKind(ret.Kind) {
		root.kids = s.selection(ret.Name, hops, ids, who.role)
		if ret.Kind != "OBJECT" && hops > 0 {
			root.kids = w.answeredTypes(t, c, who, head, defs, vars, root.kids)
		}
	}
	parts := []*sel{root}
	if c.op == "query" {
		parts = split(root, tokenBudget, costBudget, 1)
	}
	sent, _ := json.Marshal(vars)
	budget, cost := tokenBudget, costBudget
	for len(parts) > 0 {
		part := parts[0]
		parts = parts[1:]
		var b strings.Builder
		b.WriteString(c.op)
		if len(defs) > 0 {
			b.WriteString("(" + strings.Join(defs, ", ") + ")")
		}
		b.WriteString(" { ")
		part.render(&b)
		b.WriteString(" }")
		doc := b.String()
		var r *testenv.GQLResponse
		if c.key == "Mutation.uploadFile" {
			r = w.upload(t, who.token, doc, vars)
		} else {
			r = w.e.GraphQL(who.token, doc, vars)
		}
		w.asked++
		if c.op == "query" && overLimit(r) && budget > 100 {
			// The server's query limits are tighter than the budgets:
			// ask the same in smaller documents.
			budget, cost = budget/2, cost/2
			parts = append(split(part, budget, cost, 1), parts...)
			continue
		}
		if overLimit(r) {
			t.Logf("DEBUG over limit %s: %s %s", c.key, doc, sent)
		}
		w.checkGQL(t, c, who, want, r, doc+string(sent))
	}
}

// overLimit reports a document refused for its size or cost, before
// anything ran.
func overLimit(r *testenv.GQLResponse) bool {
	switch r.Code() {
	case "COMPLEXITY_LIMIT_EXCEEDED":
		return true
	case "GRAPHQL_PARSE_FAILED":
		return strings.Contains(r.Errors[0].Message, "token limit")
	}
	return false
}

// answeredTypes keeps, of the fragments selecting on the types of an
// interface or a union, those of the types the field answers with (asked
// first with __typename alone): node and nodes answer a few of the many
// types of Node.
func (w *world) answeredTypes(t *testing.T, c gqlCase, who *caller, head string, defs []string, vars map[string]any, kids []*sel) []*sel {
	doc := c.op
	if len(defs) > 0 {
		doc += "(" + strings.Join(defs, ", ") + ")"
	}
	r := w.e.GraphQL(who.token, doc+" { "+head+" { __typename } }", vars)
	raw := string(r.Raw)
	var out []*sel
	for _, k := range kids {
		typ, frag := strings.CutPrefix(k.head, "... on ")
		if !frag || strings.Contains(raw, `"__typename":"`+typ+`"`) {
			out = append(out, k)
		}
	}
	return out
}

// checkGQL checks one answer: a success has the field and no error at it
// (below it, only refusals of what the caller may not see or do, never an
// internal error); a refusal has the error code the REST status maps to
// and no data; and nothing the caller may not see shows.
func (w *world) checkGQL(t *testing.T, c gqlCase, who *caller, want int, r *testenv.GQLResponse, request string) {
	t.Helper()
	what := c.key + " as " + who.name
	if leaks := who.leaks(r.Raw, request); len(leaks) > 0 {
		t.Errorf("%s shows what %s may not see: %v in %.500s", what, who.name, leaks, r.Raw)
	}
	if want == http.StatusUnauthorized {
		if r.Status != 401 || r.Code() != "UNAUTHENTICATED" || r.Data != nil {
			t.Errorf("%s: %d %s, want 401 UNAUTHENTICATED", what, r.Status, r.Raw)
		}
		return
	}
	var rootErr *testenv.GQLError
	for i, e := range r.Errors {
		code, _ := e.Extensions["code"].(string)
		switch {
		case len(e.Path) <= 1:
			rootErr = &r.Errors[i]
		case code == "NOT_FOUND" && nestedArgField(e.Path):
			// Revision.file and Revision.page of a revision without them.
		default:
			t.Errorf("%s: %s at %v: %s", what, code, e.Path, e.Message)
		}
	}
	value := testenv.Path(r.Data, c.field.Name)
	hidden := who.level < c.rule.sees
	switch {
	case c.rule.hidesNull && hidden:
		if rootErr != nil || !allNull(value) {
			t.Errorf("%s: %.300s, want null without an error", what, r.Raw)
		}
	case want == http.StatusNoContent:
		if rootErr != nil || testenv.Path(value, "deleted") != false {
			t.Errorf("%s: %.300s, want deleted: false", what, r.Raw)
		}
	case want < 300:
		if rootErr != nil || value == nil {
			t.Errorf("%s: %.500s, want the field", what, r.Raw)
		}
	default:
		code := map[int]string{400: "BAD_REQUEST", 403: "FORBIDDEN", 404: "NOT_FOUND"}[want]
		if rootErr == nil || rootErr.Extensions["code"] != code || value != nil {
			t.Errorf("%s: %.300s, want %s", what, r.Raw, code)
		}
	}
}

// nestedArgField reports an error path ending at a field of nestedArgs.
func nestedArgField(path []any) bool {
	last, _ := path[len(path)-1].(string)
	return last == "file" || last == "page" || last == "version"
}

// testNested probes the fields of nestedRules, which the walk leaves out
// for callers below their level, as every caller of A who sees their
// object.
func (w *world) testNested(t *testing.T) {
	for _, key := range slices.Sorted(maps.Keys(nestedRules)) {
		n := nestedRules[key]
		field := key[strings.IndexByte(key, '.')+1:]
		for _, who := range w.callers {
			if who.level < n.sees {
				continue
			}
			r := w.e.GraphQL(who.token, n.probe, map[string]any{"id": w.a.ids[n.arg]})
			w.asked++
			what := key + " as " + who.name
			if leaks := who.leaks(r.Raw, n.probe+w.a.ids[n.arg]); len(leaks) > 0 {
				t.Errorf("%s shows what %s may not see: %v", what, who.name, leaks)
			}
			if who.level >= n.min {
				if len(r.Errors) > 0 {
					t.Errorf("%s: %s", what, r.Raw)
				}
				continue
			}
			if len(r.Errors) != 1 || r.Code() != n.code || len(r.Errors[0].Path) != 2 || r.Errors[0].Path[1] != field {
				t.Errorf("%s: %s, want %s at %s", what, r.Raw, n.code, field)
			}
		}
	}
}

func allNull(v any) bool {
	if l, ok := v.([]any); ok {
		for _, x := range l {
			if x != nil {
				return false
			}
		}
		return true
	}
	return v == nil
}

// upload sends a mutation whose input.file is a file, as a GraphQL
// multipart request.
func (w *world) upload(t *testing.T, token, doc string, vars map[string]any) *testenv.GQLResponse {
	t.Helper()
	return w.e.GraphQLUpload(token, doc, vars, "variables.input.file", "notes.txt", []byte("notes"))
}
