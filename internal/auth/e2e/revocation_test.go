package e2e_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"quire/internal/auth"
	"quire/internal/catalog"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

// revocation is one way of taking access away: a subject who may make a
// request, then a change after which they may not.
type revocation struct {
	name string
	// setup prepares the subject and returns their token, their request
	// and the change that refuses it.
	setup func(t *testing.T, f *fixture) (token, method, path string, revoke func())
	// refused is the status the request gets after the change.
	refused int
}

// fixture is an organization with an admin and a few spaces, served by two
// processes sharing one database: the first (a) makes every change.
type fixture struct {
	a, b  *testenv.Env
	team  *testenv.Team
	admin string
	org   string
	n     int
}

// guest makes a new user a guest of the organization.
func (f *fixture) guest(t *testing.T) (id, token string) {
	t.Helper()
	f.n++
	u, tok := f.a.User("subject" + string(rune('a'+f.n)) + "@acme.test")
	f.a.Member(f.team.Org, u, "")
	return u.ID, tok
}

// do sends a request through the first process, with the admin's token.
func (f *fixture) do(t *testing.T, method, path string, body any, want int) map[string]any {
	t.Helper()
	r := f.a.Do(f.admin, method, path, body)
	if r.Status != want {
		t.Fatalf("%s %s: %d %s, want %d", method, path, r.Status, r.Body, want)
	}
	if len(r.Body) == 0 {
		return nil
	}
	return r.JSON()
}

func (f *fixture) space(t *testing.T, parent string) string {
	t.Helper()
	body := map[string]any{"title": "Space"}
	if parent != "" {
		body["parent"] = parent
	}
	return f.do(t, "POST", "/v1/orgs/"+f.org+"/spaces", body, 201)["id"].(string)
}

