package e2e_test

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"quire/internal/gitsync"
	"quire/internal/gitsync/gittest"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

// quick are timeouts short enough for a test to wait them out.
var quick = gitsync.Timeouts{Connect: 300 * time.Millisecond, Answer: 300 * time.Millisecond, Idle: 300 * time.Millisecond}

// Without --git-fetch-private, a loopback repository is a 400 naming url
// on both doors, and a job that reaches one anyway (through a name, here
// asked of a process that allows them and worked by one that does not)
// fails at once saying the address is not allowed, the server unasked.
func TestLoopbackRemotesRefused(t *testing.T) {
	forEachDBPolicy(t, testenv.Options{}, func(t *testing.T, e *env) {
		e.git.Repo(t, "docs")
		gittest.Commit(t, e.git.RepoDir("docs"), "main", map[string][]byte{"README.md": []byte("# Home\n")}, "v1")
		sp := e.space("Docs")
		u, _ := url.Parse(e.git.URL)
		for _, raw := range []string{e.git.WithCredentials("docs"), "http://localhost:" + u.Port() + "/docs", "http://[::1]:" + u.Port() + "/docs"} {
			r := e.Do(e.team.Admin.Token, "POST", "/v1/spaces/"+sp+"/git/import", map[string]any{"url": raw, "ref": "refs/heads/main"})
			msg, _ := testenv.Path(r.JSON(), "error", "message").(string)
			if r.Status != 400 || !strings.Contains(msg, "--git-fetch-private") || strings.Contains(msg, gitPassword) {
				t.Errorf("%s: %d %s", raw, r.Status, r.Body)
			}
			g := e.GraphQL(e.team.Admin.Token, importMutation, map[string]any{"in": map[string]any{"space": sp, "url": raw, "ref": "refs/heads/main"}})
			if g.Code() != "BAD_REQUEST" || g.Errors[0].Extensions["field"] != "url" {
				t.Errorf("%s: GraphQL %s", raw, g.Raw)
			}
		}
		allowing := e.Replica(testenv.Options{Git: gitsync.Config{AllowPrivate: true}})
		body := map[string]any{"url": "http://" + gitUser + ":" + gitPassword + "@localhost:" + u.Port() + "/docs", "ref": "refs/heads/main"}
		if r := allowing.Do(e.team.Admin.Token, "POST", "/v1/spaces/"+sp+"/git/import", body); r.Status != 204 {
			t.Fatalf("import through the allowing process: %d %s", r.Status, r.Body)
		}
		in := e.waitGit(sp)
		wantJob(t, in, jobs.StateFailed)
		if in.Attempt != 1 || !strings.Contains(in.Errors[0].Message, "address not allowed: ") || !strings.Contains(in.Errors[0].Message, "--git-fetch-private") {
			t.Errorf("attempts %d, errors %+v", in.Attempt, in.Errors)
		}
		if n := e.git.Hits("/info/refs"); n != 0 {
			t.Errorf("the repository's server was asked %d times", n)
		}
	})
}

// notGit are servers that are not Git servers, each with the words its
// job's error starts with.
func notGit(t *testing.T) map[string]string {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + closed.Addr().String() + "/docs"
	closed.Close()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("<html><body>Internal dashboard</body></html>"))
	}))
	t.Cleanup(page.Close)
	missing := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(missing.Close)
	// A server that reads the request and hangs up, as a database does.
	hangup, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hangup.Close() })
	go func() {
		for {
			c, err := hangup.Accept()
			if err != nil {
				return
			}
			c.Read(make([]byte, 1024))
			c.Close()
		}
	}()
	return map[string]string{
		closedURL: "could not connect to the repository's server",
		"http://" + hangup.Addr().String() + "/docs": "could not connect to the repository's server",
		page.URL + "/docs":                           "not a Git repository: the server at this URL does not answer as a Git server",
		missing.URL + "/docs":                        "not a Git repository: the server has no repository at this URL",
	}
}

