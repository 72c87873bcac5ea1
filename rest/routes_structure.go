package rest

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"quire/ent"
	"quire/graph"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/types"
)

// The structure of a docs site: site spaces, sections and section groups,
// and the moves among them.

func (a *API) structureRoutes() []Route {
	const s = sitePath
	siteSpaces, sections, groups, items := a.siteSpaces(), a.sections(), a.groups(), a.structureItems()
	return []Route{
		route("GET", s+"/structure", "Get the structure of a docs site", func(ctx context.Context, req *Request, in *ShareKeyParams) (*model.SiteStructure, error) {
			st, err := a.siteWith(ctx, req, presenting(in.sharedKey()))
			if err != nil {
				return nil, err
			}
			return a.r.Site().Structure(ctx, st, in.sharedKey())
		}).Present(a.structures()),

		route("PATCH", s+"/structure/sort", "Move an item of a docs site's structure", func(ctx context.Context, req *Request, in *SortStructureBody) (types.Node, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			sin := model.SortSiteStructureInput{Item: in.Item.input(), Position: &model.SiteStructurePosition{}}
			if p := in.Position; p != nil {
				sin.Position.Before, sin.Position.After = graphql.OmittableOf(p.Before.input()), graphql.OmittableOf(p.After.input())
			}
			return a.r.Mutation().SortSiteStructure(ctx, st.ID, sin)
		}).Present(items),

		route("GET", s+"/site-spaces", "List the site spaces of a docs site", func(ctx context.Context, req *Request, in *SiteSpaceListParams) (*ListPage[*ent.SiteSpace], error) {
			st, err := a.siteWith(ctx, req, presenting(in.sharedKey()))
			if err != nil {
				return nil, err
			}
			// The structure read checks the share key.
			if _, err := a.r.Site().Structure(ctx, st, in.sharedKey()); err != nil {
				return nil, err
			}
			conn, err := a.r.Site().AllSiteSpaces(ctx, st, in.First(), in.After(), nil, nil, in.Default)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(siteSpaces.List()),

		route("POST", s+"/site-spaces", "Add a space to a docs site", func(ctx context.Context, req *Request, in *AddSiteSpaceBody) (*ent.SiteSpace, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			ss, err := a.r.Mutation().AddSiteSpace(ctx, st.ID, model.AddSiteSpaceInput{Space: in.SpaceID, Section: in.SectionID.Omittable()})
			if err == nil {
				req.SetLocation(a.r.SiteChildURL(st, "site-spaces", ss.ID))
			}
			return ss, err
		}).Present(siteSpaces).Created(),

		route("PATCH", s+"/site-spaces/{siteSpaceId}", "Update a site space", func(ctx context.Context, req *Request, in *UpdateSiteSpaceBody) (*ent.SiteSpace, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().UpdateSiteSpace(ctx, st.ID, req.Param("siteSpaceId"), model.UpdateSiteSpaceInput{
				Path: in.Path.Omittable(), Condition: in.Condition.Omittable(), Space: in.SpaceID.Omittable(), Hidden: in.Hidden.Omittable(),
			})
		}).Present(siteSpaces),

		route("DELETE", s+"/site-spaces/{siteSpaceId}", "Remove a site space", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			return a.deleteInSite(ctx, req, func(st *ent.Site) (*model.DeletePayload, error) {
				return a.r.Mutation().DeleteSiteSpace(ctx, st.ID, req.Param("siteSpaceId"))
			})
		}).Present(deleted),

		route("POST", s+"/site-spaces/{siteSpaceId}/move", "Move a site space (deprecated: use structure/sort)", func(ctx context.Context, req *Request, in *LegacyMoveBody) (*ent.SiteSpace, error) {
			return nodeAs[*ent.SiteSpace](a.legacyMove(ctx, req, in, "site-space", req.Param("siteSpaceId")))
		}).Present(siteSpaces).OptionalBody().Deprecated(),

		route("GET", s+"/sections", "List the sections of a docs site", func(ctx context.Context, req *Request, in *KeyedListParams) (*ListPage[*ent.SiteSection], error) {
			st, err := a.siteWith(ctx, req, presenting(in.sharedKey()))
			if err != nil {
				return nil, err
			}
			if _, err := a.r.Site().Structure(ctx, st, in.sharedKey()); err != nil {
				return nil, err
			}
			conn, err := a.r.Site().Sections(ctx, st, in.First(), in.After(), nil, nil)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(sections.List()),

		route("POST", s+"/sections", "Add a section to a docs site", func(ctx context.Context, req *Request, in *AddSectionBody) (*ent.SiteSection, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			sec, err := a.r.Mutation().AddSiteSection(ctx, st.ID, model.AddSiteSectionInput{Space: in.SpaceID, Title: in.Title.Omittable(), Icon: in.Icon.Omittable()})
			if err == nil {
				req.SetLocation(a.r.SiteChildURL(st, "sections", sec.ID))
			}
			return sec, err
		}).Present(sections).Created(),

		route("PATCH", s+"/sections/{siteSectionId}", "Update a section", func(ctx context.Context, req *Request, in *UpdateSectionBody) (*ent.SiteSection, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().UpdateSiteSection(ctx, st.ID, req.Param("siteSectionId"), model.UpdateSiteSectionInput{
				Title: in.Title.Omittable(), Path: in.Path.Omittable(), DefaultSiteSpace: in.DefaultSiteSpace.Omittable(),
				Condition: in.Condition.Omittable(), Icon: in.Icon.Omittable(), Description: in.Description.Omittable(),
			})
		}).Present(sections),

		route("DELETE", s+"/sections/{siteSectionId}", "Delete a section", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			return a.deleteInSite(ctx, req, func(st *ent.Site) (*model.DeletePayload, error) {
				return a.r.Mutation().DeleteSiteSection(ctx, st.ID, req.Param("siteSectionId"))
			})
		}).Present(deleted),

		route("POST", s+"/sections/{siteSectionId}/move", "Move a section (deprecated: use structure/sort)", func(ctx context.Context, req *Request, in *LegacyMoveBody) (*ent.SiteSection, error) {
			return nodeAs[*ent.SiteSection](a.legacyMove(ctx, req, in, "site-section", req.Param("siteSectionId")))
		}).Present(sections).OptionalBody().Deprecated(),

		route("GET", s+"/section-groups", "List the section groups of a docs site", func(ctx context.Context, req *Request, in *ListParams) (*ListPage[*ent.SiteSectionGroup], error) {
			st, err := a.siteWith(ctx, req, presentedSpaces)
			if err != nil {
				return nil, err
			}
			conn, err := a.r.Site().SectionGroups(ctx, st, in.First(), in.After(), nil, nil)
			if err != nil {
				return nil, err
			}
			return pageOf(conn.Nodes, conn.TotalCount, conn.PageInfo), nil
		}).Present(groups.List()),

		route("POST", s+"/section-groups", "Create a section group", func(ctx context.Context, req *Request, in *CreateGroupBody) (*ent.SiteSectionGroup, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			gin := model.CreateSiteSectionGroupInput{Title: in.Title, Icon: in.Icon.Omittable(), Parent: in.Parent.Omittable()}
			if in.Sections != nil {
				gin.Sections = graphql.OmittableOf(in.Sections)
			}
			g, err := a.r.Mutation().CreateSiteSectionGroup(ctx, st.ID, gin)
			if err == nil {
				req.SetLocation(a.r.SiteChildURL(st, "section-groups", g.ID))
			}
			return g, err
		}).Present(groups).Created(),

		route("PATCH", s+"/section-groups/{siteSectionGroupId}", "Update a section group", func(ctx context.Context, req *Request, in *UpdateGroupBody) (*ent.SiteSectionGroup, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().UpdateSiteSectionGroup(ctx, st.ID, req.Param("siteSectionGroupId"), model.UpdateSiteSectionGroupInput{
				Title: in.Title.Omittable(), Icon: in.Icon.Omittable(),
			})
		}).Present(groups),

		route("DELETE", s+"/section-groups/{siteSectionGroupId}", "Delete a section group", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			return a.deleteInSite(ctx, req, func(st *ent.Site) (*model.DeletePayload, error) {
				return a.r.Mutation().DeleteSiteSectionGroup(ctx, st.ID, req.Param("siteSectionGroupId"))
			})
		}).Present(deleted),

		route("POST", s+"/section-groups/{siteSectionGroupId}/sections", "Add a section to a group", func(ctx context.Context, req *Request, in *AddSectionToGroupBody) (*ent.SiteSectionGroup, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			g, err := a.r.Mutation().AddSectionToGroup(ctx, st.ID, req.Param("siteSectionGroupId"), in.SectionID)
			if err == nil {
				req.SetLocation(a.r.SiteChildURL(st, "section-groups", g.ID))
			}
			return g, err
		}).Present(groups).Created(),

		route("DELETE", s+"/section-groups/{siteSectionGroupId}/sections/{siteSectionId}", "Remove a section from a group", func(ctx context.Context, req *Request, _ *NoInput) (*model.DeletePayload, error) {
			st, err := a.site(ctx, req)
			if err != nil {
				return nil, err
			}
			return a.r.Mutation().RemoveSectionFromGroup(ctx, st.ID, req.Param("siteSectionGroupId"), req.Param("siteSectionId"))
		}).Present(deleted),

		route("POST", s+"/section-groups/{siteSectionGroupId}/move", "Move a section group (deprecated: use structure/sort)", func(ctx context.Context, req *Request, in *LegacyMoveBody) (*ent.SiteSectionGroup, error) {
			return nodeAs[*ent.SiteSectionGroup](a.legacyMove(ctx, req, in, "site-section-group", req.Param("siteSectionGroupId")))
		}).Present(groups).OptionalBody().Deprecated(),
	}
}

// input is the pointer as the resolvers take it; nil when absent.
func (p *StructurePointerBody) input() *model.SiteStructureItemPointer {
	if p == nil {
		return nil
	}
	return &model.SiteStructureItemPointer{Type: model.SiteStructureItemType(gqlSpelling(p.Type)), ID: p.ID}
}

// legacyMove maps a deprecated move onto sortSiteStructure. A site space
// or section move names its siblings by siteSpace or siteSection (or id),
// of its own type; a group move by id, of any type.
func (a *API) legacyMove(ctx context.Context, req *Request, in *LegacyMoveBody, itemType, id string) (types.Node, error) {
	st, err := a.site(ctx, req)
	if err != nil {
		return nil, err
	}
	sin := model.SortSiteStructureInput{
		Item:     &model.SiteStructureItemPointer{Type: model.SiteStructureItemType(gqlSpelling(itemType)), ID: id},
		Position: &model.SiteStructurePosition{},
	}
	if p := in.Position; p != nil {
		for _, x := range []struct {
			field string
			ptr   *LegacyPointerBody
			dst   *graphql.Omittable[*model.SiteStructureItemPointer]
		}{{"position.before", p.Before, &sin.Position.Before}, {"position.after", p.After, &sin.Position.After}} {
			if x.ptr == nil {
				continue
			}
			ptr, err := x.ptr.input(x.field, itemType)
			if err != nil {
				return nil, err
			}
			*x.dst = graphql.OmittableOf(ptr)
		}
	}
	return a.r.Mutation().SortSiteStructure(ctx, st.ID, sin)
}

func (p *LegacyPointerBody) input(field, itemType string) (*model.SiteStructureItemPointer, error) {
	id := p.ID
	switch itemType {
	case "site-space", "site-section":
		if p.Type != itemType {
			return nil, apierr.Invalid(field, "%s: type must be %q", field, itemType)
		}
		if own := map[string]string{"site-space": p.SiteSpace, "site-section": p.SiteSection}[itemType]; own != "" {
			id = own
		}
	}
	if p.Type == "" {
		return nil, apierr.Invalid(field+".type", "%s.type must be site-space, site-section or site-section-group", field)
	}
	if id == "" {
		return nil, apierr.Invalid(field+".id", "%s.id is required", field)
	}
	return &model.SiteStructureItemPointer{Type: model.SiteStructureItemType(gqlSpelling(p.Type)), ID: id}, nil
}

// presenting is what presenting a site's structure reads of the site: its
// spaces as presentedSpaces, with the share links when a key is given.
func presenting(shareKey *string) graph.SiteWant {
	w := presentedSpaces
	w.ShareLinks = shareKey != nil
	return w
}
