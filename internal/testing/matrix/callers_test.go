package matrix_test

import (
	"context"
	"maps"
	"strings"

	"quire/ent/apitoken"
	"quire/internal/auth"
)

// level is what a caller may do in organization A, the target of every
// request, in the order of the member roles.
type level int

const (
	anonymous level = iota // no valid token
	signedIn               // a valid token, but no membership of A
	member                 // a member of A without a role (a guest)
	reader                 // role read
	commenter              // role comment (no caller has it: rows name it as the least level that may comment)
	editor                 // role edit
	reviewer               // role review
	creator                // role create
	admin                  // role admin
)

var levelNames = map[level]string{anonymous: "anonymous", signedIn: "signed in", member: "member",
	reader: "read", commenter: "comment", editor: "edit", reviewer: "review", creator: "create", admin: "admin"}

func (l level) String() string { return levelNames[l] }

// caller is one of the matrix's callers.
type caller struct {
	name  string
	token string
	level level
	// role is the caller's role in its own organization (A, or B), which
	// decides what the walk below the roots selects.
	role level
	// hidden holds the ids (and secrets) this caller must never be shown,
	// unless its request named them.
	hidden map[string]bool
}

// newCallers returns the cast: A's admin, editor, reader and guest, B's
// member (role edit) and admin, and callers with no token, an unknown
// token and a revoked one (of an admin of A).
func (w *world) newCallers() []*caller {
	a, b := w.a, w.b
	union := func(sets ...map[string]bool) map[string]bool {
		out := map[string]bool{}
		for _, s := range sets {
			maps.Copy(out, s)
		}
		return out
	}
	// What a guest of A may not see: all of A but A and its members.
	aContent := map[string]bool{}
	for id := range a.own {
		if !a.people[id] {
			aContent[id] = true
		}
	}
	sandbox := map[string]bool{w.sandbox: true}
	everything := union(a.own, b.own, a.secrets, b.secrets, sandbox)

	revoked := w.member(a, "revoked", "acme.test", "admin")
	id, err := tokenID(w, revoked.Token)
	if err != nil {
		w.t.Fatal(err)
	}
	if _, err := auth.RevokeToken(context.Background(), w.e.Client(), id); err != nil {
		w.t.Fatal(err)
	}

	return []*caller{
		{name: "A admin", token: a.admin.Token, level: admin, role: admin, hidden: union(b.own, b.secrets)},
		{name: "A editor", token: a.user["editor"].Token, level: editor, role: editor, hidden: union(b.own, a.secrets, b.secrets, sandbox)},
		{name: "A reader", token: a.user["reader"].Token, level: reader, role: reader, hidden: union(b.own, a.secrets, b.secrets, sandbox)},
		{name: "A guest", token: a.user["guest"].Token, level: member, role: member, hidden: union(b.own, aContent, a.secrets, b.secrets, sandbox)},
		{name: "B member", token: b.user["member"].Token, level: signedIn, role: editor, hidden: union(a.own, a.secrets, b.secrets, sandbox)},
		{name: "B admin", token: b.admin.Token, level: signedIn, role: admin, hidden: union(a.own, a.secrets, sandbox)},
		{name: "no token", level: anonymous, hidden: everything},
		{name: "unknown token", token: "qt_" + strings.Repeat("x", 40), level: anonymous, hidden: everything},
		{name: "revoked token", token: revoked.Token, level: anonymous, hidden: everything},
	}
}

// tokenID finds the id of a token by its secret, as the database stores it.
func tokenID(w *world, secret string) (string, error) {
	return w.e.Client().APIToken.Query().Where(apitoken.TokenHash(auth.Hash(secret))).OnlyID(context.Background())
}

// leaks returns the hidden ids the body shows, leaving out those the
// request itself named (an error message may echo them).
func (c *caller) leaks(body []byte, request string) []string {
	var out []string
	s := string(body)
	for id := range c.hidden {
		if strings.Contains(s, id) && !strings.Contains(request, id) {
			out = append(out, id)
		}
	}
	return out
}
