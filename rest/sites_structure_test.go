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
	"quire/internal/testenv"
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
