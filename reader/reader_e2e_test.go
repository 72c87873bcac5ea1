package reader_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/ids"
	"quire/internal/testing/testenv"
	"quire/internal/types"
)

// guide seeds a space as a reader would browse it: a first page, a group
// with two pages (one a child of the other), a hidden page, a page kept
// out of robots' indexes and a link page. It returns the ids by title.
func guide(t *testing.T, e *testenv.Env, team *testenv.Team, sp string) map[string]string {
	t.Helper()
	md := func(s string) *string { return &s }
	group, install := ids.New(ids.Page), ids.New(ids.Page)
	got := seedPages(t, e, team, sp,
		&content.CreatePage{Title: "Welcome", Description: "Start here.", Markdown: md("Hello **readers**.\n\n## First steps\n\nRead on.\n\n## Next steps\n\nMore.\n")},
		&content.CreatePage{ID: group, Type: "group", Title: "Guides"},
		&content.CreatePage{ID: install, Parent: group, Title: "Installation", LinkTitle: "Install", Markdown: md("Run `quire serve`.\n\n```go\nfunc main() {}\n```\n")},
		&content.CreatePage{Parent: install, Title: "On Linux", Markdown: md("Use the binary. See [the welcome](#first-steps).\n")},
		&content.CreatePage{Title: "Secret", Hidden: true, Markdown: md("Reachable by URL only.\n")},
		&content.CreatePage{Title: "Private notes", NoRobotsIndex: true, Markdown: md("Not for robots.\n"),
			MetaLinks: &types.PageMetaLinks{Canonical: &document.ContentRef{Kind: "url", URL: "https://example.com/notes"}}},
		&content.CreatePage{Type: "link", Title: "Website", Link: &document.ContentRef{Kind: "url", URL: "https://example.com/"}},
	)
	titles := []string{"Welcome", "Guides", "Installation", "On Linux", "Secret", "Private notes", "Website"}
	out := map[string]string{}
	for i, title := range titles {
		out[title] = got[i]
	}
	return out
}

