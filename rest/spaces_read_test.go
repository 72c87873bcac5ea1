package rest_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"quire/internal/testing/testenv"
)

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
				{"language in GraphQL spelling", map[string]any{"language": "pt_br"}, "language"},
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
