package graphiql

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func get(t *testing.T, h http.Handler, target string, header map[string]string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPage(t *testing.T) {
	res := get(t, Handler("Quire <API>"), "/graphql", map[string]string{"Accept": "text/html"})
	html := body(t, res)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	if ct := res.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if cc := res.Header.Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("Cache-Control %q", cc)
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "connect-src 'self'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	if !strings.Contains(html, "<title>Quire &lt;API&gt;</title>") {
		t.Errorf("title not escaped into the page:\n%s", html)
	}
	if !strings.Contains(html, `data-endpoint="/graphql"`) {
		t.Errorf("endpoint missing:\n%s", html)
	}
	// Only local URLs: no absolute http(s) URL anywhere, no protocol-relative one.
	if m := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+`).FindAllString(html, -1); len(m) > 0 {
		t.Errorf("page references other origins: %q", m)
	}
	for _, name := range []string{"graphiql.js", "graphiql.css"} {
		if !strings.Contains(html, `"`+AssetURL(name)+`"`) {
			t.Errorf("page does not reference %s", AssetURL(name))
		}
	}
	// Every src/href is a path on this origin or a data: URL.
	for _, m := range regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(html, -1) {
		if u := m[1]; !(strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//")) && !strings.HasPrefix(u, "data:") {
			t.Errorf("non-local URL %q", u)
		}
	}

	res = get(t, Handler(""), "/api/graphql", nil)
	if html := body(t, res); !strings.Contains(html, `data-endpoint="/api/graphql"`) || !strings.Contains(html, "<title>GraphiQL</title>") {
		t.Errorf("page at another path:\n%s", html)
	}

	req := httptest.NewRequest(http.MethodPost, "/graphql", nil)
	rec := httptest.NewRecorder()
	Handler("x").ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: status %d", rec.Code)
	}
}

func TestAssets(t *testing.T) {
	h := AssetsHandler()
	min := map[string]int{"graphiql.js": 500 << 10, "graphiql.css": 50 << 10}
	types := map[string]string{"graphiql.js": "text/javascript; charset=utf-8", "graphiql.css": "text/css; charset=utf-8"}
	for name, size := range min {
		res := get(t, h, AssetURL(name), nil)
		b := body(t, res)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", name, res.StatusCode)
		}
		if len(b) < size {
			t.Errorf("%s: %d bytes, want at least %d", name, len(b), size)
		}
		if ct := res.Header.Get("Content-Type"); ct != types[name] {
			t.Errorf("%s: Content-Type %q", name, ct)
		}
		if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
			t.Errorf("%s: versioned URL Cache-Control %q", name, cc)
		}
		etag := res.Header.Get("ETag")
		if etag == "" {
			t.Errorf("%s: no ETag", name)
		}

		// Unversioned: revalidate; conditional request gets 304.
		res = get(t, h, AssetsPrefix+name, nil)
		if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "no-cache") {
			t.Errorf("%s: unversioned Cache-Control %q", name, cc)
		}
		res = get(t, h, AssetsPrefix+name, map[string]string{"If-None-Match": etag})
		if res.StatusCode != http.StatusNotModified {
			t.Errorf("%s: If-None-Match status %d", name, res.StatusCode)
		}

		// Gzip for clients that accept it, same bytes once inflated.
		res = get(t, h, AssetURL(name), map[string]string{"Accept-Encoding": "gzip, br"})
		if res.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: Content-Encoding %q", name, res.Header.Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(plain, []byte(b)) {
			t.Errorf("%s: gzipped body differs", name)
		}
		if res.Header.Get("ETag") == etag {
			t.Errorf("%s: gzip variant shares the ETag", name)
		}
	}

	if res := get(t, h, AssetsPrefix+"nope.js", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("missing asset: status %d", res.StatusCode)
	}
	if res := get(t, h, AssetsPrefix+"../index.html", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("traversal: status %d", res.StatusCode)
	}
}

// The bundle must not fetch anything from another origin at run time: no
// stylesheet imports or url() that leave the page, fonts inlined.
func TestAssetsAreSelfContained(t *testing.T) {
	css := string(assets["graphiql.css"].data)
	if strings.Contains(css, "@import") {
		t.Error("graphiql.css has an @import")
	}
	for _, m := range regexp.MustCompile(`url\(\s*['"]?([^'")]*)`).FindAllStringSubmatch(css, -1) {
		if !strings.HasPrefix(m[1], "data:") && !strings.HasPrefix(m[1], "#") {
			t.Errorf("graphiql.css loads %q", m[1])
		}
	}
	js := string(assets["graphiql.js"].data)
	for _, bad := range []string{"fonts.googleapis.com", "fonts.gstatic.com", "cdn.jsdelivr.net", "unpkg.com", "cdnjs.cloudflare.com", "esm.sh"} {
		if strings.Contains(js, bad) || strings.Contains(css, bad) {
			t.Errorf("bundle mentions %s", bad)
		}
	}
}

func TestWantsHTML(t *testing.T) {
	cases := []struct {
		method, accept string
		want           bool
	}{
		{"GET", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", true},
		{"GET", "TEXT/HTML", true},
		{"GET", "application/json", false},
		{"GET", "*/*", false},
		{"GET", "", false},
		{"GET", "text/html;q=0", false},
		{"GET", "application/json, text/html;q=0.1", true},
		{"POST", "text/html", false},
		{"HEAD", "text/html", false},
	}
	for _, c := range cases {
		r := httptest.NewRequest(c.method, "/graphql", nil)
		if c.accept != "" {
			r.Header.Set("Accept", c.accept)
		}
		if got := WantsHTML(r); got != c.want {
			t.Errorf("%s Accept %q: got %v", c.method, c.accept, got)
		}
	}
}

func TestMiddleware(t *testing.T) {
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
	})
	h := Middleware("Quire", api)
	if res := get(t, h, "/graphql", map[string]string{"Accept": "text/html,*/*;q=0.8"}); res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Errorf("browser: status %d, %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if res := get(t, h, "/graphql?query=%7B__typename%7D", map[string]string{"Accept": "application/json"}); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("API client: status %d", res.StatusCode)
	}
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{"query":"{__typename}"}`))
	req.Header.Set("Accept", "text/html")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusUnauthorized {
		t.Errorf("POST: status %d", rec.Code)
	}
}
