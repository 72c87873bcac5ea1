package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/ent/member"
	"quire/internal/auth"
	"quire/internal/db"
	"quire/internal/testdb"
	"quire/internal/types"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// newDBURL returns the URL of a fresh SQLite database.
func newDBURL(t *testing.T) string {
	t.Helper()
	return "sqlite:" + t.TempDir() + "/q.db"
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
	Token string `json:"token"`
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
	url := newDBURL(t)
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
	url := newDBURL(t)
	out := bootstrap(t, url, "Org", "grace@example.com", "--name", "Grace Hopper")
	d := openTestDB(t, url)
	u := d.Client.User.GetX(t.Context(), out.User.ID)
	if u.DisplayName != "Grace Hopper" {
		t.Errorf("display name = %q", u.DisplayName)
	}
}

func TestBootstrapUsage(t *testing.T) {
	url := newDBURL(t)
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
	Token string `json:"token"`
}

func TestUserCreate(t *testing.T) {
	ctx := t.Context()
	url := newDBURL(t)
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
	url := newDBURL(t)
	boot := bootstrap(t, url, "Org", "admin@example.com")
	d := openTestDB(t, url)

	var out struct {
		Token string `json:"token"`
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

func TestMigrate(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		st := migrationStatus(t, url)
		for i := range 2 { // idempotent
			code, stdout, stderr := quire(t, "migrate", "--database-url", url)
			if code != 0 || stdout != "" {
				t.Fatalf("migrate: exit %d, stdout %q\nstderr: %s", code, stdout, stderr)
			}
			var line struct {
				Msg     string   `json:"msg"`
				Version string   `json:"version"`
				Applied []string `json:"applied"`
			}
			if err := json.Unmarshal([]byte(strings.TrimSpace(stderr)), &line); err != nil || line.Msg != "migrated" {
				t.Fatalf("migrate log %q: %v", stderr, err)
			}
			want := []string{}
			if i == 0 {
				for _, p := range st.Pending {
					want = append(want, p.Version)
				}
			}
			if line.Version != st.Latest || !slices.Equal(line.Applied, want) {
				t.Errorf("run %d: migrated to %q applying %v, want %s applying %v", i+1, line.Version, line.Applied, st.Latest, want)
			}
		}
	})
}

// forEachDB runs fn with the URL of a fresh database, on SQLite and on
// PostgreSQL.
func forEachDB(t *testing.T, fn func(t *testing.T, url string)) {
	for _, b := range []string{"sqlite", "postgres"} {
		t.Run(b, func(t *testing.T) {
			url := newDBURL(t)
			if b == "postgres" {
				url = testdb.NewDatabase(t)
			}
			fn(t, url)
		})
	}
}

// migrationStatus runs quire migrate --status.
func migrationStatus(t *testing.T, url string) db.MigrationStatus {
	t.Helper()
	var st db.MigrationStatus
	quireJSON(t, &st, "migrate", "--status", "--database-url", url)
	return st
}

func TestMigrateStatus(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		st := migrationStatus(t, url)
		if st.Version != "" || st.Latest == "" || len(st.Applied) != 0 || len(st.Pending) == 0 || st.Pending[0].Description != "baseline" || st.PreVersioning {
			t.Fatalf("status of an empty database = %+v", st)
		}
		if st.Pending[len(st.Pending)-1].Version != st.Latest {
			t.Errorf("last pending %s, latest %s", st.Pending[len(st.Pending)-1].Version, st.Latest)
		}
		// --status changes nothing.
		if again := migrationStatus(t, url); len(again.Pending) != len(st.Pending) {
			t.Errorf("status changed the database: %+v", again)
		}
		if code, _, stderr := quire(t, "migrate", "--database-url", url); code != 0 {
			t.Fatalf("migrate: exit %d\n%s", code, stderr)
		}
		after := migrationStatus(t, url)
		if after.Version != st.Latest || len(after.Pending) != 0 || len(after.Applied) != len(st.Pending) || len(after.Unknown) != 0 {
			t.Fatalf("status after migrate = %+v", after)
		}
		for i, r := range after.Applied {
			if r.Version != st.Pending[i].Version || r.Kind != "applied" || len(r.Checksum) != 64 || r.AppliedAt.IsZero() {
				t.Errorf("applied[%d] = %+v", i, r)
			}
		}
	})
}

