package graph_test

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"strings"
	"testing"
	"time"

	"quire/ent"
	"quire/internal/testing/testenv"
)

// ---------------------------------------------------------------------------
// Helpers

// gqlOK fails the test unless the response is a 200 without errors, and
// returns its data.
func gqlOK(t *testing.T, r *testenv.GQLResponse) map[string]any {
	t.Helper()
	if r.Status != http.StatusOK || len(r.Errors) > 0 || r.Data == nil {
		t.Fatalf("GraphQL: want data without errors, got HTTP %d %s", r.Status, r.Raw)
	}
	return r.Data
}

// gqlErr checks that a resolver error is answered with HTTP 200, the first
// error carrying extensions.code (and extensions.field when field is not
// empty), and no data for the failed root field.
func gqlErr(t *testing.T, r *testenv.GQLResponse, code, field string) {
	t.Helper()
	if len(r.Errors) == 0 {
		t.Errorf("want error %s, got HTTP %d %s", code, r.Status, r.Raw)
		return
	}
	if r.Status != http.StatusOK {
		t.Errorf("resolver error: HTTP %d, want 200 (%s)", r.Status, r.Raw)
	}
	if got := r.Code(); got != code {
		t.Errorf("extensions.code = %q, want %q (%s)", got, code, r.Raw)
	}
	if field != "" {
		if got, _ := r.Errors[0].Extensions["field"].(string); got != field {
			t.Errorf("extensions.field = %q, want %q (%s)", got, field, r.Raw)
		}
	}
	if r.Errors[0].Message == "" {
		t.Errorf("empty error message: %s", r.Raw)
	}
	for k, v := range r.Data {
		if v != nil {
			t.Errorf("data.%s = %v, want null", k, v)
		}
	}
}

// gqlRefused checks that a document was refused before execution: HTTP 422,
// the first error carrying extensions.code (and extensions.field when field
// is not empty), and no data at all.
func gqlRefused(t *testing.T, r *testenv.GQLResponse, code, field string) {
	t.Helper()
	if r.Status != http.StatusUnprocessableEntity || len(r.Errors) == 0 || r.Data != nil {
		t.Errorf("want a refusal before execution (HTTP 422, no data), got HTTP %d %s", r.Status, r.Raw)
		return
	}
	if got := r.Code(); got != code {
		t.Errorf("extensions.code = %q, want %q (%s)", got, code, r.Raw)
	}
	if got, _ := r.Errors[0].Extensions["field"].(string); got != field {
		t.Errorf("extensions.field = %q, want %q (%s)", got, field, r.Raw)
	}
}

