package graph_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// ---------------------------------------------------------------------------
// Queries

func TestSitesE2EQueries(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		w := sxNewWorld(t, e)
		team := w.team
		admin := team.Admin.Token
		guestUser, guest := e.User("guest@acme.test")
		e.Member(team.Org, guestUser, "")

		// Three sites, created through both doors.
		alpha := w.site(t, e, "Alpha Docs", w.spaces[0], w.spaces[1])
		beta := sxStr(sxDo(t, e, admin, "POST", "/v1/orgs/"+w.org+"/sites", map[string]any{"title": "Beta guide", "type": "premium", "spaces": []any{w.spaces[2]}}, http.StatusCreated)["id"])
		api := sxStr(testenv.Path(sxOK(t, e.GraphQL(admin, `mutation($o: ID!) { createSite(input: {organization: $o, title: "alpha API", type: legacy_basic, visibility: share_link}) { id } }`,
			map[string]any{"o": w.org})), "createSite", "id"))
		sxOK(t, e.GraphQL(admin, `mutation($id: ID!) { publishSite(id: $id) { id } }`, map[string]any{"id": alpha}))

		t.Run("Organization.sites filters", func(t *testing.T) {
			const q = `query($o: ID!, $first: Int, $after: String, $space: ID, $title: String, $published: Boolean, $type: [SiteType!]) {
				organization(id: $o) { sites(first: $first, after: $after, space: $space, title: $title, published: $published, type: $type) {
					totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id } } nodes { id type } } } }`
			gql := func(token string, vars map[string]any) ([]string, map[string]any) {
				t.Helper()
				vars["o"] = w.org
				d := sxOK(t, e.GraphQL(token, q, vars))
				conn := testenv.Path(d, "organization", "sites").(map[string]any)
				var ids []string
				for _, n := range sxList(conn["nodes"]) {
					ids = append(ids, sxStr(testenv.Path(n, "id")))
				}
				return ids, conn
			}
			restIDs := func(query string) []string {
				t.Helper()
				l := sxDo(t, e, team.Reader.Token, "GET", "/v1/orgs/"+w.org+"/sites"+query, nil, http.StatusOK)
				var ids []string
				for _, it := range sxList(l["items"]) {
					ids = append(ids, sxStr(testenv.Path(it, "id")))
				}
				if l["count"] != float64(len(ids)) {
					t.Errorf("REST %s: count %v for %d items", query, l["count"], len(ids))
				}
				return ids
			}
			for _, c := range []struct {
				name  string
				vars  map[string]any
				query string
				want  []string
			}{
				{"all, oldest first", map[string]any{}, "", []string{alpha, beta, api}},
				{"title contains, any case", map[string]any{"title": "ALPHA"}, "?title=ALPHA", []string{alpha, api}},
				{"published", map[string]any{"published": true}, "?published=true", []string{alpha}},
				{"unpublished", map[string]any{"published": false}, "?published=false", []string{beta, api}},
				{"types", map[string]any{"type": []any{"premium", "legacy_basic"}}, "?type=premium&type=legacy-basic", []string{beta, api}},
				{"space", map[string]any{"space": w.spaces[0]}, "?space=" + w.spaces[0], []string{alpha}},
				{"space and title", map[string]any{"space": w.spaces[2], "title": "alpha"}, "?space=" + w.spaces[2] + "&title=alpha", nil},
			} {
				t.Run(c.name, func(t *testing.T) {
					got, conn := gql(team.Reader.Token, c.vars)
					if fmt.Sprint(got) != fmt.Sprint(c.want) || conn["totalCount"] != float64(len(c.want)) {
						t.Errorf("GraphQL sites = %v (totalCount %v), want %v", got, conn["totalCount"], c.want)
					}
					if r := restIDs(c.query); fmt.Sprint(r) != fmt.Sprint(c.want) {
						t.Errorf("REST sites%s = %v, want %v", c.query, r, c.want)
					}
				})
			}
			t.Run("enum spelling", func(t *testing.T) {
				_, conn := gql(team.Reader.Token, map[string]any{"type": []any{"legacy_basic"}})
				if testenv.Path(conn, "nodes", 0, "type") != "legacy_basic" {
					t.Errorf("GraphQL type = %v", conn["nodes"])
				}
				if r := e.GraphQL(team.Reader.Token, q, map[string]any{"o": w.org, "type": []any{"legacy-basic"}}); r.Code() != "GRAPHQL_VALIDATION_FAILED" && len(r.Errors) == 0 {
					t.Errorf("GraphQL accepted the REST spelling legacy-basic: %s", r.Raw)
				}
				if r := e.Do(team.Reader.Token, "GET", "/v1/orgs/"+w.org+"/sites?type=bogus", nil); r.Status != http.StatusBadRequest ||
					!strings.Contains(sxStr(testenv.Path(r.JSON(), "error", "message")), "type") {
					t.Errorf("REST ?type=bogus: %d %s", r.Status, r.Body)
				}
				rs := sxDo(t, e, team.Reader.Token, "GET", w.sitePath(api), nil, http.StatusOK)
				if rs["type"] != "legacy-basic" || rs["visibility"] != "share-link" {
					t.Errorf("REST spelling: %v %v", rs["type"], rs["visibility"])
				}
				d := sxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { site(id: $id) { type appliedType visibility } }`, map[string]any{"id": api}))
				if testenv.Path(d, "site", "type") != "legacy_basic" || testenv.Path(d, "site", "visibility") != "share_link" {
					t.Errorf("GraphQL spelling: %v", d)
				}
			})
			t.Run("paging", func(t *testing.T) {
				page1, conn := gql(team.Reader.Token, map[string]any{"first": 2})
				if fmt.Sprint(page1) != fmt.Sprint([]string{alpha, beta}) || testenv.Path(conn, "pageInfo", "hasNextPage") != true ||
					conn["totalCount"] != float64(3) || testenv.Path(conn, "edges", 1, "cursor") != testenv.Path(conn, "pageInfo", "endCursor") {
					t.Fatalf("first page = %v", conn)
				}
				page2, conn := gql(team.Reader.Token, map[string]any{"first": 2, "after": testenv.Path(conn, "pageInfo", "endCursor")})
				if fmt.Sprint(page2) != fmt.Sprint([]string{api}) || testenv.Path(conn, "pageInfo", "hasNextPage") != false {
					t.Errorf("second page = %v", conn)
				}
				l := sxDo(t, e, team.Reader.Token, "GET", "/v1/orgs/"+w.org+"/sites?limit=2", nil, http.StatusOK)
				if l["count"] != float64(3) || len(sxList(l["items"])) != 2 || testenv.Path(l, "next", "page") == nil {
					t.Errorf("REST first page = %v", l)
				}
			})
			t.Run("who may list", func(t *testing.T) {
				if r := e.GraphQL(guest, q, map[string]any{"o": w.org}); r.Code() != "NOT_FOUND" {
					t.Errorf("guest: %s", r.Raw)
				}
				if r := e.GraphQL(team.Outsider.Token, q, map[string]any{"o": w.org}); r.Code() != "NOT_FOUND" {
					t.Errorf("outsider: %s", r.Raw)
				}
				for _, tok := range []string{guest, team.Outsider.Token} {
					if r := e.Do(tok, "GET", "/v1/orgs/"+w.org+"/sites", nil); r.Status != http.StatusNotFound {
						t.Errorf("REST list: %d %s", r.Status, r.Body)
					}
				}
				if r := e.GraphQL("", q, map[string]any{"o": w.org}); r.Code() != "UNAUTHENTICATED" {
					t.Errorf("no token: %s", r.Raw)
				}
			})
		})

		t.Run("site(id:)", func(t *testing.T) {
			q := `query($id: ID!) { site(id: $id) { ` + sxSiteFields + ` } }`
			for _, id := range []string{alpha, beta, api} {
				g := sxOK(t, e.GraphQL(team.Reader.Token, q, map[string]any{"id": id}))["site"].(map[string]any)
				sxSameSite(t, g, sxDo(t, e, team.Reader.Token, "GET", w.sitePath(id), nil, http.StatusOK))
				if testenv.Path(g, "organization", "id") != w.org {
					t.Errorf("organization = %v", g["organization"])
				}
			}
			for _, c := range []struct {
				name, token, id string
			}{{"outsider", team.Outsider.Token, alpha}, {"guest", guest, alpha}, {"unknown", admin, "Wnope"}} {
				r := e.GraphQL(c.token, `query($id: ID!) { site(id: $id) { id } }`, map[string]any{"id": c.id})
				if r.Code() != "NOT_FOUND" || r.Data != nil && r.Data["site"] != nil {
					t.Errorf("%s: %s", c.name, r.Raw)
				} else if strings.Contains(r.Errors[0].Message, w.org) {
					t.Errorf("%s: the error names the site's organization: %q", c.name, r.Errors[0].Message)
				}
			}
			// The site of another organization is not found through this one's REST path.
			other := sxStr(sxDo(t, e, team.Outsider.Token, "POST", "/v1/orgs/"+team.Other.ID+"/sites", map[string]any{"title": "Other site"}, http.StatusCreated)["id"])
			if r := e.Do(admin, "GET", "/v1/orgs/"+w.org+"/sites/"+other, nil); r.Status != http.StatusNotFound {
				t.Errorf("REST other org's site: %d", r.Status)
			}
		})

		// A structure with sections, groups (nested) and site spaces.
		sec1 := sxStr(testenv.Path(sxOK(t, e.GraphQL(admin, `mutation($s: ID!, $sp: ID!) { addSiteSection(site: $s, input: {space: $sp, title: "Guides"}) { id } }`,
			map[string]any{"s": alpha, "sp": w.spaces[3]})), "addSiteSection", "id"))
		sec2 := sxStr(sxDo(t, e, admin, "POST", w.sitePath(alpha)+"/sections", map[string]any{"spaceId": w.spaces[4], "title": "Reference"}, http.StatusCreated)["id"])
		sxDo(t, e, admin, "POST", w.sitePath(alpha)+"/site-spaces", map[string]any{"spaceId": w.spaces[5], "sectionId": sec2}, http.StatusCreated)
		outer := sxStr(testenv.Path(sxOK(t, e.GraphQL(admin, `mutation($s: ID!, $secs: [ID!]) { createSiteSectionGroup(site: $s, input: {title: "Outer", sections: $secs}) { id } }`,
			map[string]any{"s": alpha, "secs": []any{sec1}})), "createSiteSectionGroup", "id"))
		innerG := sxStr(sxDo(t, e, admin, "POST", w.sitePath(alpha)+"/section-groups", map[string]any{"title": "Inner", "parent": outer, "sections": []any{sec2}}, http.StatusCreated)["id"])
		defSec := sxStr(testenv.Path(sxDo(t, e, team.Reader.Token, "GET", w.sitePath(alpha)+"/sections", nil, http.StatusOK), "items", 0, "id"))

		t.Run("structure", func(t *testing.T) {
			want := "sections: Alpha Docs[Space 0 Space 1] {Outer: Guides[Space 3] {Inner: Reference[Space 4 Space 5]}}"
			if got := sxStructure(t, e, team.Reader.Token, w.sitePath(alpha)); got != want {
				t.Errorf("REST structure:\n got %s\nwant %s", got, want)
			}
			const q = `query($id: ID!) { site(id: $id) {
				defaultSiteSection { id }
				structure { type structure { __typename
					... on SiteSection { id title default siteSpaces { nodes { space { title } } } }
					... on SiteSectionGroup { id title sectionGroup { id } sections { id }
						children { totalCount nodes { __typename
							... on SiteSection { id title sectionGroup { id } }
							... on SiteSectionGroup { id title sectionGroup { id } children { nodes { ... on SiteSection { id title } } } } } } } } }
				sections(first: 10) { totalCount nodes { id title } }
				sectionGroups { totalCount nodes { id title } }
				allSiteSpaces { totalCount nodes { id space { title } section { id } default } }
				defaults: allSiteSpaces(default: true) { nodes { space { title } } }
				others: allSiteSpaces(default: false) { nodes { space { title } } } } }`
			d := sxOK(t, e.GraphQL(team.Reader.Token, q, map[string]any{"id": alpha}))["site"].(map[string]any)
			st := testenv.Path(d, "structure").(map[string]any)
			items := sxList(st["structure"])
			if st["type"] != "sections" || len(items) != 2 || testenv.Path(items[0], "__typename") != "SiteSection" || testenv.Path(items[0], "id") != defSec ||
				testenv.Path(items[0], "default") != true || sxID(d["defaultSiteSection"]) != defSec || testenv.Path(items[1], "__typename") != "SiteSectionGroup" {
				t.Fatalf("structure = %v", st)
			}
			g := items[1].(map[string]any)
			kids := sxList(testenv.Path(g, "children", "nodes"))
			if g["id"] != outer || g["sectionGroup"] != nil || testenv.Path(g, "children", "totalCount") != float64(2) ||
				testenv.Path(kids[0], "__typename") != "SiteSection" || testenv.Path(kids[0], "id") != sec1 || testenv.Path(kids[0], "sectionGroup", "id") != outer ||
				testenv.Path(kids[1], "__typename") != "SiteSectionGroup" || testenv.Path(kids[1], "id") != innerG || testenv.Path(kids[1], "sectionGroup", "id") != outer ||
				testenv.Path(kids[1], "children", "nodes", 0, "id") != sec2 || len(sxList(g["sections"])) != 1 || testenv.Path(g, "sections", 0, "id") != sec1 {
				t.Errorf("group = %v", g)
			}
			var titles []string
			for _, n := range sxList(testenv.Path(d, "sections", "nodes")) {
				titles = append(titles, sxStr(testenv.Path(n, "title")))
			}
			if strings.Join(titles, ",") != "Alpha Docs,Guides,Reference" || testenv.Path(d, "sections", "totalCount") != float64(3) {
				t.Errorf("sections in structure order = %v", titles)
			}
			titles = nil
			for _, n := range sxList(testenv.Path(d, "sectionGroups", "nodes")) {
				titles = append(titles, sxStr(testenv.Path(n, "title")))
			}
			if strings.Join(titles, ",") != "Outer,Inner" {
				t.Errorf("sectionGroups = %v", titles)
			}
			spaceTitles := func(key string) string {
				var out []string
				for _, n := range sxList(testenv.Path(d, key, "nodes")) {
					out = append(out, sxStr(testenv.Path(n, "space", "title")))
				}
				return strings.Join(out, ",")
			}
			if got := spaceTitles("allSiteSpaces"); got != "Space 0,Space 1,Space 3,Space 4,Space 5" {
				t.Errorf("allSiteSpaces = %s", got)
			}
			if got := spaceTitles("defaults"); got != "Space 0,Space 3,Space 4" {
				t.Errorf("allSiteSpaces(default: true) = %s", got)
			}
			if got := spaceTitles("others"); got != "Space 1,Space 5" {
				t.Errorf("allSiteSpaces(default: false) = %s", got)
			}
			// The same through REST, by the same ids.
			r := sxDo(t, e, team.Reader.Token, "GET", w.sitePath(alpha)+"/site-spaces?default=true", nil, http.StatusOK)
			var restDefaults []string
			for _, it := range sxList(r["items"]) {
				restDefaults = append(restDefaults, sxStr(testenv.Path(it, "space", "title")))
			}
			if strings.Join(restDefaults, ",") != "Space 0,Space 3,Space 4" {
				t.Errorf("REST ?default=true = %v", restDefaults)
			}
			gr := sxDo(t, e, team.Reader.Token, "GET", w.sitePath(alpha)+"/section-groups", nil, http.StatusOK)
			if gr["count"] != float64(2) || testenv.Path(gr, "items", 0, "id") != outer || testenv.Path(gr, "items", 1, "id") != innerG ||
				testenv.Path(gr, "items", 1, "sectionGroup") != outer || testenv.Path(gr, "items", 0, "children", 1, "id") != innerG {
				t.Errorf("REST section groups = %v", gr)
			}
		})

		t.Run("publishedContent", func(t *testing.T) {
			sxOK(t, e.GraphQL(admin, `mutation($s: ID!, $ss: ID!) { overrideSiteSpaceCustomization(site: $s, siteSpace: $ss, settings: {title: "Five"}) }`,
				map[string]any{"s": alpha, "ss": sxID(testenv.Path(sxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { site(id: $id) { allSiteSpaces(default: false) { nodes { id } } } }`,
					map[string]any{"id": alpha})), "site", "allSiteSpaces", "nodes", 1))}))
			const q = `query($id: ID!) { site(id: $id) { publishedContent { object site { id published urls { published } }
				structure { type structure { __typename ... on SiteSection { id urls { published } siteSpaces { nodes { id urls { published } } } } ... on SiteSectionGroup { id } } }
				customizations { site siteSpaces } scripts { script } } } }`
			g := testenv.Path(sxOK(t, e.GraphQL(team.Reader.Token, q, map[string]any{"id": alpha})), "site", "publishedContent").(map[string]any)
			r := sxDo(t, e, team.Reader.Token, "GET", w.sitePath(alpha)+"/published", nil, http.StatusOK)
			if g["object"] != "published-content-site" || r["object"] != g["object"] || testenv.Path(g, "site", "id") != alpha || testenv.Path(r, "site", "id") != alpha ||
				len(sxList(g["scripts"])) != 0 || len(sxList(r["scripts"])) != 0 {
				t.Errorf("published: GraphQL %v, REST %v", g, r)
			}
			if testenv.Path(g, "structure", "type") != testenv.Path(r, "structure", "type") ||
				testenv.Path(g, "structure", "structure", 0, "id") != testenv.Path(r, "structure", "structure", 0, "id") ||
				testenv.Path(g, "structure", "structure", 0, "urls", "published") != testenv.Path(r, "structure", "structure", 0, "urls", "published") ||
				testenv.Path(g, "structure", "structure", 0, "siteSpaces", "nodes", 1, "urls", "published") != testenv.Path(r, "structure", "structure", 0, "siteSpaces", 1, "urls", "published") ||
				testenv.Path(g, "structure", "structure", 1, "id") != testenv.Path(r, "structure", "structure", 1, "id") {
				t.Errorf("published structure: GraphQL %v, REST %v", g["structure"], r["structure"])
			}
			if u := sxStr(testenv.Path(g, "structure", "structure", 0, "siteSpaces", "nodes", 1, "urls", "published")); !strings.HasSuffix(u, "/space-1") {
				t.Errorf("published URL of a non-default site space in the default section = %q", u)
			}
			gs, rs := testenv.Path(g, "customizations", "siteSpaces").(map[string]any), testenv.Path(r, "customizations", "siteSpaces").(map[string]any)
			if len(gs) != 5 || sxJSON(gs) != sxJSON(rs) || sxJSON(testenv.Path(g, "customizations", "site")) != sxJSON(testenv.Path(r, "customizations", "site")) {
				t.Errorf("customizations: GraphQL %v, REST %v", g["customizations"], r["customizations"])
			}
			var titles []string
			for _, set := range gs {
				titles = append(titles, sxStr(testenv.Path(set, "title")))
			}
			if n := strings.Count(strings.Join(titles, ","), "Five"); n != 1 {
				t.Errorf("site space titles in customizations = %v", titles)
			}
			// An unpublished site has a profile without published URLs.
			pb := testenv.Path(sxOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { site(id: $id) { publishedContent { site { published urls { published } } } } }`,
				map[string]any{"id": beta})), "site", "publishedContent", "site").(map[string]any)
			if pb["published"] != false || testenv.Path(pb, "urls", "published") != nil {
				t.Errorf("unpublished profile = %v", pb)
			}
			// A share-link site needs the right key; a wrong one is not found.
			if r := e.GraphQL(team.Reader.Token, `query($id: ID!) { site(id: $id) { publishedContent(shareKey: "wrong") { object } } }`, map[string]any{"id": api}); r.Code() != "NOT_FOUND" {
				t.Errorf("wrong share key: %s", r.Raw)
			}
			if r := e.GraphQL(team.Reader.Token, `query($id: ID!) { site(id: $id) { structure(shareKey: "wrong") { type } } }`, map[string]any{"id": api}); r.Code() != "NOT_FOUND" {
				t.Errorf("wrong share key on structure: %s", r.Raw)
			}
		})

		t.Run("settings fields", func(t *testing.T) {
			const q = `query($id: ID!) { site(id: $id) { customization adaptiveSchema { object } templateConditions { condition } } }`
			d := sxOK(t, e.GraphQL(team.Reader.Token, q, map[string]any{"id": alpha}))
			if sxJSON(testenv.Path(d, "site", "customization")) != sxJSON(sxDo(t, e, team.Reader.Token, "GET", w.sitePath(alpha)+"/customization", nil, http.StatusOK)) {
				t.Errorf("customization differs across doors")
			}
			if testenv.Path(d, "site", "adaptiveSchema") != nil || len(sxList(testenv.Path(d, "site", "templateConditions"))) != 0 {
				t.Errorf("no adaptive schema: %v", d)
			}
			if r := e.Do(team.Reader.Token, "GET", w.sitePath(alpha)+"/adaptive-schema/template-conditions", nil); r.Status != http.StatusOK || len(sxList(r.JSON()["items"])) != 0 {
				t.Errorf("REST template conditions without schema: %d %s", r.Status, r.Body)
			}
			// Share links: writers only, through both doors.
			if r := e.GraphQL(team.Editor.Token, `query($id: ID!) { site(id: $id) { title shareLinks { totalCount } } }`, map[string]any{"id": api}); r.Code() != "FORBIDDEN" {
				t.Errorf("editor shareLinks: %s", r.Raw)
			}
			if r := e.Do(team.Reader.Token, "GET", w.sitePath(api)+"/share-links", nil); r.Status != http.StatusForbidden {
				t.Errorf("REST reader share links: %d", r.Status)
			}
		})

		t.Run("ids across doors", func(t *testing.T) {
			// Created through GraphQL, read through REST.
			d := sxOK(t, e.GraphQL(admin, `mutation($s: ID!, $sp: ID!) {
				sec: addSiteSection(site: $s, input: {space: $sp, title: "Extra"}) { id siteSpaces { nodes { id } } } }`, map[string]any{"s": beta, "sp": w.spaces[0]}))
			secID := sxStr(testenv.Path(d, "sec", "id"))
			ssID := sxStr(testenv.Path(d, "sec", "siteSpaces", "nodes", 0, "id"))
			d = sxOK(t, e.GraphQL(admin, `mutation($s: ID!, $sec: ID!) {
				g: createSiteSectionGroup(site: $s, input: {title: "G", sections: [$sec]}) { id }
				l: createSiteShareLink(site: $s, name: "L") { id } }`, map[string]any{"s": beta, "sec": secID}))
			gID, lID := sxStr(testenv.Path(d, "g", "id")), sxStr(testenv.Path(d, "l", "id"))
			p := w.sitePath(beta)
			sxDo(t, e, admin, "PATCH", p+"/sections/"+secID, map[string]any{"title": "Extra 2"}, http.StatusOK)
			sxDo(t, e, admin, "PATCH", p+"/site-spaces/"+ssID, map[string]any{"hidden": true}, http.StatusOK)
			sxDo(t, e, admin, "PATCH", p+"/section-groups/"+gID, map[string]any{"title": "G 2"}, http.StatusOK)
			sxDo(t, e, admin, "PATCH", p+"/share-links/"+lID, map[string]any{"name": "L 2"}, http.StatusOK)
			// Created through REST, read and changed through GraphQL.
			rs := sxDo(t, e, admin, "POST", p+"/site-spaces", map[string]any{"spaceId": w.spaces[5], "sectionId": secID}, http.StatusCreated)
			rl := sxDo(t, e, admin, "POST", p+"/share-links", map[string]any{"name": "R"}, http.StatusCreated)
			d = sxOK(t, e.GraphQL(admin, `mutation($s: ID!, $ss: ID!, $l: ID!, $sec: ID!, $g: ID!) {
				ss: updateSiteSpace(site: $s, id: $ss, input: {path: "rest-made"}) { id path section { id } }
				l: updateSiteShareLink(site: $s, id: $l, input: {name: "R 2"}) { id name }
				sec: updateSiteSection(site: $s, id: $sec, input: {path: "extra"}) { id title }
				g: updateSiteSectionGroup(site: $s, id: $g, input: {icon: "x"}) { id title } }`,
				map[string]any{"s": beta, "ss": rs["id"], "l": rl["id"], "sec": secID, "g": gID}))
			if testenv.Path(d, "ss", "id") != rs["id"] || testenv.Path(d, "ss", "section", "id") != secID || testenv.Path(d, "l", "name") != "R 2" ||
				testenv.Path(d, "sec", "title") != "Extra 2" || testenv.Path(d, "g", "title") != "G 2" {
				t.Errorf("GraphQL over REST-made objects = %v", d)
			}
			d = sxOK(t, e.GraphQL(admin, `query($id: ID!) { site(id: $id) { id title shareLinks { nodes { id name } } sections { nodes { id sectionGroup { id } siteSpaces { nodes { id hidden path } } } } } }`,
				map[string]any{"id": beta}))
			if testenv.Path(d, "site", "shareLinks", "nodes", 0, "name") != "L 2" || testenv.Path(d, "site", "shareLinks", "nodes", 1, "id") != rl["id"] {
				t.Errorf("share links = %v", testenv.Path(d, "site", "shareLinks"))
			}
			found := false
			for _, sec := range sxList(testenv.Path(d, "site", "sections", "nodes")) {
				if testenv.Path(sec, "id") != secID {
					continue
				}
				found = true
				if testenv.Path(sec, "sectionGroup", "id") != gID || testenv.Path(sec, "siteSpaces", "nodes", 0, "id") != ssID ||
					testenv.Path(sec, "siteSpaces", "nodes", 0, "hidden") != true || testenv.Path(sec, "siteSpaces", "nodes", 1, "path") != "rest-made" {
					t.Errorf("section = %v", sec)
				}
			}
			if !found {
				t.Errorf("section %s not in %v", secID, d)
			}
		})
	})
}
