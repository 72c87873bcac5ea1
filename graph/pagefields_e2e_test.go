package graph_test

import (
	"context"
	"sort"
	"strings"
	"testing"

	"quire/internal/content"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

const pfFields = `id type title linkTitle icon createdAt updatedAt noIndex noRobotsIndex
  metaLinks { canonical alternates } computed computedSeed`

const pfRead = `query($id: ID!) { space(id: $id) { content { pages { ` + pfFields + ` pages { ` + pfFields + ` } } } } }`

// pfPages reads a space's pages (two levels) by title.
func pfPages(t *testing.T, e *testenv.Env, token, space string) map[string]map[string]any {
	t.Helper()
	d := cxOK(t, e.GraphQL(token, pfRead, map[string]any{"id": space}))
	out := map[string]map[string]any{}
	for _, p := range cxList(testenv.Path(d, "space", "content", "pages")) {
		out[cxStr(testenv.Path(p, "title"))] = p.(map[string]any)
		for _, c := range cxList(testenv.Path(p, "pages")) {
			out[cxStr(testenv.Path(c, "title"))] = c.(map[string]any)
		}
	}
	return out
}

const pfUpdate = `mutation($in: UpdatePageInput!) { updatePage(input: $in) { changed page { ` + pfFields + ` } } }`

// TestPageFields writes link title, icon, indexing, meta links and a
// computed definition through the edit mutations, reads them back from the
// change request and, once merged, from the space, with the page's times
// carried across revisions.
func TestPageFields(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := cxSpace(t, e, team, "Fields")
		tok := team.Editor.Token
		cr := cxStr(cxNewCR(t, e, tok, space, "Pages")["id"])
		group := cxStr(testenv.Path(cxNewPage(t, e, tok, map[string]any{
			"changeRequest": cr, "type": "group", "title": "Guides", "icon": "book", "noIndex": true,
		}), "page", "id"))
		doc := cxStr(testenv.Path(cxNewPage(t, e, tok, map[string]any{
			"changeRequest": cr, "parent": group, "title": "Installation guide", "linkTitle": "  Install ", "icon": "gear",
			"noRobotsIndex": true, "markdown": "Steps.",
			"metaLinks": map[string]any{
				"canonical":  map[string]any{"kind": "url", "url": "https://example.com/install"},
				"alternates": []any{map[string]any{"kind": "page", "page": group}},
			},
		}), "page", "id"))
		computed := map[string]any{"type": "builtin:openapi", "props": map[string]any{"doc": "models"},
			"dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": "petstore"}}}}
		comp := cxStr(testenv.Path(cxNewPage(t, e, tok, map[string]any{
			"changeRequest": cr, "parent": group, "title": "Models", "computed": computed,
		}), "page", "id"))
		cxNewPage(t, e, tok, map[string]any{
			"changeRequest": cr, "type": "link", "title": "Website", "linkTitle": "Web",
			"target": map[string]any{"kind": "url", "url": "https://example.com"},
		})

		m := cxMerge(t, e, team.Admin.Token, cr)
		if m["result"] != "merge" {
			t.Fatalf("merge: %v", m)
		}
		pages := pfPages(t, e, team.Reader.Token, space)
		g, d, c, l := pages["Guides"], pages["Installation guide"], pages["Models"], pages["Website"]
		if g["icon"] != "book" || g["noIndex"] != true || g["noRobotsIndex"] != false || g["linkTitle"] != nil || g["metaLinks"] != nil || g["computed"] != nil {
			t.Fatalf("group: %v", g)
		}
		if d["linkTitle"] != "Install" || d["icon"] != "gear" || d["noIndex"] != false || d["noRobotsIndex"] != true ||
			testenv.Path(d, "metaLinks", "canonical", "url") != "https://example.com/install" ||
			testenv.Path(d, "metaLinks", "alternates", 0, "page") != group || d["computed"] != nil || d["computedSeed"] != nil {
			t.Fatalf("document: %v", d)
		}
		if testenv.Path(c, "computed", "type") != "builtin:openapi" || testenv.Path(c, "computed", "props", "doc") != "models" ||
			testenv.Path(c, "computed", "dependencies", "spec", "ref", "spec") != "petstore" || cxStr(c["computedSeed"]) == "" {
			t.Fatalf("computed: %v", c)
		}
		if l["linkTitle"] != "Web" || l["noIndex"] != false || l["metaLinks"] != nil {
			t.Fatalf("link: %v", l)
		}
		for _, p := range []map[string]any{g, d, c, l} {
			if cxStr(p["createdAt"]) == "" || cxStr(p["updatedAt"]) == "" {
				t.Fatalf("times of %v", p)
			}
		}

		// A second change request edits the document page only: its
		// updatedAt moves, its createdAt and the other pages' times stay.
		cr2 := cxStr(cxNewCR(t, e, tok, space, "Icon")["id"])
		up := cxOK(t, e.GraphQL(tok, pfUpdate, map[string]any{"in": map[string]any{
			"changeRequest": cr2, "page": doc, "icon": "wrench", "linkTitle": "", "metaLinks": nil,
		}}))
		if testenv.Path(up, "updatePage", "page", "linkTitle") != nil || testenv.Path(up, "updatePage", "page", "metaLinks") != nil {
			t.Fatalf("update: %v", up)
		}
		// The same definition again changes nothing: the seed is stable.
		same := cxOK(t, e.GraphQL(tok, pfUpdate, map[string]any{"in": map[string]any{"changeRequest": cr2, "page": comp, "computed": computed}}))
		if testenv.Path(same, "updatePage", "changed") != false || testenv.Path(same, "updatePage", "page", "computedSeed") != c["computedSeed"] {
			t.Fatalf("same computed: %v", same)
		}
		if m := cxMerge(t, e, team.Admin.Token, cr2); m["result"] != "merge" {
			t.Fatalf("merge 2: %v", m)
		}
		after := pfPages(t, e, team.Reader.Token, space)
		d2 := after["Installation guide"]
		if d2["icon"] != "wrench" || d2["createdAt"] != d["createdAt"] || d2["updatedAt"] == d["updatedAt"] {
			t.Fatalf("edited page: before %v, after %v", d, d2)
		}
		for _, title := range []string{"Guides", "Models", "Website"} {
			if after[title]["updatedAt"] != pages[title]["updatedAt"] || after[title]["createdAt"] != pages[title]["createdAt"] {
				t.Fatalf("%s changed times: before %v, after %v", title, pages[title], after[title])
			}
		}

		// Another definition changes the seed; null makes it an empty page.
		cr3 := cxStr(cxNewCR(t, e, tok, space, "Computed")["id"])
		computed["props"] = map[string]any{"doc": "operations", "page": "pets"}
		other := cxOK(t, e.GraphQL(tok, pfUpdate, map[string]any{"in": map[string]any{"changeRequest": cr3, "page": comp, "computed": computed}}))
		if s := testenv.Path(other, "updatePage", "page", "computedSeed"); s == c["computedSeed"] || cxStr(s) == "" {
			t.Fatalf("seed of another definition: %v", other)
		}
		cleared := cxOK(t, e.GraphQL(tok, pfUpdate, map[string]any{"in": map[string]any{"changeRequest": cr3, "page": comp, "computed": nil}}))
		if testenv.Path(cleared, "updatePage", "page", "computed") != nil || testenv.Path(cleared, "updatePage", "page", "computedSeed") != nil {
			t.Fatalf("cleared computed: %v", cleared)
		}
	})
}

