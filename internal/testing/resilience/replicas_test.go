package resilience

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/internal/testing/testdb"
	"quire/internal/testing/testenv"
)

// replicas starts n quire processes over one new PostgreSQL database.
func replicas(t *testing.T, databaseURL string, n int, flags ...string) (*Client, []*Proc) {
	t.Helper()
	var procs []*Proc
	var urls []string
	for range n {
		p := Serve(t, databaseURL, flags...)
		procs, urls = append(procs, p), append(urls, p.URL)
	}
	return NewClient("", urls...), procs
}

// Two processes on one PostgreSQL, each request to the next one: jobs run
// once, writes acknowledged by one are read back by the other at once
// (a token revoked is refused by both), and events of a write through one
// reach subscribers of the other.
func TestReplicas(t *testing.T) {
	url := testdb.NewDatabase(t)
	c, _ := replicas(t, url, 2, append([]string{"--job-workers", "2", "--openapi-fetch-private"}, noLimits...)...)
	o := bootstrap(t, url)
	c = c.WithToken(o.token)

	t.Run("jobs run once", func(t *testing.T) { jobsRunOnce(t, c, url, o) })
	t.Run("reads after writes", func(t *testing.T) { readsAfterWrites(t, c, url, o) })
	t.Run("subscriptions cross", func(t *testing.T) { subscriptionsCross(t, c, o) })
}

// The OpenAPI specifications' jobs, asked for through both processes,
// each run once: one fetch per specification, one completed attempt.
func jobsRunOnce(t *testing.T, c *Client, url string, o owner) {
	var mu sync.Mutex
	hits := map[string]int{}
	src := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		w.Write([]byte("openapi: 3.0.3\ninfo: {title: Once, version: \"1\"}\npaths: {}\n"))
	}))
	defer src.Close()

	const n = 6
	for i := range n {
		r, err := c.Send("POST", "/v1/orgs/"+o.org+"/openapi", map[string]any{
			"slug": fmt.Sprintf("once-%d", i), "source": map[string]any{"url": fmt.Sprintf("%s/spec-%d.yaml", src.URL, i)}})
		expect(t, r, err, 201)
	}
	const specDoc = `query($o: ID!, $s: String!) { openAPISpec(organization: $o, slug: $s) {
		processingState job { id state attempt } } }`
	for i := range n {
		slug := fmt.Sprintf("once-%d", i)
		var last map[string]any
		poll(t, 60*time.Second, slug+" processed", func() bool {
			last, _ = gql(t, c, specDoc, map[string]any{"o": o.org, "s": slug})["openAPISpec"].(map[string]any)
			return last["processingState"] == "complete" && testenv.Path(last, "job", "state") == "completed"
		})
		if a := testenv.Path(last, "job", "attempt"); a != 1.0 {
			t.Errorf("%s: completed after %v attempts", slug, a)
		}
	}
	mu.Lock()
	for i := range n {
		if h := hits[fmt.Sprintf("/spec-%d.yaml", i)]; h != 1 {
			t.Errorf("specification %d fetched %d times", i, h)
		}
	}
	mu.Unlock()
	// The operators' view agrees: n jobs, each completed once.
	var list []struct{ Kind, State string }
	AdminInto(t, url, &list, "jobs", "list", "--org", o.org, "--json")
	done := 0
	for _, j := range list {
		if j.Kind == "openapi.process" && j.State == "completed" {
			done++
		}
	}
	if done != n || len(list) != n {
		t.Errorf("quire admin jobs list: %d completed openapi.process jobs of %d, want %d: %v", done, len(list), n, list)
	}
}

// Each write is acknowledged by one process and read back through the
// other with the next request.
func readsAfterWrites(t *testing.T, c *Client, url string, o owner) {
	for i := range 2 {
		w, r := c.At(i), c.At(1-i)
		// A space.
		res, err := w.Send("POST", "/v1/orgs/"+o.org+"/spaces", map[string]any{"title": fmt.Sprintf("Space %d", i)})
		space := expect(t, res, err, 201)["id"].(string)
		res, err = r.Send("GET", "/v1/spaces/"+space, nil)
		if got := expect(t, res, err, 200)["title"]; got != fmt.Sprintf("Space %d", i) {
			t.Errorf("space read through the other process: title %v", got)
		}
		// A change request, a page in it, an edit of the page, its merge.
		res, err = w.Send("POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": "Edit"})
		cr := expect(t, res, err, 201)["id"].(string)
		crPath := "/v1/spaces/" + space + "/change-requests/" + cr
		res, err = r.Send("GET", crPath, nil)
		expect(t, res, err, 200)
		page := testenv.Path(gql(t, r, createPageDoc, map[string]any{"in": map[string]any{"changeRequest": cr, "title": "Draft"}}), "createPage", "page", "id").(string)
		if got := pageTitles(t, w, crPath)[page]; got != "Draft" {
			t.Errorf("page created through one process, read through the other: %q", got)
		}
		gql(t, w, updatePageDoc, map[string]any{"in": map[string]any{"changeRequest": cr, "page": page, "title": "Final"}})
		if got := pageTitles(t, r, crPath)[page]; got != "Final" {
			t.Errorf("page edited through one process, read through the other: %q", got)
		}
		res, err = r.Send("POST", crPath+"/merge", nil)
		expect(t, res, err, 200)
		if got := pageTitles(t, w, "/v1/spaces/"+space)[page]; got != "Final" {
			t.Errorf("merged through one process, the space read through the other has page %q", got)
		}
		res, err = w.Send("GET", crPath, nil)
		if st := expect(t, res, err, 200)["status"]; st != "merged" {
			t.Errorf("merged through one process, the other says %v", st)
		}
	}

	// A token, used on both processes (so that each has seen it), revoked
	// by `quire admin token revoke`, is refused by both at once.
	tok := Admin(t, url, "token", "create", "--user", o.user)
	u := c.WithToken(fmt.Sprint(tok["token"]))
	for i := range 2 {
		res, err := u.At(i).Send("GET", "/v1/user", nil)
		expect(t, res, err, 200)
	}
	Admin(t, url, "token", "revoke", "--token-id", fmt.Sprint(tok["tokenId"]))
	for i := range 2 {
		// The revocation reaches each process as PostgreSQL's notification
		// of the command's commit, which may arrive a moment after the
		// command has exited: ask until it is refused (for at most 5 s),
		// then on both doors.
		res, err := u.At(i).Send("GET", "/v1/user", nil)
		for deadline := time.Now().Add(5 * time.Second); err == nil && res.Status == 200 && time.Now().Before(deadline); {
			res, err = u.At(i).Send("GET", "/v1/user", nil)
		}
		if v := expect(t, res, err, 401); testenv.Path(v, "error", "code") != 401.0 {
			t.Errorf("revoked token: %s", res.Body)
		}
		g, err := u.At(i).GraphQL(`{ viewer { id } }`, nil)
		if err != nil || g.Status != 401 && g.Code() != "UNAUTHENTICATED" {
			t.Errorf("revoked token on GraphQL: %v %s", err, g.Body)
		}
	}
}

