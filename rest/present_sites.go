package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"quire/ent"
	"quire/graph/leaf"
	"quire/graph/model"
	"quire/internal/types"
)

// Site is the documented docs site object.
type Site struct {
	Object          string                     `json:"object"`
	ID              string                     `json:"id"`
	Type            string                     `json:"type"`
	AppliedType     string                     `json:"appliedType"`
	Title           string                     `json:"title"`
	Icon            *model.SiteIcon            `json:"icon,omitempty"`
	Hostname        *string                    `json:"hostname,omitempty"`
	Basename        string                     `json:"basename"`
	Proxy           *model.SiteProxy           `json:"proxy,omitempty"`
	Visibility      string                     `json:"visibility"`
	Published       bool                       `json:"published"`
	SiteSpaces      int                        `json:"siteSpaces"`
	CreatedAt       time.Time                  `json:"createdAt"`
	AdaptiveContent *model.SiteAdaptiveContent `json:"adaptiveContent"`
	Ads             *model.SiteAds             `json:"ads"`
	AgentsContext   string                     `json:"agentsContext"`
	Features        []*model.SiteFeature       `json:"features"`
	URLs            *model.SiteUrls            `json:"urls"`
}

func rest[T ~string](v T) string { return restSpelling(string(v)) }

func (a *API) presentSite(key *string) func(context.Context, *ent.Site) (*Site, error) {
	return func(ctx context.Context, st *ent.Site) (*Site, error) {
		sr := a.r.Site()
		count, err := sr.SiteSpaces(ctx, st)
		if err != nil {
			return nil, err
		}
		icon, err := sr.Icon(ctx, st)
		if err != nil {
			return nil, err
		}
		proxy, err := sr.Proxy(ctx, st)
		if err != nil {
			return nil, err
		}
		ac, _ := sr.AdaptiveContent(ctx, st)
		ads, _ := sr.Ads(ctx, st)
		feats, _ := sr.Features(ctx, st)
		for _, f := range feats {
			// The documented spelling (legacy-basic), not GraphQL's.
			f.Plan = model.SiteType(rest(f.Plan))
		}
		typ, _ := sr.Type(ctx, st)
		applied, _ := sr.AppliedType(ctx, st)
		vis, _ := sr.Visibility(ctx, st)
		agents, _ := sr.AgentsContext(ctx, st)
		urls, err := sr.Urls(ctx, st, key)
		if err != nil {
			return nil, err
		}
		return &Site{
			Object: "site", ID: st.ID, Type: rest(typ), AppliedType: rest(applied), Title: st.Title, Icon: icon,
			Hostname: st.Hostname, Basename: st.Basename, Proxy: proxy, Visibility: rest(vis), Published: st.Published,
			SiteSpaces: count, CreatedAt: st.CreatedAt.UTC(), AdaptiveContent: ac, Ads: ads, AgentsContext: rest(agents),
			Features: feats, URLs: urls,
		}, nil
	}
}

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
func (a *API) presentItem(ctx context.Context, n types.Node, key *string) (any, error) {
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
	var sss []*ent.SiteSpace
	var collect func(items []types.Node)
	collect = func(items []types.Node) {
		for _, it := range items {
			if ss, ok := it.(*ent.SiteSpace); ok {
				sss = append(sss, ss)
			}
		}
	}
	collect(s.Structure)
	if len(sss) == 0 && len(s.Structure) > 0 {
		if st, err := a.siteOfItem(ctx, s.Structure[0]); err == nil {
			sss = a.r.SiteSpacesOfSite(ctx, st)
		}
	}
	if err := a.r.WarmSpaces(ctx, sss); err != nil {
		return nil, err
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

// ShareLink is the documented share link object.
type ShareLink struct {
	Object    string              `json:"object"`
	ID        string              `json:"id"`
	CreatedAt time.Time           `json:"createdAt"`
	Name      string              `json:"name"`
	Active    bool                `json:"active"`
	URLs      *leaf.PublishedUrls `json:"urls"`
}

func (a *API) presentShareLink(ctx context.Context, l *ent.SiteShareLink) (*ShareLink, error) {
	urls, err := a.r.SiteShareLink().Urls(ctx, l)
	if err != nil {
		return nil, err
	}
	return &ShareLink{Object: "share-link", ID: l.ID, CreatedAt: l.CreatedAt.UTC(), Name: l.Name, Active: l.Active, URLs: urls}, nil
}

// SiteScript is a script a published site loads.
type SiteScript struct {
	Script                string  `json:"script"`
	ContentSecurityPolicy *string `json:"contentSecurityPolicy,omitempty"`
	Cookies               bool    `json:"cookies"`
}

// Customizations are a published site's settings.
type Customizations struct {
	Site       json.RawMessage `json:"site"`
	SiteSpaces json.RawMessage `json:"siteSpaces"`
}

// PublishedContentSite is the documented published site profile.
type PublishedContentSite struct {
	Object         string         `json:"object"`
	Site           *Site          `json:"site"`
	Structure      *SiteStructure `json:"structure"`
	Customizations Customizations `json:"customizations"`
	Scripts        []SiteScript   `json:"scripts"`
}

// appendJSON writes the profile as json.Marshal would, but copies the
// customizations, which are compact JSON already (and by far the largest
// part of the document), instead of re-reading them.
func (p PublishedContentSite) appendJSON(dst []byte) ([]byte, error) {
	parts := []struct {
		key string
		v   any
	}{{`{"object":`, p.Object}, {`,"site":`, p.Site}, {`,"structure":`, p.Structure}}
	for _, part := range parts {
		b, err := json.Marshal(part.v)
		if err != nil {
			return nil, err
		}
		dst = append(append(dst, part.key...), b...)
	}
	dst = append(dst, `,"customizations":{"site":`...)
	dst = appendRaw(dst, p.Customizations.Site)
	dst = append(dst, `,"siteSpaces":`...)
	dst = appendRaw(dst, p.Customizations.SiteSpaces)
	b, err := json.Marshal(p.Scripts)
	if err != nil {
		return nil, err
	}
	dst = append(append(dst, `},"scripts":`...), b...)
	return append(dst, '}'), nil
}

func appendRaw(dst []byte, raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return append(dst, "null"...)
	}
	return append(dst, raw...)
}
