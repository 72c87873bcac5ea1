package matrix_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"quire/ent"
	"quire/ent/conversationissue"
	"quire/ent/sitesharelink"
	"quire/internal/content"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
	"quire/internal/types"
)

// world is the fixture of the matrix, built once per database: two
// organizations of the same shape, A (which every request targets) and B
// (whose members are the callers of another organization), and a sandbox
// organization A's admin also administers, where transfers go.
type world struct {
	t       *testing.T
	e       *testenv.Env
	a, b    *orgFx
	sandbox string
	callers []*caller
	// n numbers the objects made for callers allowed to change things.
	n int
	// asked counts the requests of the matrix (the fixture's left out).
	asked int
}

// orgFx is one organization of the fixture.
type orgFx struct {
	name  string
	org   *ent.Organization
	admin testenv.Actor
	// ids names one object of each kind by its route parameter
	// (organizationId, spaceId, siteSectionGroupId...), and a few more by
	// what they are for (space2, spare, trashed, anchor, sectionD).
	ids map[string]string
	// own holds the id of every object of the organization and of its
	// members: what no caller outside it may read.
	own map[string]bool
	// people holds the organization's id and its members': all that a
	// guest may read of it.
	people map[string]bool
	// secrets are the keys of its share links: only who may change its
	// sites may read them.
	secrets map[string]bool
	// user is a member by name (admin, editor, ...).
	user map[string]testenv.Actor
}

// newWorld builds the fixture.
func newWorld(t *testing.T, e *testenv.Env) *world {
	t.Helper()
	w := &world{t: t, e: e}
	// The kind of the job the subscription rows watch (pendingJob), known
	// to the runner before the fixture's writes first use it.
	e.Server.Jobs().Handle(matrixJobKind, func(context.Context, jobs.Run) error { return nil })
	w.a = w.newOrg("Acme", "acme.test", map[string]string{"editor": "edit", "reader": "read", "guest": "", "reviewer": "review"})
	w.b = w.newOrg("Bolt", "bolt.test", map[string]string{"member": "edit", "reviewer": "review"})
	w.orgAdmin(w.a, "acme.test", true)
	w.orgAdmin(w.b, "bolt.test", false)
	w.a.ids["emailDomain"] = "acme.test"
	w.club()
	w.processSpecs(w.a, w.b)
	// A slug names a specification only within its organization: B's
	// specification has A's slug, which is no id to swap for A's.
	delete(w.b.ids, "specSlug")
	sandbox := e.Org("Sandbox")
	e.Member(sandbox, w.a.admin.User, "admin")
	w.sandbox = sandbox.ID
	w.a.ids["sandbox"] = sandbox.ID
	w.callers = w.newCallers()
	return w
}

// newOrg creates an organization with an admin and the given members
// (name → role; "" is a guest), and its content: a collection holding a
// space with pages, a file and an open change request, a second space, a
// spare one, one in the trash, and a share-link site with sections, a
// group, a share link, an adaptive schema and a site space customization.
func (w *world) newOrg(name, domain string, members map[string]string) *orgFx {
	t, e := w.t, w.e
	t.Helper()
	o := &orgFx{name: name, org: e.Org(name), ids: map[string]string{}, own: map[string]bool{},
		people: map[string]bool{}, secrets: map[string]bool{}, user: map[string]testenv.Actor{}}
	o.ids["organizationId"] = o.org.ID
	o.own[o.org.ID], o.people[o.org.ID] = true, true
	o.admin = w.member(o, "admin", domain, "admin")
	o.ids["adminId"] = o.admin.User.ID
	for _, n := range slices.Sorted(maps.Keys(members)) {
		w.member(o, n, domain, members[n])
	}

	tok := o.admin.Token
	c := w.create(tok, "/v1/orgs/"+o.org.ID+"/collections", map[string]any{"title": "Guides"})
	o.ids["collectionId"], o.ids["anchor"] = c, c
	s := w.create(tok, "/v1/orgs/"+o.org.ID+"/spaces", map[string]any{"title": "Docs", "parent": c})
	o.ids["spaceId"] = s
	o.ids["space2"] = w.create(tok, "/v1/orgs/"+o.org.ID+"/spaces", map[string]any{"title": "Reference"})
	o.ids["spare"] = w.create(tok, "/v1/orgs/"+o.org.ID+"/spaces", map[string]any{"title": "Spare"})
	o.ids["trashed"] = w.create(tok, "/v1/orgs/"+o.org.ID+"/spaces", map[string]any{"title": "Old"})
	w.do(tok, "DELETE", "/v1/spaces/"+o.ids["trashed"], nil, 205)
	for _, k := range []string{"collectionId", "spaceId", "space2", "spare", "trashed"} {
		o.own[o.ids[k]] = true
	}

	w.content(o)
	w.gitSynced(s)
	w.discussions(o, o.ids)
	w.site(o, o.ids)
	w.conversations(o)
	o.ids["translationId"] = w.translation(o, o.ids)
	o.own[o.ids["translationId"]] = true
	w.spec(o, o.ids)
	return o
}