// TestPageFieldsRefused checks every limit of the new page properties on
// both edit mutations: each answers BAD_REQUEST on the field, and writes
// nothing.
func TestPageFieldsRefused(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := cxSpace(t, e, team, "Refused")
		tok := team.Editor.Token
		cr := cxStr(cxNewCR(t, e, tok, space, "Bad")["id"])
		comp := cxStr(testenv.Path(cxNewPage(t, e, tok, map[string]any{
			"changeRequest": cr, "title": "Computed", "computed": map[string]any{"type": "integration:x:y"},
		}), "page", "id"))
		link := map[string]any{"kind": "url", "url": "https://example.com"}
		ref := func(kind, spec string) map[string]any {
			return map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": kind, "spec": spec}}}
		}
		cases := []struct {
			name  string
			in    map[string]any
			field string
		}{
			{"long link title", map[string]any{"linkTitle": strings.Repeat("a", 101)}, "linkTitle"},
			{"long icon", map[string]any{"icon": strings.Repeat("i", 51)}, "icon"},
			{"noIndex on a link", map[string]any{"type": "link", "target": link, "noIndex": true}, "noIndex"},
			{"noRobotsIndex on a link", map[string]any{"type": "link", "target": link, "noRobotsIndex": true}, "noRobotsIndex"},
			{"meta links on a group", map[string]any{"type": "group", "metaLinks": map[string]any{"canonical": link}}, "metaLinks"},
			{"meta link of kind file", map[string]any{"metaLinks": map[string]any{"canonical": map[string]any{"kind": "file", "file": "x"}}}, "metaLinks.canonical.kind"},
			{"meta link not http", map[string]any{"metaLinks": map[string]any{"alternates": []any{map[string]any{"kind": "url", "url": "ftp://x/y"}}}}, "metaLinks.alternates[0].url"},
			{"meta link page missing", map[string]any{"metaLinks": map[string]any{"canonical": map[string]any{"kind": "page"}}}, "metaLinks.canonical.page"},
			{"meta links unknown key", map[string]any{"metaLinks": map[string]any{"canonicals": link}}, "metaLinks"},
			{"computed without type", map[string]any{"computed": map[string]any{"props": map[string]any{}}}, "computed.type"},
			{"computed long type", map[string]any{"computed": map[string]any{"type": strings.Repeat("t", 129)}}, "computed.type"},
			{"computed dependency kind", map[string]any{"computed": map[string]any{"type": "builtin:openapi", "dependencies": ref("url", "x")}}, "computed.dependencies.spec.ref.kind"},
			{"computed dependency slug", map[string]any{"computed": map[string]any{"type": "builtin:openapi", "dependencies": ref("openapi", "not a slug")}}, "computed.dependencies.spec.ref.spec"},
			{"computed too large", map[string]any{"computed": map[string]any{"type": "x", "props": map[string]any{"big": strings.Repeat("b", 17<<10)}}}, "computed"},
			{"computed with content", map[string]any{"computed": map[string]any{"type": "x"}, "markdown": "text"}, "computed"},
			{"computed link", map[string]any{"type": "link", "target": link, "computed": map[string]any{"type": "x"}}, "computed"},
		}
		for _, c := range cases {
			in := map[string]any{"changeRequest": cr, "title": "Page"}
			for k, v := range c.in {
				in[k] = v
			}
			r := e.GraphQL(tok, cxCreatePage, map[string]any{"in": in})
			if r.Code() != "BAD_REQUEST" || r.Errors[0].Extensions["field"] != c.field || !strings.Contains(r.Errors[0].Message, c.field) {
				t.Errorf("%s: want BAD_REQUEST on %s, got %s", c.name, c.field, r.Raw)
			}
		}
		for name, in := range map[string]map[string]any{
			"markdown on a computed page": {"markdown": "text"},
			"long link title":             {"linkTitle": strings.Repeat("a", 101)},
			"computed bad type":           {"computed": map[string]any{"type": " "}},
		} {
			in["changeRequest"], in["page"] = cr, comp
			if r := e.GraphQL(tok, pfUpdate, map[string]any{"in": in}); r.Code() != "BAD_REQUEST" {
				t.Errorf("update, %s: want BAD_REQUEST, got %s", name, r.Raw)
			}
		}
		d := cxOK(t, e.GraphQL(tok, `query($id: ID!) { changeRequest(id: $id) { content { pages { title } } } }`, map[string]any{"id": cr}))
		if n := len(cxList(testenv.Path(d, "changeRequest", "content", "pages"))); n != 1 {
			t.Fatalf("refused edits wrote pages: %v", d)
		}
	})
}

