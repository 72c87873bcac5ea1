package rest_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"quire/ent/sitesection"
	"quire/ent/sitesectiongroup"
	"quire/ent/sitespace"
	"quire/internal/testing/testenv"
)

// sitPlace is where an item of a site's structure sits in the database.
type sitPlace struct{ parent, position string }

// sitPlaces reads the parent and position of every section, group and site
// space of a site, to check that a sort rewrote only the moved item.
func sitPlaces(t *testing.T, e *testenv.Env, siteID string) map[string]sitPlace {
	t.Helper()
	ctx := context.Background()
	c := e.Client()
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	out := map[string]sitPlace{}
	secs, err := c.SiteSection.Query().Where(sitesection.SiteID(siteID)).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secs {
		out[s.ID] = sitPlace{str(s.GroupID), s.Position}
	}
	groups, err := c.SiteSectionGroup.Query().Where(sitesectiongroup.SiteID(siteID)).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range groups {
		out[g.ID] = sitPlace{str(g.ParentID), g.Position}
	}
	sss, err := c.SiteSpace.Query().Where(sitespace.SiteID(siteID)).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, ss := range sss {
		out[ss.ID] = sitPlace{str(ss.SectionID), ss.Position}
	}
	return out
}

// sitOnlyMoved checks that only moved changed between two snapshots.
func sitOnlyMoved(t *testing.T, what string, before, after map[string]sitPlace, moved string) {
	t.Helper()
	if len(before) != len(after) {
		t.Errorf("%s: %d items before, %d after", what, len(before), len(after))
	}
	for id, p := range before {
		if id == moved {
			continue
		}
		if after[id] != p {
			t.Errorf("%s: %s was rewritten (%v -> %v); only %s should move", what, id, p, after[id], moved)
		}
	}
	if before[moved] == after[moved] {
		t.Errorf("%s: the moved item %s did not change", what, moved)
	}
}

// sitDefaults returns, for a list of sections or site spaces, the titles of
// those marked default.
func sitDefaults(list map[string]any) []string {
	var out []string
	for _, it := range list["items"].([]any) {
		if testenv.Path(it, "default") == true {
			out = append(out, sitStr(it, "title"))
		}
	}
	sort.Strings(out)
	return out
}

func sitPtr(typ, id string) map[string]any { return map[string]any{"type": typ, "id": id} }