// gitSynced sets up a Git provider on a space, as a completed import
// would.
func (w *world) gitSynced(spaceID string) {
	w.t.Helper()
	err := w.e.Client().Space.UpdateOneID(spaceID).SetGitSync(&types.GitSync{Installed: true, RepoName: "acme/docs",
		InstallationProvider: "github", Integration: "github", URL: "https://github.com/acme/docs"}).Exec(context.Background())
	if err != nil {
		w.t.Fatalf("set up Git sync: %v", err)
	}
}

// conversations ingests a support conversation and analyses it, giving
// the organization a conversation, an issue and a cluster.
func (w *world) conversations(o *orgFx) {
	t := w.t
	t.Helper()
	w.do(o.admin.Token, "POST", "/v1/orgs/"+o.org.ID+"/conversations", map[string]any{"id": "fixture-1", "subject": "Export broken",
		"parts": []any{map[string]any{"type": "message", "role": "user", "body": "Exporting to PDF fails with a blank page."}}}, 204)
	ctx := jobs.NewContext(context.Background(), w.e.Client(), nil)
	if _, _, err := w.e.Server.Resolver().Conversations.AnalyseBatch(ctx, o.org.ID, 10); err != nil {
		t.Fatalf("analyse: %v", err)
	}
	is, err := w.e.Client().ConversationIssue.Query().Where(conversationissue.OrganizationID(o.org.ID)).Only(ctx)
	if err != nil || is.ClusterID == nil {
		t.Fatalf("the fixture's issue: %v %v", is, err)
	}
	o.ids["conversationId"], o.ids["issueId"], o.ids["clusterId"] = is.ConversationID, is.ID, *is.ClusterID
	for _, k := range []string{"conversationId", "issueId", "clusterId"} {
		o.own[o.ids[k]] = true
	}
}

// translation creates a translation of ids' spaceId into French.
func (w *world) translation(o *orgFx, ids map[string]string) string {
	return w.create(o.admin.Token, "/v1/orgs/"+o.org.ID+"/translations", map[string]any{
		"source": map[string]any{"space": ids["spaceId"], "language": "en"}, "language": "fr"})
}

// spec creates an OpenAPI specification given as text, of the same slug
// in every organization (a slug names a specification only within its
// organization); processSpecs gives it its version.
func (w *world) spec(o *orgFx, ids map[string]string) {
	slug := "reference"
	if w.n > 0 {
		slug = fmt.Sprintf("fresh-%d", w.n)
	}
	sp := w.do(o.admin.Token, "POST", "/v1/orgs/"+o.org.ID+"/openapi", map[string]any{"slug": slug, "source": map[string]any{"text": fixtureSpec}}, 201)
	ids["specSlug"], ids["specId"] = slug, sp["id"].(string)
	o.own[ids["specId"]] = true
}

