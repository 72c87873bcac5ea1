package e2e_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"quire/ent"
	"quire/internal/comments"
	"quire/internal/testing/testenv"
)

// setup makes a team, a space and a change request of it.
func setup(t *testing.T, e *testenv.Env) (*testenv.Team, string, string) {
	t.Helper()
	team := e.NewTeam()
	r := e.Do(team.Admin.Token, "POST", "/v1/orgs/"+team.Org.ID+"/spaces", map[string]any{"title": "Docs"})
	if r.Status != http.StatusCreated {
		t.Fatalf("space: %d %s", r.Status, r.Body)
	}
	space := r.JSON()["id"].(string)
	r = e.Do(team.Admin.Token, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": "Draft"})
	if r.Status != http.StatusCreated {
		t.Fatalf("change request: %d %s", r.Status, r.Body)
	}
	return team, space, r.JSON()["id"].(string)
}

func body(text string) map[string]any {
	return map[string]any{"body": map[string]any{"markdown": text}}
}

// parallel runs f n times at once.
func parallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { f(i) })
	}
	wg.Wait()
}

func count(t *testing.T, e *testenv.Env, token, path, field string) float64 {
	t.Helper()
	r := e.Do(token, "GET", path, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
	}
	n, _ := r.JSON()[field].(float64)
	return n
}

// The counters stay exact whatever runs at once: comments posted, resolved
// twice over, reopened and deleted at the same time, replies posted and
// deleted, the same reaction added by one user many times.
func TestCountersUnderConcurrency(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team, space, cr := setup(t, e)
		for _, where := range []struct{ base, counter string }{
			{"/v1/spaces/" + space + "/comments", "/v1/spaces/" + space},
			{"/v1/spaces/" + space + "/change-requests/" + cr + "/comments", "/v1/spaces/" + space + "/change-requests/" + cr},
		} {
			const n = 16
			ids := make([]string, n)
			parallel(n, func(i int) {
				r := e.Do(team.Editor.Token, "POST", where.base, body(fmt.Sprintf("Comment %d", i)))
				if r.Status != http.StatusOK {
					t.Errorf("post: %d %s", r.Status, r.Body)
					return
				}
				ids[i] = r.JSON()["id"].(string)
			})
			if got := count(t, e, team.Reader.Token, where.counter, "comments"); got != n {
				t.Fatalf("%s: %v open comments after %d posts", where.base, got, n)
			}
			// Each of the first half resolved by two callers at once, while
			// the last quarter are deleted and resolved at once.
			parallel(n, func(i int) {
				id := ids[i/2]
				if i >= n/2 {
					id = ids[n/2+(i-n/2)/2]
				}
				switch {
				case i < n/2:
					tok := []string{team.Editor.Token, team.Admin.Token}[i%2]
					e.Do(tok, "PUT", where.base+"/"+id, map[string]any{"resolved": true})
				case i%2 == 0:
					e.Do(team.Admin.Token, "DELETE", where.base+"/"+id, nil)
				default:
					e.Do(team.Admin.Token, "PUT", where.base+"/"+id, map[string]any{"resolved": true})
				}
			})
			l := e.Do(team.Reader.Token, "GET", where.base+"?status=open&limit=100", nil).JSON()
			if got := count(t, e, team.Reader.Token, where.counter, "comments"); got != l["count"].(float64) {
				t.Fatalf("%s: the counter says %v open comments, the list %v", where.base, got, l["count"])
			}
			// Reopened twice at once: counted once more.
			parallel(4, func(i int) {
				e.Do(team.Editor.Token, "PUT", where.base+"/"+ids[i/2], map[string]any{"resolved": false})
			})
			l = e.Do(team.Reader.Token, "GET", where.base+"?status=open&limit=100", nil).JSON()
			if got := count(t, e, team.Reader.Token, where.counter, "comments"); got != l["count"].(float64) {
				t.Fatalf("%s: after reopening, the counter says %v, the list %v", where.base, got, l["count"])
			}

			// Replies to one comment, posted and deleted at once.
			thread := where.base + "/" + ids[0]
			replies := make([]string, n)
			parallel(n, func(i int) {
				tok := []string{team.Editor.Token, team.Admin.Token}[i%2]
				r := e.Do(tok, "POST", thread+"/replies", body(fmt.Sprintf("Reply %d", i)))
				if r.Status == http.StatusOK {
					replies[i] = r.JSON()["id"].(string)
				}
			})
			c := e.Do(team.Reader.Token, "GET", thread, nil).JSON()
			if c["replies"] != float64(n) || len(c["repliers"].([]any)) != 2 ||
				testenv.Path(c, "repliers", 0, "count").(float64)+testenv.Path(c, "repliers", 1, "count").(float64) != n {
				t.Fatalf("after %d replies: replies %v, repliers %v", n, c["replies"], c["repliers"])
			}
			parallel(n, func(i int) { e.Do(team.Admin.Token, "DELETE", thread+"/replies/"+replies[i/2], nil) })
			if c := e.Do(team.Reader.Token, "GET", thread, nil).JSON(); c["replies"] != float64(n/2) {
				t.Fatalf("after deleting half the replies twice at once: %v", c["replies"])
			}

			// One user's reaction sent many times at once is one reaction.
			parallel(8, func(i int) {
				e.Do(team.Editor.Token, "PUT", thread, map[string]any{"addedReactions": []string{"👍"}})
			})
			c = e.Do(team.Reader.Token, "GET", thread, nil).JSON()
			if rs := c["reactions"].([]any); len(rs) != 1 || testenv.Path(rs, 0, "count") != float64(1) {
				t.Fatalf("reactions: %v", rs)
			}
		}
	})
}

