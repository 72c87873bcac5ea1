package sites_test

// Benchmarks of a published site profile through both doors, in process,
// on SQLite:
//
//	go test -bench Published -run '^$' ./internal/sites/
//
// Each request goes through Quire's whole handler (authentication,
// routing, resolvers, presenters, JSON) with httptest; statements/op is the
// number of SQL statements one request sends. cmd/sitebench measures the
// same over real connections against a one-statement SQL baseline.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"quire/internal/auth"
	"quire/internal/db"
	"quire/internal/types"
	"quire/server"
)

// benchQuery asks GraphQL for what GET .../published answers (see
// cmd/sitebench): site → sections → siteSpaces → space → organization,
// plus the site's and each site space's customization.
const benchQuery = `query PublishedSite($site: ID!) {
  site(id: $site) {
    object id type appliedType title
    icon { icon { light dark } emoji }
    hostname basename
    proxy { origin target }
    visibility published siteSpaces createdAt
    adaptiveContent { enabled }
    ads { status submittable }
    agentsContext
    features { id plan frozen customizations }
    urls { location app published }
    customization
    sections {
      nodes {
        object id title description default path condition
        sectionGroup { id }
        icon
        urls { published }
        siteSpaces {
          nodes {
            object id path
            section { id }
            title default condition hasAdvancedCustomizationFeature hidden
            urls { published }
            customization
            space {
              object id title emoji visibility createdAt updatedAt deletedAt editMode
              mergeRules { type rules { rule users } }
              urls { location app published public icon }
              organization { id }
              parent { id }
              language revision defaultLevel comments changeRequests changeRequestsOpen changeRequestsDraft
              permissions { view access admin viewInviteLinks edit triggerGitSync comment merge review installIntegration }
            }
          }
        }
      }
    }
  }
}`

// benchEnv is a Quire handler over a fresh SQLite database, with an
// organization and an admin token.
type benchEnv struct {
	db      *db.DB
	handler http.Handler
	org     string
	token   string
}