// processSpecs runs the processing jobs of the organizations'
// specifications, then stops the job runner: the matrix compares reads
// made before and after its requests, which no job may change meanwhile.
func (w *world) processSpecs(orgs ...*orgFx) {
	w.t.Helper()
	runner := w.e.StartJobs()
	for _, o := range orgs {
		in, err := runner.Latest(context.Background(), "openapi-spec:"+o.ids["specId"])
		if err != nil {
			w.t.Fatalf("processing job of %s: %v", o.name, err)
		}
		if done := w.e.WaitJob(in.ID); done.State != jobs.StateCompleted {
			w.t.Fatalf("processing of %s's specification: %+v", o.name, done)
		}
		sp := w.get(o.admin.Token, "/v1/orgs/"+o.org.ID+"/openapi/"+o.ids["specSlug"])
		o.ids["versionId"] = sp["lastVersion"].(string)
		o.own[o.ids["versionId"]] = true
	}
	if err := runner.Stop(context.Background()); err != nil {
		w.t.Fatalf("stop jobs: %v", err)
	}
}

// member adds a user with a token to the organization.
func (w *world) member(o *orgFx, name, domain, role string) testenv.Actor {
	u, tok := w.e.User(name + "@" + domain)
	w.e.Member(o.org, u, role)
	a := testenv.Actor{User: u, Token: tok}
	o.user[name] = a
	o.own[u.ID], o.people[u.ID] = true, true
	return a
}

// content gives the organization's space pages that refer to the rest of
// the organization, a file, and an open change request with a page of its
// own.
func (w *world) content(o *orgFx) {
	t := w.t
	t.Helper()
	ctx := jobs.NewContext(context.Background(), w.e.Client(), o.admin.User)
	svc := w.e.Server.Resolver().Content
	s := o.ids["spaceId"]
	res, err := svc.EditSpace(ctx, s, &content.UploadFile{Name: "logo.txt", ContentType: "text/plain", Data: []byte("logo")})
	if err != nil {
		t.Fatalf("upload: %v", err)
	}
	o.ids["fileId"] = res.IDs[0]
	md := fmt.Sprintf("See [the reference](space://%s), [the guides](collection://%s), [the admin](user://%s) and [the logo](file://%s).\n",
		o.ids["space2"], o.ids["collectionId"], o.admin.User.ID, o.ids["fileId"])
	res, err = svc.EditSpace(ctx, s, &content.CreatePage{Title: "Guide", Markdown: &md})
	if err != nil {
		t.Fatalf("create page: %v", err)
	}
	guide := res.IDs[0]
	o.ids["pageId"] = guide
	intro := fmt.Sprintf("Back to [the guide](page://%s).\n", guide)
	warning := "Mind the gap.\n"
	res, err = svc.EditSpace(ctx, s, &content.CreateReusableContent{Title: "Warning", Markdown: &warning})
	if err != nil {
		t.Fatalf("create reusable content: %v", err)
	}
	o.ids["reusableContentId"] = res.IDs[0]
	res, err = svc.EditSpace(ctx, s,
		&content.CreatePage{Title: "Intro", Parent: guide, Markdown: &intro},
		&content.CreatePage{Title: "Group", Type: content.TypeGroup},
		&content.SetVariables{Variables: map[string]any{"product": "Quire"}})
	if err != nil {
		t.Fatalf("create pages: %v", err)
	}
	o.ids["page2"] = res.IDs[0]
	sp := w.get(o.admin.Token, "/v1/spaces/"+s)
	o.ids["revisionId"] = sp["revision"].(string)
	for _, id := range []string{res.IDs[0], res.IDs[1], guide, o.ids["fileId"], o.ids["revisionId"], o.ids["reusableContentId"]} {
		o.own[id] = true
	}

	cr := w.do(o.admin.Token, "POST", "/v1/spaces/"+s+"/change-requests", map[string]any{"subject": "Draft"}, 201)
	o.ids["changeRequestId"] = cr["id"].(string)
	o.own[o.ids["changeRequestId"]] = true
	draft := "A page of the change request.\n"
	er, err := svc.Edit(ctx, o.ids["changeRequestId"], &content.CreatePage{Title: "Draft page", Markdown: &draft})
	if err != nil {
		t.Fatalf("edit change request: %v", err)
	}
	o.own[er.IDs[0]], o.own[er.Revision] = true, true
	w.do(o.admin.Token, "PATCH", "/v1/spaces/"+s+"/change-requests/"+o.ids["changeRequestId"], map[string]any{"status": "open"}, 200)
}

