package graph_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"quire/ent"
	"quire/ent/member"
	"quire/internal/auth"
	"quire/internal/content"
	"quire/internal/db"
	"quire/internal/events"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

const spaceEventsDoc = `subscription($space: ID!, $kinds: [EventKind!]) { spaceEvents(space: $space, kinds: $kinds) {
	kind at objectId space { id title } changeRequest { id number status } revision { id type } actor { id } } }`

// event waits for a subscription's next event and returns it; the test
// fails on anything else.
func event(t *testing.T, ws *testenv.WS, id string) map[string]any {
	t.Helper()
	m := ws.Next(id)
	if m.Type != "next" || len(m.Errors()) > 0 {
		t.Fatalf("subscription %s: %s %s", id, m.Type, m.Payload)
	}
	for _, v := range m.Data() {
		return v.(map[string]any)
	}
	t.Fatalf("subscription %s: no data in %s", id, m.Payload)
	return nil
}

func patchStatus(t *testing.T, e *testenv.Env, token, space, cr, status string) {
	t.Helper()
	if r := e.Do(token, "PATCH", "/v1/spaces/"+space+"/change-requests/"+cr, map[string]any{"status": status}); r.Status != 200 {
		t.Fatalf("status %s: %d %s", status, r.Status, r.Body)
	}
}

// A space's subscribers see its change requests come, change status and
// merge, and its new revisions, as they happen.
func TestSubscriptionSpaceEvents(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := restSpace(t, e, team.Admin.Token, team.Org.ID, "Live", nil)
		ws := e.OpenWS(team.Reader.Token)
		all := ws.Subscribe(spaceEventsDoc, map[string]any{"space": space})
		merges := ws.Subscribe(spaceEventsDoc, map[string]any{"space": space, "kinds": []string{"change_request_merged"}})
		e.WaitSubscribers(2)

		cr := newCR(t, e, team.Editor.Token, space)
		ev := event(t, ws, all)
		if ev["kind"] != "change_request_created" || testenv.Path(ev, "changeRequest", "id") != cr ||
			testenv.Path(ev, "space", "id") != space || testenv.Path(ev, "actor", "id") != team.Editor.User.ID || ev["objectId"] != cr {
			t.Errorf("created: %v", ev)
		}
		patchStatus(t, e, team.Editor.Token, space, cr, "open")
		if ev := event(t, ws, all); ev["kind"] != "change_request_status" || testenv.Path(ev, "changeRequest", "status") != "open" {
			t.Errorf("status: %v", ev)
		}
		if r := e.Do(team.Admin.Token, "POST", "/v1/spaces/"+space+"/change-requests/"+cr+"/merge", nil); r.Status != 200 {
			t.Fatalf("merge: %d %s", r.Status, r.Body)
		}
		ev = event(t, ws, all)
		rev := testenv.Path(ev, "revision", "id")
		if ev["kind"] != "space_revision" || rev == nil || testenv.Path(ev, "revision", "type") != "merge" ||
			testenv.Path(ev, "changeRequest", "status") != "merged" {
			t.Errorf("revision: %v", ev)
		}
		if ev := event(t, ws, all); ev["kind"] != "change_request_merged" || testenv.Path(ev, "revision", "id") != rev {
			t.Errorf("merged: %v", ev)
		}
		if ev := event(t, ws, merges); ev["kind"] != "change_request_merged" || testenv.Path(ev, "revision", "id") != rev {
			t.Errorf("merges only: %v", ev)
		}
		// A direct edit of the space's content.
		md := "Fresh text.\n"
		if _, err := e.Server.Resolver().Content.EditSpace(jobs.NewContext(context.Background(), e.Client(), team.Admin.User),
			space, &content.CreatePage{Title: "Fresh", Markdown: &md}); err != nil {
			t.Fatal(err)
		}
		if ev := event(t, ws, all); ev["kind"] != "space_revision" || testenv.Path(ev, "revision", "type") != "edits" ||
			ev["changeRequest"] != nil {
			t.Errorf("edit: %v", ev)
		}
		if ws.Pending(merges) {
			t.Errorf("the merges-only subscription got more: %v", ws.Next(merges))
		}
		// Completed by the client: nothing more comes.
		ws.Complete(all)
		e.WaitSubscribers(1)
		patchStatus(t, e, team.Admin.Token, space, newCR(t, e, team.Admin.Token, space), "archived")
		other := ws.Subscribe(spaceEventsDoc, map[string]any{"space": space})
		e.WaitSubscribers(2)
		patchStatus(t, e, team.Admin.Token, space, newCR(t, e, team.Admin.Token, space), "open")
		if ev := event(t, ws, other); ev["kind"] != "change_request_created" {
			t.Errorf("a later subscription: %v", ev)
		}
		for ws.Pending(all) {
			if m := ws.Next(all); m.Type == "next" {
				t.Errorf("an event after complete: %s", m.Payload)
			}
		}
	})
}

