package soak

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// op is one kind of operation of the mix: requests is how many HTTP
// requests it sends, weight how often it is picked.
type op struct {
	name     string
	weight   int
	requests int
	run      func(ctx context.Context, c *client, w *world, r *rand.Rand) error
}

const (
	siteQuery = `query SoakSite($id: ID!) { site(id: $id) { id title published urls { published }
  sections { nodes { id title path siteSpaces { nodes { id path space { id title revision comments
    organization { id } permissions { view edit comment merge } } } } } } } }`
	spaceQuery = `query SoakSpace($id: ID!) { space(id: $id) { id title revision comments changeRequestsOpen
  content { id pages { id title path pages { id title } } }
  commentList(first: 5) { totalCount nodes { id } } } }`
	deletePageMutation = `mutation SoakDeletePage($cr: ID!, $page: ID!) { deletePage(changeRequest: $cr, page: $page) { changed } }`
	updatePageMutation = `mutation SoakUpdatePage($in: UpdatePageInput!) { updatePage(input: $in) { changed page { id } } }`
)

// mix is the load: mostly reads of both doors, with comments and change
// request flows (create, add a page, edit it, merge) as writes.
var mix = []op{
	{"rest space", 10, 1, func(ctx context.Context, c *client, w *world, r *rand.Rand) error {
		return c.rest(ctx, "GET", "/spaces/"+pick(r, w.spaces).id, nil, http.StatusOK, nil)
	}},
	{"rest page", 10, 1, func(ctx context.Context, c *client, w *world, r *rand.Rand) error {
		s := pick(r, w.spaces)
		return c.rest(ctx, "GET", "/spaces/"+s.id+"/content/page/"+pick(r, s.pages), nil, http.StatusOK, nil)
	}},
	{"rest published", 10, 1, func(ctx context.Context, c *client, w *world, r *rand.Rand) error {
		return c.rest(ctx, "GET", "/orgs/"+w.org+"/sites/"+pick(r, w.sites)+"/published", nil, http.StatusOK, nil)
	}},
	{"graphql site", 10, 1, func(ctx context.Context, c *client, w *world, r *rand.Rand) error {
		return c.gql(ctx, siteQuery, map[string]any{"id": pick(r, w.sites)}, nil)
	}},
	{"graphql space", 8, 1, func(ctx context.Context, c *client, w *world, r *rand.Rand) error {
		return c.gql(ctx, spaceQuery, map[string]any{"id": pick(r, w.spaces).id}, nil)
	}},
	{"rest comments", 8, 1, func(ctx context.Context, c *client, w *world, r *rand.Rand) error {
		return c.rest(ctx, "GET", "/spaces/"+pick(r, w.spaces).id+"/comments?limit=20", nil, http.StatusOK, nil)
	}},
	{"rest search", 8, 1, func(ctx context.Context, c *client, w *world, r *rand.Rand) error {
		q := pick(r, []string{"configure", "kettle installation", "notes OR overview", `"configuration notes"`})
		return c.rest(ctx, "GET", "/spaces/"+pick(r, w.spaces).id+"/search?query="+url.QueryEscape(q), nil, http.StatusOK, nil)
	}},
	{"rest org search", 2, 1, func(ctx context.Context, c *client, w *world, r *rand.Rand) error {
		return c.rest(ctx, "GET", "/orgs/"+w.org+"/search?query=kettle", nil, http.StatusOK, nil)
	}},
	{"post comment", 6, 2, postComment},
	{"change request flow", 3, 5, changeRequestFlow},
}

// postComment posts a comment on a page and, past Config.KeepComments in the
// space, deletes the oldest the load posted.
func postComment(ctx context.Context, c *client, w *world, r *rand.Rand) error {
	s := pick(r, w.spaces)
	var posted struct {
		ID string `json:"id"`
	}
	if err := c.rest(ctx, "POST", "/spaces/"+s.id+"/comments", map[string]any{
		"body": map[string]any{"markdown": "Is this still accurate?"},
		"page": pick(r, s.pages),
	}, http.StatusOK, &posted); err != nil {
		return err
	}
	s.mu.Lock()
	s.comments++
	s.liveComments = append(s.liveComments, posted.ID)
	var victim string
	if len(s.liveComments) > w.keepComments {
		victim, s.liveComments = s.liveComments[0], s.liveComments[1:]
	}
	s.mu.Unlock()
	if victim == "" {
		return nil
	}
	if err := c.rest(ctx, "DELETE", "/spaces/"+s.id+"/comments/"+victim, nil, http.StatusResetContent, nil); err != nil {
		return err
	}
	s.mu.Lock()
	s.uncommented++
	s.mu.Unlock()
	return nil
}

