package main

import (
	"strings"
	"testing"
)

// Bootstrap applies the API's rules to what it writes: an organization
// title the API refuses (1 or 256 characters), an address whose domain is
// not a domain name, and a display name too long or on several lines are
// usage errors that name the rule, and nothing is made.
func TestBootstrapRefusesWhatTheAPIRefuses(t *testing.T) {
	url := newMigratedDBURL(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--org", "G", "--email", "a@example.com"}, `--org "G": title must be between 2 and 255 characters long`},
		{[]string{"--org", " G ", "--email", "a@example.com"}, "title must be between 2 and 255 characters long"},
		{[]string{"--org", strings.Repeat("é", 256), "--email", "a@example.com"}, "title must be between 2 and 255 characters long"},
		{[]string{"--org", "Org", "--email", "a@example"}, `"example" is not a domain name`},
		{[]string{"--org", "Org", "--email", "a@exa_mple.com"}, `"exa_mple.com" is not a domain name`},
		{[]string{"--org", "Org", "--email", "<a@example.com>"}, "is not an email address"},
		{[]string{"--org", "Org", "--email", "a@example.com", "--name", strings.Repeat("n", 101)}, "--name has 101 characters; a display name has at most 100"},
		{[]string{"--org", "Org", "--email", "a@example.com", "--name", "Ada\nLovelace"}, "holds a control character"},
	} {
		args := append([]string{"admin", "bootstrap", "--database-url", url}, c.args...)
		code, stdout, stderr := quire(t, args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("bootstrap %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, stdout, stderr, c.want)
		}
	}
	// The bounds themselves are taken.
	out := bootstrap(t, url, "Go", "a@example.com", "--name", strings.Repeat("n", 100))
	d := openTestDB(t, url)
	if n := d.Client.Organization.Query().CountX(t.Context()); n != 1 {
		t.Errorf("%d organizations after the refused bootstraps and one taken, want 1", n)
	}
	if o := d.Client.Organization.GetX(t.Context(), out.Organization.ID); o.Title != "Go" {
		t.Errorf("organization title = %q, want Go", o.Title)
	}
}

// User creation checks the email address and display name as bootstrap
// does.
func TestUserCreateRefusesWhatTheAPIRefuses(t *testing.T) {
	url := newMigratedDBURL(t)
	bootstrap(t, url, "Org", "admin@example.com")
	for _, args := range [][]string{
		{"--email", "rita@localhost"},
		{"--email", "rita@example.com", "--name", strings.Repeat("n", 101)},
	} {
		code, stdout, stderr := quire(t, append([]string{"admin", "user", "create", "--database-url", url}, args...)...)
		if code != exitUsage || stdout != "" || stderr == "" {
			t.Errorf("user create %q: exit %d, stdout %q, stderr %q; want exit 2", args, code, stdout, stderr)
		}
	}
}
