package rest

import (
	"encoding/json"

	"quire/internal/customization"
)

// The request bodies below document what each write accepts; the handlers
// read the same fields (keeping "omitted" and "null" apart, which these
// types cannot express), and the OpenAPI document is generated from them.

// CreateCollectionBody creates a collection.
type CreateCollectionBody struct {
	Title  string `json:"title,omitempty" maxLength:"50"`
	Parent string `json:"parent,omitempty" doc:"Id of the parent collection."`
}

// UpdateCollectionBody patches a collection; omitted fields stay unchanged.
type UpdateCollectionBody struct {
	Title        string  `json:"title,omitempty" maxLength:"50"`
	Description  *string `json:"description,omitempty" maxLength:"100" nullable:"true" doc:"null removes it."`
	DefaultLevel *string `json:"defaultLevel,omitempty" nullable:"true" enum:"admin,create,review,edit,comment,read,inherit"`
}

// CreateSpaceBody creates a space.
type CreateSpaceBody struct {
	Title    string `json:"title,omitempty" maxLength:"50"`
	Emoji    string `json:"emoji,omitempty" maxLength:"50"`
	Parent   string `json:"parent,omitempty" doc:"Id of the parent collection."`
	Language string `json:"language,omitempty" enumOf:"language"`
	EditMode string `json:"editMode,omitempty" enum:"live,locked"`
	Empty    bool   `json:"empty,omitempty" doc:"Create a completely empty space."`
}

// UpdateSpaceBody patches a space; omitted fields stay unchanged.
type UpdateSpaceBody struct {
	EditMode     string          `json:"editMode,omitempty" enum:"live,locked"`
	Title        string          `json:"title,omitempty" maxLength:"50"`
	DefaultLevel *string         `json:"defaultLevel,omitempty" nullable:"true" enum:"admin,create,review,edit,comment,read,inherit"`
	Language     *string         `json:"language,omitempty" nullable:"true" enumOf:"language"`
	MergeRules   *MergeRulesBody `json:"mergeRules,omitempty"`
	Emoji        *string         `json:"emoji,omitempty" maxLength:"50" nullable:"true" doc:"null removes it."`
	Icon         *string         `json:"icon,omitempty" maxLength:"2048" nullable:"true" format:"uri" doc:"URL of a custom icon; null removes it."`
}

// MergeRulesBody configures merge rules.
type MergeRulesBody struct {
	Type  string          `json:"type" enum:"inherit,rules,none"`
	Rules []MergeRuleBody `json:"rules,omitempty"`
}

// MergeRuleBody is one merge rule.
type MergeRuleBody struct {
	Rule       string   `json:"rule"`
	Users      []string `json:"users,omitempty"`
	Expression string   `json:"expression,omitempty" maxLength:"1024"`
}

// ContentPointerBody names a sibling space or collection.
type ContentPointerBody struct {
	Type       string `json:"type" enum:"space,collection"`
	Space      string `json:"space,omitempty"`
	Collection string `json:"collection,omitempty"`
}

// ContentPositionBody places an item among its siblings.
type ContentPositionBody struct {
	Before *ContentPointerBody `json:"before,omitempty"`
	After  *ContentPointerBody `json:"after,omitempty"`
}

// MoveBody moves a collection or a space.
type MoveBody struct {
	Parent   *string              `json:"parent,omitempty" nullable:"true" doc:"Id of the new parent collection; null for the organization's root."`
	Position *ContentPositionBody `json:"position,omitempty" doc:"Where among the siblings; at the end when omitted."`
}

// TransferBody transfers to another organization.
type TransferBody struct {
	Organization string `json:"organization" doc:"Id of the target organization."`
}

// CreateSiteBody creates a docs site.
type CreateSiteBody struct {
	Type       string   `json:"type,omitempty" enum:"basic,premium,ultimate,sponsored,legacy-basic,legacy-premium"`
	Title      string   `json:"title,omitempty" minLength:"2" maxLength:"128"`
	Visibility string   `json:"visibility,omitempty" enum:"public,unlisted,share-link,visitor-auth"`
	Spaces     []string `json:"spaces,omitempty" doc:"Ids of spaces to publish as site spaces."`
}

// UpdateSiteBody patches a docs site; omitted fields stay unchanged.
type UpdateSiteBody struct {
	Title              string               `json:"title,omitempty" minLength:"2" maxLength:"128"`
	Visibility         string               `json:"visibility,omitempty" enum:"public,unlisted,share-link,visitor-auth"`
	Basename           string               `json:"basename,omitempty" maxLength:"100"`
	AdaptiveContent    *AdaptiveContentBody `json:"adaptiveContent,omitempty"`
	AgentsContext      string               `json:"agentsContext,omitempty" enum:"excluded,included"`
	DefaultSiteSpace   string               `json:"defaultSiteSpace,omitempty"`
	DefaultSiteSection string               `json:"defaultSiteSection,omitempty"`
	Proxy              *string              `json:"proxy,omitempty" nullable:"true" pattern:"^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$" doc:"null removes the proxy."`
	Hostname           *string              `json:"hostname,omitempty" nullable:"true" pattern:"^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$"`
}