// changeRequestFlow creates a change request (REST), adds a page and edits
// it (GraphQL), past Config.KeepPages deletes the oldest page the load merged
// (GraphQL), and merges it (REST). The page's text holds a word no other
// page has, which a search must find at the end.
func changeRequestFlow(ctx context.Context, c *client, w *world, r *rand.Rand) error {
	s := pick(r, w.spaces)
	s.mu.Lock()
	s.seq++
	n := s.seq
	// Taken off the list now, so no other flow deletes it too; it was
	// merged before this change request starts, so it is in its content.
	var victim string
	if len(s.live) > w.keepPages {
		victim, s.live = s.live[0], s.live[1:]
	}
	s.mu.Unlock()
	var cr struct {
		ID string `json:"id"`
	}
	if err := c.rest(ctx, "POST", "/spaces/"+s.id+"/change-requests", map[string]any{"subject": fmt.Sprintf("Soak change %d", n)}, http.StatusCreated, &cr); err != nil {
		return err
	}
	var created struct {
		CreatePage struct{ Page struct{ ID string } } `json:"createPage"`
	}
	if err := c.gql(ctx, createPageMutation, map[string]any{"in": map[string]any{
		"changeRequest": cr.ID, "title": fmt.Sprintf("Release note %d", n), "markdown": "Draft.",
	}}, &created); err != nil {
		return err
	}
	marker := wordOf(n)
	if err := c.gql(ctx, updatePageMutation, map[string]any{"in": map[string]any{
		"changeRequest": cr.ID, "page": created.CreatePage.Page.ID,
		"markdown": "# Release\n\nThis release fixes the " + marker + " setting.\n",
	}}, nil); err != nil {
		return err
	}
	if victim != "" {
		if err := c.gql(ctx, deletePageMutation, map[string]any{"cr": cr.ID, "page": victim}, nil); err != nil {
			return err
		}
	}
	if err := merge(ctx, c, s.id, cr.ID); err != nil {
		return err
	}
	s.mu.Lock()
	s.merged++
	s.live = append(s.live, created.CreatePage.Page.ID)
	if victim != "" {
		s.deleted++
	}
	if n > s.lastN() {
		s.lastMarker, s.lastPage = marker, created.CreatePage.Page.ID
	}
	s.mu.Unlock()
	return nil
}

// lastN is the flow number of lastMarker (0 before any merge).
func (s *space) lastN() int {
	if s.lastMarker == "" {
		return 0
	}
	return numberOf(s.lastMarker)
}

// wordOf spells n in letters (search engines split words at digits), with
// a prefix no seeded text has, and ends it with a "q": no English suffix
// does, so a stemmer leaves every word whole (without it, PostgreSQL's
// English stemmer reads "zylojs" as "zyloj", another page's word, and
// "zylois" and "zyloie" both as "zyloi").
func wordOf(n int) string {
	b := []byte("zylo")
	var d []byte
	for ; n > 0; n /= 26 {
		d = append(d, byte('a'+n%26))
	}
	for i := len(d) - 1; i >= 0; i-- {
		b = append(b, d[i])
	}
	return string(append(b, 'q'))
}

func numberOf(w string) int {
	n := 0
	for _, ch := range strings.TrimSuffix(w[len("zylo"):], "q") {
		n = n*26 + int(ch-'a')
	}
	return n
}

func pick[T any](r *rand.Rand, list []T) T { return list[r.IntN(len(list))] }

// requestsPerOp is the mean number of requests of an operation of the mix.
func requestsPerOp() float64 {
	var w, req int
	for _, o := range mix {
		w += o.weight
		req += o.weight * o.requests
	}
	return float64(req) / float64(w)
}

// drive runs the mix open-loop: operations start on a fixed schedule
// (rate requests per second on average, whatever the answers' latency)
// on up to workers at a time, until ctx ends; then it waits for the
// operations under way. An operation whose slot comes while every worker
// is busy starts late and is counted as behind when more than a second
// late. Each request has its own timeout, independent of ctx, so that the
// end of the soak never cuts a write whose acknowledgement it would miss.
func drive(ctx context.Context, c *client, w *world, rate float64, workers int, seed uint64) {
	var total int
	for _, o := range mix {
		total += o.weight
	}
	interval := time.Duration(float64(time.Second) * requestsPerOp() / rate)
	type slot struct {
		at time.Time
		op *op
	}
	slots := make(chan slot, workers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(seed, uint64(i)))
			for s := range slots {
				if late := time.Since(s.at); late > time.Second {
					c.st.mu.Lock()
					c.st.behind++
					c.st.mu.Unlock()
				}
				rctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				s.op.run(rctx, c, w, r)
				cancel()
			}
		})
	}
	r := rand.New(rand.NewPCG(seed, 1<<32))
	next := time.Now()
	t := time.NewTimer(0)
	defer t.Stop()
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-t.C:
		}
		// Every slot due by now: a late timer does not lower the rate.
		for now := time.Now(); !next.After(now); next = next.Add(interval) {
			k := r.IntN(total)
			var o *op
			for i := range mix {
				if k < mix[i].weight {
					o = &mix[i]
					break
				}
				k -= mix[i].weight
			}
			select {
			case slots <- slot{next, o}:
			case <-ctx.Done():
				break loop
			}
		}
		t.Reset(time.Until(next))
	}
	close(slots)
	wg.Wait()
}
