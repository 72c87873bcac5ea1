package reader_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/testing/testenv"
)

// adaptive is a document whose parts depend on the visitor's claims.
func adaptive() *document.Document {
	para := func(s string) document.Node {
		return document.NewBlock(document.BlockParagraph, nil, document.NewText(s))
	}
	return &document.Document{Data: map[string]any{}, Nodes: []document.Node{
		para("For everyone."),
		document.NewBlock(document.BlockIf, map[string]any{"expression": `visitor.claims.plan == "pro"`}, para("For pro readers.")),
		document.NewBlock(document.BlockIf, map[string]any{"expression": `visitor.claims.unsigned.beta == true`}, para("For beta readers.")),
	}}
}

// A visitor-auth site admits a reader with a token signed with its
// visitor key, keeps them in a cookie, and shows them what their claims
// allow; a bad, expired or outdated token is refused.
func TestVisitorAuth(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		sp := space(t, e, team, "Members area")
		seedPages(t, e, team, sp, &content.CreatePage{Title: "Plans", Document: adaptive()})
		id, url := site(t, e, team, "Acme private docs", "visitor-auth", sp)
		path := "/v1/orgs/" + team.Org.ID + "/sites/" + id

		if r := e.Do(team.Outsider.Token, "GET", path+"/visitor-key", nil); r.Status != http.StatusNotFound {
			t.Fatalf("another organization's admin reads the key: %d", r.Status)
		}
		key := str(rest(t, e, team.Admin.Token, "GET", path+"/visitor-key", nil, http.StatusOK)["key"])
		if len(key) < 32 {
			t.Fatalf("key %q", key)
		}
		if again := str(rest(t, e, team.Admin.Token, "GET", path+"/visitor-key", nil, http.StatusOK)["key"]); again != key {
			t.Fatalf("the key changed on reading it again")
		}
		sign := func(k string, exp time.Time, claims jwt.MapClaims) string {
			claims["exp"] = exp.Unix()
			s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(k))
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		tok := sign(key, time.Now().Add(time.Hour), jwt.MapClaims{"plan": "pro"})

		if r := get(t, e, url, ""); r.Status != http.StatusUnauthorized {
			t.Fatalf("no token: %d", r.Status)
		}
		in := get(t, e, url+"?jwt_token="+tok+"&visitor.beta=true", "")
		if in.Status != http.StatusSeeOther || strings.Contains(in.Header.Get("Location"), "jwt_token") || !strings.Contains(in.Header.Get("Location"), "visitor.beta=true") {
			t.Fatalf("sign-in: %d %q", in.Status, in.Header.Get("Location"))
		}
		cookie := in.Header.Get("Set-Cookie")
		for _, want := range []string{"quire-visitor=" + tok, "HttpOnly", "SameSite=Lax", "Path=/s/" + team.Org.ID + "/"} {
			if !strings.Contains(cookie, want) {
				t.Errorf("cookie %q lacks %q", cookie, want)
			}
		}
		read := get(t, e, url, "", "Cookie", "quire-visitor="+tok)
		if read.Status != http.StatusOK || !strings.Contains(read.Body, "For pro readers.") || strings.Contains(read.Body, "For beta readers.") {
			t.Fatalf("signed in: %d pro %v beta %v", read.Status, strings.Contains(read.Body, "For pro readers."), strings.Contains(read.Body, "For beta readers."))
		}
		if read.Header.Get("Cache-Control") != "private, no-cache" {
			t.Errorf("a visitor's page may be cached by others: %q", read.Header.Get("Cache-Control"))
		}
		beta := get(t, e, url+"?visitor.beta=true", "", "Cookie", "quire-visitor="+tok)
		if !strings.Contains(beta.Body, "For beta readers.") {
			t.Errorf("unsigned claim from the query not applied")
		}

		for name, bad := range map[string]string{
			"expired":     sign(key, time.Now().Add(-time.Hour), jwt.MapClaims{}),
			"another key": sign("not-the-key-of-this-site-at-all-0000", time.Now().Add(time.Hour), jwt.MapClaims{}),
			"garbage":     "abc.def.ghi",
			"no exp": func() string {
				s, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{}).SignedString([]byte(key))
				return s
			}(),
		} {
			if r := get(t, e, url+"?jwt_token="+bad, ""); r.Status != http.StatusUnauthorized {
				t.Errorf("%s token: %d", name, r.Status)
			}
			if r := get(t, e, url, "", "Cookie", "quire-visitor="+bad); r.Status != http.StatusUnauthorized {
				t.Errorf("%s token in the cookie: %d", name, r.Status)
			}
		}

		fresh := str(rest(t, e, team.Admin.Token, "POST", path+"/visitor-key", nil, http.StatusOK)["key"])
		if fresh == key {
			t.Fatal("rotation kept the key")
		}
		if r := get(t, e, url, "", "Cookie", "quire-visitor="+tok); r.Status != http.StatusUnauthorized {
			t.Errorf("a session of the old key after rotation: %d", r.Status)
		}
		gq := e.GraphQL(team.Admin.Token, `query($s: ID!) { siteVisitorKey(site: $s) { key } }`, map[string]any{"s": id})
		if testenv.Path(gq.Data, "siteVisitorKey", "key") != fresh {
			t.Errorf("GraphQL key: %v", gq.Data)
		}
		if r := e.GraphQL(team.Reader.Token, `mutation($s: ID!) { rotateSiteVisitorKey(site: $s) { key } }`, map[string]any{"s": id}); r.Code() != "FORBIDDEN" {
			t.Errorf("a reader rotates the key: %v", r.Code())
		}
	})
}

// Unsigned claims from the query adapt a public site's pages too.
func TestUnsignedClaims(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		sp := space(t, e, team, "Docs")
		seedPages(t, e, team, sp, &content.CreatePage{Title: "Plans", Document: adaptive()})
		_, url := site(t, e, team, "Acme docs", "public", sp)
		if r := get(t, e, url, ""); r.Status != http.StatusOK || strings.Contains(r.Body, "For beta readers.") || strings.Contains(r.Body, "For pro readers.") {
			t.Fatalf("anonymous: %d", r.Status)
		}
		if r := get(t, e, url+"?visitor.beta=true", ""); !strings.Contains(r.Body, "For beta readers.") {
			t.Fatalf("?visitor.beta=true not applied")
		}
		// A signed claim cannot be set from the query.
		if r := get(t, e, url+"?visitor.plan=pro&plan=pro", ""); strings.Contains(r.Body, "For pro readers.") {
			t.Fatalf("a query parameter passed for a signed claim")
		}
	})
}
