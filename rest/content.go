package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/pagination"
	"quire/internal/types"
)

var (
	qMetadata     = Param{Name: "metadata", Type: "boolean", Description: "Accepted for compatibility (default true); Quire keeps no Git metadata, so both values answer the same."}
	qComputed     = Param{Name: "computed", Type: "boolean", Description: "Accepted for compatibility (default true); Quire has no computed content."}
	qFormat       = Param{Name: "format", Type: "string", Enum: []string{"document", "markdown"}, Description: "document (default): a document page carries its JSON document in `document`; markdown: in `markdown`."}
	qEvaluated    = Param{Name: "evaluated", Type: "string", Enum: []string{"true", "false", "deterministic-only"}, Description: "Evaluate expressions and conditions: true (all), false (default, as written) or deterministic-only (only those over variables and literals)."}
	qDereferenced = Param{Name: "dereferenced", Type: "string", Enum: []string{"true", "false", "reusable-contents"}, Description: "Accepted and checked; Quire has no reusable contents yet, so every value answers the same."}
	qLinkStatus   = Param{Name: "status", Type: "string", Enum: []string{"ok", "broken", "in-app"}, Description: "Only references with this status; stats always count every reference."}
	qCRStatus     = Param{Name: "status", Type: "array", Enum: []string{"draft", "open", "archived", "merged"}, Description: "Only change requests with one of these statuses (default open)."}
	qCreator      = Param{Name: "creator", Type: "string", Description: "Only change requests created by this user."}
	qContributor  = Param{Name: "contributor", Type: "string", Description: "Only change requests this user edited."}
	qReviewer     = Param{Name: "requestedReviewer", Type: "string", Description: "Only change requests that request a review from this user. Quire has no review requests yet, so the list is empty when this is set."}
	qCROrderBy    = Param{Name: "orderBy", Type: "string", Enum: []string{"updatedAt", "createdAt"}, Description: "Most recent first by this date (default updatedAt)."}
	qPDFOnly      = Param{Name: "only", Type: "boolean", Description: "true: the PDF holds only the page given by `page` (required then); false: the whole content, `page` ignored. Default: only the page when `page` is given."}
	qPDFPage      = Param{Name: "page", Type: "string", Description: "Id of a page of the change request's content."}
)

func (a *API) contentRoutes() []Route {
	const s = "/spaces/{spaceId}"
	const cr = s + "/change-requests/{changeRequestId}"
	routes := []Route{
		op("POST", s+"/content/template", "Apply a content template to a space (or, with changeRequestId, to a change request)", a.applyTemplate).Body(ApplyTemplateBody{}).Returns(201, nil).Errors(409),
		op("GET", s+"/links", "Report every link and content reference of a space's content", a.listLinks(a.spaceScope)).Query(qPage, qLimit, qLinkStatus).Returns(200, LinkReport{}),
		op("GET", s+"/change-requests", "List a space's change requests", a.listSpaceChangeRequests).List(ChangeRequest{}).Query(qCRStatus, qCreator, qContributor, qReviewer, qCROrderBy),
		op("POST", s+"/change-requests", "Create a change request", a.createChangeRequest).Body(CreateChangeRequestBody{}).Returns(201, ChangeRequest{}),
		op("GET", cr, "Get a change request by id or number", a.getChangeRequest).Returns(200, ChangeRequest{}),
		op("PATCH", cr, "Update a change request", a.updateChangeRequest).Body(UpdateChangeRequestBody{}).Returns(200, ChangeRequest{}),
		op("POST", cr+"/merge", "Merge a change request into its space", a.mergeChangeRequest).Returns(200, MergeResult{}).Errors(409),
		op("POST", cr+"/update", "Bring the space's content into a change request", a.updateFromSpace).Returns(200, MergeResult{}).Errors(409),
		op("GET", cr+"/pdf", "Get a link to a PDF of a change request's content", a.changeRequestPDF).Query(qPDFOnly, qPDFPage).Returns(200, PDFURL{}),
		op("GET", "/orgs/{organizationId}/change-requests", "List the change requests of an organization's spaces", a.listOrgChangeRequests).List(ChangeRequest{}).Query(qCRStatus, qCreator, qContributor, qReviewer, qCROrderBy),
	}
	routes = append(routes, a.contentReads(s+"/content", "a space", a.spaceScope)...)
	return append(routes, a.contentReads(cr+"/content", "a change request", a.changeRequestScope)...)
}

