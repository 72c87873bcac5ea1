package rest_test

import (
	"context"
	"strings"
	"testing"

	"quire/internal/apierr"
	"quire/internal/orgs"
	"quire/internal/testing/testenv"
)

// TestOrganizationProfileAndBlock: useCase, communityType, blocked and
// billing.maxUsers as an operator sets them (through the functions quire
// admin org calls), and what a block refuses.
func TestOrganizationProfileAndBlock(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		team := e.NewTeam()
		ctx := context.Background()
		sp := spcCreate(t, e, team.Admin.Token, team.Org.ID, map[string]any{"title": "Docs"}).ID
		orgPath := "/v1/orgs/" + team.Org.ID

		o := sitWant(t, e.Do(team.Reader.Token, "GET", orgPath, nil), 200, "get organization")
		for _, k := range []string{"useCase", "communityType", "blocked"} {
			if _, ok := o[k]; ok {
				t.Errorf("%s present before an operator set it: %v", k, o[k])
			}
		}
		if _, ok := testenv.Path(o, "billing").(map[string]any)["maxUsers"]; ok {
			t.Errorf("billing.maxUsers present: %v", o["billing"])
		}

		// Bad values are refused, naming the field.
		for _, c := range []struct {
			p     orgs.Profile
			field string
		}{
			{orgs.Profile{UseCase: pubPtr("docs")}, "useCase"},
			{orgs.Profile{CommunityType: pubPtr("club")}, "communityType"},
		} {
			_, err := orgs.SetProfile(ctx, e.Client(), team.Org.ID, c.p)
			if ae, ok := apierr.As(err); !ok || ae.Code != apierr.BadRequest || ae.Field != c.field {
				t.Errorf("set %s to a bad value: %v", c.field, err)
			}
		}
		for _, reason := range []string{"", "   ", strings.Repeat("x", 256)} {
			if _, err := orgs.Block(ctx, e.Client(), team.Org.ID, reason); apierr.CodeOf(err) != apierr.BadRequest {
				t.Errorf("block with reason of %d characters: %v", len(reason), err)
			}
		}
		if _, err := orgs.Block(ctx, e.Client(), "O-nope", "x"); apierr.CodeOf(err) != apierr.NotFound {
			t.Errorf("block an unknown organization: %v", err)
		}

		if _, err := orgs.SetProfile(ctx, e.Client(), team.Org.ID, orgs.Profile{UseCase: pubPtr("productDocs"), CommunityType: pubPtr("education")}); err != nil {
			t.Fatal(err)
		}
		if _, err := orgs.Block(ctx, e.Client(), team.Org.ID, "Terms of service"); err != nil {
			t.Fatal(err)
		}
		o = sitWant(t, e.Do(team.Reader.Token, "GET", orgPath, nil), 200, "get blocked organization")
		if o["useCase"] != "productDocs" || o["communityType"] != "education" ||
			sitStr(o, "blocked", "source") != "backoffice" || sitStr(o, "blocked", "reason") != "Terms of service" {
			t.Errorf("blocked organization = %v", o)
		}
		if l := sitWant(t, e.Do(team.Reader.Token, "GET", "/v1/orgs", nil), 200, "list organizations"); sitStr(l, "items", 0, "blocked", "reason") != "Terms of service" {
			t.Errorf("listed organization: %v", l["items"])
		}

		// Everything in it is refused to its members, admins included.
		for _, c := range []struct{ tok, method, path string }{
			{team.Admin.Token, "GET", orgPath + "/spaces"},
			{team.Admin.Token, "GET", orgPath + "/collections"},
			{team.Admin.Token, "GET", orgPath + "/members"},
			{team.Admin.Token, "GET", orgPath + "/sites"},
			{team.Admin.Token, "PATCH", orgPath},
			{team.Admin.Token, "POST", orgPath + "/spaces"},
			{team.Reader.Token, "GET", "/v1/spaces/" + sp},
			{team.Reader.Token, "GET", "/v1/spaces/" + sp + "/content"},
			{team.Editor.Token, "POST", "/v1/spaces/" + sp + "/change-requests"},
		} {
			var body any
			if c.method == "PATCH" {
				body = map[string]any{"title": "Renamed"}
			}
			r := e.Do(c.tok, c.method, c.path, body)
			sitErr(t, r, 403, "", c.method+" "+c.path)
			if !strings.Contains(sitStr(r.JSON(), "error", "message"), "Terms of service") {
				t.Errorf("%s %s: message without the reason: %s", c.method, c.path, r.Body)
			}
		}
		// Outsiders get what they got before; other organizations work.
		sitErr(t, e.Do(team.Outsider.Token, "GET", "/v1/spaces/"+sp, nil), 404, "", "outsider reads a space")
		sitErr(t, e.Do(team.Outsider.Token, "GET", orgPath, nil), 404, "", "outsider reads the organization")
		sitWant(t, e.Do(team.Outsider.Token, "GET", "/v1/orgs/"+team.Other.ID+"/spaces", nil), 200, "another organization")

		// Unblocked, it works again; clearing the profile takes it away.
		if _, err := orgs.Unblock(ctx, e.Client(), team.Org.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := orgs.SetProfile(ctx, e.Client(), team.Org.ID, orgs.Profile{UseCase: pubPtr("")}); err != nil {
			t.Fatal(err)
		}
		sitWant(t, e.Do(team.Reader.Token, "GET", "/v1/spaces/"+sp, nil), 200, "space after unblock")
		o = sitWant(t, e.Do(team.Reader.Token, "GET", orgPath, nil), 200, "unblocked organization")
		if _, ok := o["blocked"]; ok || o["useCase"] != nil || o["communityType"] != "education" {
			t.Errorf("unblocked organization = %v", o)
		}
	})
}

