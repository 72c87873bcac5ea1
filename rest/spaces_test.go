package rest_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/ent/space"
	"quire/internal/testenv"
)

// spcSpace is the part of the space object the tests look at.
type spcSpace struct {
	Object       string     `json:"object"`
	ID           string     `json:"id"`
	Title        string     `json:"title"`
	Emoji        string     `json:"emoji"`
	Visibility   string     `json:"visibility"`
	CreatedAt    time.Time  `json:"createdAt"`
	UpdatedAt    time.Time  `json:"updatedAt"`
	DeletedAt    *time.Time `json:"deletedAt"`
	EditMode     string     `json:"editMode"`
	Organization string     `json:"organization"`
	Parent       *string    `json:"parent"`
	Language     *string    `json:"language"`
	Revision     string     `json:"revision"`
	DefaultLevel *string    `json:"defaultLevel"`
	MergeRules   struct {
		Type  string `json:"type"`
		Rules []struct {
			Rule string `json:"rule"`
		} `json:"rules"`
	} `json:"mergeRules"`
	URLs struct {
		Location string  `json:"location"`
		App      string  `json:"app"`
		Icon     *string `json:"icon"`
	} `json:"urls"`
	Permissions map[string]bool `json:"permissions"`
}

type spcPage struct {
	Items []spcSpace `json:"items"`
	Count int        `json:"count"`
	Next  *struct {
		Page string `json:"page"`
	} `json:"next"`
}

// spcErr is the documented error shape.
type spcErr struct {
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func spcOrgPath(orgID string) string { return "/v1/orgs/" + orgID + "/spaces" }

func spcPath(id string, tail ...string) string {
	p := "/v1/spaces/" + id
	for _, t := range tail {
		p += "/" + t
	}
	return p
}

// spcStatus fails the test unless r has the wanted status.
func spcStatus(t *testing.T, r *testenv.Response, want int, what string) {
	t.Helper()
	if r.Status != want {
		t.Fatalf("%s: status %d, want %d; body %s", what, r.Status, want, r.Body)
	}
}

// spcWantError checks an error response: status, the documented shape, and
// that the message names field (when given).
func spcWantError(t *testing.T, r *testenv.Response, status int, field, what string) {
	t.Helper()
	if r.Status != status {
		t.Errorf("%s: status %d, want %d; body %s", what, r.Status, status, r.Body)
		return
	}
	var e spcErr
	r.Decode(t, &e)
	if e.Error == nil || e.Error.Code != status || e.Error.Message == "" {
		t.Errorf("%s: body %s is not the error shape with code %d", what, r.Body, status)
		return
	}
	if field != "" && !strings.Contains(e.Error.Message, field) {
		t.Errorf("%s: message %q does not name %q", what, e.Error.Message, field)
	}
}

func spcCreate(t *testing.T, e *testenv.Env, token, orgID string, body map[string]any) spcSpace {
	t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	r := e.Do(token, "POST", spcOrgPath(orgID), body)
	spcStatus(t, r, 201, "create space")
	var s spcSpace
	r.Decode(t, &s)
	return s
}

func spcGet(t *testing.T, e *testenv.Env, token, id string) spcSpace {
	t.Helper()
	r := e.Do(token, "GET", spcPath(id), nil)
	spcStatus(t, r, 200, "get space "+id)
	var s spcSpace
	r.Decode(t, &s)
	return s
}

func spcList(t *testing.T, e *testenv.Env, token, orgID, query string) spcPage {
	t.Helper()
	p := spcOrgPath(orgID)
	if query != "" {
		p += "?" + query
	}
	r := e.Do(token, "GET", p, nil)
	spcStatus(t, r, 200, "list spaces")
	var l spcPage
	r.Decode(t, &l)
	return l
}

func spcCreateCollection(t *testing.T, e *testenv.Env, token, orgID string, body map[string]any) string {
	t.Helper()
	r := e.Do(token, "POST", "/v1/orgs/"+orgID+"/collections", body)
	spcStatus(t, r, 201, "create collection")
	return r.JSON()["id"].(string)
}

func spcIDs(items []spcSpace) []string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = s.ID
	}
	return out
}

