package rest

import (
	"context"
	"net/http"

	"github.com/99designs/gqlgen/graphql"

	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/types"
)

func (a *API) table() []Route {
	return append(append(a.coreRoutes(), a.siteRoutes()...), a.contentRoutes()...)
}

func (a *API) coreRoutes() []Route {
	return []Route{
		op("GET", "/openapi.json", "This API's OpenAPI 3.1 document (no token needed)", a.getOpenAPI).Returns(200, map[string]any{}),
		op("GET", "/user", "Get the authenticated user", a.getUser).Returns(200, User{}),
		op("GET", "/orgs", "List the caller's organizations", a.listOrgs).List(Organization{}),
		op("GET", "/orgs/{organizationId}", "Get an organization", a.getOrg).Returns(200, Organization{}),
		op("GET", "/orgs/{organizationId}/collections", "List an organization's collections", a.listOrgCollections).List(Collection{}).Query(qNested),
		op("POST", "/orgs/{organizationId}/collections", "Create a collection", a.createCollection).Body(CreateCollectionBody{}).Returns(201, Collection{}),
		op("GET", "/orgs/{organizationId}/spaces", "List an organization's spaces", a.listOrgSpaces).List(Space{}),
		op("POST", "/orgs/{organizationId}/spaces", "Create a space", a.createSpace).Body(CreateSpaceBody{}).Returns(201, Space{}),
		op("GET", "/collections/{collectionId}", "Get a collection", a.getCollection).Returns(200, Collection{}),
		op("PATCH", "/collections/{collectionId}", "Update a collection", a.updateCollection).Body(UpdateCollectionBody{}).Returns(200, Collection{}),
		op("DELETE", "/collections/{collectionId}", "Delete a collection", a.deleteCollection).Deletes(),
		op("GET", "/collections/{collectionId}/spaces", "List the spaces of a collection", a.listCollectionSpaces).List(Space{}),
		op("POST", "/collections/{collectionId}/move", "Move a collection", a.moveCollection).Body(MoveBody{}).Returns(200, Collection{}).Errors(409),
		op("POST", "/collections/{collectionId}/transfer", "Transfer a collection to another organization", a.transferCollection).Body(TransferBody{}).Returns(200, Collection{}).Errors(409, 412),
		op("GET", "/spaces/{spaceId}", "Get a space", a.getSpace).Query(qShareKey).Returns(200, Space{}),
		op("PATCH", "/spaces/{spaceId}", "Update a space", a.updateSpace).Body(UpdateSpaceBody{}).Returns(200, Space{}),
		op("DELETE", "/spaces/{spaceId}", "Delete a space", a.deleteSpace).Deletes(),
		op("POST", "/spaces/{spaceId}/duplicate", "Duplicate a space", a.duplicateSpace).Returns(201, Space{}),
		op("POST", "/spaces/{spaceId}/restore", "Restore a deleted space", a.restoreSpace).Returns(200, Space{}),
		op("POST", "/spaces/{spaceId}/move", "Move a space", a.moveSpace).Body(MoveBody{}).Returns(200, Space{}).Errors(409),
		op("POST", "/spaces/{spaceId}/transfer", "Transfer a space to another organization", a.transferSpace).Body(TransferBody{}).Returns(200, Space{}).Errors(409, 412),
	}
}

func (a *API) getOpenAPI(ctx context.Context, req *Request) (int, any, error) {
	a.docOnce.Do(func() { a.doc = a.OpenAPI(a.r.PublicURL) })
	return http.StatusOK, a.doc, nil
}

func (a *API) getUser(ctx context.Context, req *Request) (int, any, error) {
	u, err := a.r.Query().Viewer(ctx)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentUser(ctx, u)
	return http.StatusOK, out, err
}

func (a *API) listOrgs(ctx context.Context, req *Request) (int, any, error) {
	args, err := listArgs(req)
	if err != nil {
		return 0, nil, err
	}
	conn, err := a.r.Query().Organizations(ctx, args.First, args.After, nil, nil)
	if err != nil {
		return 0, nil, err
	}
	items, err := presentAll(ctx, conn.Nodes, a.presentOrganization)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, envelope(items, conn.TotalCount, conn.PageInfo.HasNextPage, conn.PageInfo.EndCursor), nil
}

