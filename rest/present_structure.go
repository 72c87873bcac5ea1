package rest

import (
	"context"
	"fmt"

	"quire/ent"
	"quire/graph"
	"quire/graph/leaf"
	"quire/graph/model"
	"quire/internal/types"
)

// The presenters of a docs site's structure: site spaces, sections, section
// groups.

// presentedSpaces is what presenting site spaces reads of their sites: the
// structure, the spaces and the collections above them (the spaces'
// parents and permissions).
var presentedSpaces = graph.SiteWant{Structure: true, Spaces: true, Collections: true}

// siteSpaces presents site spaces; a page of them reads its sites' spaces,
// and the collections above those, first.
func (a *API) siteSpaces() *Kind[*ent.SiteSpace, *SiteSpace] {
	return presentsKeyed(a.presentSiteSpace).warming(func(ctx context.Context, list []*ent.SiteSpace) error {
		ids := make([]string, len(list))
		for i, ss := range list {
			ids[i] = ss.SiteID
		}
		return a.r.ViewSites(ctx, ids, presentedSpaces)
	})
}

// sections presents sections, each with its site spaces: presenting one or
// a page of them reads the spaces of their sites first.
func (a *API) sections() *Kind[*ent.SiteSection, *SiteSection] {
	return presentsKeyed(a.presentSection).warming(func(ctx context.Context, list []*ent.SiteSection) error {
		ids := make([]string, len(list))
		for i, s := range list {
			ids[i] = s.SiteID
		}
		return a.r.ViewSites(ctx, ids, presentedSpaces)
	}).alsoOne()
}

// groups presents section groups, each with its sections and their site
// spaces, read as for sections.
func (a *API) groups() *Kind[*ent.SiteSectionGroup, *SiteSectionGroup] {
	return presentsKeyed(a.presentGroup).warming(func(ctx context.Context, list []*ent.SiteSectionGroup) error {
		ids := make([]string, len(list))
		for i, g := range list {
			ids[i] = g.SiteID
		}
		return a.r.ViewSites(ctx, ids, presentedSpaces)
	}).alsoOne()
}

// structureItems presents a site space, a section or a group.
func (a *API) structureItems() *Kind[types.Node, StructureItem] {
	return presentsKeyed(func(key *string) func(context.Context, types.Node) (StructureItem, error) {
		return func(ctx context.Context, n types.Node) (StructureItem, error) { return a.presentItem(ctx, n, key) }
	})
}

// structures presents a site's structure.
func (a *API) structures() *Kind[*model.SiteStructure, *SiteStructure] {
	return presentsKeyed(func(key *string) func(context.Context, *model.SiteStructure) (*SiteStructure, error) {
		return func(ctx context.Context, s *model.SiteStructure) (*SiteStructure, error) {
			return a.presentStructure(ctx, s, key)
		}
	})
}

// StructureItem is a SiteSpace, a SiteSection or a SiteSectionGroup.
type StructureItem interface{ structureItem() }

func (*SiteSpace) structureItem()        {}
func (*SiteSection) structureItem()      {}
func (*SiteSectionGroup) structureItem() {}

// SiteSpace is the documented site space object.
type SiteSpace struct {
	Object                          string              `json:"object"`
	ID                              string              `json:"id"`
	Path                            string              `json:"path"`
	Section                         *string             `json:"section,omitempty"`
	Space                           *Space              `json:"space"`
	Title                           string              `json:"title"`
	Default                         bool                `json:"default"`
	Condition                       *string             `json:"condition,omitempty"`
	HasAdvancedCustomizationFeature bool                `json:"hasAdvancedCustomizationFeature"`
	Hidden                          bool                `json:"hidden"`
	URLs                            *leaf.PublishedUrls `json:"urls"`
}

func (a *API) presentSiteSpace(key *string) func(context.Context, *ent.SiteSpace) (*SiteSpace, error) {
	return func(ctx context.Context, ss *ent.SiteSpace) (*SiteSpace, error) {
		r := a.r.SiteSpace()
		sp, err := r.Space(ctx, ss)
		if err != nil {
			return nil, err
		}
		space, err := a.presentSpace(ctx, sp)
		if err != nil {
			return nil, err
		}
		def, err := r.Default(ctx, ss)
		if err != nil {
			return nil, err
		}
		adv, err := r.HasAdvancedCustomizationFeature(ctx, ss)
		if err != nil {
			return nil, err
		}
		urls, err := r.Urls(ctx, ss, key)
		if err != nil {
			return nil, err
		}
		return &SiteSpace{
			Object: "site-space", ID: ss.ID, Path: ss.Path, Section: ss.SectionID, Space: space, Title: sp.Title,
			Default: def, Condition: ss.Condition, HasAdvancedCustomizationFeature: adv, Hidden: ss.Hidden, URLs: urls,
		}, nil
	}
}

