package graph

import (
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2"

	"quire/graph/generated"
)

// spaceSelections finds the site spaces' space selections however the query
// reaches them: nodes or edges { node }, through fragments, and not through
// a field @skip removes.
func TestCollectFollowsConnectionsAndFragments(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{Resolvers: &Resolver{}}).Schema()
	for _, c := range []struct {
		name, query       string
		spaces            int
		permissions, orgs bool
	}{
		{"nodes", `{ site(id: "s") { sections { nodes { siteSpaces { nodes { space { id permissions { view } } } } } } } }`, 1, true, false},
		{"edges", `{ site(id: "s") { sections { edges { node { siteSpaces { edges { node { space { organization { id } } } } } } } } } }`, 1, false, true},
		{"fragment", `{ site(id: "s") { ...F } } fragment F on Site { sections { nodes { siteSpaces { nodes { ... on SiteSpace { space { id } } } } } } }`, 1, false, false},
		{"skipped", `{ site(id: "s") { sections { nodes { siteSpaces { nodes { space @skip(if: true) { id } } } } } } }`, 0, false, false},
		{"no space", `{ site(id: "s") { sections { nodes { siteSpaces { nodes { id } } } } } }`, 0, false, false},
		{"both levels", `{ site(id: "s") { sections { nodes { siteSpaces { nodes { space { id } } } } } allSiteSpaces { nodes { space { permissions { edit } } } } } }`, 2, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, err := gqlparser.LoadQuery(schema, c.query)
			if err != nil {
				t.Fatal(err)
			}
			oc := &graphql.OperationContext{Doc: doc, Variables: map[string]any{}}
			site := graphql.CollectFields(oc, doc.Operations[0].SelectionSet, nil)[0]
			spaces, orgs, perms := spaceSelections(oc, site.Selections)
			if spaces != (c.spaces > 0) || perms != c.permissions || orgs != c.orgs {
				t.Errorf("spaces %v permissions %v organization %v, want %v %v %v", spaces, perms, orgs, c.spaces > 0, c.permissions, c.orgs)
			}
		})
	}
}
