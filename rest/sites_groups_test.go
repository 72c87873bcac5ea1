package rest_test

import (
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

func TestSiteStructureDeprecatedMoves(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a, b, c, x := f.space(t, "Alpha"), f.space(t, "Beta"), f.space(t, "Gamma"), f.space(t, "Epsilon")
		id := f.site(t, map[string]any{"title": "Legacy"})["id"].(string)
		one := f.section(t, id, a, "One")["id"].(string)
		two := f.section(t, id, b, "Two")["id"].(string)
		three := f.section(t, id, c, "Three")["id"].(string)
		ssE := f.siteSpace(t, id, x, one)["id"].(string)
		secs := f.do(t, "GET", f.path(id, "sections"), nil, 200)
		ssA := sitStr(secs, "items", 0, "siteSpaces", 0, "id")
		ssB := sitStr(secs, "items", 1, "siteSpaces", 0, "id")
		if _, out := f.outline(t, id); out != "One[Alpha Epsilon] Two[Beta] Three[Gamma]" {
			t.Fatalf("initial %q", out)
		}

		legacy := func(what, path string, body any, moved, want string) map[string]any {
			t.Helper()
			before := sitPlaces(t, e, id)
			v := f.do(t, "POST", path, body, 200)
			if v["id"] != moved {
				t.Errorf("%s: answered %v", what, v["id"])
			}
			sitOnlyMoved(t, what, before, sitPlaces(t, e, id), moved)
			if _, out := f.outline(t, id); out != want {
				t.Errorf("%s: %q, want %q", what, out, want)
			}
			return v
		}
		v := legacy("site space before", f.path(id, "site-spaces", ssE, "move"),
			map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-space", "siteSpace": ssA}}}, ssE,
			"One[Epsilon Alpha] Two[Beta] Three[Gamma]")
		sitCheckSiteSpace(t, v, "legacy site space move")
		legacy("site space into another section", f.path(id, "site-spaces", ssE, "move"),
			map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-space", "siteSpace": ssB}}}, ssE,
			"One[Alpha] Two[Beta Epsilon] Three[Gamma]")
		v = legacy("section after", f.path(id, "sections", one, "move"),
			map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-section", "siteSection": three}}}, one,
			"Two[Beta Epsilon] Three[Gamma] One[Alpha]")
		sitCheckSection(t, v, "legacy section move")
		legacy("section with id", f.path(id, "sections", one, "move"),
			map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "id": two}}}, one,
			"One[Alpha] Two[Beta Epsilon] Three[Gamma]")
		legacy("section to the end", f.path(id, "sections", one, "move"), map[string]any{}, one,
			"Two[Beta Epsilon] Three[Gamma] One[Alpha]")
		g := f.do(t, "POST", f.path(id, "section-groups"), map[string]any{"title": "Group", "sections": []string{three}}, 201)["id"].(string)
		v = legacy("group before", f.path(id, "section-groups", g, "move"),
			map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "id": two}}}, g,
			"Group{Three[Gamma]} Two[Beta Epsilon] One[Alpha]")
		sitCheckGroup(t, v, "legacy group move")
		legacy("section into a group", f.path(id, "sections", one, "move"),
			map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-section", "siteSection": three}}}, one,
			"Group{Three[Gamma] One[Alpha]} Two[Beta Epsilon]")

		for _, c := range []struct {
			name, path string
			body       any
			status     int
			field      string
		}{
			{"site space pointer of the wrong type", f.path(id, "site-spaces", ssE, "move"), map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-section", "siteSection": two}}}, 400, "position"},
			{"section pointer of the wrong type", f.path(id, "sections", one, "move"), map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-space", "siteSpace": ssB}}}, 400, "position"},
			{"group into itself", f.path(id, "section-groups", g, "move"), map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-section", "id": three}}}, 400, "position"},
			{"position not an object", f.path(id, "sections", one, "move"), map[string]any{"position": "end"}, 400, "position"},
			{"malformed JSON", f.path(id, "sections", one, "move"), `{"position":`, 400, "body"},
			{"unknown section", f.path(id, "sections", "nope", "move"), map[string]any{}, 404, ""},
			{"unknown site space", f.path(id, "site-spaces", "nope", "move"), map[string]any{}, 404, ""},
			{"unknown group", f.path(id, "section-groups", "nope", "move"), map[string]any{}, 404, ""},
		} {
			sitErr(t, e.Do(f.tok, "POST", c.path, c.body), c.status, c.field, c.name)
		}
		if _, out := f.outline(t, id); out != "Group{Three[Gamma] One[Alpha]} Two[Beta Epsilon]" {
			t.Errorf("refused legacy moves changed the structure: %q", out)
		}
	})
}