// Access is taken away by every path, and the subject's next request is
// refused by the process that made the change and by another process
// sharing the database, although both kept the subject's caller (on
// PostgreSQL; SQLite keeps none). Each change must be announced: a change
// whose announcement is missing leaves a process serving the caller it
// kept, and the request allowed. A grant on a deleted space or collection
// gives nothing (neither comes back, and a deleted collection's spaces
// leave it), so for those two the request is refused either way and the
// check is that both processes forgot the callers they kept.
func TestRevokedAccessRefusedOnEveryProcess(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, a *testenv.Env) {
		ctx := context.Background()
		team := a.NewTeam()
		f := &fixture{a: a, b: a.SeparateReplica(testenv.Options{}), team: team, admin: team.Admin.Token, org: team.Org.ID}
		var changes atomic.Int64
		defer a.DB.AccessChanges().Subscribe(func() { changes.Add(1) })()
		open := f.space(t, "")

		for _, c := range []revocation{
			{name: "member removed", refused: 404, setup: func(t *testing.T, f *fixture) (string, string, string, func()) {
				u, tok := f.a.User("removed@acme.test")
				f.a.Member(f.team.Org, u, "read")
				return tok, "GET", "/v1/spaces/" + open, func() {
					f.do(t, "DELETE", "/v1/orgs/"+f.org+"/members/"+u.ID, nil, 205)
				}
			}},
			{name: "role lowered", refused: 403, setup: func(t *testing.T, f *fixture) (string, string, string, func()) {
				u, tok := f.a.User("lowered@acme.test")
				f.a.Member(f.team.Org, u, "admin")
				return tok, "GET", "/v1/orgs/" + f.org + "/link-invites", func() {
					f.do(t, "PATCH", "/v1/orgs/"+f.org+"/members/"+u.ID, map[string]any{"role": "read"}, 200)
				}
			}},
			{name: "team membership removed", refused: 404, setup: func(t *testing.T, f *fixture) (string, string, string, func()) {
				id, tok := f.guest(t)
				tid := f.do(t, "PUT", "/v1/orgs/"+f.org+"/teams", map[string]any{"title": "Left", "members": []string{id}}, 201)["id"].(string)
				f.do(t, "POST", "/v1/spaces/"+open+"/permissions", map[string]any{"role": "read", "teams": []string{tid}}, 204)
				return tok, "GET", "/v1/spaces/" + open, func() {
					f.do(t, "DELETE", "/v1/orgs/"+f.org+"/teams/"+tid+"/members/"+id, nil, 205)
				}
			}},
			{name: "team deleted with its permissions", refused: 404, setup: func(t *testing.T, f *fixture) (string, string, string, func()) {
				id, tok := f.guest(t)
				tid := f.do(t, "PUT", "/v1/orgs/"+f.org+"/teams", map[string]any{"title": "Gone", "members": []string{id}}, 201)["id"].(string)
				f.do(t, "POST", "/v1/spaces/"+open+"/permissions", map[string]any{"role": "read", "teams": []string{tid}}, 204)
				return tok, "GET", "/v1/spaces/" + open, func() {
					f.do(t, "DELETE", "/v1/orgs/"+f.org+"/teams/"+tid, nil, 205)
				}
			}},
			{name: "permission removed", refused: 404, setup: func(t *testing.T, f *fixture) (string, string, string, func()) {
				id, tok := f.guest(t)
				f.do(t, "POST", "/v1/spaces/"+open+"/permissions", map[string]any{"role": "read", "users": []string{id}}, 204)
				return tok, "GET", "/v1/spaces/" + open, func() {
					f.do(t, "DELETE", "/v1/spaces/"+open+"/permissions/users/"+id, nil, 205)
				}
			}},
			{name: "collection deleted with its permissions", refused: 404, setup: func(t *testing.T, f *fixture) (string, string, string, func()) {
				id, tok := f.guest(t)
				col := f.do(t, "POST", "/v1/orgs/"+f.org+"/collections", map[string]any{"title": "Doomed"}, 201)["id"].(string)
				inside := f.space(t, col)
				f.do(t, "POST", "/v1/collections/"+col+"/permissions", map[string]any{"role": "read", "users": []string{id}}, 204)
				return tok, "GET", "/v1/spaces/" + inside, func() {
					f.do(t, "DELETE", "/v1/collections/"+col, nil, 205)
				}
			}},
			{name: "space deleted with its permissions", refused: 404, setup: func(t *testing.T, f *fixture) (string, string, string, func()) {
				id, tok := f.guest(t)
				sp := f.space(t, "")
				f.do(t, "POST", "/v1/spaces/"+sp+"/permissions", map[string]any{"role": "read", "users": []string{id}}, 204)
				// Trashed first, as the API does; that changes no
				// permission, and is done before the subject is kept.
				return tok, "GET", "/v1/spaces/" + sp, func() {
					f.do(t, "DELETE", "/v1/spaces/"+sp, nil, 205)
					later := time.Now().Add(catalog.Retention + time.Hour)
					if _, err := jobs.PurgeDeletedSpaces(ctx, f.a.Client(), f.a.Server.Resolver().Content, later); err != nil {
						t.Fatal(err)
					}
				}
			}},
			{name: "organization deleted", refused: 404, setup: func(t *testing.T, f *fixture) (string, string, string, func()) {
				org := f.a.Org("Short-lived")
				u, tok := f.a.User("shortlived@acme.test")
				f.a.Member(org, u, "admin")
				// Quire's doors delete no organization: an administrator
				// does, in the database, as this does through ent.
				return tok, "GET", "/v1/orgs/" + org.ID, func() {
					if err := f.a.Client().Organization.DeleteOneID(org.ID).Exec(ctx); err != nil {
						t.Fatal(err)
					}
				}
			}},
			{name: "token revoked", refused: 401, setup: func(t *testing.T, f *fixture) (string, string, string, func()) {
				u, _ := f.a.User("revoked@acme.test")
				id, tok, err := auth.IssueToken(ctx, f.a.Client(), u.ID, "revoked")
				if err != nil {
					t.Fatal(err)
				}
				return tok, "GET", "/v1/user", func() {
					if _, err := auth.RevokeToken(ctx, f.a.Client(), id); err != nil {
						t.Fatal(err)
					}
				}
			}},
		} {
			t.Run(c.name, func(t *testing.T) {
				tok, method, path, revoke := c.setup(t, f)
				a, b := f.a, f.b
				sync := func() {
					t.Helper()
					ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
					defer cancel()
					if err := b.Server.Callers().Sync(ctx); err != nil {
						t.Fatal(err)
					}
				}
				// b has heard of the setup, then both keep the subject.
				sync()
				for _, e := range []*testenv.Env{a, b} {
					if r := e.Do(tok, method, path, nil); r.Status != 200 {
						t.Fatalf("before: %s %s: %d %s", method, path, r.Status, r.Body)
					}
				}
				announced, bForgot := changes.Load(), b.Server.Callers().Forgets()
				revoke()
				if r := a.Do(tok, method, path, nil); r.Status != c.refused {
					t.Errorf("the same process: %s %s: %d %s, want %d", method, path, r.Status, r.Body, c.refused)
				}
				if changes.Load() == announced {
					t.Error("the change was not announced")
				}
				sync()
				if r := b.Do(tok, method, path, nil); r.Status != c.refused {
					t.Errorf("another process: %s %s: %d %s, want %d", method, path, r.Status, r.Body, c.refused)
				}
				if a.Dialect == "postgres" && b.Server.Callers().Forgets() == bForgot {
					t.Error("another process kept the callers it had")
				}
			})
		}
	})
}
