package rest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/internal/jobs"
	"quire/internal/openapispec"
	"quire/internal/testing/testenv"
)

// specFx is the cast of the OpenAPI specification tests: a team whose
// server works jobs, and an HTTP server of specification files.
type specFx struct {
	e     *testenv.Env
	team  *testenv.Team
	tok   string
	org   string
	files *specFiles
}

// specFiles serves files by path; tests change them as they go.
type specFiles struct {
	mu    sync.Mutex
	files map[string]string
	hits  map[string]int
	srv   *httptest.Server
}

func (f *specFiles) set(path, body string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.files[path] = body
}

func (f *specFiles) url(path string) string { return f.srv.URL + path }

func newSpecFx(t *testing.T, e *testenv.Env) *specFx {
	t.Helper()
	files := &specFiles{files: map[string]string{}, hits: map[string]int{}}
	files.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		files.mu.Lock()
		body, ok := files.files[r.URL.Path]
		files.hits[r.URL.Path]++
		files.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(body))
	}))
	t.Cleanup(files.srv.Close)
	team := e.NewTeamOnce()
	e.StartJobs()
	return &specFx{e: e, team: team, tok: team.Admin.Token, org: team.Org.ID, files: files}
}

func (f *specFx) base() string                  { return "/v1/orgs/" + f.org + "/openapi" }
func (f *specFx) path(slug string) string       { return f.base() + "/" + slug }
func (f *specFx) gone(slug string) string       { return f.path(slug) + "/versions/latest" }
func specStr(v map[string]any, k ...any) string { s, _ := testenv.Path(v, k...).(string); return s }

func (f *specFx) do(t *testing.T, method, path string, body any, want int) map[string]any {
	t.Helper()
	r := f.e.Do(f.tok, method, path, body)
	if r.Status != want {
		t.Fatalf("%s %s → %d %s, want %d", method, path, r.Status, r.Body, want)
	}
	return r.JSON()
}

// settle waits for the newest processing job of a specification to end,
// and returns the specification as REST presents it then.
func (f *specFx) settle(t *testing.T, slug string) map[string]any {
	t.Helper()
	sp := f.do(t, "GET", f.path(slug), nil, 200)
	in, err := f.e.Server.Jobs().Latest(context.Background(), openapispec.Subject(specStr(sp, "id")))
	if err != nil {
		t.Fatalf("job of %s: %v", slug, err)
	}
	f.e.WaitJob(in.ID)
	return f.do(t, "GET", f.path(slug), nil, 200)
}

func wantErr(t *testing.T, r *testenv.Response, status int, contains, what string) {
	t.Helper()
	if r.Status != status {
		t.Errorf("%s: status %d %s, want %d", what, r.Status, r.Body, status)
		return
	}
	msg, _ := testenv.Path(r.JSON(), "error", "message").(string)
	if code, _ := testenv.Path(r.JSON(), "error", "code").(float64); int(code) != status {
		t.Errorf("%s: error body %s", what, r.Body)
	}
	if !strings.Contains(msg, contains) {
		t.Errorf("%s: message %q lacks %q", what, msg, contains)
	}
}

const petstore = `openapi: 3.0.3
info:
  title: Petstore
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
`

