package graph_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"quire/ent"
	"quire/internal/db"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

func TestGraphQLNode(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		colID := restCollection(t, e, team.Admin.Token, team.Org.ID, "Guides", nil)
		spaceID := restSpace(t, e, team.Admin.Token, team.Org.ID, "Handbook", colID)
		otherSpace := restSpace(t, e, team.Outsider.Token, team.Other.ID, "Secret", nil)
		otherCol := restCollection(t, e, team.Outsider.Token, team.Other.ID, "Secret collection", nil)

		const doc = `query($id: ID!) { node(id: $id) { __typename id
			... on Organization { title }
			... on Collection { title }
			... on Space { title parent { id } }
			... on User { displayName } } }`
		for _, c := range []struct {
			name, id, typename, field, value string
		}{
			{"organization", team.Org.ID, "Organization", "title", "Acme"},
			{"collection", colID, "Collection", "title", "Guides"},
			{"space", spaceID, "Space", "title", "Handbook"},
			{"user self", team.Reader.User.ID, "User", "displayName", "reader"},
			{"user sharing an organization", team.Admin.User.ID, "User", "displayName", "admin"},
		} {
			t.Run(c.name, func(t *testing.T) {
				d := gqlOK(t, e.GraphQL(team.Reader.Token, doc, map[string]any{"id": c.id}))
				n := d["node"].(map[string]any)
				if n["__typename"] != c.typename || n["id"] != c.id || n[c.field] != c.value {
					t.Errorf("node(%s) = %v", c.id, n)
				}
			})
		}
		t.Run("space fragment", func(t *testing.T) {
			d := gqlOK(t, e.GraphQL(team.Reader.Token, `query($id: ID!) { node(id: $id) { id ...S } } fragment S on Space { title parent { title } }`, map[string]any{"id": spaceID}))
			if testenv.Path(d, "node", "title") != "Handbook" || testenv.Path(d, "node", "parent", "title") != "Guides" {
				t.Errorf("node = %v", d)
			}
			// The id is the REST id.
			rest := restGet(t, e, team.Reader.Token, "/v1/spaces/"+spaceID)
			if rest["id"] != testenv.Path(d, "node", "id") || rest["title"] != "Handbook" {
				t.Errorf("REST space = %v", rest)
			}
		})
		for _, c := range []struct{ name, id string }{
			{"other organization", team.Other.ID},
			{"space of another organization", otherSpace},
			{"collection of another organization", otherCol},
			{"user sharing no organization", team.Outsider.User.ID},
			{"unknown space", "S0000000000000000000"},
			{"not an id", "hello"},
			{"member id kind", "M0000000000000000000"},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := e.GraphQL(team.Reader.Token, doc, map[string]any{"id": c.id})
				gqlErr(t, r, "NOT_FOUND", "")
				if r.Data == nil {
					t.Errorf("data = null, want {node: null} (node is nullable): %s", r.Raw)
				} else if v, ok := r.Data["node"]; !ok || v != nil {
					t.Errorf("data.node = %v, want null", v)
				}
			})
		}
	})
}

func TestGraphQLNodes(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		colID := restCollection(t, e, team.Admin.Token, team.Org.ID, "Guides", nil)
		spaceID := restSpace(t, e, team.Admin.Token, team.Org.ID, "Handbook", colID)
		otherSpace := restSpace(t, e, team.Outsider.Token, team.Other.ID, "Secret", nil)
		otherCol := restCollection(t, e, team.Outsider.Token, team.Other.ID, "Secret collection", nil)

		list := []string{
			spaceID, otherSpace, "S0000000000000000000", team.Org.ID, team.Other.ID,
			colID, otherCol, team.Admin.User.ID, team.Outsider.User.ID, "nonsense", spaceID,
		}
		visible := []bool{true, false, false, true, false, true, false, true, false, false, true}
		d := gqlOK(t, e.GraphQL(team.Reader.Token, `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Space { title } } }`, map[string]any{"ids": list}))
		got := d["nodes"].([]any)
		if len(got) != len(list) {
			t.Fatalf("nodes: %d results for %d ids: %v", len(got), len(list), got)
		}
		for i, n := range got {
			if !visible[i] {
				if n != nil {
					t.Errorf("nodes[%d] (%s) = %v, want null", i, list[i], n)
				}
				continue
			}
			if testenv.Path(n, "id") != list[i] {
				t.Errorf("nodes[%d] = %v, want id %s", i, n, list[i])
			}
		}
		if testenv.Path(got, 0, "title") != "Handbook" || testenv.Path(got, 0, "__typename") != "Space" {
			t.Errorf("nodes[0] = %v", got[0])
		}
		// Too many ids.
		many := make([]string, 101)
		for i := range many {
			many[i] = spaceID
		}
		gqlErr(t, e.GraphQL(team.Reader.Token, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": many}), "BAD_REQUEST", "ids")
	})
}

