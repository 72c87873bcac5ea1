package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/graph-gophers/dataloader/v7"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/authz"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/evaluate"
	"quire/internal/loaders"
	"quire/internal/types"
)

// Downloads makes the signed, expiring links that Quire serves for file
// bytes and PDFs.
type Downloads interface {
	FileURL(revisionID, fileID string) string
	PDFURL(revisionID, title, pageID string) string
}

// contentSpace returns a space the caller may see and on which it has at
// least need (the content engine's rule).
func (r *Resolver) contentSpace(ctx context.Context, id string, need types.Role) (*ent.Space, error) {
	return r.Content.SpaceFor(ctx, id, need)
}

// changeRequestFor returns a change request of a space on which the caller
// has at least need.
func (r *Resolver) changeRequestFor(ctx context.Context, id string, need types.Role) (*ent.ChangeRequest, *ent.Space, error) {
	return r.Content.ChangeRequestFor(ctx, id, need)
}

// spaceChangeRequest finds a change request of a space by id or number.
func (r *Resolver) spaceChangeRequest(ctx context.Context, sp *ent.Space, id *string, number *int) (*ent.ChangeRequest, error) {
	return r.Content.SpaceChangeRequest(ctx, sp.ID, id, number)
}

// revisionFor reads a revision of a space the caller may read.
func (r *Resolver) revisionFor(ctx context.Context, id string) (*content.Revision, error) {
	return r.Content.RevisionFor(ctx, id)
}

// spaceContent reads a space's current content.
func (r *Resolver) spaceContent(ctx context.Context, sp *ent.Space) (*content.Revision, error) {
	return r.Content.SpaceContent(ctx, sp.ID)
}

// forgetSpace drops a space from the request's cache after a write changed
// it (its revision or counters), so later fields read it again.
func forgetSpace(ctx context.Context, id string) {
	loaders.For(ctx).SpaceByID.Clear(ctx, id)
}

func (r *Resolver) changeRequestConnection(ctx context.Context, items []*ent.ChangeRequest, args catalog.PageArgs) (*model.ChangeRequestConnection, error) {
	p, err := catalog.Paginate(items, indexCursor(items), args)
	if err != nil {
		return nil, err
	}
	warmChangeRequests(ctx, p.Items)
	c := &model.ChangeRequestConnection{Nodes: p.Items, PageInfo: pageInfo(p), TotalCount: p.TotalCount, Edges: make([]*model.ChangeRequestEdge, len(p.Items))}
	for i, n := range p.Items {
		c.Edges[i] = &model.ChangeRequestEdge{Node: n, Cursor: p.Cursors[i]}
	}
	return c, nil
}

// warmChangeRequests loads the spaces, creators and contributors of a page
// of change requests at once, so that presenting each one (REST presents
// them one after the other) reads the request's caches.
func warmChangeRequests(ctx context.Context, crs []*ent.ChangeRequest) {
	l := loaders.For(ctx)
	if l == nil || len(crs) == 0 {
		return
	}
	var spaces, users []string
	for _, cr := range crs {
		spaces = append(spaces, cr.SpaceID)
		users = append(users, cr.CreatedBy)
		users = append(users, cr.Contributors...)
	}
	l.SpaceByID.Fetch(ctx, spaces)
	l.UserByID.Fetch(ctx, users)
}

// WarmLinkTargets loads, a kind at a time, the spaces (with what their
// permissions need), collections and users that links point at, so that
// presenting a link report reads the request's caches instead of loading
// per link.
func (r *Resolver) WarmLinkTargets(ctx context.Context, links []*content.Link) {
	l := loaders.For(ctx)
	if l == nil {
		return
	}
	var spaces, collections, users []string
	for _, link := range links {
		switch ref := link.Ref; ref.Kind {
		case document.RefSpace:
			spaces = append(spaces, ref.Space)
		case document.RefCollection:
			collections = append(collections, ref.Collection)
		case document.RefUser:
			users = append(users, ref.User)
		}
	}
	if len(spaces) > 0 {
		got, _ := l.SpaceByID.Fetch(ctx, spaces)
		live := make([]*ent.Space, 0, len(got))
		for _, sp := range got {
			if sp != nil {
				live = append(live, sp)
			}
		}
		_ = authz.WarmSpaces(ctx, live)
	}
	if len(collections) > 0 {
		l.CollectionByID.Fetch(ctx, collections)
	}
	if len(users) > 0 {
		l.UserByID.Fetch(ctx, users)
	}
}

