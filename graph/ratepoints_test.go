package graph

import (
	"testing"

	"github.com/vektah/gqlparser/v2"

	"quire/graph/generated"
)

func TestRateLimitPoints(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	const orgsCollectionsSpaces = `{ viewer { organizations(first: 100) { nodes { collections(first: 100) { nodes { spaces(first: 10) { nodes { id } } } } } } } }`
	for _, tc := range []struct {
		name  string
		query string
		vars  map[string]any
		want  int
	}{
		{"no connection", `{ viewer { id displayName } }`, nil, 1},
		{"one connection", `{ organizations(first: 100) { nodes { id } } }`, nil, 1},
		// 1 + 100 + 100×100 = 10,101 requests.
		{"nested connections", orgsCollectionsSpaces, nil, 101},
		{"sizes from variables", `query($a: Int, $b: Int) { organizations(first: $a) { nodes { collections(last: $b) { nodes { id } } } } }`,
			map[string]any{"a": int64(40), "b": int64(250)}, 1},
		// 1 + 40 + 40×250 = 10,041 requests.
		{"three levels from variables", `query($a: Int, $b: Int) { organizations(first: $a) { nodes { collections(last: $b) { nodes { spaces { totalCount } } } } } }`,
			map[string]any{"a": int64(40), "b": int64(250)}, 100},
		// Default pages of 50: 1 + 50 + 2,500 = 2,551 requests, 25.51 rounds to 26.
		{"default pages", `{ organizations { nodes { collections { nodes { spaces { totalCount } } } } } }`, nil, 26},
		// first is read up to the largest page, 1,000: 1 + 1,000 + 1,000×10.
		{"clamped page", `{ organizations(first: 5000) { nodes { collections(first: 10) { totalCount } } } }`, nil, 10},
		// Each spread counts: 2 × (1 + 100 + 100×100).
		{"fragments", `query { viewer { ...F ... on User { ...F } } } fragment F on User { organizations(first: 100) { nodes { collections(first: 100) { nodes { spaces(first: 1) { totalCount } } } } } }`, nil, 202},
		{"mutation", `mutation { createCollection(input: {organization: "O", title: "T"}) { id } }`, nil, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, errs := gqlparser.LoadQuery(schema, tc.query)
			if errs != nil {
				t.Fatalf("load query: %v", errs)
			}
			if got := RateLimitPoints(doc, doc.Operations[0], tc.vars); got != tc.want {
				t.Fatalf("points = %d, want %d", got, tc.want)
			}
		})
	}
}
