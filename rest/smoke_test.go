package rest_test

import (
	"testing"

	"quire/internal/testing/testenv"
)

func TestCreateAndReadSpace(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		r := e.Do(team.Admin.Token, "POST", "/v1/orgs/"+team.Org.ID+"/spaces", map[string]any{"title": "Guide"})
		if r.Status != 201 {
			t.Fatalf("create space: %d %s", r.Status, r.Body)
		}
		id := r.JSON()["id"].(string)
		if loc := r.Header.Get("Location"); loc != e.URL+"/v1/spaces/"+id {
			t.Errorf("Location = %q", loc)
		}
		got := e.Do(team.Reader.Token, "GET", "/v1/spaces/"+id, nil)
		if got.Status != 200 || got.JSON()["title"] != "Guide" {
			t.Fatalf("reader get: %d %s", got.Status, got.Body)
		}
		if p := testenv.Path(got.JSON(), "permissions", "edit"); p != false {
			t.Errorf("reader permissions.edit = %v", p)
		}
		if r := e.Do(team.Outsider.Token, "GET", "/v1/spaces/"+id, nil); r.Status != 404 {
			t.Errorf("outsider get: %d %s", r.Status, r.Body)
		}
		if r := e.Do("", "GET", "/v1/spaces/"+id, nil); r.Status != 401 {
			t.Errorf("anonymous get: %d", r.Status)
		}
	})
}
