package content_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/content"
	"quire/internal/document"
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
	// reader and editor are members of the test's organization with the
	// read and edit roles.
	reader, editor *ent.User
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
	if x.editor, err = c.User.Create().SetEmail("erin@acme.test").SetDisplayName("Erin").Save(ctx); err != nil {
		e.t.Fatal(err)
	}
	if err := c.Member.Create().SetOrganizationID(e.org.ID).SetUserID(x.editor.ID).SetRole(types.RoleEdit).Exec(ctx); err != nil {
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
	// The test's space is open to every member; the hidden one to none.
	if err := c.Space.UpdateOneID(e.space.ID).SetDefaultLevel(types.Inherit).Exec(ctx); err != nil {
		e.t.Fatal(err)
	}
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

// Template params that name a user, a space or a page the caller may not
// see are refused exactly as those naming nothing, whether the template is
// applied to a space, to a change request, or with a new change request.
func TestTemplateParamsTheCallerMayNotSee(t *testing.T) {
	forEachDB(t, func(t *testing.T, e *env) {
		x := e.elsewhere()
		first := e.cr("Ours")
		own := e.edit(first, e.alice.ID, &content.CreatePage{Title: "Ours", Markdown: md("Text.\n")}).IDs[0]
		e.merge(first)
		seed := e.cr("Draft")
		crOnly := e.edit(seed, e.alice.ID, &content.CreatePage{Title: "Draft", Markdown: md("Text.\n")}).IDs[0]

		type use struct {
			template, param string
			ref             document.ContentRef
		}
		user := func(id string) document.ContentRef { return document.ContentRef{Kind: document.RefUser, User: id} }
		space := func(id string) document.ContentRef { return document.ContentRef{Kind: document.RefSpace, Space: id} }
		page := func(id, sp string) document.ContentRef {
			return document.ContentRef{Kind: document.RefPage, Page: id, Space: sp}
		}
		// Each pair: what the caller may not see, then what does not exist.
		pairs := []struct {
			who           *ent.User
			theirs, none  use
			theirID, noID string
		}{
			{e.alice, use{"meeting-notes", "owner", user(x.user.ID)}, use{"meeting-notes", "owner", user(noUser)}, x.user.ID, noUser},
			{e.alice, use{"getting-started", "support", user(x.user.ID)}, use{"getting-started", "support", user(noUser)}, x.user.ID, noUser},
			{e.alice, use{"knowledge-base", "related", space(x.space)}, use{"knowledge-base", "related", space(noSpace)}, x.space, noSpace},
			{e.alice, use{"product-docs", "api", space(x.space)}, use{"product-docs", "api", space(noSpace)}, x.space, noSpace},
			{e.alice, use{"product-docs", "api", page(x.page, x.space)}, use{"product-docs", "api", page(noPage, noSpace)}, x.space, noSpace},
			{e.alice, use{"product-docs", "api", page(x.page, "")}, use{"product-docs", "api", page(noPage, "")}, x.page, noPage},
			{x.editor, use{"knowledge-base", "related", space(x.hidden)}, use{"knowledge-base", "related", space(noSpace)}, x.hidden, noSpace},
		}
		apply := func(who *ent.User, u use, cr string) error {
			return e.svc.ApplyTemplate(e.as(who.ID), e.space.ID, cr, u.template, map[string]document.ContentRef{u.param: u.ref})
		}
		create := func(who *ent.User, u use) error {
			_, err := e.svc.CreateChangeRequest(e.as(who.ID), e.space.ID, content.CreateChangeRequest{Subject: "T",
				Template: &content.TemplateUse{ID: u.template, Refs: map[string]document.ContentRef{u.param: u.ref}}})
			return err
		}
		refusal := func(err error, id string) string {
			ae, ok := apierr.As(err)
			if !ok {
				return fmt.Sprint(err)
			}
			return fmt.Sprintf("%s %s %s", ae.Code, ae.Field, strings.ReplaceAll(ae.Message, id, "<id>"))
		}
		for _, p := range pairs {
			for name, do := range map[string]func(u use) error{
				"space":              func(u use) error { return apply(p.who, u, "") },
				"change request":     func(u use) error { return apply(p.who, u, seed.ID) },
				"new change request": func(u use) error { return create(p.who, u) },
			} {
				theirs, none := do(p.theirs), do(p.none)
				if none == nil || refusal(theirs, p.theirID) != refusal(none, p.noID) || apierr.CodeOf(theirs) != apierr.BadRequest {
					t.Errorf("%s %s as %s, applied to a %s: %v; naming nothing: %v", p.theirs.template, p.theirs.param,
						p.who.DisplayName, name, theirs, none)
				}
			}
		}

		// What the caller sees is taken: a user and a space of its
		// organization, a page of the space's content, and a page of the
		// change request's content when applied there.
		for _, u := range []use{{"meeting-notes", "owner", user(x.editor.ID)}, {"knowledge-base", "related", space(x.hidden)},
			{"product-docs", "api", page(own, "")}, {"product-docs", "api", page(own, e.space.ID)}} {
			if err := apply(e.alice, u, ""); err != nil {
				t.Errorf("%s %s: %v", u.template, u.param, err)
			}
		}
		if err := apply(e.alice, use{"product-docs", "api", page(crOnly, "")}, seed.ID); err != nil {
			t.Errorf("a page of the change request: %v", err)
		}
		if err := apply(e.alice, use{"product-docs", "api", page(crOnly, "")}, ""); apierr.CodeOf(err) != apierr.BadRequest {
			t.Errorf("a page of a change request, applied to the space: %v, want a 400", err)
		}
	})
}
