package matrix_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"quire/rest"
)

// restCase is one route of the route table with its row.
type restCase struct {
	key    string // "METHOD /pattern"
	route  rest.Route
	rule   rule
	params []string
}

// restCases pairs every route of the table with its row; a route without a
// row, or a row without a route, fails the test.
func (w *world) restCases(t *testing.T) []restCase {
	var out []restCase
	seen := map[string]bool{}
	for _, rt := range w.e.Server.API().Routes() {
		key := rt.Method + " " + rt.Pattern
		seen[key] = true
		r, ok := restRules[key]
		if !ok {
			t.Errorf("%s has no row in the authorization matrix (restRules)", key)
			continue
		}
		out = append(out, restCase{key: key, route: rt, rule: r, params: routeParams(rt.Pattern)})
	}
	for _, key := range slices.Sorted(maps.Keys(restRules)) {
		if !seen[key] {
			t.Errorf("the matrix has a row for %s, which is no route", key)
		}
	}
	return out
}

var paramPattern = regexp.MustCompile(`\{([A-Za-z]+)\}`)

func routeParams(pattern string) []string {
	var out []string
	for _, m := range paramPattern.FindAllStringSubmatch(pattern, -1) {
		out = append(out, m[1])
	}
	return out
}

// path fills a route's parameters from ids, by name.
func (c restCase) path(t *testing.T, ids map[string]string) string {
	path := "/v1" + paramPattern.ReplaceAllStringFunc(c.route.Pattern, func(m string) string {
		name := m[1 : len(m)-1]
		id := c.rule.param(name, ids)
		if id == "" {
			t.Errorf("%s: the fixture has no id for the parameter %s", c.key, name)
		}
		return id
	})
	if c.rule.query != "" {
		path += "?" + c.rule.query
	}
	return path
}

func (c restCase) body(ids map[string]string) any {
	if c.rule.input != nil {
		return c.rule.input(ids)
	}
	if c.route.Request != nil {
		return map[string]any{}
	}
	return nil
}

// testREST runs the REST half: first every caller the row refuses, on the
// fixture, which must come out unchanged; then every caller it allows.
func (w *world) testREST(t *testing.T) {
	cases := w.restCases(t)
	before := w.snapshot()
	for _, c := range cases {
		for _, who := range w.callers {
			want := c.rule.expect(who, c.route.Deleting)
			if want < 300 && want != 204 {
				continue
			}
			ids := w.a.ids
			res := w.restCall(t, c, who, ids, want)
			if who.name == "B admin" && want == 404 {
				w.likeUnknown(t, c, who, ids, res)
			}
		}
	}
	after := w.snapshot()
	for _, p := range slices.Sorted(maps.Keys(before)) {
		if before[p] != after[p] {
			t.Errorf("refused requests changed %s:\nbefore %s\n after %s", p, before[p], after[p])
		}
	}
	for _, c := range cases {
		for _, who := range w.callers {
			want := c.rule.expect(who, c.route.Deleting)
			if want >= 300 || want == 204 {
				continue
			}
			ids := w.a.ids
			if c.rule.fresh {
				ids = w.fresh(c.params)
			}
			w.restCall(t, c, who, ids, want)
		}
	}
}

// restCall sends one request of the matrix and checks its answer: the
// status, the error shape of a refusal, the empty body of a delete, and
// that nothing the caller may not see shows.
func (w *world) restCall(t *testing.T, c restCase, who *caller, ids map[string]string, want int) restAnswer {
	t.Helper()
	path, body := c.path(t, ids), c.body(ids)
	r := w.e.Do(who.token, c.route.Method, path, body)
	w.asked++
	what := fmt.Sprintf("%s %s as %s", c.route.Method, path, who.name)
	got := restAnswer{status: r.Status}
	if r.Status != want {
		t.Errorf("%s (%s): %d, want %d: %.300s", c.key, what, r.Status, want, r.Body)
		return got
	}
	sent, _ := json.Marshal(body)
	if leaks := who.leaks(r.Body, path+string(sent)); len(leaks) > 0 {
		t.Errorf("%s (%s) shows what %s may not see: %v in %.500s", c.key, what, who.name, leaks, r.Body)
	}
	switch {
	case want == 204 || want == 205:
		if len(r.Body) != 0 {
			t.Errorf("%s (%s): body %q, want none", c.key, what, r.Body)
		}
	case want >= 400:
		var e struct {
			Error struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(r.Body, &e); err != nil || e.Error.Code != want || e.Error.Message == "" {
			t.Errorf("%s (%s): not the documented error shape: %s", c.key, what, r.Body)
		}
		got.message = e.Error.Message
	}
	return got
}

// restAnswer is what a refusal said.
type restAnswer struct {
	status  int
	message string
}

// likeUnknown checks that a caller who may not see what a route names gets
// the answer it would get for ids that name nothing: the same status and
// message, but for the ids.
func (w *world) likeUnknown(t *testing.T, c restCase, who *caller, ids map[string]string, seen restAnswer) {
	t.Helper()
	unknown := map[string]string{}
	swapped := map[string]string{}
	for k, id := range ids {
		u := unknownLike(id)
		unknown[k] = u
		swapped[id] = u
	}
	path := c.path(t, unknown)
	r := w.e.Do(who.token, c.route.Method, path, c.body(unknown))
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(r.Body, &e)
	msg := seen.message
	for id, u := range swapped {
		msg = strings.ReplaceAll(msg, id, u)
	}
	if r.Status != seen.status || e.Error.Message != msg {
		t.Errorf("%s as %s: what the caller may not see answers %d %q, what does not exist %d %q",
			c.key, who.name, seen.status, msg, r.Status, e.Error.Message)
	}
}

// unknownLike returns an id of the same kind (ids start with their kind's
// letter) that names nothing.
func unknownLike(id string) string {
	if len(id) != 20 {
		return id
	}
	return id[:1] + strings.Repeat("0", 19)
}