func newBenchEnv(b *testing.B) *benchEnv {
	b.Helper()
	ctx := context.Background()
	d, err := db.Open("sqlite:"+filepath.Join(b.TempDir(), "quire.db"), db.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { d.Close() })
	if err := d.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
	org, err := d.Client.Organization.Create().SetTitle("Bench Corp").Save(ctx)
	if err != nil {
		b.Fatal(err)
	}
	u, err := d.Client.User.Create().SetEmail("bench@bench.test").SetDisplayName("bench").Save(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := d.Client.Member.Create().SetOrganizationID(org.ID).SetUserID(u.ID).SetRole(types.RoleAdmin).Save(ctx); err != nil {
		b.Fatal(err)
	}
	tok, err := auth.CreateToken(ctx, d.Client, u.ID, "bench")
	if err != nil {
		b.Fatal(err)
	}
	return &benchEnv{db: d, handler: server.New(server.Config{DB: d, PublicURL: "http://quire.test"}), org: org.ID, token: tok}
}

// request runs one request through the handler and returns the recorder.
func (e *benchEnv) request(method, path string, body []byte) *httptest.ResponseRecorder {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req := httptest.NewRequest(method, path, rd)
	req.Header.Set("Authorization", "Bearer "+e.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	e.handler.ServeHTTP(rec, req)
	return rec
}

// call sends a JSON request, fails unless the status is want, and decodes
// the id of the answer.
func (e *benchEnv) call(b *testing.B, method, path string, body any, want int) string {
	b.Helper()
	var buf []byte
	if body != nil {
		var err error
		if buf, err = json.Marshal(body); err != nil {
			b.Fatal(err)
		}
	}
	rec := e.request(method, path, buf)
	if rec.Code != want {
		b.Fatalf("%s %s: status %d, want %d: %s", method, path, rec.Code, want, rec.Body.String())
	}
	var out struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return out.ID
}

// seedSite creates, through the REST API, one collection per section with
// its spaces, and a published site of sections × perSection site spaces.
func (e *benchEnv) seedSite(b *testing.B, sections, perSection int) string {
	b.Helper()
	orgPath := "/v1/orgs/" + e.org
	spaces := make([][]string, sections)
	for i := range sections {
		col := e.call(b, "POST", orgPath+"/collections", map[string]any{"title": fmt.Sprintf("Product %d (%dx%d)", i+1, sections, perSection)}, http.StatusCreated)
		for j := range perSection {
			spaces[i] = append(spaces[i], e.call(b, "POST", orgPath+"/spaces", map[string]any{
				"title": fmt.Sprintf("Guide %d.%d", i+1, j+1), "emoji": "📘", "parent": col,
			}, http.StatusCreated))
		}
	}
	site := e.call(b, "POST", orgPath+"/sites", map[string]any{"title": fmt.Sprintf("Docs %dx%d", sections, perSection)}, http.StatusCreated)
	sitePath := orgPath + "/sites/" + site
	for i := range sections {
		sec := e.call(b, "POST", sitePath+"/sections", map[string]any{"spaceId": spaces[i][0], "title": fmt.Sprintf("Product %d", i+1)}, http.StatusCreated)
		for _, sp := range spaces[i][1:] {
			e.call(b, "POST", sitePath+"/site-spaces", map[string]any{"spaceId": sp, "sectionId": sec}, http.StatusCreated)
		}
	}
	e.call(b, "POST", sitePath+"/publish", nil, http.StatusOK)
	return site
}

func BenchmarkPublished(b *testing.B) {
	e := newBenchEnv(b)
	for _, size := range []struct{ sections, perSection int }{{4, 3}, {20, 5}} {
		site := e.seedSite(b, size.sections, size.perSection)
		name := fmt.Sprintf("%dx%d", size.sections, size.perSection)
		restPath := "/v1/orgs/" + e.org + "/sites/" + site + "/published"
		gqlBody, err := json.Marshal(map[string]any{"query": benchQuery, "operationName": "PublishedSite", "variables": map[string]any{"site": site}})
		if err != nil {
			b.Fatal(err)
		}

		// Both doors must answer the whole site before being measured.
		rec := e.request("GET", restPath, nil)
		if rec.Code != http.StatusOK {
			b.Fatalf("REST %s: status %d: %s", name, rec.Code, rec.Body.String())
		}
		want := size.sections * size.perSection
		if n := strings.Count(rec.Body.String(), `"object":"site-space"`); n != want {
			b.Fatalf("REST %s: %d site spaces in the answer, want %d", name, n, want)
		}
		rec = e.request("POST", "/graphql", gqlBody)
		if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), `"errors"`) {
			b.Fatalf("GraphQL %s: status %d: %.500s", name, rec.Code, rec.Body.String())
		}
		if n := strings.Count(rec.Body.String(), `"object":"site-space"`); n != want {
			b.Fatalf("GraphQL %s: %d site spaces in the answer, want %d", name, n, want)
		}

		for _, door := range []struct {
			name, method, path string
			body               []byte
		}{
			{"rest", "GET", restPath, nil},
			{"graphql", "POST", "/graphql", gqlBody},
		} {
			b.Run(door.name+"/"+name, func(b *testing.B) {
				b.ReportAllocs()
				size := 0
				before := e.db.Statements()
				b.ResetTimer()
				for b.Loop() {
					rec := e.request(door.method, door.path, door.body)
					if rec.Code != http.StatusOK {
						b.Fatalf("status %d: %.300s", rec.Code, rec.Body.String())
					}
					size = rec.Body.Len()
				}
				b.StopTimer()
				b.ReportMetric(float64(e.db.Statements()-before)/float64(b.N), "statements/op")
				b.ReportMetric(float64(size), "bytes/response")
			})
		}
	}
}
