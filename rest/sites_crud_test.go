package rest_test

import (
	"net/url"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

func TestSiteCreateGetPatch(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a, b := f.space(t, "Alpha"), f.space(t, "Beta")

		// Defaults.
		r := e.Do(f.tok, "POST", sitsPath(f.org), map[string]any{})
		def := sitWant(t, r, 201, "create site with defaults")
		sitCheckSite(t, def, "default site")
		if def["type"] != "basic" || def["visibility"] != "public" || def["published"] != false || def["siteSpaces"] != 0.0 {
			t.Errorf("defaults: type %v visibility %v published %v siteSpaces %v", def["type"], def["visibility"], def["published"], def["siteSpaces"])
		}
		if title, _ := def["title"].(string); len(title) < 2 {
			t.Errorf("default title %q", title)
		}
		if sitStr(def, "urls", "published") != "" {
			t.Errorf("unpublished site has urls.published %v", def["urls"])
		}
		if loc := r.Header.Get("Location"); loc != sitStr(def, "urls", "location") {
			t.Errorf("Location %q, want %q", loc, sitStr(def, "urls", "location"))
		}

		// Everything given, spaces become root site spaces.
		st := f.site(t, map[string]any{"title": "Product Docs", "type": "premium", "visibility": "unlisted", "spaces": []string{a, b}})
		if st["title"] != "Product Docs" || st["type"] != "premium" || st["visibility"] != "unlisted" || st["siteSpaces"] != 2.0 {
			t.Errorf("created site %v", st)
		}
		if st["basename"] != "product-docs" {
			t.Errorf("basename %v, want product-docs", st["basename"])
		}
		id := st["id"].(string)
		typ, out := f.outline(t, id)
		if typ != "siteSpaces" || out != "Alpha Beta" {
			t.Errorf("structure %s %q, want siteSpaces \"Alpha Beta\"", typ, out)
		}
		for _, v := range []string{"share-link", "visitor-auth", "public"} {
			s := f.site(t, map[string]any{"title": "Vis " + v, "visibility": v})
			if s["visibility"] != v {
				t.Errorf("visibility %v, want %s", s["visibility"], v)
			}
		}
		// REST takes the documented spellings only, not GraphQL's.
		sitErr(t, e.Do(f.tok, "POST", sitsPath(f.org), map[string]any{"title": "Underscored", "visibility": "share_link"}), 400, "visibility", "create with visibility share_link")
		sitErr(t, e.Do(f.tok, "POST", sitsPath(f.org), map[string]any{"title": "Underscored", "type": "legacy_basic"}), 400, "type", "create with type legacy_basic")
		sitErr(t, e.Do(f.tok, "PATCH", f.path(id), map[string]any{"visibility": "visitor_auth"}), 400, "visibility", "patch visibility visitor_auth")
		sitErr(t, e.Do(f.tok, "GET", sitsPath(f.org)+"?type=legacy_premium", nil), 400, "type", "list with type legacy_premium")

		// Get.
		got := f.do(t, "GET", f.path(id), nil, 200)
		sitCheckSite(t, got, "get site")
		if got["id"] != id || got["title"] != "Product Docs" || got["createdAt"] != st["createdAt"] {
			t.Errorf("get site %v", got)
		}
		sitErr(t, e.Do(f.tok, "GET", f.path("nope"), nil), 404, "", "unknown site")
		// A site addressed under another organization's path is not found.
		other := f.team.Outsider
		sitErr(t, e.Do(other.Token, "GET", sitPath(f.team.Other.ID, id), nil), 404, "", "site under the other org's path")

		// Patch: each field; omitted fields unchanged.
		p := f.do(t, "PATCH", f.path(id), map[string]any{"title": "Renamed Docs"}, 200)
		sitCheckSite(t, p, "patched site")
		if p["title"] != "Renamed Docs" || p["visibility"] != "unlisted" || p["type"] != "premium" || p["basename"] != "product-docs" {
			t.Errorf("patch title: %v", p)
		}
		p = f.do(t, "PATCH", f.path(id), map[string]any{"visibility": "share-link", "agentsContext": "excluded", "adaptiveContent": map[string]any{"enabled": true}, "basename": "docs-v2"}, 200)
		if p["visibility"] != "share-link" || p["agentsContext"] != "excluded" || testenv.Path(p, "adaptiveContent", "enabled") != true || p["basename"] != "docs-v2" || p["title"] != "Renamed Docs" {
			t.Errorf("patch several: %v", p)
		}
		p = f.do(t, "PATCH", f.path(id), map[string]any{"agentsContext": "included", "adaptiveContent": map[string]any{"enabled": false}}, 200)
		if p["agentsContext"] != "included" || testenv.Path(p, "adaptiveContent", "enabled") != false {
			t.Errorf("patch back: %v", p)
		}
		p = f.do(t, "PATCH", f.path(id), map[string]any{"proxy": "example.com/docs", "hostname": "docs.example.com"}, 200)
		if sitStr(p, "proxy", "origin") != "example.com/docs" || p["hostname"] != "docs.example.com" {
			t.Errorf("patch proxy/hostname: proxy %v hostname %v", p["proxy"], p["hostname"])
		}
		p = f.do(t, "PATCH", f.path(id), map[string]any{"proxy": nil, "hostname": nil}, 200)
		if _, ok := p["proxy"]; ok {
			t.Errorf("proxy null did not remove it: %v", p["proxy"])
		}
		if _, ok := p["hostname"]; ok {
			t.Errorf("hostname null did not remove it: %v", p["hostname"])
		}
		got = f.do(t, "GET", f.path(id), nil, 200)
		if got["title"] != "Renamed Docs" || got["basename"] != "docs-v2" || got["visibility"] != "share-link" {
			t.Errorf("get after patches: %v", got)
		}
		// The same basename again is fine (it is the site's own).
		f.do(t, "PATCH", f.path(id), map[string]any{"basename": "docs-v2"}, 200)
	})
}

