package resilience

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"quire/internal/testing/testclient"
	"quire/internal/testing/testdb"
	"quire/internal/testing/testenv"
)

// Phases of the outage test, as the load sees them.
const (
	phaseUp       = iota // PostgreSQL serves
	phaseStopping        // fast shutdown under way
	phaseDown            // PostgreSQL stopped
	phaseStarting        // starting again on the same data directory and port
	phaseBack            // serving again
)

var phaseNames = []string{"up", "stopping", "down", "starting", "back"}

// outageDeadline is the processes' request deadline in this test; the
// client waits a little longer before it calls an answer a hang.
const outageDeadline = 2 * time.Second

// answer is one request of the load.
type answer struct {
	kind         string // read, write, graphql
	sent, landed int    // phases
	status       int
	body         string
	err          error
}

// PostgreSQL stops (fast shutdown) under a read and write load and starts
// again on the same data directory and port: meanwhile every answer is a
// 503 in the error shape of its door, on time, and /readyz says not ready;
// afterwards requests succeed and subscriptions get events again, without
// restarting quire.
func TestPostgresOutage(t *testing.T) {
	srv, err := testdb.Start()
	if err != nil {
		if os.Getenv(testdb.EnvRequire) == "1" {
			t.Fatal(err)
		}
		t.Skipf("PostgreSQL not available: %v", err)
	}
	t.Cleanup(srv.Close)
	url := srv.URL()
	flags := append([]string{"--request-timeout=" + outageDeadline.String()}, noLimits...)
	a, b := Serve(t, url, flags...), Serve(t, url, flags...)
	o := bootstrap(t, url)
	c := NewClient(o.token, a.URL, b.URL)
	c.Timeout = outageDeadline + 5*time.Second
	r, err := c.Send("POST", "/v1/orgs/"+o.org+"/spaces", map[string]any{"title": "Steady"})
	space := expect(t, r, err, 201)["id"].(string)

	var phase atomic.Int32
	var mu sync.Mutex
	var answers []answer
	count := func(ph int, ok func(answer) bool) (n int) {
		mu.Lock()
		defer mu.Unlock()
		for _, a := range answers {
			if a.sent == ph && a.landed == ph && ok(a) {
				n++
			}
		}
		return n
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	requests := map[string]func() (*Response, error){
		"read": func() (*Response, error) { return c.Send("GET", "/v1/spaces/"+space, nil) },
		"write": func() (*Response, error) {
			return c.Send("POST", "/v1/spaces/"+space+"/change-requests", map[string]any{})
		},
		"graphql": func() (*Response, error) {
			g, err := c.GraphQL(`query($id: ID!) { space(id: $id) { id title } }`, map[string]any{"id": space})
			if g == nil {
				return nil, err
			}
			return g.Response, nil
		},
	}
	for kind, send := range requests {
		wg.Go(func() {
			// Bounded: at most 2,000 requests each.
			for range 2000 {
				select {
				case <-stop:
					return
				default:
				}
				sent := int(phase.Load())
				r, err := send()
				a := answer{kind: kind, sent: sent, landed: int(phase.Load()), err: err}
				if r != nil {
					a.status, a.body = r.Status, string(r.Body)
				}
				mu.Lock()
				answers = append(answers, a)
				mu.Unlock()
			}
		})
	}
	defer func() {
		close(stop)
		wg.Wait()
	}()
	ok2xx := func(a answer) bool { return a.err == nil && a.status/100 == 2 }

	poll(t, 30*time.Second, "successes before the outage", func() bool { return count(phaseUp, ok2xx) >= 10 })
	phase.Store(phaseStopping)
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	phase.Store(phaseDown)
	poll(t, 30*time.Second, "answers during the outage", func() bool {
		return count(phaseDown, func(a answer) bool { return a.kind == "read" }) >= 5 &&
			count(phaseDown, func(a answer) bool { return a.kind == "write" }) >= 5 &&
			count(phaseDown, func(a answer) bool { return a.kind == "graphql" }) >= 5
	})
	for _, p := range []*Proc{a, b} {
		r, err := NewClient("", p.URL).Send("GET", "/readyz", nil)
		if err != nil || r.Status != 503 {
			t.Errorf("/readyz of %s while PostgreSQL is down: %v %v", p.URL, err, r)
		}
	}
	phase.Store(phaseStarting)
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	phase.Store(phaseBack)
	poll(t, 30*time.Second, "writes and reads after the restart", func() bool {
		return count(phaseBack, func(a answer) bool { return ok2xx(a) && a.kind == "write" }) >= 3 &&
			count(phaseBack, func(a answer) bool { return ok2xx(a) && a.kind == "read" }) >= 3 &&
			count(phaseBack, func(a answer) bool { return ok2xx(a) && a.kind == "graphql" }) >= 3
	})
	for _, p := range []*Proc{a, b} {
		pc := NewClient("", p.URL)
		poll(t, 30*time.Second, "/readyz of "+p.URL+" after the restart", func() bool {
			r, err := pc.Send("GET", "/readyz", nil)
			return err == nil && r.Status == 200
		})
	}
	close(stop)
	wg.Wait()
	stop = make(chan struct{}) // for the deferred close

	checkOutageAnswers(t, answers)

	// Both processes' LISTEN connections are back: a subscription opened
	// now on one gets the events of writes through the other.
	for i, p := range []*Proc{a, b} {
		ws := wsOn(t, p.URL, o.token)
		sub := ws.Subscribe(spaceEventsDoc, map[string]any{"space": space})
		other := c.At(1 - i)
		awaitEvent(t, ws, sub, func() string {
			r, err := other.Send("POST", "/v1/spaces/"+space+"/change-requests", map[string]any{})
			return expect(t, r, err, 201)["id"].(string)
		})
		ws.Close()
	}
}

// checkOutageAnswers checks the load's answers: every request got an
// answer in time; while PostgreSQL was down each was a 503 in the error
// shape of its door; around the stop and the start, a 2xx or such a 503;
// never a 500.
func checkOutageAnswers(t *testing.T, answers []answer) {
	t.Helper()
	seen, first := map[string]int{}, map[string]string{}
	for _, a := range answers {
		key := fmt.Sprintf("%s %s→%s %d", a.kind, phaseNames[a.sent], phaseNames[a.landed], a.status)
		if a.err != nil {
			key = fmt.Sprintf("%s %s→%s no answer", a.kind, phaseNames[a.sent], phaseNames[a.landed])
		}
		seen[key]++
		if seen[key] > 1 {
			continue // each kind of failure once
		}
		if a.status/100 != 2 {
			first[key] = strings.TrimSpace(a.body)
		}
		switch {
		case a.err != nil:
			what := "no answer"
			if errors.Is(a.err, os.ErrDeadlineExceeded) || strings.Contains(a.err.Error(), "deadline exceeded") {
				what = "no answer within the request deadline"
			}
			t.Errorf("%s sent %s: %s: %v", a.kind, phaseNames[a.sent], what, a.err)
		case a.sent == phaseDown && a.landed == phaseDown || a.status/100 != 2:
			if !unavailable(a) {
				t.Errorf("%s sent %s, answered %s: %d %s, want 503 UNAVAILABLE", a.kind, phaseNames[a.sent], phaseNames[a.landed], a.status, a.body)
			}
		}
	}
	var keys []string
	for k, n := range seen {
		keys = append(keys, fmt.Sprintf("%s: %d %s", k, n, first[k]))
	}
	sort.Strings(keys)
	t.Logf("answers by kind, phase sent → answered, status:\n%s", strings.Join(keys, "\n"))
}

// unavailable is a 503 in the error shape of the request's door.
func unavailable(a answer) bool {
	if a.status != 503 {
		return false
	}
	r := &testclient.Response{Body: []byte(a.body)}
	v := r.JSON()
	if a.kind == "graphql" {
		return testenv.Path(v, "errors", 0, "extensions", "code") == "UNAVAILABLE"
	}
	msg, _ := testenv.Path(v, "error", "message").(string)
	return testenv.Path(v, "error", "code") == 503.0 && msg != ""
}
