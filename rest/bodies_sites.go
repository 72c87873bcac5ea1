package rest

import (
	"encoding/json"

	"quire/graph"
)

// The request bodies and query parameters of docs sites: sites, share
// links, customization, the visitor attributes schema, and the structure
// (site spaces, sections, section groups).

// CreateSiteBody creates a docs site.
type CreateSiteBody struct {
	Type       Opt[string] `json:"type" nullable:"true" enum:"basic,premium,ultimate,sponsored,legacy-basic,legacy-premium"`
	Title      Opt[string] `json:"title" minLength:"2" maxLength:"128" limit:"minLength=sites.TitleMin,maxLength=sites.TitleMax" phrasing:"range" nullable:"true"`
	Visibility Opt[string] `json:"visibility" nullable:"true" enum:"public,unlisted,share-link,visitor-auth"`
	Spaces     []string    `json:"spaces,omitempty" nullable:"true" maxItems:"1000" limit:"maxItems=rest.MaxSiteSpaceIDs" doc:"Ids of spaces to publish as site spaces."`
}

// UpdateSiteBody patches a docs site; omitted fields stay unchanged.
type UpdateSiteBody struct {
	Title              Opt[string]              `json:"title" minLength:"2" maxLength:"128" limit:"minLength=sites.TitleMin,maxLength=sites.TitleMax" phrasing:"range"`
	Visibility         Opt[string]              `json:"visibility" enum:"public,unlisted,share-link,visitor-auth"`
	Basename           Opt[string]              `json:"basename" minLength:"1" maxLength:"100" limit:"minLength=nonEmpty,maxLength=sites.BasenameMax" phrasing:"range"`
	AdaptiveContent    Opt[AdaptiveContentBody] `json:"adaptiveContent"`
	AgentsContext      Opt[string]              `json:"agentsContext" enum:"excluded,included"`
	DefaultSiteSpace   Opt[string]              `json:"defaultSiteSpace"`
	DefaultSiteSection Opt[string]              `json:"defaultSiteSection"`
	Proxy              Opt[string]              `json:"proxy" nullable:"true" pattern:"^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$" mustBe:"a domain followed by a path, such as example.com/docs" doc:"null removes the proxy."`
	Hostname           Opt[string]              `json:"hostname" nullable:"true" pattern:"^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$" mustBe:"a lowercase domain name such as docs.example.com"`
}

// AdaptiveContentBody turns adaptive content on or off.
type AdaptiveContentBody struct {
	Enabled bool `json:"enabled"`
}

// AdaptiveSchemaBody sets a site's visitor attributes schema.
type AdaptiveSchemaBody struct {
	JSONSchema json.RawMessage `json:"jsonSchema" doc:"A JSON Schema (draft-07) object describing the visitor's claims."`
}

// CreateShareLinkBody creates a share link.
type CreateShareLinkBody struct {
	Name string `json:"name" maxLength:"50" limit:"maxLength=sites.ShareLinkNameMax" phrasing:"range"`
}

// UpdateShareLinkBody patches a share link.
type UpdateShareLinkBody struct {
	Name   Opt[string] `json:"name" maxLength:"50" limit:"maxLength=sites.ShareLinkNameMax" phrasing:"range"`
	Active Opt[bool]   `json:"active"`
}

// CustomizationBody is a site's customization settings, or a site space's
// overrides of them: the engine reads them itself, key by key, so that its
// errors name the JSON path of the key at fault.
type CustomizationBody = RawObject[graph.CustomizationSettings]

// SiteListParams are the filters of an organization's site list.
type SiteListParams struct {
	ListParams
	Space     string   `query:"space" doc:"Only sites publishing this space."`
	Title     string   `query:"title" doc:"Only sites whose title contains this text (case-insensitive)."`
	Published *bool    `query:"published" doc:"Only published (true) or unpublished (false) sites."`
	Type      []string `query:"type" enum:"basic,premium,ultimate,sponsored,legacy-basic,legacy-premium" doc:"Only sites of these types."`
}

// AddSiteSpaceBody adds a space to a site.
type AddSiteSpaceBody struct {
	SpaceID   string      `json:"spaceId"`
	SectionID Opt[string] `json:"sectionId" nullable:"true" doc:"When omitted: the default section, or the root of a site without sections."`
}

// UpdateSiteSpaceBody patches a site space; omitted fields stay unchanged.
type UpdateSiteSpaceBody struct {
	Path      Opt[string] `json:"path" minLength:"1" maxLength:"100" limit:"minLength=nonEmpty,maxLength=sites.PathMax" phrasing:"range"`
	Condition Opt[string] `json:"condition" maxLength:"1024" limit:"maxLength=conditions.MaxLength" phrasing:"condition" nullable:"true" doc:"Visitor condition; null removes it."`
	SpaceID   Opt[string] `json:"spaceId"`
	Hidden    Opt[bool]   `json:"hidden"`
}