func spcSame(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// spcStr shows an optional string ("<null>" when absent).
func spcStr(p *string) string {
	if p == nil {
		return "<null>"
	}
	return *p
}

func spcContains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// spcSetDeletedAt moves a space's deletion time, as if it had been deleted then.
func spcSetDeletedAt(t *testing.T, e *testenv.Env, id string, at time.Time) {
	t.Helper()
	if err := e.Client().Space.UpdateOneID(id).SetDeletedAt(at).Exec(context.Background()); err != nil {
		t.Fatalf("set deleted_at: %v", err)
	}
}

func TestSpaceCreate(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		path := spcOrgPath(team.Org.ID)

		t.Run("defaults", func(t *testing.T) {
			r := e.Do(team.Admin.Token, "POST", path, map[string]any{"title": "Handbook", "emoji": "📘"})
			spcStatus(t, r, 201, "create")
			var s spcSpace
			r.Decode(t, &s)
			if s.ID == "" || s.Object != "space" {
				t.Fatalf("created space: %s", r.Body)
			}
			if loc := r.Header.Get("Location"); loc != e.URL+"/v1/spaces/"+s.ID || s.URLs.Location != loc {
				t.Errorf("Location header %q, urls.location %q", loc, s.URLs.Location)
			}
			if s.Title != "Handbook" || s.Emoji != "📘" {
				t.Errorf("title/emoji = %q/%q", s.Title, s.Emoji)
			}
			if s.Visibility != "private" {
				t.Errorf("visibility = %q, want private", s.Visibility)
			}
			if s.EditMode != "live" {
				t.Errorf("editMode = %q, want live", s.EditMode)
			}
			if s.DefaultLevel == nil || *s.DefaultLevel != "inherit" {
				t.Errorf("defaultLevel = %v, want inherit", s.DefaultLevel)
			}
			if s.MergeRules.Type != "inherit" || len(s.MergeRules.Rules) != 0 {
				t.Errorf("mergeRules = %+v, want {type: inherit}", s.MergeRules)
			}
			if s.Revision == "" {
				t.Errorf("revision is empty")
			}
			if s.Organization != team.Org.ID || s.Parent != nil || s.DeletedAt != nil {
				t.Errorf("organization/parent/deletedAt = %q/%v/%v", s.Organization, s.Parent, s.DeletedAt)
			}
			if !s.Permissions["admin"] || !s.Permissions["edit"] {
				t.Errorf("creator permissions = %v", s.Permissions)
			}
			// What was answered is what is stored.
			got := spcGet(t, e, team.Admin.Token, s.ID)
			if got.Title != s.Title || got.Revision != s.Revision || got.Visibility != s.Visibility {
				t.Errorf("GET after create = %+v, want %+v", got, s)
			}
		})

		t.Run("empty body gets a default title", func(t *testing.T) {
			r := e.Do(team.Admin.Token, "POST", path, nil)
			spcStatus(t, r, 201, "create without body")
			if r.JSON()["title"] == "" {
				t.Errorf("title is empty: %s", r.Body)
			}
		})

		t.Run("language and editMode", func(t *testing.T) {
			s := spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "Docs FR", "language": "fr", "editMode": "locked"})
			if s.Language == nil || *s.Language != "fr" || s.EditMode != "locked" {
				t.Errorf("language/editMode = %v/%q", s.Language, s.EditMode)
			}
		})

		t.Run("in a collection", func(t *testing.T) {
			col := spcCreateCollection(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "Product"})
			s := spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "API", "parent": col})
			if s.Parent == nil || *s.Parent != col {
				t.Errorf("parent = %v, want %s", s.Parent, col)
			}
			if s.Visibility != "in-collection" {
				t.Errorf("visibility = %q, want in-collection", s.Visibility)
			}
			r := e.Do(team.Admin.Token, "GET", "/v1/collections/"+col+"/spaces", nil)
			spcStatus(t, r, 200, "collection spaces")
			var l spcPage
			r.Decode(t, &l)
			if l.Count != 1 || len(l.Items) != 1 || l.Items[0].ID != s.ID {
				t.Errorf("collection spaces = %s", r.Body)
			}
			// A collection of another organization is not a valid parent.
			other := spcCreateCollection(t, e, team.Outsider.Token, team.Other.ID, map[string]any{"title": "Theirs"})
			spcWantError(t, e.Do(team.Admin.Token, "POST", path, map[string]any{"parent": other}), 400, "parent", "foreign parent")
			spcWantError(t, e.Do(team.Admin.Token, "POST", path, map[string]any{"parent": "nope"}), 400, "parent", "unknown parent")
		})

		t.Run("limits", func(t *testing.T) {
			fifty := strings.Repeat("é", 50)
			s := spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": fifty, "emoji": strings.Repeat("x", 50)})
			if s.Title != fifty {
				t.Errorf("50-character title = %q", s.Title)
			}
			spcWantError(t, e.Do(team.Admin.Token, "POST", path, map[string]any{"title": fifty + "x"}), 400, "title", "title of 51")
			spcWantError(t, e.Do(team.Admin.Token, "POST", path, map[string]any{"emoji": strings.Repeat("x", 51)}), 400, "emoji", "emoji of 51")
		})

		t.Run("invalid input", func(t *testing.T) {
			before := spcList(t, e, team.Admin.Token, team.Org.ID, "").Count
			for _, tc := range []struct {
				name  string
				body  any
				field string
			}{
				{"unknown language", map[string]any{"language": "xx"}, "language"},
				{"unknown editMode", map[string]any{"editMode": "bogus"}, "editMode"},
				{"title of wrong type", map[string]any{"title": 5}, "title"},
				{"emoji of wrong type", map[string]any{"emoji": true}, "emoji"},
				{"malformed JSON", `{"title": `, "JSON"},
				{"not an object", `[1, 2]`, "JSON"},
			} {
				t.Run(tc.name, func(t *testing.T) {
					spcWantError(t, e.Do(team.Admin.Token, "POST", path, tc.body), 400, tc.field, tc.name)
				})
			}
			if after := spcList(t, e, team.Admin.Token, team.Org.ID, "").Count; after != before {
				t.Errorf("rejected creates changed the count from %d to %d", before, after)
			}
		})

		t.Run("callers", func(t *testing.T) {
			before := spcList(t, e, team.Admin.Token, team.Org.ID, "").Count
			spcWantError(t, e.Do(team.Reader.Token, "POST", path, map[string]any{"title": "R"}), 403, "", "reader")
			spcWantError(t, e.Do(team.Editor.Token, "POST", path, map[string]any{"title": "E"}), 403, "", "editor (edit < create)")
			spcWantError(t, e.Do(team.Outsider.Token, "POST", path, map[string]any{"title": "O"}), 404, "", "outsider")
			spcWantError(t, e.Do(team.Admin.Token, "POST", spcOrgPath("nope"), map[string]any{"title": "N"}), 404, "", "unknown org")
			spcWantError(t, e.Do("", "POST", path, map[string]any{"title": "A"}), 401, "", "anonymous")
			spcWantError(t, e.Do("not-a-token", "POST", path, map[string]any{"title": "A"}), 401, "", "unknown token")
			if after := spcList(t, e, team.Admin.Token, team.Org.ID, "").Count; after != before {
				t.Errorf("refused creates changed the count from %d to %d", before, after)
			}
			// A member with role create may create.
			u, tok := e.User("creator@acme.test")
			e.Member(team.Org, u, "create")
			spcCreate(t, e, tok, team.Org.ID, map[string]any{"title": "By creator"})
		})
	})
}

func TestSpaceList(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		var made []string
		for i := 0; i < 5; i++ {
			made = append(made, spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": fmt.Sprintf("S%d", i)}).ID)
		}
		// A space the editor and reader cannot see, one that is deleted, and
		// one in another organization.
		hidden := spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "Hidden"}).ID
		spcStatus(t, e.Do(team.Admin.Token, "PATCH", spcPath(hidden), map[string]any{"defaultLevel": nil}), 200, "hide")
		gone := spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "Gone"}).ID
		spcStatus(t, e.Do(team.Admin.Token, "DELETE", spcPath(gone), nil), 205, "delete")
		foreign := spcCreate(t, e, team.Outsider.Token, team.Other.ID, map[string]any{"title": "Foreign"}).ID

		t.Run("admin sees every live space in order", func(t *testing.T) {
			l := spcList(t, e, team.Admin.Token, team.Org.ID, "")
			want := append(append([]string{}, made...), hidden)
			if !spcSame(spcIDs(l.Items), want) || l.Count != len(want) || l.Next != nil {
				t.Errorf("admin list = %v (count %d, next %v), want %v", spcIDs(l.Items), l.Count, l.Next, want)
			}
			if spcContains(spcIDs(l.Items), gone) || spcContains(spcIDs(l.Items), foreign) {
				t.Errorf("list holds a deleted or foreign space")
			}
		})

		t.Run("members see what they can see", func(t *testing.T) {
			for _, a := range []testenv.Actor{team.Editor, team.Reader} {
				l := spcList(t, e, a.Token, team.Org.ID, "")
				if !spcSame(spcIDs(l.Items), made) || l.Count != len(made) {
					t.Errorf("%s list = %v (count %d), want %v", a.User.Email, spcIDs(l.Items), l.Count, made)
				}
				for _, s := range l.Items {
					if s.Permissions["admin"] || !s.Permissions["view"] {
						t.Errorf("%s permissions on %s = %v", a.User.Email, s.ID, s.Permissions)
					}
				}
			}
			// A guest (member without role) sees nothing.
			u, tok := e.User("guest@acme.test")
			e.Member(team.Org, u, "")
			if l := spcList(t, e, tok, team.Org.ID, ""); len(l.Items) != 0 || l.Count != 0 {
				t.Errorf("guest list = %v", spcIDs(l.Items))
			}
		})

		t.Run("outsiders and anonymous", func(t *testing.T) {
			spcWantError(t, e.Do(team.Outsider.Token, "GET", spcOrgPath(team.Org.ID), nil), 404, "", "outsider")
			spcWantError(t, e.Do("", "GET", spcOrgPath(team.Org.ID), nil), 401, "", "anonymous")
			spcWantError(t, e.Do(team.Admin.Token, "GET", spcOrgPath("nope"), nil), 404, "", "unknown org")
		})

		t.Run("paging", func(t *testing.T) {
			all := append(append([]string{}, made...), hidden)
			var got []string
			page := ""
			for n := 0; ; n++ {
				q := "limit=2"
				if page != "" {
					q += "&page=" + url.QueryEscape(page)
				}
				l := spcList(t, e, team.Admin.Token, team.Org.ID, q)
				if l.Count != len(all) {
					t.Errorf("page %d count = %d, want %d", n, l.Count, len(all))
				}
				if len(l.Items) > 2 {
					t.Fatalf("page %d has %d items with limit=2", n, len(l.Items))
				}
				got = append(got, spcIDs(l.Items)...)
				if l.Next == nil {
					break
				}
				if n > len(all) {
					t.Fatalf("paging does not end")
				}
				page = l.Next.Page
			}
			if !spcSame(got, all) {
				t.Errorf("paged ids = %v, want %v", got, all)
			}
			// limit=6 fits everything exactly: no next page.
			if l := spcList(t, e, team.Admin.Token, team.Org.ID, "limit=6"); len(l.Items) != 6 || l.Next != nil {
				t.Errorf("limit=6: %d items, next %v", len(l.Items), l.Next)
			}
			if l := spcList(t, e, team.Admin.Token, team.Org.ID, "limit=1000"); len(l.Items) != 6 {
				t.Errorf("limit=1000: %d items", len(l.Items))
			}
			if l := spcList(t, e, team.Admin.Token, team.Org.ID, "limit=0"); len(l.Items) != 0 || l.Count != 6 {
				t.Errorf("limit=0: %d items, count %d", len(l.Items), l.Count)
			}
			for _, q := range []string{"limit=1001", "limit=-1", "limit=abc", "limit=1.5"} {
				spcWantError(t, e.Do(team.Admin.Token, "GET", spcOrgPath(team.Org.ID)+"?"+q, nil), 400, "limit", q)
			}
			spcWantError(t, e.Do(team.Admin.Token, "GET", spcOrgPath(team.Org.ID)+"?page=garbage", nil), 400, "page", "page=garbage")
		})
	})
}