// AdaptiveContentBody turns adaptive content on or off.
type AdaptiveContentBody struct {
	Enabled bool `json:"enabled"`
}

// AddSiteSpaceBody adds a space to a site.
type AddSiteSpaceBody struct {
	SpaceID   string `json:"spaceId"`
	SectionID string `json:"sectionId,omitempty" doc:"When omitted: the default section, or the root of a site without sections."`
}

// UpdateSiteSpaceBody patches a site space; omitted fields stay unchanged.
type UpdateSiteSpaceBody struct {
	Path      string  `json:"path,omitempty" minLength:"1" maxLength:"100"`
	Condition *string `json:"condition,omitempty" maxLength:"1024" nullable:"true" doc:"Visitor condition; null removes it."`
	SpaceID   string  `json:"spaceId,omitempty"`
	Hidden    bool    `json:"hidden,omitempty"`
}

// AddSectionBody adds a section.
type AddSectionBody struct {
	SpaceID string  `json:"spaceId"`
	Title   *string `json:"title,omitempty" minLength:"2" maxLength:"128" nullable:"true"`
	Icon    *string `json:"icon,omitempty" maxLength:"50" nullable:"true"`
}

// UpdateSectionBody patches a section; omitted fields stay unchanged.
type UpdateSectionBody struct {
	Title            string  `json:"title,omitempty" minLength:"2" maxLength:"128"`
	Path             string  `json:"path,omitempty" minLength:"1" maxLength:"100"`
	DefaultSiteSpace string  `json:"defaultSiteSpace,omitempty"`
	Condition        *string `json:"condition,omitempty" maxLength:"1024" nullable:"true"`
	Icon             *string `json:"icon,omitempty" maxLength:"50" nullable:"true"`
	Description      *string `json:"description,omitempty" maxLength:"256" nullable:"true"`
}

// CreateGroupBody creates a section group.
type CreateGroupBody struct {
	Title    string   `json:"title" minLength:"1" maxLength:"100"`
	Icon     *string  `json:"icon,omitempty" maxLength:"50" nullable:"true"`
	Sections []string `json:"sections,omitempty"`
	Parent   string   `json:"parent,omitempty"`
}

// UpdateGroupBody patches a section group.
type UpdateGroupBody struct {
	Title string  `json:"title,omitempty" minLength:"1" maxLength:"100"`
	Icon  *string `json:"icon,omitempty" maxLength:"50" nullable:"true"`
}

// AddSectionToGroupBody adds a section to a group.
type AddSectionToGroupBody struct {
	SectionID string `json:"sectionId"`
}

// StructurePointerBody names an item of a site's structure.
type StructurePointerBody struct {
	Type string `json:"type" enum:"site-space,site-section,site-section-group"`
	ID   string `json:"id"`
}

// StructurePositionBody places an item.
type StructurePositionBody struct {
	Before *StructurePointerBody `json:"before,omitempty"`
	After  *StructurePointerBody `json:"after,omitempty"`
}

// SortStructureBody moves one item of a site's structure.
type SortStructureBody struct {
	Item     StructurePointerBody  `json:"item"`
	Position StructurePositionBody `json:"position"`
}

// LegacyMoveBody is the body of the deprecated move operations.
type LegacyMoveBody struct {
	Position *json.RawMessage `json:"position,omitempty" doc:"{before?, after?}, each a pointer to a sibling."`
}

// AdaptiveSchemaBody sets a site's visitor attributes schema.
type AdaptiveSchemaBody struct {
	JSONSchema json.RawMessage `json:"jsonSchema" doc:"A JSON Schema (draft-07) object describing the visitor's claims."`
}

// CreateShareLinkBody creates a share link.
type CreateShareLinkBody struct {
	Name string `json:"name" maxLength:"50"`
}

// UpdateShareLinkBody patches a share link.
type UpdateShareLinkBody struct {
	Name   string `json:"name,omitempty" maxLength:"50"`
	Active bool   `json:"active,omitempty"`
}

// CustomizationSettings are a site's customization settings.
type CustomizationSettings = customization.Settings

// TemplateConditions is the list of example conditions.
type TemplateConditions struct {
	Items []TemplateCondition `json:"items"`
}

// StructureItem is one of SiteSpace, SiteSection or SiteSectionGroup.
type StructureItem struct{}
