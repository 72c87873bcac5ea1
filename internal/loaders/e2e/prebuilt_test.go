package e2e_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"quire/ent/collection"
	"quire/ent/space"
	"quire/internal/loaders"
	"quire/internal/testing/testenv"
)

// The reads sent with statements built once (one entity by id, the spaces
// of a site and every collection above them, however deep) give what ent's
// own queries give, every column included, in one statement each, on both
// databases.
func TestKeptStatementsMatchEntQueries(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		tok := team.Admin.Token
		org := team.Org.ID
		call := restCall(t, e, tok)
		id := func(v map[string]any) string { return v["id"].(string) }
		root := id(call("POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Root"}, http.StatusCreated))
		top := id(call("POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Top", "description": "All of it", "parent": root}, http.StatusCreated))
		mid := id(call("POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Mid", "parent": top}, http.StatusCreated))
		other := id(call("POST", "/v1/orgs/"+org+"/collections", map[string]any{"title": "Elsewhere"}, http.StatusCreated))
		inMid := id(call("POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "In mid", "parent": mid, "emoji": "1f600"}, http.StatusCreated))
		loose := id(call("POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Loose"}, http.StatusCreated))
		call("POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Not on the site", "parent": other}, http.StatusCreated)
		site := id(call("POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": "Docs", "visibility": "public"}, http.StatusCreated))
		base := "/v1/orgs/" + org + "/sites/" + site
		sec := id(call("POST", base+"/sections", map[string]any{"spaceId": inMid, "title": "Guides"}, http.StatusCreated))
		call("POST", base+"/site-spaces", map[string]any{"spaceId": loose, "sectionId": sec}, http.StatusCreated)

		ctx := context.Background()
		l := loaders.New(e.DB.Client)
		ctx = loaders.With(ctx, l)

		before := e.Statements()
		if err := l.FetchSpacesOfSites(ctx, []string{site}); err != nil {
			t.Fatal(err)
		}
		if n := e.Statements() - before; n != 1 {
			t.Errorf("FetchSpacesOfSites: %d statements, want 1", n)
		}
		before = e.Statements()
		if err := l.FetchCollectionsAboveSites(ctx, []string{site}); err != nil {
			t.Fatal(err)
		}
		if n := e.Statements() - before; n != 1 {
			t.Errorf("FetchCollectionsAboveSites: %d statements, want 1", n)
		}
		before = e.Statements()
		var spaces, cols []any
		for _, s := range []string{inMid, loose} {
			sp, err := l.SpaceByID.Load(ctx, s)()
			if err != nil {
				t.Fatal(err)
			}
			spaces = append(spaces, sp)
		}
		for _, c := range []string{mid, top, root} {
			col, err := l.CollectionByID.Load(ctx, c)()
			if err != nil {
				t.Fatal(err)
			}
			cols = append(cols, col)
		}
		if n := e.Statements() - before; n != 0 {
			t.Errorf("loads after the fetches sent %d statements", n)
		}
		wantSpaces, _ := e.DB.Client.Space.Query().Where(space.IDIn(inMid, loose)).All(ctx)
		wantCols, _ := e.DB.Client.Collection.Query().Where(collection.IDIn(mid, top, root)).All(ctx)
		same(t, "spaces of the site", spaces, wantSpaces)
		same(t, "collections above the site", cols, wantCols)

		// One entity by id, in fresh loaders.
		l = loaders.New(e.DB.Client)
		ctx = loaders.With(context.Background(), l)
		one := func(what string, load func() (any, error), want func() (any, error)) {
			t.Helper()
			before := e.Statements()
			got, err := load()
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if n := e.Statements() - before; n != 1 {
				t.Errorf("%s: %d statements, want 1", what, n)
			}
			w, err := want()
			if err != nil {
				t.Fatal(err)
			}
			same(t, what, []any{got}, []any{w})
		}
		one("organization", func() (any, error) { return l.OrganizationByID.Load(ctx, org)() },
			func() (any, error) { return e.DB.Client.Organization.Get(ctx, org) })
		one("user", func() (any, error) { return l.UserByID.Load(ctx, team.Editor.User.ID)() },
			func() (any, error) { return e.DB.Client.User.Get(ctx, team.Editor.User.ID) })
		one("collection", func() (any, error) { return l.CollectionByID.Load(ctx, top)() },
			func() (any, error) { return e.DB.Client.Collection.Get(ctx, top) })
		one("space", func() (any, error) { return l.SpaceByID.Load(ctx, inMid)() },
			func() (any, error) { return e.DB.Client.Space.Get(ctx, inMid) })
		one("site", func() (any, error) { return l.Sites.SiteByID.Load(ctx, site)() },
			func() (any, error) { return e.DB.Client.Site.Get(ctx, site) })

		// An id that names nothing is not found, as before.
		if _, err := l.SpaceByID.Load(ctx, "nope")(); err == nil {
			t.Error("a space that does not exist was found")
		}
	})
}

// jsonOf encodes entities by their JSON (every field; the unexported
// client configuration aside), in order.
func jsonOf[T any](t *testing.T, list []T) string {
	t.Helper()
	var out []string
	for _, x := range list {
		b, err := json.Marshal(x)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}
