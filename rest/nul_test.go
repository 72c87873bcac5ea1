package rest_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// nulFixture creates one object of each kind a route names, and returns
// their ids by path parameter.
func nulFixture(t *testing.T, e *testenv.Env, team *testenv.Team) map[string]string {
	t.Helper()
	tok := team.Admin.Token
	id := func(r *testenv.Response, what string) string {
		t.Helper()
		if r.Status >= 300 {
			t.Fatalf("%s: %d %s", what, r.Status, r.Body)
		}
		s, _ := r.JSON()["id"].(string)
		return s
	}
	org := team.Org.ID
	ids := map[string]string{"organizationId": org}
	ids["collectionId"] = id(e.Do(tok, "POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "C"}), "collection")
	space := id(e.Do(tok, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "S"}), "space")
	other := id(e.Do(tok, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "T"}), "space")
	ids["spaceId"] = space

	// A page and a file in the space's content, and an open change request.
	cr := id(e.Do(tok, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": "Content"}), "change request")
	page := e.GraphQL(tok, `mutation($cr: ID!) { createPage(input: {changeRequest: $cr, title: "P", markdown: "Text"}) { page { id } } }`, map[string]any{"cr": cr})
	ids["pageId"], _ = testenv.Path(page.Data, "createPage", "page", "id").(string)
	up := e.GraphQLUpload(tok, `mutation($in: UploadFileInput!) { uploadFile(input: $in) { file { id } } }`,
		map[string]any{"in": map[string]any{"changeRequest": cr, "file": nil}}, "variables.in.file", "f.txt", []byte("f"))
	ids["fileId"], _ = testenv.Path(up.Data, "uploadFile", "file", "id").(string)
	ids["reusableContentId"] = newReusable(t, e, tok, cr, "R")
	if r := e.Do(tok, "POST", "/v1/spaces/"+space+"/change-requests/"+cr+"/merge", nil); r.Status != 200 {
		t.Fatalf("merge: %d %s", r.Status, r.Body)
	}
	ids["changeRequestId"] = id(e.Do(tok, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": "Open"}), "change request")
	ids["revisionId"], _ = e.Do(tok, "GET", "/v1/spaces/"+space, nil).JSON()["revision"].(string)

	site := id(e.Do(tok, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": "Docs", "visibility": "share-link", "spaces": []string{space}}), "site")
	ids["siteId"] = site
	base := "/v1/orgs/" + org + "/sites/" + site
	ids["siteSectionId"] = id(e.Do(tok, "POST", base+"/sections", map[string]any{"spaceId": other}), "section")
	var spaces struct {
		Items []struct{ ID string } `json:"items"`
	}
	e.Do(tok, "GET", base+"/site-spaces", nil).Decode(t, &spaces)
	if len(spaces.Items) == 0 {
		t.Fatal("no site space")
	}
	ids["siteSpaceId"] = spaces.Items[0].ID
	ids["siteSectionGroupId"] = id(e.Do(tok, "POST", base+"/section-groups", map[string]any{"title": "G"}), "section group")
	ids["shareLinkId"] = id(e.Do(tok, "POST", base+"/share-links", map[string]any{"name": "L"}), "share link")
	ids["translationId"] = id(e.Do(tok, "POST", "/v1/orgs/"+org+"/translations", map[string]any{
		"source": map[string]any{"space": space, "language": "en"}, "language": "fr"}), "translation")
	if r := e.Do(tok, "POST", "/v1/orgs/"+org+"/conversations", map[string]any{"id": "nul", "parts": []any{}}); r.Status != 204 {
		t.Fatalf("ingest: %d %s", r.Status, r.Body)
	}
	ids["conversationId"], _ = testenv.Path(e.Do(tok, "GET", "/v1/orgs/"+org+"/conversations", nil).JSON(), "items", 0, "id").(string)
	// Issues and clusters come from the analysis, which this server does
	// not run: ids of their kinds that name nothing do (every request here
	// carries a NUL somewhere).
	ids["issueId"], ids["clusterId"] = "hAAAAAAAAAAAAAAAAAAA", "eAAAAAAAAAAAAAAAAAAA"
	// A discussion: a comment with a reply, and a review of the open change
	// request (its author may request changes); userId names a user asked
	// for a review.
	comments := "/v1/spaces/" + space + "/comments"
	ids["commentId"] = id(e.Do(tok, "POST", comments, map[string]any{"body": map[string]any{"markdown": "C"}}), "comment")
	ids["commentReplyId"] = id(e.Do(tok, "POST", comments+"/"+ids["commentId"]+"/replies", map[string]any{"body": map[string]any{"markdown": "R"}}), "reply")
	ids["reviewId"] = id(e.Do(tok, "POST", "/v1/spaces/"+space+"/change-requests/"+ids["changeRequestId"]+"/reviews",
		map[string]any{"status": "changes-requested"}), "review")
	ids["userId"] = team.Reader.User.ID
	// Organization administration.
	ids["teamId"] = id(e.Do(tok, "PUT", "/v1/orgs/"+org+"/teams", map[string]any{"title": "T", "members": []string{team.Reader.User.ID}}), "team")
	ids["inviteId"] = id(e.Do(tok, "POST", "/v1/orgs/"+org+"/link-invites", map[string]any{"role": "read"}), "invite link")
	ids["samlProviderId"] = id(e.Do(tok, "POST", "/v1/orgs/"+org+"/saml", map[string]any{"label": "IdP"}), "SAML provider")
	ids["emailDomain"] = "acme.test"
	// An OpenAPI specification; a NUL is refused before its version (which
	// no job made) would be looked up.
	e.Do(tok, "POST", "/v1/orgs/"+org+"/openapi", map[string]any{"slug": "nul-spec", "source": map[string]any{"text": "openapi: 3.1.0\n"}})
	ids["specSlug"], ids["versionId"] = "nul-spec", "B0000000000000000000"
	for k, v := range ids {
		if v == "" {
			t.Fatalf("fixture: no %s", k)
		}
	}
	return ids
}

// nulBodies returns, for a request body schema, bodies that each carry
// U+0000 in one property (or one property of an object property).
func nulBodies(doc map[string]any, schema map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	props := properties(doc, schema)
	for name, p := range props {
		out[name] = map[string]any{name: "a\x00b"}
		for sub := range properties(doc, p) {
			out[name+"."+sub] = map[string]any{name: map[string]any{sub: "a\x00b"}}
		}
	}
	return out
}

// properties resolves a schema's $ref and returns its properties.
func properties(doc, schema map[string]any) map[string]map[string]any {
	if ref, ok := schema["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		comps, _ := doc["components"].(map[string]any)
		schemas, _ := comps["schemas"].(map[string]any)
		schema, _ = schemas[name].(map[string]any)
	}
	out := map[string]map[string]any{}
	raw, _ := schema["properties"].(map[string]any)
	for k, v := range raw {
		if m, ok := v.(map[string]any); ok {
			out[k] = m
		}
	}
	return out
}

// No route answers a NUL character (U+0000) with anything but 400, where
// it comes: a path parameter, a query parameter, or any property of the
// body. Both databases answer alike; PostgreSQL would otherwise fail with
// a 500 on text it cannot store.
func TestNoRouteTakesNUL(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		ids := nulFixture(t, e, team)
		// The document as a client reads it.
		var doc map[string]any
		raw, err := json.Marshal(e.Server.API().OpenAPI(""))
		if err != nil || json.Unmarshal(raw, &doc) != nil {
			t.Fatalf("OpenAPI document: %v", err)
		}
		paths, _ := doc["paths"].(map[string]any)
		checked := 0
		expect := func(method, path string, body any, what string) {
			t.Helper()
			r := e.Do(team.Admin.Token, method, path, body)
			checked++
			if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "NUL character") {
				t.Errorf("%s %s with NUL in %s: %d %s", method, path, what, r.Status, r.Body)
			}
		}
		for _, rt := range e.Server.API().Routes() {
			if rt.Pattern == "/openapi.json" {
				continue
			}
			fill := func(nul string) string {
				p := rt.Pattern
				for name, v := range ids {
					if name == nul {
						v = "x%00y"
					}
					p = strings.ReplaceAll(p, "{"+name+"}", v)
				}
				return "/v1" + p
			}
			path := fill("")
			if strings.Contains(path, "{") {
				t.Fatalf("no fixture for a parameter of %s", rt.Pattern)
			}
			for name := range ids {
				if strings.Contains(rt.Pattern, "{"+name+"}") {
					expect(rt.Method, fill(name), nil, "path parameter "+name)
				}
			}
			for _, p := range rt.Params {
				v := url.Values{p.Name: {"a\x00b"}}
				expect(rt.Method, path+"?"+v.Encode(), nil, "query parameter "+p.Name)
			}
			if rt.Request == nil {
				continue
			}
			op, _ := paths[rt.Pattern].(map[string]any)[strings.ToLower(rt.Method)].(map[string]any)
			schema, _ := testenv.Path(op, "requestBody", "content", "application/json", "schema").(map[string]any)
			bodies := nulBodies(doc, schema)
			names := make([]string, 0, len(bodies))
			for n := range bodies {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				expect(rt.Method, path, bodies[n], "body property "+n)
			}
			expect(rt.Method, path, map[string]any{"unknown\x00key": true}, "a key of the body")
		}
		if checked < 100 {
			t.Fatalf("only %d requests checked", checked)
		}
		t.Logf("%d requests with NUL, all 400", checked)
	})
}

// The 400 names the field, and nothing is written.
func TestNULNamesTheField(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		tok := team.Admin.Token
		org := team.Org.ID
		for _, tc := range []struct {
			method, path string
			body         any
			message      string
		}{
			{"POST", "/v1/orgs/" + org + "/spaces", map[string]any{"title": "Bad\x00title"}, "title contains a NUL character"},
			{"POST", "/v1/orgs/" + org + "/spaces", map[string]any{"title": "Fine", "emoji": "\x00"}, "emoji contains a NUL character"},
			{"POST", "/v1/orgs/" + org + "/collections", map[string]any{"title": "C", "parent": "\x00"}, "parent contains a NUL character"},
			{"GET", "/v1/orgs/" + org + "/spaces?page=%00", nil, "page contains a NUL character"},
			{"GET", "/v1/orgs/" + org + "/change-requests?status=open&creator=a%00", nil, "creator contains a NUL character"},
			{"GET", "/v1/orgs/" + org + "/spaces?anything=%00", nil, "anything contains a NUL character"},
			{"GET", "/v1/spaces/S%00", nil, "spaceId contains a NUL character"},
			{"GET", "/v1/orgs/%00/spaces", nil, "organizationId contains a NUL character"},
		} {
			r := e.Do(tok, tc.method, tc.path, tc.body)
			var got struct {
				Error struct {
					Code    int
					Message string
				}
			}
			r.Decode(t, &got)
			if r.Status != 400 || got.Error.Code != 400 || !strings.HasPrefix(got.Error.Message, tc.message) {
				t.Errorf("%s %s: %d %s, want 400 %q", tc.method, tc.path, r.Status, r.Body, tc.message)
			}
		}
		space := e.Do(tok, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "S"}).JSON()["id"].(string)
		r := e.Do(tok, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{
			"subject": "Fine", "description": map[string]any{"nodes": []any{map[string]any{"object": "block", "type": "paragraph",
				"nodes": []any{map[string]any{"object": "text", "leaves": []any{map[string]any{"text": "a\x00b"}}}}}}},
		})
		if r.Status != 400 || !strings.Contains(string(r.Body), `description.nodes[0].nodes[0].leaves[0].text contains a NUL character`) {
			t.Errorf("NUL deep in a description: %d %s", r.Status, r.Body)
		}
		if n := e.Client().Space.Query().CountX(t.Context()); n != 1 {
			t.Errorf("%d spaces, want only the one created without NUL", n)
		}
		if n := e.Client().ChangeRequest.Query().CountX(t.Context()); n != 0 {
			t.Errorf("%d change requests, want none", n)
		}
	})
}