func newCR(t *testing.T, e *testenv.Env, token, space string) string {
	t.Helper()
	r := e.Do(token, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": "Live"})
	if r.Status != 201 {
		t.Fatalf("change request: %d %s", r.Status, r.Body)
	}
	return r.JSON()["id"].(string)
}

// Subscriptions are authorized when they start and again for each event:
// a caller who may no longer see the space, or whose token was revoked,
// stops receiving and is told why.
func TestSubscriptionAuthorization(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := restSpace(t, e, team.Admin.Token, team.Org.ID, "Guarded", nil)
		cr := newCR(t, e, team.Editor.Token, space)

		// Who may not see the space cannot subscribe to it.
		ws := e.OpenWS(team.Outsider.Token)
		for _, doc := range []struct {
			q    string
			vars map[string]any
		}{
			{spaceEventsDoc, map[string]any{"space": space}},
			{`subscription($id: ID!) { changeRequestEvents(changeRequest: $id) { kind } }`, map[string]any{"id": cr}},
			{`subscription($id: ID!) { jobProgress(id: $id) { state } }`, map[string]any{"id": "Jnothing"}},
		} {
			id := ws.Subscribe(doc.q, doc.vars)
			if m := ws.Next(id); m.Code() != "NOT_FOUND" {
				t.Errorf("outsider: %s %s", m.Type, m.Payload)
			}
		}

		// A member removed while subscribed gets NOT_FOUND at the next event.
		reader := e.OpenWS(team.Reader.Token)
		sub := reader.Subscribe(spaceEventsDoc, map[string]any{"space": space})
		editor := e.OpenWS(team.Editor.Token)
		esub := editor.Subscribe(`subscription($id: ID!) { changeRequestEvents(changeRequest: $id) { kind changeRequest { status } } }`, map[string]any{"id": cr})
		e.WaitSubscribers(2)
		patchStatus(t, e, team.Editor.Token, space, cr, "open")
		if ev := event(t, reader, sub); ev["kind"] != "change_request_status" {
			t.Fatalf("before the removal: %v", ev)
		}
		if ev := event(t, editor, esub); ev["kind"] != "change_request_status" {
			t.Fatalf("change request events: %v", ev)
		}
		if _, err := e.Client().Member.Delete().Where(member.UserID(team.Reader.User.ID)).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		patchStatus(t, e, team.Editor.Token, space, cr, "draft")
		if m := reader.Next(sub); m.Type != "error" || m.Code() != "NOT_FOUND" {
			t.Errorf("after the removal: %s %s", m.Type, m.Payload)
		}
		if ev := event(t, editor, esub); testenv.Path(ev, "changeRequest", "status") != "draft" {
			t.Fatalf("change request events: %v", ev)
		}
		// The editor's token is revoked: the next event ends the subscription.
		if _, err := auth.RevokeSecret(context.Background(), e.Client(), team.Editor.Token); err != nil {
			t.Fatal(err)
		}
		patchStatus(t, e, team.Admin.Token, space, cr, "open")
		if m := editor.Next(esub); m.Type != "error" || m.Code() != "UNAUTHENTICATED" {
			t.Errorf("after the revocation: %s %s", m.Type, m.Payload)
		}
		// ...and it cannot start another on the same connection.
		if m := editor.Next(editor.Subscribe(spaceEventsDoc, map[string]any{"space": space})); m.Code() != "UNAUTHENTICATED" {
			t.Errorf("a subscription after the revocation: %s %s", m.Type, m.Payload)
		}
	})
}

