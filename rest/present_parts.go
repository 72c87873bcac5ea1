package rest

import "quire/graph/model"

// REST's own copies of the small objects that resolver methods return as
// GraphQL model types (URLs, trials, site icons, merge conflicts...). The
// documented bodies carry these, never the model types, so that a change to
// the GraphQL schema cannot change a REST body or the OpenAPI document
// without a change here. Each converter keeps nil as nil, so an absent
// object stays absent (or null) as before.

// UserUrls are the URLs of a user.
type UserUrls struct {
	Location string `json:"location"`
}

func userUrls(u *model.UserUrls) *UserUrls {
	if u == nil {
		return nil
	}
	return &UserUrls{Location: u.Location}
}

// OrganizationUrls are the URLs of an organization.
type OrganizationUrls struct {
	Location string  `json:"location"`
	App      string  `json:"app"`
	Logo     *string `json:"logo,omitempty"`
}

func organizationUrls(u *model.OrganizationUrls) *OrganizationUrls {
	if u == nil {
		return nil
	}
	return &OrganizationUrls{Location: u.Location, App: u.App, Logo: u.Logo}
}

// OrganizationTrial is an organization's trial.
type OrganizationTrial struct {
	Status string `json:"status"`
	Count  int    `json:"count"`
}

func organizationTrial(t *model.OrganizationTrial) *OrganizationTrial {
	if t == nil {
		return nil
	}
	return &OrganizationTrial{Status: t.Status, Count: t.Count}
}

// OrganizationDefaultContent is what an organization's readers land on.
type OrganizationDefaultContent struct {
	Type string `json:"type"`
	Site string `json:"site"`
}

func organizationDefaultContent(c *model.OrganizationDefaultContent) *OrganizationDefaultContent {
	if c == nil {
		return nil
	}
	return &OrganizationDefaultContent{Type: c.Type, Site: c.Site}
}

// OrganizationPricing are the prices of an organization's plans.
type OrganizationPricing struct {
	Members *MemberPricing `json:"members"`
	Sites   *SitePricing   `json:"sites"`
}

// MemberPricing are the prices of a member.
type MemberPricing struct {
	Plus2024 *PricePair `json:"plus_2024"`
	Pro2024  *PricePair `json:"pro_2024"`
}

// SitePricing are the prices of a site.
type SitePricing struct {
	Premium  *PricePair `json:"premium"`
	Ultimate *PricePair `json:"ultimate"`
}

// PricePair is a price by month and by year.
type PricePair struct {
	Monthly float64 `json:"monthly"`
	Yearly  float64 `json:"yearly"`
}

func pricePair(p *model.PricePair) *PricePair {
	if p == nil {
		return nil
	}
	return &PricePair{Monthly: p.Monthly, Yearly: p.Yearly}
}

func organizationPricing(p *model.OrganizationPricing) *OrganizationPricing {
	if p == nil {
		return nil
	}
	out := &OrganizationPricing{}
	if m := p.Members; m != nil {
		out.Members = &MemberPricing{Plus2024: pricePair(m.Plus2024), Pro2024: pricePair(m.Pro2024)}
	}
	if s := p.Sites; s != nil {
		out.Sites = &SitePricing{Premium: pricePair(s.Premium), Ultimate: pricePair(s.Ultimate)}
	}
	return out
}

// CollectionUrls are the URLs of a collection.
type CollectionUrls struct {
	Location string `json:"location"`
	App      string `json:"app"`
}

func collectionUrls(u *model.CollectionUrls) *CollectionUrls {
	if u == nil {
		return nil
	}
	return &CollectionUrls{Location: u.Location, App: u.App}
}

// SAMLProviderUrls are the URLs of a SAML provider.
type SAMLProviderUrls struct {
	Location string `json:"location"`
}

func samlProviderUrls(u *model.SAMLProviderUrls) *SAMLProviderUrls {
	if u == nil {
		return nil
	}
	return &SAMLProviderUrls{Location: u.Location}
}

// AgentInstructionsUrls are the URLs of an organization's agent
// instructions.
type AgentInstructionsUrls struct {
	Location string `json:"location"`
}

func agentInstructionsUrls(u *model.AgentInstructionsUrls) *AgentInstructionsUrls {
	if u == nil {
		return nil
	}
	return &AgentInstructionsUrls{Location: u.Location}
}

// SiteUrls are the URLs of a site.
type SiteUrls struct {
	Location  string  `json:"location"`
	App       string  `json:"app"`
	Published *string `json:"published,omitempty"`
}

