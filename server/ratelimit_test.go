package server

import (
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2"

	"quire/graph/generated"
)

func TestContentMutationsAreMutations(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	for name := range contentMutations {
		if schema.Mutation.Fields.ForName(name) == nil {
			t.Errorf("%s is not a field of Mutation", name)
		}
	}
}

func TestContentFields(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	const page = `createPage(input: {changeRequest: "Q", title: "T"}) { revision { id } }`
	for _, tc := range []struct {
		query string
		want  int
	}{
		{`{ viewer { id } }`, 0},
		{`mutation { createSpace(input: {organization: "O", title: "T"}) { id } }`, 0},
		{`mutation { ` + page + ` }`, 1},
		{`mutation { a: ` + page + ` b: ` + page + ` createChangeRequest(input: {space: "S"}) { id } }`, 3},
		// One response key: the fields merge and run once.
		{`mutation { ` + page + ` ` + page + ` }`, 1},
		{`mutation { ...P ... on Mutation { c: ` + page + ` } } fragment P on Mutation { d: ` + page + ` }`, 2},
	} {
		doc, errs := gqlparser.LoadQueryWithRules(schema, tc.query, nil)
		if errs != nil {
			t.Fatalf("%s: %v", tc.query, errs)
		}
		oc := &graphql.OperationContext{Doc: doc, Operation: doc.Operations[0]}
		if got := contentFields(oc); got != tc.want {
			t.Errorf("%s: %d content fields, want %d", tc.query, got, tc.want)
		}
	}
}