// restGet reads a REST object, failing unless it answers 200.
func restGet(t *testing.T, e *testenv.Env, token, path string) map[string]any {
	t.Helper()
	r := e.Do(token, "GET", path, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
	}
	return r.JSON()
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// restEnum turns a GraphQL enum name into the REST spelling.
func restEnum(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	return strings.ReplaceAll(s, "_", "-")
}

func id(v any) any {
	if v == nil {
		return nil
	}
	return testenv.Path(v, "id")
}

func sameTime(t *testing.T, what string, gql, rest any) {
	t.Helper()
	if gql == nil || rest == nil {
		if gql != rest {
			t.Errorf("%s: GraphQL %v, REST %v", what, gql, rest)
		}
		return
	}
	g, err1 := time.Parse(time.RFC3339Nano, str(gql))
	r, err2 := time.Parse(time.RFC3339Nano, str(rest))
	if err1 != nil || err2 != nil || !g.Equal(r) {
		t.Errorf("%s: GraphQL %v, REST %v", what, gql, rest)
	}
	if !strings.HasSuffix(str(gql), "Z") {
		t.Errorf("%s: GraphQL DateTime %v is not in UTC", what, gql)
	}
}

const spaceFields = `id object title emoji visibility createdAt updatedAt deletedAt editMode language revision defaultLevel
	organization { id } parent { id } urls { location app } permissions { view admin edit }`

const collectionFields = `id object title description defaultLevel organization { id } parent { id }
	urls { location app } permissions { view admin create }`

// sameSpace compares a space read through GraphQL with the same space read
// through REST: same id, same values, enums in their door's spelling.
func sameSpace(t *testing.T, g, r map[string]any) {
	t.Helper()
	for _, f := range []string{"id", "object", "title", "emoji", "revision"} {
		if g[f] != r[f] {
			t.Errorf("space.%s: GraphQL %v, REST %v", f, g[f], r[f])
		}
	}
	for _, f := range []string{"visibility", "editMode", "language", "defaultLevel"} {
		if restEnum(g[f]) != r[f] {
			t.Errorf("space.%s: GraphQL %v, REST %v", f, g[f], r[f])
		}
	}
	if id(g["organization"]) != r["organization"] {
		t.Errorf("space.organization: GraphQL %v, REST %v", g["organization"], r["organization"])
	}
	if id(g["parent"]) != r["parent"] {
		t.Errorf("space.parent: GraphQL %v, REST %v", g["parent"], r["parent"])
	}
	for _, f := range []string{"createdAt", "updatedAt", "deletedAt"} {
		sameTime(t, "space."+f, g[f], r[f])
	}
	for _, f := range []string{"location", "app"} {
		if testenv.Path(g, "urls", f) != testenv.Path(r, "urls", f) {
			t.Errorf("space.urls.%s: GraphQL %v, REST %v", f, testenv.Path(g, "urls", f), testenv.Path(r, "urls", f))
		}
	}
	for _, f := range []string{"view", "admin", "edit"} {
		if testenv.Path(g, "permissions", f) != testenv.Path(r, "permissions", f) {
			t.Errorf("space.permissions.%s: GraphQL %v, REST %v", f, testenv.Path(g, "permissions", f), testenv.Path(r, "permissions", f))
		}
	}
}

// sameCollection compares a collection read through both doors.
func sameCollection(t *testing.T, g, r map[string]any) {
	t.Helper()
	for _, f := range []string{"id", "object", "title", "description"} {
		if g[f] != r[f] {
			t.Errorf("collection.%s: GraphQL %v, REST %v", f, g[f], r[f])
		}
	}
	if restEnum(g["defaultLevel"]) != r["defaultLevel"] {
		t.Errorf("collection.defaultLevel: GraphQL %v, REST %v", g["defaultLevel"], r["defaultLevel"])
	}
	if id(g["organization"]) != r["organization"] {
		t.Errorf("collection.organization: GraphQL %v, REST %v", g["organization"], r["organization"])
	}
	if id(g["parent"]) != r["parent"] {
		t.Errorf("collection.parent: GraphQL %v, REST %v", g["parent"], r["parent"])
	}
	for _, f := range []string{"location", "app"} {
		if testenv.Path(g, "urls", f) != testenv.Path(r, "urls", f) {
			t.Errorf("collection.urls.%s: GraphQL %v, REST %v", f, testenv.Path(g, "urls", f), testenv.Path(r, "urls", f))
		}
	}
	for _, f := range []string{"view", "admin", "create"} {
		if testenv.Path(g, "permissions", f) != testenv.Path(r, "permissions", f) {
			t.Errorf("collection.permissions.%s: GraphQL %v, REST %v", f, testenv.Path(g, "permissions", f), testenv.Path(r, "permissions", f))
		}
	}
}

// gqlSpace reads a space through GraphQL.
func gqlSpace(t *testing.T, e *testenv.Env, token, spaceID string) map[string]any {
	t.Helper()
	d := gqlOK(t, e.GraphQL(token, `query($id: ID!) { space(id: $id) { `+spaceFields+` } }`, map[string]any{"id": spaceID}))
	return d["space"].(map[string]any)
}

// gqlCollection reads a collection through GraphQL.
func gqlCollection(t *testing.T, e *testenv.Env, token, collectionID string) map[string]any {
	t.Helper()
	d := gqlOK(t, e.GraphQL(token, `query($id: ID!) { collection(id: $id) { `+collectionFields+` } }`, map[string]any{"id": collectionID}))
	return d["collection"].(map[string]any)
}

// restCreate creates an object through REST and returns its JSON.
func restCreate(t *testing.T, e *testenv.Env, token, path string, body map[string]any) map[string]any {
	t.Helper()
	r := e.Do(token, "POST", path, body)
	if r.Status != http.StatusCreated {
		t.Fatalf("POST %s: %d %s", path, r.Status, r.Body)
	}
	return r.JSON()
}

func restCollection(t *testing.T, e *testenv.Env, token, orgID, title string, parent any) string {
	t.Helper()
	body := map[string]any{"title": title}
	if parent != nil {
		body["parent"] = parent
	}
	return str(restCreate(t, e, token, "/v1/orgs/"+orgID+"/collections", body)["id"])
}

func restSpace(t *testing.T, e *testenv.Env, token, orgID, title string, parent any) string {
	t.Helper()
	body := map[string]any{"title": title}
	if parent != nil {
		body["parent"] = parent
	}
	return str(restCreate(t, e, token, "/v1/orgs/"+orgID+"/spaces", body)["id"])
}

// mutationCase is one call of a mutation and what it must answer: code ""
// is a success, checked by check when set.
type mutationCase struct {
	name  string
	token string
	vars  map[string]any
	code  string
	field string
	check func(t *testing.T, data map[string]any)
}

type restCall struct {
	method, path string
	body         any
}

var codeStatus = map[string]int{
	"BAD_REQUEST":         http.StatusBadRequest,
	"FORBIDDEN":           http.StatusForbidden,
	"NOT_FOUND":           http.StatusNotFound,
	"CONFLICT":            http.StatusConflict,
	"PRECONDITION_FAILED": http.StatusPreconditionFailed,
}

// restCreateCall turns createX(input) variables into the REST create call.
func restCreateCall(kind string) func(map[string]any) *restCall {
	return func(v map[string]any) *restCall {
		in := maps.Clone(v["in"].(map[string]any))
		org := str(in["organization"])
		delete(in, "organization")
		return &restCall{"POST", "/v1/orgs/" + org + "/" + kind, in}
	}
}

// restIDCall turns (id, input | organization) variables into a REST call
// on /v1/{kind}/{id}{suffix}.
func restIDCall(method, kind, suffix string) func(map[string]any) *restCall {
	return func(v map[string]any) *restCall {
		var body any
		if in, ok := v["in"]; ok {
			body = in
		}
		if org, ok := v["org"]; ok {
			body = map[string]any{"organization": org}
		}
		return &restCall{method, "/v1/" + kind + "/" + str(v["id"]) + suffix, body}
	}
}

// runMutations runs each case through GraphQL. Every error case is also
// sent through the REST door (toREST maps the variables to the same call),
// which must fail the same way: the status of the code, the same message.
func runMutations(t *testing.T, e *testenv.Env, doc string, toREST func(map[string]any) *restCall, cases []mutationCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.GraphQL(c.token, doc, c.vars)
			if c.code == "" {
				d := gqlOK(t, r)
				if c.check != nil {
					c.check(t, d)
				}
				return
			}
			gqlErr(t, r, c.code, c.field)
			if toREST == nil || len(r.Errors) == 0 {
				return
			}
			rc := toREST(c.vars)
			rr := e.Do(c.token, rc.method, rc.path, rc.body)
			want := codeStatus[c.code]
			if rr.Status != want || testenv.Path(rr.JSON(), "error", "code") != float64(want) {
				t.Errorf("REST %s %s: %d %s, want %d like GraphQL's %s", rc.method, rc.path, rr.Status, rr.Body, want, c.code)
			} else if msg := testenv.Path(rr.JSON(), "error", "message"); msg != r.Errors[0].Message {
				t.Errorf("REST message %q, GraphQL message %q", msg, r.Errors[0].Message)
			}
		})
	}
}

