package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/types"
)

func (a *API) siteRoutes() []Route {
	const s = "/orgs/{organizationId}/sites/{siteId}"
	return []Route{
		op("GET", "/orgs/{organizationId}/sites", "List an organization's docs sites", a.listSites).List(Site{}).Query(qSiteSpace, qSiteTitle, qSitePublished, qSiteType),
		op("POST", "/orgs/{organizationId}/sites", "Create a docs site", a.createSite).Body(CreateSiteBody{}).Returns(201, Site{}),
		op("GET", s, "Get a docs site", a.getSite).Query(qShareKey).Returns(200, Site{}),
		op("PATCH", s, "Update a docs site", a.updateSite).Body(UpdateSiteBody{}).Returns(200, Site{}),
		op("DELETE", s, "Delete a docs site", a.deleteSite).Deletes(),
		op("POST", s+"/publish", "Publish a docs site", a.publishSite).Returns(200, Site{}),
		op("POST", s+"/unpublish", "Unpublish a docs site", a.unpublishSite).Returns(200, Site{}),
		op("GET", s+"/published", "Get the published profile of a docs site", a.getPublished).Query(qShareKey).Returns(200, PublishedContentSite{}),
		op("GET", s+"/structure", "Get the structure of a docs site", a.getStructure).Query(qShareKey).Returns(200, SiteStructure{}),
		op("PATCH", s+"/structure/sort", "Move an item of a docs site's structure", a.sortStructure).Body(SortStructureBody{}).Returns(200, StructureItem{}),
		op("GET", s+"/site-spaces", "List the site spaces of a docs site", a.listSiteSpaces).Query(qShareKey, qDefault).List(SiteSpace{}),
		op("POST", s+"/site-spaces", "Add a space to a docs site", a.addSiteSpace).Body(AddSiteSpaceBody{}).Returns(201, SiteSpace{}),
		op("PATCH", s+"/site-spaces/{siteSpaceId}", "Update a site space", a.updateSiteSpace).Body(UpdateSiteSpaceBody{}).Returns(200, SiteSpace{}),
		op("DELETE", s+"/site-spaces/{siteSpaceId}", "Remove a site space", a.deleteSiteSpace).Deletes(),
		op("POST", s+"/site-spaces/{siteSpaceId}/move", "Move a site space (deprecated: use structure/sort)", a.moveSiteSpace).Body(LegacyMoveBody{}).Returns(200, SiteSpace{}).Deprecated(),
		op("GET", s+"/site-spaces/{siteSpaceId}/customization", "Get a site space's customization", a.getSiteSpaceCustomization).Returns(200, CustomizationSettings{}),
		op("PATCH", s+"/site-spaces/{siteSpaceId}/customization", "Override a site space's customization", a.overrideSiteSpaceCustomization).Body(CustomizationSettings{}).Returns(200, CustomizationSettings{}),
		op("DELETE", s+"/site-spaces/{siteSpaceId}/customization", "Remove a site space's customization overrides", a.deleteSiteSpaceCustomization).Deletes(),
		op("GET", s+"/sections", "List the sections of a docs site", a.listSections).Query(qShareKey).List(SiteSection{}),
		op("POST", s+"/sections", "Add a section to a docs site", a.addSection).Body(AddSectionBody{}).Returns(201, SiteSection{}),
		op("PATCH", s+"/sections/{siteSectionId}", "Update a section", a.updateSection).Body(UpdateSectionBody{}).Returns(200, SiteSection{}),
		op("DELETE", s+"/sections/{siteSectionId}", "Delete a section", a.deleteSection).Deletes(),
		op("POST", s+"/sections/{siteSectionId}/move", "Move a section (deprecated: use structure/sort)", a.moveSection).Body(LegacyMoveBody{}).Returns(200, SiteSection{}).Deprecated(),
		op("GET", s+"/section-groups", "List the section groups of a docs site", a.listGroups).List(SiteSectionGroup{}),
		op("POST", s+"/section-groups", "Create a section group", a.createGroup).Body(CreateGroupBody{}).Returns(201, SiteSectionGroup{}),
		op("PATCH", s+"/section-groups/{siteSectionGroupId}", "Update a section group", a.updateGroup).Body(UpdateGroupBody{}).Returns(200, SiteSectionGroup{}),
		op("DELETE", s+"/section-groups/{siteSectionGroupId}", "Delete a section group", a.deleteGroup).Deletes(),
		op("POST", s+"/section-groups/{siteSectionGroupId}/sections", "Add a section to a group", a.addSectionToGroup).Body(AddSectionToGroupBody{}).Returns(201, SiteSectionGroup{}),
		op("DELETE", s+"/section-groups/{siteSectionGroupId}/sections/{siteSectionId}", "Remove a section from a group", a.removeSectionFromGroup).Deletes(),
		op("POST", s+"/section-groups/{siteSectionGroupId}/move", "Move a section group (deprecated: use structure/sort)", a.moveGroup).Body(LegacyMoveBody{}).Returns(200, SiteSectionGroup{}).Deprecated(),
		op("GET", s+"/customization", "Get a docs site's customization", a.getCustomization).Returns(200, CustomizationSettings{}),
		op("PUT", s+"/customization", "Replace a docs site's customization", a.putCustomization).Body(CustomizationSettings{}).Returns(200, CustomizationSettings{}),
		op("GET", s+"/adaptive-schema", "Get a docs site's visitor attributes schema", a.getAdaptiveSchema).Returns(200, AdaptiveSchema{}),
		op("PUT", s+"/adaptive-schema", "Set a docs site's visitor attributes schema", a.putAdaptiveSchema).Body(AdaptiveSchemaBody{}).Returns(200, AdaptiveSchema{}),
		op("GET", s+"/adaptive-schema/template-conditions", "List example conditions from the visitor attributes schema", a.listTemplateConditions).Returns(200, TemplateConditions{}),
		op("GET", s+"/share-links", "List a docs site's share links", a.listShareLinks).List(ShareLink{}),
		op("POST", s+"/share-links", "Create a share link", a.createShareLink).Body(CreateShareLinkBody{}).Returns(201, ShareLink{}),
		op("PATCH", s+"/share-links/{shareLinkId}", "Update a share link", a.updateShareLink).Body(UpdateShareLinkBody{}).Returns(200, ShareLink{}),
		op("DELETE", s+"/share-links/{shareLinkId}", "Delete a share link", a.deleteShareLink).Deletes(),
	}
}