// SiteSection is the documented site section object.
type SiteSection struct {
	Object       string              `json:"object"`
	ID           string              `json:"id"`
	Title        string              `json:"title"`
	Description  *string             `json:"description,omitempty"`
	Default      bool                `json:"default"`
	Path         string              `json:"path"`
	Condition    *string             `json:"condition,omitempty"`
	SectionGroup *string             `json:"sectionGroup,omitempty"`
	Icon         *string             `json:"icon,omitempty"`
	SiteSpaces   []*SiteSpace        `json:"siteSpaces"`
	URLs         *leaf.PublishedUrls `json:"urls"`
}

func (a *API) presentSection(key *string) func(context.Context, *ent.SiteSection) (*SiteSection, error) {
	return func(ctx context.Context, sec *ent.SiteSection) (*SiteSection, error) {
		r := a.r.SiteSection()
		def, err := r.Default(ctx, sec)
		if err != nil {
			return nil, err
		}
		conn, err := r.SiteSpaces(ctx, sec, nil, nil, nil, nil)
		if err != nil {
			return nil, err
		}
		spaces, err := presentAll(ctx, conn.Nodes, a.presentSiteSpace(key))
		if err != nil {
			return nil, err
		}
		urls, err := r.Urls(ctx, sec, key)
		if err != nil {
			return nil, err
		}
		return &SiteSection{
			Object: "site-section", ID: sec.ID, Title: sec.Title, Description: sec.Description, Default: def,
			Path: sec.Path, Condition: sec.Condition, SectionGroup: sec.GroupID, Icon: sec.Icon, SiteSpaces: spaces, URLs: urls,
		}, nil
	}
}

// SiteSectionGroup is the documented section group object.
type SiteSectionGroup struct {
	Object       string         `json:"object"`
	ID           string         `json:"id"`
	Title        string         `json:"title"`
	SectionGroup *string        `json:"sectionGroup,omitempty"`
	Icon         *string        `json:"icon,omitempty"`
	Sections     []*SiteSection `json:"sections"`
	Children     []any          `json:"children" oneOf:"SiteSection,SiteSectionGroup"`
}

func (a *API) presentGroup(key *string) func(context.Context, *ent.SiteSectionGroup) (*SiteSectionGroup, error) {
	return func(ctx context.Context, g *ent.SiteSectionGroup) (*SiteSectionGroup, error) {
		conn, err := a.r.SiteSectionGroup().Children(ctx, g, nil, nil, nil, nil)
		if err != nil {
			return nil, err
		}
		out := &SiteSectionGroup{Object: "site-section-group", ID: g.ID, Title: g.Title, SectionGroup: g.ParentID,
			Icon: g.Icon, Sections: []*SiteSection{}, Children: []any{}}
		for _, n := range conn.Nodes {
			item, err := a.presentItem(ctx, n, key)
			if err != nil {
				return nil, err
			}
			out.Children = append(out.Children, item)
			if sec, ok := item.(*SiteSection); ok {
				out.Sections = append(out.Sections, sec)
			}
		}
		return out, nil
	}
}

// presentItem presents a member of the site structure union.
func (a *API) presentItem(ctx context.Context, n types.Node, key *string) (StructureItem, error) {
	switch v := n.(type) {
	case *ent.SiteSection:
		return a.presentSection(key)(ctx, v)
	case *ent.SiteSectionGroup:
		return a.presentGroup(key)(ctx, v)
	case *ent.SiteSpace:
		return a.presentSiteSpace(key)(ctx, v)
	}
	return nil, fmt.Errorf("unexpected structure item %T", n)
}

// SiteStructure is the documented site structure.
type SiteStructure struct {
	Type      string `json:"type"`
	Structure []any  `json:"structure" oneOf:"SiteSpace,SiteSection,SiteSectionGroup"`
}

func (a *API) presentStructure(ctx context.Context, s *model.SiteStructure, key *string) (*SiteStructure, error) {
	out := &SiteStructure{Type: s.Type, Structure: make([]any, 0, len(s.Structure))}
	if len(s.Structure) > 0 {
		st, err := a.siteOfItem(ctx, s.Structure[0])
		if err != nil {
			return nil, err
		}
		if err := a.r.ViewSites(ctx, []string{st.ID}, presentedSpaces); err != nil {
			return nil, err
		}
	}
	for _, it := range s.Structure {
		p, err := a.presentItem(ctx, it, key)
		if err != nil {
			return nil, err
		}
		out.Structure = append(out.Structure, p)
	}
	return out, nil
}

func (a *API) siteOfItem(ctx context.Context, n types.Node) (*ent.Site, error) {
	switch v := n.(type) {
	case *ent.SiteSection:
		return a.r.SiteSection().Site(ctx, v)
	case *ent.SiteSectionGroup:
		return a.r.SiteSectionGroup().Site(ctx, v)
	case *ent.SiteSpace:
		return a.r.SiteSpace().Site(ctx, v)
	}
	return nil, fmt.Errorf("unexpected structure item %T", n)
}
