package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// TestListsStatementsDoNotGrow checks the lists no other statement count
// covers: each costs as many SQL statements for 2 items as for 6, read by
// an admin and by a reader (whose permissions walk the collections above
// every space).
func TestListsStatementsDoNotGrow(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		type built struct{ admin, reader, org, collection, site, space string }
		build := func(name string, n int) built {
			o := e.Org(name)
			au, admin := e.User("admin@" + strings.ToLower(name) + ".test")
			ru, reader := e.User("reader@" + strings.ToLower(name) + ".test")
			e.Member(o, au, "admin")
			e.Member(o, ru, "read")
			b := built{admin: admin, reader: reader, org: o.ID}
			post := func(path string, body map[string]any) string {
				return sqID(sqDo(t, e, admin, "POST", "/v1"+path, body, http.StatusCreated))
			}
			b.collection = post("/orgs/"+o.ID+"/collections", map[string]any{"title": "Top"})
			b.site = post("/orgs/"+o.ID+"/sites", map[string]any{"title": "Site"})
			site := "/orgs/" + o.ID + "/sites/" + b.site
			for i := 0; i < n; i++ {
				inner := post("/orgs/"+o.ID+"/collections", map[string]any{"title": fmt.Sprintf("C%d", i), "parent": b.collection})
				deep := post("/orgs/"+o.ID+"/spaces", map[string]any{"title": fmt.Sprintf("S%d", i), "parent": inner})
				sp := post("/orgs/"+o.ID+"/spaces", map[string]any{"title": fmt.Sprintf("T%d", i), "parent": b.collection})
				if b.space == "" {
					b.space = sp
				}
				sec := post(site+"/sections", map[string]any{"spaceId": deep})
				post(site+"/section-groups", map[string]any{"title": fmt.Sprintf("G%d", i), "sections": []string{sec}})
				post(site+"/share-links", map[string]any{"name": fmt.Sprintf("L%d", i)})
				post("/spaces/"+b.space+"/change-requests", map[string]any{"subject": fmt.Sprintf("CR%d", i)})
			}
			return b
		}
		measure := func(token, path string) func() int64 {
			return func() int64 {
				before := e.Statements()
				if r := e.Do(token, "GET", path, nil); r.Status != http.StatusOK {
					t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
				}
				return e.Statements() - before
			}
		}
		small, large := build("Small", 2), build("Large", 6)
		for _, c := range []struct {
			path       string
			adminsOnly bool
		}{
			{"/orgs/{org}/collections", false},
			{"/orgs/{org}/spaces", false},
			{"/collections/{collection}/spaces", false},
			{"/orgs/{org}/sites/{site}/section-groups", false},
			{"/orgs/{org}/sites/{site}/share-links", true},
			{"/spaces/{space}/change-requests?status=draft&status=open", false},
		} {
			path := func(b built) string {
				return "/v1" + strings.NewReplacer("{org}", b.org, "{collection}", b.collection, "{site}", b.site, "{space}", b.space).Replace(c.path)
			}
			for _, reader := range []bool{false, true} {
				if reader && c.adminsOnly {
					continue
				}
				who := func(b built) string {
					if reader {
						return b.reader
					}
					return b.admin
				}
				measure(who(small), path(small))() // warm up
				n1, n2 := sqMinCounts(measure(who(small), path(small)), measure(who(large), path(large)))
				if n1 != n2 {
					t.Errorf("GET %s (reader %v): %d statements for 2 items, %d for 6", c.path, reader, n1, n2)
				}
			}
		}
	})
}