func TestSiteList(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a := f.space(t, "Alpha")
		s1 := f.site(t, map[string]any{"title": "Alpha Docs", "spaces": []string{a}})["id"].(string)
		s2 := f.site(t, map[string]any{"title": "Beta Guide", "type": "premium"})["id"].(string)
		s3 := f.site(t, map[string]any{"title": "internal alpha", "type": "ultimate"})["id"].(string)
		f.do(t, "POST", f.path(s2, "publish"), nil, 200)

		list := func(query string) map[string]any {
			t.Helper()
			v := f.do(t, "GET", sitsPath(f.org)+query, nil, 200)
			items, _ := v["items"].([]any)
			for _, it := range items {
				sitCheckSite(t, it.(map[string]any), "listed site")
			}
			return v
		}
		for _, c := range []struct {
			query string
			want  []string
		}{
			{"", []string{s1, s2, s3}},
			{"?title=ALPHA", []string{s1, s3}},
			{"?title=" + url.QueryEscape("beta g"), []string{s2}},
			{"?space=" + a, []string{s1}},
			{"?published=true", []string{s2}},
			{"?published=false", []string{s1, s3}},
			{"?type=basic", []string{s1}},
			{"?type=basic&type=premium", []string{s1, s2}},
			{"?type=ultimate&title=alpha", []string{s3}},
		} {
			v := list(c.query)
			if got := sitIDs(v); strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("list %q: %v, want %v", c.query, got, c.want)
			}
			if v["count"] != float64(len(c.want)) {
				t.Errorf("list %q: count %v, want %d", c.query, v["count"], len(c.want))
			}
		}
		// Paging.
		p1 := list("?limit=2")
		if len(sitIDs(p1)) != 2 || p1["count"] != 3.0 || sitStr(p1, "next", "page") == "" {
			t.Fatalf("first page %v", p1)
		}
		p2 := list("?limit=2&page=" + url.QueryEscape(sitStr(p1, "next", "page")))
		if got := sitIDs(p2); len(got) != 1 || got[0] != s3 {
			t.Errorf("second page %v", got)
		}
		if _, ok := p2["next"]; ok {
			t.Errorf("last page has next: %v", p2["next"])
		}
		// Bad filters.
		sitErr(t, e.Do(f.tok, "GET", sitsPath(f.org)+"?type=gold", nil), 400, "type", "unknown type")
		sitErr(t, e.Do(f.tok, "GET", sitsPath(f.org)+"?published=maybe", nil), 400, "published", "bad published")
		sitErr(t, e.Do(f.tok, "GET", sitsPath(f.org)+"?limit=1001", nil), 400, "limit", "bad limit")
		sitErr(t, e.Do(f.tok, "GET", sitsPath(f.org)+"?page=zzz", nil), 400, "page", "bad page")
		// Members with a role read them; another organization's list is its own.
		if got := sitIDs(sitWant(t, e.Do(f.team.Reader.Token, "GET", sitsPath(f.org), nil), 200, "reader list")); len(got) != 3 {
			t.Errorf("reader sees %v", got)
		}
		if got := sitIDs(sitWant(t, e.Do(f.team.Outsider.Token, "GET", sitsPath(f.team.Other.ID), nil), 200, "outsider own list")); len(got) != 0 {
			t.Errorf("other org lists %v", got)
		}
	})
}