func changeRequestFilter(status []model.ChangeRequestStatus, creator, contributor *string, orderBy *model.ChangeRequestOrderBy) content.ListChangeRequests {
	f := content.ListChangeRequests{}
	for _, s := range status {
		f.Status = append(f.Status, string(s))
	}
	if creator != nil {
		f.Creator = *creator
	}
	if contributor != nil {
		f.Contributor = *contributor
	}
	if orderBy != nil {
		f.OrderBy = string(*orderBy)
	}
	return f
}

// organizationChangeRequests lists the change requests of every space of
// an organization the caller may read.
func (r *Resolver) organizationChangeRequests(ctx context.Context, orgID string, f content.ListChangeRequests) ([]*ent.ChangeRequest, error) {
	return r.Content.OrganizationChangeRequests(ctx, orgID, f)
}

// parseDocument parses a JSON document given for field.
func parseDocument(field string, raw types.JSON) (*document.Document, error) {
	doc, err := document.Parse(raw)
	if err != nil {
		if e, ok := apierr.As(err); ok && e.Field != "" && field != "document" {
			msg := e.Message
			if strings.HasPrefix(msg, "document") {
				msg = field + strings.TrimPrefix(msg, "document")
			}
			return nil, apierr.Invalid(field+strings.TrimPrefix(e.Field, "document"), "%s", msg)
		}
		return nil, err
	}
	return doc, nil
}

// jsonObject decodes a JSON object given for field; null gives nil.
func jsonObject(field string, raw types.JSON) (map[string]any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, apierr.Invalid(field, "%s must be a JSON object", field)
	}
	return m, nil
}

// contentRef decodes a content reference given for field.
func contentRef(field string, raw types.JSON) (*document.ContentRef, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var ref document.ContentRef
	if err := dec.Decode(&ref); err != nil {
		return nil, apierr.Invalid(field, "%s must be a content reference {kind, ...}: %v", field, err)
	}
	return &ref, nil
}

func toJSON(v any) types.JSON {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return types.JSON(b)
}

func pagePosition(o graphql.Omittable[*model.PagePositionInput]) *content.Position {
	p := o.Value()
	if p == nil {
		return nil
	}
	return &content.Position{Before: str(p.Before), After: str(p.After)}
}

func str(o graphql.Omittable[*string]) string {
	if v := o.Value(); v != nil {
		return *v
	}
	return ""
}

// mapOpt turns an omittable JSON object into an option: null removes.
func mapOpt(field string, o graphql.Omittable[types.JSON]) (catalog.Opt[map[string]any], error) {
	if !o.IsSet() {
		return catalog.Opt[map[string]any]{}, nil
	}
	m, err := jsonObject(field, o.Value())
	if err != nil {
		return catalog.Opt[map[string]any]{}, err
	}
	return catalog.Some(m), nil
}

// pageContent returns the Markdown or document an input gives, checking
// that it gives at most one.
func pageContent(md graphql.Omittable[*string], doc graphql.Omittable[types.JSON]) (*string, *document.Document, error) {
	m := md.Value()
	raw := doc.Value()
	hasDoc := len(raw) > 0 && string(raw) != "null"
	if m != nil && hasDoc {
		return nil, nil, apierr.Invalid("markdown", "Give markdown or document, not both")
	}
	if hasDoc {
		d, err := parseDocument("document", raw)
		return nil, d, err
	}
	return m, nil, nil
}

func (r *Resolver) createPageOp(in model.CreatePageInput) (content.Op, error) {
	op := &content.CreatePage{
		Parent: str(in.Parent), Position: pagePosition(in.Position), Title: in.Title,
		Slug: str(in.Slug), Emoji: str(in.Emoji), Description: str(in.Description),
	}
	if t := in.Type.Value(); t != nil {
		op.Type = string(*t)
	}
	if h := in.Hidden.Value(); h != nil {
		op.Hidden = *h
	}
	var err error
	if op.Markdown, op.Document, err = pageContent(in.Markdown, in.Document); err != nil {
		return nil, err
	}
	if op.Link, err = contentRef("target", in.Target.Value()); err != nil {
		return nil, err
	}
	if op.Layout, err = jsonObject("layout", in.Layout.Value()); err != nil {
		return nil, err
	}
	if op.Cover, err = jsonObject("cover", in.Cover.Value()); err != nil {
		return nil, err
	}
	if op.Variables, err = jsonObject("variables", in.Variables.Value()); err != nil {
		return nil, err
	}
	return op, nil
}

