package rest_test

import (
	"strings"
	"testing"

	"quire/internal/openapispec"
	"quire/internal/testing/testenv"
)

const tinySpec = "openapi: 3.1.0\ninfo: {title: Tiny, version: \"1\"}\npaths: {}\n"

func textSource(s string) map[string]any { return map[string]any{"text": s} }

func TestOpenAPISpecValidation(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := newSpecFx(t, e)
		create := func(body any) *testenv.Response { return e.Do(f.tok, "POST", f.base(), body) }
		cases := []struct {
			name  string
			body  any
			field string
		}{
			{"no slug", map[string]any{"source": textSource(tinySpec)}, "slug"},
			{"empty slug", map[string]any{"slug": "", "source": textSource(tinySpec)}, "slug"},
			{"slug with a space", map[string]any{"slug": "pet store", "source": textSource(tinySpec)}, "slug must be letters, digits and single dashes"},
			{"slug with double dash", map[string]any{"slug": "pet--store", "source": textSource(tinySpec)}, "slug must be"},
			{"slug ending with a dash", map[string]any{"slug": "pets-", "source": textSource(tinySpec)}, "slug must be"},
			{"slug too long", map[string]any{"slug": strings.Repeat("a", 101), "source": textSource(tinySpec)}, "slug must be between 1 and 100 characters long"},
			{"no source", map[string]any{"slug": "a"}, "source"},
			{"empty source", map[string]any{"slug": "a", "source": map[string]any{}}, "source must have url"},
			{"both", map[string]any{"slug": "a", "source": map[string]any{"url": "https://example.com/a.yaml", "text": tinySpec}}, "not both"},
			{"empty text", map[string]any{"slug": "a", "source": textSource("")}, "source.text"},
			{"blank text", map[string]any{"slug": "a", "source": textSource("   \n")}, "source.text"},
			{"ftp", map[string]any{"slug": "a", "source": map[string]any{"url": "ftp://example.com/a.yaml"}}, "source.url must be an http or https URL"},
			{"relative url", map[string]any{"slug": "a", "source": map[string]any{"url": "/a.yaml"}}, "source.url must be an absolute"},
			{"credentials", map[string]any{"slug": "a", "source": map[string]any{"url": "https://user:pw@example.com/a.yaml"}}, "credentials"},
			{"url too long", map[string]any{"slug": "a", "source": map[string]any{"url": "https://example.com/" + strings.Repeat("a", 2048)}}, "source.url must be at most 2048 characters long"},
			{"url null", map[string]any{"slug": "a", "source": map[string]any{"url": nil}}, "source.url"},
			{"text of another type", map[string]any{"slug": "a", "source": map[string]any{"text": 42}}, "source.text"},
		}
		for _, tc := range cases {
			wantErr(t, create(tc.body), 400, tc.field, tc.name)
		}
		// Upper case is allowed (the documented pattern), and slugs are
		// unique in the organization.
		f.do(t, "POST", f.base(), map[string]any{"slug": "PetStore-2", "source": textSource(tinySpec)}, 201)
		wantErr(t, create(map[string]any{"slug": "PetStore-2", "source": textSource(tinySpec)}), 400, `slug "PetStore-2" is already used`, "duplicate slug")
		// Slugs differ by case.
		f.do(t, "POST", f.base(), map[string]any{"slug": "petstore-2", "source": textSource(tinySpec)}, 201)
		// PUT checks the path's slug and the source the same way.
		wantErr(t, e.Do(f.tok, "PUT", f.path("bad--slug"), map[string]any{"source": textSource(tinySpec)}), 400, "specSlug", "put with a bad slug")
		wantErr(t, e.Do(f.tok, "PUT", f.path("ok"), map[string]any{"source": map[string]any{}}), 400, "source", "put without a source")
		wantErr(t, e.Do(f.tok, "PUT", f.path("ok"), map[string]any{}), 400, "source", "put without a body field")
		// PATCH takes private or public only.
		wantErr(t, e.Do(f.tok, "PATCH", f.path("PetStore-2"), map[string]any{"visibility": "secret"}), 400, "visibility must be private or public", "bad visibility")
		wantErr(t, e.Do(f.tok, "PATCH", f.path("PetStore-2"), map[string]any{}), 400, "visibility", "no visibility")
		wantErr(t, e.Do(f.tok, "PATCH", f.path("nope"), map[string]any{"visibility": "public"}), 404, "nope", "patch unknown")
		// Unknown versions, and a version of another specification.
		other := f.settle(t, "petstore-2")
		wantErr(t, e.Do(f.tok, "GET", f.path("PetStore-2")+"/versions/"+specStr(other, "lastVersion"), nil), 404, "version", "version of another spec")
		wantErr(t, e.Do(f.tok, "GET", f.path("PetStore-2")+"/versions/Bnope/content", nil), 404, "version", "unknown version")
		if n, _ := e.Client().OpenAPISpec.Query().Count(t.Context()); n != 2 {
			t.Errorf("%d specifications, want the two made", n)
		}
	})
}

