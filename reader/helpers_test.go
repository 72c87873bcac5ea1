package reader_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"quire/internal/content"
	"quire/internal/jobs"
	"quire/internal/testing/testdb"
	"quire/internal/testing/testenv"
)

func TestMain(m *testing.M) { os.Exit(testdb.Main(m)) }

// page is an answer of the reader door.
type page struct {
	Status int
	Header http.Header
	Body   string
}

// get fetches a URL as a browser would (no token), with extra headers;
// host, when set, is the Host header (a custom hostname).
func get(t *testing.T, e *testenv.Env, url, host string, headers ...string) page {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	c := e.HTTP.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r io.Reader = resp.Body
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			t.Fatalf("gzip: %v", err)
		}
		r = zr
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return page{Status: resp.StatusCode, Header: resp.Header, Body: string(b)}
}

// doc parses an HTML answer.
func (p page) doc(t *testing.T) *html.Node {
	t.Helper()
	n, err := html.Parse(strings.NewReader(p.Body))
	if err != nil {
		t.Fatalf("HTML does not parse: %v", err)
	}
	return n
}

// find returns the elements of a tree that match.
func find(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b bytes.Buffer
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// hrefs are the link targets of the elements below a tree that match.
func hrefs(n *html.Node, match func(*html.Node) bool) []string {
	var out []string
	for _, a := range find(n, func(n *html.Node) bool { return n.Data == "a" && attr(n, "href") != "" }) {
		if match == nil || match(a) {
			out = append(out, attr(a, "href"))
		}
	}
	return out
}

func has(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// rest sends a REST request as token and decodes its JSON answer.
func rest(t *testing.T, e *testenv.Env, token, method, path string, body any, want int) map[string]any {
	t.Helper()
	r := e.Do(token, method, path, body)
	if r.Status != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Status, want, r.Body)
	}
	var out map[string]any
	if len(r.Body) > 0 {
		r.Decode(t, &out)
	}
	return out
}

func str(v any) string { s, _ := v.(string); return s }

// seedPages writes pages into a space as its admin, in order; each
// CreatePage may name the ids of earlier ones as parents.
func seedPages(t *testing.T, e *testenv.Env, team *testenv.Team, space string, ops ...content.Op) []string {
	t.Helper()
	ctx := jobs.NewContext(context.Background(), e.Client(), team.Admin.User)
	res, err := e.Server.Resolver().Content.EditSpace(ctx, space, ops...)
	if err != nil {
		t.Fatal(err)
	}
	return res.IDs
}

// site creates a site of the team's organization with site spaces over
// new spaces, publishes it and returns its id and published URL.
func site(t *testing.T, e *testenv.Env, team *testenv.Team, title, visibility string, spaces ...string) (id, url string) {
	t.Helper()
	admin, org := team.Admin.Token, team.Org.ID
	st := rest(t, e, admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": title, "visibility": visibility}, http.StatusCreated)
	id = str(st["id"])
	for _, sp := range spaces {
		rest(t, e, admin, "POST", "/v1/orgs/"+org+"/sites/"+id+"/site-spaces", map[string]any{"spaceId": sp}, http.StatusCreated)
	}
	rest(t, e, admin, "POST", "/v1/orgs/"+org+"/sites/"+id+"/publish", nil, http.StatusOK)
	got := rest(t, e, admin, "GET", "/v1/orgs/"+org+"/sites/"+id, nil, http.StatusOK)
	m, _ := got["urls"].(map[string]any)
	return id, str(m["published"])
}

// space creates a space of the team's organization.
func space(t *testing.T, e *testenv.Env, team *testenv.Team, title string) string {
	t.Helper()
	return str(rest(t, e, team.Admin.Token, "POST", "/v1/orgs/"+team.Org.ID+"/spaces", map[string]any{"title": title}, http.StatusCreated)["id"])
}
