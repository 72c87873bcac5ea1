// Package testenv runs a real Quire server for end-to-end tests, on SQLite
// and on PostgreSQL, and drives it through both doors.
package testenv

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"quire/ent"
	"quire/internal/auth"
	"quire/internal/db"
	"quire/internal/gitsync"
	"quire/internal/jobs"
	"quire/internal/metrics"
	"quire/internal/openapispec"
	"quire/internal/ratelimit"
	"quire/internal/testing/testclient"
	"quire/internal/testing/testdb"
	"quire/internal/translate"
	"quire/internal/types"
	"quire/server"
)

// Env is one running server over one fresh database.
type Env struct {
	T       testing.TB
	Dialect string
	DB      *db.DB
	Metrics *metrics.Metrics
	Server  *server.Server
	HTTP    *httptest.Server
	URL     string
	// NoSpecCheck turns off checking /v1 responses against the OpenAPI
	// document (for tests that send deliberately broken requests at the
	// transport level).
	NoSpecCheck bool

	team *Team
}

// Backends names the databases every suite runs on.
var Backends = []string{"sqlite", "postgres"}

// ForEachDB runs fn as a subtest on SQLite and on PostgreSQL.
func ForEachDB(t *testing.T, fn func(t *testing.T, e *Env)) {
	t.Helper()
	for _, b := range Backends {
		t.Run(b, func(t *testing.T) {
			fn(t, New(t, b))
		})
	}
}

// ForEachDBWith is ForEachDB with the servers started with options.
func ForEachDBWith(t *testing.T, o Options, fn func(t *testing.T, e *Env)) {
	t.Helper()
	for _, b := range Backends {
		t.Run(b, func(t *testing.T) {
			fn(t, NewWith(t, b, o))
		})
	}
}

// Options change the server an Env starts.
type Options struct {
	// RateLimits are the server's rate limits. Suites run without them
	// (the zero value), so that their many requests with one token are
	// never refused; the rate-limit tests set them.
	RateLimits ratelimit.Config
	// Prelude is the database's statement prelude (db.Options.Prelude).
	Prelude func(ctx context.Context, query string) string
	// RequestTimeout is the server's request deadline (default: the
	// server's).
	RequestTimeout time.Duration
	// JobRescueAfter is how long a job may run before it is taken for
	// one whose process died (default: the runner's).
	JobRescueAfter time.Duration
	// JobRetryBase is the wait before a failed job's second attempt
	// (default: the runner's, attempt⁴ seconds).
	JobRetryBase time.Duration
	// Git configures Git import and export (file:// roots, limits).
	Git gitsync.Config
	// Translator translates translation runs (nil: runs are refused).
	Translator translate.Provider
	// OpenAPI configures fetching OpenAPI specifications. Nil: fetching
	// from private addresses is allowed, since test servers listen on
	// loopback.
	OpenAPI *openapispec.Config
	// KeptSites is the server's server.Config.KeptSites: zero keeps read
	// sites as in production, negative keeps none (for a test counting
	// the statements of the reads themselves).
	KeptSites int
}

// JobPoll is how often a test server's job runner looks for new jobs.
const JobPoll = 10 * time.Millisecond

// StartJobs makes the server work background jobs, as quire serve does,
// until the test ends; it returns its runner. Servers do not work jobs
// until asked, so that suites counting statements see only their own.
func (e *Env) StartJobs() *jobs.Runner {
	e.T.Helper()
	r := e.Server.Jobs()
	if err := r.Start(context.Background()); err != nil {
		e.T.Fatalf("start jobs: %v", err)
	}
	e.T.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := r.Stop(ctx); err != nil {
			e.T.Errorf("stop jobs: %v", err)
		}
	})
	return r
}

// WaitJob waits until job id has finished, and returns it. A job that
// does not finish within 30 s fails the test.
func (e *Env) WaitJob(id string) *jobs.Info {
	e.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	in, err := e.Server.Jobs().Wait(ctx, id, JobPoll, nil)
	if err != nil {
		e.T.Fatalf("wait for job %s: %v (last seen %+v)", id, err, in)
	}
	return in
}

// New starts a server on a fresh database of the given backend.
func New(t testing.TB, backend string) *Env {
	t.Helper()
	return NewWith(t, backend, Options{})
}

