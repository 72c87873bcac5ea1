package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"quire/internal/content"
	"quire/internal/db"
	"quire/internal/jobs"
	"quire/internal/testing/benchkit"
	"quire/internal/testing/testclient"
	"quire/server/app"
)

// seeded is what the benchmark's workloads address.
type seeded struct {
	org, user, token string
	sites            []string // published sites of 4 sections × 3 site spaces
	spaces           []string // every space of the organization
	big              string   // the space of many pages ("" when not seeded)
	words            []string // words of the big space's pages, for search queries
}

// seedSites creates n published sites through Quire's REST API, a few at a
// time (the API is the path users take; the database sees ordinary
// writes).
func seedSites(ctx context.Context, api *testclient.Client, org string, n int) ([]string, error) {
	sites := make([]string, n)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan int)
	)
	for range 4 {
		wg.Go(func() {
			for i := range next {
				id, err := benchkit.SeedSite(ctx, api, org, benchkit.SiteSize{Sections: 4, SiteSpaces: 3}, fmt.Sprintf("site %d", i+1))
				mu.Lock()
				if err != nil && first == nil {
					first = err
				}
				sites[i] = id
				mu.Unlock()
			}
		})
	}
	for i := range n {
		mu.Lock()
		failed := first != nil
		mu.Unlock()
		if failed {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return sites, first
}

// vocabulary are the words of the big space's pages: a few common ones
// (in many pages) and many rare ones (in a few pages each).
func vocabulary() []string {
	common := strings.Fields("install configure deploy token webhook database cluster backup release upgrade migrate query index cache proxy")
	r := rand.New(rand.NewPCG(5, 5))
	syll := strings.Fields("ka lo mi ra ne to vi sa de po lu fe ri ga mo zu ba ti xo je")
	seen := map[string]bool{}
	words := append([]string{}, common...)
	for len(words) < 2000 {
		var b strings.Builder
		for n := 3 + r.IntN(2); n > 0; n-- {
			b.WriteString(syll[r.IntN(len(syll))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	return words
}

// seedBigSpace creates a space through the REST API and writes pages pages
// into it in one revision through the content engine's WriteTree (what a
// Git import does), run in this process over the same database: 100 root
// pages with their children, each page a heading and two paragraphs. The
// content engine indexes the pages for search as it writes them.
func seedBigSpace(ctx context.Context, api *testclient.Client, d *db.DB, s *seeded, pages int) error {
	var sp struct {
		ID string `json:"id"`
	}
	if err := api.Expect(ctx, "POST", "/v1/orgs/"+s.org+"/spaces", map[string]any{"title": fmt.Sprintf("Handbook (%d pages)", pages)}, http.StatusCreated, &sp); err != nil {
		return err
	}
	words := vocabulary()
	r := rand.New(rand.NewPCG(6, 6))
	word := func() string {
		if r.IntN(4) == 0 {
			return words[r.IntN(15)]
		}
		return words[r.IntN(len(words))]
	}
	sentence := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = word()
		}
		return strings.Join(w, " ") + "."
	}
	page := func(title string) *content.TreePage {
		md := fmt.Sprintf("## %s %s\n\n%s %s\n\n%s\n", word(), word(), sentence(12), sentence(10), sentence(15))
		return &content.TreePage{Title: title, Markdown: &md}
	}
	const roots = 100
	tree := &content.Tree{}
	for i := range roots {
		root := page(fmt.Sprintf("Chapter %d %s", i+1, word()))
		for j := range pages/roots - 1 {
			root.Pages = append(root.Pages, page(fmt.Sprintf("%s %s %d.%d", word(), word(), i+1, j+1)))
		}
		tree.Pages = append(tree.Pages, root)
	}
	u, err := d.Client.User.Get(ctx, s.user)
	if err != nil {
		return err
	}
	eng := app.New(ctx, d, app.Config{PublicURL: api.Base})
	defer eng.Close()
	start := time.Now()
	if _, err := eng.Content.WriteTree(jobs.NewContext(ctx, d.Client, u), sp.ID, tree, content.TreeOptions{}); err != nil {
		return fmt.Errorf("write %d pages: %w", pages, err)
	}
	logf("wrote and indexed %d pages in %s", pages, time.Since(start).Round(time.Second))
	s.big, s.words = sp.ID, words
	return nil
}
