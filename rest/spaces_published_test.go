package rest_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

// pubSpace reads a space as tok and returns its JSON.
func pubSpace(t *testing.T, e *testenv.Env, tok, id, query string) map[string]any {
	t.Helper()
	return sitWant(t, e.Do(tok, "GET", "/v1/spaces/"+id+query, nil), 200, "get space "+id+query)
}

// pubURLs returns a space's urls.published and urls.public, "" when
// absent; a present but empty value fails the test.
func pubURLs(t *testing.T, v map[string]any) (string, string) {
	t.Helper()
	urls, _ := v["urls"].(map[string]any)
	for _, k := range []string{"published", "public"} {
		if x, ok := urls[k]; ok && (x == nil || x == "") {
			t.Errorf("urls.%s present but empty: %v", k, urls)
		}
	}
	return sitStr(urls, "published"), sitStr(urls, "public")
}

// older reports whether site a comes before site b in the order Quire
// picks a space's site in: creation, then id.
func older(a, b map[string]any) bool {
	ca, cb := a["createdAt"].(string), b["createdAt"].(string)
	if ca != cb {
		return ca < cb
	}
	return a["id"].(string) < b["id"].(string)
}

func TestSpacePublishedURLs(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := sitNew(e)
		a, b, c, d := f.space(t, "Alpha"), f.space(t, "Beta"), f.space(t, "Gamma"), f.space(t, "Delta")
		none := func(what, id string) {
			t.Helper()
			v := pubSpace(t, e, f.tok, id, "")
			if p, pub := pubURLs(t, v); p != "" || pub != "" || v["visitorAuth"] != nil {
				t.Errorf("%s: urls %v, visitorAuth %v; want neither published URL nor visitorAuth", what, v["urls"], v["visitorAuth"])
			}
		}
		none("no site", a)

		launch := f.site(t, map[string]any{"title": "Launch", "spaces": []string{a, b}})
		none("unpublished site", a)
		f.do(t, "POST", f.path(launch["id"].(string), "publish"), nil, 200)
		base := e.URL + "/s/" + f.org + "/launch"

		// The default site space is at the site's URL, the other under its path.
		for _, c := range []struct{ id, want string }{{a, base}, {b, base + "/beta"}} {
			v := pubSpace(t, e, f.team.Reader.Token, c.id, "")
			if p, pub := pubURLs(t, v); p != c.want || pub != c.want {
				t.Errorf("space %s: published %q public %q, want %q", c.id, p, pub, c.want)
			}
			if v["visitorAuth"] != nil {
				t.Errorf("public site gives visitorAuth %v", v["visitorAuth"])
			}
		}
		// The space's current revision carries them too.
		rev := sitWant(t, e.Do(f.tok, "GET", "/v1/spaces/"+b+"/content", nil), 200, "content")
		if sitStr(rev, "urls", "published") != base+"/beta" || sitStr(rev, "urls", "public") != base+"/beta" {
			t.Errorf("revision urls %v", rev["urls"])
		}

		// A published visitor-auth site: its spaces say how readers sign in.
		private := f.site(t, map[string]any{"title": "Private", "visibility": "visitor-auth", "spaces": []string{c, a}})
		f.do(t, "POST", f.path(private["id"].(string), "publish"), nil, 200)
		pbase := e.URL + "/s/" + f.org + "/private"
		v := pubSpace(t, e, f.tok, c, "")
		if p, pub := pubURLs(t, v); p != pbase || pub != "" {
			t.Errorf("visitor-auth space: published %q public %q, want %q and none", p, pub, pbase)
		}
		if sitStr(v, "visitorAuth", "backend") != "custom" {
			t.Errorf("visitorAuth = %v", v["visitorAuth"])
		}
		// Alpha is served by both: the oldest site gives its published URL.
		want := base
		if older(private, launch) {
			want = pbase + "/alpha"
		}
		v = pubSpace(t, e, f.tok, a, "")
		if p, pub := pubURLs(t, v); p != want || pub != base {
			t.Errorf("space in two sites: published %q public %q, want %q and %q", p, pub, want, base)
		}
		if sitStr(v, "visitorAuth", "backend") != "custom" {
			t.Errorf("space in a visitor-auth site: visitorAuth = %v", v["visitorAuth"])
		}

		// A share-link site serves its URL only with one of its keys.
		secret := f.site(t, map[string]any{"title": "Secret", "visibility": "share-link", "spaces": []string{d}})
		sid := secret["id"].(string)
		f.do(t, "POST", f.path(sid, "publish"), nil, 200)
		key := sitShareKey(t, f.do(t, "POST", f.path(sid, "share-links"), map[string]any{"name": "Partners"}, 201))
		other := sitShareKey(t, f.do(t, "POST", f.path(launch["id"].(string), "share-links"), map[string]any{"name": "Elsewhere"}, 201))
		none("share-link site without a key", d)
		v = pubSpace(t, e, f.team.Reader.Token, d, "?shareKey="+url.QueryEscape(key))
		if p, pub := pubURLs(t, v); p != e.URL+"/s/"+f.org+"/secret/~share/"+key || pub != "" {
			t.Errorf("with its share key: published %q public %q", p, pub)
		}
		for _, k := range []string{"wrong-key", other, " "} {
			v := pubSpace(t, e, f.tok, d, "?shareKey="+url.QueryEscape(k))
			if p, _ := pubURLs(t, v); p != "" {
				t.Errorf("shareKey %q opens nothing, yet published %q", k, p)
			}
		}
		// The key of a share link turned off opens nothing either.
		links := f.do(t, "GET", f.path(sid, "share-links"), nil, 200)
		f.do(t, "PATCH", f.path(sid, "share-links", sitStr(links, "items", 0, "id")), map[string]any{"active": false}, 200)
		if p, _ := pubURLs(t, pubSpace(t, e, f.tok, d, "?shareKey="+url.QueryEscape(key))); p != "" {
			t.Errorf("inactive share link: published %q", p)
		}

		// Lists carry the same URLs.
		list := sitWant(t, e.Do(f.team.Reader.Token, "GET", "/v1/orgs/"+f.org+"/spaces", nil), 200, "list spaces")
		got := map[string]string{}
		for _, it := range list["items"].([]any) {
			sp := it.(map[string]any)
			p, _ := pubURLs(t, sp)
			got[sp["id"].(string)] = p
		}
		if got[a] != want || got[b] != base+"/beta" || got[c] != pbase || got[d] != "" {
			t.Errorf("listed published URLs %v", got)
		}

		// Unpublishing takes the site's URLs away.
		f.do(t, "POST", f.path(launch["id"].(string), "unpublish"), nil, 200)
		none("unpublished again", b)
		v = pubSpace(t, e, f.tok, a, "")
		if p, pub := pubURLs(t, v); p != pbase+"/alpha" || pub != "" {
			t.Errorf("after unpublishing the public site: published %q public %q", p, pub)
		}

		// Outsiders learn nothing, key or not.
		sitErr(t, e.Do(f.team.Outsider.Token, "GET", "/v1/spaces/"+d+"?shareKey="+url.QueryEscape(key), nil), 404, "", "outsider")
		sitErr(t, e.Do("", "GET", "/v1/spaces/"+a, nil), 401, "", "anonymous")
	})
}