// site resolves the path's site, 404 when it is not in the path's
// organization.
func (a *API) site(ctx context.Context, req *Request) (*ent.Site, error) {
	if _, err := a.r.Query().Organization(ctx, req.Param("organizationId")); err != nil {
		return nil, err
	}
	st, err := a.r.Query().Site(ctx, req.Param("siteId"))
	if err != nil {
		return nil, err
	}
	if st.OrganizationID != req.Param("organizationId") {
		return nil, apierr.NotFoundf("No matching site found for id %q", req.Param("siteId"))
	}
	return st, nil
}

func shareKey(req *Request) *string {
	if v := req.HTTP.URL.Query().Get("shareKey"); v != "" {
		return &v
	}
	return nil
}

func (a *API) listSites(ctx context.Context, req *Request) (int, any, error) {
	args, err := listArgs(req)
	if err != nil {
		return 0, nil, err
	}
	q := req.HTTP.URL.Query()
	var space, title *string
	if v := q.Get("space"); v != "" {
		space = &v
	}
	if v := q.Get("title"); v != "" {
		title = &v
	}
	published, err := boolQuery(req, "published")
	if err != nil {
		return 0, nil, err
	}
	var typ []model.SiteType
	for _, t := range q["type"] {
		mt := model.SiteType(gqlSpelling(t))
		if !mt.IsValid() {
			return 0, nil, apierr.Invalid("type", "type must be one of basic, premium, ultimate, sponsored, legacy-basic, legacy-premium")
		}
		typ = append(typ, mt)
	}
	o, err := a.r.Query().Organization(ctx, req.Param("organizationId"))
	if err != nil {
		return 0, nil, err
	}
	conn, err := a.r.Organization().Sites(ctx, o, args.First, args.After, nil, nil, space, title, published, typ)
	if err != nil {
		return 0, nil, err
	}
	a.r.WarmSites(ctx, conn.Nodes)
	items, err := presentAll(ctx, conn.Nodes, a.presentSite(nil))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, envelope(items, conn.TotalCount, conn.PageInfo.HasNextPage, conn.PageInfo.EndCursor), nil
}