func (r *Resolver) updatePageOp(in model.UpdatePageInput) (content.Op, error) {
	op := &content.UpdatePage{
		Page: in.Page, Title: in.Title.Value(), Slug: in.Slug.Value(), Emoji: in.Emoji.Value(),
		Description: in.Description.Value(), Hidden: in.Hidden.Value(),
	}
	var err error
	if op.Markdown, op.Document, err = pageContent(in.Markdown, in.Document); err != nil {
		return nil, err
	}
	if op.Link, err = contentRef("target", in.Target.Value()); err != nil {
		return nil, err
	}
	if op.Layout, err = mapOpt("layout", in.Layout); err != nil {
		return nil, err
	}
	if op.Cover, err = mapOpt("cover", in.Cover); err != nil {
		return nil, err
	}
	if op.Variables, err = mapOpt("variables", in.Variables); err != nil {
		return nil, err
	}
	return op, nil
}

func uploadOp(in model.UploadFileInput) (content.Op, error) {
	if in.File.File == nil {
		return nil, apierr.Invalid("file", "Attach the file to upload")
	}
	data, err := io.ReadAll(io.LimitReader(in.File.File, content.MaxFileSize+1))
	if err != nil {
		return nil, apierr.Invalid("file", "The upload could not be read")
	}
	if len(data) > content.MaxFileSize {
		return nil, apierr.New(apierr.TooLarge, "Files may hold at most %d bytes", content.MaxFileSize)
	}
	name := in.File.Filename
	if n := in.Name.Value(); n != nil {
		name = *n
	}
	ct := in.File.ContentType
	if ct == "application/octet-stream" {
		ct = ""
	}
	return &content.UploadFile{File: str(in.Replace), Name: name, ContentType: ct, Data: data}, nil
}