// TestGraphQLDateTimeIsUTC checks the DateTime scalar's documented promise
// ("always in UTC") when the database session runs in another time zone.
func TestGraphQLDateTimeIsUTC(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		if e.Dialect == "postgres" {
			// Make the database's default TimeZone something else than
			// UTC, and drop pooled connections so that new ones pick it up.
			ctx := context.Background()
			var name string
			if err := e.DB.SQL.QueryRowContext(ctx, "SELECT current_database()").Scan(&name); err != nil {
				t.Fatal(err)
			}
			if _, err := e.DB.SQL.ExecContext(ctx, `ALTER DATABASE "`+name+`" SET timezone TO 'Asia/Tokyo'`); err != nil {
				t.Fatal(err)
			}
			e.DB.SQL.SetMaxIdleConns(0)
			e.DB.SQL.SetMaxIdleConns(16)
		}
		team := e.NewTeam()
		spaceID := restSpace(t, e, team.Admin.Token, team.Org.ID, "Guide", nil)
		if r := e.Do(team.Admin.Token, "DELETE", "/v1/spaces/"+spaceID, nil); r.Status != http.StatusResetContent {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		g := gqlSpace(t, e, team.Admin.Token, spaceID)
		sameSpace(t, g, restGet(t, e, team.Admin.Token, "/v1/spaces/"+spaceID))
		d := gqlOK(t, e.GraphQL(team.Admin.Token, `query($id: ID!) { organization(id: $id) { createdAt } }`, map[string]any{"id": team.Org.ID}))
		sameTime(t, "organization.createdAt", testenv.Path(d, "organization", "createdAt"), restGet(t, e, team.Admin.Token, "/v1/orgs/"+team.Org.ID)["createdAt"])
	})
}

