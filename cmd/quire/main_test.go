package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"quire/ent/member"
	"quire/internal/auth"
	"quire/internal/db"
	"quire/internal/testing/testdb"
	"quire/internal/types"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// newDBURL returns the URL of a fresh SQLite database, which does not
// exist yet.
func newDBURL(t *testing.T) string {
	t.Helper()
	return "sqlite:" + t.TempDir() + "/q.db"
}

// newMigratedDBURL returns the URL of a fresh, migrated SQLite database,
// as the admin commands need.
func newMigratedDBURL(t *testing.T) string {
	t.Helper()
	url := newDBURL(t)
	if code, _, stderr := quire(t, "migrate", "--database-url", url); code != 0 {
		t.Fatalf("migrate: exit %d\n%s", code, stderr)
	}
	return url
}

// quire runs the command line with no environment and returns its exit
// code, stdout and stderr.
func quire(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), args, &stdout, &stderr, func(string) string { return "" })
	return code, stdout.String(), stderr.String()
}

// quireJSON runs a command that must succeed and decodes its stdout, which
// must be exactly one JSON line.
func quireJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	code, stdout, stderr := quire(t, args...)
	if code != 0 {
		t.Fatalf("quire %s: exit %d\nstderr:\n%s", strings.Join(args, " "), code, stderr)
	}
	if strings.Count(stdout, "\n") != 1 || !strings.HasSuffix(stdout, "\n") {
		t.Fatalf("quire %s: stdout is not one line: %q", strings.Join(args, " "), stdout)
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("quire %s: stdout %q: %v", strings.Join(args, " "), stdout, err)
	}
}

