package matrix_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// swaps lists, for a request naming ids of A (in its path, body or
// arguments), each id that B's fixture has a counterpart of (the id of the
// same name in b.ids), with that counterpart.
func (w *world) swaps(request string) [][2]string {
	var out [][2]string
	seen := map[string]bool{}
	for _, key := range slices.Sorted(maps.Keys(w.a.ids)) {
		id, other := w.a.ids[key], w.b.ids[key]
		if other == "" || seen[id] || !strings.Contains(request, id) {
			continue
		}
		seen[id] = true
		out = append(out, [2]string{id, other})
	}
	return out
}

// testForeign asks every route and field as A's admin with, in place of
// each id of A it names, the id of B's object of the same kind, and with an
// id that names nothing: both must get the same answer (the same status,
// error code and message, but for the id). An object of another
// organization is answered exactly as one that does not exist, wherever
// the request names it.
func (w *world) testForeign(t *testing.T) {
	tok := w.a.admin.Token
	for _, c := range w.restCases(t) {
		ids := w.a.ids
		path := c.path(t, ids)
		var body string
		if b := c.body(ids); b != nil {
			raw, _ := json.Marshal(b)
			body = string(raw)
		}
		for _, s := range w.swaps(path + " " + body) {
			id, other, unknown := s[0], s[1], unknownLike(s[0])
			answers := [2]string{}
			for i, to := range []string{other, unknown} {
				var sent any
				if body != "" {
					sent = strings.ReplaceAll(body, id, to)
				}
				r := w.e.Do(tok, c.route.Method, strings.ReplaceAll(path, id, to), sent)
				w.asked++
				answers[i] = fmt.Sprintf("%d %s", r.Status, normalized(r.Body, to))
			}
			if c.rule.outside != 0 {
				outsider(t, c.key, other, answers, fmt.Sprintf("%d ", c.rule.outside), "404 ")
				continue
			}
			if answers[0] != answers[1] {
				t.Errorf("%s with %s of B for %s: %s; with an unknown id: %s", c.key, other, id, answers[0], answers[1])
			}
		}
	}

	s := w.readSchema(t)
	for _, c := range w.gqlCases(t, s) {
		vars := map[string]any{}
		if c.rule.input != nil {
			vars = c.rule.input(w.a.ids).(map[string]any)
		}
		raw, _ := json.Marshal(vars)
		for _, sw := range w.swaps(string(raw)) {
			id, other, unknown := sw[0], sw[1], unknownLike(sw[0])
			answers := [2]string{}
			for i, to := range []string{other, unknown} {
				var v map[string]any
				_ = json.Unmarshal([]byte(strings.ReplaceAll(string(raw), id, to)), &v)
				r := w.shallow(t, s, c, tok, v)
				w.asked++
				answers[i] = gqlAnswer(r, c.field.Name, to)
			}
			if c.rule.outside != 0 {
				outsider(t, c.key, other, answers, "] BAD_REQUEST ", "] NOT_FOUND ")
				continue
			}
			if answers[0] != answers[1] {
				t.Errorf("%s with %s of B for %s: %s; with an unknown id: %s", c.key, other, id, answers[0], answers[1])
			}
		}
	}
}

// outsider checks the answers (B's id, an unknown id) of an operation whose
// documented answer tells an organization A's admin is no member of from
// none (rule.outside): each holds its status (REST) or error code
// (GraphQL).
func outsider(t *testing.T, key, other string, answers [2]string, wantB, wantUnknown string) {
	t.Helper()
	if !strings.Contains(answers[0], wantB) || !strings.Contains(answers[1], wantUnknown) {
		t.Errorf("%s with %s of B: %s, want %s...; with an unknown id: %s, want %s...", key, other, answers[0], wantB, answers[1], wantUnknown)
	}
}

// shallow asks a root field with its scalar fields only.
func (w *world) shallow(t *testing.T, s *gqlSchema, c gqlCase, tok string, vars map[string]any) *testenv.GQLResponse {
	var defs, uses []string
	for _, a := range c.field.Args {
		if _, ok := vars[a.Name]; ok {
			defs = append(defs, "$"+a.Name+": "+a.Type.String())
			uses = append(uses, a.Name+": $"+a.Name)
		}
	}
	root := &sel{head: c.field.Name}
	if len(uses) > 0 {
		root.head += "(" + strings.Join(uses, ", ") + ")"
	}
	if ret := s.types[c.field.Type.named()]; !leafKind(ret.Kind) {
		root.kids = s.selection(ret.Name, 0, w.a.ids, admin)
	}
	var b strings.Builder
	b.WriteString(c.op)
	if len(defs) > 0 {
		b.WriteString("(" + strings.Join(defs, ", ") + ")")
	}
	b.WriteString(" { ")
	root.render(&b)
	b.WriteString(" }")
	if c.key == "Mutation.uploadFile" {
		return w.upload(t, tok, b.String(), vars)
	}
	return w.e.GraphQL(tok, b.String(), vars)
}

// gqlAnswer sums up an answer: its status, its errors and whether the
// field has a value.
func gqlAnswer(r *testenv.GQLResponse, field, id string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d", r.Status)
	for _, e := range r.Errors {
		fmt.Fprintf(&b, " [%v %v %s]", e.Path, e.Extensions["code"], strings.ReplaceAll(e.Message, id, "<id>"))
	}
	if v := testenv.Path(r.Data, field); v == nil || allNull(v) {
		b.WriteString(" null")
	} else {
		b.WriteString(" value")
	}
	return b.String()
}

// normalized is a REST error body with the id it names written <id>; a
// success is its status alone (a created object has ids of its own).
func normalized(body []byte, id string) string {
	var e struct {
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil || e.Error == nil {
		return "(success)"
	}
	return strings.ReplaceAll(e.Error.Message, id, "<id>")
}
