package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// TestContentListsStatementsDoNotGrow checks that the organization's change
// request list (one space and one creator per change request) and a link
// report pointing at many spaces cost as many SQL statements for 2 items
// as for 6.
func TestContentListsStatementsDoNotGrow(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		type built struct{ org, admin, reportSpace string }
		build := func(name string, n int) built {
			o := e.Org(name)
			au, admin := e.User("admin@" + strings.ToLower(name) + ".test")
			e.Member(o, au, "admin")
			var spaces []string
			for i := 0; i < n; i++ {
				r := e.Do(admin, "POST", "/v1/orgs/"+o.ID+"/spaces", map[string]any{"title": fmt.Sprintf("S%d", i)})
				if r.Status != http.StatusCreated {
					t.Fatalf("create space: %d %s", r.Status, r.Body)
				}
				sp := r.JSON()["id"].(string)
				spaces = append(spaces, sp)
				u, tok := e.User(fmt.Sprintf("editor%d@%s.test", i, strings.ToLower(name)))
				e.Member(o, u, "edit")
				newCR(t, e, tok, sp, map[string]any{"subject": "Change"})
			}
			// A page linking to every space of the organization.
			var inlines []any
			for _, sp := range spaces {
				inlines = append(inlines, map[string]any{"object": "inline", "type": "link", "data": map[string]any{"ref": map[string]any{"kind": "space", "space": sp}},
					"nodes": []any{map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "space", "marks": []any{}}}}}})
			}
			cr := newCR(t, e, admin, spaces[0], map[string]any{"subject": "Links"})["id"].(string)
			createPage(t, e, admin, cr, map[string]any{"title": "Links", "document": map[string]any{"object": "document", "nodes": []any{
				map[string]any{"object": "block", "type": "paragraph", "nodes": inlines},
			}}})
			merge(t, e, admin, spaces[0], cr)
			return built{org: o.ID, admin: admin, reportSpace: spaces[0]}
		}
		count := func(token, path string) int64 {
			best := int64(-1)
			for i := 0; i < 8; i++ {
				before := e.Statements()
				if r := e.Do(token, "GET", path, nil); r.Status != http.StatusOK {
					t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
				}
				if n := e.Statements() - before; best < 0 || n < best {
					best = n
				}
			}
			return best
		}
		small, large := build("Small", 2), build("Large", 6)
		for _, c := range []struct{ what, path string }{
			{"organization change requests", "/orgs/%s/change-requests?status=draft&status=merged"},
			{"space link report", "/spaces/%s/links"},
		} {
			arg := func(b built) string {
				if strings.HasPrefix(c.path, "/orgs") {
					return b.org
				}
				return b.reportSpace
			}
			a := count(small.admin, "/v1"+fmt.Sprintf(c.path, arg(small)))
			b := count(large.admin, "/v1"+fmt.Sprintf(c.path, arg(large)))
			if a != b {
				t.Errorf("%s: %d statements for 2 items, %d for 6", c.what, a, b)
			}
		}
	})
}