func TestSiteStructureNeverMixed(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a, b, c, d, x := f.space(t, "Alpha"), f.space(t, "Beta"), f.space(t, "Gamma"), f.space(t, "Delta"), f.space(t, "Epsilon")
		id := f.site(t, map[string]any{"title": "Handbook", "spaces": []string{a, b}})["id"].(string)
		if typ, out := f.outline(t, id); typ != "siteSpaces" || out != "Alpha Beta" {
			t.Fatalf("initial structure %s %q", typ, out)
		}
		ss := f.do(t, "GET", f.path(id, "site-spaces"), nil, 200)
		if got := sitDefaults(ss); len(got) != 1 || got[0] != "Alpha" {
			t.Errorf("root default %v, want the first site space", got)
		}
		ssB := sitStr(ss, "items", 1, "id")
		// Make the second one the default, to see it kept in the gathered section.
		f.do(t, "PATCH", f.path(id), map[string]any{"defaultSiteSpace": ssB}, 200)
		if got := sitDefaults(f.do(t, "GET", f.path(id, "site-spaces"), nil, 200)); len(got) != 1 || got[0] != "Beta" {
			t.Errorf("root default after patch %v", got)
		}
		// Without sections, a new site space goes to the root.
		f.siteSpace(t, id, c, "")
		if typ, out := f.outline(t, id); typ != "siteSpaces" || out != "Alpha Beta Gamma" {
			t.Fatalf("structure %s %q", typ, out)
		}

		// The first section gathers the root site spaces into a default section.
		r := e.Do(f.tok, "POST", f.path(id, "sections"), map[string]any{"spaceId": d, "title": "Reference", "icon": "book"})
		ref := sitWant(t, r, 201, "add first section")
		sitCheckSection(t, ref, "first section")
		if ref["title"] != "Reference" || ref["icon"] != "book" || ref["default"] != false || ref["path"] != "reference" {
			t.Errorf("added section %v", ref)
		}
		if items := ref["siteSpaces"].([]any); len(items) != 1 || sitStr(items[0], "space", "id") != d || testenv.Path(items[0], "default") != true {
			t.Errorf("added section site spaces %v", ref["siteSpaces"])
		}
		if loc := r.Header.Get("Location"); !strings.HasSuffix(loc, f.path(id, "sections", ref["id"].(string))) {
			t.Errorf("Location %q", loc)
		}
		typ, out := f.outline(t, id)
		if typ != "sections" || out != "Handbook[Alpha Beta Gamma] Reference[Delta]" {
			t.Fatalf("after first section %s %q", typ, out)
		}
		secs := f.do(t, "GET", f.path(id, "sections"), nil, 200)
		if secs["count"] != 2.0 || sitDefaults(secs)[0] != "Handbook" || len(sitDefaults(secs)) != 1 {
			t.Errorf("sections %v defaults %v", sitIDs(secs), sitDefaults(secs))
		}
		gathered := sitStr(secs, "items", 0, "id")
		// The gathered section keeps the site's default site space.
		for _, it := range testenv.Path(secs, "items", 0, "siteSpaces").([]any) {
			if (sitStr(it, "title") == "Beta") != (testenv.Path(it, "default") == true) {
				t.Errorf("gathered site space %s default %v", sitStr(it, "title"), testenv.Path(it, "default"))
			}
		}
		// No site space is left at the root.
		for _, it := range f.do(t, "GET", f.path(id, "site-spaces"), nil, 200)["items"].([]any) {
			if sitStr(it, "section") == "" {
				t.Errorf("site space %s left at the root", sitStr(it, "title"))
			}
		}
		if v := f.do(t, "GET", f.path(id), nil, 200); v["siteSpaces"] != 4.0 {
			t.Errorf("siteSpaces count %v", v["siteSpaces"])
		}

		// Without sectionId a site space goes to the default section.
		added := f.siteSpace(t, id, x, "")
		if sitStr(added, "section") != gathered {
			t.Errorf("site space without sectionId went to %q, want the default section %q", sitStr(added, "section"), gathered)
		}
		if _, out := f.outline(t, id); out != "Handbook[Alpha Beta Gamma Epsilon] Reference[Delta]" {
			t.Errorf("after adding to the default section %q", out)
		}
		// With sectionId, to that section.
		f.siteSpace(t, id, f.space(t, "Zeta"), ref["id"].(string))
		if _, out := f.outline(t, id); out != "Handbook[Alpha Beta Gamma Epsilon] Reference[Delta Zeta]" {
			t.Errorf("after adding to a section %q", out)
		}
		// A space is on a site once: adding it again, anywhere, is refused.
		sitErr(t, e.Do(f.tok, "POST", f.path(id, "site-spaces"), map[string]any{"spaceId": a, "sectionId": ref["id"]}), 400, "spaceId", "add a space already on the site")
		sitErr(t, e.Do(f.tok, "POST", f.path(id, "site-spaces"), map[string]any{"spaceId": d}), 400, "spaceId", "add a space already on the site, default section")
		sitErr(t, e.Do(f.tok, "POST", f.path(id, "sections"), map[string]any{"spaceId": a, "title": "Again"}), 400, "spaceId", "add a section with a space already on the site")
		if _, out := f.outline(t, id); out != "Handbook[Alpha Beta Gamma Epsilon] Reference[Delta Zeta]" {
			t.Errorf("refused adds changed the structure: %q", out)
		}
		// The default section follows the site's setting.
		f.do(t, "PATCH", f.path(id), map[string]any{"defaultSiteSection": ref["id"]}, 200)
		f.siteSpace(t, id, f.space(t, "Eta"), "")
		if _, out := f.outline(t, id); out != "Handbook[Alpha Beta Gamma Epsilon] Reference[Delta Zeta Eta]" {
			t.Errorf("after changing the default section %q", out)
		}
		if got := sitDefaults(f.do(t, "GET", f.path(id, "sections"), nil, 200)); len(got) != 1 || got[0] != "Reference" {
			t.Errorf("default sections %v", got)
		}

		// A site without site spaces: the first section is alone and default.
		empty := f.site(t, map[string]any{"title": "Empty"})["id"].(string)
		first := f.section(t, empty, a, "")
		if first["title"] != "Alpha" || first["default"] != true {
			t.Errorf("first section of an empty site %v", first)
		}
		if typ, out := f.outline(t, empty); typ != "sections" || out != "Alpha[Alpha]" {
			t.Errorf("empty site after a section %s %q", typ, out)
		}
	})
}