// recorder hears of changes; it fails every change once fail is set.
type recorder struct {
	mu     sync.Mutex
	events []comments.Event
	fail   bool
}

func (r *recorder) CommentChanged(ctx context.Context, tx *ent.Tx, ev comments.Event) error {
	if tx == nil {
		return errors.New("no transaction")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail {
		return errors.New("the bus is down")
	}
	r.events = append(r.events, ev)
	return nil
}

func (r *recorder) kinds() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, ev := range r.events {
		out = append(out, ev.Kind)
	}
	return out
}

// The notifier hears of every change, with where it happened, inside the
// change's transaction: when it fails, the change is not made.
func TestNotifier(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team, space, cr := setup(t, e)
		rec := &recorder{}
		e.Server.Resolver().Comments.Notifier = rec
		base := "/v1/spaces/" + space + "/change-requests/" + cr + "/comments"
		c := e.Do(team.Editor.Token, "POST", base, body("Hello")).JSON()
		id := c["id"].(string)
		rp := e.Do(team.Admin.Token, "POST", base+"/"+id+"/replies", body("Hi")).JSON()
		e.Do(team.Admin.Token, "PUT", base+"/"+id+"/replies/"+rp["id"].(string), map[string]any{"addedReactions": []string{"👋"}})
		e.Do(team.Admin.Token, "PUT", base+"/"+id, map[string]any{"resolved": true})
		e.Do(team.Admin.Token, "PUT", base+"/"+id, map[string]any{"resolved": true}) // no change, no event
		e.Do(team.Admin.Token, "PUT", base+"/"+id, map[string]any{"resolved": false})
		e.Do(team.Editor.Token, "PUT", base+"/"+id, map[string]any{"body": map[string]any{"markdown": "Hello!"}})
		e.Do(team.Admin.Token, "DELETE", base+"/"+id+"/replies/"+rp["id"].(string), nil)
		e.Do(team.Admin.Token, "DELETE", base+"/"+id, nil)
		want := []string{comments.CommentPosted, comments.ReplyPosted, comments.ReplyUpdated, comments.CommentResolved,
			comments.CommentReopened, comments.CommentUpdated, comments.ReplyDeleted, comments.CommentDeleted}
		if got := rec.kinds(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("events %v, want %v", got, want)
		}
		first := rec.events[0]
		if first.SpaceID != space || first.ChangeRequestID != cr || first.CommentID != id || first.UserID != team.Editor.User.ID ||
			rec.events[1].ReplyID != rp["id"] {
			t.Fatalf("events %+v", rec.events)
		}

		rec.fail = true
		if r := e.DoUnchecked(team.Editor.Token, "POST", base, body("Lost")); r.Status != http.StatusInternalServerError {
			t.Fatalf("post with a failing notifier: %d %s", r.Status, r.Body)
		}
		if l := e.Do(team.Reader.Token, "GET", base, nil).JSON(); l["count"] != float64(0) {
			t.Fatalf("a failed notification left a comment: %v", l)
		}
		if n := count(t, e, team.Reader.Token, "/v1/spaces/"+space+"/change-requests/"+cr, "comments"); n != 0 {
			t.Fatalf("a failed notification changed the count: %v", n)
		}
	})
}
