package soak

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"time"
)

// verify checks that every write the load saw acknowledged is visible:
// for each space, its pages (seeded + one per merge), its merged change
// requests, its comments, and a search for the last merged page's word;
// and that each subscription is still open and got one event per merge
// and per comment of its space. It returns what does not hold.
func verify(ctx context.Context, c *client, w *world, watchers []*watcher, res *Result) []string {
	var out []string
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	want := map[string]map[string]int{}
	for _, s := range w.spaces {
		s.mu.Lock()
		merged, deleted, comments, uncommented, marker, page := s.merged, s.deleted, s.comments, s.uncommented, s.lastMarker, s.lastPage
		s.mu.Unlock()
		res.Merged += merged
		res.Comments += comments
		res.Deleted += deleted
		res.Uncommented += uncommented
		want[s.id] = map[string]int{"change_request_merged": merged, "comment_created": comments}

		var tree struct {
			Pages []treePage `json:"pages"`
		}
		if err := c.rest(ctx, "GET", "/spaces/"+s.id+"/content/pages", nil, http.StatusOK, &tree); err != nil {
			out = append(out, err.Error())
		} else if n := countPages(tree.Pages); n != seedPages+merged-deleted {
			out = append(out, fmt.Sprintf("space %s has %d pages, want %d (%d seeded + %d merged - %d deleted)", s.id, n, seedPages+merged-deleted, seedPages, merged, deleted))
		}
		var list struct {
			Count int `json:"count"`
		}
		// The seeding's change request was merged too.
		if err := c.rest(ctx, "GET", "/spaces/"+s.id+"/change-requests?status=merged&limit=1", nil, http.StatusOK, &list); err != nil {
			out = append(out, err.Error())
		} else if list.Count != merged+1 {
			out = append(out, fmt.Sprintf("space %s has %d merged change requests, want %d", s.id, list.Count, merged+1))
		}
		if err := c.rest(ctx, "GET", "/spaces/"+s.id+"/comments?limit=1", nil, http.StatusOK, &list); err != nil {
			out = append(out, err.Error())
		} else if list.Count != comments-uncommented {
			out = append(out, fmt.Sprintf("space %s has %d comments, want %d (%d posted - %d deleted)", s.id, list.Count, comments-uncommented, comments, uncommented))
		}
		if marker == "" {
			continue
		}
		var found struct {
			Items []struct{ ID string } `json:"items"`
		}
		if err := c.rest(ctx, "GET", "/spaces/"+s.id+"/search?query="+url.QueryEscape(marker), nil, http.StatusOK, &found); err != nil {
			out = append(out, err.Error())
		} else if len(found.Items) != 1 || found.Items[0].ID != page {
			out = append(out, fmt.Sprintf("search for %q in space %s found %v, want page %s alone", marker, s.id, found.Items, page))
		}
	}

	// Events go out after their write commits, so they may trail its
	// answer a little: wait for them, up to 15 s.
	res.Events = map[string]int{}
	for _, wt := range watchers {
		var got map[string]int
		var ended string
		for deadline := time.Now().Add(15 * time.Second); ; {
			got, ended = wt.state()
			if ended != "" || maps.Equal(got, nonZero(want[wt.space])) || time.Now().After(deadline) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		for k, v := range got {
			res.Events[k] += v
		}
		if ended != "" {
			out = append(out, fmt.Sprintf("the subscription to space %s ended: %s", wt.space, ended))
		} else if !maps.Equal(got, nonZero(want[wt.space])) {
			out = append(out, fmt.Sprintf("the subscription to space %s received %v, want %v", wt.space, got, nonZero(want[wt.space])))
		}
	}
	return out
}

type treePage struct {
	Pages []treePage `json:"pages"`
}

func countPages(ps []treePage) int {
	n := len(ps)
	for _, p := range ps {
		n += countPages(p.Pages)
	}
	return n
}

func nonZero(m map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}
