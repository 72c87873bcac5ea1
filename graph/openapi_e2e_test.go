package graph_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"quire/internal/openapispec"
	"quire/internal/testing/testenv"
)

const oaSpec = "openapi: 3.1.0\ninfo: {title: Graph, version: \"1\"}\npaths: {}\n"

// oaSettle waits for the newest processing job of a specification.
func oaSettle(t *testing.T, e *testenv.Env, specID string) {
	t.Helper()
	in, err := e.Server.Jobs().Latest(context.Background(), openapispec.Subject(specID))
	if err != nil {
		t.Fatalf("job of %s: %v", specID, err)
	}
	e.WaitJob(in.ID)
}

const oaCreate = `mutation($in: CreateOpenAPISpecInput!) { createOpenAPISpec(input: $in) { id object slug processingState visibility sourceURL sourceText permissions { view edit } urls { location app published } } }`

func TestOpenAPISpecMutationsBothDoors(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		org := team.Org.ID
		in := func(slug string, source map[string]any) map[string]any {
			return map[string]any{"in": map[string]any{"organization": org, "slug": slug, "source": source}}
		}
		text := map[string]any{"text": oaSpec}
		runMutations(t, e, oaCreate, restCreateCall("openapi"), []mutationCase{
			{name: "create", token: team.Admin.Token, vars: in("Graph-1", text), check: func(t *testing.T, d map[string]any) {
				sp := d["createOpenAPISpec"].(map[string]any)
				if sp["object"] != "openapi-spec" || sp["slug"] != "Graph-1" || sp["processingState"] != "pending" || sp["visibility"] != "private" ||
					sp["sourceText"] != oaSpec || sp["sourceURL"] != nil || testenv.Path(sp, "permissions", "edit") != true ||
					testenv.Path(sp, "urls", "location") != e.URL+"/v1/orgs/"+org+"/openapi/Graph-1" {
					t.Errorf("created: %v", sp)
				}
			}},
			{name: "slug taken", token: team.Admin.Token, vars: in("Graph-1", text), code: "BAD_REQUEST", field: "slug"},
			{name: "bad slug", token: team.Admin.Token, vars: in("graph_1", text), code: "BAD_REQUEST", field: "slug"},
			{name: "long slug", token: team.Admin.Token, vars: in(strings.Repeat("g", 101), text), code: "BAD_REQUEST", field: "slug"},
			{name: "no source", token: team.Admin.Token, vars: in("g2", map[string]any{}), code: "BAD_REQUEST", field: "source"},
			{name: "both sources", token: team.Admin.Token, vars: in("g2", map[string]any{"text": oaSpec, "url": "https://example.com/a.yaml"}), code: "BAD_REQUEST", field: "source"},
			{name: "empty text", token: team.Admin.Token, vars: in("g2", map[string]any{"text": ""}), code: "BAD_REQUEST", field: "source.text"},
			{name: "not http", token: team.Admin.Token, vars: in("g2", map[string]any{"url": "file:///etc/passwd"}), code: "BAD_REQUEST", field: "source.url"},
			{name: "long url", token: team.Admin.Token, vars: in("g2", map[string]any{"url": "https://example.com/" + strings.Repeat("x", 2048)}), code: "BAD_REQUEST", field: "source.url"},
			{name: "reader", token: team.Reader.Token, vars: in("g2", text), code: "FORBIDDEN"},
			{name: "outsider", token: team.Outsider.Token, vars: in("g2", text), code: "NOT_FOUND"},
		})

		sp := restGet(t, e, team.Admin.Token, "/v1/orgs/"+org+"/openapi/Graph-1")
		id := str(sp["id"])
		// createOrUpdateOpenAPISpec: created, then updated.
		put := `mutation($in: CreateOrUpdateOpenAPISpecInput!) { createOrUpdateOpenAPISpec(input: $in) { created spec { id slug processingState } } }`
		d := gqlOK(t, e.GraphQL(team.Admin.Token, put, in("Graph-1", map[string]any{"text": oaSpec + "# again\n"})))
		if testenv.Path(d, "createOrUpdateOpenAPISpec", "created") != false || testenv.Path(d, "createOrUpdateOpenAPISpec", "spec", "id") != id {
			t.Errorf("update: %v", d)
		}
		d = gqlOK(t, e.GraphQL(team.Admin.Token, put, in("graph-2", text)))
		if testenv.Path(d, "createOrUpdateOpenAPISpec", "created") != true || testenv.Path(d, "createOrUpdateOpenAPISpec", "spec", "slug") != "graph-2" {
			t.Errorf("create by put: %v", d)
		}
		gqlErr(t, e.GraphQL(team.Editor.Token, put, in("graph-2", text)), "FORBIDDEN", "")
		// updateOpenAPISpec and deleteOpenAPISpec, by id.
		upd := `mutation($id: ID!) { updateOpenAPISpec(id: $id, input: {visibility: public}) { visibility urls { published } } }`
		d = gqlOK(t, e.GraphQL(team.Admin.Token, upd, map[string]any{"id": id}))
		if testenv.Path(d, "updateOpenAPISpec", "visibility") != "public" || testenv.Path(d, "updateOpenAPISpec", "urls", "published") != e.URL+"/openapi/"+org+"/Graph-1" {
			t.Errorf("update: %v", d)
		}
		gqlErr(t, e.GraphQL(team.Reader.Token, upd, map[string]any{"id": id}), "FORBIDDEN", "")
		gqlErr(t, e.GraphQL(team.Outsider.Token, upd, map[string]any{"id": id}), "NOT_FOUND", "")
		del := `mutation($id: ID!) { deleteOpenAPISpec(id: $id) { id deleted } }`
		gqlErr(t, e.GraphQL(team.Reader.Token, del, map[string]any{"id": id}), "FORBIDDEN", "")
		if d := gqlOK(t, e.GraphQL(team.Outsider.Token, del, map[string]any{"id": id})); testenv.Path(d, "deleteOpenAPISpec", "deleted") != false {
			t.Errorf("outsider delete: %v", d)
		}
		if d := gqlOK(t, e.GraphQL(team.Admin.Token, del, map[string]any{"id": id})); testenv.Path(d, "deleteOpenAPISpec", "deleted") != true {
			t.Errorf("delete: %v", d)
		}
		if d := gqlOK(t, e.GraphQL(team.Admin.Token, del, map[string]any{"id": id})); testenv.Path(d, "deleteOpenAPISpec", "deleted") != false {
			t.Errorf("delete again: %v", d)
		}
	})
}

