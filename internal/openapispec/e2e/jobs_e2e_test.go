package e2e_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/internal/jobs"
	"quire/internal/openapispec"
	"quire/internal/testing/testdb"
	"quire/internal/testing/testenv"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// source is an HTTP server of one specification file whose answers a
// test scripts: each request takes the next answer.
type source struct {
	mu      sync.Mutex
	answers []func(w http.ResponseWriter, r *http.Request)
	hits    int
	srv     *httptest.Server
}

func newSource(t *testing.T, answers ...func(w http.ResponseWriter, r *http.Request)) *source {
	s := &source{answers: answers}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		i := s.hits
		s.hits++
		s.mu.Unlock()
		s.answers[min(i, len(s.answers)-1)](w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *source) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits
}

func serve(body string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(body)) }
}

const valid = "openapi: 3.0.3\ninfo: {title: Jobs, version: \"1\"}\npaths: {}\n"

type fx struct {
	e    *testenv.Env
	team *testenv.Team
}

func (f fx) create(t *testing.T, slug string, source map[string]any) map[string]any {
	t.Helper()
	r := f.e.Do(f.team.Admin.Token, "POST", "/v1/orgs/"+f.team.Org.ID+"/openapi", map[string]any{"slug": slug, "source": source})
	if r.Status != 201 {
		t.Fatalf("create %s: %d %s", slug, r.Status, r.Body)
	}
	return r.JSON()
}

// spec reads a specification and its job through GraphQL.
func (f fx) spec(t *testing.T, slug string) map[string]any {
	t.Helper()
	r := f.e.GraphQL(f.team.Admin.Token, `query($o: ID!, $s: String!) { openAPISpec(organization: $o, slug: $s) {
		id processingState lastProcessErrorCode lastProcessedErrors { message code } lastVersion { id }
		job { id kind state attempt maxAttempts progress errors { message } } } }`,
		map[string]any{"o": f.team.Org.ID, "s": slug})
	if len(r.Errors) > 0 {
		t.Fatalf("read %s: %s", slug, r.Raw)
	}
	return r.Data["openAPISpec"].(map[string]any)
}

// until reads the specification until ok says it is as wanted, for at
// most 30 s (waiting on the job runner, not on time).
func (f fx) until(t *testing.T, slug string, what string, ok func(map[string]any) bool) map[string]any {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		sp := f.spec(t, slug)
		if ok(sp) {
			return sp
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: never %s; last %v", slug, what, sp)
		}
		time.Sleep(testenv.JobPoll)
	}
}

func get(v map[string]any, k ...any) any { return testenv.Path(v, k...) }

// ended is true of a specification whose processing is complete and whose
// job ended in state. (A read sees the specification before its job: a
// job seen ended may belong to a specification read just before.)
func ended(state string) func(map[string]any) bool {
	return func(sp map[string]any) bool {
		return get(sp, "job", "state") == state && sp["processingState"] == "complete"
	}
}

func TestProcessingCompletes(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := fx{e: e, team: e.NewTeam()}
		e.StartJobs()
		src := newSource(t, serve(valid))
		f.create(t, "done", map[string]any{"url": src.srv.URL + "/openapi.yaml"})
		sp := f.until(t, "done", "complete", ended("completed"))
		if sp["processingState"] != "complete" || sp["lastProcessErrorCode"] != nil || get(sp, "lastVersion", "id") == nil ||
			get(sp, "job", "kind") != openapispec.Kind || get(sp, "job", "progress") != 1.0 || get(sp, "job", "attempt") != 1.0 {
			t.Errorf("completed: %v", sp)
		}
		// The job is a node, seen by members of the organization only.
		q := `query($id: ID!) { node(id: $id) { ... on Job { id state } } }`
		id := get(sp, "job", "id")
		if r := e.GraphQL(f.team.Reader.Token, q, map[string]any{"id": id}); get(r.Data, "node", "state") != "completed" {
			t.Errorf("reader reads the job: %s", r.Raw)
		}
		if r := e.GraphQL(f.team.Outsider.Token, q, map[string]any{"id": id}); r.Code() != "NOT_FOUND" {
			t.Errorf("outsider reads the job: %s", r.Raw)
		}
	})
}