// A published public site answers at its urls.published: the first page
// at the root, every page at its path, with the site's navigation.
func TestPublicSite(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		sp := space(t, e, team, "Handbook")
		guide(t, e, team, sp)
		_, url := site(t, e, team, "Acme docs", "public", sp)
		if !strings.HasPrefix(url, e.URL+"/s/"+team.Org.ID+"/") {
			t.Fatalf("published URL %q", url)
		}

		home := get(t, e, url, "")
		if home.Status != http.StatusOK || !strings.HasPrefix(home.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("home: %d %s: %s", home.Status, home.Header.Get("Content-Type"), home.Body)
		}
		d := home.doc(t)
		h1 := find(d, func(n *html.Node) bool { return n.Data == "h1" })
		if len(h1) != 1 || text(h1[0]) != "Welcome" {
			t.Fatalf("the root shows the first page: h1 %v", h1)
		}
		if !strings.Contains(home.Body, "<strong>readers</strong>") {
			t.Errorf("content not rendered: %s", home.Body)
		}
		links := hrefs(d, nil)
		for _, want := range []string{url + "/guides/installation", url + "/private-notes", "https://example.com/"} {
			if !has(links, want) {
				t.Errorf("navigation lacks %s: %v", want, links)
			}
		}
		if has(links, url+"/secret") {
			t.Errorf("the hidden page is in the navigation: %v", links)
		}
		if ids := find(d, func(n *html.Node) bool { return attr(n, "id") == "first-steps" }); len(ids) != 1 {
			t.Errorf("heading anchor first-steps: %d elements", len(ids))
		}
		for h, want := range map[string]string{
			"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Cache-Control": "public, max-age=60",
		} {
			if got := home.Header.Get(h); got != want {
				t.Errorf("%s = %q, want %q", h, got, want)
			}
		}
		if csp := home.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") {
			t.Errorf("CSP %q", csp)
		}
		if home.Header.Get("X-Robots-Tag") != "" {
			t.Errorf("a public page is noindex: %q", home.Header.Get("X-Robots-Tag"))
		}

		inst := get(t, e, url+"/guides/installation", "")
		if inst.Status != http.StatusOK {
			t.Fatalf("page: %d", inst.Status)
		}
		di := inst.doc(t)
		if cur := find(di, func(n *html.Node) bool { return attr(n, "aria-current") == "page" }); len(cur) != 1 || attr(cur[0], "href") != url+"/guides/installation" {
			t.Errorf("current page in the sidebar: %v", cur)
		}
		// The sidebar opens the branch of the page shown.
		if !has(hrefs(di, nil), url+"/guides/installation/on-linux") || has(links, url+"/guides/installation/on-linux") {
			t.Errorf("the child of the page shown is listed on its page only")
		}
		if !has(hrefs(di, func(n *html.Node) bool { return attr(n, "rel") == "next" }), url+"/guides/installation/on-linux") {
			t.Errorf("next link: %v", hrefs(di, nil))
		}
		if !has(hrefs(di, func(n *html.Node) bool { return attr(n, "rel") == "prev" }), url+"/welcome") {
			t.Errorf("prev link: %v", hrefs(di, nil))
		}
		if !strings.Contains(inst.Body, `class="chroma`) {
			t.Errorf("code block not highlighted")
		}

		if s := get(t, e, url+"/secret", ""); s.Status != http.StatusOK || !strings.Contains(s.Body, "Reachable by URL only") {
			t.Errorf("hidden page by URL: %d", s.Status)
		}
		notes := get(t, e, url+"/private-notes", "")
		if notes.Status != http.StatusOK || notes.Header.Get("X-Robots-Tag") != "noindex" || !strings.Contains(notes.Body, `content="noindex"`) {
			t.Errorf("noRobotsIndex page: %d %q", notes.Status, notes.Header.Get("X-Robots-Tag"))
		}
		if !strings.Contains(notes.Body, `href="https://example.com/notes"`) {
			t.Errorf("canonical link of the page's metaLinks missing")
		}
		if g := get(t, e, url+"/guides", ""); g.Status != http.StatusFound || g.Header.Get("Location") != url+"/guides/installation" {
			t.Errorf("group: %d %q", g.Status, g.Header.Get("Location"))
		}
		if w := get(t, e, url+"/website", ""); w.Status != http.StatusFound || w.Header.Get("Location") != "https://example.com/" {
			t.Errorf("link page: %d %q", w.Status, w.Header.Get("Location"))
		}

		missing := get(t, e, url+"/no/such/page", "")
		if missing.Status != http.StatusNotFound || !strings.Contains(missing.Body, `action="`+url+`/~search"`) {
			t.Errorf("unknown path: %d, search box: %v", missing.Status, strings.Contains(missing.Body, "~search"))
		}
	})
}

// Answers are cached by ETag, compressed when the reader accepts it.
func TestCaching(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		sp := space(t, e, team, "Handbook")
		pages := guide(t, e, team, sp)
		_, url := site(t, e, team, "Acme docs", "public", sp)
		first := get(t, e, url, "", "Accept-Encoding", "gzip")
		etag := first.Header.Get("ETag")
		if first.Status != http.StatusOK || etag == "" || first.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("first: %d etag %q encoding %q", first.Status, etag, first.Header.Get("Content-Encoding"))
		}
		if again := get(t, e, url, "", "If-None-Match", etag); again.Status != http.StatusNotModified || again.Body != "" {
			t.Fatalf("revalidation: %d", again.Status)
		}
		// A change to the page changes the tag.
		md := "Changed.\n"
		seedPages(t, e, team, sp, &content.CreatePage{Title: "Zeroth", Markdown: &md, Position: &content.Position{Before: pages["Welcome"]}})
		if after := get(t, e, url, "", "If-None-Match", etag); after.Status != http.StatusOK || after.Header.Get("ETag") == etag {
			t.Fatalf("after an edit: %d %q", after.Status, after.Header.Get("ETag"))
		}
		if plain := get(t, e, url, "", "Accept-Encoding", "gzip;q=0"); plain.Header.Get("Content-Encoding") != "" {
			t.Fatalf("gzip refused with q=0 yet sent")
		}
	})
}