func (a *API) createSite(ctx context.Context, req *Request) (int, any, error) {
	b, err := decodeBody(req, false)
	if err != nil {
		return 0, nil, err
	}
	in := model.CreateSiteInput{Organization: req.Param("organizationId")}
	if in.Type, err = omitGQLEnum[model.SiteType](b, "type"); err != nil {
		return 0, nil, err
	}
	if in.Title, err = b.omitStr("title"); err != nil {
		return 0, nil, err
	}
	if in.Visibility, err = omitGQLEnum[model.SiteVisibility](b, "visibility"); err != nil {
		return 0, nil, err
	}
	if b.has("spaces") && !b.null("spaces") {
		var spaces []string
		if err := b.decodeInto("spaces", &spaces, "an array of space ids"); err != nil {
			return 0, nil, err
		}
		in.Spaces = graphql.OmittableOf(spaces)
	}
	st, err := a.r.Mutation().CreateSite(ctx, in)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentSite(nil)(ctx, st)
	if err == nil {
		req.Header.Set("Location", out.URLs.Location)
	}
	return http.StatusCreated, out, err
}

func (a *API) getSite(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentSite(shareKey(req))(ctx, st)
	return http.StatusOK, out, err
}

func (a *API) updateSite(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	b, err := decodeBody(req, true)
	if err != nil {
		return 0, nil, err
	}
	var in model.UpdateSiteInput
	if in.Title, err = b.omitStr("title"); err != nil {
		return 0, nil, err
	}
	if in.Visibility, err = omitGQLEnum[model.SiteVisibility](b, "visibility"); err != nil {
		return 0, nil, err
	}
	if in.Basename, err = b.omitStr("basename"); err != nil {
		return 0, nil, err
	}
	if b.has("adaptiveContent") {
		if b.null("adaptiveContent") {
			in.AdaptiveContent = graphql.OmittableOf[*model.SiteAdaptiveContentInput](nil)
		} else {
			var ac struct {
				Enabled *bool `json:"enabled"`
			}
			if err := b.decodeInto("adaptiveContent", &ac, "an object with enabled"); err != nil {
				return 0, nil, err
			}
			if ac.Enabled == nil {
				return 0, nil, apierr.Invalid("adaptiveContent.enabled", "adaptiveContent.enabled is required")
			}
			in.AdaptiveContent = graphql.OmittableOf(&model.SiteAdaptiveContentInput{Enabled: *ac.Enabled})
		}
	}
	if in.AgentsContext, err = omitGQLEnum[model.SiteAgentsContext](b, "agentsContext"); err != nil {
		return 0, nil, err
	}
	if in.DefaultSiteSpace, err = b.omitStr("defaultSiteSpace"); err != nil {
		return 0, nil, err
	}
	if in.DefaultSiteSection, err = b.omitStr("defaultSiteSection"); err != nil {
		return 0, nil, err
	}
	if in.Proxy, err = b.omitStr("proxy"); err != nil {
		return 0, nil, err
	}
	if in.Hostname, err = b.omitStr("hostname"); err != nil {
		return 0, nil, err
	}
	st, err = a.r.Mutation().UpdateSite(ctx, st.ID, in)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentSite(nil)(ctx, st)
	return http.StatusOK, out, err
}

func (a *API) deleteSite(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if apierr.CodeOf(err) == apierr.NotFound {
		return http.StatusNoContent, nil, nil
	}
	if err != nil {
		return 0, nil, err
	}
	return deleted(a.r.Mutation().DeleteSite(ctx, st.ID))
}

func (a *API) publishSite(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	if st, err = a.r.Mutation().PublishSite(ctx, st.ID); err != nil {
		return 0, nil, err
	}
	out, err := a.presentSite(nil)(ctx, st)
	return http.StatusOK, out, err
}

func (a *API) unpublishSite(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	if st, err = a.r.Mutation().UnpublishSite(ctx, st.ID); err != nil {
		return 0, nil, err
	}
	out, err := a.presentSite(nil)(ctx, st)
	return http.StatusOK, out, err
}