// adaptiveSchema is the visitor schema of the fixture's sites.
var adaptiveSchema = map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
	"beta": map[string]any{"type": "boolean"},
}}

// site creates a share-link site publishing ids' spaceId at its root, then
// a section of ids' space2 (which gathers the root into a default section)
// inside a group, a share link, an adaptive schema and a customization of
// the first site space; it records their ids in ids.
func (w *world) site(o *orgFx, ids map[string]string) {
	tok := o.admin.Token
	base := "/v1/orgs/" + o.org.ID + "/sites"
	site := w.create(tok, base, map[string]any{"title": "Handbook", "visibility": "share-link", "spaces": []string{ids["spaceId"]}})
	p := base + "/" + site
	sec := w.create(tok, p+"/sections", map[string]any{"spaceId": ids["space2"], "title": "Reference"})
	group := w.create(tok, p+"/section-groups", map[string]any{"title": "Group", "sections": []string{sec}})
	link := w.create(tok, p+"/share-links", map[string]any{"name": "Link"})
	w.do(tok, "PUT", p+"/adaptive-schema", map[string]any{"jsonSchema": adaptiveSchema}, 200)
	secs := w.get(tok, p+"/sections")
	def, ss := "", ""
	for _, it := range secs["items"].([]any) {
		if it := it.(map[string]any); it["id"] != sec {
			def = it["id"].(string)
			ss = testenv.Path(it, "siteSpaces", 0, "id").(string)
		}
	}
	if def == "" || ss == "" {
		w.t.Fatalf("no default section in %v", secs)
	}
	w.do(tok, "PATCH", p+"/site-spaces/"+ss+"/customization", map[string]any{"styling": map[string]any{"theme": "bold"}}, 200)
	ids["siteId"], ids["siteSectionId"], ids["siteSectionGroupId"] = site, sec, group
	ids["shareLinkId"], ids["siteSpaceId"], ids["sectionD"] = link, ss, def
	for _, id := range []string{site, sec, group, link, ss, def} {
		o.own[id] = true
	}
	for _, it := range w.get(tok, p+"/site-spaces")["items"].([]any) {
		o.own[it.(map[string]any)["id"].(string)] = true
	}
	key, err := w.e.Client().SiteShareLink.Query().Where(sitesharelink.ID(link)).Only(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	o.secrets[key.Key] = true
}

// fresh returns the ids of a request by a caller allowed to change what it
// names, when that change would spoil the fixture for the requests after
// it: new objects of A, made for it alone, in place of the fixture's. Only
// the kinds among the route's parameters are made anew.
func (w *world) fresh(params []string) map[string]string {
	w.t.Helper()
	w.n++
	o := w.a
	tok := o.admin.Token
	ids := maps.Clone(o.ids)
	has := map[string]bool{}
	for _, p := range params {
		has[p] = true
	}
	title := fmt.Sprintf("Fresh %d", w.n)
	newSpace := func() string {
		return w.create(tok, "/v1/orgs/"+o.org.ID+"/spaces", map[string]any{"title": title})
	}
	switch {
	case has["translationId"]:
		ids["translationId"] = w.translation(o, ids)
	case has["specSlug"] || has["specId"]:
		w.spec(o, ids)
	case has["siteId"]:
		ids["spaceId"], ids["space2"], ids["spare"] = newSpace(), newSpace(), newSpace()
		w.site(o, ids)
	case has["changeRequestId"]:
		cr := w.do(tok, "POST", "/v1/spaces/"+ids["spaceId"]+"/change-requests", map[string]any{"subject": title}, 201)
		ids["changeRequestId"] = cr["id"].(string)
	case has["spaceId"]:
		ids["spaceId"] = newSpace()
		w.gitSynced(ids["spaceId"])
		ids["trashed"] = newSpace()
		w.do(tok, "DELETE", "/v1/spaces/"+ids["trashed"], nil, 205)
	case has["collectionId"]:
		ids["collectionId"] = w.create(tok, "/v1/orgs/"+o.org.ID+"/collections", map[string]any{"title": title})
	default:
		w.freshAdmin(ids, has, title)
		return ids
	}
	if has["commentId"] || has["commentReplyId"] || has["userId"] {
		// The discussions, and the review request, of the fresh space or
		// change request (a fresh space gets a change request of its own).
		if ids["spaceId"] != o.ids["spaceId"] && ids["changeRequestId"] == o.ids["changeRequestId"] {
			cr := w.do(tok, "POST", "/v1/spaces/"+ids["spaceId"]+"/change-requests", map[string]any{"subject": title}, 201)
			ids["changeRequestId"] = cr["id"].(string)
		}
		w.discussions(o, ids)
	}
	if has["spaceId"] || has["collectionId"] {
		// Their permissions, which the permission routes name (given to
		// userId, the reviewer when discussions named one).
		w.grants(tok, ids)
	}
	return ids
}

// create posts a body as tok and returns the id of what it created.
func (w *world) create(tok, path string, body any) string {
	w.t.Helper()
	return w.do(tok, "POST", path, body, 201)["id"].(string)
}

// get reads a path as tok.
func (w *world) get(tok, path string) map[string]any {
	w.t.Helper()
	return w.do(tok, "GET", path, nil, 200)
}

// do sends a request that must answer want, and returns its JSON body.
func (w *world) do(tok, method, path string, body any, want int) map[string]any {
	w.t.Helper()
	r := w.e.Do(tok, method, path, body)
	if r.Status != want {
		w.t.Fatalf("%s %s: %d, want %d: %s", method, path, r.Status, want, r.Body)
	}
	return r.JSON()
}

// snapshot reads, as A's admin, everything of A the matrix's refused
// requests could change, with the signed links (which carry an expiry)
// left out.
func (w *world) snapshot() map[string]string {
	o := w.a
	ids := o.ids
	site := "/v1/orgs/" + o.org.ID + "/sites/" + ids["siteId"]
	out := map[string]string{}
	for _, p := range []string{
		"/v1/orgs/" + o.org.ID,
		"/v1/orgs/" + o.org.ID + "/collections",
		"/v1/orgs/" + o.org.ID + "/spaces",
		"/v1/orgs/" + o.org.ID + "/sites",
		"/v1/collections/" + ids["collectionId"],
		"/v1/spaces/" + ids["spaceId"],
		"/v1/spaces/" + ids["trashed"],
		"/v1/spaces/" + ids["spaceId"] + "/content/pages",
		"/v1/spaces/" + ids["spaceId"] + "/change-requests?status=draft&status=open&status=archived&status=merged",
		"/v1/spaces/" + ids["spaceId"] + "/change-requests/" + ids["changeRequestId"] + "/content/pages",
		"/v1/spaces/" + ids["spaceId"] + "/comments",
		"/v1/spaces/" + ids["spaceId"] + "/comments/" + ids["commentId"] + "/replies",
		"/v1/spaces/" + ids["spaceId"] + "/change-requests/" + ids["changeRequestId"] + "/comments",
		"/v1/spaces/" + ids["spaceId"] + "/change-requests/" + ids["changeRequestId"] + "/comments/" + ids["crCommentId"] + "/replies",
		"/v1/spaces/" + ids["spaceId"] + "/change-requests/" + ids["changeRequestId"] + "/reviews",
		"/v1/spaces/" + ids["spaceId"] + "/change-requests/" + ids["changeRequestId"] + "/requested-reviewers",
		site, site + "/structure", site + "/share-links", site + "/customization", site + "/adaptive-schema",
		site + "/site-spaces/" + ids["siteSpaceId"] + "/customization",
		"/v1/orgs/" + o.org.ID + "/members?limit=1000", "/v1/orgs/" + o.org.ID + "/teams",
		"/v1/orgs/" + o.org.ID + "/teams/" + ids["teamId"] + "/members", "/v1/orgs/" + o.org.ID + "/link-invites",
		"/v1/orgs/" + o.org.ID + "/saml", "/v1/orgs/" + o.org.ID + "/agent-instructions",
		"/v1/spaces/" + ids["spaceId"] + "/permissions/users", "/v1/spaces/" + ids["spaceId"] + "/permissions/teams",
		"/v1/collections/" + ids["collectionId"] + "/permissions/aggregate",
		"/v1/orgs/" + o.org.ID + "/openapi",
		"/v1/orgs/" + o.org.ID + "/openapi/" + ids["specSlug"] + "/versions",
		"/v1/orgs/" + o.org.ID + "/openapi/" + ids["specSlug"] + "/versions/latest/content",
	} {
		r := w.e.Do(o.admin.Token, "GET", p, nil)
		out[p] = fmt.Sprintf("%d %s", r.Status, unsigned(string(r.Body)))
	}
	return out
}

// unsigned drops the query strings of signed links, and the signatures in
// the paths of links to private specifications' files, which change with
// time.
func unsigned(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "/downloads/")
		if j := strings.Index(s, "/signed/"); j >= 0 && (i < 0 || j < i) {
			i = j
		}
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], '"')
		if j < 0 {
			j = len(s) - i
		}
		b.WriteString(s[:i])
		s = s[i+j:]
	}
}

