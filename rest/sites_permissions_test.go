package rest_test

import (
	"fmt"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// ---- permission matrix ----

// sitMatrix is a site with one of everything, for the permission matrix.
type sitMatrix struct {
	ids map[string]string // route placeholders to ids
	// spare is a space of the organization not on the site.
	spare string
}

func sitMatrixFixture(t *testing.T, f *sitFx) sitMatrix {
	t.Helper()
	a, b, c := f.space(t, "Alpha"), f.space(t, "Beta"), f.space(t, "Gamma")
	id := f.site(t, map[string]any{"title": "Matrix", "spaces": []string{a}})["id"].(string)
	secB := f.section(t, id, b, "Bee")["id"].(string)
	secC := f.section(t, id, c, "Sea")["id"].(string)
	g := f.do(t, "POST", f.path(id, "section-groups"), map[string]any{"title": "Group", "sections": []string{secC}}, 201)["id"].(string)
	link := f.do(t, "POST", f.path(id, "share-links"), map[string]any{"name": "Link"}, 201)["id"].(string)
	f.do(t, "PUT", f.path(id, "adaptive-schema"), map[string]any{"jsonSchema": sitSchema}, 200)
	secs := f.do(t, "GET", f.path(id, "sections"), nil, 200)
	secD := sitStr(secs, "items", 0, "id")
	ssA := sitStr(secs, "items", 0, "siteSpaces", 0, "id")
	f.do(t, "PATCH", f.path(id, "site-spaces", ssA, "customization"), map[string]any{"styling": map[string]any{"theme": "bold"}}, 200)
	return sitMatrix{
		ids: map[string]string{
			"{organizationId}": f.org, "{siteId}": id, "{siteSpaceId}": ssA, "{siteSectionId}": secC,
			"{siteSectionGroupId}": g, "{shareLinkId}": link, "secB": secB, "secD": secD,
		},
		spare: f.space(t, "Spare"),
	}
}

var sitSchema = map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
	"beta": map[string]any{"type": "boolean"},
}}

// path fills a route pattern, with org as the organization.
func (m sitMatrix) path(pattern, org string) string {
	p := "/v1" + pattern
	for k, v := range m.ids {
		if k == "{organizationId}" {
			v = org
		}
		p = strings.ReplaceAll(p, k, v)
	}
	return p
}

// sitRoute is one row of the matrix.
type sitRoute struct {
	method, pattern string
	body            func(m sitMatrix) any
	// read routes answer 200 to every member with a role; writersOnly read
	// routes (share links) answer 403 to them.
	read, writersOnly bool
	admin             int
}

func sitRoutes() []sitRoute {
	const s = "/orgs/{organizationId}/sites/{siteId}"
	body := func(v any) func(sitMatrix) any { return func(sitMatrix) any { return v } }
	read := func(p string) sitRoute { return sitRoute{method: "GET", pattern: p, read: true, admin: 200} }
	write := func(method, p string, b func(sitMatrix) any, status int) sitRoute {
		return sitRoute{method: method, pattern: p, body: b, admin: status}
	}
	return []sitRoute{
		read("/orgs/{organizationId}/sites"),
		write("POST", "/orgs/{organizationId}/sites", body(map[string]any{"title": "New site"}), 201),
		read(s),
		write("PATCH", s, body(map[string]any{"title": "Renamed"}), 200),
		write("DELETE", s, nil, 205),
		write("POST", s+"/publish", nil, 200),
		write("POST", s+"/unpublish", nil, 200),
		read(s + "/published"),
		read(s + "/structure"),
		write("PATCH", s+"/structure/sort", func(m sitMatrix) any {
			return map[string]any{"item": map[string]any{"type": "site-section", "id": m.ids["secB"]},
				"position": map[string]any{"before": map[string]any{"type": "site-section", "id": m.ids["secD"]}}}
		}, 200),
		read(s + "/site-spaces"),
		write("POST", s+"/site-spaces", func(m sitMatrix) any { return map[string]any{"spaceId": m.spare} }, 201),
		write("PATCH", s+"/site-spaces/{siteSpaceId}", body(map[string]any{"hidden": true}), 200),
		write("DELETE", s+"/site-spaces/{siteSpaceId}", nil, 205),
		write("POST", s+"/site-spaces/{siteSpaceId}/move", body(map[string]any{}), 200),
		read(s + "/site-spaces/{siteSpaceId}/customization"),
		write("PATCH", s+"/site-spaces/{siteSpaceId}/customization", body(map[string]any{"styling": map[string]any{"corners": "straight"}}), 200),
		write("DELETE", s+"/site-spaces/{siteSpaceId}/customization", nil, 205),
		read(s + "/sections"),
		write("POST", s+"/sections", func(m sitMatrix) any { return map[string]any{"spaceId": m.spare} }, 201),
		write("PATCH", s+"/sections/{siteSectionId}", body(map[string]any{"title": "Renamed"}), 200),
		write("DELETE", s+"/sections/{siteSectionId}", nil, 205),
		write("POST", s+"/sections/{siteSectionId}/move", body(map[string]any{}), 200),
		read(s + "/section-groups"),
		write("POST", s+"/section-groups", body(map[string]any{"title": "New group"}), 201),
		write("PATCH", s+"/section-groups/{siteSectionGroupId}", body(map[string]any{"title": "Renamed"}), 200),
		write("DELETE", s+"/section-groups/{siteSectionGroupId}", nil, 205),
		write("POST", s+"/section-groups/{siteSectionGroupId}/sections", func(m sitMatrix) any { return map[string]any{"sectionId": m.ids["secB"]} }, 201),
		write("DELETE", s+"/section-groups/{siteSectionGroupId}/sections/{siteSectionId}", nil, 205),
		write("POST", s+"/section-groups/{siteSectionGroupId}/move", body(map[string]any{}), 200),
		read(s + "/customization"),
		write("PUT", s+"/customization", body(map[string]any{"styling": map[string]any{"theme": "muted"}}), 200),
		read(s + "/adaptive-schema"),
		write("PUT", s+"/adaptive-schema", body(map[string]any{"jsonSchema": sitSchema}), 200),
		read(s + "/adaptive-schema/template-conditions"),
		{method: "GET", pattern: s + "/share-links", read: true, writersOnly: true, admin: 200},
		write("POST", s+"/share-links", body(map[string]any{"name": "New"}), 201),
		write("PATCH", s+"/share-links/{shareLinkId}", body(map[string]any{"active": false}), 200),
		write("DELETE", s+"/share-links/{shareLinkId}", nil, 205),
		{method: "GET", pattern: s + "/visitor-key", read: true, writersOnly: true, admin: 200},
		write("POST", s+"/visitor-key", nil, 200),
	}
}