// ---------------------------------------------------------------------------
// Authentication

func TestGraphQLAuthentication(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		for _, c := range []struct{ name, token string }{
			{"no token", team.Anon.Token},
			{"unknown token", "qt_not-a-real-token"},
			{"garbage token", strings.Repeat("x", 300)},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := e.GraphQL(c.token, `{ viewer { id } }`, nil)
				if r.Status != http.StatusUnauthorized {
					t.Errorf("HTTP %d, want 401: %s", r.Status, r.Raw)
				}
				if r.Code() != "UNAUTHENTICATED" || r.Data != nil {
					t.Errorf("response %s, want errors[0].extensions.code UNAUTHENTICATED and no data", r.Raw)
				}
				// Mutations are refused the same way, before anything runs.
				r = e.GraphQL(c.token, `mutation($in: CreateSpaceInput!) { createSpace(input: $in) { id } }`, map[string]any{"in": map[string]any{"organization": team.Org.ID}})
				if r.Status != http.StatusUnauthorized || r.Code() != "UNAUTHENTICATED" {
					t.Errorf("mutation: HTTP %d %s", r.Status, r.Raw)
				}
			})
		}
		// A bad Authorization scheme counts as no token.
		r := e.Do("", "POST", "/graphql", map[string]any{"query": "{ viewer { id } }"})
		if r.Status != http.StatusUnauthorized {
			t.Errorf("no header: %d %s", r.Status, r.Body)
		}
		n, err := e.Client().Space.Query().Count(context.Background())
		if err != nil || n != 0 {
			t.Errorf("spaces after refused mutations: %d %v", n, err)
		}
	})
}

// ---------------------------------------------------------------------------
// Internal errors

func TestGraphQLInternalErrorsDoNotLeak(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		spaceID := restSpace(t, e, team.Admin.Token, team.Org.ID, "Guide", nil)
		const secret = "pq: relation secret_table_xyz does not exist"
		cat := e.Server.Resolver().Catalog
		orig := cat.Content
		cat.Content = failingDuplicator{errors.New(secret)}
		t.Cleanup(func() { cat.Content = orig })

		r := e.GraphQL(team.Admin.Token, `mutation($id: ID!) { duplicateSpace(id: $id) { id } }`, map[string]any{"id": spaceID})
		if len(r.Errors) == 0 || r.Code() != "INTERNAL" || r.Errors[0].Message != "Internal error" {
			t.Errorf("GraphQL internal error = %s", r.Raw)
		}
		if strings.Contains(string(r.Raw), "secret_table") {
			t.Errorf("GraphQL leaks the internal error: %s", r.Raw)
		}
		rr := e.Do(team.Admin.Token, "POST", "/v1/spaces/"+spaceID+"/duplicate", nil)
		if rr.Status != http.StatusInternalServerError || testenv.Path(rr.JSON(), "error", "code") != float64(500) {
			t.Errorf("REST internal error = %d %s", rr.Status, rr.Body)
		}
		if strings.Contains(string(rr.Body), "secret_table") {
			t.Errorf("REST leaks the internal error: %s", rr.Body)
		}
		// The failed duplicate left nothing behind.
		l := restGet(t, e, team.Admin.Token, "/v1/orgs/"+team.Org.ID+"/spaces")
		if l["count"] != float64(1) {
			t.Errorf("spaces after failed duplicates = %v", l)
		}

		// A panic in a resolver is an internal error too.
		e.Server.Resolver().Catalog.Now = func() time.Time { panic("secret panic detail") }
		r = e.GraphQL(team.Admin.Token, `mutation($id: ID!) { deleteSpace(id: $id) { id deleted } }`, map[string]any{"id": spaceID})
		if len(r.Errors) == 0 || strings.Contains(string(r.Raw), "secret panic") || r.Code() != "INTERNAL" {
			t.Errorf("GraphQL panic = HTTP %d %s", r.Status, r.Raw)
		}
		rr = e.Do(team.Admin.Token, "DELETE", "/v1/spaces/"+spaceID, nil)
		if rr.Status != http.StatusInternalServerError || strings.Contains(string(rr.Body), "secret panic") {
			t.Errorf("REST panic = %d %s", rr.Status, rr.Body)
		}
	})
}

// failingDuplicator fails every space duplication with its error.
type failingDuplicator struct{ err error }

func (f failingDuplicator) DuplicateContent(context.Context, *ent.Tx, *ent.Space, *ent.Space) error {
	return f.err
}

func (f failingDuplicator) InitialContent(context.Context, *ent.Tx, *ent.Space) error {
	return f.err
}
