package resilience

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"quire/internal/testing/testdb"
	"quire/internal/testing/testenv"
)

// Crash rounds and load, bounded: a round ends with the kill, which comes
// after a random number of acknowledged writes, or once every worker has
// done maxSteps.
const (
	crashRounds  = 3
	crashWorkers = 4
	maxSteps     = 40
)

// A change request of the load, as its client saw it.
type crashCR struct {
	space, id string
	page      string   // its page, once createPage was acknowledged
	title     string   // the page's title as last acknowledged
	tried     []string // titles sent since, not acknowledged (the kill came first)
	merged    bool     // the merge was acknowledged
}

// ledger is what the clients were told: every acknowledged write.
type ledger struct {
	mu     sync.Mutex
	spaces []string
	crs    []*crashCR
}

// SIGKILL under a write load, then a restart on the same database: every
// acknowledged write is there, and nothing half-written is visible.
func TestCrash(t *testing.T) {
	for _, backend := range testenv.Backends {
		t.Run(backend, func(t *testing.T) {
			url := "sqlite:" + filepath.Join(t.TempDir(), "quire.db")
			if backend == "postgres" {
				url = testdb.NewDatabase(t)
			}
			p := Serve(t, url, noLimits...)
			o := bootstrap(t, url)
			c := NewClient(o.token, p.URL)
			var spaces []string // one per worker, where it creates change requests
			for w := range crashWorkers {
				r, err := c.Send("POST", "/v1/orgs/"+o.org+"/spaces", map[string]any{"title": fmt.Sprintf("Worker %d", w)})
				spaces = append(spaces, expect(t, r, err, 201)["id"].(string))
			}
			led := &ledger{}
			for round := 1; round <= crashRounds && !t.Failed(); round++ {
				acks := load(t, c, o.org, spaces, led, p, 10+rand.IntN(40))
				p = Serve(t, url, noLimits...)
				c = NewClient(o.token, p.URL)
				t.Logf("round %d: killed after %d acknowledged writes", round, acks)
				led.verify(t, c, spaces)
			}
		})
	}
}

// load runs the workers against p until they have had killAfter writes
// acknowledged, kills p with SIGKILL, and returns once every worker has
// stopped; it returns the number of acknowledged writes.
func load(t *testing.T, c *Client, org string, spaces []string, led *ledger, p *Proc, killAfter int) int64 {
	var acked atomic.Int64
	var kill sync.Once
	ack := func() {
		if acked.Add(1) == int64(killAfter) {
			kill.Do(p.Kill)
		}
	}
	var wg sync.WaitGroup
	for w := range crashWorkers {
		wg.Go(func() { work(t, c, org, spaces[w], w, led, ack) })
	}
	wg.Wait()
	kill.Do(p.Kill) // the workers ran out of steps first
	return acked.Load()
}

// work is one worker: change requests with a page, an edit of the page,
// every other one merged, and now and then a new space. It stops at the
// first request without an answer (the process was killed).
func work(t *testing.T, c *Client, org, space string, w int, led *ledger, ack func()) {
	ok := func(r *Response, err error, status int) bool {
		if err != nil {
			return false
		}
		if r.Status != status {
			t.Errorf("worker %d: %s answered %d, want %d: %s", w, r.URL, r.Status, status, r.Body)
			return false
		}
		ack()
		return true
	}
	gqlOK := func(g *GraphQL, err error) bool {
		if err != nil {
			return false
		}
		if len(g.Errors) > 0 {
			t.Errorf("worker %d: %s", w, g.Body)
			return false
		}
		return ok(g.Response, err, 200)
	}
	for step := range maxSteps {
		tag := fmt.Sprintf("w%d-%d-%d", w, step, rand.Uint32())
		if step%3 == 2 {
			r, err := c.Send("POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": tag})
			if !ok(r, err, 201) {
				return
			}
			led.mu.Lock()
			led.spaces = append(led.spaces, r.JSON()["id"].(string))
			led.mu.Unlock()
		}
		r, err := c.Send("POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": tag})
		if !ok(r, err, 201) {
			return
		}
		cr := &crashCR{space: space, id: r.JSON()["id"].(string)}
		led.mu.Lock()
		led.crs = append(led.crs, cr)
		led.mu.Unlock()
		// The ledger's fields of cr are written by this worker only, and
		// read once every worker has stopped.
		cr.tried = []string{tag + " draft"}
		g, err := c.GraphQL(createPageDoc, map[string]any{"in": map[string]any{"changeRequest": cr.id, "title": tag + " draft"}})
		if !gqlOK(g, err) {
			return
		}
		cr.page, _ = testenv.Path(g.Data, "createPage", "page", "id").(string)
		cr.title, cr.tried = tag+" draft", []string{tag + " final"}
		g, err = c.GraphQL(updatePageDoc, map[string]any{"in": map[string]any{"changeRequest": cr.id, "page": cr.page, "title": tag + " final"}})
		if !gqlOK(g, err) {
			return
		}
		cr.title, cr.tried = tag+" final", nil
		if step%2 == 0 {
			r, err := c.Send("POST", "/v1/spaces/"+space+"/change-requests/"+cr.id+"/merge", nil)
			if !ok(r, err, 200) {
				return
			}
			cr.merged = true
		}
	}
}