// TestPageFieldsMerge shows that the merge sees the new properties: two
// change requests giving one page different link titles conflict, while a
// change of indexing merges beside a change of title.
func TestPageFieldsMerge(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := cxSpace(t, e, team, "Merge")
		tok := team.Editor.Token
		cr := cxStr(cxNewCR(t, e, tok, space, "Base")["id"])
		page := cxStr(testenv.Path(cxNewPage(t, e, tok, map[string]any{"changeRequest": cr, "title": "Page"}), "page", "id"))
		cxMerge(t, e, team.Admin.Token, cr)

		update := func(cr string, in map[string]any) {
			in["changeRequest"], in["page"] = cr, page
			cxOK(t, e.GraphQL(tok, pfUpdate, map[string]any{"in": in}))
		}
		a := cxStr(cxNewCR(t, e, tok, space, "A")["id"])
		b := cxStr(cxNewCR(t, e, tok, space, "B")["id"])
		update(a, map[string]any{"linkTitle": "One"})
		update(b, map[string]any{"linkTitle": "Two"})
		if m := cxMerge(t, e, team.Admin.Token, a); m["result"] != "merge" {
			t.Fatalf("merge a: %v", m)
		}
		m := cxMerge(t, e, team.Admin.Token, b)
		if m["result"] != "conflicts" || testenv.Path(m, "conflicts", 0, "kind") != "meta" || testenv.Path(m, "conflicts", 0, "page") != page {
			t.Fatalf("merge b: want a meta conflict, got %v", m)
		}

		c := cxStr(cxNewCR(t, e, tok, space, "C")["id"])
		d := cxStr(cxNewCR(t, e, tok, space, "D")["id"])
		update(c, map[string]any{"noIndex": true})
		update(d, map[string]any{"title": "Renamed"})
		for _, id := range []string{c, d} {
			if m := cxMerge(t, e, team.Admin.Token, id); m["result"] != "merge" {
				t.Fatalf("merge %s: %v", id, m)
			}
		}
		p := pfPages(t, e, team.Reader.Token, space)["Renamed"]
		if p["noIndex"] != true || p["linkTitle"] != "One" {
			t.Fatalf("merged page: %v", p)
		}
	})
}

