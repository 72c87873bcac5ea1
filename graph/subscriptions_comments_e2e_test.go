package graph_test

import (
	"testing"

	"quire/internal/testing/testenv"
)

// A space's subscribers hear of its discussion as it happens: comments
// posted, resolved and deleted, replies posted, on the space and on its
// change requests; nothing of a change rolled back.
func TestSubscriptionCommentEvents(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := restSpace(t, e, team.Admin.Token, team.Org.ID, "Talk", nil)
		cr := newCR(t, e, team.Editor.Token, space)
		ws := e.OpenWS(team.Reader.Token)
		kinds := []string{"comment_created", "comment_updated", "comment_deleted",
			"comment_reply_created", "comment_reply_updated", "comment_reply_deleted"}
		sub := ws.Subscribe(spaceEventsDoc, map[string]any{"space": space, "kinds": kinds})
		e.WaitSubscribers(1)

		post := func(path string, body map[string]any) string {
			t.Helper()
			r := e.Do(team.Editor.Token, "POST", path, body)
			if r.Status != 200 {
				t.Fatalf("POST %s: %d %s", path, r.Status, r.Body)
			}
			return r.JSON()["id"].(string)
		}
		comments := "/v1/spaces/" + space + "/comments"
		c := post(comments, map[string]any{"body": map[string]any{"markdown": "Is this right?"}})
		ev := event(t, ws, sub)
		if ev["kind"] != "comment_created" || ev["objectId"] != c || testenv.Path(ev, "actor", "id") != team.Editor.User.ID ||
			ev["changeRequest"] != nil {
			t.Errorf("posted: %v", ev)
		}
		reply := post(comments+"/"+c+"/replies", map[string]any{"body": map[string]any{"markdown": "Yes."}})
		if ev := event(t, ws, sub); ev["kind"] != "comment_reply_created" || ev["objectId"] != reply {
			t.Errorf("reply: %v", ev)
		}
		if r := e.Do(team.Editor.Token, "PUT", comments+"/"+c, map[string]any{"resolved": true}); r.Status != 200 {
			t.Fatalf("resolve: %d %s", r.Status, r.Body)
		}
		if ev := event(t, ws, sub); ev["kind"] != "comment_updated" || ev["objectId"] != c {
			t.Errorf("resolved: %v", ev)
		}
		// A refused change publishes nothing: the next event is the
		// change request's comment.
		if r := e.Do(team.Editor.Token, "POST", comments, map[string]any{"body": map[string]any{"markdown": "x"}, "page": "Pnope"}); r.Status != 400 {
			t.Fatalf("bad page: %d %s", r.Status, r.Body)
		}
		crc := post("/v1/spaces/"+space+"/change-requests/"+cr+"/comments", map[string]any{"body": map[string]any{"markdown": "On the draft."}})
		if ev := event(t, ws, sub); ev["kind"] != "comment_created" || ev["objectId"] != crc || testenv.Path(ev, "changeRequest", "id") != cr {
			t.Errorf("change request comment: %v", ev)
		}
		if r := e.Do(team.Admin.Token, "DELETE", comments+"/"+c, nil); r.Status != 205 {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		if ev := event(t, ws, sub); ev["kind"] != "comment_deleted" || ev["objectId"] != c {
			t.Errorf("deleted: %v", ev)
		}
	})
}