// robots.txt, sitemap.xml, llms.txt and pages as Markdown follow the
// site's visibility and agentsContext.
func TestAgentsAndRobots(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		sp := space(t, e, team, "Handbook")
		guide(t, e, team, sp)
		id, url := site(t, e, team, "Acme docs", "public", sp)

		robots := get(t, e, url+"/robots.txt", "")
		if robots.Status != http.StatusOK || !strings.Contains(robots.Body, "Allow: /") || !strings.Contains(robots.Body, "Sitemap: "+url+"/sitemap.xml") {
			t.Fatalf("robots.txt of a public site: %d %s", robots.Status, robots.Body)
		}
		sm := get(t, e, url+"/sitemap.xml", "")
		if sm.Status != http.StatusOK || !strings.Contains(sm.Body, "<loc>"+url+"/guides/installation</loc>") ||
			strings.Contains(sm.Body, "private-notes") || strings.Contains(sm.Body, "/secret") {
			t.Fatalf("sitemap: %d %s", sm.Status, sm.Body)
		}
		llms := get(t, e, url+"/llms.txt", "")
		if llms.Status != http.StatusOK || !strings.Contains(llms.Body, "- [Installation]("+url+"/guides/installation.md)") {
			t.Fatalf("llms.txt: %d %s", llms.Status, llms.Body)
		}
		full := get(t, e, url+"/llms-full.txt", "")
		if full.Status != http.StatusOK || !strings.Contains(full.Body, "Run `quire serve`.") {
			t.Fatalf("llms-full.txt: %d %s", full.Status, full.Body)
		}
		md := get(t, e, url+"/guides/installation.md", "")
		if md.Status != http.StatusOK || !strings.HasPrefix(md.Header.Get("Content-Type"), "text/markdown") || !strings.HasPrefix(md.Body, "# Installation\n") {
			t.Fatalf("page as Markdown: %d %q %s", md.Status, md.Header.Get("Content-Type"), md.Body)
		}

		rest(t, e, team.Admin.Token, "PATCH", "/v1/orgs/"+team.Org.ID+"/sites/"+id, map[string]any{"agentsContext": "excluded", "visibility": "unlisted"}, http.StatusOK)
		for _, p := range []string{"/llms.txt", "/llms-full.txt", "/guides/installation.md", "/sitemap.xml"} {
			if got := get(t, e, url+p, ""); got.Status != http.StatusNotFound {
				t.Errorf("%s with agents excluded on an unlisted site: %d", p, got.Status)
			}
		}
		robots = get(t, e, url+"/robots.txt", "")
		if !strings.Contains(robots.Body, "User-agent: GPTBot\nDisallow: /") || !strings.Contains(robots.Body, "User-agent: *\nDisallow: /") {
			t.Fatalf("robots.txt of an unlisted site excluding agents: %s", robots.Body)
		}
		home := get(t, e, url, "")
		if home.Status != http.StatusOK || home.Header.Get("X-Robots-Tag") != "noindex" {
			t.Fatalf("unlisted home: %d %q", home.Status, home.Header.Get("X-Robots-Tag"))
		}
	})
}

// The search page finds the site's pages, as HTML and as JSON.
func TestSearch(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		sp := space(t, e, team, "Handbook")
		guide(t, e, team, sp)
		other := space(t, e, team, "Unpublished")
		md := "The binary lives elsewhere.\n"
		seedPages(t, e, team, other, &content.CreatePage{Title: "Elsewhere", Markdown: &md})
		_, url := site(t, e, team, "Acme docs", "public", sp)

		res := get(t, e, url+"/~search?q=binary", "")
		if res.Status != http.StatusOK {
			t.Fatalf("search: %d", res.Status)
		}
		found := hrefs(res.doc(t), func(n *html.Node) bool { return strings.HasPrefix(attr(n, "href"), url+"/guides") })
		if len(found) != 1 || !strings.HasPrefix(found[0], url+"/guides/installation/on-linux") {
			t.Fatalf("results: %v", found)
		}
		if strings.Contains(res.Body, "Elsewhere") {
			t.Fatalf("a space the site does not serve was searched")
		}
		if !strings.Contains(res.Body, "<mark>binary</mark>") {
			t.Errorf("excerpt without the match marked")
		}
		js := get(t, e, url+"/~search?q=binary&format=json", "")
		var out struct {
			Results []struct{ Title, Href, Excerpt string }
		}
		if err := json.Unmarshal([]byte(js.Body), &out); err != nil || len(out.Results) != 1 || out.Results[0].Title != "On Linux" {
			t.Fatalf("JSON results: %v %s", err, js.Body)
		}
		long := get(t, e, url+"/~search?format=json&q="+strings.Repeat("a", 600), "")
		if long.Status != http.StatusBadRequest {
			t.Fatalf("a query too long: %d %s", long.Status, long.Body)
		}
	})
}