func TestSpaceGet(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		s := spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "Guide", "emoji": "🚀"})
		for _, a := range []testenv.Actor{team.Admin, team.Editor, team.Reader} {
			got := spcGet(t, e, a.Token, s.ID)
			if got.ID != s.ID || got.Title != "Guide" || got.Emoji != "🚀" || got.Revision != s.Revision {
				t.Errorf("%s GET = %+v", a.User.Email, got)
			}
		}
		if p := spcGet(t, e, team.Editor.Token, s.ID).Permissions; !p["edit"] || p["admin"] {
			t.Errorf("editor permissions = %v", p)
		}
		if p := spcGet(t, e, team.Reader.Token, s.ID).Permissions; p["edit"] || !p["view"] {
			t.Errorf("reader permissions = %v", p)
		}
		spcWantError(t, e.Do(team.Outsider.Token, "GET", spcPath(s.ID), nil), 404, "", "outsider")
		spcWantError(t, e.Do(team.Admin.Token, "GET", spcPath("nope"), nil), 404, "", "unknown id")
		spcWantError(t, e.Do("", "GET", spcPath(s.ID), nil), 401, "", "anonymous")
		// A space with no default access is invisible to non-admins.
		spcStatus(t, e.Do(team.Admin.Token, "PATCH", spcPath(s.ID), map[string]any{"defaultLevel": nil}), 200, "defaultLevel null")
		spcWantError(t, e.Do(team.Reader.Token, "GET", spcPath(s.ID), nil), 404, "", "reader on a hidden space")
		if got := spcGet(t, e, team.Admin.Token, s.ID); got.DefaultLevel != nil {
			t.Errorf("defaultLevel = %v, want null", *got.DefaultLevel)
		}
	})
}