// A closed port, a server that hangs up, a web page and a 404 fail a job
// in a few words of Quire's own: nothing of what the network or the server
// said, no address. An answer 401 or 500 with a secret in its body: the
// secret shows nowhere in the job.
func TestRemoteFailuresInQuireWords(t *testing.T) {
	forEachDB(t, testenv.Options{Git: gitsync.Config{Timeouts: quick}}, func(t *testing.T, e *env) {
		sp := e.space("Docs")
		raw := []string{"pkt-len", "EOF", "refused", "dial", "tcp", "127.0.0.1", "unexpected", "Internal dashboard", "404"}
		for u, want := range notGit(t) {
			in := e.importRepo(sp, map[string]any{"url": u, "ref": "refs/heads/main"})
			wantJob(t, in, jobs.StateFailed)
			for _, je := range in.Errors {
				if !strings.Contains(je.Message, want) {
					t.Errorf("%s: error %q, want %q", u, je.Message, want)
				}
				for _, w := range raw {
					if strings.Contains(je.Message, w) {
						t.Errorf("%s: error %q says %q", u, je.Message, w)
					}
				}
			}
		}
		const secret = "db-password=hunter2-internal"
		for status, want := range map[int]string{
			http.StatusUnauthorized:        "authentication refused: the repository's server asks for credentials",
			http.StatusForbidden:           "authentication refused: the repository's server did not accept the credentials",
			http.StatusInternalServerError: "could not connect: the repository's server is unavailable (it answered 500 Internal Server Error)",
			http.StatusTeapot:              "not a Git repository: the server at this URL answered 418 I'm a teapot",
		} {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("WWW-Authenticate", `Basic realm="`+secret+`"`)
				http.Error(w, "internal service, "+secret, status)
			}))
			u := srv.URL + "/docs"
			if status == http.StatusForbidden {
				u = strings.Replace(srv.URL, "http://", "http://someone:pw-123@", 1) + "/docs"
			}
			in := e.importRepo(sp, map[string]any{"url": u, "ref": "refs/heads/main"})
			srv.Close()
			wantJob(t, in, jobs.StateFailed)
			if !strings.Contains(in.Errors[0].Message, want) {
				t.Errorf("%d: errors %+v, want %q", status, in.Errors, want)
			}
			if b, _ := json.Marshal(in); strings.Contains(string(b), "hunter2") {
				t.Errorf("%d: the body shows: %s", status, b)
			}
		}
	})
}

// A server that accepts connections and never answers fails each attempt
// after the configured timeout, and the job once its attempts are spent,
// instead of leaving it running.
func TestSilentServerTimesOut(t *testing.T) {
	forEachDB(t, testenv.Options{Git: gitsync.Config{Timeouts: quick}}, func(t *testing.T, e *env) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var held []net.Conn
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				held = append(held, c)
			}
		}()
		t.Cleanup(func() {
			ln.Close()
			<-done
			for _, c := range held {
				c.Close()
			}
		})
		sp := e.space("Docs")
		for _, op := range []string{"import", "export"} {
			body := map[string]any{"url": "http://" + ln.Addr().String() + "/docs", "ref": "refs/heads/main"}
			var in *jobs.Info
			if op == "import" {
				in = e.importRepo(sp, body)
			} else {
				body["commitMessage"] = "Export"
				in = e.exportSpace(sp, body)
			}
			wantJob(t, in, jobs.StateFailed)
			if in.Attempt != in.MaxAttempts || len(in.Errors) == 0 {
				t.Errorf("%s: attempt %d of %d, errors %+v", op, in.Attempt, in.MaxAttempts, in.Errors)
			}
			for _, je := range in.Errors {
				if je.Message != "timed out: the repository's server did not answer in time" {
					t.Errorf("%s: error %q", op, je.Message)
				}
			}
		}
	})
}