// contentReads are the reads of a revision, under the space's content or a
// change request's.
func (a *API) contentReads(base, of string, scope scopeFunc) []Route {
	return []Route{
		op("GET", base, "Get the content (current revision) of "+of, a.getRevision(scope)).Query(qMetadata, qComputed).Returns(200, Revision{}),
		op("GET", base+"/pages", "List the page tree of "+of, a.listPages(scope)).Query(qMetadata, qComputed).Returns(200, PageList{}),
		op("GET", base+"/files", "List the files of "+of, a.listFiles(scope)).List(File{}).Query(qMetadata, qComputed),
		op("GET", base+"/files/{fileId}", "Get a file of "+of, a.getFile(scope)).Query(qMetadata, qComputed).Returns(200, File{}),
		op("GET", base+"/files/{fileId}/backlinks", "List the pages of "+of+" that refer to a file", a.listFileBacklinks(scope)).List(ContentLocation{}),
		op("GET", base+"/page/{pageId}", "Get a page of "+of, a.getPage(scope)).Query(qFormat, qEvaluated, qDereferenced, qMetadata, qComputed).Returns(200, Page{}),
		op("GET", base+"/page/{pageId}/links", "Report the links and content references of a page of "+of, a.listLinks(scope)).Query(qPage, qLimit, qLinkStatus).Returns(200, LinkReport{}),
		op("GET", base+"/page/{pageId}/backlinks", "List the pages of "+of+" that refer to a page", a.listPageBacklinks(scope)).List(ContentLocation{}),
	}
}

// scope is the content a read works on: a space's, or a change request's.
type scope struct {
	space *ent.Space
	cr    *ent.ChangeRequest // nil for the space's content
	rev   *content.Revision
}

type scopeFunc func(ctx context.Context, req *Request) (*scope, error)

func (a *API) spaceScope(ctx context.Context, req *Request) (*scope, error) {
	sp, err := a.r.Query().Space(ctx, req.Param("spaceId"), nil)
	if err != nil {
		return nil, err
	}
	rev, err := a.r.Space().Content(ctx, sp)
	if err != nil {
		return nil, err
	}
	return &scope{space: sp, rev: rev}, nil
}

func (a *API) changeRequestScope(ctx context.Context, req *Request) (*scope, error) {
	sp, cr, err := a.changeRequest(ctx, req)
	if err != nil {
		return nil, err
	}
	rev, err := a.r.ChangeRequest().Content(ctx, cr)
	if err != nil {
		return nil, err
	}
	return &scope{space: sp, cr: cr, rev: rev}, nil
}

