package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"

	"quire/internal/testing/benchkit"
)

// siteQuery is the graphql-site workload's query. Quire's node budget
// (graph/gqlguard/limits.go MaxNodes) may refuse first: 100 on both connections
// (100 + 100 × 100 nodes); then fallbackSiteQuery, one node fewer per
// section, is measured instead and the report says so.
const siteQuery = `query Site($id: ID!) { site(id: $id) { id title hostname organization { id title } sections(first: 100) { nodes { id title path siteSpaces(first: 100) { nodes { id path space { id title visibility } } } } } } }`

var fallbackSiteQuery = strings.Replace(siteQuery, "siteSpaces(first: 100)", "siteSpaces(first: 99)", 1)

// chosenSiteQuery is the site query the run measures.
var chosenSiteQuery = siteQuery

// spaceQuery asks GraphQL for what GET /v1/spaces/{id} answers.
const spaceQuery = `query Space($id: ID!) { space(id: $id) {
  object id title emoji visibility createdAt updatedAt deletedAt editMode
  mergeRules { type rules { rule users } }
  urls { location app published public icon }
  organization { id } parent { id }
  language revision defaultLevel comments changeRequests changeRequestsOpen changeRequestsDraft
  permissions { view access admin viewInviteLinks edit triggerGitSync comment merge review installIntegration }
} }`

// workload is one line group of the report.
type workload struct {
	name  string
	about string
	quire benchkit.Target
	bare  *benchkit.Target // the bare one-statement handler's, if any
	conns []int
	count int // sequential requests that count statements
}

// sequence is a fixed pseudo-random order of n items, the same in every
// run and for every server, so that two servers get the same requests.
func sequence(n int, seed uint64) []int {
	r := rand.New(rand.NewPCG(seed, seed))
	out := make([]int, 4099) // prime: workers start at different places
	for i := range out {
		out[i] = r.IntN(n)
	}
	return out
}

// pick returns a Vary that sends, for request n of worker w, the item of
// the sequence at w*1009+n.
func pick[T any](items []T, seed uint64, req func(T) (string, []byte)) func(w, n int) (string, []byte, bool) {
	seq := sequence(len(items), seed)
	return func(w, n int) (string, []byte, bool) {
		u, b := req(items[seq[(w*1009+n)%len(seq)]])
		return u, b, true
	}
}

func graphQLBody(query, op, id string) []byte {
	b, _ := json.Marshal(map[string]any{"query": query, "operationName": op, "variables": map[string]any{"id": id}})
	return b
}

// siteTargets is the graphql-site workload against a GraphQL endpoint,
// and the rest-site one against a /v1 base.
func siteTargets(s *seeded, gqlURL, restBase string) (gql, rest benchkit.Target) {
	gql = benchkit.Target{Name: "graphql-site", Method: "POST", URL: gqlURL, Token: s.token,
		Vary: pick(s.sites, 1, func(id string) (string, []byte) { return gqlURL, graphQLBody(chosenSiteQuery, "Site", id) })}
	rest = benchkit.Target{Name: "rest-site", Method: "GET", Token: s.token,
		Vary: pick(s.sites, 1, func(id string) (string, []byte) {
			return restBase + "/v1/orgs/" + s.org + "/sites/" + id + "/published", nil
		})}
	return gql, rest
}

// readWorkloads are the read workloads against Quire (base) and the bare
// handler (bareBase).
func readWorkloads(s *seeded, base, bareBase string, conns []int, count int) []workload {
	gq, rest := siteTargets(s, base+"/graphql", base)
	bgq, brest := siteTargets(s, bareBase+"/graphql", bareBase)
	spaceREST := func(b string) benchkit.Target {
		return benchkit.Target{Name: "space-read (REST)", Method: "GET", Token: s.token,
			Vary: pick(s.spaces, 2, func(id string) (string, []byte) { return b + "/v1/spaces/" + id, nil })}
	}
	spaceGQL := func(b string) benchkit.Target {
		return benchkit.Target{Name: "space-read (GraphQL)", Method: "POST", Token: s.token,
			Vary: pick(s.spaces, 2, func(id string) (string, []byte) { return b + "/graphql", graphQLBody(spaceQuery, "Space", id) })}
	}
	bsr, bsg := spaceREST(bareBase), spaceGQL(bareBase)
	out := []workload{
		{name: "graphql-site", about: "POST /graphql, the site query, a random one of the sites", quire: gq, bare: &bgq, conns: conns, count: count},
		{name: "rest-site", about: "GET /v1/orgs/{org}/sites/{site}/published, a random site", quire: rest, bare: &brest, conns: conns, count: count},
		{name: "space-read (REST)", about: "GET /v1/spaces/{id}, a random space", quire: spaceREST(base), bare: &bsr, conns: conns, count: count},
		{name: "space-read (GraphQL)", about: "POST /graphql space(id:) with the fields of the REST answer, a random space", quire: spaceGQL(base), bare: &bsg, conns: conns, count: count},
	}
	if s.big != "" {
		out = append(out, workload{name: "search", about: "GET /v1/spaces/{id}/search?query=WORD on the big space, a random word of its pages",
			quire: benchkit.Target{Name: "search", Method: "GET", Token: s.token,
				Vary: pick(s.words, 3, func(w string) (string, []byte) {
					return base + "/v1/spaces/" + s.big + "/search?query=" + url.QueryEscape(w), nil
				})},
			conns: conns, count: count})
	}
	return out
}