// A subscription on one process receives the events of writes made
// through the other, both ways.
func subscriptionsCross(t *testing.T, c *Client, o owner) {
	res, err := c.Send("POST", "/v1/orgs/"+o.org+"/spaces", map[string]any{"title": "Live"})
	space := expect(t, res, err, 201)["id"].(string)
	for i := range 2 {
		ws := wsOn(t, c.URLs[i], o.token)
		sub := ws.Subscribe(spaceEventsDoc, map[string]any{"space": space})
		other := c.At(1 - i)
		n := 0
		write := func() string {
			n++
			res, err := other.Send("POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": fmt.Sprintf("Probe %d", n)})
			return expect(t, res, err, 201)["id"].(string)
		}
		awaitEvent(t, ws, sub, write)
		// Once the subscription runs, the event of the next write comes.
		cr := write()
		ev := awaitEvent(t, ws, sub, func() string { return cr })
		if ev["kind"] != "change_request_created" || testenv.Path(ev, "changeRequest", "id") != cr {
			t.Errorf("process %d's subscriber got %v for change request %s created through the other", i, ev, cr)
		}
		ws.Close()
	}
}

// The rate limit is one budget across processes: with a limit of 10, the
// 11th request overall is refused, whichever process gets it, and the
// headers count requests of both.
func TestReplicasShareRateLimits(t *testing.T) {
	const limit = 10
	url := testdb.NewDatabase(t)
	c, _ := replicas(t, url, 2, "--rate-limit", fmt.Sprint(limit))
	o := bootstrap(t, url)
	// Windows start on the hour: a sequence that crosses one starts again
	// (at most once) with a new user.
	for attempt := 1; ; attempt++ {
		v := Admin(t, url, "user", "create", "--email", fmt.Sprintf("u%d@acme.test", attempt), "--org", o.org, "--role", "read")
		if crossed := rateSequence(t, c.WithToken(fmt.Sprint(v["token"])), limit); !crossed || attempt == 2 {
			return
		}
	}
}

// rateSequence spends a fresh user's budget through the round-robin
// client; it reports true when the window changed on the way (nothing was
// checked then).
func rateSequence(t *testing.T, c *Client, limit int) (crossed bool) {
	reset := ""
	for i := 1; i <= limit+1; i++ {
		r, err := c.Send("GET", "/v1/user", nil)
		if err != nil {
			t.Fatal(err)
		}
		h := r.Header
		if reset == "" {
			reset = h.Get("X-RateLimit-Reset")
		} else if h.Get("X-RateLimit-Reset") != reset {
			return true
		}
		used, remaining := fmt.Sprint(min(i, limit)), fmt.Sprint(max(limit-i, 0))
		if h.Get("X-RateLimit-Limit") != fmt.Sprint(limit) || h.Get("X-RateLimit-Used") != used ||
			h.Get("X-RateLimit-Remaining") != remaining || h.Get("X-RateLimit-Resource") != "core" {
			t.Errorf("request %d (%s): limit %s used %s remaining %s resource %s, want %d %s %s core", i, r.URL,
				h.Get("X-RateLimit-Limit"), h.Get("X-RateLimit-Used"), h.Get("X-RateLimit-Remaining"), h.Get("X-RateLimit-Resource"), limit, used, remaining)
		}
		if i <= limit {
			expect(t, r, nil, 200)
			continue
		}
		v := expect(t, r, nil, 429)
		msg, _ := testenv.Path(v, "error", "message").(string)
		if testenv.Path(v, "error", "code") != 429.0 || !strings.Contains(msg, "rate limit exceeded") || h.Get("Retry-After") == "" {
			t.Errorf("refusal: %s, Retry-After %q", r.Body, h.Get("Retry-After"))
		}
	}
	// The other process refuses too, on GraphQL as well.
	g, err := c.GraphQL(`{ viewer { id } }`, nil)
	if err != nil || g.Status != 429 || g.Code() != "RATE_LIMITED" {
		t.Errorf("GraphQL over the budget: %v %s", err, g.Body)
	}
	return false
}