// changeRequest resolves the path's space and change request; the change
// request is named by its id or by its number in the space.
func (a *API) changeRequest(ctx context.Context, req *Request) (*ent.Space, *ent.ChangeRequest, error) {
	sp, err := a.r.Query().Space(ctx, req.Param("spaceId"), nil)
	if err != nil {
		return nil, nil, err
	}
	ref := req.Param("changeRequestId")
	var cr *ent.ChangeRequest
	if isNumber(ref) {
		n, convErr := strconv.Atoi(ref)
		if convErr != nil || n <= 0 {
			return nil, nil, apierr.NotFoundf("No change request %s in space %q", ref, sp.ID)
		}
		cr, err = a.r.Space().ChangeRequest(ctx, sp, nil, &n)
	} else {
		cr, err = a.r.Space().ChangeRequest(ctx, sp, &ref, nil)
	}
	if err != nil {
		return nil, nil, err
	}
	if cr == nil {
		return nil, nil, apierr.NotFoundf("No change request %q in space %q", ref, sp.ID)
	}
	return sp, cr, nil
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// compatQueries checks the accepted-but-inert metadata and computed flags.
func compatQueries(req *Request) error {
	for _, k := range []string{"metadata", "computed"} {
		if _, err := boolQuery(req, k); err != nil {
			return err
		}
	}
	return nil
}

func (a *API) getRevision(sc scopeFunc) HandlerFunc {
	return func(ctx context.Context, req *Request) (int, any, error) {
		if err := compatQueries(req); err != nil {
			return 0, nil, err
		}
		s, err := sc(ctx, req)
		if err != nil {
			return 0, nil, err
		}
		out, err := a.presentRevision(ctx, s.rev)
		return http.StatusOK, out, err
	}
}

func (a *API) listPages(sc scopeFunc) HandlerFunc {
	return func(ctx context.Context, req *Request) (int, any, error) {
		if err := compatQueries(req); err != nil {
			return 0, nil, err
		}
		s, err := sc(ctx, req)
		if err != nil {
			return 0, nil, err
		}
		pages, err := a.presentTree(ctx, s.rev.Pages)
		if err != nil {
			return 0, nil, err
		}
		return http.StatusOK, PageList{Pages: pages}, nil
	}
}

// indexKey orders a list that has no natural key by its position.
func indexKey(i int) pagination.Cursor { return pagination.Cursor{Key: fmt.Sprintf("%010d", i)} }

// paged slices items (in their list order) for the REST envelope.
func paged[T any](req *Request, items []T) ([]T, int, *string, error) {
	args, err := listArgs(req)
	if err != nil {
		return nil, 0, nil, err
	}
	type at struct {
		i int
		v T
	}
	idx := make([]at, len(items))
	for i, v := range items {
		idx[i] = at{i, v}
	}
	p, err := catalog.Paginate(idx, func(x at) pagination.Cursor { return indexKey(x.i) }, args)
	if err != nil {
		return nil, 0, nil, err
	}
	out := make([]T, len(p.Items))
	for i, x := range p.Items {
		out[i] = x.v
	}
	return out, p.TotalCount, p.NextPage(), nil
}

func (a *API) listFiles(sc scopeFunc) HandlerFunc {
	return func(ctx context.Context, req *Request) (int, any, error) {
		if err := compatQueries(req); err != nil {
			return 0, nil, err
		}
		if _, err := listArgs(req); err != nil {
			return 0, nil, err
		}
		s, err := sc(ctx, req)
		if err != nil {
			return 0, nil, err
		}
		files, total, next, err := paged(req, s.rev.Files)
		if err != nil {
			return 0, nil, err
		}
		items, err := presentAll(ctx, files, a.presentFile)
		if err != nil {
			return 0, nil, err
		}
		return http.StatusOK, envelope(items, total, next != nil, next), nil
	}
}

func (a *API) file(ctx context.Context, req *Request, sc scopeFunc) (*scope, *content.File, error) {
	s, err := sc(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	f, err := a.r.Revision().File(ctx, s.rev, req.Param("fileId"))
	if err != nil {
		return nil, nil, err
	}
	if f == nil {
		return nil, nil, apierr.NotFoundf("No file %q in revision %q", req.Param("fileId"), s.rev.ID)
	}
	return s, f, nil
}

func (a *API) getFile(sc scopeFunc) HandlerFunc {
	return func(ctx context.Context, req *Request) (int, any, error) {
		if err := compatQueries(req); err != nil {
			return 0, nil, err
		}
		_, f, err := a.file(ctx, req, sc)
		if err != nil {
			return 0, nil, err
		}
		out, err := a.presentFile(ctx, f)
		return http.StatusOK, out, err
	}
}

func (a *API) listFileBacklinks(sc scopeFunc) HandlerFunc {
	return func(ctx context.Context, req *Request) (int, any, error) {
		if _, err := listArgs(req); err != nil {
			return 0, nil, err
		}
		s, f, err := a.file(ctx, req, sc)
		if err != nil {
			return 0, nil, err
		}
		links, err := a.r.File().Backlinks(ctx, f)
		if err != nil {
			return 0, nil, err
		}
		return a.backlinks(ctx, req, s, links)
	}
}

// page reads a page of the scope's revision, with its children.
func (a *API) page(ctx context.Context, req *Request, sc scopeFunc) (*scope, *content.Page, error) {
	s, err := sc(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	id := req.Param("pageId")
	p, err := a.r.Revision().Page(ctx, s.rev, &id, nil)
	if err != nil {
		return nil, nil, err
	}
	if p == nil {
		return nil, nil, apierr.NotFoundf("No page %q in revision %q", id, s.rev.ID)
	}
	if node := findPage(s.rev.Pages, id); node != nil && len(node.Pages) > 0 {
		withChildren := *p
		withChildren.Pages = node.Pages
		p = &withChildren
	}
	return s, p, nil
}

func findPage(pages []*content.Page, id string) *content.Page {
	var found *content.Page
	content.Walk(pages, func(p *content.Page) {
		if found == nil && p.ID == id {
			found = p
		}
	})
	return found
}

// evaluation reads the evaluated query into the GraphQL argument.
func evaluation(req *Request) (model.PageEvaluation, error) {
	switch v := strings.ToLower(req.HTTP.URL.Query().Get("evaluated")); v {
	case "", "false":
		return model.PageEvaluationNone, nil
	case "true":
		return model.PageEvaluationAll, nil
	case "deterministic-only":
		return model.PageEvaluationDeterministicOnly, nil
	}
	return "", apierr.Invalid("evaluated", "evaluated must be true, false or deterministic-only")
}

func (a *API) getPage(sc scopeFunc) HandlerFunc {
	return func(ctx context.Context, req *Request) (int, any, error) {
		q := req.HTTP.URL.Query()
		format := q.Get("format")
		if format != "" && format != "document" && format != "markdown" {
			return 0, nil, apierr.Invalid("format", "format must be document or markdown")
		}
		eval, err := evaluation(req)
		if err != nil {
			return 0, nil, err
		}
		switch strings.ToLower(q.Get("dereferenced")) {
		case "", "true", "false", "reusable-contents":
		default:
			return 0, nil, apierr.Invalid("dereferenced", "dereferenced must be true, false or reusable-contents")
		}
		if err := compatQueries(req); err != nil {
			return 0, nil, err
		}
		_, p, err := a.page(ctx, req, sc)
		if err != nil {
			return 0, nil, err
		}
		out, err := a.presentPage(ctx, p)
		if err != nil {
			return 0, nil, err
		}
		if p.Type != content.TypeDocument {
			return http.StatusOK, out, nil
		}
		if format == "markdown" {
			md, err := a.r.Page().Markdown(ctx, p, &eval)
			if err != nil {
				return 0, nil, err
			}
			if md == nil {
				md = new(string)
			}
			out.Markdown, out.Document = md, nil
			return http.StatusOK, out, nil
		}
		if out.Document, err = a.document(ctx, p, eval); err != nil {
			return 0, nil, err
		}
		return http.StatusOK, out, nil
	}
}

func (a *API) listPageBacklinks(sc scopeFunc) HandlerFunc {
	return func(ctx context.Context, req *Request) (int, any, error) {
		if _, err := listArgs(req); err != nil {
			return 0, nil, err
		}
		s, p, err := a.page(ctx, req, sc)
		if err != nil {
			return 0, nil, err
		}
		links, err := a.r.Page().Backlinks(ctx, p)
		if err != nil {
			return 0, nil, err
		}
		return a.backlinks(ctx, req, s, links)
	}
}

// backlinks presents the pages holding links, once per page, in order.
func (a *API) backlinks(ctx context.Context, req *Request, s *scope, links []*content.Link) (int, any, error) {
	var pageIDs []string
	seen := map[string]bool{}
	for _, l := range links {
		if !seen[l.Page] {
			seen[l.Page] = true
			pageIDs = append(pageIDs, l.Page)
		}
	}
	ids, total, next, err := paged(req, pageIDs)
	if err != nil {
		return 0, nil, err
	}
	loc := a.newLocator(s)
	items := make([]ContentLocation, 0, len(ids))
	for _, id := range ids {
		l, err := loc.page(ctx, id, "")
		if err != nil {
			return 0, nil, err
		}
		if l != nil {
			items = append(items, *l)
		}
	}
	return http.StatusOK, envelope(items, total, next != nil, next), nil
}

// linkStatus reads the status filter of link reports.
func linkStatus(req *Request) (*model.ContentReferenceStatus, error) {
	v := req.HTTP.URL.Query().Get("status")
	if v == "" {
		return nil, nil
	}
	st := model.ContentReferenceStatus(gqlSpelling(v))
	if !st.IsValid() || strings.Contains(v, "_") {
		return nil, apierr.Invalid("status", "status must be ok, broken or in-app")
	}
	return &st, nil
}

// listLinks reports the links of a page (when the route has {pageId}) or
// of the whole content.
func (a *API) listLinks(sc scopeFunc) HandlerFunc {
	return func(ctx context.Context, req *Request) (int, any, error) {
		if _, err := listArgs(req); err != nil {
			return 0, nil, err
		}
		status, err := linkStatus(req)
		if err != nil {
			return 0, nil, err
		}
		var s *scope
		var report *model.ContentLinkReport
		if req.Param("pageId") != "" {
			var p *content.Page
			if s, p, err = a.page(ctx, req, sc); err != nil {
				return 0, nil, err
			}
			report, err = a.r.Page().Links(ctx, p, status)
		} else {
			if s, err = sc(ctx, req); err != nil {
				return 0, nil, err
			}
			report, err = a.r.Revision().Links(ctx, s.rev, status)
		}
		if err != nil {
			return 0, nil, err
		}
		return a.presentLinkReport(ctx, req, s, report)
	}
}

// usage is one target of a link report while it is being built.
type usage struct {
	first *content.Link
	pages []string
}

func (a *API) presentLinkReport(ctx context.Context, req *Request, s *scope, report *model.ContentLinkReport) (int, any, error) {
	var groups []*usage
	byTarget := map[string]*usage{}
	for _, l := range report.Items {
		key, err := json.Marshal(l.Ref)
		if err != nil {
			return 0, nil, fmt.Errorf("encode reference: %w", err)
		}
		g := byTarget[string(key)]
		if g == nil {
			g = &usage{first: l}
			byTarget[string(key)] = g
			groups = append(groups, g)
		}
		if len(g.pages) == 0 || g.pages[len(g.pages)-1] != l.Page {
			dup := false
			for _, p := range g.pages {
				dup = dup || p == l.Page
			}
			if !dup {
				g.pages = append(g.pages, l.Page)
			}
		}
	}
	page, total, next, err := paged(req, groups)
	if err != nil {
		return 0, nil, err
	}
	firsts := make([]*content.Link, len(page))
	for i, g := range page {
		firsts[i] = g.first
	}
	a.r.WarmLinkTargets(ctx, firsts)
	loc := a.newLocator(s)
	items := make([]ContentReferenceUsage, 0, len(page))
	for _, g := range page {
		target, err := a.r.ContentLink().Target(ctx, g.first)
		if err != nil {
			return 0, nil, err
		}
		u := ContentReferenceUsage{
			Status: g.first.Status, Relation: relationOf(g.first), Target: target,
			LocationReferences: []ContentLocation{},
		}
		if u.TargetReference, err = loc.target(ctx, g.first); err != nil {
			return 0, nil, err
		}
		for _, id := range g.pages {
			l, err := loc.page(ctx, id, "")
			if err != nil {
				return 0, nil, err
			}
			if l != nil {
				u.LocationReferences = append(u.LocationReferences, *l)
			}
		}
		items = append(items, u)
	}
	out := LinkReport{Count: total, Items: items}
	if next != nil {
		out.Next = &nextPage{Page: *next}
	}
	if st := report.Stats; st != nil {
		out.Stats = LinkStats{Total: st.Total, Broken: BrokenStats{Total: st.Broken}, OK: st.Ok, InApp: st.InApp}
	}
	return http.StatusOK, out, nil
}

// relationOf: content embedded from elsewhere (reusable content, an OpenAPI
// description) is a dependency; anything else a reference.
func relationOf(l *content.Link) string {
	switch l.Ref.Kind {
	case "reusable-content", "openapi":
		return "dependsOn"
	}
	return "reference"
}

// locator presents content locations in one scope, presenting the scope's
// organization, space and pages once per request.
type locator struct {
	a      *API
	s      *scope
	org    *Organization
	space  *Space
	vc     *VersionContext
	pages  map[string]*Page
	loaded bool
}

func (a *API) newLocator(s *scope) *locator {
	return &locator{a: a, s: s, pages: map[string]*Page{}}
}

func (l *locator) load(ctx context.Context) error {
	if l.loaded {
		return nil
	}
	o, err := l.a.r.Space().Organization(ctx, l.s.space)
	if err != nil {
		return err
	}
	if l.org, err = l.a.presentOrganization(ctx, o); err != nil {
		return err
	}
	if l.space, err = l.a.presentSpace(ctx, l.s.space); err != nil {
		return err
	}
	if l.s.cr != nil {
		cr, err := l.a.presentChangeRequest(ctx, l.s.cr)
		if err != nil {
			return err
		}
		l.vc = &VersionContext{Type: "changeRequest", ChangeRequest: cr}
	}
	l.loaded = true
	return nil
}

// page locates a page of the scope's revision; nil when it is not there.
func (l *locator) page(ctx context.Context, id, anchor string) (*ContentLocation, error) {
	p := l.pages[id]
	if p == nil {
		node := findPage(l.s.rev.Pages, id)
		if node == nil {
			return nil, nil
		}
		var err error
		if p, err = l.a.presentPage(ctx, node); err != nil {
			return nil, err
		}
		l.pages[id] = p
	}
	if err := l.load(ctx); err != nil {
		return nil, err
	}
	out := &ContentLocation{Kind: "page", Organization: l.org, Space: l.space, Page: p, VersionContext: l.vc}
	if anchor != "" {
		out.InternalLocation = &InternalLocation{Type: "anchor", Anchor: anchor}
	}
	return out, nil
}

// target locates what a reference points at, when it exists and the caller
// may see it; nil otherwise.
func (l *locator) target(ctx context.Context, link *content.Link) (*ContentLocation, error) {
	ref := link.Ref
	inScope := ref.Space == "" || ref.Space == l.s.space.ID
	switch ref.Kind {
	case "url":
		return &ContentLocation{Kind: "url", URL: ref.URL}, nil
	case "page":
		if inScope {
			return l.page(ctx, ref.Page, "")
		}
	case "anchor":
		if inScope && ref.Page != "" {
			return l.page(ctx, ref.Page, ref.Anchor)
		}
	case "file":
		for _, f := range l.s.rev.Files {
			if f.ID != ref.File {
				continue
			}
			file, err := l.a.presentFile(ctx, f)
			if err != nil {
				return nil, err
			}
			if err := l.load(ctx); err != nil {
				return nil, err
			}
			return &ContentLocation{Kind: "file", Organization: l.org, Space: l.space, File: file, VersionContext: l.vc}, nil
		}
	case "space":
		sp, err := l.a.r.Query().Space(ctx, ref.Space, nil)
		if err != nil {
			return nil, hidden(err)
		}
		return l.a.spaceLocation(ctx, sp)
	case "collection":
		c, err := l.a.r.Query().Collection(ctx, ref.Collection)
		if err != nil {
			return nil, hidden(err)
		}
		o, err := l.a.r.Collection().Organization(ctx, c)
		if err != nil {
			return nil, err
		}
		org, err := l.a.presentOrganization(ctx, o)
		if err != nil {
			return nil, err
		}
		coll, err := l.a.presentCollection(ctx, c)
		if err != nil {
			return nil, err
		}
		return &ContentLocation{Kind: "collection", Organization: org, Collection: coll}, nil
	case "user":
		n, err := l.a.r.Query().Node(ctx, ref.User)
		if err != nil {
			return nil, hidden(err)
		}
		if u, ok := n.(*ent.User); ok {
			user, err := l.a.presentUser(ctx, u)
			if err != nil {
				return nil, err
			}
			return &ContentLocation{Kind: "user", User: user}, nil
		}
	}
	return nil, nil
}

func (a *API) spaceLocation(ctx context.Context, sp *ent.Space) (*ContentLocation, error) {
	o, err := a.r.Space().Organization(ctx, sp)
	if err != nil {
		return nil, err
	}
	org, err := a.presentOrganization(ctx, o)
	if err != nil {
		return nil, err
	}
	space, err := a.presentSpace(ctx, sp)
	if err != nil {
		return nil, err
	}
	return &ContentLocation{Kind: "space", Organization: org, Space: space}, nil
}

// hidden turns "not found" and "forbidden" into no location: a report does
// not fail because one target is out of the caller's sight.
func hidden(err error) error {
	switch apierr.CodeOf(err) {
	case apierr.NotFound, apierr.Forbidden:
		return nil
	}
	return err
}

func (a *API) applyTemplate(ctx context.Context, req *Request) (int, any, error) {
	sp, err := a.r.Query().Space(ctx, req.Param("spaceId"), nil)
	if err != nil {
		return 0, nil, err
	}
	b, err := decodeBody(req, true)
	if err != nil {
		return 0, nil, err
	}
	in := model.ApplyTemplateInput{Space: sp.ID}
	if in.Template, err = b.reqStr("id"); err != nil {
		return 0, nil, err
	}
	if in.ContentRefs, err = templateRefs(b, "params"); err != nil {
		return 0, nil, err
	}
	if in.ChangeRequest, err = b.omitStr("changeRequestId"); err != nil {
		return 0, nil, err
	}
	if _, err := a.r.Mutation().ApplyTemplate(ctx, in); err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, nil, nil
}

// templateRefs reads params.contentRefs of a template body field.
func templateRefs(b body, field string) (graphql.Omittable[types.JSON], error) {
	var none graphql.Omittable[types.JSON]
	if !b.has(field) || b.null(field) {
		return none, nil
	}
	var params struct {
		ContentRefs map[string]json.RawMessage `json:"contentRefs"`
	}
	if err := b.decodeInto(field, &params, "an object with contentRefs (name to content reference)"); err != nil {
		return none, err
	}
	if params.ContentRefs == nil {
		return none, nil
	}
	raw, err := json.Marshal(params.ContentRefs)
	if err != nil {
		return none, apierr.Invalid(field+".contentRefs", "%s.contentRefs must map names to content references", field)
	}
	return graphql.OmittableOf(types.JSON(raw)), nil
}

// changeRequestFilters reads the filters shared by both change request
// lists; reviewer reports whether requestedReviewer was given.
type crFilters struct {
	status      []model.ChangeRequestStatus
	creator     *string
	contributor *string
	orderBy     *model.ChangeRequestOrderBy
	reviewer    bool
}

func changeRequestFilters(req *Request) (crFilters, error) {
	q := req.HTTP.URL.Query()
	var f crFilters
	for _, v := range q["status"] {
		for _, s := range strings.Split(v, ",") {
			st := model.ChangeRequestStatus(strings.TrimSpace(s))
			if !st.IsValid() {
				return f, apierr.Invalid("status", "status must be draft, open, archived or merged")
			}
			f.status = append(f.status, st)
		}
	}
	if len(f.status) == 0 {
		f.status = []model.ChangeRequestStatus{model.ChangeRequestStatusOpen}
	}
	if v := q.Get("creator"); v != "" {
		f.creator = &v
	}
	if v := q.Get("contributor"); v != "" {
		f.contributor = &v
	}
	if v := q.Get("orderBy"); v != "" {
		o := model.ChangeRequestOrderBy(v)
		if !o.IsValid() {
			return f, apierr.Invalid("orderBy", "orderBy must be updatedAt or createdAt")
		}
		f.orderBy = &o
	}
	f.reviewer = q.Get("requestedReviewer") != ""
	return f, nil
}

func (a *API) changeRequestList(ctx context.Context, req *Request, list func(args catalog.PageArgs, f crFilters) (*model.ChangeRequestConnection, error)) (int, any, error) {
	args, err := listArgs(req)
	if err != nil {
		return 0, nil, err
	}
	f, err := changeRequestFilters(req)
	if err != nil {
		return 0, nil, err
	}
	conn, err := list(args, f)
	if err != nil {
		return 0, nil, err
	}
	if f.reviewer {
		// No change request has review requests in Quire.
		return http.StatusOK, envelope([]*ChangeRequest{}, 0, false, nil), nil
	}
	items, err := presentAll(ctx, conn.Nodes, a.presentChangeRequest)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, envelope(items, conn.TotalCount, conn.PageInfo.HasNextPage, conn.PageInfo.EndCursor), nil
}

func (a *API) listSpaceChangeRequests(ctx context.Context, req *Request) (int, any, error) {
	return a.changeRequestList(ctx, req, func(args catalog.PageArgs, f crFilters) (*model.ChangeRequestConnection, error) {
		sp, err := a.r.Query().Space(ctx, req.Param("spaceId"), nil)
		if err != nil {
			return nil, err
		}
		return a.r.Space().ChangeRequestList(ctx, sp, args.First, args.After, nil, nil, f.status, f.creator, f.contributor, f.orderBy)
	})
}

func (a *API) listOrgChangeRequests(ctx context.Context, req *Request) (int, any, error) {
	return a.changeRequestList(ctx, req, func(args catalog.PageArgs, f crFilters) (*model.ChangeRequestConnection, error) {
		o, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
		if err != nil {
			return nil, err
		}
		return a.r.Organization().ChangeRequests(ctx, o, args.First, args.After, nil, nil, f.status, f.creator, f.contributor, f.orderBy)
	})
}

func (a *API) createChangeRequest(ctx context.Context, req *Request) (int, any, error) {
	sp, err := a.r.Query().Space(ctx, req.Param("spaceId"), nil)
	if err != nil {
		return 0, nil, err
	}
	b, err := decodeBody(req, false)
	if err != nil {
		return 0, nil, err
	}
	in := model.CreateChangeRequestInput{Space: sp.ID}
	if in.Subject, err = b.omitStr("subject"); err != nil {
		return 0, nil, err
	}
	if b.has("template") && !b.null("template") {
		var t struct {
			ID *string `json:"id"`
		}
		if err := b.decodeInto("template", &t, "an object with id and params"); err != nil {
			return 0, nil, err
		}
		if t.ID == nil || *t.ID == "" {
			return 0, nil, apierr.Invalid("template.id", "template.id is required")
		}
		tb, _ := decodeObject(b["template"])
		refs, err := templateRefs(tb, "params")
		if err != nil {
			return 0, nil, err
		}
		in.Template = graphql.OmittableOf(&model.ChangeRequestTemplateInput{ID: *t.ID, ContentRefs: refs})
	}
	// The template is applied in the same transaction: if it fails, no
	// change request is created.
	cr, err := a.r.Mutation().CreateChangeRequest(ctx, in)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentChangeRequest(ctx, cr)
	if err == nil {
		req.Header.Set("Location", out.URLs.Location)
	}
	return http.StatusCreated, out, err
}

// decodeObject decodes a JSON object value into a body.
func decodeObject(raw json.RawMessage) (body, error) {
	var b body
	if err := json.Unmarshal(raw, &b); err != nil {
		return body{}, err
	}
	return b, nil
}

func (a *API) getChangeRequest(ctx context.Context, req *Request) (int, any, error) {
	_, cr, err := a.changeRequest(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentChangeRequest(ctx, cr)
	return http.StatusOK, out, err
}

func (a *API) updateChangeRequest(ctx context.Context, req *Request) (int, any, error) {
	_, cr, err := a.changeRequest(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	b, err := decodeBody(req, true)
	if err != nil {
		return 0, nil, err
	}
	var in model.PatchChangeRequestInput
	if b.null("subject") {
		return 0, nil, apierr.Invalid("subject", "subject cannot be null")
	}
	if in.Subject, err = b.omitStr("subject"); err != nil {
		return 0, nil, err
	}
	if b.has("description") {
		if b.null("description") {
			in.Description = graphql.OmittableOf[types.JSON](nil)
		} else {
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(b["description"], &obj); err != nil {
				return 0, nil, apierr.Invalid("description", "description must be a JSON document or null")
			}
			in.Description = graphql.OmittableOf(types.JSON(b["description"]))
		}
	}
	if b.has("status") {
		st, err := b.str("status")
		if err != nil {
			return 0, nil, err
		}
		if st == nil {
			return 0, nil, apierr.Invalid("status", "status cannot be null")
		}
		s := model.ChangeRequestStatus(*st)
		switch s {
		case model.ChangeRequestStatusDraft, model.ChangeRequestStatusOpen, model.ChangeRequestStatusArchived:
		default:
			return 0, nil, apierr.Invalid("status", "status must be draft, open or archived")
		}
		in.Status = graphql.OmittableOf(&s)
	}
	cr, err = a.r.Mutation().PatchChangeRequest(ctx, cr.ID, in)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentChangeRequest(ctx, cr)
	return http.StatusOK, out, err
}

func presentMerge(res *model.MergeResult, cr *ent.ChangeRequest) MergeResult {
	out := MergeResult{Result: string(res.Result)}
	switch {
	case res.Revision != nil:
		out.Revision = *res.Revision
	case res.ChangeRequest != nil:
		out.Revision = res.ChangeRequest.RevisionID
	default:
		out.Revision = cr.RevisionID
	}
	if res.Result == model.MergeOutcomeConflicts {
		out.Conflicts = res.Conflicts
		if out.Conflicts == nil {
			out.Conflicts = []*model.MergeConflict{}
		}
	}
	return out
}

func (a *API) mergeChangeRequest(ctx context.Context, req *Request) (int, any, error) {
	_, cr, err := a.changeRequest(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	res, err := a.r.Mutation().MergeChangeRequest(ctx, cr.ID)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, presentMerge(res, cr), nil
}

func (a *API) updateFromSpace(ctx context.Context, req *Request) (int, any, error) {
	_, cr, err := a.changeRequest(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	res, err := a.r.Mutation().UpdateChangeRequest(ctx, cr.ID)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, presentMerge(res, cr), nil
}

func (a *API) changeRequestPDF(ctx context.Context, req *Request) (int, any, error) {
	only, err := boolQuery(req, "only")
	if err != nil {
		return 0, nil, err
	}
	var page *string
	if v := req.HTTP.URL.Query().Get("page"); v != "" {
		page = &v
	}
	if only != nil && *only && page == nil {
		return 0, nil, apierr.Invalid("page", "page is required when only is true")
	}
	if only != nil && !*only {
		page = nil
	}
	_, cr, err := a.changeRequest(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	url, err := a.r.ChangeRequest().PDF(ctx, cr, page)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, PDFURL{URL: url}, nil
}
