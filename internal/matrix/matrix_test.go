package matrix_test

import (
	"testing"

	"quire/internal/testenv"
)

// TestAuthorizationMatrix asks every REST route and every GraphQL root
// field, mutation and subscription as every caller, against one fixture
// per database.
func TestAuthorizationMatrix(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		w := newWorld(t, e)
		for _, part := range []struct {
			name string
			run  func(*testing.T)
		}{
			// Reads first, on the fixture as it was built.
			{"graphql queries", w.testQueries},
			{"graphql nested", w.testNested},
			{"rest", w.testREST},
			{"graphql mutations", w.testMutations},
			{"read-only fields", w.testPatch},
			{"foreign ids", w.testForeign},
			// Last: its event changes the fixture.
			{"graphql subscriptions", w.testSubscriptions},
		} {
			t.Run(part.name, func(t *testing.T) {
				w.t, w.asked = t, 0
				part.run(t)
				t.Logf("%d requests", w.asked)
			})
		}
	})
}
