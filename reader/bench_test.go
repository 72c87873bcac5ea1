package reader_test

import (
	"context"
	"net/http"
	"testing"

	"quire/internal/testing/benchkit"
	"quire/internal/testing/testclient"
	"quire/internal/testing/testenv"
)

// BenchmarkPageView serves pages of a published site of 500 pages, on
// SQLite, through the whole server (go test -bench PageView ./reader).
func BenchmarkPageView(b *testing.B) {
	e := testenv.New(b, "sqlite")
	team := e.NewTeam()
	api := &testclient.Client{Base: e.URL, Token: team.Admin.Token, HTTP: e.HTTP.Client()}
	ctx := context.Background()
	path, err := benchkit.SeedReaderSite(ctx, api, e.DB, team.Org.ID, team.Admin.User.ID, benchkit.ReaderTree(500, 1), "Bench")
	if err != nil {
		b.Fatal(err)
	}
	pages, err := benchkit.SitemapPaths(ctx, e.URL, path)
	if err != nil || len(pages) == 0 {
		b.Fatalf("sitemap: %v %d", err, len(pages))
	}
	c := e.HTTP.Client()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		req, _ := http.NewRequest("GET", e.URL+pages[i%len(pages)], nil)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := c.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("%v %v", err, resp)
		}
		resp.Body.Close()
	}
}
