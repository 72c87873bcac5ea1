package rest

import (
	"context"
	"encoding/json"
	"time"

	"quire/ent"
	"quire/graph"
	"quire/graph/leaf"
	"quire/graph/model"
)

// The presenters of docs sites, share links, published profiles and
// visitor attributes schemas.

// sites presents docs sites; a page of them reads their structures (their
// counts of site spaces and URLs) in one statement first.
func (a *API) sites() *Kind[*ent.Site, *Site] {
	return presentsKeyed(a.presentSite).warming(func(ctx context.Context, list []*ent.Site) error {
		ids := make([]string, len(list))
		for i, st := range list {
			ids[i] = st.ID
		}
		return a.r.ViewSites(ctx, ids, graph.SiteWant{Structure: true})
	})
}

func (a *API) shareLinks() *Kind[*ent.SiteShareLink, *ShareLink] { return presents(a.presentShareLink) }

func (a *API) publishedProfiles() *Kind[*model.PublishedContentSite, *PublishedContentSite] {
	return presentsKeyed(a.presentPublished)
}

func visitorKeys() *Kind[*model.SiteVisitorKey, *VisitorKey] {
	return presents(func(_ context.Context, k *model.SiteVisitorKey) (*VisitorKey, error) {
		return &VisitorKey{Object: k.Object, Key: k.Key, CreatedAt: k.CreatedAt}, nil
	})
}

func (a *API) adaptiveSchemas() *Kind[*model.SiteAdaptiveSchema, *AdaptiveSchema] {
	return presents(func(_ context.Context, s *model.SiteAdaptiveSchema) (*AdaptiveSchema, error) {
		return &AdaptiveSchema{Object: s.Object, JSONSchema: json.RawMessage(s.JSONSchema), UpdatedAt: s.UpdatedAt}, nil
	})
}

var templateConditions = presents(func(_ context.Context, list []*model.SiteTemplateCondition) (*TemplateConditions, error) {
	items := make([]TemplateCondition, len(list))
	for i, c := range list {
		items[i] = TemplateCondition{Description: c.Description, Condition: c.Condition}
	}
	return &TemplateConditions{Items: items}, nil
})

// Site is the documented docs site object.
type Site struct {
	Object          string               `json:"object"`
	ID              string               `json:"id"`
	Type            string               `json:"type"`
	AppliedType     string               `json:"appliedType"`
	Title           string               `json:"title"`
	Icon            *SiteIcon            `json:"icon,omitempty"`
	Hostname        *string              `json:"hostname,omitempty"`
	Basename        string               `json:"basename"`
	Proxy           *SiteProxy           `json:"proxy,omitempty"`
	Visibility      string               `json:"visibility"`
	Published       bool                 `json:"published"`
	SiteSpaces      int                  `json:"siteSpaces"`
	CreatedAt       time.Time            `json:"createdAt"`
	AdaptiveContent *SiteAdaptiveContent `json:"adaptiveContent"`
	Ads             *SiteAds             `json:"ads"`
	AgentsContext   string               `json:"agentsContext"`
	Features        []*SiteFeature       `json:"features"`
	URLs            *SiteUrls            `json:"urls"`
}

func rest[T ~string](v T) string { return restSpelling(string(v)) }

func (s *Site) apiLocation() string { return s.URLs.Location }

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
		typ, _ := sr.Type(ctx, st)
		applied, _ := sr.AppliedType(ctx, st)
		vis, _ := sr.Visibility(ctx, st)
		agents, _ := sr.AgentsContext(ctx, st)
		urls, err := sr.Urls(ctx, st, key)
		if err != nil {
			return nil, err
		}
		return &Site{
			Object: "site", ID: st.ID, Type: rest(typ), AppliedType: rest(applied), Title: st.Title, Icon: siteIcon(icon),
			Hostname: st.Hostname, Basename: st.Basename, Proxy: siteProxy(proxy), Visibility: rest(vis), Published: st.Published,
			SiteSpaces: count, CreatedAt: st.CreatedAt.UTC(), AdaptiveContent: siteAdaptiveContent(ac), Ads: siteAds(ads), AgentsContext: rest(agents),
			Features: siteFeatures(feats), URLs: siteUrls(urls),
		}, nil
	}
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

func (a *API) presentPublished(key *string) func(context.Context, *model.PublishedContentSite) (*PublishedContentSite, error) {
	return func(ctx context.Context, p *model.PublishedContentSite) (*PublishedContentSite, error) {
		site, err := a.presentSite(key)(ctx, p.Site)
		if err != nil {
			return nil, err
		}
		structure, err := a.presentStructure(ctx, p.Structure, key)
		if err != nil {
			return nil, err
		}
		scripts := make([]SiteScript, 0, len(p.Scripts))
		for _, s := range p.Scripts {
			scripts = append(scripts, SiteScript{Script: s.Script, ContentSecurityPolicy: s.ContentSecurityPolicy, Cookies: s.Cookies})
		}
		return &PublishedContentSite{
			Object:         "published-content-site",
			Site:           site,
			Structure:      structure,
			Customizations: Customizations{Site: json.RawMessage(p.Customizations.Site), SiteSpaces: json.RawMessage(p.Customizations.SiteSpaces)},
			Scripts:        scripts,
		}, nil
	}
}

// AdaptiveSchema is the documented visitor attributes schema object.
type AdaptiveSchema struct {
	Object     string          `json:"object"`
	JSONSchema json.RawMessage `json:"jsonSchema"`
	UpdatedAt  time.Time       `json:"updatedAt"`
}

// VisitorKey is a visitor-auth site's key (a Quire extension).
type VisitorKey struct {
	Object    string    `json:"object"`
	Key       string    `json:"key"`
	CreatedAt time.Time `json:"createdAt"`
}

// TemplateCondition is an example condition.
type TemplateCondition struct {
	Description string `json:"description"`
	Condition   string `json:"condition"`
}

// TemplateConditions is the list of example conditions.
type TemplateConditions struct {
	Items []TemplateCondition `json:"items"`
}