// nodeFixture makes one object of a Node type, as the admin of the team's
// organization, and returns its id and whether the team's reader may see
// it too.
type nodeFixture func(t *testing.T) (id string, reader bool)

// nodeFixtures returns a fixture for every type that implements Node. A type
// added to the schema needs one here, and node support in graph/nodes.go.
func nodeFixtures(e *testenv.Env, team *testenv.Team) map[string]nodeFixture {
	admin := team.Admin.Token
	do := func(t *testing.T, doc string, vars map[string]any, path ...any) string {
		t.Helper()
		id, _ := testenv.Path(gqlOK(t, e.GraphQL(admin, doc, vars)), path...).(string)
		if id == "" {
			t.Fatalf("no id at %v from %s", path, doc)
		}
		return id
	}
	var space, site, section, spec string
	spaceOf := func(t *testing.T) string {
		if space == "" {
			col := do(t, `mutation($o: ID!) { createCollection(input: {organization: $o, title: "Nodes"}) { id } }`, map[string]any{"o": team.Org.ID}, "createCollection", "id")
			space = do(t, `mutation($o: ID!, $c: ID!) { createSpace(input: {organization: $o, title: "Node space", parent: $c}) { id } }`, map[string]any{"o": team.Org.ID, "c": col}, "createSpace", "id")
		}
		return space
	}
	siteOf := func(t *testing.T) string {
		if site == "" {
			site = do(t, `mutation($o: ID!, $sp: ID!) { createSite(input: {organization: $o, title: "Node site", spaces: [$sp]}) { id } }`, map[string]any{"o": team.Org.ID, "sp": spaceOf(t)}, "createSite", "id")
		}
		return site
	}
	sectionOf := func(t *testing.T) string {
		if section == "" {
			// A space is on a site once: the section gets a space of its own.
			guides := do(t, `mutation($o: ID!) { createSpace(input: {organization: $o, title: "Guides space"}) { id } }`, map[string]any{"o": team.Org.ID}, "createSpace", "id")
			section = do(t, `mutation($s: ID!, $sp: ID!) { addSiteSection(site: $s, input: {space: $sp, title: "Guides"}) { id } }`, map[string]any{"s": siteOf(t), "sp": guides}, "addSiteSection", "id")
		}
		return section
	}
	var conv *ent.ConversationIssue
	analysed := func(t *testing.T) *ent.ConversationIssue {
		if conv == nil {
			do(t, `mutation($o: ID!) { ingestConversation(organization: $o, conversations: [{id: "n-1", parts: [{role: user, body: "The PDF export fails."}]}]) { conversations { id } } }`,
				map[string]any{"o": team.Org.ID}, "ingestConversation", "conversations", 0, "id")
			ctx := jobs.NewContext(context.Background(), e.Client(), nil)
			if _, _, err := e.Server.Resolver().Conversations.AnalyseBatch(ctx, team.Org.ID, 10); err != nil {
				t.Fatal(err)
			}
			var err error
			if conv, err = e.Client().ConversationIssue.Query().First(ctx); err != nil {
				t.Fatal(err)
			}
		}
		return conv
	}
	specOf := func(t *testing.T) string {
		if spec == "" {
			spec = do(t, `mutation($o: ID!) { createOpenAPISpec(input: {organization: $o, slug: "nodes", source: {text: "openapi: 3.1.0\ninfo: {title: Nodes, version: '1'}\npaths: {}\n"}}) { id } }`,
				map[string]any{"o": team.Org.ID}, "createOpenAPISpec", "id")
		}
		return spec
	}
	return map[string]nodeFixture{
		"Conversation":      func(t *testing.T) (string, bool) { return analysed(t).ConversationID, true },
		"ConversationIssue": func(t *testing.T) (string, bool) { return analysed(t).ID, true },
		"ConversationsIssuesCluster": func(t *testing.T) (string, bool) {
			return *analysed(t).ClusterID, true
		},
		"Translation": func(t *testing.T) (string, bool) {
			return do(t, `mutation($o: ID!, $s: ID!) { createTranslation(input: {organization: $o, source: {space: $s, language: en}, language: fr}) { id } }`,
				map[string]any{"o": team.Org.ID, "s": spaceOf(t)}, "createTranslation", "id"), true
		},
		"OpenAPISpec": func(t *testing.T) (string, bool) { return specOf(t), true },
		// A version is made by the specification's processing job.
		"OpenAPISpecVersion": func(t *testing.T) (string, bool) {
			id := specOf(t)
			e.StartJobs()
			oaSettle(t, e, id)
			return do(t, `query($o: ID!) { openAPISpec(organization: $o, slug: "nodes") { lastVersion { id } } }`, map[string]any{"o": team.Org.ID}, "openAPISpec", "lastVersion", "id"), true
		},
		"Organization": func(t *testing.T) (string, bool) { return team.Org.ID, true },
		"User":         func(t *testing.T) (string, bool) { return team.Admin.User.ID, true },
		"Collection": func(t *testing.T) (string, bool) {
			return do(t, `mutation($o: ID!) { createCollection(input: {organization: $o, title: "Collection"}) { id } }`, map[string]any{"o": team.Org.ID}, "createCollection", "id"), true
		},
		"Space":       func(t *testing.T) (string, bool) { return spaceOf(t), true },
		"Site":        func(t *testing.T) (string, bool) { return siteOf(t), true },
		"SiteSection": func(t *testing.T) (string, bool) { return sectionOf(t), true },
		"SiteSectionGroup": func(t *testing.T) (string, bool) {
			return do(t, `mutation($s: ID!, $sec: ID!) { createSiteSectionGroup(site: $s, input: {title: "Group", sections: [$sec]}) { id } }`, map[string]any{"s": siteOf(t), "sec": sectionOf(t)}, "createSiteSectionGroup", "id"), true
		},
		"SiteSpace": func(t *testing.T) (string, bool) {
			return do(t, `query($s: ID!) { node(id: $s) { ... on SiteSection { siteSpaces(first: 1) { nodes { id } } } } }`, map[string]any{"s": sectionOf(t)}, "node", "siteSpaces", "nodes", 0, "id"), true
		},
		"Team": func(t *testing.T) (string, bool) {
			return do(t, `mutation($o: ID!) { createTeam(organization: $o, input: {title: "Node team"}) { id } }`, map[string]any{"o": team.Org.ID}, "createTeam", "id"), true
		},
		// Invite links are secrets, and SAML providers the admins': readers
		// may not list them.
		"InviteLink": func(t *testing.T) (string, bool) {
			return do(t, `mutation($o: ID!) { createInviteLink(organization: $o, input: {role: read}) { id } }`, map[string]any{"o": team.Org.ID}, "createInviteLink", "id"), false
		},
		"SAMLProvider": func(t *testing.T) (string, bool) {
			return do(t, `mutation($o: ID!) { createSAMLProvider(organization: $o, input: {label: "Node IdP"}) { id } }`, map[string]any{"o": team.Org.ID}, "createSAMLProvider", "id"), false
		},
		// Share links are secrets: readers may not list them.
		"SiteShareLink": func(t *testing.T) (string, bool) {
			return do(t, `mutation($s: ID!) { createSiteShareLink(site: $s, name: "Reviewers") { id } }`, map[string]any{"s": siteOf(t)}, "createSiteShareLink", "id"), false
		},
		"Revision": func(t *testing.T) (string, bool) {
			return do(t, `query($sp: ID!) { space(id: $sp) { revision } }`, map[string]any{"sp": spaceOf(t)}, "space", "revision"), true
		},
		"ChangeRequest": func(t *testing.T) (string, bool) {
			return do(t, `mutation($sp: ID!) { createChangeRequest(input: {space: $sp, subject: "Nodes"}) { id } }`, map[string]any{"sp": spaceOf(t)}, "createChangeRequest", "id"), true
		},
		"Comment": func(t *testing.T) (string, bool) {
			return do(t, `mutation($sp: ID!) { postComment(input: {space: $sp, body: {markdown: "Nodes"}}) { id } }`, map[string]any{"sp": spaceOf(t)}, "postComment", "id"), true
		},
		"CommentReply": func(t *testing.T) (string, bool) {
			c := do(t, `mutation($sp: ID!) { postComment(input: {space: $sp, body: {markdown: "Thread"}}) { id } }`, map[string]any{"sp": spaceOf(t)}, "postComment", "id")
			return do(t, `mutation($c: ID!) { postCommentReply(comment: $c, body: {markdown: "Reply"}) { id } }`, map[string]any{"c": c}, "postCommentReply", "id"), true
		},
		// The admin may review its own change request, but not approve it.
		"ChangeRequestReview": func(t *testing.T) (string, bool) {
			cr := do(t, `mutation($sp: ID!) { createChangeRequest(input: {space: $sp, subject: "Reviewed"}) { id } }`, map[string]any{"sp": spaceOf(t)}, "createChangeRequest", "id")
			return do(t, `mutation($cr: ID!) { submitChangeRequestReview(changeRequest: $cr, input: {status: changes_requested}) { id } }`, map[string]any{"cr": cr}, "submitChangeRequestReview", "id"), true
		},
		// A job working on the space, visible to whoever may view it.
		"Job": func(t *testing.T) (string, bool) {
			var id string
			err := db.WithTx(context.Background(), e.Client(), func(tx *ent.Tx) error {
				var err error
				id, err = e.Server.Jobs().Enqueue(context.Background(), tx, jobs.Request{Kind: jobs.KindSweepTrash,
					Organization: team.Org.ID, Space: spaceOf(t), Subject: "space:" + spaceOf(t)})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return id, true
		},
	}
}

// Every type that implements Node, as introspection lists them, is reached
// through node and nodes by a caller who may see the object, and by no
// member of another organization.
func TestGraphQLNodeResolvesEveryNodeType(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		d := gqlOK(t, e.GraphQL(team.Reader.Token, `{ __type(name: "Node") { possibleTypes { name } } }`, nil))
		fixtures := nodeFixtures(e, team)
		type object struct{ typename, id string }
		var objects []object
		var forReader []object
		for _, pt := range testenv.Path(d, "__type", "possibleTypes").([]any) {
			name := testenv.Path(pt, "name").(string)
			fixture, ok := fixtures[name]
			if !ok {
				t.Errorf("Node type %s has no fixture: add one to nodeFixtures, and its node support to graph/nodes.go", name)
				continue
			}
			id, reader := fixture(t)
			objects = append(objects, object{name, id})
			if reader {
				forReader = append(forReader, object{name, id})
			}
		}
		if len(objects) < len(fixtures) {
			t.Errorf("introspection lists %d Node types, the fixtures make %d", len(objects), len(fixtures))
		}

		const one = `query($id: ID!) { node(id: $id) { __typename id } }`
		const many = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`
		sees := func(t *testing.T, who testenv.Actor, list []object) {
			t.Helper()
			ids := make([]any, len(list))
			for i, o := range list {
				ids[i] = o.id
				n := gqlOK(t, e.GraphQL(who.Token, one, map[string]any{"id": o.id}))["node"]
				if testenv.Path(n, "__typename") != o.typename || testenv.Path(n, "id") != o.id {
					t.Errorf("node(%s) for a %s = %v", o.id, o.typename, n)
				}
			}
			got, _ := gqlOK(t, e.GraphQL(who.Token, many, map[string]any{"ids": ids}))["nodes"].([]any)
			if len(got) != len(list) {
				t.Fatalf("nodes: %d answers for %d ids", len(got), len(list))
			}
			for i, o := range list {
				if testenv.Path(got[i], "__typename") != o.typename || testenv.Path(got[i], "id") != o.id {
					t.Errorf("nodes[%d] for a %s = %v", i, o.typename, got[i])
				}
			}
		}
		hidden := func(t *testing.T, who testenv.Actor, list []object) {
			t.Helper()
			ids := make([]any, len(list))
			for i, o := range list {
				ids[i] = o.id
				r := e.GraphQL(who.Token, one, map[string]any{"id": o.id})
				if r.Code() != "NOT_FOUND" || r.Data == nil || r.Data["node"] != nil {
					t.Errorf("node(%s), a %s: %s, want NOT_FOUND and null", o.id, o.typename, r.Raw)
				}
				// The error names no other object (such as the site of a
				// section).
				for _, other := range list {
					if other.id != o.id && len(r.Errors) > 0 && strings.Contains(r.Errors[0].Message, other.id) {
						t.Errorf("node(%s), a %s: the error names %s: %q", o.id, o.typename, other.id, r.Errors[0].Message)
					}
				}
			}
			got, _ := gqlOK(t, e.GraphQL(who.Token, many, map[string]any{"ids": ids}))["nodes"].([]any)
			if len(got) != len(list) {
				t.Fatalf("nodes: %d answers for %d ids", len(got), len(list))
			}
			for i, n := range got {
				if n != nil {
					t.Errorf("nodes[%d], a %s, = %v, want null", i, list[i].typename, n)
				}
			}
		}
		t.Run("admin", func(t *testing.T) { sees(t, team.Admin, objects) })
		t.Run("reader", func(t *testing.T) {
			sees(t, team.Reader, forReader)
			var secret []object
			for _, o := range objects {
				if !slices.Contains(forReader, o) {
					secret = append(secret, o)
				}
			}
			hidden(t, team.Reader, secret)
		})
		t.Run("member of another organization", func(t *testing.T) { hidden(t, team.Outsider, objects) })
	})
}