func TestSpacePatch(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		s := spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "Guide", "emoji": "🚀", "language": "en"})
		patch := func(token string, body any) *testenv.Response {
			t.Helper()
			return e.Do(token, "PATCH", spcPath(s.ID), body)
		}
		ok := func(token string, body any) spcSpace {
			t.Helper()
			r := patch(token, body)
			spcStatus(t, r, 200, fmt.Sprintf("PATCH %v", body))
			var out spcSpace
			r.Decode(t, &out)
			if again := spcGet(t, e, team.Admin.Token, s.ID); again.Title != out.Title || again.Emoji != out.Emoji ||
				again.EditMode != out.EditMode || spcStr(again.DefaultLevel) != spcStr(out.DefaultLevel) ||
				spcStr(again.Language) != spcStr(out.Language) || again.MergeRules.Type != out.MergeRules.Type ||
				spcStr(again.URLs.Icon) != spcStr(out.URLs.Icon) {
				t.Errorf("GET after PATCH %v = %+v, answered %+v", body, again, out)
			}
			return out
		}

		t.Run("title keeps the rest", func(t *testing.T) {
			got := ok(team.Admin.Token, map[string]any{"title": "Renamed"})
			if got.Title != "Renamed" || got.Emoji != "🚀" || got.Language == nil || *got.Language != "en" ||
				got.EditMode != "live" || got.DefaultLevel == nil || *got.DefaultLevel != "inherit" ||
				got.MergeRules.Type != "inherit" || got.Revision != s.Revision || got.Visibility != "private" {
				t.Errorf("after title patch: %+v", got)
			}
			if got.UpdatedAt.Before(s.UpdatedAt) {
				t.Errorf("updatedAt went back: %v < %v", got.UpdatedAt, s.UpdatedAt)
			}
		})

		t.Run("empty patch changes nothing", func(t *testing.T) {
			got := ok(team.Admin.Token, map[string]any{})
			if got.Title != "Renamed" || got.Emoji != "🚀" {
				t.Errorf("after empty patch: %+v", got)
			}
		})

		t.Run("emoji", func(t *testing.T) {
			if got := ok(team.Admin.Token, map[string]any{"emoji": "🎉"}); got.Emoji != "🎉" || got.Title != "Renamed" {
				t.Errorf("emoji patch: %+v", got)
			}
			if got := ok(team.Admin.Token, map[string]any{"emoji": nil}); got.Emoji != "" {
				t.Errorf("emoji null left %q", got.Emoji)
			}
		})

		t.Run("icon", func(t *testing.T) {
			icon := "https://cdn.example.com/icon.png"
			got := ok(team.Admin.Token, map[string]any{"icon": icon})
			if got.URLs.Icon == nil || *got.URLs.Icon != icon {
				t.Errorf("urls.icon = %v", got.URLs.Icon)
			}
			if got := ok(team.Admin.Token, map[string]any{"title": "With icon"}); got.URLs.Icon == nil || *got.URLs.Icon != icon {
				t.Errorf("icon lost by a title patch: %v", got.URLs.Icon)
			}
			if got := ok(team.Admin.Token, map[string]any{"icon": nil}); got.URLs.Icon != nil {
				t.Errorf("icon null left %q", *got.URLs.Icon)
			}
			spcWantError(t, patch(team.Admin.Token, map[string]any{"icon": "ftp://x/y.png"}), 400, "icon", "ftp icon")
			spcWantError(t, patch(team.Admin.Token, map[string]any{"icon": "not a url"}), 400, "icon", "non-URL icon")
		})

		t.Run("editMode transitions", func(t *testing.T) {
			if got := ok(team.Admin.Token, map[string]any{"editMode": "locked"}); got.EditMode != "locked" {
				t.Errorf("editMode = %q", got.EditMode)
			}
			// Locked stays locked on unrelated patches.
			if got := ok(team.Admin.Token, map[string]any{"title": "Locked"}); got.EditMode != "locked" {
				t.Errorf("editMode after title patch = %q", got.EditMode)
			}
			if got := ok(team.Admin.Token, map[string]any{"editMode": "live"}); got.EditMode != "live" {
				t.Errorf("editMode = %q", got.EditMode)
			}
		})

		t.Run("defaultLevel", func(t *testing.T) {
			for _, lvl := range []string{"read", "edit", "admin", "inherit"} {
				if got := ok(team.Admin.Token, map[string]any{"defaultLevel": lvl}); got.DefaultLevel == nil || *got.DefaultLevel != lvl {
					t.Errorf("defaultLevel %s gave %v", lvl, got.DefaultLevel)
				}
			}
			// A space-level role applies to members as is.
			ok(team.Admin.Token, map[string]any{"defaultLevel": "edit"})
			if p := spcGet(t, e, team.Reader.Token, s.ID).Permissions; !p["edit"] {
				t.Errorf("reader on a defaultLevel=edit space: %v", p)
			}
			ok(team.Admin.Token, map[string]any{"defaultLevel": "inherit"})
		})

		t.Run("language", func(t *testing.T) {
			if got := ok(team.Admin.Token, map[string]any{"language": "pt-br"}); got.Language == nil || *got.Language != "pt-br" {
				t.Errorf("language = %v", got.Language)
			}
			if got := ok(team.Admin.Token, map[string]any{"language": nil}); got.Language != nil {
				t.Errorf("language null left %q", *got.Language)
			}
		})

		t.Run("mergeRules", func(t *testing.T) {
			got := ok(team.Admin.Token, map[string]any{"mergeRules": map[string]any{"type": "rules", "rules": []any{map[string]any{"rule": "require_at_least_one_review"}}}})
			if got.MergeRules.Type != "rules" || len(got.MergeRules.Rules) != 1 || got.MergeRules.Rules[0].Rule != "require_at_least_one_review" {
				t.Errorf("mergeRules = %+v", got.MergeRules)
			}
			if again := spcGet(t, e, team.Reader.Token, s.ID); again.MergeRules.Type != "rules" || len(again.MergeRules.Rules) != 1 {
				t.Errorf("stored mergeRules = %+v", again.MergeRules)
			}
			if got := ok(team.Admin.Token, map[string]any{"mergeRules": map[string]any{"type": "none"}}); got.MergeRules.Type != "none" {
				t.Errorf("mergeRules none = %+v", got.MergeRules)
			}
			if got := ok(team.Admin.Token, map[string]any{"mergeRules": map[string]any{"type": "inherit"}}); got.MergeRules.Type != "inherit" {
				t.Errorf("mergeRules inherit = %+v", got.MergeRules)
			}
		})

		t.Run("bad values", func(t *testing.T) {
			before := spcGet(t, e, team.Admin.Token, s.ID)
			for _, tc := range []struct {
				name  string
				body  any
				field string
			}{
				{"title too long", map[string]any{"title": strings.Repeat("a", 51)}, "title"},
				{"title null", map[string]any{"title": nil}, "title"},
				{"title number", map[string]any{"title": 5}, "title"},
				{"emoji too long", map[string]any{"emoji": strings.Repeat("a", 51)}, "emoji"},
				{"editMode bogus", map[string]any{"editMode": "bogus"}, "editMode"},
				{"editMode null", map[string]any{"editMode": nil}, "editMode"},
				{"defaultLevel owner", map[string]any{"defaultLevel": "owner"}, "defaultLevel"},
				{"language xx", map[string]any{"language": "xx"}, "language"},
				{"mergeRules type", map[string]any{"mergeRules": map[string]any{"type": "sometimes"}}, "mergeRules"},
				{"mergeRules unknown rule", map[string]any{"mergeRules": map[string]any{"type": "rules", "rules": []any{map[string]any{"rule": "be_nice"}}}}, "mergeRules"},
				{"mergeRules wrong type", map[string]any{"mergeRules": "rules"}, "mergeRules"},
				{"mergeRules null", map[string]any{"mergeRules": nil}, "mergeRules"},
				{"malformed JSON", `{"title":`, "JSON"},
				{"empty body", "", "body"},
				// One bad field spoils the whole patch.
				{"good title, bad editMode", map[string]any{"title": "Never", "editMode": "bogus"}, "editMode"},
			} {
				t.Run(tc.name, func(t *testing.T) {
					spcWantError(t, patch(team.Admin.Token, tc.body), 400, tc.field, tc.name)
				})
			}
			after := spcGet(t, e, team.Admin.Token, s.ID)
			if after.Title != before.Title || after.EditMode != before.EditMode || after.Emoji != before.Emoji {
				t.Errorf("rejected patches changed the space: %+v -> %+v", before, after)
			}
		})

		t.Run("who may change what", func(t *testing.T) {
			if got := ok(team.Editor.Token, map[string]any{"title": "By editor", "emoji": "✏️", "language": "de"}); got.Title != "By editor" {
				t.Errorf("editor title patch: %+v", got)
			}
			for _, body := range []map[string]any{
				{"editMode": "locked"},
				{"defaultLevel": "read"},
				{"mergeRules": map[string]any{"type": "none"}},
				{"title": "Sneaky", "editMode": "locked"},
			} {
				spcWantError(t, patch(team.Editor.Token, body), 403, "", fmt.Sprintf("editor %v", body))
			}
			spcWantError(t, patch(team.Reader.Token, map[string]any{"title": "By reader"}), 403, "", "reader title")
			spcWantError(t, patch(team.Outsider.Token, map[string]any{"title": "By outsider"}), 404, "", "outsider title")
			spcWantError(t, patch("", map[string]any{"title": "Anon"}), 401, "", "anonymous title")
			spcWantError(t, e.Do(team.Admin.Token, "PATCH", spcPath("nope"), map[string]any{"title": "x"}), 404, "", "unknown id")
			got := spcGet(t, e, team.Admin.Token, s.ID)
			if got.Title != "By editor" || got.EditMode != "live" {
				t.Errorf("refused patches changed the space: %+v", got)
			}
		})
	})
}

