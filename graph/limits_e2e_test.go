package graph_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"quire/graph"
	"quire/internal/testenv"
)

// ---------------------------------------------------------------------------
// Limits

// introspectionQuery is graphql-js's getIntrospectionQuery() as GraphiQL
// sends it (descriptions on, TypeRef nested 7 levels of ofType).
const introspectionQuery = `
    query IntrospectionQuery {
      __schema {
        queryType { name }
        mutationType { name }
        subscriptionType { name }
        types {
          ...FullType
        }
        directives {
          name
          description
          locations
          args {
            ...InputValue
          }
        }
      }
    }

    fragment FullType on __Type {
      kind
      name
      description
      fields(includeDeprecated: true) {
        name
        description
        args {
          ...InputValue
        }
        type {
          ...TypeRef
        }
        isDeprecated
        deprecationReason
      }
      inputFields {
        ...InputValue
      }
      interfaces {
        ...TypeRef
      }
      enumValues(includeDeprecated: true) {
        name
        description
        isDeprecated
        deprecationReason
      }
      possibleTypes {
        ...TypeRef
      }
    }

    fragment InputValue on __InputValue {
      name
      description
      type { ...TypeRef }
      defaultValue
    }

    fragment TypeRef on __Type {
      kind
      name
      ofType {
        kind
        name
        ofType {
          kind
          name
          ofType {
            kind
            name
            ofType {
              kind
              name
              ofType {
                kind
                name
                ofType {
                  kind
                  name
                  ofType {
                    kind
                    name
                  }
                }
              }
            }
          }
        }
      }
    }
`

func TestGraphQLLimitsOverHTTP(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		spaceID := restSpace(t, e, team.Admin.Token, team.Org.ID, "Guide", nil)
		limits := graph.DefaultLimits()

		t.Run("introspection", func(t *testing.T) {
			r := e.GraphQL(team.Reader.Token, introspectionQuery, nil)
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
			if r.Status != http.StatusUnprocessableEntity || r.Code() != graph.CodeQueryTooDeep || r.Data != nil {
				t.Errorf("HTTP %d %s, want 422 %s", r.Status, r.Raw, graph.CodeQueryTooDeep)
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
			if r.Status != http.StatusUnprocessableEntity || r.Code() != graph.CodeTooManyAliases || r.Data != nil {
				t.Errorf("HTTP %d %s, want 422 %s", r.Status, r.Raw, graph.CodeTooManyAliases)
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

		t.Run("5000 __typename", func(t *testing.T) {
			q := "{ " + strings.Repeat("__typename ", 5000) + "}"
			r := e.GraphQL(team.Admin.Token, q, nil)
			if len(r.Errors) == 0 || r.Data != nil {
				t.Fatalf("HTTP %d %.300s, want a refusal", r.Status, r.Raw)
			}
			if r.Status < 400 {
				t.Errorf("HTTP %d, want a 4xx refusal: %.300s", r.Status, r.Raw)
			}
			t.Logf("5,000 __typename: HTTP %d, code %s, message %q", r.Status, r.Code(), r.Errors[0].Message)
		})

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
