package matrix_test

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"quire/ent"
	"quire/internal/db"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

// subRules is the subscriptions' part of the GraphQL matrix: a row per
// Subscription field, keyed "Subscription.field", asked over a WebSocket
// (graphql-transport-ws) as every caller. ids["jobId"] is a job on A's
// space, made by testSubscriptions.
var subRules = map[string]rule{
	"Subscription.spaceEvents":         readers.with(args("space", "spaceId")),
	"Subscription.changeRequestEvents": readers.with(args("changeRequest", "changeRequestId")),
	"Subscription.jobProgress":         readers.with(args("id", "jobId")),
}

// subSelections is what a subscription selects of each type a
// subscription field returns.
var subSelections = map[string]string{
	"Event": "{ kind objectId space { id title } changeRequest { id subject status } }",
	"Job":   "{ id kind state }",
}

// matrixJobKind is the kind of the fixture's job, which no worker runs
// (the matrix's server works no jobs): it stays pending.
const matrixJobKind = "matrix.pending"

// subCase is one caller's subscription to one field.
type subCase struct {
	key     string
	field   string
	who     *caller
	ws      *testenv.WS
	id      string
	request string
	want    int
}

// testSubscriptions subscribes to every Subscription field as every
// caller: callers with no valid token cannot open a connection (4401
// without a token, 4403 with an unknown or revoked one); those who may not
// see what the field names get NOT_FOUND when subscribing, like an unknown
// id; the others get the job's state at once and, once a change request's
// status changes, that event. It runs last: the event changes the fixture.
func (w *world) testSubscriptions(t *testing.T) {
	s := w.readSchema(t)
	root := s.types["Subscription"]
	if root == nil {
		t.Fatal("the schema has no Subscription type")
	}
	ids := maps.Clone(w.a.ids)
	ids["jobId"] = w.pendingJob(t)

	seen := map[string]bool{}
	var fields []gqlField
	for _, f := range root.Fields {
		key := "Subscription." + f.Name
		seen[key] = true
		if _, ok := subRules[key]; !ok {
			t.Errorf("%s has no row in the authorization matrix (subRules)", key)
			continue
		}
		fields = append(fields, f)
	}
	for _, key := range slices.Sorted(maps.Keys(subRules)) {
		if !seen[key] {
			t.Errorf("the matrix has a row for %s, which is no field", key)
		}
	}

	var cases []*subCase
	events := 0
	for _, who := range w.callers {
		if who.level == anonymous {
			w.refusedConnection(t, who)
			continue
		}
		ws := w.e.OpenWS(who.token)
		for _, f := range fields {
			key := "Subscription." + f.Name
			r := subRules[key]
			c := &subCase{key: key, field: f.Name, who: who, ws: ws, want: r.expect(who, false)}
			c.request = subDocument(t, f, r.input(ids).(map[string]any))
			c.id = ws.Subscribe(c.request, nil)
			w.asked++
			cases = append(cases, c)
			if c.want == http.StatusOK && f.Type.named() == "Event" {
				events++
			}
		}
	}

	// Refusals and first answers come at once.
	jobSubs := 0
	for _, c := range cases {
		switch {
		case c.want == http.StatusOK && c.field == "jobProgress":
			m := c.ws.Next(c.id)
			job, _ := m.Data()["jobProgress"].(map[string]any)
			if m.Type != "next" || len(m.Errors()) > 0 || job["id"] != ids["jobId"] || job["state"] != "pending" {
				t.Errorf("%s as %s: want the job's state, got %s %s", c.key, c.who.name, m.Type, m.Payload)
			}
			w.checkLeaks(t, c, m)
			jobSubs++
		case c.want == http.StatusOK:
		default:
			m := c.ws.Next(c.id)
			if code := m.Code(); code != statusCode(c.want) {
				t.Errorf("%s as %s: want %s, got %s %s", c.key, c.who.name, statusCode(c.want), m.Type, m.Payload)
			}
			w.checkLeaks(t, c, m)
			// The refusal ends the subscription: an error message, or a
			// response with the error followed by complete.
			if m.Type == "next" {
				if end := c.ws.Next(c.id); end.Type != "complete" {
					t.Errorf("%s as %s: after the refusal, %s %s", c.key, c.who.name, end.Type, end.Payload)
				}
			}
		}
	}

	// An event reaches every allowed subscription of A's space and change
	// request, and no other.
	w.e.WaitSubscribers(events + jobSubs)
	path := "/v1/spaces/" + ids["spaceId"] + "/change-requests/" + ids["changeRequestId"]
	w.do(w.a.admin.Token, "PATCH", path, map[string]any{"status": "draft"}, 200)
	for _, c := range cases {
		if c.want != http.StatusOK || c.field == "jobProgress" {
			continue
		}
		m := c.ws.Next(c.id)
		var ev map[string]any
		for _, v := range m.Data() {
			ev, _ = v.(map[string]any)
		}
		if m.Type != "next" || len(m.Errors()) > 0 || ev["kind"] != "change_request_status" || ev["objectId"] != ids["changeRequestId"] {
			t.Errorf("%s as %s: want the change request's new status, got %s %s", c.key, c.who.name, m.Type, m.Payload)
		}
		w.checkLeaks(t, c, m)
	}
	for _, c := range cases {
		if c.ws.Pending(c.id) {
			t.Errorf("%s as %s: a message more: %s", c.key, c.who.name, c.ws.Next(c.id).Payload)
		}
	}
	w.do(w.a.admin.Token, "PATCH", path, map[string]any{"status": "open"}, 200)
}