// verify checks, after a restart, that every acknowledged write is there
// and that what is there is whole: each change request's content can be
// read and holds at most its one page, each merged change request's page
// is in its space, and the space holds nothing else.
func (led *ledger) verify(t *testing.T, c *Client, workerSpaces []string) {
	t.Helper()
	for _, s := range led.spaces {
		r, err := c.Send("GET", "/v1/spaces/"+s, nil)
		expect(t, r, err, 200)
	}
	spacePages := map[string]map[string]string{}
	for _, s := range workerSpaces {
		spacePages[s] = pageTitles(t, c, "/v1/spaces/"+s)
	}
	for _, cr := range led.crs {
		path := "/v1/spaces/" + cr.space + "/change-requests/" + cr.id
		r, err := c.Send("GET", path, nil)
		v := expect(t, r, err, 200)
		if cr.merged && v["status"] != "merged" {
			t.Errorf("change request %s: merge acknowledged, status %v", cr.id, v["status"])
		}
		if cr.page == "" {
			continue
		}
		if got := pageTitles(t, c, path)[cr.page]; got != cr.title && !slices.Contains(cr.tried, got) {
			t.Errorf("change request %s: page %q, acknowledged %q (then tried %q)", cr.id, got, cr.title, cr.tried)
		}
		if cr.merged && spacePages[cr.space][cr.page] != cr.title {
			t.Errorf("change request %s merged: the space has its page as %q, want %q", cr.id, spacePages[cr.space][cr.page], cr.title)
		}
	}
	// Everything in the worker spaces, acknowledged or not.
	for _, s := range workerSpaces {
		r, err := c.Send("GET", "/v1/spaces/"+s+"/change-requests?status=draft,open,archived,merged&limit=1000", nil)
		v := expect(t, r, err, 200)
		items, _ := v["items"].([]any)
		if v["count"] != float64(len(items)) {
			t.Errorf("space %s: count %v, %d items", s, v["count"], len(items))
		}
		// A change request's content is its space's when it was created
		// plus its own page, whose title starts with its subject.
		merged := map[string]bool{} // subjects of merged change requests
		for _, it := range items {
			m, _ := it.(map[string]any)
			id, subject := fmt.Sprint(m["id"]), fmt.Sprint(m["subject"])
			var own []string
			for page, title := range pageTitles(t, c, "/v1/spaces/"+s+"/change-requests/"+id) {
				if strings.HasPrefix(title, subject+" ") {
					own = append(own, page)
					if m["status"] == "merged" && spacePages[s][page] != title {
						t.Errorf("change request %s merged: page %s is %q in the space, %q in the change request", id, page, spacePages[s][page], title)
					}
				}
			}
			if len(own) > 1 {
				t.Errorf("change request %s has %d pages of its own, the load made one", id, len(own))
			}
			if m["status"] == "merged" {
				merged[subject] = true
			}
		}
		for page, title := range spacePages[s] {
			subject, _, _ := strings.Cut(title, " ")
			if !merged[subject] {
				t.Errorf("space %s has page %s %q that no merged change request brought", s, page, title)
			}
		}
	}
}