// edit applies one op to a change request and presents the outcome.
func (r *Resolver) edit(ctx context.Context, crID string, op content.Op, wantFile bool) (*model.ContentEditPayload, error) {
	res, err := r.Content.Edit(ctx, crID, op)
	if err != nil {
		return nil, err
	}
	forgetSpace(ctx, res.ChangeRequest.SpaceID)
	rev, err := r.Content.Revision(ctx, res.Revision)
	if err != nil {
		return nil, err
	}
	out := &model.ContentEditPayload{ChangeRequest: res.ChangeRequest, Revision: rev, Changed: res.Changed}
	if id := res.IDs[0]; id != "" {
		if wantFile {
			if out.File, err = r.Content.File(ctx, res.Revision, id); err != nil {
				return nil, err
			}
		} else if _, isDelete := op.(*content.DeletePage); !isDelete {
			if out.Page, err = r.Content.Page(ctx, res.Revision, id); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// mergeResult presents the outcome of a merge or an update.
func mergeResult(res *content.MergeResult) *model.MergeResult {
	out := &model.MergeResult{Result: model.MergeOutcome(res.Result), ChangeRequest: res.ChangeRequest, Conflicts: []*model.MergeConflict{}}
	if res.Revision != "" {
		rev := res.Revision
		out.Revision = &rev
	}
	for _, c := range res.Conflicts {
		mc := &model.MergeConflict{Kind: c.Kind, Message: c.Message}
		if c.Page != "" {
			mc.Page = &c.Page
		}
		if c.File != "" {
			mc.File = &c.File
		}
		if c.Variable != "" {
			mc.Variable = &c.Variable
		}
		out.Conflicts = append(out.Conflicts, mc)
	}
	return out
}

// linkReport filters links by status and counts them.
func linkReport(links []content.Link, status *model.ContentReferenceStatus) *model.ContentLinkReport {
	out := &model.ContentLinkReport{Items: []*content.Link{}, Stats: &model.ContentLinkStats{}}
	for i := range links {
		l := &links[i]
		switch l.Status {
		case content.LinkOK:
			out.Stats.Ok++
		case content.LinkBroken:
			out.Stats.Broken++
		case content.LinkInApp:
			out.Stats.InApp++
		}
		out.Stats.Total++
		if status != nil && restEnum(*status) != l.Status {
			continue
		}
		out.Items = append(out.Items, l)
	}
	return out
}

// documentLoader loads the documents of page versions for the request, a
// batch of versions per two statements.
func (r *Resolver) documentLoader(ctx context.Context) *dataloader.Loader[string, *document.Document] {
	return loaders.Keep(loaders.For(ctx), "content.documents", func() *dataloader.Loader[string, *document.Document] {
		return dataloader.NewBatchedLoader(func(ctx context.Context, keys []string) []*dataloader.Result[*document.Document] {
			docs, err := r.Content.Documents(ctx, keys)
			out := make([]*dataloader.Result[*document.Document], len(keys))
			for i, k := range keys {
				if err != nil {
					out[i] = &dataloader.Result[*document.Document]{Error: err}
				} else {
					out[i] = &dataloader.Result[*document.Document]{Data: docs[k]}
				}
			}
			return out
		}, dataloader.WithWait[string, *document.Document](loaders.Wait))
	})
}

// revisionRowLoader caches revision rows (for their variables) per request.
func (r *Resolver) revisionRow(ctx context.Context, id string) (*ent.Revision, error) {
	l := loaders.Keep(loaders.For(ctx), "content.revisionRows", func() *dataloader.Loader[string, *ent.Revision] {
		return dataloader.NewBatchedLoader(func(ctx context.Context, keys []string) []*dataloader.Result[*ent.Revision] {
			out := make([]*dataloader.Result[*ent.Revision], len(keys))
			for i, k := range keys {
				row, err := r.Content.RevisionRow(ctx, k)
				out[i] = &dataloader.Result[*ent.Revision]{Data: row, Error: err}
			}
			return out
		}, dataloader.WithWait[string, *ent.Revision](loaders.Wait))
	})
	return l.Load(ctx, id)()
}

// pageDocument returns a document page's content, evaluated as asked.
func (r *Resolver) pageDocument(ctx context.Context, p *content.Page, mode *model.PageEvaluation) (*document.Document, error) {
	if p.Type != content.TypeDocument {
		return nil, nil
	}
	doc := p.Document
	if doc == nil {
		var err error
		if doc, err = r.documentLoader(ctx).Load(ctx, p.Version)(); err != nil {
			return nil, err
		}
	}
	if doc == nil {
		doc = &document.Document{Data: map[string]any{}, Nodes: []document.Node{}}
	}
	if mode == nil || *mode == model.PageEvaluationNone {
		return doc, nil
	}
	row, err := r.revisionRow(ctx, p.Revision)
	if err != nil {
		return nil, err
	}
	m := evaluate.All
	if *mode == model.PageEvaluationDeterministicOnly {
		m = evaluate.DeterministicOnly
	}
	return evaluate.Document(doc, evaluate.Env{Space: row.Variables, Page: p.Variables}, m)
}

// defaultLayout is the layout of a page that has not set one.
var defaultLayout = model.PageLayout{
	Width: "default", Cover: true, CoverSize: "hero", Title: true, Description: true,
	TableOfContents: true, Outline: true, Pagination: true, Metadata: true,
}

func pageLayout(m map[string]any) *model.PageLayout {
	l := defaultLayout
	str := func(k string, dst *string) {
		if v, ok := m[k].(string); ok {
			*dst = v
		}
	}
	boolean := func(k string, dst *bool) {
		if v, ok := m[k].(bool); ok {
			*dst = v
		}
	}
	str("width", &l.Width)
	str("coverSize", &l.CoverSize)
	boolean("cover", &l.Cover)
	boolean("title", &l.Title)
	boolean("description", &l.Description)
	boolean("tableOfContents", &l.TableOfContents)
	boolean("outline", &l.Outline)
	boolean("pagination", &l.Pagination)
	boolean("metadata", &l.Metadata)
	return &l
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// pdfTitle is the title of a change request's PDF.
func pdfTitle(cr *ent.ChangeRequest) string {
	if cr.Subject != "" {
		return cr.Subject
	}
	return fmt.Sprintf("Change request #%d", cr.Number)
}

// templateRefs decodes the contentRefs of a template given for field.
func templateRefs(field string, raw types.JSON) (map[string]document.ContentRef, error) {
	refs := map[string]document.ContentRef{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &refs); err != nil {
			return nil, apierr.Invalid(field, "contentRefs must map parameter names to content references")
		}
	}
	return refs, nil
}

// changeRequestTemplate reads the template of a new change request; its
// errors name the template's fields.
func changeRequestTemplate(in *model.ChangeRequestTemplateInput) (*content.TemplateUse, error) {
	refs, err := templateRefs("template.contentRefs", in.ContentRefs.Value())
	if err != nil {
		return nil, err
	}
	if _, err := content.TemplateByID(in.ID); err != nil {
		return nil, underTemplate(err)
	}
	return &content.TemplateUse{ID: in.ID, Refs: refs}, nil
}

// underTemplate names template fields below "template" in an error.
func underTemplate(err error) error {
	if e, ok := apierr.As(err); ok && (e.Field == "id" || strings.HasPrefix(e.Field, "params")) {
		return apierr.Invalid("template."+e.Field, "%s", e.Message)
	}
	return err
}

func contentTemplates() []*model.ContentTemplate {
	var out []*model.ContentTemplate
	for _, t := range content.Templates() {
		ct := &model.ContentTemplate{ID: t.ID, Title: t.Title, Description: t.Description, Params: []*model.ContentTemplateParam{}}
		for _, p := range t.Params {
			ct.Params = append(ct.Params, &model.ContentTemplateParam{Name: p.Name, Description: p.Description, Kinds: p.Kinds, Required: p.Required})
		}
		out = append(out, ct)
	}
	return out
}

// applyTemplate applies a built-in template and returns the content it
// made: the change request's or the space's.
func (r *Resolver) applyTemplate(ctx context.Context, in model.ApplyTemplateInput) (*content.Revision, error) {
	sp, err := r.contentSpace(ctx, in.Space, types.RoleEdit)
	if err != nil {
		return nil, err
	}
	refs, err := templateRefs("params.contentRefs", in.ContentRefs.Value())
	if err != nil {
		return nil, err
	}
	crID := str(in.ChangeRequest)
	if crID != "" {
		cr, err := r.spaceChangeRequest(ctx, sp, &crID, nil)
		if err != nil {
			return nil, err
		}
		crID = cr.ID
	}
	if err := r.Content.ApplyTemplate(ctx, sp.ID, crID, in.Template, refs); err != nil {
		return nil, err
	}
	forgetSpace(ctx, sp.ID)
	if crID != "" {
		cr, err := r.Content.ChangeRequest(ctx, crID)
		if err != nil {
			return nil, err
		}
		return r.Content.Revision(ctx, cr.RevisionID)
	}
	fresh, _, err := r.Catalog.Space(ctx, sp.ID)
	if err != nil {
		return nil, err
	}
	return r.Content.Revision(ctx, fresh.RevisionID)
}

// revisionLinks resolves every link of a revision once per request, so that
// the links and backlinks of many pages cost one read.
func (r *Resolver) revisionLinks(ctx context.Context, revisionID string) ([]content.Link, error) {
	type once struct {
		sync.Once
		links []content.Link
		err   error
	}
	o := loaders.Keep(loaders.For(ctx), "content.links."+revisionID, func() *once { return &once{} })
	o.Do(func() { o.links, o.err = r.Content.Links(ctx, revisionID, nil) })
	return o.links, o.err
}

// pageLinks are the links held by one page of a revision.
func (r *Resolver) pageLinks(ctx context.Context, p *content.Page) ([]content.Link, error) {
	all, err := r.revisionLinks(ctx, p.Revision)
	if err != nil {
		return nil, err
	}
	var out []content.Link
	for _, l := range all {
		if l.Page == p.ID {
			out = append(out, l)
		}
	}
	return out, nil
}

// backlinks are the links of a revision that point at a page or a file of
// it (kind "page" or "file").
func (r *Resolver) backlinks(ctx context.Context, revisionID, spaceID, kind, id string) ([]*content.Link, error) {
	all, err := r.revisionLinks(ctx, revisionID)
	if err != nil {
		return nil, err
	}
	out := []*content.Link{}
	for i := range all {
		ref := all[i].Ref
		sameSpace := ref.Space == "" || ref.Space == spaceID
		switch {
		case kind == "page" && sameSpace && (ref.Kind == document.RefPage || ref.Kind == document.RefAnchor) && ref.Page == id,
			kind == "file" && ref.Kind == document.RefFile && ref.File == id:
			out = append(out, &all[i])
		}
	}
	return out, nil
}