func (a *API) getOrg(ctx context.Context, req *Request) (int, any, error) {
	o, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentOrganization(ctx, o)
	return http.StatusOK, out, err
}

func (a *API) listOrgCollections(ctx context.Context, req *Request) (int, any, error) {
	args, err := listArgs(req)
	if err != nil {
		return 0, nil, err
	}
	nested, err := boolQuery(req, "nested")
	if err != nil {
		return 0, nil, err
	}
	o, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
	if err != nil {
		return 0, nil, err
	}
	conn, err := a.r.Organization().Collections(ctx, o, args.First, args.After, nil, nil, nested)
	if err != nil {
		return 0, nil, err
	}
	items, err := presentAll(ctx, conn.Nodes, a.presentCollection)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, envelope(items, conn.TotalCount, conn.PageInfo.HasNextPage, conn.PageInfo.EndCursor), nil
}

func (a *API) createCollection(ctx context.Context, req *Request) (int, any, error) {
	b, err := decodeBody(req, false)
	if err != nil {
		return 0, nil, err
	}
	in := model.CreateCollectionInput{Organization: req.Param("organizationId")}
	if in.Title, err = b.omitStr("title"); err != nil {
		return 0, nil, err
	}
	if in.Parent, err = b.omitStr("parent"); err != nil {
		return 0, nil, err
	}
	c, err := a.r.Mutation().CreateCollection(ctx, in)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentCollection(ctx, c)
	if err == nil {
		req.Header.Set("Location", out.URLs.Location)
	}
	return http.StatusCreated, out, err
}

func (a *API) listOrgSpaces(ctx context.Context, req *Request) (int, any, error) {
	args, err := listArgs(req)
	if err != nil {
		return 0, nil, err
	}
	o, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
	if err != nil {
		return 0, nil, err
	}
	conn, err := a.r.Organization().Spaces(ctx, o, args.First, args.After, nil, nil)
	if err != nil {
		return 0, nil, err
	}
	items, err := presentAll(ctx, conn.Nodes, a.presentSpace)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, envelope(items, conn.TotalCount, conn.PageInfo.HasNextPage, conn.PageInfo.EndCursor), nil
}

func (a *API) createSpace(ctx context.Context, req *Request) (int, any, error) {
	b, err := decodeBody(req, false)
	if err != nil {
		return 0, nil, err
	}
	in := model.CreateSpaceInput{Organization: req.Param("organizationId")}
	if in.Title, err = b.omitStr("title"); err != nil {
		return 0, nil, err
	}
	if in.Emoji, err = b.omitStr("emoji"); err != nil {
		return 0, nil, err
	}
	if in.Parent, err = b.omitStr("parent"); err != nil {
		return 0, nil, err
	}
	if in.Language, err = omitEnum[types.Language](b, "language"); err != nil {
		return 0, nil, err
	}
	if in.EditMode, err = omitEnum[types.EditMode](b, "editMode"); err != nil {
		return 0, nil, err
	}
	if b.has("empty") {
		var empty bool
		if err := b.decodeInto("empty", &empty, "a boolean"); err != nil {
			return 0, nil, err
		}
	}
	if b.has("template") || b.has("computedSource") {
		return 0, nil, apierr.Invalid("template", "Creating a space from a template or computed source is not supported yet; create it empty")
	}
	s, err := a.r.Mutation().CreateSpace(ctx, in)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentSpace(ctx, s)
	if err == nil {
		req.Header.Set("Location", out.URLs.Location)
	}
	return http.StatusCreated, out, err
}

func (a *API) getCollection(ctx context.Context, req *Request) (int, any, error) {
	c, err := a.r.Query().Collection(ctx, req.Param("collectionId"))
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentCollection(ctx, c)
	return http.StatusOK, out, err
}

