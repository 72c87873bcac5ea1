package rest_test

import (
	"testing"
	"time"

	"quire/internal/testing/testenv"
)

// TestPageFieldsShapes reads the link title, icon, times, indexing, meta
// links and computed definition of each page type through every page read
// of /v1: each field appears on the page types the reference gives it, and
// optional ones only when set.
func TestPageFieldsShapes(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := newSpace(t, e, team, "Shapes")
		cr := newCR(t, e, team.Editor.Token, space, map[string]any{"subject": "Pages"})["id"].(string)
		tok := team.Editor.Token
		group := createPage(t, e, tok, cr, map[string]any{"title": "Guides", "type": "group", "noRobotsIndex": true})
		docID := createPage(t, e, tok, cr, map[string]any{"title": "Install", "parent": group, "linkTitle": "Setup", "icon": "gear",
			"markdown": "Steps.", "metaLinks": map[string]any{"alternates": []any{
				map[string]any{"kind": "url", "url": "https://example.com/fr/install"},
				map[string]any{"kind": "page", "page": group},
			}}})
		comp := createPage(t, e, tok, cr, map[string]any{"title": "Models", "parent": group, "computed": map[string]any{
			"type": "builtin:openapi", "props": map[string]any{"doc": "models"},
			"dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": "petstore"}}}}})
		plain := createPage(t, e, tok, cr, map[string]any{"title": "Plain"})
		ext := createPage(t, e, tok, cr, map[string]any{"title": "Website", "type": "link", "icon": "globe",
			"target": map[string]any{"kind": "url", "url": "https://example.org"}})
		merge(t, e, team.Admin.Token, space, cr)

		base := "/v1/spaces/" + space + "/content"
		r := e.Do(team.Reader.Token, "GET", base, nil)
		if r.Status != 200 {
			t.Fatalf("content: %d %s", r.Status, r.Body)
		}
		byID := map[string]map[string]any{}
		var walk func(v any)
		walk = func(v any) {
			for _, p := range v.([]any) {
				m := p.(map[string]any)
				byID[m["id"].(string)] = m
				if kids, ok := m["pages"]; ok {
					walk(kids)
				}
			}
		}
		walk(r.JSON()["pages"])

		g, d, c, p, l := byID[group], byID[docID], byID[comp], byID[plain], byID[ext]
		for name, m := range map[string]map[string]any{"group": g, "document": d, "computed": c, "plain": p, "link": l} {
			for _, k := range []string{"createdAt", "updatedAt"} {
				if _, err := time.Parse(time.RFC3339, testString(m[k])); err != nil {
					t.Errorf("%s.%s = %v: %v", name, k, m[k], err)
				}
			}
		}
		if g["noIndex"] != false || g["noRobotsIndex"] != true || pfHas(g, "metaLinks", "computed", "computedSeed", "linkTitle", "icon") {
			t.Errorf("group: %v", g)
		}
		if d["linkTitle"] != "Setup" || d["icon"] != "gear" || d["noIndex"] != false || pfHas(d, "computed", "computedSeed") ||
			testenv.Path(d, "metaLinks", "alternates", 0, "url") != "https://example.com/fr/install" ||
			testenv.Path(d, "metaLinks", "alternates", 1, "page") != group || pfHas(d["metaLinks"].(map[string]any), "canonical") {
			t.Errorf("document: %v", d)
		}
		if testenv.Path(c, "computed", "type") != "builtin:openapi" || testenv.Path(c, "computed", "dependencies", "spec", "ref", "kind") != "openapi" ||
			testString(c["computedSeed"]) == "" || pfHas(c, "metaLinks") {
			t.Errorf("computed: %v", c)
		}
		if pfHas(p, "linkTitle", "icon", "metaLinks", "computed", "computedSeed") || p["noIndex"] != false || p["noRobotsIndex"] != false {
			t.Errorf("plain: %v", p)
		}
		if l["icon"] != "globe" || pfHas(l, "noIndex", "noRobotsIndex", "metaLinks", "computed") {
			t.Errorf("link: %v", l)
		}

		// The page reads answer the same fields.
		one := e.Do(team.Reader.Token, "GET", base+"/page/"+docID, nil)
		if one.Status != 200 || one.JSON()["linkTitle"] != "Setup" || one.JSON()["updatedAt"] != d["updatedAt"] || testenv.Path(one.JSON(), "metaLinks", "alternates", 1, "page") != group {
			t.Errorf("page read: %d %s", one.Status, one.Body)
		}
		tree := e.Do(team.Reader.Token, "GET", base+"/pages", nil)
		if tree.Status != 200 || testenv.Path(tree.JSON(), "pages", 0, "noRobotsIndex") != true {
			t.Errorf("page tree: %d %s", tree.Status, tree.Body)
		}
	})
}

func testString(v any) string { s, _ := v.(string); return s }

// pfHas reports whether m holds any of keys.
func pfHas(m map[string]any, keys ...string) bool {
	for _, k := range keys {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}
