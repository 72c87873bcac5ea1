package main

import (
	"strings"
	"testing"

	"quire/internal/auth"
)

type revokeResult struct {
	Revoked struct {
		ID   string `json:"id"`
		User struct {
			ID string `json:"id"`
		} `json:"user"`
	} `json:"revoked"`
}

// A revoked token, named by its id or by its secret, no longer identifies
// anyone; the user's other tokens keep working.
func TestTokenRevoke(t *testing.T) {
	ctx := t.Context()
	url := newMigratedDBURL(t)
	boot := bootstrap(t, url, "Org", "admin@example.com")
	d := openTestDB(t, url)
	var second struct {
		Token   string `json:"token"`
		TokenID string `json:"tokenId"`
	}
	quireJSON(t, &second, "admin", "token", "create", "--database-url", url, "--user", boot.User.ID)
	if boot.TokenID == "" || second.TokenID == "" || boot.TokenID == second.TokenID {
		t.Fatalf("token ids %q and %q", boot.TokenID, second.TokenID)
	}

	var out revokeResult
	quireJSON(t, &out, "admin", "token", "revoke", "--database-url", url, "--token-id", boot.TokenID)
	if out.Revoked.ID != boot.TokenID || out.Revoked.User.ID != boot.User.ID {
		t.Errorf("revoked %+v, want token %s of %s", out.Revoked, boot.TokenID, boot.User.ID)
	}
	if u, err := auth.Lookup(ctx, d.Client, boot.Token); u != nil || err != nil {
		t.Errorf("revoked token looks up %v, %v; want nobody", u, err)
	}
	if u, err := auth.Lookup(ctx, d.Client, second.Token); err != nil || u == nil || u.ID != boot.User.ID {
		t.Fatalf("the other token looks up %v, %v", u, err)
	}

	// By secret; the output names the token, never the secret.
	code, stdout, stderr := quire(t, "admin", "token", "revoke", "--database-url", url, "--token", second.Token)
	if code != 0 || !strings.Contains(stdout, second.TokenID) || strings.Contains(stdout+stderr, second.Token) {
		t.Errorf("revoke by secret: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if u, err := auth.Lookup(ctx, d.Client, second.Token); u != nil || err != nil {
		t.Errorf("revoked token looks up %v, %v; want nobody", u, err)
	}

	// Revoking again, or an unknown token, fails without output.
	for _, args := range [][]string{{"--token-id", boot.TokenID}, {"--token", second.Token}, {"--token", "qt_unknown"}} {
		code, stdout, stderr := quire(t, append([]string{"admin", "token", "revoke", "--database-url", url}, args...)...)
		if code != 1 || stdout != "" || !strings.Contains(stderr, "no such token") {
			t.Errorf("revoke %v again: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	// One of the two flags, exactly.
	for _, args := range [][]string{{}, {"--token-id", "x", "--token", "y"}} {
		if code, _, _ := quire(t, append([]string{"admin", "token", "revoke", "--database-url", url}, args...)...); code != 2 {
			t.Errorf("revoke %v: exit %d, want 2", args, code)
		}
	}
}
