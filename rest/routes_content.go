package rest

import (
	"context"
	"encoding/json"

	"quire/ent"
	"quire/graph"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/types"
)

// The reads of content: a space's current revision, or a change request's.

func (a *API) contentRoutes() []Route {
	const s = "/spaces/{spaceId}"
	routes := []Route{
		route("GET", s+"/links", "Report every link and content reference of a space's content", func(ctx context.Context, req *Request, in *LinkParams) (*linkReport, error) {
			sc, err := a.spaceScope(ctx, req)
			if err != nil {
				return nil, err
			}
			report, err := a.r.Revision().Links(ctx, sc.rev, in.status())
			return &linkReport{scope: sc, report: report, args: in.Args()}, err
		}).Present(a.linkReports()),
		route("GET", changeRequestPath+"/links", "Report every link and content reference of a change request's content", func(ctx context.Context, req *Request, in *LinkParams) (*linkReport, error) {
			sc, err := a.changeRequestScope(ctx, req)
			if err != nil {
				return nil, err
			}
			report, err := a.r.Revision().Links(ctx, sc.rev, in.status())
			return &linkReport{scope: sc, report: report, args: in.Args()}, err
		}).Present(a.linkReports()),
	}
	routes = append(routes, route("POST", s+"/content/computed/document", "Compute the document a computed source generates (an API reference from one of the organization's OpenAPI specifications), without a page", func(ctx context.Context, req *Request, in *ComputedDocumentBody) (json.RawMessage, error) {
		doc, err := a.r.ComputedDocument(ctx, req.Param("spaceId"), types.JSON(in.Source.JSON), in.Seed)
		if err != nil {
			return nil, err
		}
		return json.Marshal(doc)
	}).Present(asIs[json.RawMessage]()))
	routes = append(routes, a.reusableRoutes()...)
	routes = append(routes, a.contentReads(s+"/content", "a space", a.spaceScope)...)
	return append(routes, a.contentReads(changeRequestPath+"/content", "a change request", a.changeRequestScope)...)
}

// contentReads are the reads of a revision, under the space's content or a
// change request's.
func (a *API) contentReads(base, of string, sc scopeFunc) []Route {
	files, locations := a.files(), a.locations()
	return []Route{
		route("GET", base, "Get the content (current revision) of "+of, func(ctx context.Context, req *Request, _ *CompatParams) (*graph.Revision, error) {
			s, err := sc(ctx, req)
			if err != nil {
				return nil, err
			}
			return s.rev, nil
		}).Present(a.revisions()),

		route("GET", base+"/pages", "List the page tree of "+of, func(ctx context.Context, req *Request, _ *CompatParams) ([]*graph.ContentPage, error) {
			s, err := sc(ctx, req)
			if err != nil {
				return nil, err
			}
			return s.rev.Pages, nil
		}).Present(a.pageTrees()),

		route("GET", base+"/files", "List the files of "+of, func(ctx context.Context, req *Request, in *FileListParams) (*ListPage[*graph.ContentFile], error) {
			s, err := sc(ctx, req)
			if err != nil {
				return nil, err
			}
			items, total, next, err := graph.PageOfList(s.rev.Files, in.Args())
			return &ListPage[*graph.ContentFile]{Items: items, Total: total, Next: next}, err
		}).Present(files.List()),

		route("GET", base+"/files/{fileId}", "Get a file of "+of, func(ctx context.Context, req *Request, _ *CompatParams) (*graph.ContentFile, error) {
			_, f, err := a.file(ctx, req, sc)
			return f, err
		}).Present(files),

		route("GET", base+"/files/{fileId}/backlinks", "List the pages of "+of+" that refer to a file", func(ctx context.Context, req *Request, in *ListParams) (*pagesAt, error) {
			s, f, err := a.file(ctx, req, sc)
			if err != nil {
				return nil, err
			}
			links, err := a.r.File().Backlinks(ctx, f)
			if err != nil {
				return nil, err
			}
			return linkingPages(s, links, in.Args())
		}).Present(locations),

		route("GET", base+"/page/{pageId}", "Get a page of "+of, func(ctx context.Context, req *Request, in *PageParams) (*pageRead, error) {
			_, p, err := a.page(ctx, req, sc)
			if err != nil {
				return nil, err
			}
			return &pageRead{page: p, markdown: in.Format == "markdown", eval: in.evaluation(), computed: in.Computed == nil || *in.Computed,
				deref: in.Dereferenced == "true" || in.Dereferenced == "reusable-contents"}, nil
		}).Present(a.pageReads()),

		route("GET", base+"/page/{pageId}/links", "Report the links and content references of a page of "+of, func(ctx context.Context, req *Request, in *LinkParams) (*linkReport, error) {
			s, p, err := a.page(ctx, req, sc)
			if err != nil {
				return nil, err
			}
			report, err := a.r.Page().Links(ctx, p, in.status())
			return &linkReport{scope: s, report: report, args: in.Args()}, err
		}).Present(a.linkReports()),

		route("GET", base+"/page/{pageId}/backlinks", "List the pages of "+of+" that refer to a page", func(ctx context.Context, req *Request, in *ListParams) (*pagesAt, error) {
			s, p, err := a.page(ctx, req, sc)
			if err != nil {
				return nil, err
			}
			links, err := a.r.Page().Backlinks(ctx, p)
			if err != nil {
				return nil, err
			}
			return linkingPages(s, links, in.Args())
		}).Present(locations),
	}
}

// scope is the content a read works on: a space's, or a change request's.
type scope struct {
	space *ent.Space
	cr    *ent.ChangeRequest // nil for the space's content
	rev   *graph.Revision
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

func (a *API) file(ctx context.Context, req *Request, sc scopeFunc) (*scope, *graph.ContentFile, error) {
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

// page reads a page of the scope's revision, with its children.
func (a *API) page(ctx context.Context, req *Request, sc scopeFunc) (*scope, *graph.ContentPage, error) {
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

func findPage(pages []*graph.ContentPage, id string) *graph.ContentPage {
	var found *graph.ContentPage
	graph.WalkPages(pages, func(p *graph.ContentPage) {
		if found == nil && p.ID == id {
			found = p
		}
	})
	return found
}

// evaluation is the evaluated parameter as the resolvers take it.
func (p *PageParams) evaluation() model.PageEvaluation {
	switch p.Evaluated {
	case "true":
		return model.PageEvaluationAll
	case "deterministic-only":
		return model.PageEvaluationDeterministicOnly
	}
	return model.PageEvaluationNone
}

// status is the status filter as the resolvers take it.
func (p *LinkParams) status() *model.ContentReferenceStatus {
	if p.Status == "" {
		return nil
	}
	st := model.ContentReferenceStatus(gqlSpelling(p.Status))
	return &st
}
