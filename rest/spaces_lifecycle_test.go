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
	"quire/internal/testing/testenv"
)

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