const oaRead = `query($o: ID!, $s: String!) { openAPISpec(organization: $o, slug: $s) {
	id slug processingState lastProcessedAt lastProcessErrorCode lastProcessedErrors { message }
	organization { id } permissions { view edit }
	lastVersion { id object url urls { location } root size fileCount files { path text } filesystem spec { id } }
	versions(first: 10) { totalCount nodes { id } }
	job { kind state } } }`

func TestOpenAPISpecReadsMatchREST(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		e.StartJobs()
		org := team.Org.ID
		d := gqlOK(t, e.GraphQL(team.Admin.Token, oaCreate, map[string]any{"in": map[string]any{"organization": org, "slug": "reads", "source": map[string]any{"text": oaSpec}}}))
		id := str(testenv.Path(d, "createOpenAPISpec", "id"))
		oaSettle(t, e, id)

		g := gqlOK(t, e.GraphQL(team.Reader.Token, oaRead, map[string]any{"o": org, "s": "reads"}))["openAPISpec"].(map[string]any)
		r := restGet(t, e, team.Reader.Token, "/v1/orgs/"+org+"/openapi/reads")
		v := restGet(t, e, team.Reader.Token, "/v1/orgs/"+org+"/openapi/reads/versions/latest")
		c := restGet(t, e, team.Reader.Token, "/v1/orgs/"+org+"/openapi/reads/versions/latest/content")
		lv := g["lastVersion"].(map[string]any)
		if g["id"] != r["id"] || g["processingState"] != "complete" || r["processingState"] != "complete" || lv["id"] != r["lastVersion"] ||
			lv["id"] != v["id"] || testenv.Path(lv, "urls", "location") != testenv.Path(v, "urls", "location") ||
			testenv.Path(g, "permissions", "edit") != false || testenv.Path(g, "organization", "id") != org ||
			testenv.Path(g, "versions", "totalCount") != 1.0 || testenv.Path(g, "job", "state") != "completed" ||
			testenv.Path(g, "job", "kind") != openapispec.Kind || lv["object"] != "openapi-spec-version" || lv["root"] != "openapi.yaml" ||
			lv["fileCount"] != 1.0 || lv["size"] != float64(len(oaSpec)) || testenv.Path(lv, "spec", "id") != id {
			t.Errorf("GraphQL %v\nREST %v\nversion %v", g, r, v)
		}
		sameTime(t, "lastProcessedAt", g["lastProcessedAt"], r["lastProcessedAt"])
		if testenv.Path(lv, "files", 0, "path") != "openapi.yaml" || testenv.Path(lv, "files", 0, "text") != oaSpec ||
			testenv.Path(lv, "filesystem", "openapi.yaml") != oaSpec || testenv.Path(c, "filesystem", "openapi.yaml") != oaSpec {
			t.Errorf("files: %v / %v", lv, c)
		}
		// Signed URLs differ by when they were signed, not by where.
		if !strings.HasPrefix(str(lv["url"]), e.URL+"/openapi/"+org+"/reads/signed/") || !strings.HasPrefix(str(c["url"]), e.URL+"/openapi/"+org+"/reads/signed/") {
			t.Errorf("urls %q, %q", lv["url"], c["url"])
		}
		// The list, version(id:), and node(id:) for both types.
		list := gqlOK(t, e.GraphQL(team.Reader.Token, `query($o: ID!) { organization(id: $o) { openAPISpecs(first: 5) { totalCount nodes { slug } } } }`, map[string]any{"o": org}))
		if testenv.Path(list, "organization", "openAPISpecs", "totalCount") != 1.0 || testenv.Path(list, "organization", "openAPISpecs", "nodes", 0, "slug") != "reads" {
			t.Errorf("list: %v", list)
		}
		vid := str(lv["id"])
		one := gqlOK(t, e.GraphQL(team.Reader.Token, `query($o: ID!, $v: ID!) { openAPISpec(organization: $o, slug: "reads") { version(id: $v) { id } } }`, map[string]any{"o": org, "v": vid}))
		if testenv.Path(one, "openAPISpec", "version", "id") != vid {
			t.Errorf("version(id:): %v", one)
		}
		nope := e.GraphQL(team.Reader.Token, `query($o: ID!) { openAPISpec(organization: $o, slug: "reads") { id version(id: "Bnope") { id } } }`, map[string]any{"o": org})
		if nope.Code() != "NOT_FOUND" || testenv.Path(nope.Data, "openAPISpec", "id") != id || testenv.Path(nope.Data, "openAPISpec", "version") != nil {
			t.Errorf("version of another specification: %s", nope.Raw)
		}
		nodes := `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`
		n := gqlOK(t, e.GraphQL(team.Reader.Token, nodes, map[string]any{"ids": []string{id, vid}}))
		if testenv.Path(n, "nodes", 0, "__typename") != "OpenAPISpec" || testenv.Path(n, "nodes", 1, "__typename") != "OpenAPISpecVersion" {
			t.Errorf("nodes: %v", n)
		}
		if n := gqlOK(t, e.GraphQL(team.Outsider.Token, nodes, map[string]any{"ids": []string{id, vid}})); testenv.Path(n, "nodes", 0) != nil || testenv.Path(n, "nodes", 1) != nil {
			t.Errorf("outsider nodes: %v", n)
		}
		gqlErr(t, e.GraphQL(team.Outsider.Token, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": vid}), "NOT_FOUND", "")
		gqlErr(t, e.GraphQL(team.Outsider.Token, oaRead, map[string]any{"o": org, "s": "reads"}), "NOT_FOUND", "")
	})
}

