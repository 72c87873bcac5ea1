package want_test

import (
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2"

	"quire/graph/generated"
	"quire/graph/want"
)

// Site finds the site spaces' space selections however the query
// reaches them: nodes or edges { node }, through fragments, and not through
// a field @skip removes; and a share key wherever it is given.
func TestSiteFollowsConnectionsAndFragments(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	for _, c := range []struct {
		name, query       string
		spaces            int
		permissions, orgs bool
		links             bool
	}{
		{"nodes", `{ site(id: "s") { sections { nodes { siteSpaces { nodes { space { id permissions { view } } } } } } } }`, 1, true, false, false},
		{"edges", `{ site(id: "s") { sections { edges { node { siteSpaces { edges { node { space { organization { id } } } } } } } } } }`, 1, false, true, false},
		{"fragment", `{ site(id: "s") { ...F } } fragment F on Site { sections { nodes { siteSpaces { nodes { ... on SiteSpace { space { id } } } } } } }`, 1, false, false, false},
		{"skipped", `{ site(id: "s") { sections { nodes { siteSpaces { nodes { space @skip(if: true) { id } } } } } } }`, 0, false, false, false},
		{"no space", `{ site(id: "s") { sections { nodes { siteSpaces { nodes { id } } } } } }`, 0, false, false, false},
		{"both levels", `{ site(id: "s") { sections { nodes { siteSpaces { nodes { space { id } } } } } allSiteSpaces { nodes { space { permissions { edit } } } } } }`, 2, true, false, false},
		{"published", `{ site(id: "s") { publishedContent { customizations { site } } } }`, 1, true, false, false},
		{"share key", `{ site(id: "s") { sections { nodes { urls(shareKey: "k") { published } } } } }`, 0, false, false, true},
		{"null share key", `query($k: String) { site(id: "s") { urls(shareKey: $k) { published } } }`, 0, false, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, err := gqlparser.LoadQueryWithRules(schema, c.query, nil)
			if err != nil {
				t.Fatal(err)
			}
			oc := &graphql.OperationContext{Doc: doc, Variables: map[string]any{}}
			site := graphql.CollectFields(oc, doc.Operations[0].SelectionSet, nil)[0]
			w := want.Site(oc, site.Selections)
			if w.Spaces != (c.spaces > 0) || w.Collections != c.permissions || w.Organizations != c.orgs || w.ShareLinks != c.links {
				t.Errorf("want %+v, want spaces %v collections %v organizations %v share links %v", w, c.spaces > 0, c.permissions, c.orgs, c.links)
			}
		})
	}
}