// Connections are authenticated by the upgrade's Authorization header or
// by connection_init, and bounded.
func TestSubscriptionConnections(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := restSpace(t, e, team.Admin.Token, team.Org.ID, "Bounded", nil)
		for _, c := range []struct {
			payload any
			code    int
		}{
			{map[string]any{}, 4401},
			{map[string]any{"Authorization": "Bearer qt_nope"}, 4403},
		} {
			ws, _, err := e.DialWS(nil)
			if err != nil {
				t.Fatal(err)
			}
			if code, text := ws.Init(c.payload); code != c.code || text == "" {
				t.Errorf("init %v: closed %d %q", c.payload, code, text)
			}
		}
		// A bad token with the upgrade is refused before it.
		_, resp, err := e.DialWS(http.Header{"Authorization": {"Bearer qt_nope"}})
		if err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("bad header: %v %v", resp, err)
		}
		// A good token with the upgrade: connection_init needs none.
		ws, _, err := e.DialWS(http.Header{"Authorization": {"Bearer " + team.Reader.Token}})
		if err != nil {
			t.Fatal(err)
		}
		if code, text := ws.Init(nil); code != 0 {
			t.Fatalf("init after a header: %d %s", code, text)
		}
		// At most MaxSubscriptionsPerConnection subscriptions at once.
		var ids []string
		for i := 0; i < 20; i++ {
			ids = append(ids, ws.Subscribe(spaceEventsDoc, map[string]any{"space": space}))
		}
		e.WaitSubscribers(20)
		if m := ws.Next(ws.Subscribe(spaceEventsDoc, map[string]any{"space": space})); m.Code() != "RATE_LIMITED" {
			t.Errorf("21st subscription: %s %s", m.Type, m.Payload)
		}
		ws.Complete(ids[0])
		e.WaitSubscribers(19)
		// Once one ends, another may start.
		id := ws.Subscribe(spaceEventsDoc, map[string]any{"space": space})
		e.WaitSubscribers(20)
		newCR(t, e, team.Admin.Token, space)
		if m := ws.Next(id); m.Type != "next" {
			t.Errorf("after a complete: %s %s", m.Type, m.Payload)
		}
		// At most MaxConnectionsPerUser connections per user.
		var open []*testenv.WS
		for i := 0; i < 9; i++ {
			open = append(open, e.OpenWS(team.Reader.Token))
		}
		extra, _, err := e.DialWS(nil)
		if err != nil {
			t.Fatal(err)
		}
		if code, text := extra.Init(map[string]any{"Authorization": "Bearer " + team.Reader.Token}); code != 4429 {
			t.Errorf("11th connection: %d %s", code, text)
		}
		_, resp, err = e.DialWS(http.Header{"Authorization": {"Bearer " + team.Reader.Token}})
		if err == nil || resp == nil || resp.StatusCode != http.StatusTooManyRequests {
			t.Errorf("11th connection with a header: %v %v", resp, err)
		}
		open[0].Close()
		// The place is given back once the server has seen the close.
		for i := 0; ; i++ {
			w, _, err := e.DialWS(nil)
			if err != nil {
				t.Fatal(err)
			}
			code, _ := w.Init(map[string]any{"Authorization": "Bearer " + team.Reader.Token})
			if code == 0 {
				break
			}
			if i == 50 {
				t.Fatalf("no connection after one closed: %d", code)
			}
		}
		// Over HTTP, a subscription is refused.
		r := e.GraphQL(team.Reader.Token, spaceEventsDoc, map[string]any{"space": space})
		if r.Status != http.StatusBadRequest || r.Code() != "BAD_REQUEST" {
			t.Errorf("subscription over HTTP: %d %s", r.Status, r.Raw)
		}
	})
}

// Two processes share one PostgreSQL: what is written through one reaches
// the subscribers of the other.
func TestSubscriptionAcrossProcesses(t *testing.T) {
	e := testenv.New(t, "postgres")
	other := e.SeparateReplica(testenv.Options{})
	team := e.NewTeam()
	space := restSpace(t, e, team.Admin.Token, team.Org.ID, "Shared", nil)
	here, there := e.OpenWS(team.Reader.Token), other.OpenWS(team.Reader.Token)
	subHere := here.Subscribe(spaceEventsDoc, map[string]any{"space": space})
	subThere := there.Subscribe(spaceEventsDoc, map[string]any{"space": space})
	e.WaitSubscribers(1)
	other.WaitSubscribers(1)

	cr := newCR(t, e, team.Editor.Token, space)
	for _, c := range []struct {
		ws  *testenv.WS
		sub string
	}{{there, subThere}, {here, subHere}} {
		if ev := event(t, c.ws, c.sub); ev["kind"] != "change_request_created" || testenv.Path(ev, "changeRequest", "id") != cr {
			t.Errorf("created through the first process: %v", ev)
		}
	}
	// And the other way round.
	patchStatus(t, other, team.Editor.Token, space, cr, "open")
	for _, ws := range []*testenv.WS{here, there} {
		sub := subHere
		if ws == there {
			sub = subThere
		}
		if ev := event(t, ws, sub); ev["kind"] != "change_request_status" || testenv.Path(ev, "changeRequest", "status") != "open" {
			t.Errorf("changed through the second process: %v", ev)
		}
	}
}

