package e2e_test

import (
	"strings"
	"testing"

	"quire/internal/openapispec"
	"quire/internal/testing/testenv"
)

// oddHosts are numeric spellings of inside addresses that some resolvers
// read as 127.0.0.1 (or this host): refused when the URL is written,
// whether or not private addresses are allowed.
var oddHosts = []string{"2130706433", "0x7f000001", "127.1", "0177.0.0.1", "[::ffff:127.0.0.1]", "0", "127.0.0.1.", "0.0.0.0"}

// A source URL whose host is spelled as an odd number is a 400 naming
// source.url on both doors, even with private fetching allowed; 127.0.0.1
// itself is taken when allowed and refused otherwise.
func TestSourceHostSpellings(t *testing.T) {
	const create = `mutation($in: CreateOpenAPISpecInput!) { createOpenAPISpec(input: $in) { slug } }`
	for _, b := range testenv.Backends {
		for _, private := range []bool{true, false} {
			name := b + "/private"
			if !private {
				name = b + "/public"
			}
			t.Run(name, func(t *testing.T) {
				e := testenv.NewWith(t, b, testenv.Options{OpenAPI: &openapispec.Config{FetchPrivate: private}})
				team := e.NewTeam()
				org := team.Org.ID
				post := func(slug, u string) *testenv.Response {
					return e.Do(team.Admin.Token, "POST", "/v1/orgs/"+org+"/openapi", map[string]any{"slug": slug, "source": map[string]any{"url": u}})
				}
				for i, h := range oddHosts {
					u := "http://" + h + ":8080/openapi.yaml"
					r := post("odd-"+string(rune('a'+i)), u)
					msg, _ := testenv.Path(r.JSON(), "error", "message").(string)
					if r.Status != 400 || !strings.HasPrefix(msg, "source.url names the host") || !strings.Contains(msg, "a.b.c.d") {
						t.Errorf("REST %s: %d %s", u, r.Status, r.Body)
					}
					g := e.GraphQL(team.Admin.Token, create, map[string]any{"in": map[string]any{"organization": org, "slug": "odd-g", "source": map[string]any{"url": u}}})
					if g.Code() != "BAD_REQUEST" || g.Errors[0].Extensions["field"] != "source.url" {
						t.Errorf("GraphQL %s: %s", u, g.Raw)
					}
				}
				r := post("plain", "http://127.0.0.1:8080/openapi.yaml")
				switch {
				case private && r.Status != 201:
					t.Errorf("127.0.0.1 with private fetching: %d %s", r.Status, r.Body)
				case !private && (r.Status != 400 || !strings.Contains(string(r.Body), "--openapi-fetch-private")):
					t.Errorf("127.0.0.1 without private fetching: %d %s", r.Status, r.Body)
				}
			})
		}
	}
}