// TestChangeRequestLinkStats: stats.broken.changeRequest counts the links
// a change request broke, not those its space had broken already.
func TestChangeRequestLinkStats(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, e *testenv.Env) {
		f := newContentFixture(t, e)
		reader := f.team.Reader.Token
		crLinks := "/v1/spaces/" + f.space + "/change-requests/" + f.cr + "/links"
		createPage(t, e, f.team.Editor.Token, f.cr, map[string]any{"title": "Broken", "document": doc(
			paragraph(link(map[string]any{"kind": "page", "page": "another-missing"}, "gone"), text(" "),
				link(map[string]any{"kind": "page", "page": f.guide}, "guide")))})

		r := sitWant(t, e.Do(reader, "GET", crLinks, nil), 200, "change request links")
		if testenv.Path(r, "stats", "broken", "total") != 2.0 || testenv.Path(r, "stats", "broken", "changeRequest") != 1.0 {
			t.Errorf("change request stats = %v", r["stats"])
		}
		if b := sitWant(t, e.Do(reader, "GET", crLinks+"?status=broken", nil), 200, "broken only"); b["count"] != 2.0 {
			t.Errorf("broken links of the change request: %v", b)
		}
		// The space's own report has no changeRequest count.
		s := sitWant(t, e.Do(reader, "GET", "/v1/spaces/"+f.space+"/links", nil), 200, "space links")
		if _, ok := testenv.Path(s, "stats", "broken").(map[string]any)["changeRequest"]; ok || testenv.Path(s, "stats", "broken", "total") != 1.0 {
			t.Errorf("space stats = %v", s["stats"])
		}
		// A page's report in the change request counts its own.
		p := sitWant(t, e.Do(reader, "GET", f.crBase+"/page/"+f.intro+"/links", nil), 200, "page links")
		if testenv.Path(p, "stats", "broken", "total") != 1.0 || testenv.Path(p, "stats", "broken", "changeRequest") != 0.0 {
			t.Errorf("page stats in the change request = %v", p["stats"])
		}
		// A change request with no edits broke nothing.
		fresh := newCR(t, e, f.team.Editor.Token, f.space, map[string]any{"subject": "Nothing yet"})["id"].(string)
		n := sitWant(t, e.Do(reader, "GET", "/v1/spaces/"+f.space+"/change-requests/"+fresh+"/links", nil), 200, "fresh change request")
		if testenv.Path(n, "stats", "broken", "changeRequest") != 0.0 {
			t.Errorf("fresh change request stats = %v", n["stats"])
		}
		// GraphQL counts the same.
		g := e.GraphQL(reader, `query($id: ID!) { changeRequest(id: $id) { content { links { stats { broken brokenChangeRequest } } } } }`, map[string]any{"id": f.cr})
		if len(g.Errors) > 0 || testenv.Path(g.Data, "changeRequest", "content", "links", "stats", "brokenChangeRequest") != 1.0 {
			t.Errorf("GraphQL stats: %s", g.Raw)
		}

		// Bad input and other callers.
		sitErr(t, e.Do(reader, "GET", crLinks+"?status=nope", nil), 400, "", "bad status")
		sitErr(t, e.Do(reader, "GET", "/v1/spaces/"+f.space+"/change-requests/nope/links", nil), 404, "", "unknown change request")
		sitErr(t, e.Do(f.team.Outsider.Token, "GET", crLinks, nil), 404, "", "outsider")
	})
}

func pubPtr(s string) *string { return &s }