func TestSpaceDeleteAndRestore(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		now := time.Now().UTC()
		e.Server.Resolver().Catalog.Now = func() time.Time { return now }

		a := spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "A"})
		b := spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "B"})

		r := e.Do(team.Admin.Token, "DELETE", spcPath(a.ID), nil)
		spcStatus(t, r, 205, "delete")
		if len(r.Body) != 0 {
			t.Errorf("205 has a body: %s", r.Body)
		}
		r = e.Do(team.Admin.Token, "DELETE", spcPath(a.ID), nil)
		spcStatus(t, r, 204, "second delete")
		if len(r.Body) != 0 {
			t.Errorf("204 has a body: %s", r.Body)
		}
		spcStatus(t, e.Do(team.Admin.Token, "DELETE", spcPath("nope"), nil), 204, "delete unknown")

		got := spcGet(t, e, team.Admin.Token, a.ID)
		if got.DeletedAt == nil || !got.DeletedAt.Equal(now.Truncate(time.Microsecond)) && got.DeletedAt.Sub(now).Abs() > time.Millisecond {
			t.Errorf("deletedAt = %v, want %v", got.DeletedAt, now)
		}
		if g := spcGet(t, e, team.Reader.Token, a.ID); g.DeletedAt == nil {
			t.Errorf("reader sees no deletedAt")
		}
		for _, actor := range []testenv.Actor{team.Admin, team.Reader} {
			l := spcList(t, e, actor.Token, team.Org.ID, "")
			if !spcSame(spcIDs(l.Items), []string{b.ID}) || l.Count != 1 {
				t.Errorf("%s list after delete = %v (count %d)", actor.User.Email, spcIDs(l.Items), l.Count)
			}
		}
		// A deleted space cannot be changed until restored.
		spcWantError(t, e.Do(team.Admin.Token, "PATCH", spcPath(a.ID), map[string]any{"title": "x"}), 400, "", "patch deleted")

		t.Run("restore", func(t *testing.T) {
			spcWantError(t, e.Do(team.Reader.Token, "POST", spcPath(a.ID, "restore"), nil), 403, "", "reader restore")
			spcWantError(t, e.Do(team.Editor.Token, "POST", spcPath(a.ID, "restore"), nil), 403, "", "editor restore")
			spcWantError(t, e.Do(team.Outsider.Token, "POST", spcPath(a.ID, "restore"), nil), 404, "", "outsider restore")
			// Six days later it can still be restored.
			now = now.Add(6 * 24 * time.Hour)
			r := e.Do(team.Admin.Token, "POST", spcPath(a.ID, "restore"), nil)
			spcStatus(t, r, 200, "restore")
			var s spcSpace
			r.Decode(t, &s)
			if s.DeletedAt != nil || r.JSON()["deletedAt"] != nil {
				t.Errorf("restored space has deletedAt: %s", r.Body)
			}
			if s.Title != "A" || s.Revision != a.Revision {
				t.Errorf("restored space = %+v", s)
			}
			if g := spcGet(t, e, team.Admin.Token, a.ID); g.DeletedAt != nil {
				t.Errorf("GET after restore has deletedAt %v", g.DeletedAt)
			}
			l := spcList(t, e, team.Admin.Token, team.Org.ID, "")
			if !spcSame(spcIDs(l.Items), []string{b.ID, a.ID}) {
				t.Errorf("list after restore = %v, want [B A]", spcIDs(l.Items))
			}
			spcWantError(t, e.Do(team.Admin.Token, "POST", spcPath(a.ID, "restore"), nil), 400, "", "restore live space")
			spcWantError(t, e.Do(team.Admin.Token, "POST", spcPath("nope", "restore"), nil), 404, "", "restore unknown")
		})

		t.Run("after the retention", func(t *testing.T) {
			spcStatus(t, e.Do(team.Admin.Token, "DELETE", spcPath(b.ID), nil), 205, "delete b")
			spcSetDeletedAt(t, e, b.ID, now.Add(-8*24*time.Hour))
			spcWantError(t, e.Do(team.Admin.Token, "POST", spcPath(b.ID, "restore"), nil), 404, "", "restore after 8 days")
			if g := spcGet(t, e, team.Admin.Token, b.ID); g.DeletedAt == nil {
				t.Errorf("expired space lost its deletedAt")
			}
		})

		t.Run("callers", func(t *testing.T) {
			c := spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "C"})
			spcWantError(t, e.Do(team.Reader.Token, "DELETE", spcPath(c.ID), nil), 403, "", "reader delete")
			spcWantError(t, e.Do(team.Editor.Token, "DELETE", spcPath(c.ID), nil), 403, "", "editor delete")
			spcStatus(t, e.Do(team.Outsider.Token, "DELETE", spcPath(c.ID), nil), 204, "outsider delete")
			spcWantError(t, e.Do("", "DELETE", spcPath(c.ID), nil), 401, "", "anonymous delete")
			if g := spcGet(t, e, team.Admin.Token, c.ID); g.DeletedAt != nil {
				t.Errorf("refused deletes deleted the space")
			}
		})
	})
}

func TestSpaceDuplicate(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		a := spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "A", "emoji": "🅰️", "language": "fr", "editMode": "locked"})
		b := spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "B"})
		c := spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "C"})
		spcStatus(t, e.Do(team.Admin.Token, "PATCH", spcPath(a.ID), map[string]any{
			"defaultLevel": "read",
			"mergeRules":   map[string]any{"type": "rules", "rules": []any{map[string]any{"rule": "require_at_least_one_review"}}},
		}), 200, "configure a")
		a = spcGet(t, e, team.Admin.Token, a.ID)

		r := e.Do(team.Admin.Token, "POST", spcPath(a.ID, "duplicate"), nil)
		spcStatus(t, r, 201, "duplicate")
		var d spcSpace
		r.Decode(t, &d)
		if d.ID == "" || d.ID == a.ID {
			t.Fatalf("duplicate id %q (original %q)", d.ID, a.ID)
		}
		if loc := r.Header.Get("Location"); loc != e.URL+"/v1/spaces/"+d.ID {
			t.Errorf("Location = %q", loc)
		}
		if d.Revision == "" || d.Revision == a.Revision {
			t.Errorf("duplicate revision %q (original %q)", d.Revision, a.Revision)
		}
		if !strings.HasPrefix(d.Title, "A") {
			t.Errorf("duplicate title %q", d.Title)
		}
		if d.Emoji != a.Emoji || d.EditMode != a.EditMode || d.Visibility != a.Visibility ||
			spcStr(d.Language) != "fr" ||
			spcStr(d.DefaultLevel) != "read" || d.MergeRules.Type != "rules" ||
			len(d.MergeRules.Rules) != 1 || d.Organization != a.Organization || d.Parent != nil || d.DeletedAt != nil {
			t.Errorf("duplicate settings %+v differ from %+v", d, a)
		}
		// The original is untouched.
		if again := spcGet(t, e, team.Admin.Token, a.ID); again.Title != "A" || again.Revision != a.Revision {
			t.Errorf("original after duplicate: %+v", again)
		}
		l := spcList(t, e, team.Admin.Token, team.Org.ID, "")
		if want := []string{a.ID, d.ID, b.ID, c.ID}; !spcSame(spcIDs(l.Items), want) {
			t.Errorf("list after duplicate = %v, want %v", spcIDs(l.Items), want)
		}
		// Duplicating the middle one again lands right after it, before the
		// first copy's neighbour.
		d2 := e.Do(team.Admin.Token, "POST", spcPath(b.ID, "duplicate"), nil)
		spcStatus(t, d2, 201, "duplicate b")
		d2id := d2.JSON()["id"].(string)
		if l := spcList(t, e, team.Admin.Token, team.Org.ID, ""); !spcSame(spcIDs(l.Items), []string{a.ID, d.ID, b.ID, d2id, c.ID}) {
			t.Errorf("list after duplicating b = %v", spcIDs(l.Items))
		}

		t.Run("in a collection", func(t *testing.T) {
			col := spcCreateCollection(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "Col"})
			in := spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "Inside", "parent": col})
			r := e.Do(team.Admin.Token, "POST", spcPath(in.ID, "duplicate"), nil)
			spcStatus(t, r, 201, "duplicate in collection")
			var dd spcSpace
			r.Decode(t, &dd)
			if dd.Parent == nil || *dd.Parent != col || dd.Visibility != "in-collection" {
				t.Errorf("duplicate in collection: parent %v visibility %q", dd.Parent, dd.Visibility)
			}
		})

		t.Run("callers", func(t *testing.T) {
			before := spcList(t, e, team.Admin.Token, team.Org.ID, "").Count
			spcWantError(t, e.Do(team.Reader.Token, "POST", spcPath(c.ID, "duplicate"), nil), 403, "", "reader")
			spcWantError(t, e.Do(team.Editor.Token, "POST", spcPath(c.ID, "duplicate"), nil), 403, "", "editor")
			spcWantError(t, e.Do(team.Outsider.Token, "POST", spcPath(c.ID, "duplicate"), nil), 404, "", "outsider")
			spcWantError(t, e.Do("", "POST", spcPath(c.ID, "duplicate"), nil), 401, "", "anonymous")
			spcWantError(t, e.Do(team.Admin.Token, "POST", spcPath("nope", "duplicate"), nil), 404, "", "unknown")
			if after := spcList(t, e, team.Admin.Token, team.Org.ID, "").Count; after != before {
				t.Errorf("refused duplicates changed the count %d -> %d", before, after)
			}
		})
	})
}