// oaBuild makes specs specifications of versions versions each, through
// their jobs, and returns nothing: the organization holds them.
func oaBuild(t *testing.T, e *testenv.Env, admin, org, prefix string, specs, versions int) {
	t.Helper()
	put := `mutation($in: CreateOrUpdateOpenAPISpecInput!) { createOrUpdateOpenAPISpec(input: $in) { spec { id } } }`
	for i := 0; i < specs; i++ {
		for v := 0; v < versions; v++ {
			text := fmt.Sprintf("openapi: 3.1.0\ninfo: {title: %s %d, version: \"%d\"}\npaths: {}\n", prefix, i, v)
			d := gqlOK(t, e.GraphQL(admin, put, map[string]any{"in": map[string]any{"organization": org, "slug": fmt.Sprintf("%s-%d", prefix, i), "source": map[string]any{"text": text}}}))
			oaSettle(t, e, str(testenv.Path(d, "createOrUpdateOpenAPISpec", "spec", "id")))
		}
	}
}

const oaListQuery = `query($o: ID!) { organization(id: $o) { openAPISpecs(first: 50) { totalCount nodes {
	id slug permissions { edit } urls { location published } organization { title }
	lastVersion { id url files { path } }
	versions(first: 10) { totalCount nodes { id url urls { location } } }
	job { state progress } } } } }`