// TestSpacePublishedStatements: a list of spaces served by published sites
// costs as many statements for 2 spaces (in 2 sites) as for 6 (in 6), and
// a space's read as many with a published site as with 6.
func TestSpacePublishedStatements(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		build := func(name string, n int) (*sitFx, []string) {
			f := &sitFx{e: e}
			o := e.Org(name)
			u, tok := e.User("admin@" + strings.ToLower(name) + ".test")
			e.Member(o, u, "admin")
			f.org, f.tok = o.ID, tok
			var spaces []string
			for i := 0; i < n; i++ {
				sp := f.space(t, fmt.Sprintf("S%d", i))
				spaces = append(spaces, sp)
				vis := []string{"public", "visitor-auth", "share-link"}[i%3]
				served := []string{sp}
				if i > 0 {
					served = append(served, spaces[0])
				}
				st := f.site(t, map[string]any{"title": fmt.Sprintf("Site %d", i), "visibility": vis, "spaces": served})
				f.do(t, "POST", f.path(st["id"].(string), "publish"), nil, 200)
			}
			return f, spaces
		}
		measure := func(f *sitFx, path string) func() int64 {
			return func() int64 {
				before := e.Statements()
				sitWant(t, e.Do(f.tok, "GET", path, nil), 200, path)
				return e.Statements() - before
			}
		}
		small, ss := build("Small", 2)
		large, ls := build("Large", 6)
		for _, c := range []struct {
			what   string
			s, l   string
			sf, lf *sitFx
		}{
			{"list", "/v1/orgs/" + small.org + "/spaces", "/v1/orgs/" + large.org + "/spaces", small, large},
			{"space in every site", "/v1/spaces/" + ss[0], "/v1/spaces/" + ls[0], small, large},
		} {
			measure(c.sf, c.s)() // warm up
			n1, n2 := sqMinCounts(measure(c.sf, c.s), measure(c.lf, c.l))
			if n1 != n2 {
				t.Errorf("%s: %d statements with 2 sites, %d with 6", c.what, n1, n2)
			}
		}
		v := pubSpace(t, e, large.tok, ls[0], "")
		if p, _ := pubURLs(t, v); p == "" || sitStr(v, "visitorAuth", "backend") != "custom" {
			t.Errorf("space in 6 sites: urls %v visitorAuth %v", v["urls"], v["visitorAuth"])
		}
	})
}