func TestOpenAPISpecLifecycle(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := newSpecFx(t, e)
		f.files.set("/api/openapi.yaml", petstore)
		f.files.set("/api/schemas/pet.yaml", "Pet:\n  type: object\n  properties:\n    name: {type: string}\n")

		// Create from a URL: pending at once, complete once its job ran.
		r := e.Do(f.tok, "POST", f.base(), map[string]any{"slug": "Petstore-v1", "source": map[string]any{"url": f.files.url("/api/openapi.yaml")}})
		if r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		sp := r.JSON()
		if sp["object"] != "openapi-spec" || sp["slug"] != "Petstore-v1" || sp["processingState"] != "pending" || sp["visibility"] != "private" ||
			sp["sourceURL"] != f.files.url("/api/openapi.yaml") || sp["lastVersion"] != nil {
			t.Errorf("created: %v", sp)
		}
		if testenv.Path(sp, "permissions", "view") != true || testenv.Path(sp, "permissions", "edit") != true {
			t.Errorf("permissions of the admin: %v", sp["permissions"])
		}
		if specStr(sp, "urls", "location") != e.URL+f.path("Petstore-v1") || r.Header.Get("Location") != specStr(sp, "urls", "location") || specStr(sp, "urls", "published") != "" {
			t.Errorf("urls %v, Location %q", sp["urls"], r.Header.Get("Location"))
		}
		sp = f.settle(t, "Petstore-v1")
		if sp["processingState"] != "complete" || sp["lastVersion"] == nil || sp["lastProcessErrorCode"] != nil || sp["lastProcessedAt"] == nil {
			t.Fatalf("processed: %v", sp)
		}
		v1 := specStr(sp, "lastVersion")

		// The version and its files.
		latest := f.do(t, "GET", f.path("Petstore-v1")+"/versions/latest", nil, 200)
		if latest["id"] != v1 || latest["object"] != "openapi-spec-version" || specStr(latest, "urls", "location") != e.URL+f.path("Petstore-v1")+"/versions/"+v1 {
			t.Errorf("latest: %v", latest)
		}
		byID := f.do(t, "GET", f.path("Petstore-v1")+"/versions/"+v1, nil, 200)
		if byID["id"] != v1 || byID["createdAt"] != latest["createdAt"] {
			t.Errorf("by id: %v", byID)
		}
		content := f.do(t, "GET", f.path("Petstore-v1")+"/versions/latest/content", nil, 200)
		fs, _ := content["filesystem"].(map[string]any)
		if fs["openapi.yaml"] != petstore || !strings.Contains(fs["schemas/pet.yaml"].(string), "Pet:") || len(fs) != 2 {
			t.Errorf("filesystem: %v", fs)
		}
		same := f.do(t, "GET", f.path("Petstore-v1")+"/versions/"+v1+"/content", nil, 200)
		if testenv.Path(same, "filesystem", "openapi.yaml") != petstore {
			t.Errorf("content by id: %v", same)
		}
		// The version's URL serves the root file without a token, and
		// the file it references beside it.
		root := getRaw(t, specStr(content, "url"))
		if root.status != 200 || root.body != petstore {
			t.Errorf("version url %s: %d %q", specStr(content, "url"), root.status, root.body)
		}
		if pet := getRaw(t, strings.Replace(specStr(content, "url"), "openapi.yaml", "schemas/pet.yaml", 1)); pet.status != 200 || !strings.Contains(pet.body, "Pet:") {
			t.Errorf("referenced file: %d %q", pet.status, pet.body)
		}

		// PUT with the same source fetches again; unchanged content makes
		// no version.
		hits := f.files.hit("/api/openapi.yaml")
		put := e.Do(f.tok, "PUT", f.path("Petstore-v1"), map[string]any{"source": map[string]any{"url": f.files.url("/api/openapi.yaml")}})
		if put.Status != 200 || put.JSON()["processingState"] != "pending" {
			t.Fatalf("put existing: %d %s", put.Status, put.Body)
		}
		sp = f.settle(t, "Petstore-v1")
		if f.files.hit("/api/openapi.yaml") != hits+1 || sp["lastVersion"] != v1 || sp["processingState"] != "complete" {
			t.Errorf("unchanged: hits %d→%d, spec %v", hits, f.files.hit("/api/openapi.yaml"), sp)
		}
		if l := f.do(t, "GET", f.path("Petstore-v1")+"/versions", nil, 200); l["count"] != 1.0 {
			t.Errorf("versions after an unchanged processing: %v", l)
		}
		// Changed content in a referenced file makes a version.
		f.files.set("/api/schemas/pet.yaml", "Pet:\n  type: object\n  properties:\n    name: {type: string}\n    age: {type: integer}\n")
		f.do(t, "PUT", f.path("Petstore-v1"), map[string]any{"source": map[string]any{"url": f.files.url("/api/openapi.yaml")}}, 200)
		sp = f.settle(t, "Petstore-v1")
		v2 := specStr(sp, "lastVersion")
		if v2 == "" || v2 == v1 {
			t.Fatalf("changed content: lastVersion %q (was %q)", v2, v1)
		}
		l := f.do(t, "GET", f.path("Petstore-v1")+"/versions", nil, 200)
		if l["count"] != 2.0 || testenv.Path(l, "items", 0, "id") != v2 || testenv.Path(l, "items", 1, "id") != v1 {
			t.Errorf("versions, newest first: %v", l)
		}
		page := f.do(t, "GET", f.path("Petstore-v1")+"/versions?limit=1", nil, 200)
		next := specStr(page, "next", "page")
		if testenv.Path(page, "items", 0, "id") != v2 || next == "" {
			t.Fatalf("first page: %v", page)
		}
		if p2 := f.do(t, "GET", f.path("Petstore-v1")+"/versions?limit=1&page="+next, nil, 200); testenv.Path(p2, "items", 0, "id") != v1 || p2["next"] != nil {
			t.Errorf("second page: %v", p2)
		}
		// The old version is still there, with its own content.
		old := f.do(t, "GET", f.path("Petstore-v1")+"/versions/"+v1+"/content", nil, 200)
		if strings.Contains(testenv.Path(old, "filesystem", "schemas/pet.yaml").(string), "age") {
			t.Errorf("version 1 changed: %v", old)
		}

		// PUT on a new slug creates it from text (201).
		text := "openapi: 3.1.0\ninfo: {title: Inline, version: \"2\"}\npaths: {}\n"
		created := e.Do(f.tok, "PUT", f.path("inline"), map[string]any{"source": map[string]any{"text": text}})
		if created.Status != 201 || created.JSON()["slug"] != "inline" || created.JSON()["sourceURL"] != nil || created.Header.Get("Location") == "" {
			t.Fatalf("put new: %d %s %v", created.Status, created.Body, created.Header)
		}
		inline := f.settle(t, "inline")
		if inline["processingState"] != "complete" || inline["lastVersion"] == nil {
			t.Fatalf("inline processed: %v", inline)
		}
		if c := f.do(t, "GET", f.path("inline")+"/versions/latest/content", nil, 200); testenv.Path(c, "filesystem", "openapi.yaml") != text {
			t.Errorf("text content: %v", c)
		}
		// The list, oldest first.
		list := f.do(t, "GET", f.base(), nil, 200)
		if list["count"] != 2.0 || testenv.Path(list, "items", 0, "slug") != "Petstore-v1" || testenv.Path(list, "items", 1, "slug") != "inline" {
			t.Errorf("list: %v", list)
		}

		// Delete: 205, then 204; the versions go with it.
		if d := e.Do(f.tok, "DELETE", f.path("Petstore-v1"), nil); d.Status != 205 || len(d.Body) != 0 {
			t.Errorf("delete: %d %s", d.Status, d.Body)
		}
		if d := e.Do(f.tok, "DELETE", f.path("Petstore-v1"), nil); d.Status != 204 {
			t.Errorf("delete again: %d %s", d.Status, d.Body)
		}
		wantErr(t, e.Do(f.tok, "GET", f.path("Petstore-v1"), nil), 404, "Petstore-v1", "deleted spec")
		wantErr(t, e.Do(f.tok, "GET", f.gone("Petstore-v1"), nil), 404, "", "versions of a deleted spec")
		if r := getRaw(t, specStr(content, "url")); r.status != 404 {
			t.Errorf("file of a deleted spec: %d", r.status)
		}
		if n, _ := e.Client().OpenAPISpecVersion.Query().Count(context.Background()); n != 1 {
			t.Errorf("%d versions left, want inline's only", n)
		}
		// Texts no version holds any more are gone; inline's stays.
		if n, _ := e.Client().OpenAPISpecBlob.Query().Count(context.Background()); n != 1 {
			t.Errorf("%d blobs left, want 1", n)
		}
	})
}

func (f *specFiles) hit(path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.hits[path]
}

type raw struct {
	status int
	body   string
	header http.Header
}

// getRaw reads a URL without a token, not following redirects.
func getRaw(t *testing.T, u string) raw {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Timeout: 10 * time.Second}
	resp, err := c.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return raw{status: resp.StatusCode, body: b.String(), header: resp.Header}
}

var _ = jobs.StateCompleted
