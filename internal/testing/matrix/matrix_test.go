package matrix_test

import (
	"testing"

	"quire/internal/testing/testenv"
	"quire/internal/translate"
	"quire/internal/translate/fakelt"
)

// forEachDB runs fn on each database, with a server that may run
// translations (a LibreTranslate fake of the test's own).
func forEachDB(t *testing.T, fn func(t *testing.T, e *testenv.Env)) {
	for _, b := range testenv.Backends {
		t.Run(b, func(t *testing.T) {
			lt := fakelt.Start(t)
			fn(t, testenv.NewWith(t, b, testenv.Options{Translator: translate.NewLibreTranslate(lt.URL, "")}))
		})
	}
}

// TestAuthorizationMatrix asks every REST route and every GraphQL root
// field, mutation and subscription as every caller, against one fixture
// per database.
func TestAuthorizationMatrix(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *testenv.Env) {
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
			// Its event changes the fixture.
			{"graphql subscriptions", w.testSubscriptions},
			// Last: it configures a SAML provider of B.
			{"single sign-on", w.testSSO},
		} {
			t.Run(part.name, func(t *testing.T) {
				w.t, w.asked = t, 0
				part.run(t)
				t.Logf("%d requests", w.asked)
			})
		}
	})
}