// TestPageFieldsSearch finds pages by their link title, and leaves pages
// with noIndex out of search until the flag is cleared.
func TestPageFieldsSearch(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := restSpace(t, e, team.Admin.Token, team.Org.ID, "Searched", nil)
		ctx := jobs.NewContext(context.Background(), e.Client(), team.Admin.User)
		md := "Zebra crossings and more.\n"
		res, err := e.Server.Resolver().Content.EditSpace(ctx, space,
			&content.CreatePage{Title: "Installation guide", LinkTitle: "Setup", Markdown: &md},
			&content.CreatePage{Title: "Secret notes", NoIndex: true, Markdown: &md},
			&content.CreatePage{Title: "Public notes", Markdown: &md})
		if err != nil {
			t.Fatal(err)
		}
		search := func(q string) []string {
			d := cxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!, $q: String!) { space(id: $id) { search(query: $q) { nodes { title } } } }`,
				map[string]any{"id": space, "q": q}))
			var out []string
			for _, n := range cxList(testenv.Path(d, "space", "search", "nodes")) {
				out = append(out, cxStr(testenv.Path(n, "title")))
			}
			sort.Strings(out)
			return out
		}
		if got := search("setup"); strings.Join(got, ",") != "Installation guide" {
			t.Errorf("search by link title: %v", got)
		}
		if got := search("zebra"); strings.Join(got, ",") != "Installation guide,Public notes" {
			t.Errorf("search with a noIndex page: %v", got)
		}
		off := false
		if _, err := e.Server.Resolver().Content.EditSpace(ctx, space, &content.UpdatePage{Page: res.IDs[1], NoIndex: &off}); err != nil {
			t.Fatal(err)
		}
		if got := search("zebra"); strings.Join(got, ",") != "Installation guide,Public notes,Secret notes" {
			t.Errorf("search once noIndex is cleared: %v", got)
		}
	})
}