// Lists of specifications, with their versions, files and jobs, and the
// REST lists cost the same statements whatever their length.
func TestOpenAPISpecStatementsDoNotGrow(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		e.StartJobs()
		// Two organizations, each with a reader: one of 2 specifications
		// of 1 version, one of 6 specifications of 3 versions.
		reader2, tok2 := e.User("reader@other.test")
		e.Member(team.Other, reader2, "read")
		type org struct{ id, reader string }
		small, big := org{team.Other.ID, tok2}, org{team.Org.ID, team.Reader.Token}
		oaBuild(t, e, team.Outsider.Token, small.id, "s", 2, 1)
		oaBuild(t, e, team.Admin.Token, big.id, "b", 6, 3)
		gql := func(o org, want int) func() int64 {
			return func() int64 {
				before := e.Statements()
				d := gqlOK(t, e.GraphQL(o.reader, oaListQuery, map[string]any{"o": o.id}))
				n := e.Statements() - before
				nodes := testenv.Path(d, "organization", "openAPISpecs", "nodes").([]any)
				if len(nodes) != want || testenv.Path(nodes[0], "job", "state") != "completed" || testenv.Path(nodes[0], "lastVersion", "files", 0, "path") != "openapi.yaml" {
					t.Fatalf("list: %v", d)
				}
				return n
			}
		}
		gql(small, 2)()
		n1, n2 := sxMinCounts(gql(small, 2), gql(big, 6))
		t.Logf("GraphQL: 2 specifications × 1 version → %d statements, 6 × 3 → %d", n1, n2)
		if n1 != n2 {
			t.Errorf("GraphQL list grows: %d statements for 2 × 1, %d for 6 × 3", n1, n2)
		}
		rest := func(token, path string, want float64) func() int64 {
			return func() int64 {
				before := e.Statements()
				l := restGet(t, e, token, path)
				if l["count"] != want {
					t.Fatalf("%s: %v", path, l)
				}
				return e.Statements() - before
			}
		}
		base := func(o org) string { return "/v1/orgs/" + o.id + "/openapi" }
		n1, n2 = sxMinCounts(rest(small.reader, base(small), 2), rest(big.reader, base(big), 6))
		t.Logf("REST list: 2 → %d statements, 6 → %d", n1, n2)
		if n1 != n2 {
			t.Errorf("REST list grows: %d statements for 2, %d for 6", n1, n2)
		}
		n1, n2 = sxMinCounts(rest(small.reader, base(small)+"/s-0/versions", 1), rest(big.reader, base(big)+"/b-0/versions", 3))
		t.Logf("REST versions: 1 → %d statements, 3 → %d", n1, n2)
		if n1 != n2 {
			t.Errorf("REST versions grow: %d statements for 1, %d for 3", n1, n2)
		}
	})
}

// A request reads at most Config.RequestFileBytes of version files: the
// files of as many versions as fit are read, a version asked for twice
// counting once, and a request asking for more is refused with
// BAD_REQUEST, its errors saying so.
func TestOpenAPIFilesPerRequestBounded(t *testing.T) {
	for _, b := range testenv.Backends {
		t.Run(b, func(t *testing.T) {
			// Room for two versions of about 70 bytes, not three.
			e := testenv.NewWith(t, b, testenv.Options{OpenAPI: &openapispec.Config{FetchPrivate: true, RequestFileBytes: 150}})
			team := e.NewTeam()
			e.StartJobs()
			oaBuild(t, e, team.Admin.Token, team.Org.ID, "budget", 1, 3)
			q := `query($o: ID!, $n: Int!) { openAPISpec(organization: $o, slug: "budget-0") { versions(first: $n) { nodes { id files { path } again: filesystem } } } }`
			two := gqlOK(t, e.GraphQL(team.Reader.Token, q, map[string]any{"o": team.Org.ID, "n": 2}))
			for i := 0; i < 2; i++ {
				if testenv.Path(two, "openAPISpec", "versions", "nodes", i, "files", 0, "path") != "openapi.yaml" ||
					testenv.Path(two, "openAPISpec", "versions", "nodes", i, "again", "openapi.yaml") == nil {
					t.Errorf("two versions: %v", two)
				}
			}
			three := e.GraphQL(team.Reader.Token, q, map[string]any{"o": team.Org.ID, "n": 3})
			if three.Code() != "BAD_REQUEST" || !strings.Contains(string(three.Raw), "ask for the files of fewer versions") {
				t.Errorf("three versions: %s", three.Raw)
			}
			// REST reads one version's files per request: never refused.
			restGet(t, e, team.Reader.Token, "/v1/orgs/"+team.Org.ID+"/openapi/budget-0/versions/latest/content")
		})
	}
}