func siteUrls(u *model.SiteUrls) *SiteUrls {
	if u == nil {
		return nil
	}
	return &SiteUrls{Location: u.Location, App: u.App, Published: u.Published}
}

// SiteIcon is a site's icon: images for light and dark themes, or an emoji.
type SiteIcon struct {
	Icon  *ThemedURL `json:"icon,omitempty"`
	Emoji *string    `json:"emoji,omitempty"`
}

// ThemedURL is a URL for each theme.
type ThemedURL struct {
	Light string `json:"light"`
	Dark  string `json:"dark"`
}

func siteIcon(i *model.SiteIcon) *SiteIcon {
	if i == nil {
		return nil
	}
	out := &SiteIcon{Emoji: i.Emoji}
	if i.Icon != nil {
		out.Icon = &ThemedURL{Light: i.Icon.Light, Dark: i.Icon.Dark}
	}
	return out
}

// SiteProxy is where a site is served behind a proxy.
type SiteProxy struct {
	Origin string `json:"origin"`
	Target string `json:"target"`
}

func siteProxy(p *model.SiteProxy) *SiteProxy {
	if p == nil {
		return nil
	}
	return &SiteProxy{Origin: p.Origin, Target: p.Target}
}

// SiteAdaptiveContent tells whether a site adapts its content to visitors.
type SiteAdaptiveContent struct {
	Enabled bool `json:"enabled"`
}

func siteAdaptiveContent(c *model.SiteAdaptiveContent) *SiteAdaptiveContent {
	if c == nil {
		return nil
	}
	return &SiteAdaptiveContent{Enabled: c.Enabled}
}

// SiteAds is the state of a site's ads.
type SiteAds struct {
	Status      string `json:"status"`
	Submittable *bool  `json:"submittable,omitempty"`
}

func siteAds(a *model.SiteAds) *SiteAds {
	if a == nil {
		return nil
	}
	return &SiteAds{Status: a.Status, Submittable: a.Submittable}
}

// SiteFeature is a feature of a site and the plan that brings it.
type SiteFeature struct {
	ID             string   `json:"id"`
	Plan           string   `json:"plan"`
	Frozen         bool     `json:"frozen"`
	Customizations []string `json:"customizations,omitempty"`
}

// siteFeatures converts features, with plans in the documented spelling
// (legacy-basic), not GraphQL's.
func siteFeatures(fs []*model.SiteFeature) []*SiteFeature {
	if fs == nil {
		return nil
	}
	out := make([]*SiteFeature, len(fs))
	for i, f := range fs {
		if f != nil {
			out[i] = &SiteFeature{ID: f.ID, Plan: rest(f.Plan), Frozen: f.Frozen, Customizations: f.Customizations}
		}
	}
	return out
}

// TranslationStats count a translation's runs.
type TranslationStats struct {
	Runs              int `json:"runs"`
	TotalWords        int `json:"totalWords"`
	TotalPages        int `json:"totalPages"`
	TotalDuration     int `json:"totalDuration"`
	LatestRunDuration int `json:"latestRunDuration"`
	LatestPages       int `json:"latestPages"`
	LatestWords       int `json:"latestWords"`
}

func translationStats(s *model.TranslationStats) *TranslationStats {
	if s == nil {
		return nil
	}
	return &TranslationStats{Runs: s.Runs, TotalWords: s.TotalWords, TotalPages: s.TotalPages,
		TotalDuration: s.TotalDuration, LatestRunDuration: s.LatestRunDuration, LatestPages: s.LatestPages,
		LatestWords: s.LatestWords}
}

// ChangeRequestUrls are the URLs of a change request.
type ChangeRequestUrls struct {
	App      string `json:"app"`
	Location string `json:"location"`
}

func changeRequestUrls(u *model.ChangeRequestUrls) *ChangeRequestUrls {
	if u == nil {
		return nil
	}
	return &ChangeRequestUrls{App: u.App, Location: u.Location}
}

// ChangeRequestReviewUrls are the URLs of a review.
type ChangeRequestReviewUrls struct {
	Location string `json:"location"`
}

func changeRequestReviewUrls(u *model.ChangeRequestReviewUrls) *ChangeRequestReviewUrls {
	if u == nil {
		return nil
	}
	return &ChangeRequestReviewUrls{Location: u.Location}
}

// MergeConflict is what clashes in a merge.
type MergeConflict struct {
	Kind     string  `json:"kind"`
	Page     *string `json:"page,omitempty"`
	File     *string `json:"file,omitempty"`
	Variable *string `json:"variable,omitempty"`
	Message  string  `json:"message"`
	// ReusableContent names a reusable content in conflict.
	ReusableContent *string `json:"reusableContent,omitempty"`
}

