package content_test

import (
	"context"
	"fmt"
	"testing"

	"quire/ent"
	"quire/internal/content"
	"quire/internal/jobs"
	"quire/internal/types"
)

// elsewhere is what the callers of the test may not see: a space with a
// page, a collection and a user of another organization, and a space of
// their own organization without default access.
type elsewhere struct {
	space, page, collection string
	user                    *ent.User
	hidden                  string
	// reader is a member of the test's organization with the read role.
	reader *ent.User
}

// unknown ids of each kind.
const (
	noSpace      = "S0000000000000000000"
	noPage       = "P0000000000000000000"
	noCollection = "C0000000000000000000"
	noUser       = "U0000000000000000000"
)

func (e *env) elsewhere() elsewhere {
	e.t.Helper()
	ctx := context.Background()
	c := e.db.Client
	var x elsewhere
	org, err := c.Organization.Create().SetTitle("Bolt").Save(ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	if x.user, err = c.User.Create().SetEmail("carol@bolt.test").SetDisplayName("Carol").Save(ctx); err != nil {
		e.t.Fatal(err)
	}
	if err := c.Member.Create().SetOrganizationID(org.ID).SetUserID(x.user.ID).SetRole(types.RoleAdmin).Exec(ctx); err != nil {
		e.t.Fatal(err)
	}
	if x.reader, err = c.User.Create().SetEmail("dave@acme.test").SetDisplayName("Dave").Save(ctx); err != nil {
		e.t.Fatal(err)
	}
	if err := c.Member.Create().SetOrganizationID(e.org.ID).SetUserID(x.reader.ID).SetRole(types.RoleRead).Exec(ctx); err != nil {
		e.t.Fatal(err)
	}
	col, err := c.Collection.Create().SetOrganizationID(org.ID).SetTitle("Theirs").SetPosition("a").Save(ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	x.collection = col.ID
	sp := e.newSpace("Theirs")
	if err := c.Space.UpdateOneID(sp.ID).SetOrganizationID(org.ID).Exec(ctx); err != nil {
		e.t.Fatal(err)
	}
	x.space = sp.ID
	res, err := e.svc.EditSpace(jobs.NewContext(ctx, c, nil), sp.ID, &content.CreatePage{Title: "Their page", Markdown: md("Text.\n")})
	if err != nil {
		e.t.Fatal(err)
	}
	x.page = res.IDs[0]
	hidden := e.newSpace("Hidden")
	if err := c.Space.UpdateOneID(hidden.ID).ClearDefaultLevel().Exec(ctx); err != nil {
		e.t.Fatal(err)
	}
	x.hidden = hidden.ID
	return x
}

// A link report tells broken what the caller may not see exactly as what
// does not exist: a space, a page of a space, a collection or a user of
// another organization, and a space of its own organization it has no
// access to.
func TestLinksToWhatTheCallerMayNotSee(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		x := e.elsewhere()
		source := fmt.Sprintf(`[their space](space://%s) [no space](space://%s)
[their page](page://%s?space=%s) [no page](page://%s?space=%s)
[their collection](collection://%s) [no collection](collection://%s)
[carol](user://%s) [nobody](user://%s)
[hidden space](space://%s)
`, x.space, noSpace, x.page, x.space, noPage, noSpace, x.collection, noCollection, x.user.ID, noUser, x.hidden)
		cr := e.cr("Links")
		page := e.edit(cr, e.alice.ID, &content.CreatePage{Title: "Source", Markdown: md(source)}).IDs[0]
		e.merge(cr)
		rev := e.reload(e.space.ID).RevisionID

		statuses := func(ctx context.Context) map[string]string {
			links, err := e.svc.Links(ctx, rev, &page)
			if err != nil {
				t.Fatal(err)
			}
			out := map[string]string{}
			for _, l := range links {
				out[l.Text] = l.Status
			}
			return out
		}
		// Quire itself sees every target but the missing ones.
		all := statuses(jobs.NewContext(context.Background(), e.db.Client, nil))
		for _, text := range []string{"their space", "their page", "their collection", "carol", "hidden space"} {
			if all[text] != content.LinkOK {
				t.Errorf("as the system: %s is %s, want ok", text, all[text])
			}
		}
		for _, who := range []*ent.User{e.alice, x.reader} {
			got := statuses(e.as(who.ID))
			for theirs, missing := range map[string]string{"their space": "no space", "their page": "no page",
				"their collection": "no collection", "carol": "nobody"} {
				if got[theirs] != content.LinkBroken || got[missing] != content.LinkBroken {
					t.Errorf("as %s: %s is %s and %s is %s, want both broken", who.DisplayName, theirs, got[theirs], missing, got[missing])
				}
			}
			// The admin sees the hidden space of the organization; the
			// reader may not.
			want := content.LinkOK
			if who == x.reader {
				want = content.LinkBroken
			}
			if got["hidden space"] != want {
				t.Errorf("as %s: the hidden space is %s, want %s", who.DisplayName, got["hidden space"], want)
			}
		}
	})
}