// refusedConnection checks that a caller without a valid token cannot
// open a subscription connection.
func (w *world) refusedConnection(t *testing.T, who *caller) {
	ws, _, err := w.e.DialWS(nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	payload, want := map[string]any{}, 4401
	if who.token != "" {
		payload["Authorization"], want = "Bearer "+who.token, 4403
	}
	w.asked++
	if code, text := ws.Init(payload); code != want {
		t.Errorf("connection_init as %s: want close %d, got %d %s", who.name, want, code, text)
	}
}

func (w *world) checkLeaks(t *testing.T, c *subCase, m testenv.WSMessage) {
	if leaks := c.who.leaks(m.Payload, c.request); len(leaks) > 0 {
		t.Errorf("%s as %s shows ids it may not see: %v", c.key, c.who.name, leaks)
	}
}

// subDocument writes a subscription to field with its arguments inline.
func subDocument(t *testing.T, f gqlField, vars map[string]any) string {
	sel, ok := subSelections[f.Type.named()]
	if !ok {
		t.Fatalf("Subscription.%s returns %s: add its selection to subSelections", f.Name, f.Type.named())
	}
	var list []string
	for _, a := range f.Args {
		if v, ok := vars[a.Name]; ok {
			list = append(list, fmt.Sprintf("%s: %q", a.Name, v))
		}
	}
	return fmt.Sprintf("subscription { %s(%s) %s }", f.Name, strings.Join(list, ", "), sel)
}

// statusCode is the GraphQL code of a refusal's REST status.
func statusCode(status int) string {
	switch status {
	case http.StatusForbidden:
		return "FORBIDDEN"
	case http.StatusNotFound:
		return "NOT_FOUND"
	case http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	}
	return fmt.Sprint(status)
}

// pendingJob enqueues a job on A's space, which stays pending.
func (w *world) pendingJob(t *testing.T) string {
	runner := w.e.Server.Jobs()
	var id string
	err := db.WithTx(context.Background(), w.e.Client(), func(tx *ent.Tx) error {
		var err error
		id, err = runner.Enqueue(context.Background(), tx, jobs.Request{Kind: matrixJobKind, Organization: w.a.org.ID,
			Space: w.a.ids["spaceId"], Subject: "space:" + w.a.ids["spaceId"], CreatedBy: w.a.admin.User.ID})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}