func (a *API) getPublished(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	key := shareKey(req)
	p, err := a.r.Site().PublishedContent(ctx, st, key)
	if err != nil {
		return 0, nil, err
	}
	site, err := a.presentSite(key)(ctx, p.Site)
	if err != nil {
		return 0, nil, err
	}
	structure, err := a.presentStructure(ctx, p.Structure, key)
	if err != nil {
		return 0, nil, err
	}
	scripts := make([]SiteScript, 0, len(p.Scripts))
	for _, s := range p.Scripts {
		scripts = append(scripts, SiteScript{Script: s.Script, ContentSecurityPolicy: s.ContentSecurityPolicy, Cookies: s.Cookies})
	}
	return http.StatusOK, PublishedContentSite{
		Object:         "published-content-site",
		Site:           site,
		Structure:      structure,
		Customizations: Customizations{Site: json.RawMessage(p.Customizations.Site), SiteSpaces: json.RawMessage(p.Customizations.SiteSpaces)},
		Scripts:        scripts,
	}, nil
}

func (a *API) getStructure(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	key := shareKey(req)
	s, err := a.r.Site().Structure(ctx, st, key)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentStructure(ctx, s, key)
	return http.StatusOK, out, err
}

type structurePointer struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

func (p *structurePointer) input(field string) (*model.SiteStructureItemPointer, error) {
	if p == nil {
		return nil, nil
	}
	t := model.SiteStructureItemType(gqlSpelling(p.Type))
	if !t.IsValid() {
		return nil, apierr.Invalid(field+".type", "%s.type must be site-space, site-section or site-section-group", field)
	}
	if p.ID == "" {
		return nil, apierr.Invalid(field+".id", "%s.id is required", field)
	}
	return &model.SiteStructureItemPointer{Type: t, ID: p.ID}, nil
}

func (a *API) sortStructure(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	b, err := decodeBody(req, true)
	if err != nil {
		return 0, nil, err
	}
	var body struct {
		Item     *structurePointer `json:"item"`
		Position *struct {
			Before *structurePointer `json:"before"`
			After  *structurePointer `json:"after"`
		} `json:"position"`
	}
	raw, _ := json.Marshal(b)
	if err := json.Unmarshal(raw, &body); err != nil {
		return 0, nil, apierr.Invalid("body", "The body must be {item: {type, id}, position: {before?, after?}}")
	}
	if body.Item == nil {
		return 0, nil, apierr.Invalid("item", "item is required")
	}
	item, err := body.Item.input("item")
	if err != nil {
		return 0, nil, err
	}
	in := model.SortSiteStructureInput{Item: item, Position: &model.SiteStructurePosition{}}
	if body.Position != nil {
		before, err := body.Position.Before.input("position.before")
		if err != nil {
			return 0, nil, err
		}
		after, err := body.Position.After.input("position.after")
		if err != nil {
			return 0, nil, err
		}
		in.Position.Before, in.Position.After = graphql.OmittableOf(before), graphql.OmittableOf(after)
	}
	moved, err := a.r.Mutation().SortSiteStructure(ctx, st.ID, in)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentItem(ctx, moved, nil)
	return http.StatusOK, out, err
}

// legacyMove maps a deprecated move body onto sortSiteStructure.
func (a *API) legacyMove(ctx context.Context, req *Request, itemType, id string, pointer func(json.RawMessage) (*structurePointer, error)) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	b, err := decodeBody(req, false)
	if err != nil {
		return 0, nil, err
	}
	in := model.SortSiteStructureInput{
		Item:     &model.SiteStructureItemPointer{Type: model.SiteStructureItemType(gqlSpelling(itemType)), ID: id},
		Position: &model.SiteStructurePosition{},
	}
	if b.has("position") && !b.null("position") {
		var pos struct {
			Before json.RawMessage `json:"before"`
			After  json.RawMessage `json:"after"`
		}
		if err := b.decodeInto("position", &pos, "an object with before and/or after"); err != nil {
			return 0, nil, err
		}
		for _, x := range []struct {
			field string
			raw   json.RawMessage
			dst   *graphql.Omittable[*model.SiteStructureItemPointer]
		}{{"position.before", pos.Before, &in.Position.Before}, {"position.after", pos.After, &in.Position.After}} {
			if len(x.raw) == 0 || string(x.raw) == "null" {
				continue
			}
			p, err := pointer(x.raw)
			if err != nil {
				return 0, nil, apierr.Invalid(x.field, "%s: %v", x.field, err)
			}
			ptr, err := p.input(x.field)
			if err != nil {
				return 0, nil, err
			}
			*x.dst = graphql.OmittableOf(ptr)
		}
	}
	moved, err := a.r.Mutation().SortSiteStructure(ctx, st.ID, in)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentItem(ctx, moved, nil)
	return http.StatusOK, out, err
}