func TestSpaceMove(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		adm := team.Admin.Token
		a := spcCreate(t, e, adm, team.Org.ID, map[string]any{"title": "A"}).ID
		b := spcCreate(t, e, adm, team.Org.ID, map[string]any{"title": "B"}).ID
		c := spcCreate(t, e, adm, team.Org.ID, map[string]any{"title": "C"}).ID
		col := spcCreateCollection(t, e, adm, team.Org.ID, map[string]any{"title": "Col"})
		move := func(token, id string, body any) *testenv.Response {
			t.Helper()
			return e.Do(token, "POST", spcPath(id, "move"), body)
		}
		order := func() []string {
			t.Helper()
			return spcIDs(spcList(t, e, adm, team.Org.ID, "").Items)
		}
		colSpaces := func() []string {
			t.Helper()
			r := e.Do(adm, "GET", "/v1/collections/"+col+"/spaces", nil)
			spcStatus(t, r, 200, "collection spaces")
			var l spcPage
			r.Decode(t, &l)
			return spcIDs(l.Items)
		}
		after := func(kind, id string) map[string]any {
			return map[string]any{"after": map[string]any{"type": kind, kind: id}}
		}
		before := func(kind, id string) map[string]any {
			return map[string]any{"before": map[string]any{"type": kind, kind: id}}
		}

		t.Run("within the root", func(t *testing.T) {
			r := move(adm, c, map[string]any{"position": before("space", a)})
			spcStatus(t, r, 200, "move c before a")
			if r.JSON()["id"] != c {
				t.Errorf("move answered %s", r.Body)
			}
			if got := order(); !spcSame(got, []string{c, a, b}) {
				t.Errorf("after c before a: %v", got)
			}
			spcStatus(t, move(adm, c, map[string]any{"position": after("space", b)}), 200, "move c after b")
			if got := order(); !spcSame(got, []string{a, b, c}) {
				t.Errorf("after c after b: %v", got)
			}
			spcStatus(t, move(adm, a, map[string]any{"position": after("space", b)}), 200, "move a after b")
			if got := order(); !spcSame(got, []string{b, a, c}) {
				t.Errorf("after a after b: %v", got)
			}
			spcStatus(t, move(adm, a, map[string]any{"position": map[string]any{
				"after":  map[string]any{"type": "space", "space": c},
				"before": nil,
			}}), 200, "move a after c")
			if got := order(); !spcSame(got, []string{b, c, a}) {
				t.Errorf("after a after c: %v", got)
			}
			spcStatus(t, move(adm, a, map[string]any{"position": map[string]any{
				"after":  map[string]any{"type": "space", "space": b},
				"before": map[string]any{"type": "space", "space": c},
			}}), 200, "move a between b and c")
			if got := order(); !spcSame(got, []string{b, a, c}) {
				t.Errorf("after a between b and c: %v", got)
			}
			// Relative to a collection at the root.
			spcStatus(t, move(adm, b, map[string]any{"position": after("collection", col)}), 200, "move b after the collection")
			if got := order(); !spcSame(got, []string{a, c, b}) {
				t.Errorf("after b after collection: %v", got)
			}
		})

		t.Run("into a collection and back", func(t *testing.T) {
			r := move(adm, a, map[string]any{"parent": col})
			spcStatus(t, r, 200, "move a into col")
			var s spcSpace
			r.Decode(t, &s)
			if s.Parent == nil || *s.Parent != col {
				t.Errorf("parent after move = %v", s.Parent)
			}
			if got := colSpaces(); !spcSame(got, []string{a}) {
				t.Errorf("collection spaces = %v", got)
			}
			// Before another space inside the collection.
			spcStatus(t, move(adm, b, map[string]any{"parent": col, "position": before("space", a)}), 200, "move b into col before a")
			if got := colSpaces(); !spcSame(got, []string{b, a}) {
				t.Errorf("collection spaces = %v, want [b a]", got)
			}
			// Back to the root, after c.
			r = move(adm, a, map[string]any{"parent": nil, "position": after("space", c)})
			spcStatus(t, r, 200, "move a to root")
			if p, has := r.JSON()["parent"]; has && p != nil {
				t.Errorf("parent after moving to root = %v", p)
			}
			if g := spcGet(t, e, adm, a); g.Parent != nil {
				t.Errorf("GET parent after moving to root = %v", *g.Parent)
			}
			if got := colSpaces(); !spcSame(got, []string{b}) {
				t.Errorf("collection spaces = %v, want [b]", got)
			}
			spcStatus(t, move(adm, b, map[string]any{"parent": nil}), 200, "move b to root")
			if got := colSpaces(); len(got) != 0 {
				t.Errorf("collection spaces = %v, want none", got)
			}
		})

		t.Run("invalid", func(t *testing.T) {
			other := spcCreate(t, e, team.Outsider.Token, team.Other.ID, map[string]any{"title": "Foreign"}).ID
			inCol := spcCreate(t, e, adm, team.Org.ID, map[string]any{"title": "In col", "parent": col}).ID
			otherCol := spcCreateCollection(t, e, team.Outsider.Token, team.Other.ID, map[string]any{"title": "Foreign col"})
			for _, tc := range []struct {
				name   string
				body   any
				status int
				field  string
			}{
				{"empty object", map[string]any{}, 400, "parent"},
				{"no body", nil, 400, "body"},
				{"malformed JSON", `{"parent":`, 400, "JSON"},
				{"pointer to an unknown space", map[string]any{"position": after("space", "nope")}, 400, "position"},
				{"pointer to a foreign space", map[string]any{"position": after("space", other)}, 400, "position"},
				{"pointer not a sibling in the target", map[string]any{"position": before("space", inCol)}, 400, "position"},
				{"pointer type bogus", map[string]any{"position": map[string]any{"after": map[string]any{"type": "page", "space": b}}}, 400, "type"},
				{"pointer without id", map[string]any{"position": map[string]any{"after": map[string]any{"type": "space"}}}, 400, "position"},
				{"pointer to itself", map[string]any{"position": after("space", a)}, 400, "position"},
				{"unknown parent", map[string]any{"parent": "nope"}, 400, "parent"},
				{"foreign parent", map[string]any{"parent": otherCol}, 400, "parent"},
				{"parent of wrong type", map[string]any{"parent": 5}, 400, "parent"},
				{"nothing changes: same parent", map[string]any{"parent": nil}, 409, ""},
				{"nothing changes: same place", map[string]any{"position": after("space", c)}, 409, ""},
			} {
				t.Run(tc.name, func(t *testing.T) {
					want := order()
					spcWantError(t, move(adm, a, tc.body), tc.status, tc.field, tc.name)
					if got := order(); !spcSame(got, want) {
						t.Errorf("a refused move reordered %v -> %v", want, got)
					}
				})
			}
			spcWantError(t, move(adm, inCol, map[string]any{"parent": col}), 409, "", "same collection")
			spcWantError(t, move(adm, "nope", map[string]any{"parent": nil}), 404, "", "unknown space")
		})

		t.Run("deleted space", func(t *testing.T) {
			d := spcCreate(t, e, adm, team.Org.ID, map[string]any{"title": "D"}).ID
			spcStatus(t, e.Do(adm, "DELETE", spcPath(d), nil), 205, "delete d")
			spcWantError(t, move(adm, d, map[string]any{"parent": col}), 400, "", "move deleted")
			// A deleted space is no valid pointer either.
			spcWantError(t, move(adm, a, map[string]any{"position": after("space", d)}), 400, "position", "pointer to deleted")
		})

		t.Run("callers", func(t *testing.T) {
			body := map[string]any{"parent": col}
			spcWantError(t, move(team.Editor.Token, a, body), 403, "", "editor")
			spcWantError(t, move(team.Reader.Token, a, body), 403, "", "reader")
			spcWantError(t, move(team.Outsider.Token, a, body), 404, "", "outsider")
			spcWantError(t, move("", a, body), 401, "", "anonymous")
			if g := spcGet(t, e, adm, a); g.Parent != nil {
				t.Errorf("refused moves moved the space")
			}
		})
	})
}

