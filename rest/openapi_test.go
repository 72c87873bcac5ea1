package rest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

func TestOpenAPIDocument(t *testing.T) {
	e := testenv.New(t, "sqlite")
	raw, v, err := testenv.Spec(e.Server)
	if err != nil {
		t.Fatalf("spec: %v", err)
	}
	if ok, errs := v.ValidateDocument(); !ok {
		for _, ve := range errs {
			t.Errorf("document invalid: %s: %s", ve.Message, ve.Reason)
		}
	}

	// The document is served, without a token, and names this server.
	r := e.Do("", "GET", "/v1/openapi.json", nil)
	if r.Status != 200 {
		t.Fatalf("GET /v1/openapi.json: %d %s", r.Status, r.Body)
	}
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Servers []struct{ URL string }                `json:"servers"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	r.Decode(t, &doc)
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q", doc.OpenAPI)
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != e.URL+"/v1" {
		t.Errorf("servers = %+v", doc.Servers)
	}

	// Every route is documented, and every documented operation is served.
	routes := e.Server.API().Routes()
	documented := 0
	for path, ops := range doc.Paths {
		for method := range ops {
			documented++
			found := false
			for _, rt := range routes {
				if rt.Pattern == path && strings.EqualFold(rt.Method, method) {
					found = true
				}
			}
			if !found {
				t.Errorf("%s %s is documented but not in the route table", method, path)
			}
			// Serve it with placeholder ids: any answer but "no route" / "wrong method" shows it is served.
			url := "/v1" + strings.NewReplacer("{", "x", "}", "").Replace(path)
			team := e.NewTeamOnce()
			resp := e.DoUnchecked(team.Admin.Token, strings.ToUpper(method), url, nil)
			if resp.Status == 405 || (resp.Status == 404 && strings.Contains(string(resp.Body), "No route matches")) {
				t.Errorf("%s %s is documented but not served: %d %s", method, path, resp.Status, resp.Body)
			}
		}
	}
	if documented != len(routes) {
		t.Errorf("%d operations documented, %d routes", documented, len(routes))
	}
	for _, rt := range routes {
		if _, ok := doc.Paths[rt.Pattern][strings.ToLower(rt.Method)]; !ok {
			t.Errorf("route %s %s is not documented", rt.Method, rt.Pattern)
		}
	}
	if !strings.Contains(string(raw), `"Space"`) || !strings.Contains(string(raw), `"PublishedContentSite"`) {
		t.Errorf("presenter types missing from components")
	}
}