func (a *API) updateCollection(ctx context.Context, req *Request) (int, any, error) {
	b, err := decodeBody(req, true)
	if err != nil {
		return 0, nil, err
	}
	var in model.UpdateCollectionInput
	if in.Title, err = b.omitStr("title"); err != nil {
		return 0, nil, err
	}
	if in.Description, err = b.omitStr("description"); err != nil {
		return 0, nil, err
	}
	if in.DefaultLevel, err = omitEnum[types.DefaultLevel](b, "defaultLevel"); err != nil {
		return 0, nil, err
	}
	c, err := a.r.Mutation().UpdateCollection(ctx, req.Param("collectionId"), in)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentCollection(ctx, c)
	return http.StatusOK, out, err
}

// deleted answers 205 when the object was deleted, 204 when it did not exist.
func deleted(p *model.DeletePayload, err error) (int, any, error) {
	if err != nil {
		return 0, nil, err
	}
	if p.Deleted {
		return http.StatusResetContent, nil, nil
	}
	return http.StatusNoContent, nil, nil
}

func (a *API) deleteCollection(ctx context.Context, req *Request) (int, any, error) {
	return deleted(a.r.Mutation().DeleteCollection(ctx, req.Param("collectionId")))
}

func (a *API) listCollectionSpaces(ctx context.Context, req *Request) (int, any, error) {
	args, err := listArgs(req)
	if err != nil {
		return 0, nil, err
	}
	c, err := a.r.Query().Collection(ctx, req.Param("collectionId"))
	if err != nil {
		return 0, nil, err
	}
	conn, err := a.r.Collection().Spaces(ctx, c, args.First, args.After, nil, nil)
	if err != nil {
		return 0, nil, err
	}
	items, err := presentAll(ctx, conn.Nodes, a.presentSpace)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, envelope(items, conn.TotalCount, conn.PageInfo.HasNextPage, conn.PageInfo.EndCursor), nil
}

// moveBody decodes {parent?, position?: {before?, after?}}.
func moveBody(req *Request) (model.MoveInput, error) {
	var in model.MoveInput
	b, err := decodeBody(req, true)
	if err != nil {
		return in, err
	}
	if len(b) == 0 {
		return in, apierr.Invalid("parent", "Provide parent and/or position")
	}
	if in.Parent, err = b.omitStr("parent"); err != nil {
		return in, err
	}
	if b.has("position") && !b.null("position") {
		var raw struct {
			Before *pointerJSON `json:"before"`
			After  *pointerJSON `json:"after"`
		}
		if err := b.decodeInto("position", &raw, "an object with before and/or after"); err != nil {
			return in, err
		}
		pos := &model.ContentPositionInput{}
		for _, p := range []struct {
			field string
			ptr   *pointerJSON
			dst   *graphql.Omittable[*model.ContentPointerInput]
		}{{"before", raw.Before, &pos.Before}, {"after", raw.After, &pos.After}} {
			if p.ptr == nil {
				continue
			}
			typ := model.ContentPointerType(p.ptr.Type)
			if !typ.IsValid() {
				return in, apierr.Invalid("position."+p.field+".type", "position.%s.type must be \"space\" or \"collection\"", p.field)
			}
			*p.dst = graphql.OmittableOf(&model.ContentPointerInput{
				Type: typ, Space: graphql.OmittableOf(p.ptr.Space), Collection: graphql.OmittableOf(p.ptr.Collection),
			})
		}
		in.Position = graphql.OmittableOf(pos)
	}
	return in, nil
}

type pointerJSON struct {
	Type       string  `json:"type"`
	Space      *string `json:"space"`
	Collection *string `json:"collection"`
}

func (a *API) moveCollection(ctx context.Context, req *Request) (int, any, error) {
	in, err := moveBody(req)
	if err != nil {
		return 0, nil, err
	}
	c, err := a.r.Mutation().MoveCollection(ctx, req.Param("collectionId"), in)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentCollection(ctx, c)
	return http.StatusOK, out, err
}

func (a *API) transferCollection(ctx context.Context, req *Request) (int, any, error) {
	b, err := decodeBody(req, true)
	if err != nil {
		return 0, nil, err
	}
	org, err := b.reqStr("organization")
	if err != nil {
		return 0, nil, err
	}
	c, err := a.r.Mutation().TransferCollection(ctx, req.Param("collectionId"), org)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentCollection(ctx, c)
	return http.StatusOK, out, err
}