func TestSiteSectionGroups(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a, b, c, d := f.space(t, "Alpha"), f.space(t, "Beta"), f.space(t, "Gamma"), f.space(t, "Delta")
		id := f.site(t, map[string]any{"title": "Grouped", "spaces": []string{a}})["id"].(string)
		// A site without sections has nothing to group.
		sitErr(t, e.Do(f.tok, "POST", f.path(id, "section-groups"), map[string]any{"title": "Group"}), 400, "sections", "group without sections")

		two := f.section(t, id, b, "Two")["id"].(string)
		three := f.section(t, id, c, "Three")["id"].(string)
		four := f.section(t, id, d, "Four")["id"].(string)
		one := sitStr(f.do(t, "GET", f.path(id, "sections"), nil, 200), "items", 0, "id")
		if _, out := f.outline(t, id); out != "Grouped[Alpha] Two[Beta] Three[Gamma] Four[Delta]" {
			t.Fatalf("initial %q", out)
		}

		r := e.Do(f.tok, "POST", f.path(id, "section-groups"), map[string]any{"title": "Guides", "icon": "map", "sections": []string{three, two}})
		g := sitWant(t, r, 201, "create group")
		sitCheckGroup(t, g, "created group")
		gid := g["id"].(string)
		if g["title"] != "Guides" || g["icon"] != "map" {
			t.Errorf("group %v", g)
		}
		if loc := r.Header.Get("Location"); !strings.HasSuffix(loc, f.path(id, "section-groups", gid)) {
			t.Errorf("Location %q", loc)
		}
		if got := sitIDs(map[string]any{"items": g["sections"]}); strings.Join(got, ",") != three+","+two {
			t.Errorf("group sections %v, want in the given order", got)
		}
		if _, out := f.outline(t, id); out != "Grouped[Alpha] Four[Delta] Guides{Three[Gamma] Two[Beta]}" {
			t.Errorf("after creating a group %q", out)
		}
		secs := f.do(t, "GET", f.path(id, "sections"), nil, 200)
		for _, s := range secs["items"].([]any) {
			in := sitStr(s, "id") == two || sitStr(s, "id") == three
			if (sitStr(s, "sectionGroup") == gid) != in {
				t.Errorf("section %s sectionGroup %q", sitStr(s, "title"), sitStr(s, "sectionGroup"))
			}
		}

		// A nested group.
		inner := f.do(t, "POST", f.path(id, "section-groups"), map[string]any{"title": "Inner", "parent": gid}, 201)
		if inner["sectionGroup"] != gid {
			t.Errorf("nested group parent %v", inner["sectionGroup"])
		}
		iid := inner["id"].(string)
		if _, out := f.outline(t, id); out != "Grouped[Alpha] Four[Delta] Guides{Three[Gamma] Two[Beta] Inner{}}" {
			t.Errorf("after a nested group %q", out)
		}
		list := f.do(t, "GET", f.path(id, "section-groups"), nil, 200)
		if got := sitIDs(list); strings.Join(got, ",") != gid+","+iid || list["count"] != 2.0 {
			t.Errorf("groups %v", list)
		}
		for _, it := range list["items"].([]any) {
			sitCheckGroup(t, it.(map[string]any), "listed group")
		}

		// Patch.
		p := f.do(t, "PATCH", f.path(id, "section-groups", gid), map[string]any{"title": "Tutorials"}, 200)
		sitCheckGroup(t, p, "patched group")
		if p["title"] != "Tutorials" || p["icon"] != "map" {
			t.Errorf("patched title %v", p)
		}
		p = f.do(t, "PATCH", f.path(id, "section-groups", gid), map[string]any{"icon": nil}, 200)
		if _, ok := p["icon"]; ok || p["title"] != "Tutorials" {
			t.Errorf("icon null: %v", p)
		}
		sitErr(t, e.Do(f.tok, "PATCH", f.path(id, "section-groups", gid), map[string]any{"title": ""}), 400, "title", "empty group title")
		sitErr(t, e.Do(f.tok, "PATCH", f.path(id, "section-groups", gid), map[string]any{"icon": strings.Repeat("i", 51)}), 400, "icon", "long group icon")
		sitErr(t, e.Do(f.tok, "PATCH", f.path(id, "section-groups", "nope"), map[string]any{"title": "X"}), 404, "", "unknown group")

		// Add a section to a group, at its end; remove it to the group's parent.
		r = e.Do(f.tok, "POST", f.path(id, "section-groups", iid, "sections"), map[string]any{"sectionId": four})
		ig := sitWant(t, r, 201, "add section to group")
		sitCheckGroup(t, ig, "group after adding")
		if ig["id"] != iid || sitStr(ig, "sections", 0, "id") != four {
			t.Errorf("group after adding %v", ig)
		}
		if _, out := f.outline(t, id); out != "Grouped[Alpha] Tutorials{Three[Gamma] Two[Beta] Inner{Four[Delta]}}" {
			t.Errorf("after adding to the inner group %q", out)
		}
		sitErr(t, e.Do(f.tok, "POST", f.path(id, "section-groups", iid, "sections"), map[string]any{"sectionId": "nope"}), 400, "sectionId", "add unknown section")
		sitErr(t, e.Do(f.tok, "POST", f.path(id, "section-groups", "nope", "sections"), map[string]any{"sectionId": one}), 404, "", "add to unknown group")
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(id, "section-groups", iid, "sections", four), nil), 205, "remove from the inner group")
		if _, out := f.outline(t, id); out != "Grouped[Alpha] Tutorials{Three[Gamma] Two[Beta] Inner{} Four[Delta]}" {
			t.Errorf("after removing from the inner group %q", out)
		}
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(id, "section-groups", iid, "sections", four), nil), 204, "remove a section not in the group")
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(id, "section-groups", gid, "sections", four), nil), 205, "remove from the outer group")
		if _, out := f.outline(t, id); out != "Grouped[Alpha] Tutorials{Three[Gamma] Two[Beta] Inner{}} Four[Delta]" {
			t.Errorf("after removing from the outer group %q", out)
		}

		// Deleting a group moves its children up to its parent, in order.
		f.do(t, "POST", f.path(id, "section-groups", iid, "sections"), map[string]any{"sectionId": one}, 201)
		if _, out := f.outline(t, id); out != "Tutorials{Three[Gamma] Two[Beta] Inner{Grouped[Alpha]}} Four[Delta]" {
			t.Errorf("before deleting %q", out)
		}
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(id, "section-groups", iid), nil), 205, "delete the inner group")
		if _, out := f.outline(t, id); out != "Tutorials{Three[Gamma] Two[Beta] Grouped[Alpha]} Four[Delta]" {
			t.Errorf("after deleting the inner group %q", out)
		}
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(id, "section-groups", gid), nil), 205, "delete the outer group")
		if _, out := f.outline(t, id); out != "Four[Delta] Three[Gamma] Two[Beta] Grouped[Alpha]" {
			t.Errorf("after deleting the outer group %q", out)
		}
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(id, "section-groups", gid), nil), 204, "delete again")
		if got := f.do(t, "GET", f.path(id, "section-groups"), nil, 200); got["count"] != 0.0 {
			t.Errorf("groups left %v", got)
		}
		// A group created with a parent in another site is refused.
		other := f.site(t, map[string]any{"title": "Other"})["id"].(string)
		f.section(t, other, a, "")
		og := f.do(t, "POST", f.path(other, "section-groups"), map[string]any{"title": "Theirs"}, 201)["id"].(string)
		sitErr(t, e.Do(f.tok, "POST", f.path(id, "section-groups"), map[string]any{"title": "X", "parent": og}), 400, "parent", "parent from another site")
		sitErr(t, e.Do(f.tok, "POST", f.path(other, "section-groups", og, "sections"), map[string]any{"sectionId": two}), 400, "sectionId", "section from another site")
	})
}