func TestSiteStructureDefaults(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a, b, c, d := f.space(t, "Alpha"), f.space(t, "Beta"), f.space(t, "Gamma"), f.space(t, "Delta")

		// Root site spaces: deleting the default picks another.
		root := f.site(t, map[string]any{"title": "Root", "spaces": []string{a, b, c}})["id"].(string)
		ss := f.do(t, "GET", f.path(root, "site-spaces"), nil, 200)
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(root, "site-spaces", sitStr(ss, "items", 0, "id")), nil), 205, "delete default root site space")
		ss = f.do(t, "GET", f.path(root, "site-spaces"), nil, 200)
		if got := sitDefaults(ss); len(got) != 1 || got[0] != "Beta" {
			t.Errorf("root default after delete %v", got)
		}
		if got := sitIDs(f.do(t, "GET", f.path(root, "site-spaces")+"?default=true", nil, 200)); len(got) != 1 || got[0] != sitStr(ss, "items", 0, "id") {
			t.Errorf("default=true filter %v", got)
		}
		if got := sitIDs(f.do(t, "GET", f.path(root, "site-spaces")+"?default=false", nil, 200)); len(got) != 1 || got[0] != sitStr(ss, "items", 1, "id") {
			t.Errorf("default=false filter %v", got)
		}
		sitErr(t, e.Do(f.tok, "GET", f.path(root, "site-spaces")+"?default=perhaps", nil), 400, "default", "bad default filter")
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(root, "site-spaces", sitStr(ss, "items", 0, "id")), nil), 205, "delete again")
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(root, "site-spaces", sitStr(ss, "items", 0, "id")), nil), 204, "delete a deleted site space")
		if got := sitDefaults(f.do(t, "GET", f.path(root, "site-spaces"), nil, 200)); len(got) != 1 || got[0] != "Gamma" {
			t.Errorf("root default after second delete %v", got)
		}

		// Sections.
		id := f.site(t, map[string]any{"title": "Sections"})["id"].(string)
		one := f.section(t, id, a, "One")["id"].(string)
		two := f.section(t, id, b, "Two")["id"].(string)
		three := f.section(t, id, c, "Three")["id"].(string)
		ssD := f.siteSpace(t, id, d, two)["id"].(string)
		if got := sitDefaults(f.do(t, "GET", f.path(id, "sections"), nil, 200)); len(got) != 1 || got[0] != "One" {
			t.Errorf("first section is the default: %v", got)
		}
		// The section's default site space: the first; PATCH changes it.
		sec := f.do(t, "PATCH", f.path(id, "sections", two), map[string]any{"defaultSiteSpace": ssD}, 200)
		sitCheckSection(t, sec, "patched section")
		if testenv.Path(sec, "siteSpaces", 1, "default") != true || testenv.Path(sec, "siteSpaces", 0, "default") != false {
			t.Errorf("section default site space %v", sec["siteSpaces"])
		}
		// Deleting a section's default site space picks another.
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(id, "site-spaces", ssD), nil), 205, "delete the section's default")
		sec = f.do(t, "GET", f.path(id, "sections"), nil, 200)
		if got := testenv.Path(sec, "items", 1, "siteSpaces", 0, "default"); got != true {
			t.Errorf("section default after delete %v", got)
		}
		// Deleting the default section picks another; its site spaces go with it.
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(id, "sections", one), nil), 205, "delete the default section")
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(id, "sections", one), nil), 204, "delete it again")
		secs := f.do(t, "GET", f.path(id, "sections"), nil, 200)
		if got := sitDefaults(secs); len(got) != 1 || got[0] != "Two" {
			t.Errorf("default section after delete %v", got)
		}
		if _, out := f.outline(t, id); out != "Two[Beta] Three[Gamma]" {
			t.Errorf("structure after deleting a section %q", out)
		}
		if v := f.do(t, "GET", f.path(id), nil, 200); v["siteSpaces"] != 2.0 {
			t.Errorf("siteSpaces after deleting a section %v", v["siteSpaces"])
		}
		// The site's default section can be chosen, and deleting it again
		// falls back.
		f.do(t, "PATCH", f.path(id), map[string]any{"defaultSiteSection": three}, 200)
		if got := sitDefaults(f.do(t, "GET", f.path(id, "sections"), nil, 200)); len(got) != 1 || got[0] != "Three" {
			t.Errorf("default after patch %v", got)
		}
		sitEmpty(t, e.Do(f.tok, "DELETE", f.path(id, "sections", three), nil), 205, "delete the chosen default")
		if got := sitDefaults(f.do(t, "GET", f.path(id, "sections"), nil, 200)); len(got) != 1 || got[0] != "Two" {
			t.Errorf("default after deleting the chosen default %v", got)
		}
		// The deleted section's space still exists.
		f.do(t, "GET", "/v1/spaces/"+c, nil, 200)

		// Moving a section's default site space to another section: the
		// section it left picks another default, the target keeps its own.
		mv := f.site(t, map[string]any{"title": "Moves"})["id"].(string)
		p := f.section(t, mv, a, "Pp")["id"].(string)
		f.siteSpace(t, mv, b, p)
		f.section(t, mv, c, "Qq")
		secs = f.do(t, "GET", f.path(mv, "sections"), nil, 200)
		ssAlpha := sitStr(secs, "items", 0, "siteSpaces", 0, "id")
		ssGamma := sitStr(secs, "items", 1, "siteSpaces", 0, "id")
		f.do(t, "PATCH", f.path(mv, "structure", "sort"), map[string]any{"item": sitPtr("site-space", ssAlpha), "position": map[string]any{"after": sitPtr("site-space", ssGamma)}}, 200)
		if _, out := f.outline(t, mv); out != "Pp[Beta] Qq[Gamma Alpha]" {
			t.Fatalf("after moving a default site space %q", out)
		}
		secs = f.do(t, "GET", f.path(mv, "sections"), nil, 200)
		for i, want := range []string{"true", "true false"} {
			var got []string
			for _, it := range testenv.Path(secs, "items", i, "siteSpaces").([]any) {
				got = append(got, fmt.Sprint(testenv.Path(it, "default")))
			}
			if strings.Join(got, " ") != want {
				t.Errorf("section %d default flags %v, want %s", i, got, want)
			}
		}
	})
}

