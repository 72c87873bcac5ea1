package rest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"quire/internal/testing/testenv"
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
				{"language in GraphQL spelling", map[string]any{"language": "pt_br"}, "language"},
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