// AddSectionBody adds a section.
type AddSectionBody struct {
	SpaceID string      `json:"spaceId"`
	Title   Opt[string] `json:"title" minLength:"2" maxLength:"128" limit:"minLength=sites.TitleMin,maxLength=sites.TitleMax" phrasing:"range" nullable:"true"`
	Icon    Opt[string] `json:"icon" maxLength:"50" limit:"maxLength=sites.IconMax" phrasing:"range" nullable:"true"`
}

// UpdateSectionBody patches a section; omitted fields stay unchanged.
type UpdateSectionBody struct {
	Title            Opt[string] `json:"title" minLength:"2" maxLength:"128" limit:"minLength=sites.TitleMin,maxLength=sites.TitleMax" phrasing:"range"`
	Path             Opt[string] `json:"path" minLength:"1" maxLength:"100" limit:"minLength=nonEmpty,maxLength=sites.PathMax" phrasing:"range"`
	DefaultSiteSpace Opt[string] `json:"defaultSiteSpace"`
	Condition        Opt[string] `json:"condition" maxLength:"1024" limit:"maxLength=conditions.MaxLength" phrasing:"condition" nullable:"true"`
	Icon             Opt[string] `json:"icon" maxLength:"50" limit:"maxLength=sites.IconMax" phrasing:"range" nullable:"true"`
	Description      Opt[string] `json:"description" maxLength:"256" limit:"maxLength=sites.DescriptionMax" phrasing:"range" nullable:"true"`
}

// CreateGroupBody creates a section group.
type CreateGroupBody struct {
	Title    string      `json:"title" minLength:"1" maxLength:"100" limit:"minLength=nonEmpty,maxLength=sites.GroupTitleMax" phrasing:"range"`
	Icon     Opt[string] `json:"icon" maxLength:"50" limit:"maxLength=sites.IconMax" phrasing:"range" nullable:"true"`
	Sections []string    `json:"sections,omitempty" nullable:"true" maxItems:"1000" limit:"maxItems=rest.MaxGroupSectionIDs"`
	Parent   Opt[string] `json:"parent" nullable:"true"`
}

// UpdateGroupBody patches a section group.
type UpdateGroupBody struct {
	Title Opt[string] `json:"title" minLength:"1" maxLength:"100" limit:"minLength=nonEmpty,maxLength=sites.GroupTitleMax" phrasing:"range"`
	Icon  Opt[string] `json:"icon" maxLength:"50" limit:"maxLength=sites.IconMax" phrasing:"range" nullable:"true"`
}

// AddSectionToGroupBody adds a section to a group.
type AddSectionToGroupBody struct {
	SectionID string `json:"sectionId"`
}

// StructurePointerBody names an item of a site's structure.
type StructurePointerBody struct {
	Type string `json:"type" enum:"site-space,site-section,site-section-group"`
	ID   string `json:"id" minLength:"1" limit:"minLength=nonEmpty" phrasing:"required"`
}

// StructurePositionBody places an item.
type StructurePositionBody struct {
	Before *StructurePointerBody `json:"before,omitempty" nullable:"true"`
	After  *StructurePointerBody `json:"after,omitempty" nullable:"true"`
}

// SortStructureBody moves one item of a site's structure.
type SortStructureBody struct {
	Item     StructurePointerBody   `json:"item"`
	Position *StructurePositionBody `json:"position,omitempty" nullable:"true" doc:"At the end of the item's parent when omitted."`
}

// LegacyPointerBody names a sibling in the deprecated move operations: a
// site space by siteSpace (or id), a section by siteSection (or id), a
// group by id.
type LegacyPointerBody struct {
	Type        string `json:"type,omitempty" enum:"site-space,site-section,site-section-group"`
	ID          string `json:"id,omitempty"`
	SiteSpace   string `json:"siteSpace,omitempty"`
	SiteSection string `json:"siteSection,omitempty"`
}

// LegacyPositionBody places an item in the deprecated move operations.
type LegacyPositionBody struct {
	Before *LegacyPointerBody `json:"before,omitempty" nullable:"true"`
	After  *LegacyPointerBody `json:"after,omitempty" nullable:"true"`
}

// LegacyMoveBody is the body of the deprecated move operations.
type LegacyMoveBody struct {
	Position *LegacyPositionBody `json:"position,omitempty" nullable:"true" doc:"Where among the siblings; at the end when omitted."`
}

// SiteSpaceListParams are the parameters of a site's site space list.
type SiteSpaceListParams struct {
	ShareKeyParams
	Default *bool `query:"default" doc:"true: only the default site space; false: only the others."`
	ListParams
}

// KeyedListParams are the parameters of a list whose items carry
// published URLs.
type KeyedListParams struct {
	ShareKeyParams
	ListParams
}