// crCreate creates change requests in the big space, each applying a
// content template (a page edit: the template's pages are written into
// the change request) through POST /v1/spaces/{id}/change-requests.
func crCreate(s *seeded, base string, conns []int, count int) workload {
	u := base + "/v1/spaces/" + s.big + "/change-requests"
	var n atomic.Int64
	return workload{name: "cr-create", about: "POST /v1/spaces/{big}/change-requests with template meeting-notes (its pages written into the change request)",
		quire: benchkit.Target{Name: "cr-create", Method: "POST", Token: s.token, Vary: func(w, _ int) (string, []byte, bool) {
			b, _ := json.Marshal(map[string]any{"subject": fmt.Sprintf("Bench change %d", n.Add(1)), "template": map[string]any{"id": "meeting-notes"}})
			return u, b, true
		}},
		conns: conns, count: count}
}

// crMerge merges the big space's open and draft change requests (those
// cr-create made), oldest first, each request a different one; a run ends
// early when none is left.
func crMerge(ctx context.Context, d *sql.DB, s *seeded, base string, conns []int, count int) (workload, int, error) {
	rows, err := d.QueryContext(ctx, `SELECT id FROM change_requests WHERE space_id = $1 AND status IN ('open', 'draft') ORDER BY number`, s.big)
	if err != nil {
		return workload{}, 0, err
	}
	defer rows.Close()
	var crs []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return workload{}, 0, err
		}
		crs = append(crs, id)
	}
	if err := rows.Err(); err != nil {
		return workload{}, 0, err
	}
	var next atomic.Int64
	return workload{name: "cr-merge", about: "POST /v1/spaces/{big}/change-requests/{id}/merge, each request a different change request made by cr-create, oldest first",
		quire: benchkit.Target{Name: "cr-merge", Method: "POST", Token: s.token, Vary: func(w, _ int) (string, []byte, bool) {
			i := next.Add(1) - 1
			if int(i) >= len(crs) {
				return "", nil, false
			}
			return base + "/v1/spaces/" + s.big + "/change-requests/" + crs[i] + "/merge", nil, true
		}},
		conns: conns, count: count}, len(crs), nil
}

// send sends request n of t (worker 0); a GraphQL answer with errors is
// an error too.
func send(ctx context.Context, t benchkit.Target, n int) ([]byte, error) {
	out, err := benchkit.Send(ctx, t, n)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(out, []byte(`{"errors"`)) || bytes.Contains(out, []byte(`],"errors":`)) || bytes.Contains(out, []byte(`},"errors":`)) {
		return nil, fmt.Errorf("%s %s: GraphQL errors: %s", t.Method, t.Name, benchkit.Truncate(out, 300))
	}
	return out, nil
}

// idsAndTitles lists, sorted, the values of every "id" and "title" member
// of a JSON document, to check that two servers answer about the same
// objects.
func idsAndTitles(doc []byte) ([]string, error) {
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return nil, err
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if s, ok := e.(string); ok && (k == "id" || k == "title") {
					out = append(out, k+"="+s)
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	slices.Sort(out)
	return out, nil
}

// sameObjects compares the ids and titles of two answers; "" when equal.
func sameObjects(a, b []byte) string {
	x, err1 := idsAndTitles(a)
	y, err2 := idsAndTitles(b)
	switch {
	case err1 != nil || err2 != nil:
		return fmt.Sprintf("not JSON: %v %v", err1, err2)
	case len(x) == 0:
		return "no ids in the answer"
	case !slices.Equal(x, y):
		return fmt.Sprintf("%d ids and titles vs %d: %s vs %s", len(x), len(y), benchkit.Truncate([]byte(strings.Join(x, " ")), 200), benchkit.Truncate([]byte(strings.Join(y, " ")), 200))
	}
	return ""
}