func (a *API) getSpace(ctx context.Context, req *Request) (int, any, error) {
	var shareKey *string
	if v := req.HTTP.URL.Query().Get("shareKey"); v != "" {
		shareKey = &v
	}
	s, err := a.r.Query().Space(ctx, req.Param("spaceId"), shareKey)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentSpace(ctx, s)
	return http.StatusOK, out, err
}

func (a *API) updateSpace(ctx context.Context, req *Request) (int, any, error) {
	b, err := decodeBody(req, true)
	if err != nil {
		return 0, nil, err
	}
	var in model.UpdateSpaceInput
	if in.Title, err = b.omitStr("title"); err != nil {
		return 0, nil, err
	}
	if in.Emoji, err = b.omitStr("emoji"); err != nil {
		return 0, nil, err
	}
	if in.Icon, err = b.omitStr("icon"); err != nil {
		return 0, nil, err
	}
	if in.EditMode, err = omitEnum[types.EditMode](b, "editMode"); err != nil {
		return 0, nil, err
	}
	if in.DefaultLevel, err = omitEnum[types.DefaultLevel](b, "defaultLevel"); err != nil {
		return 0, nil, err
	}
	if in.Language, err = omitEnum[types.Language](b, "language"); err != nil {
		return 0, nil, err
	}
	if b.has("mergeRules") {
		if b.null("mergeRules") {
			in.MergeRules = graphql.OmittableOf[*model.MergeRulesInput](nil)
		} else {
			var mr struct {
				Type  string `json:"type"`
				Rules []struct {
					Rule       string   `json:"rule"`
					Users      []string `json:"users"`
					Expression *string  `json:"expression"`
				} `json:"rules"`
			}
			if err := b.decodeInto("mergeRules", &mr, "a merge rules object"); err != nil {
				return 0, nil, err
			}
			m := &model.MergeRulesInput{Type: mr.Type}
			var rules []*model.MergeRuleInput
			for _, r := range mr.Rules {
				rules = append(rules, &model.MergeRuleInput{Rule: r.Rule, Users: graphql.OmittableOf(r.Users), Expression: graphql.OmittableOf(r.Expression)})
			}
			m.Rules = graphql.OmittableOf(rules)
			in.MergeRules = graphql.OmittableOf(m)
		}
	}
	s, err := a.r.Mutation().UpdateSpace(ctx, req.Param("spaceId"), in)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentSpace(ctx, s)
	return http.StatusOK, out, err
}

func (a *API) deleteSpace(ctx context.Context, req *Request) (int, any, error) {
	return deleted(a.r.Mutation().DeleteSpace(ctx, req.Param("spaceId")))
}

func (a *API) duplicateSpace(ctx context.Context, req *Request) (int, any, error) {
	s, err := a.r.Mutation().DuplicateSpace(ctx, req.Param("spaceId"))
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentSpace(ctx, s)
	if err == nil {
		req.Header.Set("Location", out.URLs.Location)
	}
	return http.StatusCreated, out, err
}

func (a *API) restoreSpace(ctx context.Context, req *Request) (int, any, error) {
	s, err := a.r.Mutation().RestoreSpace(ctx, req.Param("spaceId"))
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentSpace(ctx, s)
	return http.StatusOK, out, err
}

func (a *API) moveSpace(ctx context.Context, req *Request) (int, any, error) {
	in, err := moveBody(req)
	if err != nil {
		return 0, nil, err
	}
	s, err := a.r.Mutation().MoveSpace(ctx, req.Param("spaceId"), in)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentSpace(ctx, s)
	return http.StatusOK, out, err
}

func (a *API) transferSpace(ctx context.Context, req *Request) (int, any, error) {
	b, err := decodeBody(req, true)
	if err != nil {
		return 0, nil, err
	}
	org, err := b.reqStr("organization")
	if err != nil {
		return 0, nil, err
	}
	s, err := a.r.Mutation().TransferSpace(ctx, req.Param("spaceId"), org)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentSpace(ctx, s)
	return http.StatusOK, out, err
}