// mergeConflicts converts conflicts; none is an empty list, not null.
func mergeConflicts(cs []*model.MergeConflict) []*MergeConflict {
	out := make([]*MergeConflict, 0, len(cs))
	for _, c := range cs {
		if c != nil {
			out = append(out, &MergeConflict{Kind: c.Kind, Page: c.Page, File: c.File, Variable: c.Variable, Message: c.Message, ReusableContent: c.ReusableContent})
		}
	}
	return out
}

// CommentUrls are the URLs of a comment or a reply.
type CommentUrls struct {
	Location string `json:"location"`
}

func commentUrls(u *model.CommentUrls) *CommentUrls {
	if u == nil {
		return nil
	}
	return &CommentUrls{Location: u.Location}
}

// CommentTarget is what a comment was posted on.
type CommentTarget struct {
	Space         string             `json:"space"`
	Revision      string             `json:"revision"`
	ChangeRequest *string            `json:"changeRequest,omitempty"`
	Review        *string            `json:"review,omitempty"`
	Page          *CommentTargetPage `json:"page,omitempty"`
	Node          *CommentTargetNode `json:"node,omitempty"`
	TableCell     *CommentTableCell  `json:"tableCell,omitempty"`
}

// CommentTargetPage is the page a comment was posted on.
type CommentTargetPage struct {
	ID string `json:"id"`
}

// CommentTargetNode is the block a comment was posted on.
type CommentTargetNode struct {
	ID string `json:"id"`
}

// CommentTableCell is the table cell a comment was posted on.
type CommentTableCell struct {
	Record     string `json:"record"`
	Definition string `json:"definition"`
}

func commentTarget(t *model.CommentTarget) *CommentTarget {
	if t == nil {
		return nil
	}
	out := &CommentTarget{Space: t.Space, Revision: t.Revision, ChangeRequest: t.ChangeRequest, Review: t.Review}
	if t.Page != nil {
		out.Page = &CommentTargetPage{ID: t.Page.ID}
	}
	if t.Node != nil {
		out.Node = &CommentTargetNode{ID: t.Node.ID}
	}
	if t.TableCell != nil {
		out.TableCell = &CommentTableCell{Record: t.TableCell.Record, Definition: t.TableCell.Definition}
	}
	return out
}

// RevisionUrls are the URLs of a revision.
type RevisionUrls struct {
	App       string  `json:"app"`
	Published *string `json:"published,omitempty"`
	Public    *string `json:"public,omitempty"`
}

func revisionUrls(u *model.RevisionUrls) *RevisionUrls {
	if u == nil {
		return nil
	}
	return &RevisionUrls{App: u.App, Published: u.Published, Public: u.Public}
}

// PageUrls are the URLs of a page.
type PageUrls struct {
	App string `json:"app"`
}

func pageUrls(u *model.PageUrls) *PageUrls {
	if u == nil {
		return nil
	}
	return &PageUrls{App: u.App}
}

// PageLayout are the layout options of a document page.
type PageLayout struct {
	Width           string `json:"width"`
	Cover           bool   `json:"cover"`
	CoverSize       string `json:"coverSize"`
	Title           bool   `json:"title"`
	Description     bool   `json:"description"`
	TableOfContents bool   `json:"tableOfContents"`
	Outline         bool   `json:"outline"`
	Pagination      bool   `json:"pagination"`
	Metadata        bool   `json:"metadata"`
}

func pageLayout(l *model.PageLayout) *PageLayout {
	if l == nil {
		return nil
	}
	return &PageLayout{Width: l.Width, Cover: l.Cover, CoverSize: l.CoverSize, Title: l.Title,
		Description: l.Description, TableOfContents: l.TableOfContents, Outline: l.Outline,
		Pagination: l.Pagination, Metadata: l.Metadata}
}

// FileDimensions are the width and height of an image.
type FileDimensions struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

func fileDimensions(d *model.FileDimensions) *FileDimensions {
	if d == nil {
		return nil
	}
	return &FileDimensions{Width: d.Width, Height: d.Height}
}

// present converts what a resolver method returned, keeping its error:
// present(userUrls)(r.Urls(ctx, u)).
func present[M, J any](conv func(M) J) func(M, error) (J, error) {
	return func(m M, err error) (J, error) {
		if err != nil {
			var zero J
			return zero, err
		}
		return conv(m), nil
	}
}