func TestOpenAPISpecPermissions(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := newSpecFx(t, e)
		sp := f.do(t, "POST", f.base(), map[string]any{"slug": "team", "source": textSource(tinySpec)}, 201)
		f.settle(t, "team")
		guest, gtok := e.User("guest@acme.test")
		e.Member(f.team.Org, guest, "")
		creator, ctok := e.User("creator@acme.test")
		e.Member(f.team.Org, creator, "create")

		// A reader sees, without edit; an editor (edit role) neither
		// creates nor changes; the create role does.
		r := e.Do(f.team.Reader.Token, "GET", f.path("team"), nil)
		if r.Status != 200 || testenv.Path(r.JSON(), "permissions", "edit") != false || testenv.Path(r.JSON(), "permissions", "view") != true {
			t.Errorf("reader get: %d %s", r.Status, r.Body)
		}
		for _, a := range []testenv.Actor{f.team.Reader, f.team.Editor} {
			wantErr(t, e.Do(a.Token, "POST", f.base(), map[string]any{"slug": "mine", "source": textSource(tinySpec)}), 403, "create or admin role", "create by "+a.User.Email)
			wantErr(t, e.Do(a.Token, "PUT", f.path("team"), map[string]any{"source": textSource(tinySpec)}), 403, "", "put by "+a.User.Email)
			wantErr(t, e.Do(a.Token, "PATCH", f.path("team"), map[string]any{"visibility": "public"}), 403, "", "patch by "+a.User.Email)
			wantErr(t, e.Do(a.Token, "DELETE", f.path("team"), nil), 403, "", "delete by "+a.User.Email)
			for _, p := range []string{f.base(), f.path("team") + "/versions", f.path("team") + "/versions/latest/content"} {
				if r := e.Do(a.Token, "GET", p, nil); r.Status != 200 {
					t.Errorf("%s GET %s: %d", a.User.Email, p, r.Status)
				}
			}
		}
		r = e.Do(ctok, "PATCH", f.path("team"), map[string]any{"visibility": "public"})
		if r.Status != 200 || r.JSON()["visibility"] != "public" || testenv.Path(r.JSON(), "permissions", "edit") != true {
			t.Errorf("creator patch: %d %s", r.Status, r.Body)
		}
		_ = creator
		// A guest, and a member of another organization, are told the
		// organization does not exist, as for an unknown one; deleting
		// is "did not exist".
		for _, tok := range []string{gtok, f.team.Outsider.Token} {
			for _, p := range []string{f.base(), f.path("team"), f.path("team") + "/versions", f.path("team") + "/versions/" + specStr(sp, "id")} {
				wantErr(t, e.Do(tok, "GET", p, nil), 404, "", "outside GET "+p)
			}
			wantErr(t, e.Do(tok, "POST", f.base(), map[string]any{"slug": "x", "source": textSource(tinySpec)}), 404, "", "outside create")
			wantErr(t, e.Do(tok, "PUT", f.path("team"), map[string]any{"source": textSource(tinySpec)}), 404, "", "outside put")
			wantErr(t, e.Do(tok, "PATCH", f.path("team"), map[string]any{"visibility": "private"}), 404, "", "outside patch")
			if r := e.Do(tok, "DELETE", f.path("team"), nil); r.Status != 204 {
				t.Errorf("outside delete: %d %s", r.Status, r.Body)
			}
		}
		// The other organization's admin, under their own organization's
		// path, finds no such slug.
		wantErr(t, e.Do(f.team.Outsider.Token, "GET", "/v1/orgs/"+f.team.Other.ID+"/openapi/team", nil), 404, "team", "other org path")
		if r := f.do(t, "GET", f.path("team"), nil, 200); r["visibility"] != "public" {
			t.Errorf("the spec changed: %v", r)
		}
	})
}