// NewWith starts a server with options on a fresh database of the given
// backend.
func NewWith(t testing.TB, backend string, o Options) *Env {
	t.Helper()
	var url string
	switch backend {
	case "sqlite":
		url = "sqlite:" + filepath.Join(t.TempDir(), "quire.db")
	case "postgres":
		url = testdb.NewDatabase(t)
	default:
		t.Fatalf("unknown backend %q", backend)
	}
	m := metrics.New()
	d, err := db.Open(url, db.Options{OnStatement: m.Statements.Inc, Prelude: o.Prelude})
	if err != nil {
		t.Fatalf("open %s: %v", backend, err)
	}
	t.Cleanup(func() { d.Close() })
	if err := d.Migrate(context.Background()); err != nil {
		t.Fatalf("migrate %s: %v", backend, err)
	}
	e := &Env{T: t, Dialect: backend, DB: d, Metrics: m}
	e.start(o)
	return e
}

// Replica starts another server over the environment's database, as a
// second process sharing it would be; its statements are counted with the
// first one's.
func (e *Env) Replica(o Options) *Env {
	e.T.Helper()
	r := &Env{T: e.T, Dialect: e.Dialect, DB: e.DB, Metrics: e.Metrics}
	r.start(o)
	return r
}

func (e *Env) start(o Options) {
	e.HTTP = httptest.NewUnstartedServer(nil)
	e.HTTP.Start()
	e.URL = e.HTTP.URL
	spec := openapispec.Config{FetchPrivate: true}
	if o.OpenAPI != nil {
		spec = *o.OpenAPI
	}
	e.Server = server.NewServer(server.Config{DB: e.DB, PublicURL: e.URL, Metrics: e.Metrics, RateLimits: o.RateLimits,
		RequestTimeout: o.RequestTimeout, Jobs: jobs.Config{PollInterval: JobPoll, RescueAfter: o.JobRescueAfter, RetryBase: o.JobRetryBase},
		Git: o.Git, Translator: o.Translator, OpenAPI: spec,
		// Callers are kept as in production, but not forgotten with time
		// (only when their tables change), so that a test counting
		// statements counts the same whatever its speed.
		CacheCallers: true, CallerTTL: time.Hour, KeptSites: o.KeptSites})
	e.HTTP.Config.Handler = e.Server
	e.T.Cleanup(e.HTTP.Close)
	// Runs first: WebSockets end (and the event bus closes) before the
	// HTTP server waits for its connections.
	e.T.Cleanup(e.Server.Close)
	// Until its notification connection is up, the server looks every
	// caller up: wait for it, so that statement counts do not depend on
	// when it connects.
	// The same holds for the reader's kept pages.
	for what, ready := range map[string]<-chan struct{}{"caller cache": e.Server.CallersReady(), "page cache": e.Server.PagesReady()} {
		select {
		case <-ready:
		case <-time.After(30 * time.Second):
			e.T.Fatalf("the %s's notification connection did not come up in 30s", what)
		}
	}
}

// SeparateReplica starts another server over the environment's database
// with a database handle of its own (its own connection pool and, on
// PostgreSQL, its own LISTEN connection), as a second quire process
// sharing the database would have.
func (e *Env) SeparateReplica(o Options) *Env {
	e.T.Helper()
	m := metrics.New()
	d, err := db.Open(e.DB.URL(), db.Options{OnStatement: m.Statements.Inc, Prelude: o.Prelude})
	if err != nil {
		e.T.Fatalf("open the replica's database: %v", err)
	}
	e.T.Cleanup(func() { d.Close() })
	r := &Env{T: e.T, Dialect: e.Dialect, DB: d, Metrics: m}
	r.start(o)
	return r
}

// Client is the ent client of the environment's database.
func (e *Env) Client() *ent.Client { return e.DB.Client }

// Statements returns how many SQL statements have been sent so far.
func (e *Env) Statements() int64 { return e.DB.Statements() }

// RoundTrips is the database handle's count of round trips so far (see
// db.DB.RoundTrips).
func (e *Env) RoundTrips() int64 { return e.DB.RoundTrips() }

// Org creates an organization directly in the database.
func (e *Env) Org(title string) *ent.Organization {
	e.T.Helper()
	o, err := e.Client().Organization.Create().SetTitle(title).Save(context.Background())
	if err != nil {
		e.T.Fatalf("create organization: %v", err)
	}
	return o
}

// User creates a user with a token and returns both.
func (e *Env) User(email string) (*ent.User, string) {
	e.T.Helper()
	ctx := context.Background()
	name := strings.Split(email, "@")[0]
	u, err := e.Client().User.Create().SetEmail(email).SetDisplayName(name).Save(ctx)
	if err != nil {
		e.T.Fatalf("create user: %v", err)
	}
	tok, err := auth.CreateToken(ctx, e.Client(), u.ID, "test")
	if err != nil {
		e.T.Fatalf("create token: %v", err)
	}
	return u, tok
}

