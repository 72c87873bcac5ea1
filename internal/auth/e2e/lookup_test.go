package e2e_test

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"quire/ent/member"
	"quire/ent/organization"
	"quire/internal/auth"
	"quire/internal/testing/testdb"
	"quire/internal/testing/testenv"
	"quire/internal/types"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// LookupCaller reads the user, the memberships and their organizations in
// one statement and must give what ent's own queries give, every column
// included (a guest without a role, a disabled membership, a last-seen
// time, organizations with email domains, merge rules and a default role),
// on both databases.
func TestLookupCallerMatchesEntQueries(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		ctx := context.Background()
		team := e.NewTeam()
		u, tok := team.Admin.User, team.Admin.Token
		// The admin is also a guest (no role) of another organization, and
		// disabled in a third, seen a minute ago.
		e.Member(team.Other, u, "")
		third := e.Org("Third")
		e.Member(third, u, "read")
		seen := time.Now().UTC().Add(-time.Minute).Truncate(time.Microsecond)
		if err := e.DB.Client.Member.Update().Where(member.OrganizationID(third.ID), member.UserID(u.ID)).
			SetDisabled(true).SetLastSeenAt(seen).Exec(ctx); err != nil {
			t.Fatal(err)
		}

		if err := e.DB.Client.Organization.UpdateOneID(third.ID).SetEmailDomains([]string{"third.test"}).
			SetMergeRules(types.MergeRules{Type: "rules", Rules: []types.MergeRule{{Rule: "require_description"}}}).
			SetDefaultRole(types.Role("read")).SetHostname("docs.third.test").Exec(ctx); err != nil {
			t.Fatal(err)
		}

		before := e.Statements()
		c, err := auth.LookupCaller(ctx, e.DB.Client, tok)
		if err != nil || c == nil {
			t.Fatal(c, err)
		}
		got, members := c.User, c.Memberships
		if n := e.Statements() - before; n != 1 {
			t.Errorf("%d statements, want 1", n)
		}
		want, err := e.DB.Client.User.Get(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		wantMembers, err := e.DB.Client.Member.Query().Where(member.UserID(u.ID)).All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := jsonOf(t, got), jsonOf(t, want); g != w {
			t.Errorf("user:\n got %s\nwant %s", g, w)
		}
		if g, w := sortedJSON(t, members), sortedJSON(t, wantMembers); !slices.Equal(g, w) || len(g) != 3 {
			t.Errorf("memberships:\n got %v\nwant %v (3)", g, w)
		}
		wantOrgs, err := e.DB.Client.Organization.Query().Where(organization.IDIn(team.Org.ID, team.Other.ID, third.ID)).All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := sortedJSON(t, c.Organizations), sortedJSON(t, wantOrgs); !slices.Equal(g, w) || len(g) != 3 {
			t.Errorf("organizations:\n got %v\nwant %v (3)", g, w)
		}

		// A user without memberships, and an unknown token.
		lone, loneTok := e.User("lone@acme.test")
		c, err = auth.LookupCaller(ctx, e.DB.Client, loneTok)
		if err != nil || c == nil || c.User.ID != lone.ID || len(c.Memberships) != 0 || len(c.Organizations) != 0 {
			t.Errorf("no memberships: %+v %v", c, err)
		}
		c, err = auth.LookupCaller(ctx, e.DB.Client, tok+"x")
		if err != nil || c != nil {
			t.Errorf("unknown token: %+v %v", c, err)
		}
	})
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func sortedJSON[T any](t *testing.T, ms []T) []string {
	var out []string
	for _, m := range ms {
		out = append(out, jsonOf(t, m))
	}
	slices.Sort(out)
	return out
}
