package view

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func get(t *testing.T, h http.Handler, method, path string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(method, path, nil))
	return w
}

func TestAssets(t *testing.T) {
	h := Assets()
	for logical, ctype := range map[string]string{
		"reader.css":  "text/css; charset=utf-8",
		"reader.js":   "text/javascript; charset=utf-8",
		"favicon.svg": "image/svg+xml",
	} {
		name := AssetName(logical)
		if name == "" || name == logical {
			t.Fatalf("%s has no hashed name (%q)", logical, name)
		}
		w := get(t, h, "GET", "/"+name)
		if w.Code != 200 {
			t.Fatalf("GET %s: %d", name, w.Code)
		}
		for k, want := range map[string]string{
			"Content-Type":           ctype,
			"Cache-Control":          "public, max-age=31536000, immutable",
			"X-Content-Type-Options": "nosniff",
		} {
			if got := w.Header().Get(k); got != want {
				t.Errorf("%s %s: %q, want %q", name, k, got, want)
			}
		}
		body, _ := assetFS.ReadFile("assets/" + logical)
		if w.Body.String() != string(body) {
			t.Errorf("%s: body differs from the embedded file", name)
		}
	}
	for _, p := range []string{"/reader.css", "/reader-0000000000000000.css", "/", "/../view.go", "/assets/reader.css"} {
		if w := get(t, h, "GET", p); w.Code != 404 {
			t.Errorf("GET %s: %d, want 404", p, w.Code)
		}
	}
	if w := get(t, h, "POST", "/"+AssetName("reader.css")); w.Code != 405 {
		t.Errorf("POST: %d, want 405", w.Code)
	}
	if AssetName("nope.css") != "" {
		t.Error("an unknown asset has a name")
	}
}

func TestThemeHandler(t *testing.T) {
	css := ThemeCSS(nil)
	w := get(t, ThemeHandler(css), "GET", "/"+ThemeName(css))
	if w.Code != 200 || w.Body.String() != string(css) || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/css") ||
		w.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Errorf("theme: %d %v", w.Code, w.Header())
	}
}

// The reader is checked by Lighthouse; these budgets keep the one
// render-blocking stylesheet and the script small.
func TestAssetBudgets(t *testing.T) {
	for name, max := range map[string]int{"reader.css": 20 << 10, "reader.js": 8 << 10, "favicon.svg": 2 << 10} {
		b, err := assetFS.ReadFile("assets/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > max {
			t.Errorf("%s is %d bytes, budget %d", name, len(b), max)
		}
	}
}

// The script must keep working under the reader's CSP (no eval) and never
// turn server text into markup.
func TestScriptAvoidsMarkupAndEval(t *testing.T) {
	js, _ := assetFS.ReadFile("assets/reader.js")
	for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "DOMParser"} {
		if strings.Contains(string(js), bad) {
			t.Errorf("reader.js uses %s", bad)
		}
	}
}

func TestScriptNamesThemeCookie(t *testing.T) {
	js, _ := assetFS.ReadFile("assets/reader.js")
	if !strings.Contains(string(js), `KEY = "`+ThemeCookie+`"`) {
		t.Errorf("reader.js does not store the theme under %q", ThemeCookie)
	}
}