// Member makes a user a member of an organization; role "" is a guest.
func (e *Env) Member(org *ent.Organization, u *ent.User, role string) {
	e.T.Helper()
	c := e.Client().Member.Create().SetOrganizationID(org.ID).SetUserID(u.ID)
	if role != "" {
		c.SetRole(types.Role(role))
	}
	if _, err := c.Save(context.Background()); err != nil {
		e.T.Fatalf("create member: %v", err)
	}
}

// Actor is a user with a token, for requests.
type Actor struct {
	User  *ent.User
	Token string
}

// Team is the usual cast of a permission matrix: an admin, an editor and a
// reader of one organization, an outsider (admin of another organization)
// and an anonymous caller.
type Team struct {
	Org      *ent.Organization
	Other    *ent.Organization
	Admin    Actor
	Editor   Actor
	Reader   Actor
	Outsider Actor
	Anon     Actor
}

// NewTeam creates the cast.
func (e *Env) NewTeam() *Team {
	e.T.Helper()
	t := &Team{Org: e.Org("Acme"), Other: e.Org("Other Corp")}
	mk := func(email, role string, org *ent.Organization) Actor {
		u, tok := e.User(email)
		e.Member(org, u, role)
		return Actor{User: u, Token: tok}
	}
	t.Admin = mk("admin@acme.test", "admin", t.Org)
	t.Editor = mk("editor@acme.test", "edit", t.Org)
	t.Reader = mk("reader@acme.test", "read", t.Org)
	t.Outsider = mk("outsider@other.test", "admin", t.Other)
	return t
}

// Response is an HTTP response with its body read.
type Response struct{ testclient.Response }

// Decode decodes the body into v.
func (r *Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := r.DecodeJSON(v); err != nil {
		t.Fatal(err)
	}
}

// Do sends a request with an optional JSON body (a string is sent raw), and
// checks a /v1 response against the OpenAPI document.
func (e *Env) Do(token, method, path string, body any) *Response {
	e.T.Helper()
	return e.do(token, method, path, body, true)
}

// DoUnchecked is Do without the OpenAPI check.
func (e *Env) DoUnchecked(token, method, path string, body any) *Response {
	e.T.Helper()
	return e.do(token, method, path, body, false)
}

// NewTeamOnce returns the environment's team, created on first use.
func (e *Env) NewTeamOnce() *Team {
	e.T.Helper()
	if e.team == nil {
		e.team = e.NewTeam()
	}
	return e.team
}

func (e *Env) do(token, method, path string, body any, check bool) *Response {
	e.T.Helper()
	c := e.client(token)
	req, err := c.Request(context.Background(), method, path, body)
	if err != nil {
		e.T.Fatalf("new request: %v", err)
	}
	resp, err := c.Do(req)
	if err != nil {
		e.T.Fatal(err)
	}
	if check {
		e.checkResponse(req, resp.Status, resp.Header, resp.Body)
	}
	return &Response{*resp}
}

// client is the test client for the environment's server with token.
func (e *Env) client(token string) *testclient.Client {
	return &testclient.Client{Base: e.URL, Token: token, HTTP: e.HTTP.Client()}
}

// GQLResponse is a GraphQL response.
type GQLResponse struct {
	Status int
	Data   map[string]any
	Errors []GQLError
	Raw    []byte
}

// GQLError is one GraphQL error.
type GQLError = testclient.GQLError

// Code returns the first error's extensions.code, or "".
func (r *GQLResponse) Code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	c, _ := r.Errors[0].Extensions["code"].(string)
	return c
}

// GraphQL posts a document with variables.
func (e *Env) GraphQL(token, query string, vars map[string]any) *GQLResponse {
	e.T.Helper()
	return e.gqlResponse(&e.Do(token, "POST", "/graphql", testclient.GraphQLBody(query, vars)).Response)
}

// gqlResponse decodes a GraphQL answer, failing the test if it is not one.
func (e *Env) gqlResponse(r *testclient.Response) *GQLResponse {
	e.T.Helper()
	g, err := testclient.ParseGraphQL(r)
	if err != nil {
		e.T.Fatal(err)
	}
	return &GQLResponse{Status: r.Status, Data: g.Data, Errors: g.Errors, Raw: r.Body}
}

// Path digs into decoded JSON: Path(v, "a", "b", 0, "c").
func Path(v any, keys ...any) any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}