func TestSpaceTransfer(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		adm := team.Admin.Token
		// The admin of Acme is also admin of a third organization, and a
		// reader of the outsider's one.
		third := e.Org("Third")
		e.Member(third, team.Admin.User, "admin")
		e.Member(team.Other, team.Admin.User, "read")
		transfer := func(token, id string, body any) *testenv.Response {
			t.Helper()
			return e.Do(token, "POST", spcPath(id, "transfer"), body)
		}

		t.Run("to an organization where the caller is admin", func(t *testing.T) {
			existing := spcCreate(t, e, adm, third.ID, map[string]any{"title": "Already there"}).ID
			col := spcCreateCollection(t, e, adm, team.Org.ID, map[string]any{"title": "Col"})
			s := spcCreate(t, e, adm, team.Org.ID, map[string]any{"title": "Moving", "parent": col})
			r := transfer(adm, s.ID, map[string]any{"organization": third.ID})
			spcStatus(t, r, 200, "transfer")
			var got spcSpace
			r.Decode(t, &got)
			if got.ID != s.ID || got.Organization != third.ID || got.Parent != nil {
				t.Errorf("transferred space: org %q parent %v", got.Organization, got.Parent)
			}
			if got.Visibility == "in-collection" {
				t.Errorf("visibility stays in-collection at the root of the new organization")
			}
			if got.Revision != s.Revision || got.Title != "Moving" {
				t.Errorf("transfer changed the content: %+v", got)
			}
			if g := spcGet(t, e, adm, s.ID); g.Organization != third.ID {
				t.Errorf("GET organization = %q", g.Organization)
			}
			if l := spcList(t, e, adm, third.ID, ""); !spcSame(spcIDs(l.Items), []string{existing, s.ID}) {
				t.Errorf("target list = %v, want [existing moved]", spcIDs(l.Items))
			}
			if l := spcList(t, e, adm, team.Org.ID, ""); spcContains(spcIDs(l.Items), s.ID) {
				t.Errorf("source list still holds the space")
			}
			// Members of the source organization lose sight of it.
			spcWantError(t, e.Do(team.Reader.Token, "GET", spcPath(s.ID), nil), 404, "", "source reader after transfer")
		})

		t.Run("refusals", func(t *testing.T) {
			s := spcCreate(t, e, adm, team.Org.ID, map[string]any{"title": "Stay"}).ID
			deleted := spcCreate(t, e, adm, team.Org.ID, map[string]any{"title": "Trash"}).ID
			spcStatus(t, e.Do(adm, "DELETE", spcPath(deleted), nil), 205, "delete")
			stranger := e.Org("Stranger")
			for _, tc := range []struct {
				name   string
				token  string
				id     string
				body   any
				status int
				field  string
			}{
				{"same organization", adm, s, map[string]any{"organization": team.Org.ID}, 409, ""},
				{"not a member of the target", adm, s, map[string]any{"organization": stranger.ID}, 404, ""},
				{"unknown target", adm, s, map[string]any{"organization": "nope"}, 404, ""},
				{"member, not admin, of the target", adm, s, map[string]any{"organization": team.Other.ID}, 403, ""},
				{"deleted space", adm, deleted, map[string]any{"organization": third.ID}, 412, ""},
				{"missing organization", adm, s, map[string]any{}, 400, "organization"},
				{"null organization", adm, s, map[string]any{"organization": nil}, 400, "organization"},
				{"empty organization", adm, s, map[string]any{"organization": ""}, 400, "organization"},
				{"organization of wrong type", adm, s, map[string]any{"organization": 7}, 400, "organization"},
				{"no body", adm, s, nil, 400, "body"},
				{"editor", team.Editor.Token, s, map[string]any{"organization": third.ID}, 403, ""},
				{"reader", team.Reader.Token, s, map[string]any{"organization": third.ID}, 403, ""},
				{"outsider", team.Outsider.Token, s, map[string]any{"organization": team.Other.ID}, 404, ""},
				{"anonymous", "", s, map[string]any{"organization": third.ID}, 401, ""},
				{"unknown space", adm, "nope", map[string]any{"organization": third.ID}, 404, ""},
			} {
				t.Run(tc.name, func(t *testing.T) {
					spcWantError(t, transfer(tc.token, tc.id, tc.body), tc.status, tc.field, tc.name)
				})
			}
			if g := spcGet(t, e, adm, s); g.Organization != team.Org.ID {
				t.Errorf("refused transfers moved the space to %q", g.Organization)
			}
			if g := spcGet(t, e, adm, deleted); g.Organization != team.Org.ID || g.DeletedAt == nil {
				t.Errorf("deleted space after refused transfer: %+v", g)
			}
		})
	})
}

// TestSpacePermissionMatrix runs every space route as each member of the
// usual cast and checks the status each one gets.
func TestSpacePermissionMatrix(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		// The admin is admin of the outsider's organization too, so that a
		// transfer can succeed.
		e.Member(team.Other, team.Admin.User, "admin")
		col := spcCreateCollection(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "Col"})

		type setup struct {
			space string // a fresh live space at the root
		}
		type route struct {
			name   string
			method string
			path   func(s setup) string
			body   any
			// deleted: the space is in the trash before the call.
			deleted bool
			want    map[string]int // actor name → status
		}
		orgPath := func(setup) string { return spcOrgPath(team.Org.ID) }
		sp := func(tail ...string) func(s setup) string {
			return func(s setup) string { return spcPath(s.space, tail...) }
		}
		routes := []route{
			{"create", "POST", orgPath, map[string]any{"title": "New"}, false,
				map[string]int{"admin": 201, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}},
			{"list", "GET", orgPath, nil, false,
				map[string]int{"admin": 200, "editor": 200, "reader": 200, "outsider": 404, "anon": 401}},
			{"get", "GET", sp(), nil, false,
				map[string]int{"admin": 200, "editor": 200, "reader": 200, "outsider": 404, "anon": 401}},
			{"get deleted", "GET", sp(), nil, true,
				map[string]int{"admin": 200, "editor": 200, "reader": 200, "outsider": 404, "anon": 401}},
			{"patch title", "PATCH", sp(), map[string]any{"title": "T"}, false,
				map[string]int{"admin": 200, "editor": 200, "reader": 403, "outsider": 404, "anon": 401}},
			{"patch emoji", "PATCH", sp(), map[string]any{"emoji": "🙂"}, false,
				map[string]int{"admin": 200, "editor": 200, "reader": 403, "outsider": 404, "anon": 401}},
			{"patch editMode", "PATCH", sp(), map[string]any{"editMode": "locked"}, false,
				map[string]int{"admin": 200, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}},
			{"patch defaultLevel", "PATCH", sp(), map[string]any{"defaultLevel": "read"}, false,
				map[string]int{"admin": 200, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}},
			{"patch mergeRules", "PATCH", sp(), map[string]any{"mergeRules": map[string]any{"type": "none"}}, false,
				map[string]int{"admin": 200, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}},
			{"delete", "DELETE", sp(), nil, false,
				map[string]int{"admin": 205, "editor": 403, "reader": 403, "outsider": 204, "anon": 401}},
			{"restore", "POST", sp("restore"), nil, true,
				map[string]int{"admin": 200, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}},
			{"duplicate", "POST", sp("duplicate"), nil, false,
				map[string]int{"admin": 201, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}},
			{"move", "POST", sp("move"), map[string]any{"parent": col}, false,
				map[string]int{"admin": 200, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}},
			{"transfer", "POST", sp("transfer"), map[string]any{"organization": team.Other.ID}, false,
				map[string]int{"admin": 200, "editor": 403, "reader": 403, "outsider": 404, "anon": 401}},
		}
		actors := []struct {
			name  string
			actor testenv.Actor
		}{
			{"admin", team.Admin}, {"editor", team.Editor}, {"reader", team.Reader},
			{"outsider", team.Outsider}, {"anon", team.Anon},
		}
		// Every space route of the table is covered.
		covered := map[string]bool{}
		for _, r := range routes {
			covered[r.method+" "+r.path(setup{space: "{spaceId}"})] = true
		}
		for _, rt := range e.Server.API().Routes() {
			p := strings.NewReplacer("{organizationId}", team.Org.ID).Replace("/v1" + rt.Pattern)
			isSpaceRoute := rt.Pattern == "/spaces/{spaceId}" || strings.HasPrefix(rt.Pattern, "/spaces/{spaceId}/") ||
				rt.Pattern == "/orgs/{organizationId}/spaces"
			isSpaceRoute = isSpaceRoute && !contentRoute(rt.Pattern)
			if isSpaceRoute && !covered[rt.Method+" "+p] {
				t.Errorf("route %s %s is not in the matrix", rt.Method, rt.Pattern)
			}
		}

		for _, rt := range routes {
			for _, a := range actors {
				t.Run(rt.name+"/"+a.name, func(t *testing.T) {
					s := setup{space: spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "Subject"}).ID}
					if rt.deleted {
						spcStatus(t, e.Do(team.Admin.Token, "DELETE", spcPath(s.space), nil), 205, "delete subject")
					}
					want := rt.want[a.name]
					r := e.Do(a.actor.Token, rt.method, rt.path(s), rt.body)
					if r.Status != want {
						t.Fatalf("%s %s as %s: status %d, want %d; body %s", rt.method, rt.path(s), a.name, r.Status, want, r.Body)
					}
					switch {
					case want >= 400:
						spcWantError(t, r, want, "", "error shape")
					case want == 204 || want == 205:
						if len(r.Body) != 0 {
							t.Errorf("%d with a body: %s", want, r.Body)
						}
					default:
						if len(r.JSON()) == 0 {
							t.Errorf("%d without a JSON body: %s", want, r.Body)
						}
					}
				})
			}
		}
	})
}

