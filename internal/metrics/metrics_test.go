package metrics

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// scrape returns what /metrics serves.
func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("GET /metrics: %d", rec.Code)
	}
	return rec.Body.String()
}

func TestWatchListWorkers(t *testing.T) {
	m := New()
	if body := scrape(t, m); strings.Contains(body, "quire_graphql_list_workers") {
		t.Fatal("the list workers gauge is served before the GraphQL server registers it")
	}
	n := 7
	m.WatchListWorkers(func() int { return n })
	// A second server on the same metrics: the first reading stays.
	m.WatchListWorkers(func() int { return -1 })
	n = 9
	if body := scrape(t, m); !strings.Contains(body, "\nquire_graphql_list_workers 9\n") {
		t.Errorf("quire_graphql_list_workers 9 not served:\n%s", body)
	}
}