// ---- validation ----

func TestSiteValidation(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a, b, c := f.space(t, "Alpha"), f.space(t, "Beta"), f.space(t, "Gamma")
		id := f.site(t, map[string]any{"title": "Main", "spaces": []string{a}})["id"].(string)
		f.site(t, map[string]any{"title": "Taken"})
		sec := f.section(t, id, b, "Second")
		secID := sec["id"].(string)
		ssB := testenv.Path(sec, "siteSpaces", 0, "id").(string)
		ssC := f.siteSpace(t, id, c, secID)["id"].(string)
		// The other section (gathered from the root) holds Alpha.
		secs := f.do(t, "GET", f.path(id, "sections"), nil, 200)
		firstSec := sitStr(secs, "items", 0, "id")
		ssA := sitStr(secs, "items", 0, "siteSpaces", 0, "id")
		foreign := sitStr(sitWant(t, e.Do(f.team.Outsider.Token, "POST", "/v1/orgs/"+f.team.Other.ID+"/spaces", map[string]any{"title": "Foreign"}), 201, "foreign space"), "id")

		long := func(n int) string { return strings.Repeat("a", n) }
		syntax := `visitor.claims.plan === "pro"`
		multiline := "visitor.claims.plan == \"pro\" &&\n  visitor.claims.("
		for _, c := range []struct {
			name, method, path string
			body               any
			field              string
		}{
			// create site
			{"create title too short", "POST", sitsPath(f.org), map[string]any{"title": "x"}, "title"},
			{"create title too long", "POST", sitsPath(f.org), map[string]any{"title": long(129)}, "title"},
			{"create title wrong type", "POST", sitsPath(f.org), map[string]any{"title": 5}, "title"},
			{"create bad visibility", "POST", sitsPath(f.org), map[string]any{"visibility": "secret"}, "visibility"},
			{"create bad type", "POST", sitsPath(f.org), map[string]any{"type": "gold"}, "type"},
			{"create spaces not array", "POST", sitsPath(f.org), map[string]any{"spaces": "abc"}, "spaces"},
			{"create unknown space", "POST", sitsPath(f.org), map[string]any{"spaces": []string{"nope"}}, "spaces"},
			{"create space of another org", "POST", sitsPath(f.org), map[string]any{"spaces": []string{foreign}}, "spaces"},
			{"create malformed JSON", "POST", sitsPath(f.org), `{"title":`, "body"},
			{"create array body", "POST", sitsPath(f.org), `[]`, "body"},
			// patch site
			{"patch title too short", "PATCH", f.path(id), map[string]any{"title": "x"}, "title"},
			{"patch title too long", "PATCH", f.path(id), map[string]any{"title": long(129)}, "title"},
			{"patch title null", "PATCH", f.path(id), map[string]any{"title": nil}, "title"},
			{"patch bad visibility", "PATCH", f.path(id), map[string]any{"visibility": "secret"}, "visibility"},
			{"patch bad agentsContext", "PATCH", f.path(id), map[string]any{"agentsContext": "sometimes"}, "agentsContext"},
			{"patch agentsContext null", "PATCH", f.path(id), map[string]any{"agentsContext": nil}, "agentsContext"},
			{"patch proxy without path", "PATCH", f.path(id), map[string]any{"proxy": "example.com"}, "proxy"},
			{"patch proxy with scheme", "PATCH", f.path(id), map[string]any{"proxy": "https://example.com/docs"}, "proxy"},
			{"patch proxy bad tld", "PATCH", f.path(id), map[string]any{"proxy": "example.c/docs"}, "proxy"},
			{"patch hostname uppercase", "PATCH", f.path(id), map[string]any{"hostname": "Docs.Example.com"}, "hostname"},
			{"patch hostname single label", "PATCH", f.path(id), map[string]any{"hostname": "localhost"}, "hostname"},
			{"patch hostname two labels", "PATCH", f.path(id), map[string]any{"hostname": "example.com"}, "hostname"},
			{"patch basename with space", "PATCH", f.path(id), map[string]any{"basename": "Bad Name"}, "basename"},
			{"patch basename double dash", "PATCH", f.path(id), map[string]any{"basename": "a--b"}, "basename"},
			{"patch basename taken", "PATCH", f.path(id), map[string]any{"basename": "taken"}, "basename"},
			{"patch adaptiveContent without enabled", "PATCH", f.path(id), map[string]any{"adaptiveContent": map[string]any{}}, "adaptiveContent.enabled"},
			{"patch adaptiveContent wrong type", "PATCH", f.path(id), map[string]any{"adaptiveContent": "yes"}, "adaptiveContent"},
			{"patch unknown defaultSiteSpace", "PATCH", f.path(id), map[string]any{"defaultSiteSpace": "nope"}, "defaultSiteSpace"},
			{"patch unknown defaultSiteSection", "PATCH", f.path(id), map[string]any{"defaultSiteSection": "nope"}, "defaultSiteSection"},
			{"patch malformed JSON", "PATCH", f.path(id), `{"title" "x"}`, "body"},
			{"patch empty body", "PATCH", f.path(id), "", "body"},
			// sections
			{"add section without space", "POST", f.path(id, "sections"), map[string]any{"title": "Sec"}, "spaceId"},
			{"add section unknown space", "POST", f.path(id, "sections"), map[string]any{"spaceId": "nope"}, "spaceId"},
			{"add section title too short", "POST", f.path(id, "sections"), map[string]any{"spaceId": c, "title": "x"}, "title"},
			{"add section icon too long", "POST", f.path(id, "sections"), map[string]any{"spaceId": c, "icon": long(51)}, "icon"},
			{"add section malformed JSON", "POST", f.path(id, "sections"), `{`, "body"},
			{"section title too short", "PATCH", f.path(id, "sections", secID), map[string]any{"title": "x"}, "title"},
			{"section title too long", "PATCH", f.path(id, "sections", secID), map[string]any{"title": long(129)}, "title"},
			{"section path empty", "PATCH", f.path(id, "sections", secID), map[string]any{"path": ""}, "path"},
			{"section path too long", "PATCH", f.path(id, "sections", secID), map[string]any{"path": long(101)}, "path"},
			{"section path with slash", "PATCH", f.path(id, "sections", secID), map[string]any{"path": "a/b"}, "path"},
			{"section path taken", "PATCH", f.path(id, "sections", secID), map[string]any{"path": sitStr(secs, "items", 0, "path")}, "path"},
			{"section condition syntax", "PATCH", f.path(id, "sections", secID), map[string]any{"condition": syntax}, "condition: syntax error at line 1, column 23"},
			{"section condition multiline syntax", "PATCH", f.path(id, "sections", secID), map[string]any{"condition": multiline}, "condition: syntax error at line 2, column 18"},
			{"section condition unknown name", "PATCH", f.path(id, "sections", secID), map[string]any{"condition": "user.beta"}, "condition"},
			{"section condition too long", "PATCH", f.path(id, "sections", secID), map[string]any{"condition": "visitor.claims.a == \"" + long(1010) + "\""}, "condition: must be at most 1024 characters"},
			{"section icon too long", "PATCH", f.path(id, "sections", secID), map[string]any{"icon": long(51)}, "icon"},
			{"section description too long", "PATCH", f.path(id, "sections", secID), map[string]any{"description": long(257)}, "description"},
			{"section defaultSiteSpace of another section", "PATCH", f.path(id, "sections", secID), map[string]any{"defaultSiteSpace": ssA}, "defaultSiteSpace"},
			{"section title wrong type", "PATCH", f.path(id, "sections", secID), map[string]any{"title": 3}, "title"},
			// site spaces
			{"add site space without space", "POST", f.path(id, "site-spaces"), map[string]any{}, "spaceId"},
			{"add site space unknown section", "POST", f.path(id, "site-spaces"), map[string]any{"spaceId": c, "sectionId": "nope"}, "sectionId"},
			{"add site space unknown space", "POST", f.path(id, "site-spaces"), map[string]any{"spaceId": "nope"}, "spaceId"},
			{"site space path empty", "PATCH", f.path(id, "site-spaces", ssC), map[string]any{"path": ""}, "path"},
			{"site space path too long", "PATCH", f.path(id, "site-spaces", ssC), map[string]any{"path": long(101)}, "path"},
			{"site space path taken in section", "PATCH", f.path(id, "site-spaces", ssC), map[string]any{"path": "beta"}, "path"},
			{"site space condition syntax", "PATCH", f.path(id, "site-spaces", ssC), map[string]any{"condition": multiline}, "condition: syntax error at line 2, column 18"},
			{"site space condition too long", "PATCH", f.path(id, "site-spaces", ssC), map[string]any{"condition": long(1025)}, "condition"},
			{"site space unknown space", "PATCH", f.path(id, "site-spaces", ssC), map[string]any{"spaceId": "nope"}, "spaceId"},
			{"site space hidden wrong type", "PATCH", f.path(id, "site-spaces", ssC), map[string]any{"hidden": "yes"}, "hidden"},
			{"site space malformed JSON", "PATCH", f.path(id, "site-spaces", ssC), `nope`, "body"},
			// groups
			{"group without title", "POST", f.path(id, "section-groups"), map[string]any{}, "title"},
			{"group title empty", "POST", f.path(id, "section-groups"), map[string]any{"title": ""}, "title"},
			{"group title too long", "POST", f.path(id, "section-groups"), map[string]any{"title": long(101)}, "title"},
			{"group icon too long", "POST", f.path(id, "section-groups"), map[string]any{"title": "G", "icon": long(51)}, "icon"},
			{"group unknown parent", "POST", f.path(id, "section-groups"), map[string]any{"title": "G", "parent": "nope"}, "parent"},
			{"group unknown section", "POST", f.path(id, "section-groups"), map[string]any{"title": "G", "sections": []string{"nope"}}, "sections"},
			{"group sections not array", "POST", f.path(id, "section-groups"), map[string]any{"title": "G", "sections": "x"}, "sections"},
			{"add to group without section", "POST", f.path(id, "section-groups", "nope", "sections"), map[string]any{}, "sectionId"},
			// share links
			{"share link without name", "POST", f.path(id, "share-links"), map[string]any{}, "name"},
			{"share link name too long", "POST", f.path(id, "share-links"), map[string]any{"name": long(51)}, "name"},
			// sort
			{"sort without item", "PATCH", f.path(id, "structure", "sort"), map[string]any{"position": map[string]any{}}, "item"},
			{"sort bad item type", "PATCH", f.path(id, "structure", "sort"), map[string]any{"item": map[string]any{"type": "page", "id": secID}}, "item.type"},
			{"sort item without id", "PATCH", f.path(id, "structure", "sort"), map[string]any{"item": map[string]any{"type": "site-section"}}, "item.id"},
			{"sort bad pointer type", "PATCH", f.path(id, "structure", "sort"), map[string]any{"item": map[string]any{"type": "site-section", "id": secID}, "position": map[string]any{"before": map[string]any{"type": "page", "id": firstSec}}}, "position.before.type"},
			{"sort malformed JSON", "PATCH", f.path(id, "structure", "sort"), `{"item":`, "body"},
			// customization
			{"customization bad theme", "PUT", f.path(id, "customization"), map[string]any{"styling": map[string]any{"theme": "neon"}}, "styling.theme"},
			{"customization bad color", "PUT", f.path(id, "customization"), map[string]any{"styling": map[string]any{"primaryColor": map[string]any{"light": "blue", "dark": "#000"}}}, "styling.primaryColor.light"},
			{"customization unknown key", "PUT", f.path(id, "customization"), map[string]any{"colour": map[string]any{}}, "colour"},
			{"customization unknown nested key", "PUT", f.path(id, "customization"), map[string]any{"styling": map[string]any{"sparkle": true}}, "styling.sparkle"},
			{"customization bad locale", "PUT", f.path(id, "customization"), map[string]any{"internationalization": map[string]any{"locale": "xx"}}, "internationalization.locale"},
			{"customization wrong type", "PUT", f.path(id, "customization"), map[string]any{"pdf": map[string]any{"enabled": "yes"}}, "pdf.enabled"},
			{"customization malformed JSON", "PUT", f.path(id, "customization"), `{"styling":`, "body"},
			{"site space customization bad enum", "PATCH", f.path(id, "site-spaces", ssB, "customization"), map[string]any{"styling": map[string]any{"corners": "square"}}, "styling.corners"},
			{"site space customization bad color", "PATCH", f.path(id, "site-spaces", ssB, "customization"), map[string]any{"styling": map[string]any{"dangerColor": map[string]any{"light": "#12", "dark": "#000"}}}, "styling.dangerColor.light"},
			{"site space customization not overridable", "PATCH", f.path(id, "site-spaces", ssB, "customization"), map[string]any{"styling": map[string]any{"font": "Inter"}}, "styling.font"},
			{"site space customization unknown key", "PATCH", f.path(id, "site-spaces", ssB, "customization"), map[string]any{"pageActions": map[string]any{"mcp": false}}, "pageActions"},
			{"site space customization malformed JSON", "PATCH", f.path(id, "site-spaces", ssB, "customization"), `]`, "body"},
			// adaptive schema
			{"adaptive schema missing", "PUT", f.path(id, "adaptive-schema"), map[string]any{}, "jsonSchema"},
			{"adaptive schema not object", "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": "object"}, "jsonSchema"},
			{"adaptive schema invalid draft-07", "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": map[string]any{"type": 5}}, "jsonSchema.type"},
			{"adaptive schema invalid draft-07 nested", "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{"plan": map[string]any{"type": "date"}}}}, "jsonSchema.properties.plan.type"},
			{"adaptive schema other draft", "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": map[string]any{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}}, "jsonSchema.$schema"},
			{"adaptive schema open object", "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": map[string]any{"type": "object", "properties": map[string]any{"plan": map[string]any{"type": "string"}}}}, "jsonSchema.additionalProperties"},
			{"adaptive schema not an object schema", "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": map[string]any{"type": "string"}}, "jsonSchema.type"},
			{"adaptive schema unsigned string", "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{"unsigned": map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{"beta": map[string]any{"type": "string"}}}}}}, "jsonSchema.properties.unsigned.properties.beta.type"},
			{"adaptive schema unsupported keyword", "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{"n": map[string]any{"type": "number", "minimum": 1}}}}, "jsonSchema.properties.n.minimum"},
			{"adaptive schema malformed JSON", "PUT", f.path(id, "adaptive-schema"), `{"jsonSchema": {`, "body"},
		} {
			r := e.Do(f.tok, c.method, c.path, c.body)
			sitErr(t, r, 400, c.field, c.name)
		}

		// Nothing of the above changed the site.
		typ, out := f.outline(t, id)
		if typ != "sections" || out != "Main[Alpha] Second[Beta Gamma]" {
			t.Errorf("structure after failed requests: %s %q", typ, out)
		}
		got := f.do(t, "GET", f.path(id), nil, 200)
		if got["title"] != "Main" || got["visibility"] != "public" || got["basename"] != "main" {
			t.Errorf("site after failed requests: %v", got)
		}
		sitErr(t, e.Do(f.tok, "GET", f.path(id, "adaptive-schema"), nil), 404, "", "schema after failed puts")
		if cust := f.do(t, "GET", f.path(id, "customization"), nil, 200); testenv.Path(cust, "styling", "theme") != "clean" {
			t.Errorf("customization changed: %v", cust["styling"])
		}
		// Limits accepted at their bounds.
		f.do(t, "PATCH", f.path(id, "sections", secID), map[string]any{"title": long(128), "path": long(100), "icon": long(50), "description": long(256),
			"condition": "visitor.claims.a == \"" + long(1024-len("visitor.claims.a == \"\"")) + "\""}, 200)
		f.do(t, "PATCH", f.path(id), map[string]any{"title": long(128)}, 200)
		f.do(t, "PATCH", f.path(id), map[string]any{"title": "ab"}, 200)
		f.do(t, "POST", f.path(id, "share-links"), map[string]any{"name": long(50)}, 201)
		f.do(t, "POST", f.path(id, "section-groups"), map[string]any{"title": long(100)}, 201)
	})
}