// discussions gives ids' space and change request a comment with a reply
// and a reaction each (posted by the admin), and has the organization's
// reviewer review the change request and then be asked for a review again;
// it records their ids in ids (commentId, commentReplyId, crCommentId,
// crReplyId, reviewId, and userId: the reviewer asked).
func (w *world) discussions(o *orgFx, ids map[string]string) {
	tok := o.admin.Token
	space := "/v1/spaces/" + ids["spaceId"]
	cr := space + "/change-requests/" + ids["changeRequestId"]
	body := func(text string) map[string]any { return map[string]any{"body": map[string]any{"markdown": text}} }
	post := func(path, text string) string {
		w.t.Helper()
		return w.do(tok, "POST", path, body(text), 200)["id"].(string)
	}
	ids["commentId"] = post(space+"/comments", "A question about the space.")
	ids["commentReplyId"] = post(space+"/comments/"+ids["commentId"]+"/replies", "An answer.")
	w.do(tok, "PUT", space+"/comments/"+ids["commentId"], map[string]any{"addedReactions": []string{"👍"}}, 200)
	ids["crCommentId"] = post(cr+"/comments", "A question about the change.")
	ids["crReplyId"] = post(cr+"/comments/"+ids["crCommentId"]+"/replies", "An answer.")
	rev := o.user["reviewer"]
	ids["reviewerId"], ids["userId"] = rev.User.ID, rev.User.ID
	review := w.do(rev.Token, "POST", cr+"/reviews", map[string]any{"status": "approved",
		"comment": map[string]any{"markdown": "Looks good."}}, 201)
	ids["reviewId"] = review["id"].(string)
	o.own[testenv.Path(review, "comment", "id").(string)] = true
	w.do(tok, "POST", cr+"/requested-reviewers", map[string]any{"users": []string{rev.User.ID}}, 200)
	for _, k := range []string{"commentId", "commentReplyId", "crCommentId", "crReplyId", "reviewId"} {
		o.own[ids[k]] = true
	}
}
