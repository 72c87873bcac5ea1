package openapispec

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// files serves a specification's files; a path missing is 404.
func serveFiles(t *testing.T, files map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func read(t *testing.T, f *fetcher, root string, text string) (*collection, error) {
	t.Helper()
	var u *url.URL
	if root != "" {
		var err error
		if u, err = url.Parse(root); err != nil {
			t.Fatal(err)
		}
	}
	var body []byte
	if root == "" {
		body = []byte(text)
	}
	c, err := collect(context.Background(), f.get, u, body, func(int, string) error { return nil })
	if err != nil {
		return nil, err
	}
	if len(c.issues) == 0 && c.checkVersion() {
		c.validate(context.Background())
	}
	return c, nil
}

func privateFetcher() *fetcher {
	return newFetcher(Config{FetchPrivate: true, FetchTimeout: 5 * time.Second})
}

const petRoot = `openapi: 3.0.3
info:
  title: Pets
  version: "1.0"
paths:
  /pets:
    get:
      responses:
        "200":
          description: The pets
          content:
            application/json:
              schema:
                $ref: "./schemas/pet.yaml#/Pet"
        default:
          description: An error
          content:
            application/json:
              schema:
                $ref: "../common/errors.yaml#/Error"
`

func TestCollectFilesAndKeys(t *testing.T) {
	srv := serveFiles(t, map[string]string{
		"/api/v1/openapi.yaml":      petRoot,
		"/api/v1/schemas/pet.yaml":  "Pet:\n  type: object\n  properties:\n    name: {type: string}\n    owner: {$ref: '#/Owner'}\nOwner:\n  type: object\n  properties:\n    pets: {type: array, items: {$ref: '#/Pet'}}\n",
		"/api/common/errors.yaml":   "Error:\n  type: object\n  properties:\n    message: {type: string}\n",
		"/api/v1/schemas/extra.yml": "unused: true\n",
	})
	c, err := read(t, privateFetcher(), srv.URL+"/api/v1/openapi.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	if errs := c.errors(); len(errs) > 0 {
		t.Fatalf("errors: %+v", errs)
	}
	files, root := c.filesystem()
	if root != "v1/openapi.yaml" {
		t.Errorf("root = %q", root)
	}
	want := []string{"v1/openapi.yaml", "v1/schemas/pet.yaml", "common/errors.yaml"}
	if len(files) != len(want) {
		t.Errorf("files = %v", keysOf(files))
	}
	for _, k := range want {
		if files[k] == "" {
			t.Errorf("no file %q in %v", k, keysOf(files))
		}
	}
}

func keysOf(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestParseErrorsSayWhereAndWhat(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
	}{
		{"yaml", "openapi: 3.0.3\ninfo:\n  title: x\n   version: 1\n", []string{"openapi.yaml:4:1: invalid YAML: mapping values are not allowed"}},
		{"json", "{\n  \"openapi\": \"3.1.0\",\n  \"info\": {,}\n}", []string{"openapi.json:3:", "invalid JSON"}},
		{"swagger", "swagger: \"2.0\"\ninfo: {title: x, version: \"1\"}\npaths: {}\n", []string{"openapi.yaml:1:1", "Swagger 2.0"}},
		{"no version", "info: {title: x, version: \"1\"}\npaths: {}\n", []string{"no openapi field"}},
		{"version", "openapi: 4.0.0\ninfo: {title: x, version: \"1\"}\npaths: {}\n", []string{"openapi.yaml:1:10", "4.0.0"}},
		{"pointer", "openapi: 3.1.0\ninfo: {title: x, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n    A:\n      $ref: '#/components/schemas/B'\n", []string{"openapi.yaml:7:13", `"#/components/schemas/B"`, `/components/schemas has no "B"`}},
		{"relative", "openapi: 3.1.0\ninfo: {title: x, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n    A:\n      $ref: './b.yaml'\n", []string{"openapi.yaml:7:13", "relative"}},
		{"schema", "openapi: 3.0.3\ninfo:\n  title: x\npaths: {}\n", []string{"openapi.yaml:", "/info", "version"}},
		{"scheme", "openapi: 3.1.0\ninfo: {title: x, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n    A:\n      $ref: 'file:///etc/passwd'\n", []string{"file:", "only http and https"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := read(t, privateFetcher(), "", tc.text)
			if err != nil {
				t.Fatal(err)
			}
			errs := c.errors()
			if len(errs) == 0 {
				t.Fatalf("no error for %q", tc.text)
			}
			for _, w := range tc.want {
				if !strings.Contains(errs[0].Message, w) {
					t.Errorf("error %q lacks %q (all: %+v)", errs[0].Message, w, errs)
				}
			}
		})
	}
}

func TestValidSpecsOf30And31(t *testing.T) {
	for _, text := range []string{
		"openapi: 3.0.3\ninfo: {title: x, version: \"1\"}\npaths: {}\n",
		`{"openapi": "3.1.0", "info": {"title": "x", "version": "1"}, "paths": {}, "components": {"schemas": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/components/schemas/Node"}}}}}}`,
	} {
		c, err := read(t, privateFetcher(), "", text)
		if err != nil {
			t.Fatal(err)
		}
		if errs := c.errors(); len(errs) > 0 {
			t.Errorf("%s: %+v", text, errs)
		}
	}
}

func TestBrokenExternalPointer(t *testing.T) {
	srv := serveFiles(t, map[string]string{
		"/openapi.yaml": "openapi: 3.1.0\ninfo: {title: x, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n    A:\n      $ref: 'models.yaml#/Missing'\n",
		"/models.yaml":  "Present: {type: string}\n",
	})
	c, err := read(t, privateFetcher(), srv.URL+"/openapi.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	errs := c.errors()
	if len(errs) == 0 || !strings.Contains(errs[0].Message, `openapi.yaml:7:13: $ref "models.yaml#/Missing" points at nothing: the document has no "Missing" in models.yaml`) {
		t.Fatalf("errors: %+v", errs)
	}
}

func TestFetchFailures(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/missing":
			http.NotFound(w, r)
		case "/broken":
			w.WriteHeader(http.StatusBadGateway)
		case "/slow":
			select {
			case <-release:
			case <-r.Context().Done():
			}
		case "/huge":
			w.Write([]byte("a: " + strings.Repeat("x", MaxFileBytes)))
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/many":
			var b strings.Builder
			b.WriteString("openapi: 3.1.0\ninfo: {title: x, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n")
			for i := 0; i < MaxFiles+1; i++ {
				b.WriteString("    S" + itoa(i) + ": {$ref: 'f" + itoa(i) + ".yaml'}\n")
			}
			w.Write([]byte(b.String()))
		default:
			w.Write([]byte("type: string\n"))
		}
	}))
	t.Cleanup(srv.Close)
	f := newFetcher(Config{FetchPrivate: true, FetchTimeout: 300 * time.Millisecond})
	cases := []struct {
		path, code, want string
		transient        bool
	}{
		{"/missing", CodeFetchError, "answered 404", false},
		{"/broken", CodeFetchError, "answered 502", true},
		{"/slow", CodeFetchTimeout, "no complete answer within 300ms", true},
		{"/huge", CodeFetchError, "larger than 5 MiB", false},
		{"/loop", CodeFetchError, "more than 5 redirects", false},
		{"/many", CodeFetchError, "more than 100 files", false},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			_, err := read(t, f, srv.URL+tc.path, "")
			var fe *fetchError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v, want a fetch error", err)
			}
			if fe.code != tc.code || fe.transient != tc.transient || !strings.Contains(fe.Error(), tc.want) {
				t.Errorf("got %s %v %q, want %s %v %q", fe.code, fe.transient, fe.Error(), tc.code, tc.transient, tc.want)
			}
		})
	}
}

func itoa(i int) string {
	return string(rune('0'+i%10)) + strings.Repeat("x", i/10)
}

// A server on loopback is inside: without FetchPrivate it is refused
// when connecting, whatever name led there.
func TestInsideAddressesRefused(t *testing.T) {
	srv := serveFiles(t, map[string]string{"/openapi.yaml": "openapi: 3.1.0\n"})
	f := newFetcher(Config{FetchTimeout: 5 * time.Second})
	u, _ := url.Parse(srv.URL)
	for _, host := range []string{u.Host, "localhost:" + u.Port()} {
		_, err := read(t, f, "http://"+host+"/openapi.yaml", "")
		var fe *fetchError
		if !errors.As(err, &fe) || fe.transient || !strings.Contains(fe.Error(), "--openapi-fetch-private") {
			t.Errorf("%s: error %v, want a permanent refusal naming the flag", host, err)
		}
	}
}
