package rest

import (
	"context"
	"strconv"

	"github.com/99designs/gqlgen/graphql"

	"quire/ent"
	"quire/graph"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/nonempty"
	"quire/internal/types"
)

// changeRequestPath is the path of a change request, by id or number.
const changeRequestPath = "/spaces/{spaceId}/change-requests/{changeRequestId}"

func (a *API) changeRequestRoutes() []Route {
	const s, cr = "/spaces/{spaceId}", changeRequestPath
	crs, merges := a.changeRequests(), a.merges()
	return []Route{
		route("POST", s+"/content/template", "Apply a content template to a space (or, with changeRequestId, to a change request)", func(ctx context.Context, req *Request, in *ApplyTemplateBody) (*graph.Revision, error) {
			sp, err := a.r.Query().Space(ctx, req.Param("spaceId"), nil)
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().ApplyTemplate(ctx, model.ApplyTemplateInput{
				Space: sp.ID, Template: in.ID, ContentRefs: in.Params.refs(), ChangeRequest: in.ChangeRequestID.Omittable(),
			})
		}).Present(nothing[*graph.Revision]()).Created().Errors(409),

		route("GET", s+"/change-requests", "List a space's change requests", func(ctx context.Context, req *Request, in *ChangeRequestListParams) (*ListPage[*ent.ChangeRequest], error) {
			sp, err := a.r.Query().Space(ctx, req.Param("spaceId"), nil)
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Space().ChangeRequestList(ctx, sp, in.First(), in.After(), nil, nil, in.status(), nonempty.String(in.Creator), nonempty.String(in.Contributor), in.orderBy(), nonempty.String(in.RequestedReviewer), nonempty.String(in.ConversationsIssuesCluster))
			return in.page(conn, err)
		}).Present(crs.List()),

		route("POST", s+"/change-requests", "Create a change request", func(ctx context.Context, req *Request, in *CreateChangeRequestBody) (*ent.ChangeRequest, error) {
			sp, err := a.r.Query().Space(ctx, req.Param("spaceId"), nil)
			if err != nil {
				return nil, err
			}
			cin := model.CreateChangeRequestInput{Space: sp.ID, Subject: in.Subject.Omittable(), ConversationsIssuesCluster: in.ConversationsIssuesCluster.Omittable()}
			if t := in.Template; t != nil {
				cin.Template = graphql.OmittableOf(&model.ChangeRequestTemplateInput{ID: t.ID, ContentRefs: t.Params.refs()})
			}
			// The template is applied in the same transaction: if it fails,
			// no change request is created.
			return a.r.Mutation().CreateChangeRequest(ctx, cin)
		}).Present(crs).Created().OptionalBody().Creating(),

		route("GET", cr, "Get a change request by id or number", func(ctx context.Context, req *Request, _ *NoInput) (*ent.ChangeRequest, error) {
			_, c, err := a.changeRequest(ctx, req)
			return c, err
		}).Present(crs),

		route("PATCH", cr, "Update a change request", func(ctx context.Context, req *Request, in *UpdateChangeRequestBody) (*ent.ChangeRequest, error) {
			_, c, err := a.changeRequest(ctx, req)
			if err != nil {
				return nil, err
			}
			pin := model.PatchChangeRequestInput{Subject: in.Subject.Omittable(), ConversationsIssuesCluster: in.ConversationsIssuesCluster.Omittable()}
			if in.Description.IsSet() {
				var raw types.JSON
				if d, ok := in.Description.Get(); ok {
					raw = types.JSON(d.JSON)
				}
				pin.Description = graphql.OmittableOf(raw)
			}
			if st, ok := in.Status.Get(); ok {
				s := model.ChangeRequestStatus(st)
				pin.Status = graphql.OmittableOf(&s)
			}
			return a.r.Mutation().PatchChangeRequest(ctx, c.ID, pin)
		}).Present(crs),

		route("POST", cr+"/merge", "Merge a change request into its space", func(ctx context.Context, req *Request, _ *NoInput) (merged, error) {
			_, c, err := a.changeRequest(ctx, req)
			if err != nil {
				return merged{}, err
			}
			res, err := a.r.Mutation().MergeChangeRequest(ctx, c.ID)
			return merged{res, c}, err
		}).Present(merges).Errors(409, 412),

		route("POST", cr+"/update", "Bring the space's content into a change request", func(ctx context.Context, req *Request, _ *NoInput) (merged, error) {
			_, c, err := a.changeRequest(ctx, req)
			if err != nil {
				return merged{}, err
			}
			res, err := a.r.Mutation().UpdateChangeRequest(ctx, c.ID)
			return merged{res, c}, err
		}).Present(merges).Errors(409),

		route("GET", cr+"/pdf", "Get a link to a PDF of a change request's content", func(ctx context.Context, req *Request, in *PDFParams) (string, error) {
			page := nonempty.String(in.Page)
			if in.Only != nil && *in.Only && page == nil {
				return "", apierr.Invalid("page", "page is required when only is true")
			}
			if in.Only != nil && !*in.Only {
				page = nil
			}
			_, c, err := a.changeRequest(ctx, req)
			if err != nil {
				return "", err
			}
			return a.r.ChangeRequest().PDF(ctx, c, page)
		}).Present(pdfLinks),

		route("GET", "/orgs/{organizationId}/change-requests", "List the change requests of an organization's spaces", func(ctx context.Context, req *Request, in *ChangeRequestListParams) (*ListPage[*ent.ChangeRequest], error) {
			o, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Organization().ChangeRequests(ctx, o, in.First(), in.After(), nil, nil, in.status(), nonempty.String(in.Creator), nonempty.String(in.Contributor), in.orderBy(), nonempty.String(in.RequestedReviewer), nonempty.String(in.ConversationsIssuesCluster))
			return in.page(conn, err)
		}).Present(crs.List()),
	}
}

// refs are the template's content references as the resolvers take them.
func (p *TemplateParamsBody) refs() graphql.Omittable[types.JSON] {
	if p == nil || p.ContentRefs == nil {
		return graphql.Omittable[types.JSON]{}
	}
	return graphql.OmittableOf(types.JSON(p.ContentRefs.JSON))
}

func (p *ChangeRequestListParams) status() []model.ChangeRequestStatus {
	if len(p.Status) == 0 {
		return []model.ChangeRequestStatus{model.ChangeRequestStatusOpen}
	}
	out := make([]model.ChangeRequestStatus, len(p.Status))
	for i, s := range p.Status {
		out[i] = model.ChangeRequestStatus(s)
	}
	return out
}

func (p *ChangeRequestListParams) orderBy() *model.ChangeRequestOrderBy {
	if p.OrderBy == "" {
		return nil
	}
	o := model.ChangeRequestOrderBy(p.OrderBy)
	return &o
}

// page is the list to present.
func (p *ChangeRequestListParams) page(conn *model.ChangeRequestConnection, err error) (*ListPage[*ent.ChangeRequest], error) {
	if err != nil {
		return nil, err
	}
	return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
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