func legacyPointer(kind, idField string) func(json.RawMessage) (*structurePointer, error) {
	return func(raw json.RawMessage) (*structurePointer, error) {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, err
		}
		t, _ := m["type"].(string)
		id, _ := m[idField].(string)
		if kind != "" && t != kind {
			return nil, apierr.Invalid("position", "type must be %q", kind)
		}
		if id == "" {
			id, _ = m["id"].(string)
		}
		return &structurePointer{Type: t, ID: id}, nil
	}
}

func (a *API) moveSiteSpace(ctx context.Context, req *Request) (int, any, error) {
	return a.legacyMove(ctx, req, "site-space", req.Param("siteSpaceId"), legacyPointer("site-space", "siteSpace"))
}

func (a *API) moveSection(ctx context.Context, req *Request) (int, any, error) {
	return a.legacyMove(ctx, req, "site-section", req.Param("siteSectionId"), legacyPointer("site-section", "siteSection"))
}

func (a *API) moveGroup(ctx context.Context, req *Request) (int, any, error) {
	return a.legacyMove(ctx, req, "site-section-group", req.Param("siteSectionGroupId"), legacyPointer("", "id"))
}

func (a *API) listSiteSpaces(ctx context.Context, req *Request) (int, any, error) {
	args, err := listArgs(req)
	if err != nil {
		return 0, nil, err
	}
	def, err := boolQuery(req, "default")
	if err != nil {
		return 0, nil, err
	}
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	key := shareKey(req)
	if _, err := a.r.Site().Structure(ctx, st, key); err != nil {
		return 0, nil, err
	}
	conn, err := a.r.Site().AllSiteSpaces(ctx, st, args.First, args.After, nil, nil, def)
	if err != nil {
		return 0, nil, err
	}
	if err := a.r.WarmSpaces(ctx, conn.Nodes); err != nil {
		return 0, nil, err
	}
	items, err := presentAll(ctx, conn.Nodes, a.presentSiteSpace(key))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, envelope(items, conn.TotalCount, conn.PageInfo.HasNextPage, conn.PageInfo.EndCursor), nil
}

func (a *API) addSiteSpace(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	b, err := decodeBody(req, true)
	if err != nil {
		return 0, nil, err
	}
	space, err := b.reqStr("spaceId")
	if err != nil {
		return 0, nil, err
	}
	section, err := b.omitStr("sectionId")
	if err != nil {
		return 0, nil, err
	}
	ss, err := a.r.Mutation().AddSiteSpace(ctx, st.ID, model.AddSiteSpaceInput{Space: space, Section: section})
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentSiteSpace(nil)(ctx, ss)
	if err == nil {
		req.Header.Set("Location", a.r.SiteChildURL(st, "site-spaces", ss.ID))
	}
	return http.StatusCreated, out, err
}

func (a *API) updateSiteSpace(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	b, err := decodeBody(req, true)
	if err != nil {
		return 0, nil, err
	}
	var in model.UpdateSiteSpaceInput
	if in.Path, err = b.omitStr("path"); err != nil {
		return 0, nil, err
	}
	if in.Condition, err = b.omitStr("condition"); err != nil {
		return 0, nil, err
	}
	if in.Space, err = b.omitStr("spaceId"); err != nil {
		return 0, nil, err
	}
	if in.Hidden, err = b.omitBool("hidden"); err != nil {
		return 0, nil, err
	}
	ss, err := a.r.Mutation().UpdateSiteSpace(ctx, st.ID, req.Param("siteSpaceId"), in)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentSiteSpace(nil)(ctx, ss)
	return http.StatusOK, out, err
}

func (a *API) deleteSiteSpace(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if apierr.CodeOf(err) == apierr.NotFound {
		return http.StatusNoContent, nil, nil
	}
	if err != nil {
		return 0, nil, err
	}
	return deleted(a.r.Mutation().DeleteSiteSpace(ctx, st.ID, req.Param("siteSpaceId")))
}