func openTestDB(t *testing.T, url string) *db.DB {
	t.Helper()
	d, err := db.Open(url, db.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

type bootstrapResult struct {
	Organization struct {
		ID string `json:"id"`
	} `json:"organization"`
	User struct {
		ID string `json:"id"`
	} `json:"user"`
	Token   string `json:"token"`
	TokenID string `json:"tokenId"`
}

func bootstrap(t *testing.T, url, org, email string, extra ...string) bootstrapResult {
	t.Helper()
	var out bootstrapResult
	quireJSON(t, &out, append([]string{"admin", "bootstrap", "--database-url", url, "--org", org, "--email", email}, extra...)...)
	if out.Organization.ID == "" || out.User.ID == "" || out.Token == "" {
		t.Fatalf("bootstrap output has empty fields: %+v", out)
	}
	return out
}

func TestBootstrap(t *testing.T) {
	ctx := t.Context()
	url := newMigratedDBURL(t)
	first := bootstrap(t, url, "My org", "ada@example.com")

	d := openTestDB(t, url)
	u, err := auth.Lookup(ctx, d.Client, first.Token)
	if err != nil {
		t.Fatal(err)
	}
	if u == nil || u.ID != first.User.ID {
		t.Fatalf("token looks up %v, want user %s", u, first.User.ID)
	}
	if u.Email != "ada@example.com" || u.DisplayName != "ada" {
		t.Errorf("user = %q %q, want ada@example.com ada", u.Email, u.DisplayName)
	}
	o, err := d.Client.Organization.Get(ctx, first.Organization.ID)
	if err != nil {
		t.Fatal(err)
	}
	if o.Title != "My org" {
		t.Errorf("organization title = %q", o.Title)
	}
	m, err := d.Client.Member.Query().Where(member.OrganizationID(o.ID), member.UserID(u.ID)).Only(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if m.Role == nil || *m.Role != types.RoleAdmin {
		t.Errorf("member role = %v, want admin", m.Role)
	}

	// A second organization with the same email reuses the user.
	second := bootstrap(t, url, "Other org", "ada@example.com", "--name", "Ignored")
	if second.User.ID != first.User.ID {
		t.Errorf("second bootstrap user = %s, want reused %s", second.User.ID, first.User.ID)
	}
	if second.Organization.ID == first.Organization.ID || second.Token == first.Token {
		t.Errorf("second bootstrap reused the organization or token: %+v", second)
	}
	u2, err := auth.Lookup(ctx, d.Client, second.Token)
	if err != nil || u2 == nil || u2.ID != first.User.ID {
		t.Fatalf("second token looks up %v, %v", u2, err)
	}
	if n := d.Client.Member.Query().Where(member.UserID(u.ID)).CountX(ctx); n != 2 {
		t.Errorf("user has %d memberships, want 2", n)
	}
}

func TestBootstrapName(t *testing.T) {
	url := newMigratedDBURL(t)
	out := bootstrap(t, url, "Org", "grace@example.com", "--name", "Grace Hopper")
	d := openTestDB(t, url)
	u := d.Client.User.GetX(t.Context(), out.User.ID)
	if u.DisplayName != "Grace Hopper" {
		t.Errorf("display name = %q", u.DisplayName)
	}
}

func TestBootstrapUsage(t *testing.T) {
	url := newMigratedDBURL(t)
	for _, args := range [][]string{
		{"admin", "bootstrap", "--database-url", url, "--email", "a@example.com"},
		{"admin", "bootstrap", "--database-url", url, "--org", "Org"},
		{"admin", "bootstrap", "--database-url", url, "--org", "Org", "--email", "not-an-email"},
		{"admin", "bootstrap", "--database-url", url, "--org", "Org", "--email", "a@example.com", "extra"},
		{"admin", "bootstrap", "--no-such-flag"},
	} {
		code, stdout, _ := quire(t, args...)
		if code != 2 || stdout != "" {
			t.Errorf("quire %s: exit %d, stdout %q; want 2 and nothing", strings.Join(args, " "), code, stdout)
		}
	}
}

type userResult struct {
	User struct {
		ID string `json:"id"`
	} `json:"user"`
	Token   string `json:"token"`
	TokenID string `json:"tokenId"`
}

func TestUserCreate(t *testing.T) {
	ctx := t.Context()
	url := newMigratedDBURL(t)
	boot := bootstrap(t, url, "Org", "admin@example.com")
	d := openTestDB(t, url)

	var out userResult
	quireJSON(t, &out, "admin", "user", "create", "--database-url", url, "--email", "rita@example.com", "--name", "Rita", "--org", boot.Organization.ID, "--role", "review")
	if out.User.ID == "" || out.Token == "" {
		t.Fatalf("empty output: %+v", out)
	}
	u, err := auth.Lookup(ctx, d.Client, out.Token)
	if err != nil || u == nil || u.ID != out.User.ID {
		t.Fatalf("token looks up %v, %v", u, err)
	}
	if u.DisplayName != "Rita" {
		t.Errorf("display name = %q", u.DisplayName)
	}
	m, err := d.Client.Member.Query().Where(member.OrganizationID(boot.Organization.ID), member.UserID(out.User.ID)).Only(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if m.Role == nil || *m.Role != types.RoleReview {
		t.Errorf("member role = %v, want review", m.Role)
	}

	// A guest is a member without role.
	var guest userResult
	quireJSON(t, &guest, "admin", "user", "create", "--database-url", url, "--email", "gus@example.com", "--org", boot.Organization.ID, "--role", "guest")
	g, err := d.Client.Member.Query().Where(member.OrganizationID(boot.Organization.ID), member.UserID(guest.User.ID)).Only(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if g.Role != nil {
		t.Errorf("guest role = %v, want none", *g.Role)
	}

	// Without --org the user belongs to no organization.
	var loner userResult
	quireJSON(t, &loner, "admin", "user", "create", "--database-url", url, "--email", "lone@example.com")
	if n := d.Client.Member.Query().Where(member.UserID(loner.User.ID)).CountX(ctx); n != 0 {
		t.Errorf("user without --org has %d memberships", n)
	}
	if got := d.Client.User.GetX(ctx, loner.User.ID).DisplayName; got != "lone" {
		t.Errorf("default display name = %q, want lone", got)
	}

	// Failures: existing email, unknown organization.
	for _, args := range [][]string{
		{"admin", "user", "create", "--database-url", url, "--email", "rita@example.com"},
		{"admin", "user", "create", "--database-url", url, "--email", "new@example.com", "--org", "org_nope", "--role", "read"},
	} {
		code, stdout, stderr := quire(t, args...)
		if code != 1 || stdout != "" {
			t.Errorf("quire %s: exit %d, stdout %q; want 1 and nothing\nstderr: %s", strings.Join(args, " "), code, stdout, stderr)
		}
	}
	if d.Client.User.Query().CountX(ctx) != 4 {
		t.Errorf("failed creations left users behind")
	}

	// Usage errors: bad role, --org without --role, missing email.
	for _, args := range [][]string{
		{"admin", "user", "create", "--database-url", url, "--email", "x@example.com", "--org", boot.Organization.ID, "--role", "owner"},
		{"admin", "user", "create", "--database-url", url, "--email", "x@example.com", "--org", boot.Organization.ID},
		{"admin", "user", "create", "--database-url", url, "--email", "x@example.com", "--role", "read"},
		{"admin", "user", "create", "--database-url", url},
	} {
		code, stdout, _ := quire(t, args...)
		if code != 2 || stdout != "" {
			t.Errorf("quire %s: exit %d, stdout %q; want 2 and nothing", strings.Join(args, " "), code, stdout)
		}
	}
}

func TestTokenCreate(t *testing.T) {
	ctx := t.Context()
	url := newMigratedDBURL(t)
	boot := bootstrap(t, url, "Org", "admin@example.com")
	d := openTestDB(t, url)

	var out struct {
		Token   string `json:"token"`
		TokenID string `json:"tokenId"`
	}
	quireJSON(t, &out, "admin", "token", "create", "--database-url", url, "--user", boot.User.ID)
	if out.Token == "" || out.Token == boot.Token {
		t.Fatalf("token = %q", out.Token)
	}
	u, err := auth.Lookup(ctx, d.Client, out.Token)
	if err != nil || u == nil || u.ID != boot.User.ID {
		t.Fatalf("token looks up %v, %v", u, err)
	}

	code, stdout, _ := quire(t, "admin", "token", "create", "--database-url", url, "--user", "usr_unknown")
	if code == 0 || stdout != "" {
		t.Errorf("token for unknown user: exit %d, stdout %q", code, stdout)
	}
	code, _, _ = quire(t, "admin", "token", "create", "--database-url", url)
	if code != 2 {
		t.Errorf("token create without --user: exit %d, want 2", code)
	}
}
