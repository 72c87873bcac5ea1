package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// Hostile bodies are refused with the documented 400 (or 413) before they
// reach a resolver, and change nothing.
func TestHostileBodies(t *testing.T) {
	e := testenv.New(t, "sqlite")
	team := e.NewTeam()
	admin, org := team.Admin.Token, team.Org.ID
	col := ctCol(t, e, admin, org, "Kept", "")
	nest := func(depth int) string {
		return `{"title":"Renamed","extra":` + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + `}`
	}
	spaces := make([]string, 1001)
	for i := range spaces {
		spaces[i] = fmt.Sprintf("space%d", i)
	}
	for _, c := range []struct {
		name, method, path string
		body               any
		status             int
		says               string
	}{
		{"nested deeper than 100 levels, under a key no one reads", "PATCH", "/v1/collections/" + col, nest(101), 400, "deeper than 100"},
		{"more items than documented", "POST", "/v1/orgs/" + org + "/sites", map[string]any{"title": "Too many", "spaces": spaces}, 400, "spaces: must have at most 1000 items"},
		{"one item of the wrong type", "POST", "/v1/orgs/" + org + "/sites", map[string]any{"title": "Bad", "spaces": []any{"a", 2}}, 400, "spaces[1] must be a string"},
		{"a body over 1 MiB", "PATCH", "/v1/collections/" + col, `{"title":"` + strings.Repeat("x", 1<<20) + `"}`, 413, "larger than"},
	} {
		r := e.Do(admin, c.method, c.path, c.body)
		if r.Status != c.status || !strings.Contains(testenv.Path(r.JSON(), "error", "message").(string), c.says) ||
			testenv.Path(r.JSON(), "error", "code") != float64(c.status) {
			t.Errorf("%s: %d %.300s, want %d saying %q", c.name, r.Status, r.Body, c.status, c.says)
		}
	}
	if got := ctGet(t, e, admin, "/v1/collections/"+col)["title"]; got != "Kept" {
		t.Errorf("refused patches renamed the collection: %v", got)
	}
	if got := ctGet(t, e, admin, "/v1/orgs/"+org+"/sites"); got["count"] != float64(0) {
		t.Errorf("refused creations made sites: %v", got)
	}
	// 100 levels are fine.
	ctWant(t, e.Do(admin, "PATCH", "/v1/collections/"+col, nest(100)), http.StatusOK, "100 levels")
}

// Routes match with or without a trailing slash, and every answer of the
// router is in the documented error shape.
func TestRoutingEdges(t *testing.T) {
	e := testenv.New(t, "sqlite")
	team := e.NewTeam()
	tok := team.Admin.Token
	for _, path := range []string{"/v1/orgs/", "/v1/orgs/" + team.Org.ID + "/spaces/"} {
		ctWant(t, e.Do(tok, "GET", path, nil), http.StatusOK, "GET "+path)
	}
	r := e.Do(tok, "HEAD", "/v1/orgs", nil)
	if r.Status != http.StatusMethodNotAllowed || r.Header.Get("Allow") != "GET" {
		t.Errorf("HEAD /v1/orgs: %d, Allow %q", r.Status, r.Header.Get("Allow"))
	}
	r = e.Do(tok, "PUT", "/v1/spaces/x", nil)
	ctErr(t, r, http.StatusMethodNotAllowed, "PUT", "PUT a space")
	if got := r.Header.Get("Allow"); got != "GET, PATCH, DELETE" {
		t.Errorf("PUT a space: Allow %q", got)
	}
	ctErr(t, e.Do(tok, "GET", "/v1/spaces/x/nope/", nil), http.StatusNotFound, "/v1/spaces/x/nope/", "unknown route with a slash")
	ctErr(t, e.Do(tok, "GET", "/v1/", nil), http.StatusNotFound, "", "the root")
	// Metrics name requests by the route they matched, and a wrong method
	// by none.
	metrics := string(e.Do("", "GET", "/metrics", nil).Body)
	for _, want := range []string{
		`route="/v1/orgs/{organizationId}/spaces",status="200"`,
		`route="/v1/unmatched",status="405"`,
		`route="/v1/unmatched",status="404"`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics has no series with %s", want)
		}
	}
	// The description needs no token.
	if r := e.Do("", "GET", "/v1/openapi.json", nil); r.Status != http.StatusOK || r.JSON()["openapi"] != "3.1.0" {
		t.Errorf("GET /v1/openapi.json without a token: %d", r.Status)
	}
}