// A transient failure (a 503, then a time out) is recorded and retried:
// between attempts the specification is pending with the error, then
// complete once an attempt succeeds.
func TestProcessingRetriesTransientFailures(t *testing.T) {
	for _, b := range testenv.Backends {
		t.Run(b, func(t *testing.T) {
			e := testenv.NewWith(t, b, testenv.Options{OpenAPI: &openapispec.Config{FetchPrivate: true, FetchTimeout: 300 * time.Millisecond}, JobRetryBase: 50 * time.Millisecond})
			f := fx{e: e, team: e.NewTeam()}
			e.StartJobs()
			seen503, seenTimeout := make(chan struct{}), make(chan struct{})
			src := newSource(t,
				func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) },
				// The second attempt waits until the test has seen the
				// first one's error, then outlasts the fetch timeout.
				func(w http.ResponseWriter, r *http.Request) { <-seen503; <-r.Context().Done() },
				func(w http.ResponseWriter, _ *http.Request) { <-seenTimeout; w.Write([]byte(valid)) },
			)
			f.create(t, "flaky", map[string]any{"url": src.srv.URL + "/openapi.yaml"})
			sp := f.until(t, "flaky", "pending after a 503", func(sp map[string]any) bool { return sp["lastProcessErrorCode"] == "FETCH_ERROR" })
			if sp["processingState"] != "pending" || !strings.Contains(get(sp, "lastProcessedErrors", 0, "message").(string), "answered 503") ||
				get(sp, "lastVersion") != nil {
				t.Errorf("after a 503: %v", sp)
			}
			close(seen503)
			sp = f.until(t, "flaky", "pending after a time out", func(sp map[string]any) bool { return sp["lastProcessErrorCode"] == "FETCH_TIMEOUT" })
			if sp["processingState"] != "pending" || !strings.Contains(get(sp, "lastProcessedErrors", 0, "message").(string), "no complete answer within 300ms") {
				t.Errorf("after a time out: %v", sp)
			}
			close(seenTimeout)
			sp = f.until(t, "flaky", "completed", ended("completed"))
			if sp["processingState"] != "complete" || sp["lastProcessErrorCode"] != nil || get(sp, "lastVersion", "id") == nil ||
				get(sp, "job", "attempt") != 3.0 || len(get(sp, "job", "errors").([]any)) != 2 || len(sp["lastProcessedErrors"].([]any)) != 0 {
				t.Errorf("completed after retries: %v", sp)
			}
			if src.count() != 3 {
				t.Errorf("%d fetches, want 3", src.count())
			}
		})
	}
}

// A specification that does not parse fails for good at once: one
// attempt, a parse error saying where and what, no version.
func TestProcessingFailsOnParseError(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := fx{e: e, team: e.NewTeam()}
		e.StartJobs()
		broken := "openapi: 3.0.3\ninfo:\n  title: Broken\n  version: \"1\"\npaths:\n  /pets: [\n"
		src := newSource(t, serve(broken))
		f.create(t, "broken", map[string]any{"url": src.srv.URL + "/specs/openapi.yaml"})
		sp := f.until(t, "broken", "failed", ended("failed"))
		msg, _ := get(sp, "lastProcessedErrors", 0, "message").(string)
		if sp["processingState"] != "complete" || sp["lastProcessErrorCode"] != "PARSE_ERROR" || get(sp, "lastVersion") != nil ||
			get(sp, "job", "attempt") != 1.0 || !strings.HasPrefix(msg, "openapi.yaml:") || !strings.Contains(msg, "invalid YAML") ||
			get(sp, "lastProcessedErrors", 0, "code") != "INVALID_SYNTAX" {
			t.Errorf("parse error: %v", sp)
		}
		if src.count() != 1 {
			t.Errorf("%d fetches of a file that does not parse, want 1", src.count())
		}
		// A document that parses but is not valid OpenAPI: each problem
		// with its line.
		f.create(t, "invalid", map[string]any{"text": "openapi: 3.1.0\ninfo:\n  title: No version\npaths:\n  /a:\n    get:\n      responses:\n        '200': {descriptio: typo}\n"})
		sp = f.until(t, "invalid", "failed", ended("failed"))
		var msgs []string
		for _, e := range sp["lastProcessedErrors"].([]any) {
			msgs = append(msgs, e.(map[string]any)["message"].(string))
		}
		all := strings.Join(msgs, "\n")
		for _, want := range []string{"openapi.yaml:2:1: /info: missing property 'version'", "openapi.yaml:8:17: /paths/~1a/get/responses/200/descriptio: \"descriptio\" is not a field OpenAPI allows here"} {
			if !strings.Contains(all, want) {
				t.Errorf("errors lack %q:\n%s", want, all)
			}
		}
		if sp["lastProcessErrorCode"] != "PARSE_ERROR" {
			t.Errorf("invalid: %v", sp)
		}
	})
}

// A job asked for by one process survives it: a process that never
// worked jobs leaves it pending, and another sharing the database runs it.
// Jobs of several specifications run once each across two processes.
func TestProcessingAcrossProcesses(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := fx{e: e, team: e.NewTeam()}
		src := newSource(t, serve(valid))
		f.create(t, "queued", map[string]any{"url": src.srv.URL + "/openapi.yaml"})
		if sp := f.spec(t, "queued"); sp["processingState"] != "pending" || get(sp, "job", "state") != "pending" || src.count() != 0 {
			t.Fatalf("before any process works jobs: %v", sp)
		}
		second := e.Replica(testenv.Options{})
		second.StartJobs()
		f.until(t, "queued", "completed by the second process", ended("completed"))
		e.StartJobs()
		const n = 8
		for i := 0; i < n; i++ {
			f.create(t, "many-"+string(rune('a'+i)), map[string]any{"url": src.srv.URL + "/openapi.yaml"})
		}
		for i := 0; i < n; i++ {
			f.until(t, "many-"+string(rune('a'+i)), "completed", ended("completed"))
		}
		if src.count() != n+1 {
			t.Errorf("%d fetches for %d jobs: a job ran more than once", src.count(), n+1)
		}
		in, err := e.Server.Jobs().List(context.Background(), jobs.ListOptions{Organization: f.team.Org.ID, Limit: 100})
		if err != nil || len(in) != n+1 {
			t.Fatalf("jobs: %d, %v", len(in), err)
		}
		for _, j := range in {
			if j.State != jobs.StateCompleted || j.Attempt != 1 {
				t.Errorf("job %s: %s after %d attempts", j.ID, j.State, j.Attempt)
			}
		}
	})
}
