package reader_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"quire/internal/content"
	"quire/internal/ratelimit"
	"quire/internal/testing/testenv"
)

// viewTwice GETs url twice and returns the second answer and the SQL
// statements it cost.
func viewTwice(t *testing.T, e *testenv.Env, url string, headers ...string) (page, int64) {
	t.Helper()
	get(t, e, url, "", headers...)
	before := e.Statements()
	p := get(t, e, url, "", headers...)
	return p, e.Statements() - before
}

// A page of a public site viewed again is served as it was, without
// reading the database, and every write that changes what it shows is
// seen by the next view.
func TestKeptPages(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		admin, org := team.Admin.Token, team.Org.ID
		sp := space(t, e, team, "Handbook")
		pages := guide(t, e, team, sp)
		id, url := site(t, e, team, "Acme docs", "public", sp)
		page := url + "/guides/installation"

		first := get(t, e, page, "")
		again, n := viewTwice(t, e, page)
		if n != 0 || again.Status != http.StatusOK || again.Body != first.Body {
			t.Fatalf("viewed again: %d statements, status %d, same body %v", n, again.Status, again.Body == first.Body)
		}
		for _, h := range []string{"Content-Type", "Cache-Control", "ETag", "Vary", "Content-Security-Policy", "X-Content-Type-Options"} {
			if again.Header.Get(h) != first.Header.Get(h) {
				t.Errorf("kept answer's %s: %q, rendered: %q", h, again.Header.Get(h), first.Header.Get(h))
			}
		}
		if again.Header.Get("X-Request-Id") == first.Header.Get("X-Request-Id") {
			t.Errorf("a kept answer repeats the request id of the one it was kept from")
		}
		// Compressed or not, revalidated, or asked for its headers.
		zipped, n := viewTwice(t, e, page, "Accept-Encoding", "gzip")
		if n != 0 || zipped.Header.Get("Content-Encoding") != "gzip" || zipped.Body != first.Body {
			t.Errorf("gzip: %d statements, encoding %q, same page %v", n, zipped.Header.Get("Content-Encoding"), zipped.Body == first.Body)
		}
		if nm, n := viewTwice(t, e, page, "If-None-Match", first.Header.Get("ETag")); n != 0 || nm.Status != http.StatusNotModified || nm.Body != "" {
			t.Errorf("revalidation: %d statements, status %d", n, nm.Status)
		}
		req, _ := http.NewRequest(http.MethodHead, page, nil)
		if resp, err := e.HTTP.Client().Do(req); err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") != first.Header.Get("ETag") {
			t.Errorf("HEAD: %v %v", resp, err)
		} else {
			resp.Body.Close()
		}
		// The theme a reader chose is kept apart.
		dark, _ := viewTwice(t, e, page, "Cookie", "quire-theme=dark")
		if dark.Body == first.Body {
			t.Errorf("the page with the dark theme chosen is the page without")
		}
		if plain, _ := viewTwice(t, e, page); plain.Body != first.Body {
			t.Errorf("the page without a chosen theme changed after one with")
		}

		// Not kept: what has a query.
		if _, n := viewTwice(t, e, page+"?ref=home"); n == 0 {
			t.Errorf("a page with a query was served without reading: kept?")
		}

		// A change of the page's content.
		md := "Run `quire serve --addr :9000`.\n"
		seedPages(t, e, team, sp, &content.UpdatePage{Page: pages["Installation"], Markdown: &md})
		if p := get(t, e, page, ""); !strings.Contains(p.Body, "--addr :9000") {
			t.Errorf("after an edit, the page is the kept one")
		}
		// A change of the site (its title) and of its customization.
		rest(t, e, admin, "PATCH", "/v1/orgs/"+org+"/sites/"+id, map[string]any{"title": "Acme handbook"}, http.StatusOK)
		if p := get(t, e, page, ""); !strings.Contains(p.Body, "Acme handbook") {
			t.Errorf("after renaming the site, the page shows the old title")
		}
		get(t, e, page, "")
		rest(t, e, admin, "PUT", "/v1/orgs/"+org+"/sites/"+id+"/customization",
			map[string]any{"announcement": map[string]any{"enabled": true, "message": "Maintenance on Sunday", "style": "info"}}, http.StatusOK)
		if p := get(t, e, page, ""); !strings.Contains(p.Body, "Maintenance on Sunday") {
			t.Errorf("after customizing the site, the page shows no announcement")
		}
		// Unpublished, then published again; then only through share links.
		get(t, e, page, "")
		rest(t, e, admin, "POST", "/v1/orgs/"+org+"/sites/"+id+"/unpublish", nil, http.StatusOK)
		if p := get(t, e, page, ""); p.Status != http.StatusNotFound {
			t.Errorf("after unpublishing: %d, want 404", p.Status)
		}
		rest(t, e, admin, "POST", "/v1/orgs/"+org+"/sites/"+id+"/publish", nil, http.StatusOK)
		if p := get(t, e, page, ""); p.Status != http.StatusOK {
			t.Fatalf("published again: %d", p.Status)
		}
		rest(t, e, admin, "PATCH", "/v1/orgs/"+org+"/sites/"+id, map[string]any{"visibility": "share-link"}, http.StatusOK)
		if p := get(t, e, page, ""); p.Status != http.StatusNotFound {
			t.Errorf("after restricting the site to share links: %d, want 404", p.Status)
		}
		// The space deleted.
		rest(t, e, admin, "PATCH", "/v1/orgs/"+org+"/sites/"+id, map[string]any{"visibility": "public"}, http.StatusOK)
		get(t, e, page, "")
		e.Do(admin, "DELETE", "/v1/spaces/"+sp, nil)
		if p := get(t, e, page, ""); p.Status != http.StatusNotFound {
			t.Errorf("after deleting the space: %d, want 404", p.Status)
		}
	})
}

