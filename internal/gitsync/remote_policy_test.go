package gitsync

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"syscall"
	"testing"

	"quire/internal/apierr"
	"quire/internal/gitsync/gittest"
	"quire/internal/jobs"
	"quire/internal/netpolicy"
)

// fetchFrom fetches main from raw with a service of cfg whose dialer
// lets the address stand (a test server on loopback) through as public.
func fetchFrom(t *testing.T, cfg Config, stand, raw string) error {
	t.Helper()
	s := New(nil, nil, nil, cfg)
	if stand != "" {
		s.dialControl = func(network, address string, c syscall.RawConn) error {
			if address == stand {
				return nil
			}
			return netpolicy.Control(network, address, c)
		}
	}
	r, err := parseRemote(raw, nil)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	sess, err := s.open(r, s.cfg.Limits)
	if err != nil {
		t.Fatal(err)
	}
	_, err = sess.fetch(t.Context(), "refs/heads/main", s.cfg.Limits, false)
	return err
}

func wantRefused(t *testing.T, what string, err error) {
	t.Helper()
	if !jobs.IsPermanent(err) || !strings.HasPrefix(err.Error(), "address not allowed: ") || !strings.Contains(err.Error(), "--git-fetch-private") {
		t.Errorf("%s: %v, want a permanent refusal of the address", what, err)
	}
}

// A host name that resolves to loopback passes the checks of a request
// but not the dialer's; so does a redirect from a (stand-in) public server
// to a loopback address, by address or by name: the server redirected to
// never hears of the request.
func TestInsideRefusedWhenConnecting(t *testing.T) {
	git := gittest.New(t, "", "")
	git.Repo(t, "docs")
	gittest.Commit(t, git.RepoDir("docs"), "main", map[string][]byte{"README.md": []byte("# Home\n")}, "v1")
	u, _ := url.Parse(git.URL)
	byName := "http://localhost:" + u.Port()
	if _, err := New(nil, nil, nil, Config{}).check(KindImport, Request{URL: byName + "/docs", Ref: "refs/heads/main"}); apierr.CodeOf(err) != apierr.BadRequest {
		t.Errorf("localhost in a request: %v, want a 400", err)
	}
	wantRefused(t, "localhost", fetchFrom(t, Config{}, "", byName+"/docs"))

	var target string
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.RequestURI(), http.StatusFound)
	}))
	defer redirector.Close()
	stand := strings.TrimPrefix(redirector.URL, "http://")
	for _, target = range []string{git.URL, byName, "http://[::ffff:127.0.0.1]:" + u.Port()} {
		wantRefused(t, "redirect to "+target, fetchFrom(t, Config{}, stand, redirector.URL+"/docs"))
	}
	if n := git.Hits("/info/refs"); n != 0 {
		t.Errorf("the server redirected to was asked %d times", n)
	}
	// The same redirect is followed when private addresses are allowed.
	target = git.URL
	if err := fetchFrom(t, Config{AllowPrivate: true}, "", redirector.URL+"/docs"); err != nil {
		t.Errorf("allowed redirect: %v", err)
	}
}

// Numeric spellings of an address are refused when the URL is written,
// allowed private addresses or not; plain ones only without the switch.
func TestRemoteHostSpellings(t *testing.T) {
	for _, h := range []string{"2130706433", "0x7f000001", "127.1", "0177.0.0.1", "[::ffff:127.0.0.1]", "0", "0.0.0.0", "[::]", "127.0.0.1."} {
		for _, private := range []bool{false, true} {
			_, err := New(nil, nil, nil, Config{AllowPrivate: private}).check(KindImport, Request{URL: "http://" + h + ":8080/docs.git", Ref: "refs/heads/main"})
			ae, ok := apierr.As(err)
			if !ok || ae.Field != "url" || !strings.Contains(ae.Message, "a.b.c.d") {
				t.Errorf("%s (private %v): %v", h, private, err)
			}
		}
	}
	for _, h := range []string{"127.0.0.1", "localhost", "10.0.0.8", "[::1]", "[fd00::1]", "169.254.169.254"} {
		u := "http://" + h + ":8080/docs.git"
		if _, err := New(nil, nil, nil, Config{AllowPrivate: true}).check(KindImport, Request{URL: u, Ref: "refs/heads/main"}); err != nil {
			t.Errorf("%s with private addresses allowed: %v", u, err)
		}
		_, err := New(nil, nil, nil, Config{}).check(KindImport, Request{URL: u, Ref: "refs/heads/main"})
		if ae, ok := apierr.As(err); !ok || ae.Field != "url" || !strings.Contains(ae.Message, "--git-fetch-private") {
			t.Errorf("%s: %v", u, err)
		}
	}
	for _, raw := range []string{"git://example.com/docs.git", "ssh://git@example.com/docs.git", "git+ssh://example.com/docs.git"} {
		if _, err := parseRemote(raw, nil); apierr.CodeOf(err) != apierr.BadRequest {
			t.Errorf("%s: %v, want a 400", raw, err)
		}
	}
}
