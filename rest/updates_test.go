package rest_test

import (
	"testing"

	"quire/internal/testing/testenv"
)

// An update that names no field the route takes (only read-only fields
// sent back from a read) leaves the object as it was, updatedAt included.
func TestUpdateWithoutFieldsChangesNothing(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := newSpace(t, e, team, "Guide")
		cr := newCR(t, e, team.Editor.Token, space, map[string]any{"subject": "Draft"})["id"].(string)
		readOnly := map[string]any{"id": "S0000000000000000000", "object": "x", "createdAt": "2001-02-03T04:05:06Z",
			"updatedAt": "2001-02-03T04:05:06Z", "organization": team.Other.ID, "revision": "R0000000000000000000", "number": 99}
		for _, path := range []string{"/v1/spaces/" + space, "/v1/spaces/" + space + "/change-requests/" + cr} {
			before := e.Do(team.Admin.Token, "GET", path, nil)
			r := e.Do(team.Admin.Token, "PATCH", path, readOnly)
			after := e.Do(team.Admin.Token, "GET", path, nil)
			if r.Status != 200 || string(r.Body) != string(before.Body) || string(after.Body) != string(before.Body) {
				t.Errorf("PATCH %s with read-only fields: %d\n  got %s\n then %s\n want %s", path, r.Status, r.Body, after.Body, before.Body)
			}
		}
	})
}