// A database migrated by a newer quire stops migrate and serve, with a log
// that names both versions and says to upgrade.
func TestMigrateNewerDatabase(t *testing.T) {
	forEachDB(t, func(t *testing.T, url string) {
		if code, _, stderr := quire(t, "migrate", "--database-url", url); code != 0 {
			t.Fatalf("migrate: exit %d\n%s", code, stderr)
		}
		latest := migrationStatus(t, url).Latest
		d := openTestDB(t, url)
		if _, err := d.SQL.Exec(`INSERT INTO ` + db.RevisionTable + ` (version, description, kind, checksum, applied_at, duration_ms) VALUES ('29991231235959', 'from_the_future', 'applied', 'x', CURRENT_TIMESTAMP, 0)`); err != nil {
			t.Fatal(err)
		}
		if st := migrationStatus(t, url); !slices.Equal(st.Unknown, []string{"29991231235959"}) {
			t.Errorf("status unknown = %v", st.Unknown)
		}
		for _, args := range [][]string{
			{"migrate", "--database-url", url},
			{"serve", "--addr", "127.0.0.1:0", "--database-url", url},
		} {
			code, stdout, stderr := quire(t, args...)
			if code != 1 || stdout != "" {
				t.Errorf("quire %s: exit %d, stdout %q; want 1 and nothing", args[0], code, stdout)
			}
			var line struct {
				Level, Msg, Error string
			}
			if err := json.Unmarshal([]byte(strings.TrimSpace(stderr)), &line); err != nil || line.Level != "ERROR" || line.Msg != "migrate" {
				t.Fatalf("quire %s: log %q: %v", args[0], stderr, err)
			}
			for _, want := range []string{"29991231235959", latest, "upgrade quire"} {
				if !strings.Contains(line.Error, want) {
					t.Errorf("quire %s: error %q does not mention %q", args[0], line.Error, want)
				}
			}
		}
	})
}

func TestDatabaseURLFromEnv(t *testing.T) {
	url := newDBURL(t)
	var stdout, stderr bytes.Buffer
	getenv := func(k string) string {
		if k == "QUIRE_DATABASE_URL" {
			return url
		}
		return ""
	}
	code := run(t.Context(), []string{"admin", "bootstrap", "--org", "Org", "--email", "env@example.com"}, &stdout, &stderr, getenv)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	d := openTestDB(t, url)
	if n := d.Client.User.Query().CountX(t.Context()); n != 1 {
		t.Errorf("database from QUIRE_DATABASE_URL has %d users, want 1", n)
	}
}

func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{nil, 2},
		{[]string{"help"}, 2},
		{[]string{"frobnicate"}, 2},
		{[]string{"admin"}, 2},
		{[]string{"admin", "user"}, 2},
		{[]string{"admin", "frobnicate"}, 2},
		{[]string{"--help"}, 0},
		{[]string{"serve", "--help"}, 0},
		{[]string{"migrate", "--help"}, 0},
		{[]string{"admin", "bootstrap", "--help"}, 0},
		{[]string{"admin", "user", "create", "--help"}, 0},
		{[]string{"admin", "token", "create", "-h"}, 0},
		{[]string{"serve", "--public-url", "ftp://x"}, 2},
	} {
		code, stdout, stderr := quire(t, tc.args...)
		if code != tc.code || stdout != "" || !strings.Contains(stderr, "Usage") {
			t.Errorf("quire %q: exit %d, stdout %q, stderr %q; want exit %d and usage on stderr", tc.args, code, stdout, stderr, tc.code)
		}
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"sqlite:data/quire.db":                          "sqlite:data/quire.db",
		"postgres://quire:secret@db:5432/quire":         "postgres://quire:xxxxx@db:5432/quire",
		"postgres://db/quire?password=secret&sslmode=x": "postgres://db/quire?password=xxxxx&sslmode=x",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// lockedBuffer is a bytes.Buffer safe for a writer and a reader at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestServe(t *testing.T) {
	url := newDBURL(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--database-url", url}, &stdout, &stderr, func(string) string { return "" })
	}()

	// Wait for the "listening" line and take the real address from it.
	var addr, publicURL string
	deadline := time.Now().Add(30 * time.Second)
	for addr == "" {
		select {
		case code := <-done:
			t.Fatalf("serve exited with %d\nstderr:\n%s", code, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no listening line\nstderr:\n%s", stderr.String())
		}
		sc := bufio.NewScanner(strings.NewReader(stderr.String()))
		for sc.Scan() {
			var line struct {
				Msg       string `json:"msg"`
				Addr      string `json:"addr"`
				PublicURL string `json:"public_url"`
			}
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "listening" {
				addr, publicURL = line.Addr, line.PublicURL
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if strings.HasSuffix(addr, ":0") {
		t.Fatalf("listening on %s, want the real port", addr)
	}
	if publicURL != "http://"+addr {
		t.Errorf("public url = %q, want http://%s", publicURL, addr)
	}
	if !strings.Contains(stderr.String(), `quire admin bootstrap --database-url `+shellQuote(url)+` --org \"My org\" --email you@example.com`) {
		t.Errorf("no bootstrap hint in:\n%s", stderr.String())
	}

	resp, err := http.Get(fmt.Sprintf("http://%s/", addr))
	if err != nil {
		t.Fatalf("GET /: %v", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()

	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exited with %d\nstderr:\n%s", code, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
	if stdout.String() != "" {
		t.Errorf("serve wrote on stdout: %q", stdout.String())
	}
}
