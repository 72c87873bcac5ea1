package resilience

import (
	"fmt"
	"os"
	"testing"
	"time"

	"quire/internal/testing/testenv"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// noLimits turns the rate limits off, for the tests whose loads would
// otherwise spend a budget (the test of the limits sets its own).
var noLimits = []string{"--rate-limit=0", "--rate-limit-content=0"}

// owner is the bootstrapped organization and its administrator.
type owner struct {
	org, user, token string
}

// bootstrap creates an organization, its administrator and a token with
// `quire admin bootstrap`, on a database a quire process has migrated.
func bootstrap(t *testing.T, databaseURL string) owner {
	t.Helper()
	v := Admin(t, databaseURL, "bootstrap", "--org", "Acme", "--email", "admin@acme.test")
	o := owner{org: fmt.Sprint(testenv.Path(v, "organization", "id")), user: fmt.Sprint(testenv.Path(v, "user", "id")), token: fmt.Sprint(v["token"])}
	if o.token == "" || o.org == "" {
		t.Fatalf("bootstrap printed %v", v)
	}
	return o
}

// expect fails the test unless the request got an answer with the status,
// and returns its JSON.
func expect(t testing.TB, r *Response, err error, status int) map[string]any {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != status {
		t.Fatalf("%s answered %d, want %d: %s", r.URL, r.Status, status, r.Body)
	}
	return r.JSON()
}

// gql fails the test unless the operation got data without errors.
func gql(t testing.TB, c *Client, query string, vars map[string]any) map[string]any {
	t.Helper()
	g, err := c.GraphQL(query, vars)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != 200 || len(g.Errors) > 0 {
		t.Fatalf("%s answered %d: %s", g.URL, g.Status, g.Body)
	}
	return g.Data
}

const (
	createPageDoc  = `mutation($in: CreatePageInput!) { createPage(input: $in) { page { id title } } }`
	updatePageDoc  = `mutation($in: UpdatePageInput!) { updatePage(input: $in) { page { id title } } }`
	spaceEventsDoc = `subscription($space: ID!) { spaceEvents(space: $space) {
		kind objectId changeRequest { id status } } }`
)

// pageTitles returns the titles of the pages of a space's or a change
// request's content (the root level, where these tests create pages), by
// page id.
func pageTitles(t testing.TB, c *Client, contentPath string) map[string]string {
	t.Helper()
	r, err := c.Send("GET", contentPath+"/content/pages", nil)
	v := expect(t, r, err, 200)
	out := map[string]string{}
	pages, _ := v["pages"].([]any)
	for _, p := range pages {
		m, _ := p.(map[string]any)
		out[fmt.Sprint(m["id"])] = fmt.Sprint(m["title"])
	}
	return out
}

// poll calls ok until it reports true, for at most d; it fails the test
// with what when it never does. It waits on what it polls, not on time.
func poll(t testing.TB, d time.Duration, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, d)
		}
	}
}

// wsOn is a WebSocket client of the process at url, authenticated with
// token (testenv's graphql-transport-ws client).
func wsOn(t *testing.T, url, token string) *testenv.WS {
	t.Helper()
	return (&testenv.Env{T: t, URL: url}).OpenWS(token)
}

// awaitEvent makes writes with write until the subscription has an event
// (a subscription starts a moment after it is sent, and nothing says when),
// then returns the first event whose objectId or change request is want(id)
// for one of the writes' ids.
func awaitEvent(t *testing.T, ws *testenv.WS, sub string, write func() string) map[string]any {
	t.Helper()
	written := map[string]bool{}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		written[write()] = true
		for end := time.Now().Add(time.Second); time.Now().Before(end) && !ws.Pending(sub); time.Sleep(10 * time.Millisecond) {
		}
		for ws.Pending(sub) {
			m := ws.Next(sub)
			if m.Type != "next" || len(m.Errors()) > 0 {
				t.Fatalf("subscription: %s %s", m.Type, m.Payload)
			}
			ev, _ := m.Data()["spaceEvents"].(map[string]any)
			if written[fmt.Sprint(testenv.Path(ev, "changeRequest", "id"))] || written[fmt.Sprint(ev["objectId"])] {
				return ev
			}
		}
	}
	t.Fatalf("no event of %d writes within 30 s", len(written))
	return nil
}