// TestSpaceConcurrentCreate creates spaces in one organization from many
// goroutines at once: all succeed, and the list holds each once, at a
// position of its own, in an order that does not change between reads.
func TestSpaceConcurrentCreate(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		const n = 20
		var wg sync.WaitGroup
		results := make([]*testenv.Response, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				results[i] = e.Do(team.Admin.Token, "POST", spcOrgPath(team.Org.ID), map[string]any{"title": fmt.Sprintf("Concurrent %02d", i)})
			}(i)
		}
		wg.Wait()
		made := map[string]bool{}
		for i, r := range results {
			if r.Status != 201 {
				t.Errorf("create %d: status %d body %s", i, r.Status, r.Body)
				continue
			}
			id, _ := r.JSON()["id"].(string)
			if id == "" || made[id] {
				t.Errorf("create %d: id %q empty or repeated", i, id)
			}
			made[id] = true
		}
		if t.Failed() {
			t.FailNow()
		}
		first := spcList(t, e, team.Admin.Token, team.Org.ID, "")
		second := spcList(t, e, team.Admin.Token, team.Org.ID, "")
		if first.Count != n || len(first.Items) != n {
			t.Fatalf("list has %d items (count %d), want %d", len(first.Items), first.Count, n)
		}
		for _, s := range first.Items {
			if !made[s.ID] {
				t.Errorf("list holds unexpected space %s", s.ID)
			}
		}
		if !spcSame(spcIDs(first.Items), spcIDs(second.Items)) {
			t.Errorf("list order changed between reads:\n%v\n%v", spcIDs(first.Items), spcIDs(second.Items))
		}
		// Paging through gives the same order.
		var paged []string
		page := ""
		for {
			q := "limit=7"
			if page != "" {
				q += "&page=" + url.QueryEscape(page)
			}
			l := spcList(t, e, team.Admin.Token, team.Org.ID, q)
			paged = append(paged, spcIDs(l.Items)...)
			if l.Next == nil {
				break
			}
			page = l.Next.Page
		}
		if !spcSame(paged, spcIDs(first.Items)) {
			t.Errorf("paged order %v differs from %v", paged, spcIDs(first.Items))
		}
		// Each space has a position of its own.
		rows, err := e.Client().Space.Query().Where(space.OrganizationID(team.Org.ID)).All(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]string{}
		for _, r := range rows {
			if other, dup := seen[r.Position]; dup {
				t.Errorf("spaces %s and %s share position %q", other, r.ID, r.Position)
			}
			seen[r.Position] = r.ID
		}
		// A space created afterwards goes at the end.
		last := spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "Last"})
		if l := spcList(t, e, team.Admin.Token, team.Org.ID, ""); l.Items[len(l.Items)-1].ID != last.ID {
			t.Errorf("space created after the burst is not last: %v", spcIDs(l.Items))
		}
	})
}

// TestSpaceMoveNoop checks that a move which would leave a space where it is
// answers 409 and changes nothing, also after reorders have given spaces
// fractional positions.
func TestSpaceMoveNoop(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		adm := team.Admin.Token
		for i := 0; i < 5; i++ {
			spcCreate(t, e, adm, team.Org.ID, map[string]any{"title": fmt.Sprintf("S%d", i)})
		}
		order := func() []string {
			t.Helper()
			return spcIDs(spcList(t, e, adm, team.Org.ID, "").Items)
		}
		ptr := func(id string) map[string]any { return map[string]any{"type": "space", "space": id} }
		move := func(id string, pos map[string]any) *testenv.Response {
			t.Helper()
			return e.Do(adm, "POST", spcPath(id, "move"), map[string]any{"position": pos})
		}
		checkNoops := func(step string) {
			t.Helper()
			o := order()
			for i, id := range o {
				var tries []map[string]any
				if i > 0 {
					tries = append(tries, map[string]any{"after": ptr(o[i-1])})
				}
				if i+1 < len(o) {
					tries = append(tries, map[string]any{"before": ptr(o[i+1])})
				}
				if i > 0 && i+1 < len(o) {
					tries = append(tries, map[string]any{"after": ptr(o[i-1]), "before": ptr(o[i+1])})
				}
				for _, pos := range tries {
					spcWantError(t, move(id, pos), 409, "", fmt.Sprintf("%s: no-op move of #%d %v", step, i, pos))
				}
				if got := order(); !spcSame(got, o) {
					t.Fatalf("%s: no-op moves changed the order %v -> %v", step, o, got)
				}
			}
		}
		checkNoops("fresh")
		for step, mv := range []struct {
			from, to int
			where    string
		}{{4, 1, "before"}, {0, 3, "after"}, {2, 0, "before"}, {1, 4, "before"}, {3, 0, "before"}, {4, 2, "after"}, {0, 4, "after"}} {
			o := order()
			r := move(o[mv.from], map[string]any{mv.where: ptr(o[mv.to])})
			spcStatus(t, r, 200, fmt.Sprintf("move %d: #%d %s #%d", step, mv.from, mv.where, mv.to))
			checkNoops(fmt.Sprintf("after move %d", step))
		}
	})
}
