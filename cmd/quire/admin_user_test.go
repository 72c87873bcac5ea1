package main

import (
	"strings"
	"testing"
)

// A user's email address is verified at creation (--verified) or later
// (user verify), and can be marked not verified again.
func TestUserVerify(t *testing.T) {
	ctx := t.Context()
	url := newMigratedDBURL(t)
	bootstrap(t, url, "Org", "admin@example.com")
	d := openTestDB(t, url)
	var made userCreateOutput
	quireJSON(t, &made, "admin", "user", "create", "--database-url", url, "--email", "vera@example.com", "--verified")
	if u, err := d.Client.User.Get(ctx, made.User.ID); err != nil || u.EmailVerifiedAt == nil {
		t.Fatalf("created with --verified: %+v %v", u, err)
	}
	quireJSON(t, &made, "admin", "user", "create", "--database-url", url, "--email", "nell@example.com")
	if u, _ := d.Client.User.Get(ctx, made.User.ID); u.EmailVerifiedAt != nil {
		t.Errorf("created without --verified: verified")
	}
	var out userVerifyOutput
	quireJSON(t, &out, "admin", "user", "verify", "--database-url", url, "--email", "NELL@example.com")
	if out.User.ID != made.User.ID || out.User.EmailVerifiedAt == nil {
		t.Errorf("verify: %+v", out)
	}
	quireJSON(t, &out, "admin", "user", "verify", "--database-url", url, "--user", made.User.ID, "--unverify")
	if out.User.EmailVerifiedAt != nil {
		t.Errorf("unverify: %+v", out)
	}
	if u, _ := d.Client.User.Get(ctx, made.User.ID); u.EmailVerifiedAt != nil {
		t.Errorf("stored after unverify: %v", u.EmailVerifiedAt)
	}
	if code, stdout, stderr := quire(t, "admin", "user", "verify", "--database-url", url, "--email", "nobody@example.com"); code != 1 || stdout != "" || !strings.Contains(stderr, "no such user") {
		t.Errorf("unknown user: %d %q %q", code, stdout, stderr)
	}
	if code, _, _ := quire(t, "admin", "user", "verify", "--database-url", url); code != 2 {
		t.Errorf("no user named: exit %d", code)
	}
}