func TestSiteSectionsAndSiteSpacesPatch(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a, b, c := f.space(t, "Alpha"), f.space(t, "Beta"), f.space(t, "Gamma")
		id := f.site(t, map[string]any{"title": "Patched", "spaces": []string{a, b}})["id"].(string)
		items := f.do(t, "GET", f.path(id, "site-spaces"), nil, 200)["items"].([]any)
		ssA := sitStr(items[0], "id")
		ssPath := f.path(id, "site-spaces", ssA)

		// Site space: each field alone; the others stay.
		v := f.do(t, "PATCH", ssPath, map[string]any{"path": "intro"}, 200)
		sitCheckSiteSpace(t, v, "patched site space")
		if v["path"] != "intro" || v["hidden"] != false || v["condition"] != nil || sitStr(v, "space", "id") != a {
			t.Errorf("patch path: %v", v)
		}
		v = f.do(t, "PATCH", ssPath, map[string]any{"condition": "visitor.claims.beta"}, 200)
		if v["condition"] != "visitor.claims.beta" || v["path"] != "intro" {
			t.Errorf("patch condition: %v", v)
		}
		v = f.do(t, "PATCH", ssPath, map[string]any{"hidden": true}, 200)
		if v["hidden"] != true || v["condition"] != "visitor.claims.beta" || v["path"] != "intro" {
			t.Errorf("patch hidden: %v", v)
		}
		v = f.do(t, "PATCH", ssPath, map[string]any{"spaceId": c}, 200)
		if sitStr(v, "space", "id") != c || v["title"] != "Gamma" || v["hidden"] != true || v["path"] != "intro" {
			t.Errorf("patch space: %v", v)
		}
		// Another site space already publishes b: a space is on a site once.
		sitErr(t, e.Do(f.tok, "PATCH", ssPath, map[string]any{"spaceId": b}), 400, "spaceId", "patch to a space already on the site")
		f.do(t, "PATCH", ssPath, map[string]any{"spaceId": c}, 200) // its own space: no change, no error
		v = f.do(t, "PATCH", ssPath, map[string]any{}, 200)
		if v["condition"] != "visitor.claims.beta" || v["hidden"] != true {
			t.Errorf("empty patch changed: %v", v)
		}
		v = f.do(t, "PATCH", ssPath, map[string]any{"condition": nil}, 200)
		if _, ok := v["condition"]; ok || v["hidden"] != true {
			t.Errorf("condition null: %v", v)
		}
		got := f.do(t, "GET", f.path(id, "site-spaces"), nil, 200)["items"].([]any)[0].(map[string]any)
		if got["id"] != ssA || got["path"] != "intro" || got["hidden"] != true || sitStr(got, "space", "id") != c {
			t.Errorf("listed after patches: %v", got)
		}
		sitErr(t, e.Do(f.tok, "PATCH", f.path(id, "site-spaces", "nope"), map[string]any{"hidden": true}), 404, "", "unknown site space")
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(id, "site-spaces", "nope"), nil), 204, "delete unknown site space")

		// Section: each field; null removes the optional ones.
		sec := f.section(t, id, f.space(t, "Delta"), "Guides")["id"].(string)
		secPath := f.path(id, "sections", sec)
		v = f.do(t, "PATCH", secPath, map[string]any{"title": "Tutorials", "path": "tutorials", "icon": "book", "description": "Step by step", "condition": `visitor.claims.plan == "pro"`}, 200)
		sitCheckSection(t, v, "patched section")
		if v["title"] != "Tutorials" || v["path"] != "tutorials" || v["icon"] != "book" || v["description"] != "Step by step" || v["condition"] != `visitor.claims.plan == "pro"` {
			t.Errorf("patch section: %v", v)
		}
		v = f.do(t, "PATCH", secPath, map[string]any{"title": "Lessons"}, 200)
		if v["title"] != "Lessons" || v["icon"] != "book" || v["description"] != "Step by step" || v["path"] != "tutorials" {
			t.Errorf("patch title only: %v", v)
		}
		v = f.do(t, "PATCH", secPath, map[string]any{"icon": nil, "description": nil, "condition": nil}, 200)
		for _, k := range []string{"icon", "description", "condition"} {
			if _, ok := v[k]; ok {
				t.Errorf("%s null did not remove it: %v", k, v[k])
			}
		}
		if v["title"] != "Lessons" || v["path"] != "tutorials" {
			t.Errorf("after nulls: %v", v)
		}
		sitErr(t, e.Do(f.tok, "PATCH", f.path(id, "sections", "nope"), map[string]any{"title": "Xx"}), 404, "", "unknown section")
		sitErr(t, e.Do(f.tok, "PATCH", secPath, map[string]any{"path": nil}), 400, "path", "section path null")
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(id, "sections", "nope"), nil), 204, "delete unknown section")
	})
}