func (a *API) siteSpaceOf(ctx context.Context, req *Request) (*ent.Site, *ent.SiteSpace, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	ss, err := a.r.SiteSpaceOf(ctx, st, req.Param("siteSpaceId"))
	return st, ss, err
}

func (a *API) getSiteSpaceCustomization(ctx context.Context, req *Request) (int, any, error) {
	_, ss, err := a.siteSpaceOf(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.r.SiteSpace().Customization(ctx, ss)
	return http.StatusOK, json.RawMessage(out), err
}

func (a *API) overrideSiteSpaceCustomization(ctx context.Context, req *Request) (int, any, error) {
	st, ss, err := a.siteSpaceOf(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	raw, err := rawBody(req)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.r.Mutation().OverrideSiteSpaceCustomization(ctx, st.ID, ss.ID, types.JSON(raw))
	return http.StatusOK, json.RawMessage(out), err
}

func (a *API) deleteSiteSpaceCustomization(ctx context.Context, req *Request) (int, any, error) {
	st, ss, err := a.siteSpaceOf(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	return deleted(a.r.Mutation().DeleteSiteSpaceCustomization(ctx, st.ID, ss.ID))
}

func (a *API) listSections(ctx context.Context, req *Request) (int, any, error) {
	args, err := listArgs(req)
	if err != nil {
		return 0, nil, err
	}
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	key := shareKey(req)
	if _, err := a.r.Site().Structure(ctx, st, key); err != nil {
		return 0, nil, err
	}
	conn, err := a.r.Site().Sections(ctx, st, args.First, args.After, nil, nil)
	if err != nil {
		return 0, nil, err
	}
	if err := a.r.WarmSpaces(ctx, a.r.SiteSpacesOfSite(ctx, st)); err != nil {
		return 0, nil, err
	}
	items, err := presentAll(ctx, conn.Nodes, a.presentSection(key))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, envelope(items, conn.TotalCount, conn.PageInfo.HasNextPage, conn.PageInfo.EndCursor), nil
}

func (a *API) addSection(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	b, err := decodeBody(req, true)
	if err != nil {
		return 0, nil, err
	}
	in := model.AddSiteSectionInput{}
	if in.Space, err = b.reqStr("spaceId"); err != nil {
		return 0, nil, err
	}
	if in.Title, err = b.omitStr("title"); err != nil {
		return 0, nil, err
	}
	if in.Icon, err = b.omitStr("icon"); err != nil {
		return 0, nil, err
	}
	sec, err := a.r.Mutation().AddSiteSection(ctx, st.ID, in)
	if err != nil {
		return 0, nil, err
	}
	if err := a.r.WarmSpaces(ctx, a.r.SiteSpacesOfSite(ctx, st)); err != nil {
		return 0, nil, err
	}
	out, err := a.presentSection(nil)(ctx, sec)
	if err == nil {
		req.Header.Set("Location", a.r.SiteChildURL(st, "sections", sec.ID))
	}
	return http.StatusCreated, out, err
}

func (a *API) updateSection(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	b, err := decodeBody(req, true)
	if err != nil {
		return 0, nil, err
	}
	var in model.UpdateSiteSectionInput
	for _, f := range []struct {
		name string
		dst  *graphql.Omittable[*string]
	}{{"title", &in.Title}, {"path", &in.Path}, {"defaultSiteSpace", &in.DefaultSiteSpace}, {"condition", &in.Condition}, {"icon", &in.Icon}, {"description", &in.Description}} {
		if *f.dst, err = b.omitStr(f.name); err != nil {
			return 0, nil, err
		}
	}
	sec, err := a.r.Mutation().UpdateSiteSection(ctx, st.ID, req.Param("siteSectionId"), in)
	if err != nil {
		return 0, nil, err
	}
	if err := a.r.WarmSpaces(ctx, a.r.SiteSpacesOfSite(ctx, st)); err != nil {
		return 0, nil, err
	}
	out, err := a.presentSection(nil)(ctx, sec)
	return http.StatusOK, out, err
}

func (a *API) deleteSection(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if apierr.CodeOf(err) == apierr.NotFound {
		return http.StatusNoContent, nil, nil
	}
	if err != nil {
		return 0, nil, err
	}
	return deleted(a.r.Mutation().DeleteSiteSection(ctx, st.ID, req.Param("siteSectionId")))
}

func (a *API) listGroups(ctx context.Context, req *Request) (int, any, error) {
	args, err := listArgs(req)
	if err != nil {
		return 0, nil, err
	}
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	conn, err := a.r.Site().SectionGroups(ctx, st, args.First, args.After, nil, nil)
	if err != nil {
		return 0, nil, err
	}
	if err := a.r.WarmSpaces(ctx, a.r.SiteSpacesOfSite(ctx, st)); err != nil {
		return 0, nil, err
	}
	items, err := presentAll(ctx, conn.Nodes, a.presentGroup(nil))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, envelope(items, conn.TotalCount, conn.PageInfo.HasNextPage, conn.PageInfo.EndCursor), nil
}

func (a *API) createGroup(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	b, err := decodeBody(req, true)
	if err != nil {
		return 0, nil, err
	}
	var in model.CreateSiteSectionGroupInput
	if in.Title, err = b.reqStr("title"); err != nil {
		return 0, nil, err
	}
	if in.Icon, err = b.omitStr("icon"); err != nil {
		return 0, nil, err
	}
	if in.Parent, err = b.omitStr("parent"); err != nil {
		return 0, nil, err
	}
	if b.has("sections") && !b.null("sections") {
		var secs []string
		if err := b.decodeInto("sections", &secs, "an array of section ids"); err != nil {
			return 0, nil, err
		}
		in.Sections = graphql.OmittableOf(secs)
	}
	g, err := a.r.Mutation().CreateSiteSectionGroup(ctx, st.ID, in)
	if err != nil {
		return 0, nil, err
	}
	if err := a.r.WarmSpaces(ctx, a.r.SiteSpacesOfSite(ctx, st)); err != nil {
		return 0, nil, err
	}
	out, err := a.presentGroup(nil)(ctx, g)
	if err == nil {
		req.Header.Set("Location", a.r.SiteChildURL(st, "section-groups", g.ID))
	}
	return http.StatusCreated, out, err
}

func (a *API) updateGroup(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	b, err := decodeBody(req, true)
	if err != nil {
		return 0, nil, err
	}
	var in model.UpdateSiteSectionGroupInput
	if in.Title, err = b.omitStr("title"); err != nil {
		return 0, nil, err
	}
	if in.Icon, err = b.omitStr("icon"); err != nil {
		return 0, nil, err
	}
	g, err := a.r.Mutation().UpdateSiteSectionGroup(ctx, st.ID, req.Param("siteSectionGroupId"), in)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentGroup(nil)(ctx, g)
	return http.StatusOK, out, err
}

func (a *API) deleteGroup(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if apierr.CodeOf(err) == apierr.NotFound {
		return http.StatusNoContent, nil, nil
	}
	if err != nil {
		return 0, nil, err
	}
	return deleted(a.r.Mutation().DeleteSiteSectionGroup(ctx, st.ID, req.Param("siteSectionGroupId")))
}

func (a *API) addSectionToGroup(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	b, err := decodeBody(req, true)
	if err != nil {
		return 0, nil, err
	}
	sec, err := b.reqStr("sectionId")
	if err != nil {
		return 0, nil, err
	}
	g, err := a.r.Mutation().AddSectionToGroup(ctx, st.ID, req.Param("siteSectionGroupId"), sec)
	if err != nil {
		return 0, nil, err
	}
	if err := a.r.WarmSpaces(ctx, a.r.SiteSpacesOfSite(ctx, st)); err != nil {
		return 0, nil, err
	}
	out, err := a.presentGroup(nil)(ctx, g)
	if err == nil {
		req.Header.Set("Location", a.r.SiteChildURL(st, "section-groups", g.ID))
	}
	return http.StatusCreated, out, err
}

func (a *API) removeSectionFromGroup(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	return deleted(a.r.Mutation().RemoveSectionFromGroup(ctx, st.ID, req.Param("siteSectionGroupId"), req.Param("siteSectionId")))
}

func (a *API) getCustomization(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.r.Site().Customization(ctx, st)
	return http.StatusOK, json.RawMessage(out), err
}

func (a *API) putCustomization(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	raw, err := rawBody(req)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.r.Mutation().UpdateSiteCustomization(ctx, st.ID, types.JSON(raw))
	return http.StatusOK, json.RawMessage(out), err
}

// AdaptiveSchema is the documented visitor attributes schema object.
type AdaptiveSchema struct {
	Object     string          `json:"object"`
	JSONSchema json.RawMessage `json:"jsonSchema"`
	UpdatedAt  time.Time       `json:"updatedAt"`
}

func (a *API) getAdaptiveSchema(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	s, err := a.r.Site().AdaptiveSchema(ctx, st)
	if err != nil {
		return 0, nil, err
	}
	if s == nil {
		return 0, nil, apierr.NotFoundf("The site has no visitor attributes schema")
	}
	return http.StatusOK, AdaptiveSchema{Object: s.Object, JSONSchema: json.RawMessage(s.JSONSchema), UpdatedAt: s.UpdatedAt}, nil
}

func (a *API) putAdaptiveSchema(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	b, err := decodeBody(req, true)
	if err != nil {
		return 0, nil, err
	}
	if !b.has("jsonSchema") || b.null("jsonSchema") {
		return 0, nil, apierr.Invalid("jsonSchema", "jsonSchema is required")
	}
	s, err := a.r.Mutation().UpdateSiteAdaptiveSchema(ctx, st.ID, types.JSON(b["jsonSchema"]))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, AdaptiveSchema{Object: s.Object, JSONSchema: json.RawMessage(s.JSONSchema), UpdatedAt: s.UpdatedAt}, nil
}

// TemplateCondition is an example condition.
type TemplateCondition struct {
	Description string `json:"description"`
	Condition   string `json:"condition"`
}

func (a *API) listTemplateConditions(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	list, err := a.r.Site().TemplateConditions(ctx, st)
	if err != nil {
		return 0, nil, err
	}
	items := make([]TemplateCondition, len(list))
	for i, c := range list {
		items[i] = TemplateCondition{Description: c.Description, Condition: c.Condition}
	}
	return http.StatusOK, struct {
		Items []TemplateCondition `json:"items"`
	}{items}, nil
}

func (a *API) listShareLinks(ctx context.Context, req *Request) (int, any, error) {
	args, err := listArgs(req)
	if err != nil {
		return 0, nil, err
	}
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	conn, err := a.r.Site().ShareLinks(ctx, st, args.First, args.After, nil, nil)
	if err != nil {
		return 0, nil, err
	}
	items, err := presentAll(ctx, conn.Nodes, a.presentShareLink)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, envelope(items, conn.TotalCount, conn.PageInfo.HasNextPage, conn.PageInfo.EndCursor), nil
}

func (a *API) createShareLink(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	b, err := decodeBody(req, true)
	if err != nil {
		return 0, nil, err
	}
	name, err := b.reqStr("name")
	if err != nil {
		return 0, nil, err
	}
	l, err := a.r.Mutation().CreateSiteShareLink(ctx, st.ID, name)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentShareLink(ctx, l)
	if err == nil {
		req.Header.Set("Location", a.r.SiteChildURL(st, "share-links", l.ID))
	}
	return http.StatusCreated, out, err
}

func (a *API) updateShareLink(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return 0, nil, err
	}
	b, err := decodeBody(req, true)
	if err != nil {
		return 0, nil, err
	}
	var in model.UpdateSiteShareLinkInput
	if in.Name, err = b.omitStr("name"); err != nil {
		return 0, nil, err
	}
	if in.Active, err = b.omitBool("active"); err != nil {
		return 0, nil, err
	}
	l, err := a.r.Mutation().UpdateSiteShareLink(ctx, st.ID, req.Param("shareLinkId"), in)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.presentShareLink(ctx, l)
	return http.StatusOK, out, err
}

func (a *API) deleteShareLink(ctx context.Context, req *Request) (int, any, error) {
	st, err := a.site(ctx, req)
	if apierr.CodeOf(err) == apierr.NotFound {
		return http.StatusNoContent, nil, nil
	}
	if err != nil {
		return 0, nil, err
	}
	return deleted(a.r.Mutation().DeleteSiteShareLink(ctx, st.ID, req.Param("shareLinkId")))
}