// A public specification is served to anyone at urls.published; a
// private one is not, but its versions' signed URLs work without a token.
func TestOpenAPISpecPublished(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := newSpecFx(t, e)
		f.do(t, "POST", f.base(), map[string]any{"slug": "pub", "source": textSource(tinySpec)}, 201)
		sp := f.settle(t, "pub")
		published := e.URL + "/openapi/" + f.org + "/pub"
		if r := getRaw(t, published); r.status != 404 {
			t.Errorf("private spec published: %d %s", r.status, r.body)
		}
		v := f.do(t, "GET", f.path("pub")+"/versions/latest", nil, 200)
		signed := specStr(v, "url")
		if !strings.Contains(signed, "/signed/") {
			t.Fatalf("url of a private version %q is not signed", signed)
		}
		if r := getRaw(t, signed); r.status != 200 || r.body != tinySpec || !strings.HasPrefix(r.header.Get("Content-Type"), "application/yaml") {
			t.Errorf("signed url: %d %q %v", r.status, r.body, r.header)
		}
		// A changed signature, or the link of another version, is refused.
		tampered := strings.Replace(signed, "/signed/", "/signed/1", 1)
		if r := getRaw(t, tampered); r.status != 403 {
			t.Errorf("tampered link: %d", r.status)
		}
		// The unsigned path of a private version is not served.
		unsigned := published + "/versions/" + specStr(sp, "lastVersion") + "/openapi.yaml"
		if r := getRaw(t, unsigned); r.status != 404 {
			t.Errorf("unsigned private version: %d", r.status)
		}

		p := f.do(t, "PATCH", f.path("pub"), map[string]any{"visibility": "public"}, 200)
		if specStr(p, "urls", "published") != published {
			t.Errorf("urls.published %q, want %q", specStr(p, "urls", "published"), published)
		}
		r := getRaw(t, published)
		if r.status != 302 || r.header.Get("Location") != unsigned {
			t.Fatalf("published: %d Location %q, want 302 to %q", r.status, r.header.Get("Location"), unsigned)
		}
		if r := getRaw(t, unsigned); r.status != 200 || r.body != tinySpec || r.header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("public version: %d %q", r.status, r.body)
		}
		if v := f.do(t, "GET", f.path("pub")+"/versions/latest", nil, 200); specStr(v, "url") != unsigned {
			t.Errorf("url of a public version %q, want %q", specStr(v, "url"), unsigned)
		}
		for _, bad := range []string{published + "/versions/" + specStr(sp, "lastVersion") + "/other.yaml", published + "/versions/Bnope/openapi.yaml", e.URL + "/openapi/" + f.org + "/nope"} {
			if r := getRaw(t, bad); r.status != 404 || !strings.Contains(r.body, `"code":404`) {
				t.Errorf("%s: %d %s", bad, r.status, r.body)
			}
		}
		// Back to private: no longer served.
		f.do(t, "PATCH", f.path("pub"), map[string]any{"visibility": "private"}, 200)
		if r := getRaw(t, unsigned); r.status != 404 {
			t.Errorf("public URL after going private: %d", r.status)
		}
	})
}

// Without the operator's permission, a source naming a loopback or
// private address is refused when written.
func TestOpenAPISpecPrivateAddresses(t *testing.T) {
	for _, b := range testenv.Backends {
		t.Run(b, func(t *testing.T) {
			e := testenv.NewWith(t, b, testenv.Options{OpenAPI: &openapispec.Config{}})
			team := e.NewTeam()
			for _, u := range []string{"http://127.0.0.1:8080/openapi.yaml", "http://localhost/a.yaml", "http://[::1]/a.yaml", "http://169.254.169.254/latest/meta-data", "https://10.0.0.1/spec.json"} {
				r := e.Do(team.Admin.Token, "POST", "/v1/orgs/"+team.Org.ID+"/openapi", map[string]any{"slug": "inside", "source": map[string]any{"url": u}})
				wantErr(t, r, 400, "--openapi-fetch-private", u)
			}
		})
	}
}
