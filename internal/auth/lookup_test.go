package auth_test

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"quire/ent"
	"quire/ent/member"
	"quire/internal/auth"
	"quire/internal/testdb"
	"quire/internal/testenv"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// LookupWithMemberships reads the user and the memberships in one
// statement and must give what ent's own queries give, every column
// included (a guest without a role, a disabled membership, a last-seen
// time), on both databases.
func TestLookupWithMembershipsMatchesEntQueries(t *testing.T) {
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

		before := e.Statements()
		got, members, err := auth.LookupWithMemberships(ctx, e.DB.Client, tok)
		if err != nil {
			t.Fatal(err)
		}
		if n := e.Statements() - before; n != 1 {
			t.Errorf("%d statements, want 1", n)
		}
		want, err := auth.Lookup(ctx, e.DB.Client, tok)
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

		// A user without memberships, and an unknown token.
		lone, loneTok := e.User("lone@acme.test")
		got, members, err = auth.LookupWithMemberships(ctx, e.DB.Client, loneTok)
		if err != nil || got == nil || got.ID != lone.ID || len(members) != 0 {
			t.Errorf("no memberships: %v %v %v", got, members, err)
		}
		got, members, err = auth.LookupWithMemberships(ctx, e.DB.Client, tok+"x")
		if err != nil || got != nil || members != nil {
			t.Errorf("unknown token: %v %v %v", got, members, err)
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

func sortedJSON(t *testing.T, ms []*ent.Member) []string {
	var out []string
	for _, m := range ms {
		out = append(out, jsonOf(t, m))
	}
	slices.Sort(out)
	return out
}
