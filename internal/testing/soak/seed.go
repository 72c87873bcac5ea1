package soak

import (
	"context"
	"fmt"
	"net/http"
	"sync"
)

// world is what the soak created and what its writes added, to check at
// the end that every acknowledged write is there.
type world struct {
	keepPages, keepComments int

	org    string
	spaces []*space
	sites  []string
}

type space struct {
	id    string
	pages []string // seeded pages, read by the load (never changed by it)

	mu           sync.Mutex
	seq          int      // change request flows started
	merged       int      // merges acknowledged (each added a page)
	deleted      int      // pages deleted by acknowledged merges
	live         []string // pages the load merged and has not deleted, oldest first
	comments     int      // comments acknowledged
	uncommented  int      // comments deleted, acknowledged
	liveComments []string // comments posted and not deleted, oldest first
	// lastMarker is a word only the last merged page holds, and lastPage
	// that page: a search for it must find exactly that page.
	lastMarker, lastPage string
}

// seedPages is how many pages each space starts with.
const seedPages = 3

// The load keeps each space's size steady, so that memory measures leaks,
// not data growth: past KeepPages pages of its own (Config), a change
// request flow also deletes the oldest; past KeepComments comments,
// posting one also deletes the oldest.
const (
	defaultKeepPages    = 20
	defaultKeepComments = 40
)

const createPageMutation = `mutation SoakCreatePage($in: CreatePageInput!) { createPage(input: $in) { page { id } } }`

// seed creates the spaces (each with seedPages pages, merged through a
// change request) and the published sites over them: sites[i] shows spaces
// 2i and 2i+1 as sections.
func seed(ctx context.Context, c *client, org string, spaces, sites int) (*world, error) {
	w := &world{org: org}
	type idOut struct {
		ID string `json:"id"`
	}
	for i := range spaces {
		var sp idOut
		if err := c.rest(ctx, "POST", "/orgs/"+org+"/spaces", map[string]any{"title": fmt.Sprintf("Handbook %d", i+1)}, http.StatusCreated, &sp); err != nil {
			return nil, fmt.Errorf("seed: %w", err)
		}
		s := &space{id: sp.ID}
		var cr idOut
		if err := c.rest(ctx, "POST", "/spaces/"+s.id+"/change-requests", map[string]any{"subject": "Seed pages"}, http.StatusCreated, &cr); err != nil {
			return nil, fmt.Errorf("seed: %w", err)
		}
		for j := range seedPages {
			var out struct {
				CreatePage struct{ Page struct{ ID string } } `json:"createPage"`
			}
			if err := c.gql(ctx, createPageMutation, map[string]any{"in": map[string]any{
				"changeRequest": cr.ID,
				"title":         fmt.Sprintf("Configuring part %d", j+1),
				"markdown":      fmt.Sprintf("# Overview\n\nHow to configure the kettle, step %d.\n\n## Details\n\nInstallation and configuration notes for the %d-th part.\n", j+1, j+1),
			}}, &out); err != nil {
				return nil, fmt.Errorf("seed: %w", err)
			}
			s.pages = append(s.pages, out.CreatePage.Page.ID)
		}
		if err := merge(ctx, c, s.id, cr.ID); err != nil {
			return nil, fmt.Errorf("seed: %w", err)
		}
		w.spaces = append(w.spaces, s)
	}
	for i := range sites {
		var site idOut
		if err := c.rest(ctx, "POST", "/orgs/"+org+"/sites", map[string]any{"title": fmt.Sprintf("Docs %d", i+1)}, http.StatusCreated, &site); err != nil {
			return nil, fmt.Errorf("seed: %w", err)
		}
		p := "/orgs/" + org + "/sites/" + site.ID
		for k := range 2 {
			s := w.spaces[(2*i+k)%len(w.spaces)]
			if err := c.rest(ctx, "POST", p+"/sections", map[string]any{"spaceId": s.id, "title": fmt.Sprintf("Product %d", k+1)}, http.StatusCreated, nil); err != nil {
				return nil, fmt.Errorf("seed: %w", err)
			}
		}
		if err := c.rest(ctx, "POST", p+"/publish", nil, http.StatusOK, nil); err != nil {
			return nil, fmt.Errorf("seed: %w", err)
		}
		w.sites = append(w.sites, site.ID)
	}
	return w, nil
}

// merge merges a change request; conflicts are a failure (the soak's
// change requests add distinct pages and never conflict).
func merge(ctx context.Context, c *client, spaceID, crID string) error {
	var out struct {
		Result string `json:"result"`
	}
	if err := c.rest(ctx, "POST", "/spaces/"+spaceID+"/change-requests/"+crID+"/merge", nil, http.StatusOK, &out); err != nil {
		return err
	}
	if out.Result != "merge" {
		return c.unexpected(http.StatusOK, "merge %s: result %q", crID, out.Result)
	}
	return nil
}