// A subscriber too slow to read does not hold up writers: their writes
// succeed, and its subscription ends with SLOW_SUBSCRIBER once events
// waited past the bus's buffer; other subscribers go on.
func TestSubscriptionSlowSubscriber(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := restSpace(t, e, team.Admin.Token, team.Org.ID, "Busy", nil)
		cr := newCR(t, e, team.Editor.Token, space)
		slow, fine := e.OpenWS(team.Reader.Token), e.OpenWS(team.Editor.Token)
		slowSub := slow.Subscribe(spaceEventsDoc, map[string]any{"space": space})
		fineSub := fine.Subscribe(`subscription($space: ID!) { spaceEvents(space: $space, kinds: [change_request_status]) { kind } }`, map[string]any{"space": space})
		e.WaitSubscribers(2)
		slow.Pause()
		// Far more events than the slow one's buffer holds, as fast as the
		// bus takes them.
		bus := e.Server.Resolver().Events
		rev := restGet(t, e, team.Admin.Token, "/v1/spaces/"+space)["revision"].(string)
		for i := 0; i < 20*events.Buffer; i++ {
			err := bus.Publish(context.Background(), nil, events.Event{Kind: events.SpaceRevision, Organization: team.Org.ID, Space: space, Object: rev})
			if err != nil {
				t.Fatal(err)
			}
		}
		// Writes go on.
		for i, status := range []string{"open", "draft", "open"} {
			patchStatus(t, e, team.Editor.Token, space, cr, status)
			if ev := event(t, fine, fineSub); ev["kind"] != "change_request_status" {
				t.Fatalf("write %d: %v", i, ev)
			}
		}
		slow.Resume()
		for {
			m := slow.Next(slowSub)
			if m.Type == "next" && len(m.Errors()) == 0 {
				continue
			}
			if m.Type != "error" || m.Code() != "SLOW_SUBSCRIBER" || !strings.Contains(m.Errors()[0].Message, "subscribe again") {
				t.Errorf("the slow subscriber: %s %s", m.Type, m.Payload)
			}
			break
		}
	})
}

// jobProgress follows a job from its state when subscribed to its end.
func TestSubscriptionJobProgress(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		space := restSpace(t, e, team.Admin.Token, team.Org.ID, "Jobs", nil)
		proceed := make(chan struct{})
		runner := e.Server.Jobs()
		runner.Handle("test.steps", func(ctx context.Context, run jobs.Run) error {
			<-proceed
			if err := run.Progress(ctx, 0.5, "half way"); err != nil {
				return err
			}
			<-proceed
			return nil
		})
		var jobID string
		err := db.WithTx(context.Background(), e.Client(), func(tx *ent.Tx) error {
			var err error
			jobID, err = runner.Enqueue(context.Background(), tx, jobs.Request{Kind: "test.steps", Organization: team.Org.ID,
				Space: space, Subject: "space:" + space, CreatedBy: team.Admin.User.ID})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		ws := e.OpenWS(team.Reader.Token)
		sub := ws.Subscribe(`subscription($id: ID!) { jobProgress(id: $id) { id state progress step } }`, map[string]any{"id": jobID})
		if job := event(t, ws, sub); job["state"] != "pending" || job["id"] != jobID {
			t.Fatalf("first: %v", job)
		}
		e.WaitSubscribers(1)
		e.StartJobs()
		if job := event(t, ws, sub); job["state"] != "running" {
			t.Errorf("started: %v", job)
		}
		proceed <- struct{}{}
		if job := event(t, ws, sub); job["progress"] != 0.5 || job["step"] != "half way" {
			t.Errorf("progress: %v", job)
		}
		proceed <- struct{}{}
		for {
			m := ws.Next(sub)
			if m.Type != "next" {
				t.Fatalf("before the job finished: %s %s", m.Type, m.Payload)
			}
			job, _ := m.Data()["jobProgress"].(map[string]any)
			if job["state"] == "completed" {
				if job["progress"] != 1.0 {
					t.Errorf("finished: %v", job)
				}
				break
			}
		}
		if m := ws.Next(sub); m.Type != "complete" {
			t.Errorf("after the job finished: %s %s", m.Type, m.Payload)
		}
	})
}
