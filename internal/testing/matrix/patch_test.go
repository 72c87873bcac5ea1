package matrix_test

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// readOnly are fields a client may send back from what it read, and which
// no update may take: identity, server-set times and links, the caller's
// permissions, and where the object lives.
var readOnly = []string{"id", "object", "createdAt", "updatedAt", "deletedAt", "urls", "permissions",
	"organization", "parent", "revision", "owner", "createdBy", "number", "site", "space", "siteSpaces",
	"published", "type", "appliedType", "key", "notAField"}

// testPatch sends every update route (PATCH and PUT) of the table, as A's
// admin, a body made of what the object's read answers but the update does
// not take (its read-only fields, changed) and fields no object has; the
// route must refuse it with 400 or take it without effect: a read before
// and after answers the same.
func (w *world) testPatch(t *testing.T) {
	gets := map[string]bool{}
	for _, c := range w.restCases(t) {
		if c.route.Method == "GET" {
			gets[c.route.Pattern] = true
		}
	}
	for _, c := range w.restCases(t) {
		if c.route.Method != "PATCH" && c.route.Method != "PUT" {
			continue
		}
		if !gets[c.route.Pattern] {
			// An action (sorting a structure), not an object's update.
			continue
		}
		ids := w.fresh(c.params)
		path := c.path(t, ids)
		before := w.e.Do(w.a.admin.Token, "GET", path, nil)
		var current map[string]any
		if err := json.Unmarshal(before.Body, &current); err != nil || before.Status != 200 {
			t.Errorf("%s: read %d %s", c.key, before.Status, before.Body)
			continue
		}
		writable := bodyFields(c.route.Request)
		body := map[string]any{}
		for _, k := range slices.Concat(slices.Collect(maps.Keys(current)), readOnly) {
			if !writable[k] {
				body[k] = w.changed(k, current[k])
			}
		}
		r := w.e.Do(w.a.admin.Token, c.route.Method, path, body)
		w.asked++
		if r.Status != 200 && r.Status != 400 {
			t.Errorf("%s with read-only fields: %d %s, want 400 or 200 and no change", c.key, r.Status, r.Body)
		}
		after := w.e.Do(w.a.admin.Token, "GET", path, nil)
		if unsigned(string(after.Body)) != unsigned(string(before.Body)) {
			t.Errorf("%s with read-only fields %v answered %d and changed the object:\nbefore %s\n after %s",
				c.key, slices.Sorted(maps.Keys(body)), r.Status, before.Body, after.Body)
		}
	}
}

// bodyFields are the JSON names of a body type's fields.
func bodyFields(t reflect.Type) map[string]bool {
	out := map[string]bool{}
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return out
	}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out[name] = true
		}
	}
	return out
}

// changed returns another value of the same JSON type; ids become ids of
// organization B's objects.
func (w *world) changed(key string, v any) any {
	switch v := v.(type) {
	case string:
		if len(v) == 20 {
			for _, id := range w.b.ids {
				if id[0] == v[0] {
					return id
				}
			}
		}
		if strings.HasSuffix(key, "At") {
			return "2001-02-03T04:05:06Z"
		}
		return v + " changed"
	case bool:
		return !v
	case float64:
		return v + 1
	case []any:
		return append(slices.Clone(v), "changed")
	case map[string]any:
		out := map[string]any{"changed": true}
		for k, x := range v {
			out[k] = w.changed(k, x)
		}
		return out
	case nil:
		if key == "organization" {
			return w.b.ids["organizationId"]
		}
		return "changed"
	}
	return v
}