func TestSitePermissionMatrix(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		routes := sitRoutes()

		// The matrix covers every site route of the API.
		covered := map[string]bool{}
		for _, r := range routes {
			covered[r.method+" "+r.pattern] = true
		}
		n := 0
		for _, r := range e.Server.API().Routes() {
			if !strings.Contains(r.Pattern, "/sites") {
				continue
			}
			n++
			if !covered[r.Method+" "+r.Pattern] {
				t.Errorf("route %s %s is not in the matrix", r.Method, r.Pattern)
			}
		}
		if n != len(routes) {
			t.Errorf("the API has %d site routes, the matrix %d", n, len(routes))
		}

		// Everyone but the admin, on one site: none of them may change it.
		m := sitMatrixFixture(t, f)
		site := m.ids["{siteId}"]
		_, before := f.outline(t, site)
		team := f.team
		other := team.Other.ID
		gu, guest := e.User("guest@acme.test")
		e.Member(team.Org, gu, "")
		var observed []string
		for _, r := range routes {
			name := r.method + " " + r.pattern
			var b any
			if r.body != nil {
				b = r.body(m)
			}
			p := m.path(r.pattern, f.org)
			isDelete := r.method == "DELETE"
			orgLevel := !strings.Contains(r.pattern, "{siteId}")

			for _, who := range []struct {
				name string
				tok  string
			}{{"editor", team.Editor.Token}, {"reader", team.Reader.Token}} {
				res := e.Do(who.tok, r.method, p, b)
				switch {
				case r.read && !r.writersOnly:
					sitWant(t, res, 200, who.name+" "+name)
				default:
					sitErr(t, res, 403, "", who.name+" "+name)
				}
			}

			// The outsider, and a guest of the organization (a member without
			// a role): the site does not exist for them.
			for _, who := range []struct {
				name string
				tok  string
			}{{"outsider", team.Outsider.Token}, {"guest", guest}} {
				res := e.Do(who.tok, r.method, p, b)
				if isDelete && res.Status == 204 {
					sitEmpty(t, res, 204, who.name+" "+name)
				} else {
					sitErr(t, res, 404, "", who.name+" "+name)
				}
				if isDelete {
					observed = append(observed, fmt.Sprintf("%s %s -> %d", who.name, name, res.Status))
				}
			}
			if !orgLevel {
				// The site of Org addressed under Other's path, by Other's admin
				// and by Org's admin.
				for _, who := range []struct {
					name string
					tok  string
				}{{"outsider", team.Outsider.Token}, {"admin", team.Admin.Token}} {
					res := e.Do(who.tok, r.method, m.path(r.pattern, other), b)
					if isDelete && res.Status == 204 {
						sitEmpty(t, res, 204, who.name+" under Other's path "+name)
					} else {
						sitErr(t, res, 404, "", who.name+" under Other's path "+name)
					}
					if isDelete {
						observed = append(observed, fmt.Sprintf("%s under Other's path %s -> %d", who.name, name, res.Status))
					}
				}
			}
			// Anonymous.
			sitErr(t, e.Do(team.Anon.Token, r.method, p, b), 401, "", "anonymous "+name)
		}
		for _, o := range observed {
			t.Log(o)
		}
		if _, after := f.outline(t, site); after != before {
			t.Errorf("structure changed by refused requests: %q -> %q", before, after)
		}
		if got := f.do(t, "GET", f.path(site), nil, 200); got["title"] != "Matrix" || got["published"] != false {
			t.Errorf("site changed by refused requests: %v", got)
		}
		if got := sitIDs(f.do(t, "GET", f.path(site, "share-links"), nil, 200)); len(got) != 1 {
			t.Errorf("share links changed by refused requests: %v", got)
		}
		if got := f.do(t, "GET", f.path(site, "site-spaces", m.ids["{siteSpaceId}"], "customization"), nil, 200); sitAt(got, "styling.theme") != "bold" {
			t.Errorf("override changed by refused requests: %v", sitAt(got, "styling.theme"))
		}

		// The admin, each route on a fresh site.
		for _, r := range routes {
			m := sitMatrixFixture(t, f)
			var b any
			if r.body != nil {
				b = r.body(m)
			}
			res := e.Do(f.tok, r.method, m.path(r.pattern, f.org), b)
			name := "admin " + r.method + " " + r.pattern
			switch r.admin {
			case 204, 205:
				sitEmpty(t, res, r.admin, name)
			default:
				v := sitWant(t, res, r.admin, name)
				if v == nil {
					t.Errorf("%s: no JSON body: %s", name, res.Body)
				}
			}
		}
	})
}