func TestSiteStructureSort(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a, b, c, d, x := f.space(t, "Alpha"), f.space(t, "Beta"), f.space(t, "Gamma"), f.space(t, "Delta"), f.space(t, "Epsilon")
		id := f.site(t, map[string]any{"title": "Sorted"})["id"].(string)
		one := f.section(t, id, a, "One")["id"].(string)
		two := f.section(t, id, b, "Two")["id"].(string)
		three := f.section(t, id, c, "Three")["id"].(string)
		four := f.section(t, id, d, "Four")["id"].(string)
		ssE := f.siteSpace(t, id, x, one)["id"].(string)
		ssA := sitStr(f.do(t, "GET", f.path(id, "sections"), nil, 200), "items", 0, "siteSpaces", 0, "id")
		if _, out := f.outline(t, id); out != "One[Alpha Epsilon] Two[Beta] Three[Gamma] Four[Delta]" {
			t.Fatalf("initial %q", out)
		}

		sortPath := f.path(id, "structure", "sort")
		move := func(what string, item, position map[string]any, want string) map[string]any {
			t.Helper()
			before := sitPlaces(t, e, id)
			body := map[string]any{"item": item}
			if position != nil {
				body["position"] = position
			}
			v := f.do(t, "PATCH", sortPath, body, 200)
			if v["id"] != item["id"] {
				t.Errorf("%s: answered %v, want the moved item", what, v["id"])
			}
			switch item["type"] {
			case "site-space":
				sitCheckSiteSpace(t, v, what)
			case "site-section":
				sitCheckSection(t, v, what)
			case "site-section-group":
				sitCheckGroup(t, v, what)
			}
			sitOnlyMoved(t, what, before, sitPlaces(t, e, id), item["id"].(string))
			if _, out := f.outline(t, id); out != want {
				t.Errorf("%s: structure %q, want %q", what, out, want)
			}
			return v
		}
		sec := func(id string) map[string]any { return sitPtr("site-section", id) }
		grp := func(id string) map[string]any { return sitPtr("site-section-group", id) }
		ssp := func(id string) map[string]any { return sitPtr("site-space", id) }

		move("section after", sec(four), map[string]any{"after": sec(one)}, "One[Alpha Epsilon] Four[Delta] Two[Beta] Three[Gamma]")
		move("section before", sec(one), map[string]any{"before": sec(three)}, "Four[Delta] Two[Beta] One[Alpha Epsilon] Three[Gamma]")
		move("section between", sec(three), map[string]any{"after": sec(four), "before": sec(two)}, "Four[Delta] Three[Gamma] Two[Beta] One[Alpha Epsilon]")
		move("section to the front", sec(one), map[string]any{"before": sec(four)}, "One[Alpha Epsilon] Four[Delta] Three[Gamma] Two[Beta]")
		move("section to the end", sec(four), map[string]any{}, "One[Alpha Epsilon] Three[Gamma] Two[Beta] Four[Delta]")
		move("site space before", ssp(ssE), map[string]any{"before": ssp(ssA)}, "One[Epsilon Alpha] Three[Gamma] Two[Beta] Four[Delta]")
		// A site space moves into another section through its pointer.
		secs := f.do(t, "GET", f.path(id, "sections"), nil, 200)
		var ssBeta string
		for _, s := range secs["items"].([]any) {
			if sitStr(s, "id") == two {
				ssBeta = sitStr(s, "siteSpaces", 0, "id")
			}
		}
		v := move("site space into another section", ssp(ssE), map[string]any{"after": ssp(ssBeta)}, "One[Alpha] Three[Gamma] Two[Beta Epsilon] Four[Delta]")
		if v["section"] != two {
			t.Errorf("moved site space section %v, want %s", v["section"], two)
		}

		// Groups: a section moves into a group through a pointer.
		g := f.do(t, "POST", f.path(id, "section-groups"), map[string]any{"title": "Group", "sections": []string{two}}, 201)
		sitCheckGroup(t, g, "created group")
		gid := g["id"].(string)
		if _, out := f.outline(t, id); out != "One[Alpha] Three[Gamma] Four[Delta] Group{Two[Beta Epsilon]}" {
			t.Fatalf("with a group %q", out)
		}
		v = move("section into a group", sec(three), map[string]any{"after": sec(two)}, "One[Alpha] Four[Delta] Group{Two[Beta Epsilon] Three[Gamma]}")
		if v["sectionGroup"] != gid {
			t.Errorf("moved section's group %v", v["sectionGroup"])
		}
		move("group among sections", grp(gid), map[string]any{"before": sec(four)}, "One[Alpha] Group{Two[Beta Epsilon] Three[Gamma]} Four[Delta]")
		inner := f.do(t, "POST", f.path(id, "section-groups"), map[string]any{"title": "Inner", "parent": gid}, 201)["id"].(string)
		if _, out := f.outline(t, id); out != "One[Alpha] Group{Two[Beta Epsilon] Three[Gamma] Inner{}} Four[Delta]" {
			t.Fatalf("with a nested group %q", out)
		}
		move("section into a nested group", sec(one), map[string]any{"before": grp(inner)}, "Group{Two[Beta Epsilon] Three[Gamma] One[Alpha] Inner{}} Four[Delta]")
		move("section out of a group", sec(one), map[string]any{"after": grp(gid)}, "Group{Two[Beta Epsilon] Three[Gamma] Inner{}} One[Alpha] Four[Delta]")

		// Refused moves change nothing.
		snapshot := sitPlaces(t, e, id)
		_, outline := f.outline(t, id)
		for _, c := range []struct {
			name     string
			body     map[string]any
			status   int
			field    string
			contains string
		}{
			{"group into itself through a child", map[string]any{"item": grp(gid), "position": map[string]any{"after": sec(two)}}, 400, "position", "itself"},
			{"group into its own nested group", map[string]any{"item": grp(gid), "position": map[string]any{"after": grp(inner)}}, 400, "position", "itself"},
			{"site space next to a section", map[string]any{"item": ssp(ssA), "position": map[string]any{"after": sec(four)}}, 400, "position.after", ""},
			{"section next to a site space", map[string]any{"item": sec(four), "position": map[string]any{"before": ssp(ssA)}}, 400, "position.before", ""},
			{"group next to a site space", map[string]any{"item": grp(gid), "position": map[string]any{"before": ssp(ssA)}}, 400, "position.before", ""},
			{"next to itself", map[string]any{"item": sec(four), "position": map[string]any{"after": sec(four)}}, 400, "position.after", ""},
			{"pointers not adjacent", map[string]any{"item": sec(one), "position": map[string]any{"after": sec(four), "before": grp(gid)}}, 400, "position", ""},
			{"pointers in different groups", map[string]any{"item": sec(one), "position": map[string]any{"after": sec(two), "before": sec(four)}}, 400, "position", ""},
			{"unknown pointer", map[string]any{"item": sec(one), "position": map[string]any{"after": sec("nope")}}, 400, "position.after", ""},
			{"pointer of the wrong type", map[string]any{"item": sec(one), "position": map[string]any{"after": sec(gid)}}, 400, "position.after", ""},
			{"unknown item", map[string]any{"item": sec("nope"), "position": map[string]any{"after": sec(four)}}, 404, "", ""},
			{"item of the wrong type", map[string]any{"item": grp(four), "position": map[string]any{}}, 404, "", ""},
			{"unknown site space", map[string]any{"item": ssp("nope"), "position": map[string]any{}}, 404, "", ""},
		} {
			r := e.Do(f.tok, "PATCH", sortPath, c.body)
			sitErr(t, r, c.status, c.field, c.name)
			if c.contains != "" && !strings.Contains(sitStr(r.JSON(), "error", "message"), c.contains) {
				t.Errorf("%s: message %q does not say %q", c.name, sitStr(r.JSON(), "error", "message"), c.contains)
			}
		}
		after := sitPlaces(t, e, id)
		for k, p := range snapshot {
			if after[k] != p {
				t.Errorf("refused moves changed %s: %v -> %v", k, p, after[k])
			}
		}
		if _, out := f.outline(t, id); out != outline {
			t.Errorf("refused moves changed the structure: %q -> %q", outline, out)
		}
		sitErr(t, e.Do(f.tok, "PATCH", f.path("nope", "structure", "sort"), map[string]any{"item": sec(one)}), 404, "", "sort on an unknown site")

		// Root site spaces sort too.
		rid := f.site(t, map[string]any{"title": "Flat", "spaces": []string{a, b, c}})["id"].(string)
		items := f.do(t, "GET", f.path(rid, "site-spaces"), nil, 200)["items"].([]any)
		before := sitPlaces(t, e, rid)
		f.do(t, "PATCH", f.path(rid, "structure", "sort"), map[string]any{"item": ssp(sitStr(items[2], "id")), "position": map[string]any{"before": ssp(sitStr(items[0], "id"))}}, 200)
		sitOnlyMoved(t, "root site space", before, sitPlaces(t, e, rid), sitStr(items[2], "id"))
		if typ, out := f.outline(t, rid); typ != "siteSpaces" || out != "Gamma Alpha Beta" {
			t.Errorf("root site spaces after sort %s %q", typ, out)
		}
	})
}