// Pages of a site restricted to share links are not kept: the key is in
// the address, but such a site is not for shared caches either.
func TestSharedLinkPagesAreNotKept(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		admin, org := team.Admin.Token, team.Org.ID
		sp := space(t, e, team, "Handbook")
		guide(t, e, team, sp)
		id, _ := site(t, e, team, "Acme docs", "share-link", sp)
		link := rest(t, e, admin, "POST", "/v1/orgs/"+org+"/sites/"+id+"/share-links", map[string]any{"name": "Partners"}, http.StatusCreated)
		urls, _ := link["urls"].(map[string]any)
		u := str(urls["published"])
		if u == "" {
			t.Fatalf("share link without a published URL: %v", link)
		}
		p, n := viewTwice(t, e, u)
		if p.Status != http.StatusOK || n == 0 {
			t.Fatalf("share link viewed again: status %d, %d statements", p.Status, n)
		}
	})
}

// A change made by another process sharing the PostgreSQL database makes
// this one's kept pages stale as soon as it hears of it.
func TestKeptPagesAcrossReplicas(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		if e.Dialect != "postgres" {
			t.Skip("one process serves a SQLite database")
		}
		b := e.SeparateReplica(testenv.Options{})
		team := e.NewTeam()
		sp := space(t, e, team, "Handbook")
		pages := guide(t, e, team, sp)
		_, url := site(t, e, team, "Acme docs", "public", sp)
		page := url + "/guides/installation"
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := b.Server.ContentChanges().Sync(ctx); err != nil {
			t.Fatal(err)
		}
		get(t, b, page, "")
		if _, n := viewTwice(t, b, page); n != 0 {
			t.Fatalf("the replica did not keep the page: %d statements", n)
		}
		md := "Edited through the other process.\n"
		seedPages(t, e, team, sp, &content.UpdatePage{Page: pages["Installation"], Markdown: &md})
		if err := b.Server.ContentChanges().Sync(ctx); err != nil {
			t.Fatal(err)
		}
		if p := get(t, b, page, ""); !strings.Contains(p.Body, "Edited through the other process.") {
			t.Errorf("the replica served its kept page after the other process's edit")
		}
	})
}

// Readers spend the anonymous budget of their address with the pages
// Quire renders for them; a page served from the page cache reads nothing
// and spends nothing.
func TestKeptPagesSpendNoBudget(t *testing.T) {
	for _, backend := range testenv.Backends {
		t.Run(backend, func(t *testing.T) {
			e := testenv.NewWith(t, backend, testenv.Options{RateLimits: ratelimit.Config{AnonymousLimit: 3}})
			team := e.NewTeam()
			sp := space(t, e, team, "Handbook")
			guide(t, e, team, sp)
			_, url := site(t, e, team, "Acme docs", "public", sp)
			// Rendered, then kept: the first view spends 1.
			first := get(t, e, url+"/welcome", "")
			if first.Status != http.StatusOK || first.Header.Get("X-RateLimit-Used") != "1" {
				t.Fatalf("first view: %d, X-RateLimit-Used %q", first.Status, first.Header.Get("X-RateLimit-Used"))
			}
			for range 5 {
				if p := get(t, e, url+"/welcome", ""); p.Status != http.StatusOK || p.Header.Get("X-RateLimit-Used") != "" {
					t.Fatalf("kept view: %d, X-RateLimit-Used %q", p.Status, p.Header.Get("X-RateLimit-Used"))
				}
			}
			// Rendered views spend the rest; past it, rendering is refused
			// and kept pages are still served.
			for i, path := range []string{"/guides/installation", "/no/such/page"} {
				p := get(t, e, url+path, "")
				if used := p.Header.Get("X-RateLimit-Used"); used != fmt.Sprint(i+2) {
					t.Errorf("%s: X-RateLimit-Used %q, want %d", path, used, i+2)
				}
			}
			if p := get(t, e, url+"/guides/installation/on-linux", ""); p.Status != http.StatusTooManyRequests || p.Header.Get("Retry-After") == "" {
				t.Errorf("a page to render over the budget: %d, want 429 with Retry-After", p.Status)
			}
			if p := get(t, e, url+"/welcome", ""); p.Status != http.StatusOK {
				t.Errorf("a kept page over the budget: %d, want 200", p.Status)
			}
		})
	}
}
