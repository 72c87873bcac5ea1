package graph_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"quire/graph/gqlguard"
	"quire/internal/testing/testenv"
)

// ---------------------------------------------------------------------------
// Limits

func TestGraphQLLimitsOverHTTP(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		spaceID := restSpace(t, e, team.Admin.Token, team.Org.ID, "Guide", nil)
		limits := gqlguard.DefaultLimits()

		t.Run("introspection", func(t *testing.T) {
			r := e.GraphQL(team.Reader.Token, testdataQuery(t, "graphiql-introspection.graphql"), nil)
			d := gqlOK(t, r)
			types, _ := testenv.Path(d, "__schema", "types").([]any)
			found := false
			for _, ty := range types {
				if testenv.Path(ty, "name") == "Space" {
					found = true
				}
			}
			if testenv.Path(d, "__schema", "queryType", "name") != "Query" || testenv.Path(d, "__schema", "mutationType", "name") != "Mutation" || !found {
				t.Errorf("introspection result lacks the schema: %.300s", r.Raw)
			}
		})

		t.Run("too deep", func(t *testing.T) {
			// collection { parent { parent { … { id } } } }: depth = 2 + parents.
			parents := limits.MaxDepth
			q := `query($id: ID!) { collection(id: $id) { ` + strings.Repeat("parent { ", parents) + "id" + strings.Repeat(" }", parents) + ` } }`
			r := e.GraphQL(team.Admin.Token, q, map[string]any{"id": "C0000000000000000000"})
			if r.Status != http.StatusUnprocessableEntity || r.Code() != gqlguard.CodeQueryTooDeep || r.Data != nil {
				t.Errorf("HTTP %d %s, want 422 %s", r.Status, r.Raw, gqlguard.CodeQueryTooDeep)
			}
			// At the limit it runs (and finds nothing).
			q = `query($id: ID!) { collection(id: $id) { ` + strings.Repeat("parent { ", limits.MaxDepth-2) + "id" + strings.Repeat(" }", limits.MaxDepth-2) + ` } }`
			gqlErr(t, e.GraphQL(team.Admin.Token, q, map[string]any{"id": "C0000000000000000000"}), "NOT_FOUND", "")
		})

		t.Run("too many aliases", func(t *testing.T) {
			var b strings.Builder
			b.WriteString("{ ")
			for i := 0; i < 40; i++ {
				fmt.Fprintf(&b, "a%d: viewer { id } ", i)
			}
			b.WriteString("}")
			r := e.GraphQL(team.Admin.Token, b.String(), nil)
			if r.Status != http.StatusUnprocessableEntity || r.Code() != gqlguard.CodeTooManyAliases || r.Data != nil {
				t.Errorf("HTTP %d %s, want 422 %s", r.Status, r.Raw, gqlguard.CodeTooManyAliases)
			}
			// Up to the limit it runs.
			b.Reset()
			b.WriteString("{ ")
			for i := 0; i < limits.MaxAliases; i++ {
				fmt.Fprintf(&b, "a%d: viewer { id } ", i)
			}
			b.WriteString("}")
			d := gqlOK(t, e.GraphQL(team.Admin.Token, b.String(), nil))
			if testenv.Path(d, "a0", "id") != team.Admin.User.ID {
				t.Errorf("aliases = %v", d)
			}
		})

		// What a request that runs no resolver costs: the token lookup.
		baseline := statements(e, func() { gqlOK(t, e.GraphQL(team.Admin.Token, `{ __typename }`, nil)) })
		for name, q := range map[string]string{
			"5000 __typename":        typenameFlood,
			"300 KB directive flood": directiveFlood,
		} {
			t.Run(name, func(t *testing.T) {
				var r *testenv.GQLResponse
				n := statements(e, func() { r = e.GraphQL(team.Admin.Token, q, nil) })
				gqlRefused(t, r, "GRAPHQL_PARSE_FAILED", "")
				if len(r.Errors) > 0 && r.Errors[0].Message != fmt.Sprintf("exceeded token limit of %d", limits.MaxTokens) {
					t.Errorf("message = %q", r.Errors[0].Message)
				}
				if n != baseline {
					t.Errorf("%d statements, want %d", n, baseline)
				}
			})
		}

		big := func(field string) []byte {
			pad := strings.Repeat("a", 1<<20)
			return []byte(`{"` + field + `":"` + pad + `"}`)
		}
		t.Run("body over 1 MiB", func(t *testing.T) {
			body := []byte(`{"query":"{ viewer { id } }","variables":{"pad":"` + strings.Repeat("a", 1<<20) + `"}}`)
			r := e.Do(team.Admin.Token, "POST", "/graphql", body)
			if r.Status != http.StatusRequestEntityTooLarge {
				t.Errorf("HTTP %d %.300s, want 413", r.Status, r.Body)
			}
			if code := testenv.Path(r.JSON(), "errors", 0, "extensions", "code"); code != "REQUEST_TOO_LARGE" {
				t.Errorf("code = %v: %.300s", code, r.Body)
			}
		})
		t.Run("REST body over 1 MiB", func(t *testing.T) {
			r := e.Do(team.Admin.Token, "PATCH", "/v1/spaces/"+spaceID, big("title"))
			if r.Status != http.StatusRequestEntityTooLarge {
				t.Errorf("HTTP %d %.300s, want 413", r.Status, r.Body)
			}
			if code := testenv.Path(r.JSON(), "error", "code"); code != float64(413) || str(testenv.Path(r.JSON(), "error", "message")) == "" {
				t.Errorf("body = %.300s, want {\"error\":{\"code\":413,...}}", r.Body)
			}
			// Nothing changed.
			if g := restGet(t, e, team.Admin.Token, "/v1/spaces/"+spaceID); g["title"] != "Guide" {
				t.Errorf("title = %v", g["title"])
			}
		})
	})
}
